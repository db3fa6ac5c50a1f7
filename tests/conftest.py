import gc
import os
from datetime import datetime

import pytest
import time_machine
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, OperationalError, connection, connections
from django.db.models import F
from hypothesis import settings as hypothesis_settings

from tests.support import serialized_rollback
from tests.support.factories import PASSWORD, UserFactory

# Properties are checked, never timed: Hypothesis's default 200 ms deadline per example
# failed a correct run on a loaded 2-core machine (scorecards' alpha under `-n 2`).
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")

# Playwright's sync API runs an event loop in the test thread; Django then refuses
# ORM calls from it unless told this is fine (it is: one thread, no real async).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# Tests that share an expensive set-up, run on one process under pytest-xdist
# (`-n 2 --dist loadgroup`, as CI runs): the fault tests share one private PostgreSQL
# cluster and Redis (tests/faults/conftest.py), the demo tests one seeded demo
# organisation (tests/devdata/conftest.py).
SHARED_SETUP = {"tests/faults/": "faults", "tests/devdata/": "demo"}


def pytest_itemcollected(item):
    """Marked as each is collected: xdist reads the marks in its own
    `pytest_collection_modifyitems`, before ours (trylast)."""
    for folder, group in SHARED_SETUP.items():
        if item.nodeid.startswith(folder):
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """Stop when the grouping silently stopped working — pytest 9.2's node ids, for
    one, drop xdist's group suffix (pytest-dev/pytest-xdist#1386) — rather than let
    each process seed and start what the group was meant to share."""
    if node.config.getvalue("dist") != "loadgroup":
        return
    lost = [
        nodeid for nodeid in ids if nodeid.startswith(tuple(SHARED_SETUP)) and "@" not in nodeid
    ]
    if lost:
        raise pytest.UsageError(
            f"--dist loadgroup is not grouping {len(lost)} tests (first: {lost[0]}); "
            "check the pytest and pytest-xdist versions"
        )


def pytest_collection_finish(session):
    """Fewer, cheaper garbage collections: what exists once the tests are collected
    (Django, the URL resolver, every test module) lives for the whole run, so the
    collector stops scanning it; and a collection starts after many more new objects
    than Python's default, since a request through the test client makes thousands."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    on_postgres = connection.vendor == "postgresql"
    skip_pg = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(skip_pg)
        _keep_seeded_rows(item)
    # Transactional tests last, whatever reordered the items before this hook (pytest
    # groups tests by higher-scoped fixtures after pytest-django's own sort): a
    # transactional test empties the tables when it ends, and a plain test after it
    # would find none of the rows migrations seed.
    # Within each kind, the longest tests (minutes each) first: under pytest-xdist they
    # then run beside the rest instead of at the end with the other process idle.
    items.sort(key=lambda item: (_is_transactional(item), not item.nodeid.startswith(LONGEST)))


LONGEST = (
    "tests/config/test_api_fuzz.py",
    "tests/faults/",
    "tests/test_authorization_matrix.py",
    "tests/test_forms_bad_input.py",
    "tests/config/test_query_counts_at_two_sizes.py",
    "tests/e2e/test_accessibility.py",  # the longest of the transactional ones, last
)


def _is_transactional(item) -> bool:
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    return bool(
        (marker is not None and marker.kwargs.get("transaction"))
        or {"transactional_db", "live_server"} & fixtures
    )


def _keep_seeded_rows(item):
    """A transactional test empties every table when it ends, and with them the rows
    migrations seed (prompts, the interpretive word list, the scorecard library, the
    playbooks, role groups): serialized rollback puts them back, so no test depends on
    which ran before it."""
    marker = item.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        return
    if not marker.kwargs.get("serialized_rollback"):
        kwargs = {**marker.kwargs, "serialized_rollback": True}
        item.add_marker(pytest.mark.django_db(*marker.args, **kwargs), append=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """After every test that used the database and passed: each participant still
    carries its session's time (`SessionParticipant.scheduled_start`, a copy the
    dashboards read by index). Whatever wrote sessions in the test — services, the
    engine's COPY, the demo, a test's own update — a write that moved a session
    without its participants fails here, where it happened."""
    result = yield
    if _uses_database(item) and not connection.needs_rollback:
        from coaching.models import SessionParticipant

        stale = SessionParticipant.objects.exclude(
            scheduled_start=F("session__scheduled_start")
        ).values_list("session_id", flat=True)[:5]
        try:
            stale = list(stale)
        except OperationalError:  # the test took the database away: nothing to check
            return result
        assert not stale, f"sessions moved without their participants: {stale}"
    return result


def _uses_database(item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db", "live_server"} & fixtures
    )


def pytest_addoption(parser):
    parser.addoption(
        "--clock-at",
        metavar="ISO-8601",
        help="run as if the wall clock had been set to this moment, still ticking",
    )


def pytest_configure(config):
    """`--clock-at 2026-11-29T23:30Z` runs the tests at a chosen moment, to find those
    that pass only at some hours: a date in the viewer's time zone (the factories'
    Berlin) compared with UTC's fails from 23:00 to midnight UTC, a week's start on
    Sunday night, a month's on its last evening. It starts before collection, which
    computes some parameters from today. The database's own now(), and the processes
    tests start (workers, gunicorn, Chromium), keep the real clock: leave those tests
    out (`-m "not worker and not e2e and not faults"`)."""
    moment = config.getoption("--clock-at")
    if moment:
        config.clock_at = time_machine.travel(datetime.fromisoformat(moment), tick=True)
        config.clock_at.start()


def pytest_unconfigure(config):
    if getattr(config, "clock_at", None) is not None:
        config.clock_at.stop()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """Serialized rollback restores the rows migrations seed from a copy Django keeps
    on the connection object that created the test database. Playwright's sync API
    runs browser tests in a greenlet, where Django hands out another connection object
    without that copy, so after the first browser test the seeded rows (prompts,
    playbooks, the scorecard library…) would silently stay empty. Keep the copy where
    every connection object of that backend finds it. And reload them a table at a
    time rather than a row at a time (tests/support/serialized_rollback.py)."""
    serialized_rollback.install()
    wrapper = connections[DEFAULT_DB_ALIAS]
    contents = getattr(wrapper, "_test_serialized_contents", None)
    if contents is not None:
        type(wrapper)._test_serialized_contents = contents
    yield


@pytest.fixture(autouse=True)
def fresh_cache():
    """Every test starts with an empty cache. allauth counts sign-ins per IP in it (30 a
    minute), and with Redis as the cache the count outlives a test, even a test run:
    browser journeys that sign in several times would be refused one day."""
    cache.clear()


@pytest.fixture(autouse=True)
def clock_left_as_found():
    """A test that starts `time_machine.travel(...)` and never stops it leaves the clock
    where it put it for every test after it in the same process — the next worker test
    then writes rows dated days ahead that its worker, on the real clock, never finds
    due. Fail the culprit instead, by name (`--clock-at`'s own travel is there before
    and after, so it counts on both sides), and put the clock back for the tests after
    it."""
    travelling = len(time_machine.traveller_stack)
    yield
    left = len(time_machine.traveller_stack) - travelling
    for _ in range(left):
        # `stop()` ends the newest travel, whichever `travel` object it is called on.
        time_machine.travel(0).stop()
    if left > 0:
        pytest.fail(
            f"this test left {left} time_machine.travel(...) started: use it as a context "
            "manager, the time_machine fixture, or stop() it",
            pytrace=False,
        )


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def root(db):
    """A superuser: whoever runs the installation, who opens every admin page."""
    return UserFactory(
        email="root@example.com", display_name="Root", is_staff=True, is_superuser=True
    )


@pytest.fixture
def org(db):
    """A small organisation: head → manager → two reps; another manager with one rep;
    an HR person and a programme admin (both reporting to the head)."""
    head = UserFactory(display_name="Hana Head", email="head@example.com")
    manager = UserFactory(display_name="Mia Manager", email="manager@example.com", manager=head)
    other_manager = UserFactory(
        display_name="Omar Other", email="other.manager@example.com", manager=head
    )
    rep = UserFactory(display_name="Rita Rep", email="rep@example.com", manager=manager)
    peer = UserFactory(display_name="Pavel Peer", email="peer@example.com", manager=manager)
    other_rep = UserFactory(
        display_name="Olga Outsider", email="other.rep@example.com", manager=other_manager
    )
    hr = UserFactory(display_name="Harriet HR", email="hr@example.com", manager=head, roles=["hr"])
    admin = UserFactory(
        display_name="Adam Admin",
        email="admin@example.com",
        manager=head,
        roles=["programme_admin"],
    )
    admin.is_staff = True
    admin.save(update_fields=["is_staff"])
    return type(
        "Org",
        (),
        dict(
            head=head,
            manager=manager,
            other_manager=other_manager,
            rep=rep,
            peer=peer,
            other_rep=other_rep,
            hr=hr,
            admin=admin,
        ),
    )


@pytest.fixture
def client_for(client):
    """`client_for(user)`: a test client signed in as that person."""

    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in
