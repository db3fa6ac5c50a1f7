"""Applying a policy lays each member's 1:1 in a slot of its own: a team of eight under
one lead gets eight distinct times, spread from the policy's over the lead's working
hours (a half hour free between the lead's sessions, four 1:1s a day at most, unless
nothing else fits), never on the lead's or a member's other plans; the preview (`policy_placement`)
is what applying makes; who cannot be placed is named, with why."""

from datetime import UTC, date, datetime, time

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence import recurrence
from cadence.models import CadencePlan, CadencePolicy, PolicyItem
from cadence.placement import policy_placement
from cadence.services import plan_create, policy_apply
from people.models import work_days_bits
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def monday():
    with time_machine.travel(MONDAY, tick=False):
        yield


def standard() -> CadencePolicy:
    policy = CadencePolicy.objects.create(name="Sales team standard")
    PolicyItem.objects.create(policy=policy, kind="one_on_one", weekday=1, local_time=time(10, 0))
    PolicyItem.objects.create(
        policy=policy,
        kind="team_call_review",
        weekday=3,
        local_time=time(15, 0),
        duration_minutes=45,
    )
    return policy


def team_of(lead, size: int, **person):
    team = TeamFactory(name="Octet", lead=lead)
    members = [UserFactory(display_name=f"Member {n}", **person) for n in range(1, size + 1)]
    for member in members:
        TeamMembershipFactory(team=team, person=member)
    return team, members


def one_on_ones(team) -> list[CadencePlan]:
    return list(
        CadencePlan.objects.live()
        .filter(coach=team.lead, kind="one_on_one")
        .select_related("coachee")
        .order_by("coachee__display_name")
    )


def overlap(a: CadencePlan, b: CadencePlan) -> bool:
    since = MONDAY
    until = datetime(2027, 3, 8, tzinfo=UTC)
    length = lambda p: p.duration_minutes * 60  # noqa: E731
    for s in recurrence.slots(recurrence.Rule.of(a), since, until):
        for t in recurrence.slots(recurrence.Rule.of(b), since, until):
            if s.timestamp() < t.timestamp() + length(b) and t.timestamp() < s.timestamp() + length(
                a
            ):
                return True
    return False


def test_a_team_of_eight_gets_eight_distinct_clash_free_slots(org):
    team, members = team_of(org.manager, 8)
    policy_apply(policy=standard(), team=team, actor=org.admin)
    plans = one_on_ones(team)
    assert len(plans) == 8
    # From the policy's Tuesday 10:00, a half hour free between them, four a day; then
    # Wednesday from the same time of day (in the lead's time zone).
    assert [(p.weekday, p.local_time) for p in plans] == [
        (1, time(10, 0)),
        (1, time(11, 0)),
        (1, time(12, 0)),
        (1, time(13, 0)),
        (2, time(10, 0)),
        (2, time(11, 0)),
        (2, time(12, 0)),
        (2, time(13, 0)),
    ]
    review = CadencePlan.objects.get(team=team, kind="team_call_review")
    everything = [*plans, review]
    assert not any(overlap(a, b) for i, a in enumerate(everything) for b in everything[i + 1 :])


def test_the_preview_is_what_applying_makes(org):
    team, _ = team_of(org.manager, 5)
    policy = standard()
    preview = policy_placement(policy=policy, team=team)
    shown = sorted((p.plan.kind, p.plan.coachee_id, p.plan.weekday, p.plan.local_time)
                   for p in preview.placed)  # fmt: skip
    assert CadencePlan.objects.count() == 0  # a read: nothing written
    policy_apply(policy=policy, team=team, actor=org.admin)
    made = sorted(CadencePlan.objects.values_list("kind", "coachee_id", "weekday", "local_time"))
    assert made == shown


def test_it_steps_round_the_leads_and_members_other_plans(org):
    team, (first, second) = team_of(org.manager, 2)
    # The lead runs a 1:1 with Rita on Tuesdays 10:00; the first member has a fortnightly
    # peer plan on Tuesdays 10:30.
    plan_create(kind="one_on_one", coach=org.manager, coachee=org.rep, weekday=1,
                local_time=time(10, 0), generate=False)  # fmt: skip
    plan_create(kind="peer", coach=first, coachee=org.peer, weekday=1, local_time=time(10, 30),
                interval_weeks=2, generate=False)  # fmt: skip
    preview = policy_placement(policy=standard(), team=team)
    slots = {p.plan.coachee.display_name: (p.when, p.moved_because) for p in preview.placed
             if p.plan.kind == "one_on_one"}  # fmt: skip
    assert slots == {
        "Member 1": (
            "Tuesday 11:00",
            "Tuesday 10:00 clashes with Rita Rep's 1:1 with Mia Manager",
        ),
        "Member 2": (
            "Tuesday 12:00",
            "Tuesday 10:00 clashes with Rita Rep's 1:1 with Mia Manager",
        ),
    }


def test_who_cannot_be_placed_is_named_with_why(org):
    team, (early, late) = team_of(org.manager, 2)
    # Mia works 09:00–17:00 in Berlin; the late member's day is 18:00–22:00 there.
    late.time_zone = "America/New_York"
    late.work_starts, late.work_ends = time(12, 0), time(16, 0)
    late.save()
    preview = policy_placement(policy=standard(), team=team)
    assert [u.who for u in preview.unplaced] == ["the team's call review", "Member 2's 1:1"]
    assert preview.unplaced[1].why == (
        "Tuesday 10:00 is outside Member 2's working hours; and no other 30-minute time in "
        "the week is free for Mia Manager and Member 2 within their working hours."
    )
    placed = {p.who for p in preview.placed}
    assert placed == {"Member 1's 1:1"}
    assignment = policy_apply(policy=standard_again(), team=team, actor=org.admin)
    assert [u.who for u in assignment.unplaced] == [u.who for u in preview.unplaced]
    assert one_on_ones(team)[0].coachee == early


def standard_again() -> CadencePolicy:
    return CadencePolicy.objects.get(name="Sales team standard")


def test_applying_another_policy_lays_out_in_the_time_the_ending_plans_free(org):
    team, _ = team_of(org.manager, 3)
    policy_apply(policy=standard(), team=team, actor=org.admin)
    light = CadencePolicy.objects.create(name="Light touch")
    PolicyItem.objects.create(policy=light, kind="one_on_one", weekday=1, local_time=time(10, 0))
    preview = policy_placement(policy=light, team=team)
    assert len(preview.ending) == 4  # three 1:1s and the call review
    assert [p.when for p in preview.placed] == ["Tuesday 10:00", "Tuesday 11:00", "Tuesday 12:00"]


def test_when_only_a_full_day_is_left_the_1_1s_go_back_to_back_rather_than_nowhere(org):
    """Mia works Tuesdays 10:00–12:00 only: room for four half hours, not for breaks."""
    org.manager.work_days = work_days_bits([1])
    org.manager.work_starts, org.manager.work_ends = time(10, 0), time(12, 0)
    org.manager.save()
    team, _ = team_of(org.manager, 4)
    policy = CadencePolicy.objects.create(name="Tight")
    PolicyItem.objects.create(policy=policy, kind="one_on_one", weekday=1, local_time=time(10, 0))
    preview = policy_placement(policy=policy, team=team)
    assert [p.when for p in preview.placed] == [
        "Tuesday 10:00",
        "Tuesday 11:00",  # spread while it can be
        "Tuesday 10:30",
        "Tuesday 11:30",
    ]
    assert not preview.unplaced


@pytest.mark.parametrize("size", [3, 9])
def test_the_preview_costs_the_same_whatever_the_size_of_the_team(org, size):
    team, _ = team_of(org.manager, size)
    policy = standard()
    with CaptureQueriesContext(connection) as queries:
        policy_placement(policy=policy, team=team)
    # The live assignment, the members, the policy's items, the live plans wanted,
    # the people's teams and pairs, their live plans.
    assert len(queries) == 7, [q["sql"] for q in queries]


def test_it_places_across_daylight_saving_in_the_leads_own_zone(org):
    """Mia in Berlin, a member in New York whose day is 09:00–17:00 there: only
    15:00–17:00 Berlin meets it most of the year, 14:00–17:00 in the weeks the clocks
    disagree; a slot must fit every week of the quarter."""
    team, (member,) = team_of(org.manager, 1, time_zone="America/New_York")
    with time_machine.travel(datetime(2027, 3, 1, 8, 0, tzinfo=UTC), tick=False):
        preview = policy_placement(policy=standard(), team=team, today=date(2027, 3, 1))
    (one_on_one,) = [p for p in preview.placed if p.plan.kind == "one_on_one"]
    assert one_on_one.when == "Tuesday 15:00"
