"""Every page and API endpoint without parameters — the list pages, the dashboards, the
list endpoints — sends no query more often in an organisation three times the size,
with twice the history, than in a small one, for each kind of person who opens it:
nothing is read once per row. Routes are found by walking the URL resolver, so a new
list page is covered the day it is added; each app's own tests pin the exact numbers.

Queries are compared by shape (the SQL with its values taken out). A shape may appear
in the bigger organisation where the small one had none — a list that was empty there
skips a query — but never more than once, and never more often than in the small one.

Both organisations come from `seed_scale` (deterministic for its seed, size and day),
which loads every kind of row the pages read. Between the two, the database goes back
to what migrations seeded, as between transactional tests."""

import re
from collections import Counter
from datetime import date

import pytest
import time_machine
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from devdata import scale
from people.models import User
from tests.support.urlwalk import routes

pytestmark = pytest.mark.django_db(transaction=True)

TODAY = date(2026, 3, 4)
SMALL, LARGE = {"people_count": 100, "years": 1}, {"people_count": 300, "years": 2}

# Routes that are not a read of data, each with the reason.
NOT_READS = {
    "dashboards:home": "redirects to a home page",
    "favicon": "redirects to a static file",
    "healthz": "checks the database and broker, no data",
    "api:me": "one person",
}


def reads() -> list[str]:
    """Paths of the GET routes without parameters outside the admin, allauth and the
    schema."""
    skipped = ("admin/", "accounts/", "api/schema/", "api/docs/")
    return [
        route.path()
        for route in routes()
        if not route.params and not route.route.startswith(skipped) and route.key not in NOT_READS
    ]


def reset_database() -> None:
    """Empty every table and put back what migrations seeded (the serialized copy the
    test database keeps for transactional tests). The sequences stay where they are, as
    a transactional test's own flush leaves them: `flush` resets them by default, and the
    seeded rows put back with their ids would then sit above a sequence starting at 1 —
    a later test creating a scorecard template got id 1 and a duplicate key."""
    from django.core.management import call_command

    call_command(
        "flush",
        verbosity=0,
        interactive=False,
        inhibit_post_migrate=True,
        reset_sequences=False,
    )
    wrapper = connections[DEFAULT_DB_ALIAS]
    wrapper.creation.deserialize_db_from_string(wrapper._test_serialized_contents)


_VALUES = [
    (re.compile(r"'(?:[^']|'')*'"), "?"),  # strings
    (re.compile(r"\b\d+(?:\.\d+)?\b"), "?"),  # numbers
    (re.compile(r"\((?:\?|%s)(?:, (?:\?|%s))*\)"), "(…)"),  # IN lists of any length
    (re.compile(r"VALUES \(…\)(?:, \(…\))+"), "VALUES (…)×n"),  # a bulk insert
]
# Statements a page sends twice by design, by path and the statement's start, each
# with the reason: two fixed sets of rows, never once per row.
TWICE = {
    (
        "/team/",
        'SELECT "coaching_sessionrating"."coach_id" AS "coach_id", COUNT(',
    ): "session usefulness: the reader's own, live, and that of the managers below, worked "
    "out once per refresh slot (the small organisation's managers below had none counted)",
}


# A person's own one-of-a-kind record answers 404 where they have none, and whether the
# seed gave the rep an open request for a peer is chance (reps in a live pair have
# none): one record, however big the organisation, compared when both walks read it.
ONE_OF_A_KIND = {"/api/v1/peer-request/"}


def twice_by_design(path: str, sql: str, n: int) -> bool:
    return n == 2 and any(path == p and sql.startswith(start) for p, start in TWICE)


# A bulk insert is one statement on PostgreSQL; SQLite splits it every few hundred rows
# (its limit on parameters). That is batching, not a query per row.
BULK = "VALUES (…)×n"


def shape(sql: str) -> str:
    for pattern, replacement in _VALUES:
        sql = pattern.sub(replacement, sql)
    return sql


def shapes(client, size: dict) -> dict[tuple[str, str], Counter]:
    """Seed an organisation, then open every read as each kind of person:
    (who, path) → how often each query shape was sent (requests that succeed)."""
    # HR's snapshots are cached per time slot, not per database: the other
    # organisation's must not be found here (the database was reset, the cache too).
    cache.clear()
    result = scale.seed(**size, today=TODAY)
    found: dict[tuple[str, str], Counter] = {}
    for who, email in result.logins:
        if "@" not in email:
            continue  # the password line
        # What is kept per refresh slot and time zone (HR's snapshots, the install
        # plans' evidence) each person's walk works out for itself: whether an earlier
        # person read in the same zone is not what is compared.
        cache.clear()
        client.force_login(User.objects.get(email=email))
        for path in reads():
            with CaptureQueriesContext(connection) as queries:
                response = client.get(path)
            if response.status_code == 200:
                found[(who, path)] = Counter(shape(q["sql"]) for q in queries)
    return found


def test_no_query_is_sent_more_often_in_a_bigger_organisation(client):
    # One moment for both walks: HR's snapshot is computed once per five-minute slot,
    # so a slot starting mid-walk made a later reader compute it again (2× where the
    # small organisation's walk, all in one slot, had 0×).
    with time_machine.travel(timezone.now(), tick=False):
        small = shapes(client, SMALL)
        reset_database()
        large = shapes(client, LARGE)
    differ = set(small) ^ set(large)
    assert {path for _, path in differ} <= ONE_OF_A_KIND, differ
    grew = {
        f"{who} {path}: {n}× (was {small[(who, path)][sql]}×) {sql[:160]}"
        for (who, path) in large.keys() & small.keys()
        for sql, n in large[(who, path)].items()
        if n > max(small[(who, path)][sql], 1)
        and BULK not in sql
        and not twice_by_design(path, sql, n)
    }
    assert not grew, "\n".join(sorted(grew))
    assert len({path for _, path in small}) > 60  # the walk reached the list pages
