"""Streaks read a person's latest few 1:1s, not their whole history: the latest
resolved one not held (the break) and how many come after it, two walks of
`participant_by_person_time`. Here: equal to the plain definition — count back from
the newest resolved 1:1 (sessions at one start ordered by id) until one was not held —
on random histories with ties, and the walks' shape on PostgreSQL."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.health import streaks
from tests.support.factories import SessionFactory, SessionParticipantFactory, UserFactory
from tests.support.query_plans import bounds_on, explain_sent

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)
STATUSES = ["held", "held", "held", "missed", "cancelled", "scheduled"]


def session_at(start, *, status, kind="one_on_one"):
    """A bare session row in a resolved state the constraints accept."""
    extra = {"held": {"held_at": start}, "cancelled": {"cancel_reason": "other"}}
    return SessionFactory(scheduled_start=start, kind=kind, status=status, **extra.get(status, {}))


def by_definition(history: list[tuple[datetime, int, str, str]]) -> int:
    """history: (start, session id, kind, status) of one person's sessions as coachee."""
    resolved = sorted(
        (
            (start, pk, status)
            for start, pk, kind, status in history
            if kind == "one_on_one" and start < NOW and status != "scheduled"
        ),
        reverse=True,
    )
    run = 0
    for _, _, status in resolved:
        if status != "held":
            break
        run += 1
    return run


def test_streaks_equal_the_plain_definition_on_random_histories_with_ties():
    rng = random.Random(20261127)
    coach = UserFactory()
    people, expected = [], {}
    for _ in range(12):
        person = UserFactory(manager=coach)
        history = []
        # Whole days apart, so starts repeat: ties are ordered by session id.
        for _ in range(rng.randint(0, 14)):
            start = NOW + timedelta(days=rng.randint(-20, 3))
            kind = rng.choice(["one_on_one"] * 4 + ["manager_review"])
            status = rng.choice(STATUSES)
            session = session_at(start, kind=kind, status=status)
            SessionParticipantFactory(session=session, person=coach, role="coach")
            role = rng.choice(["coachee"] * 5 + ["participant"])
            SessionParticipantFactory(session=session, person=person, role=role)
            if role == "coachee":
                history.append((start, session.pk, kind, status))
        people.append(person)
        expected[person.pk] = by_definition(history)
    with CaptureQueriesContext(connection) as queries:
        got = streaks(people, now=NOW)
    assert len(queries) == 1
    assert got == expected
    assert set(expected.values()) != {0}, "the seed should give some streaks"


@pytest.mark.postgres
def test_the_break_and_the_run_after_it_are_walks_of_the_person_s_index(org):
    for days in (30, 23, 16, 9, 2):
        session = session_at(NOW - timedelta(days=days), status="held")
        SessionParticipantFactory(session=session, person=org.rep, role="coachee")
    assert streaks([org.rep], now=NOW) == {org.rep.pk: 5}
    [plan] = explain_sent(
        lambda: streaks([org.rep], now=NOW), touching="coaching_sessionparticipant"
    )
    assert "Scan Backward using participant_by_person_time" in plan, plan  # index-only or not
    # The run after the break is bounded by it on the index, not filtered out of
    # every 1:1 the person had.
    assert bounds_on(plan, "participant_by_person_time", "scheduled_start >="), plan
