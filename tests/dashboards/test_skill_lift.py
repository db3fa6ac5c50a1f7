"""Does coaching move skill (dashboards/skill_lift.py): on Skills across the
organisation and across the people a manager leads, in the API and a CSV of its own —
the people scored in two months or more, in two groups by how many of their 1:1s were
held (at least 4 in 5, or fewer), and how far each group's skill moved. Both groups or
neither (five people each), never a name."""

import csv
import io
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core.cache import cache
from hypothesis import given
from hypothesis import strategies as st

from cadence.health import one_on_ones_by_coachee
from coaching.models import ParticipantRole, SessionStatus
from dashboards.org_skills import organisation_skills
from dashboards.skill_lift import Lift, lift
from people.models import AuditEvent
from scorecards import services as scorecards
from scorecards.services import CriterionSpec
from tests.support.dashboards_team import score
from tests.support.factories import (
    FocusAreaFactory,
    RecordedCallFactory,
    SessionFactory,
    SessionParticipantFactory,
    UserFactory,
)

NOW = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)
JSON = {"HTTP_ACCEPT": "application/json"}
FEB, MAR = date(2026, 2, 1), date(2026, 3, 1)


# --- The comparison itself ------------------------------------------------------------


def series(first: float, last: float) -> dict[date, float]:
    return {FEB: first, MAR: last}


def test_two_groups_by_held_share_each_person_from_first_month_to_last():
    kept = {n: series(2.0, 3.0 + n / 10) for n in range(5)}  # +1.0 … +1.4: mean +1.2
    slipped = {10 + n: series(2.5, 2.5) for n in range(5)}
    held = {n: (5, 4) for n in range(5)} | {10 + n: (5, 3) for n in range(5)}
    found = lift(kept | slipped, held)
    assert (found.compared, found.kept.people, found.slipped.people) == (10, 5, 5)
    assert (found.kept.first, found.kept.last, found.kept.change) == (2.0, 3.2, 1.2)
    assert (found.slipped.change, found.difference) == (0, 1.2)


def test_exactly_four_in_five_is_kept_and_the_middle_months_do_not_count():
    people = {n: {FEB: 1.0, date(2026, 2, 15): 4.0, MAR: 2.0} for n in range(10)}
    held = {n: (5, 4) if n < 5 else (10, 7) for n in range(10)}
    found = lift(people, held)
    assert (found.kept.people, found.slipped.people, found.kept.change) == (5, 5, 1.0)


def test_one_month_scored_or_no_1_1_due_leaves_someone_out():
    people = {n: series(2, 3) for n in range(10)} | {20: {FEB: 1.0}, 21: series(1, 4)}
    held = {n: (4, 4) if n < 5 else (4, 0) for n in range(10)} | {20: (4, 4), 21: (0, 0)}
    assert lift(people, held).compared == 10


def test_both_groups_or_neither():
    people = {n: series(2, 3) for n in range(9)}
    held = {n: (5, 5) if n < 5 else (5, 1) for n in range(9)}
    assert lift(people, held) == Lift(compared=9)  # four fell behind: nothing shown


@given(
    st.dictionaries(
        st.integers(0, 40),
        st.tuples(st.floats(1, 4), st.floats(1, 4), st.integers(0, 8), st.integers(0, 8)),
        max_size=40,
    )
)
def test_a_shown_group_is_never_under_five_and_the_groups_add_up(people):
    found = lift(
        {p: series(first, last) for p, (first, last, _, _) in people.items()},
        {p: (due, min(done, due)) for p, (_, _, due, done) in people.items()},
    )
    assert found.compared == sum(1 for *_, due, _ in people.values() if due)
    if found.shown:
        assert found.kept.people >= 5 and found.slipped.people >= 5
        assert found.kept.people + found.slipped.people == found.compared
    else:
        assert found.kept is None and found.slipped is None and found.difference is None


# --- Through the pages, the API and the CSV ---------------------------------------------


def one_on_ones_of(coach, rep, *, held: int, missed: int, first=datetime(2026, 2, 2, 9)):
    """`held` then `missed` weekly 1:1s of `rep`'s, as coachee, from `first` (UTC)."""
    start = first.replace(tzinfo=UTC)
    for week in range(held + missed):
        when = start + timedelta(weeks=week)
        done = week < held
        session = SessionFactory(
            scheduled_start=when,
            status=SessionStatus.HELD if done else SessionStatus.MISSED,
            held_at=when if done else None,
            missed_at=None if done else when + timedelta(days=1),
        )
        SessionParticipantFactory(session=session, person=rep, role=ParticipantRole.COACHEE)
        SessionParticipantFactory(session=session, person=coach, role=ParticipantRole.COACH)


def scored(coach, rep, template, when, ratings):
    """The coach scores, then closes the round (the rep never does): only a round
    whose scoring is over counts."""
    with time_machine.travel(when, tick=False):
        call = RecordedCallFactory(person=rep, call_date=when.date())
        scoring = scorecards.coach_scoring_open(actor=coach, work=call, template=template)
        score(coach, scoring, ratings)
        scorecards.round_close(actor=coach, scoring=scoring)


@pytest.fixture
def world(org):
    """Ten of Mia's reps, scored in February and March on the focus area's criterion.
    Five kept six of their seven 1:1s and rose from 2 to 4 (4 to 4 for one: +1.6 in
    all); five kept three of seven and stayed at 2 (one rose to 3: +0.2)."""
    with time_machine.travel(datetime(2025, 12, 1, tzinfo=UTC), tick=False):
        template = scorecards.template_create(
            actor=org.admin,
            name="Discovery",
            criteria=[CriterionSpec("Open questions", "Asks open questions first.")],
        )
        criterion = template.versions.get().criteria.get().criterion
        area = FocusAreaFactory(name="Ask first", starts_on=date(2026, 2, 1), ends_on=None)
        area.criteria.set([criterion])
        reps = [UserFactory(display_name=f"Rep {n}", manager=org.manager) for n in range(10)]
    for n, rep in enumerate(reps):
        kept = n < 5
        one_on_ones_of(org.manager, rep, held=6 if kept else 3, missed=1 if kept else 4)
        first = 4 if n == 0 else 2
        last = 4 if kept else (3 if n == 5 else 2)
        scored(org.manager, rep, template, datetime(2026, 2, 10, 9 + n, tzinfo=UTC), [first])
        scored(org.manager, rep, template, datetime(2026, 3, 10, 9 + n, tzinfo=UTC), [last])
    return type("World", (), {"org": org, "reps": reps, "area": area})


def area_of(tz="Europe/Berlin", **kwargs):
    from zoneinfo import ZoneInfo

    with time_machine.travel(NOW, tick=False):
        found = organisation_skills(today=NOW.date(), tz=ZoneInfo(tz), until=NOW, **kwargs)
    return found.areas[0]


def test_the_numbers_worked_out_by_hand(world):
    found = area_of().lift
    assert (found.compared, found.kept.people, found.slipped.people) == (10, 5, 5)
    assert (found.kept.first, found.kept.last, found.kept.change) == (2.4, 4.0, 1.6)
    assert (found.slipped.first, found.slipped.last, found.slipped.change) == (2.0, 2.2, 0.2)
    assert found.difference == 1.4


def test_only_the_1_1s_due_before_the_slot_count(world):
    """A 1:1 planned for tomorrow is not due yet: it neither helps nor hurts."""
    for rep in world.reps[5:]:
        one_on_ones_of(world.org.manager, rep, held=0, missed=6, first=datetime(2026, 3, 19, 9))
    assert area_of().lift.slipped.people == 5
    with time_machine.travel(NOW, tick=False):
        held = one_on_ones_by_coachee(since=NOW - timedelta(days=60), until=NOW)
    assert held[world.reps[0].pk] == (7, 6) and held[world.reps[9].pk] == (7, 3)


def test_a_manager_compares_only_the_people_below_them(world):
    assert area_of(below=world.org.manager).lift.compared == 10
    assert area_of(below=world.org.other_manager).lift is None  # for one person: suppressed


def test_the_page_says_how_far_each_group_moved_and_names_no_one(client, world):
    client.force_login(world.org.hr)
    with time_machine.travel(NOW, tick=False):
        body = client.get("/hr/skills/").content.decode()
    assert "Does coaching move it?" in body
    assert "held at least 4 times in 5 moved <strong>+1.6</strong>" in body
    assert "less often, <strong>+0.2</strong> — 1.4 further with the cadence kept" in body
    assert "<td>5</td><td>2.4</td><td>4</td><td>+1.6</td>" in body
    assert "A comparison, not proof" in body
    for rep in world.reps:
        assert rep.display_name not in body


def test_too_few_to_compare_says_so(client, world):
    SessionParticipantFactory._meta.model.objects.filter(person__in=world.reps[:2]).delete()
    client.force_login(world.org.manager)
    cache.clear()
    with time_machine.travel(NOW, tick=False):
        body = client.get("/team/skills/").content.decode()
    assert "Too few to compare yet" in body and "(of the 8 scored" in body
    assert "<strong>+1.6</strong>" not in body


def test_the_api_gives_the_comparison(client, world):
    client.force_login(world.org.admin)
    with time_machine.travel(NOW, tick=False):
        data = client.get("/api/v1/health/skills/", **JSON).json()
    assert data["areas"][0]["lift"] == {
        "compared": 10,
        "kept": {"people": 5, "first": 2.4, "last": 4.0, "change": 1.6},
        "slipped": {"people": 5, "first": 2.0, "last": 2.2, "change": 0.2},
        "difference": 1.4,
    }


def test_the_csv_has_a_row_per_group_and_is_audited(client, world):
    client.force_login(world.org.hr)
    with time_machine.travel(NOW, tick=False):
        response = client.get("/hr/skills/lift.csv")
    assert response["Content-Disposition"] == (
        'attachment; filename="skills-lift-organisation-2026-03-18-1300.csv"'
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[1:] == [
        ["Ask first", "everyone", "10", "held 4 in 5 or more", "5", "2.4", "4.0", "1.6"],
        ["Ask first", "everyone", "10", "held fewer", "5", "2.0", "2.2", "0.2"],
    ]
    event = AuditEvent.objects.get(verb="dashboards.export")
    assert event.data == {"table": "skills_lift", "rows": 2}


@pytest.mark.parametrize("who", ["manager", "rep", "head"])
def test_the_csv_is_404_to_everyone_but_hr_and_programme_admins(client, org, who):
    client.force_login(getattr(org, who))
    assert client.get("/hr/skills/lift.csv").status_code == 404
    assert not AuditEvent.objects.filter(verb="dashboards.export").exists()
