"""`release_usefulness`: a coach's usefulness count moves on to the last Monday (00:00
UTC) only once the ratings of at least three people have closed (14 days after their
session) since it last moved — a head's monthly reviews count once all three
managers' ratings have closed, not as each does; the run is the same all week (beat
runs it hourly), and costs the same queries for 2 coaches as for 20."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.models import UsefulnessRelease
from coaching.ratings import release_usefulness, released_summaries
from tests.support.coaching_ratings import held, rate, team_of
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
MONDAY = datetime(2026, 11, 2, tzinfo=UTC)


def on(moment, coach, coachee, score=4, kind="one_on_one"):
    """Rate, at `moment`, a session held 2½ hours before: it closes 14 days later."""
    with time_machine.travel(moment, tick=False):
        rate(held(coach, coachee, ago=timedelta(hours=3), kind=kind), coachee, score)


def counted(coach):
    return (
        UsefulnessRelease.objects.filter(coach=coach)
        .values_list("counted_until", flat=True)
        .first()
    )


def test_a_heads_reviews_count_once_all_three_managers_ratings_have_closed(org):
    """One review a week (Wednesdays 4, 11, 18 Nov), each rated: the ratings close on
    the 18th, 25th and 2 Dec, so the count waits for Monday 7 Dec."""
    managers = [org.manager, org.other_manager, UserFactory(manager=org.head)]
    UserFactory(manager=managers[2])  # a manager has someone to coach
    for week, manager in enumerate(managers):
        on(MONDAY + timedelta(weeks=week, days=2), org.head, manager, kind="manager_review")
    for weeks in (1, 2, 3, 4):
        with time_machine.travel(MONDAY + timedelta(weeks=weeks, hours=1), tick=False):
            assert (release_usefulness(), counted(org.head)) == (0, None), weeks
    with time_machine.travel(MONDAY + timedelta(weeks=5, hours=1), tick=False):
        assert release_usefulness() == 1
        found = released_summaries(coaches=[org.head])[org.head.pk]
    assert counted(org.head) == MONDAY + timedelta(weeks=5)
    assert (found.summary.ratings, found.summary.raters, found.summary.shown) == (3, 3, False)
    assert found.counted_until == MONDAY + timedelta(weeks=5)


def test_the_run_is_the_same_all_week_and_never_moves_a_count_back(org):
    reports = team_of(org.manager, 3)
    for n, report in enumerate(reports):  # Tuesday 3 Nov: closed by Tuesday 17 Nov
        on(MONDAY + timedelta(days=1, hours=n), org.manager, report)
    for day in (21, 22, 24, 27):  # Monday 23 Nov 00:30 UTC to Sunday
        with time_machine.travel(MONDAY + timedelta(days=day, minutes=30), tick=False):
            assert release_usefulness() == (1 if day == 21 else 0)
            assert counted(org.manager) == MONDAY + timedelta(weeks=3)
    with time_machine.travel(MONDAY + timedelta(days=17), tick=False):  # a run late, or replayed
        assert release_usefulness() == 0
    assert counted(org.manager) == MONDAY + timedelta(weeks=3)


def coaches_with_three_raters(n):
    coaches = []
    for _ in range(n):
        coach = UserFactory()
        for hours, report in enumerate(team_of(coach, 3)):
            on(MONDAY + timedelta(days=1, hours=hours), coach, report)
        coaches.append(coach)
    return coaches


def test_it_costs_the_same_queries_for_two_coaches_or_twenty():
    later = MONDAY + timedelta(weeks=3, hours=1)  # the ratings of 3 Nov have closed
    runs = []
    for size in (2, 18):  # 18 more, rated the same week: the second run moves them
        coaches_with_three_raters(size)
        with time_machine.travel(later, tick=False), CaptureQueriesContext(connection) as q:
            moved = release_usefulness()
        runs.append((len(q), moved))
    assert runs == [(2, 2), (2, 18)]  # which coaches, then one statement moving them
    assert UsefulnessRelease.objects.filter(counted_until=later - timedelta(hours=1)).count() == 20


def test_beat_runs_it_as_a_task(org):
    """The task beat schedules (core/periodic.py) is the release itself."""
    from coaching.tasks import release_usefulness as task

    for hours, report in enumerate(team_of(org.manager, 3)):
        on(MONDAY + timedelta(days=1, hours=hours), org.manager, report)
    with time_machine.travel(MONDAY + timedelta(weeks=3, minutes=2), tick=False):
        assert task.apply().get() == 1
    assert counted(org.manager) == MONDAY + timedelta(weeks=3)
