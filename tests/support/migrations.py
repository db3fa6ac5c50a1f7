"""Running one app's migrations back and forth inside a test, then leaving the schema
as every other test expects it: every app at its latest migration. Leaving it at the
migration under test dropped the tables of the app's later migrations for the rest
of that process's tests (cadence 0014's closures did).

A migration-forward test (a model moved between apps keeps its rows) is built from
the small pieces below: `migrate_to` the migration state before the move (every
app's leaf then; `(app, None)` for an app that did not exist yet), `insert` a row
in each table with raw SQL (the models have moved, the tables have not), migrate to
the latest state, then find the rows through the new models. Always finish with
`migrate_to_latest` (in a `finally` or a fixture's teardown)."""

from collections.abc import Iterable

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

Target = tuple[str, str | None]


def _executor() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor


def migrate(target: tuple[str, str]) -> None:
    migrate_to([target])


def migrate_to(targets: Iterable[Target]) -> None:
    """Every named app at its named migration (`None`: none of its migrations); the
    apps not named stay where they are."""
    _executor().migrate(list(targets))


def migrate_to_latest() -> None:
    executor = _executor()
    executor.migrate(executor.loader.graph.leaf_nodes())


def apps_at(targets: Iterable[Target]):
    """The historical models at that migration state (for rows that need the models
    as they were then, e.g. a user to point at)."""
    executor = _executor()
    return executor.loader.project_state(list(targets)).apps


def insert(table: str, **values) -> int:
    """One row by raw SQL; its id. Column names as in the table (`owner_id`)."""
    columns = ", ".join(connection.ops.quote_name(c) for c in values)
    marks = ", ".join(["%s"] * len(values))
    sql = f"INSERT INTO {connection.ops.quote_name(table)} ({columns}) VALUES ({marks})"
    with connection.cursor() as cursor:
        if connection.features.can_return_columns_from_insert:
            cursor.execute(sql + " RETURNING id", list(values.values()))
            return cursor.fetchone()[0]
        cursor.execute(sql, list(values.values()))
        return cursor.lastrowid


def count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
        return cursor.fetchone()[0]
