"""Fixtures for fault tests (marked `faults`): one private PostgreSQL cluster per run
holding the demo organisation as a template, a fresh copy of it per test, a private
Redis per test. Skipped where the server binaries are missing."""

import itertools
import os

import pytest

from . import services

_copies = itertools.count(1)


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    why = services.missing()
    if why:
        pytest.skip(why)
    pg = services.PrivatePostgres()
    try:
        pg.start()
        pg.create_database("demo")
        env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE=services.SETTINGS,
            DATABASE_URL=pg.url("demo"),
            CACHE_URL="locmemcache://seed",
            CELERY_BROKER_URL="memory://",
        )
        services.manage(env, "migrate", "--noinput", "-v0")
        services.manage(env, "seed_demo")
        yield pg
    finally:
        pg.destroy()


@pytest.fixture
def database(cluster):
    """A copy of the demo database of this test's own; its URL."""
    name = f"demo_copy_{next(_copies)}"
    cluster.sql(f'CREATE DATABASE "{name}" TEMPLATE demo', database="postgres", autocommit=True)
    return name


@pytest.fixture
def redis(tmp_path):
    server = services.PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def mail_dir(tmp_path):
    folder = tmp_path / "mail"
    folder.mkdir()
    return folder


@pytest.fixture
def processes():
    """Processes a test starts; stopped afterwards, their logs shown if it failed."""
    started: list[services.Process] = []
    yield started
    for process in started:
        process.stop()
