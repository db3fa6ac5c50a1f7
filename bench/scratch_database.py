"""A benchmark's own PostgreSQL database: created empty before it runs, dropped after
(unless kept to look at). BENCH_DATABASE_URL names it; each benchmark has its default."""

import os
from collections.abc import Iterator
from contextlib import contextmanager


def bench_database_url(default_name: str) -> str:
    return os.environ.get(
        "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{default_name}"
    )


@contextmanager
def scratch_database(default_name: str, *, keep: bool = False, **env: str) -> Iterator[str]:
    """Point Django at a fresh database with a deployment's settings (no test-only
    instrumentation, debug off) and `env` besides; yield its URL, then drop it."""
    url = bench_database_url(default_name)
    os.environ.update(
        DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings.local", DEBUG="false", **env
    )
    recreate_database(url)
    try:
        yield url
    finally:
        if not keep:
            from django.db import connections

            connections.close_all()
            drop_database(url)


def recreate_database(url: str) -> None:
    admin, name = _admin(url)
    with admin.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    admin.close()


def drop_database(url: str) -> None:
    admin, name = _admin(url)
    with admin.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()


def _admin(url: str):
    """An autocommit connection to the server's `postgres` database, and the name of
    the database `url` names."""
    import environ
    import psycopg2

    config = environ.Env.db_url_config(url)
    admin = psycopg2.connect(
        dbname="postgres",
        user=config["USER"],
        password=config["PASSWORD"],
        host=config["HOST"],
        port=config["PORT"] or 5432,
    )
    admin.autocommit = True
    return admin, config["NAME"]
