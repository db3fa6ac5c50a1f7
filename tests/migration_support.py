"""Running one app's migrations back and forth inside a test, then leaving the schema
as every other test expects it: every app at its latest migration. Leaving it at the
migration under test dropped the tables of the app's later migrations for the rest
of that process's tests (cadence 0014's closures did)."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
