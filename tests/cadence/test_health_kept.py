"""A session moved within its week was kept: the on-time rate counts it as held in its
slot. Moved into another week, it was not. Weeks are Monday to Monday in the
programme's time zone (settings.TIME_ZONE, UTC here), the one rule of
`cadence.health.KEPT`."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from cadence.health import Scope, health, week_of, weekly_adherence
from coaching.services import session_mark_held, session_reschedule
from tests.support.factories import one_on_one

MONDAY = datetime(2026, 12, 7, tzinfo=UTC)


def held_after_moving(org, original: datetime, moved_to: datetime):
    with time_machine.travel(min(original, moved_to) - timedelta(days=1), tick=False):
        session = one_on_one(org.manager, org.rep, start=original)
        if moved_to != original:
            session = session_reschedule(session=session, actor=org.manager, start=moved_to)
    with time_machine.travel(moved_to + timedelta(minutes=35), tick=False):
        session_mark_held(session=session, actor=org.manager)
    return session


def kept(org) -> tuple[int, int]:
    numbers = health(
        Scope.person(org.rep),
        since=MONDAY - timedelta(weeks=2),
        until=MONDAY + timedelta(weeks=3),
        now=MONDAY + timedelta(weeks=3),
    )
    return numbers.held, numbers.on_time


@pytest.mark.django_db
@pytest.mark.parametrize(
    "original, moved_to, on_time",
    [
        # Never moved.
        (MONDAY + timedelta(days=1, hours=9), MONDAY + timedelta(days=1, hours=9), 1),
        # Tuesday → Thursday: kept.
        (MONDAY + timedelta(days=1, hours=9), MONDAY + timedelta(days=3, hours=14), 1),
        # Friday → Monday before it: still its week, kept.
        (MONDAY + timedelta(days=4, hours=9), MONDAY + timedelta(hours=9), 1),
        # Sunday 23:00 → Monday 09:00, the next morning: another week, not kept.
        (MONDAY + timedelta(days=6, hours=23), MONDAY + timedelta(days=7, hours=9), 0),
        # Friday → next Tuesday: not kept.
        (MONDAY + timedelta(days=4, hours=9), MONDAY + timedelta(days=8, hours=9), 0),
    ],
)
def test_a_session_moved_within_its_week_counts_as_kept(org, original, moved_to, on_time):
    held_after_moving(org, original, moved_to)
    assert kept(org) == (1, on_time)


@pytest.mark.django_db
def test_the_weekly_figures_use_the_same_rule(org):
    held_after_moving(org, MONDAY + timedelta(days=1, hours=9), MONDAY + timedelta(days=3, hours=9))
    held_after_moving(
        org, MONDAY + timedelta(days=11, hours=9), MONDAY + timedelta(days=14, hours=9)
    )
    weeks = weekly_adherence(
        Scope.person(org.rep),
        weeks=3,
        until=MONDAY + timedelta(days=15),
        now=MONDAY + timedelta(days=20),
        tz=UTC,
    )
    assert [(w.held, w.on_time) for w in weeks] == [(1, 1), (0, 0), (1, 0)]


def test_a_week_is_monday_to_monday():
    assert week_of(datetime(2026, 12, 13, 23, 59, tzinfo=UTC)) == (
        MONDAY,
        MONDAY + timedelta(weeks=1),
    )
    assert week_of(MONDAY)[0] == MONDAY
