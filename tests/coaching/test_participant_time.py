"""Each participant carries its session's `scheduled_start`, so a person's sessions in
a window are a range of one index (`participant_by_person_time`). The copy is written
with the row and moved with the session; tests/conftest.py checks after every test
that no write left one behind. Here: the moves, and that the dashboards' reads put
the range on the index (PostgreSQL)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cadence.health import _covered, health_by_coach, weekly_by_coach
from coaching.models import SessionParticipant
from coaching.selectors import people_overview
from coaching.selectors_goals import current_goal
from coaching.services import notes_save, session_reschedule
from core.errors import Forbidden
from dashboards.team import this_week
from people.models import User
from tests.support.factories import one_on_one
from tests.support.query_plans import bounds_on, explain_sent

pytestmark = pytest.mark.django_db


def starts_of(session):
    return set(SessionParticipant.objects.filter(session=session).values_list("scheduled_start"))


def test_a_new_session_s_participants_carry_its_time(org):
    start = timezone.now() + timedelta(days=2)
    session = one_on_one(org.manager, org.rep, start=start)
    assert starts_of(session) == {(start,)}


def test_moving_a_session_moves_its_participants_time(org):
    session = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=2))
    later = timezone.now() + timedelta(days=3, hours=4)
    session_reschedule(session=session, actor=org.manager, start=later)
    assert starts_of(session) == {(later,)}


def test_a_refused_move_moves_nothing(org):
    start = timezone.now() + timedelta(days=2)
    session = one_on_one(org.manager, org.rep, start=start)
    with pytest.raises(Forbidden, match="Only the person running this session"):
        session_reschedule(session=session, actor=org.rep, start=start + timedelta(days=1))
    assert starts_of(session) == {(start,)}


def test_the_notes_goal_is_the_latest_written_one_and_a_newer_blank_one_does_not_hide_it(org):
    now = timezone.now()
    written = one_on_one(org.manager, org.rep, start=now - timedelta(days=14))
    notes_save(session=written, actor=org.manager, base_version=0, changes={"goal": "Ask why"})
    one_on_one(org.manager, org.rep, start=now - timedelta(days=7))  # nothing written
    older = one_on_one(org.manager, org.rep, start=now - timedelta(days=21))
    notes_save(session=older, actor=org.manager, base_version=0, changes={"goal": "Older"})
    assert current_goal(person=org.rep) == "Ask why"
    [row] = [p for p in people_overview(manager=org.manager) if p.pk == org.rep.pk]
    assert row.goal == "Ask why"


# --- The reads use the range (PostgreSQL) -------------------------------------------


def _plans(call) -> list[str]:
    return explain_sent(call, touching="coaching_sessionparticipant")


def _ranges_on_the_index(plan: str) -> bool:
    return bounds_on(plan, "participant_by_person_time", "scheduled_start")


@pytest.mark.postgres
@pytest.mark.parametrize(
    "read", ["this week", "people overview", "health by coach", "weekly by coach"]
)
def test_a_few_people_s_sessions_in_a_window_are_a_range_of_their_index(org, read):
    now = timezone.now()
    for days in (-10, -3, 2):
        one_on_one(org.manager, org.rep, start=now + timedelta(days=days))
    since = now - timedelta(weeks=8)
    call = {
        "this week": lambda: this_week(manager=org.manager, now=now),
        "people overview": lambda: people_overview(manager=org.manager),
        "health by coach": lambda: health_by_coach([org.manager], since=since, until=now),
        "weekly by coach": lambda: weekly_by_coach([org.manager], until=now),
    }[read]
    plans = _plans(call)
    assert plans and any(_ranges_on_the_index(plan) for plan in plans), "\n\n".join(plans)


def test_a_few_reps_coverage_bounds_their_own_rows_by_the_fortnight(org):
    """Coverage of a few coaches' reps reads those reps' coachee rows: the fortnight
    bounds the rows themselves, so the index gives a range (which of the two ways
    the planner picks for a table of a few rows is its own business)."""
    now = timezone.now()
    reps = User.objects.filter(reports_to=org.manager).values("pk")
    rows = str(_covered(until=now, now=now, among=reps).query)
    assert '"coaching_sessionparticipant"."scheduled_start" >=' in rows
    assert '"coaching_sessionparticipant"."scheduled_start" <' in rows


@pytest.mark.postgres
def test_the_goal_of_the_latest_notes_is_read_newest_first_off_the_index(org):
    one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=3))
    plans = _plans(lambda: current_goal(person=org.rep))
    assert any("Scan Backward using participant_by_person_time" in p for p in plans), plans
