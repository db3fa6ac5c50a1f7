"""An item is overdue once its day has passed and it is not done: on day 30 the
day-30 items are due, not late; on day 31 they are overdue; the day-60 and day-90
items follow on their own days. Done items are never overdue."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from cadence.rollout import ITEMS, progress_of
from cadence.services_rollout import rollout_start, rollout_tick
from tests.support.cadence_rollout import team_fixture  # noqa: F401 - the `team` fixture

pytestmark = pytest.mark.django_db
START = date(2026, 3, 2)


def on_day(n: int) -> datetime:
    return datetime.combine(START + timedelta(days=n), datetime.min.time(), UTC) + timedelta(
        hours=12
    )


@pytest.fixture
def rollout(org, team):
    with time_machine.travel(on_day(0), tick=False):
        return rollout_start(team=team, actor=org.manager, starts_on=START)


def overdue_at(rollout, day):
    with time_machine.travel(on_day(day), tick=False):
        progress = progress_of(rollout)
        assert progress.day == day
        return {s.item.key for s in progress.items if s.overdue}


def keys(day):
    return {item.key for item in ITEMS if item.day <= day}


@pytest.mark.parametrize(
    ("day", "late"),
    [(0, 0), (29, 0), (30, 0), (31, 30), (60, 30), (61, 60), (90, 60), (91, 90), (200, 90)],
)
def test_items_are_overdue_the_day_after_they_are_due(rollout, day, late):
    assert overdue_at(rollout, day) == keys(late)


def test_a_done_item_is_never_overdue(org, rollout):
    with time_machine.travel(on_day(12), tick=False):
        rollout_tick(rollout=rollout, actor=org.manager, item="recordings_on")
    late = overdue_at(rollout, 31)
    assert "recordings_on" not in late and "scorecard_agreed" in late
    with time_machine.travel(on_day(31), tick=False):
        found = {s.item.key: s for s in progress_of(rollout).items}["recordings_on"]
    assert found.done and found.done_on == START + timedelta(days=12)


def test_a_rollout_planned_ahead_has_nothing_overdue_and_counts_down(org, team):
    with time_machine.travel(on_day(0), tick=False):
        ahead = rollout_start(team=team, actor=org.manager, starts_on=START + timedelta(days=10))
        progress = progress_of(ahead)
    assert progress.day == -10 and progress.starts_in == 10 and progress.overdue_count == 0
