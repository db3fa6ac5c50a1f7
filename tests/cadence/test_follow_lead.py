"""A team that keeps a policy gets a new lead: the plans its policy made with the old
lead end ("New manager") and the new lead's are made as applying would — the members'
1:1s, the team's call review, the new lead's review with their own manager — without
doubling anything; held sessions stay. A team left without a lead keeps no live plan
of its policy. Teams without a policy are left alone."""

import pytest

from cadence.models import CadencePlan, EndReason
from cadence.services import policy_apply
from people.services_teams import team_lead_set
from tests.support.cadence_policies import make_policy
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def live(**filters):
    return CadencePlan.objects.live().filter(**filters)


@pytest.fixture
def east(org):
    """Mia leads Rita, Pavel and Nia; the team keeps 1:1s and a call review. (Three
    members, so reading the policy once per member would trip the N+1 detector.)"""
    team = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    TeamMembershipFactory(team=team, person=org.peer)
    TeamMembershipFactory(team=team, person=UserFactory(email="nia@example.com"))
    policy_apply(policy=make_policy(), team=team, actor=org.admin)
    return team


def test_a_new_lead_takes_over_the_plans_the_policy_made(org, east):
    before = set(live().values_list("pk", flat=True))
    team_lead_set(team=east, lead=org.other_manager, actor=org.admin)

    assert sorted(live(kind="one_on_one").values_list("coach__email", "coachee__email")) == [
        ("other.manager@example.com", "nia@example.com"),
        ("other.manager@example.com", "peer@example.com"),
        ("other.manager@example.com", "rep@example.com"),
    ]
    assert live(kind="team_call_review", team=east).get().coach == org.other_manager
    ended = CadencePlan.objects.filter(pk__in=before)
    assert {p.end_reason for p in ended} == {EndReason.NEW_MANAGER}
    assert not ended.filter(ended_at__isnull=True).exists()


def test_a_member_who_becomes_lead_keeps_no_1_1_with_themselves(org, east):
    team_lead_set(team=east, lead=org.rep, actor=org.admin)
    assert sorted(live(kind="one_on_one").values_list("coach__email", "coachee__email")) == [
        ("rep@example.com", "nia@example.com"),
        ("rep@example.com", "peer@example.com"),
    ]


def test_the_manager_review_follows_the_lead(org, east):
    policy = east.policy_assignments.get().policy
    policy.items.create(kind="manager_review", weekday=4, local_time="11:00")
    policy_apply(policy=policy, team=east, actor=org.admin)
    assert live(kind="manager_review").get().coachee == org.manager
    team_lead_set(team=east, lead=org.other_manager, actor=org.admin)
    review = live(kind="manager_review").get()
    assert (review.coach, review.coachee) == (org.head, org.other_manager)


def test_a_team_left_without_a_lead_keeps_no_live_plan(org, east):
    team_lead_set(team=east, lead=None, actor=org.admin)
    assert not live().exists()


def test_the_same_lead_again_or_a_team_without_policy_changes_nothing(org, east):
    before = list(live().order_by("pk").values_list("pk", flat=True))
    team_lead_set(team=east, lead=org.manager, actor=org.admin)
    assert list(live().order_by("pk").values_list("pk", flat=True)) == before
    west = TeamFactory(name="West", lead=org.other_manager)
    TeamMembershipFactory(team=west, person=org.other_rep)
    team_lead_set(team=west, lead=org.manager, actor=org.admin)
    assert list(live().order_by("pk").values_list("pk", flat=True)) == before


def _team_of(size: int, lead):
    team = TeamFactory(name=f"Team of {size}", lead=lead)
    for n in range(size):
        TeamMembershipFactory(
            team=team, person=UserFactory(email=f"member{n}.of{size}@example.com", manager=lead)
        )
    return team


def test_a_policy_and_a_new_lead_cost_the_same_queries_whatever_the_size_of_the_team(
    org, django_capture_on_commit_callbacks
):
    """The plans are made together: the live ones read once, one insert, one audit
    insert, one generation once committed (a new lead for a team of ten was 449
    queries). Measured with the generation run, as it is once the change commits."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    policy = make_policy()
    policy.items.create(kind="manager_review", weekday=4, local_time="11:00")
    costs = {}
    for size, lead, successor in ((2, org.manager, org.other_manager), (7, org.peer, org.hr)):
        team = _team_of(size, lead)
        ContentType.objects.clear_cache()  # each measured from the same, empty cache
        with (
            CaptureQueriesContext(connection) as applied,
            django_capture_on_commit_callbacks(execute=True),
        ):
            policy_apply(policy=policy, team=team, actor=org.admin)
        ContentType.objects.clear_cache()
        with (
            CaptureQueriesContext(connection) as handed_over,
            django_capture_on_commit_callbacks(execute=True),
        ):
            team_lead_set(team=team, lead=successor, actor=org.admin)
        assert live(team=team, kind="team_call_review").get().coach == successor
        assert live(kind="one_on_one", coach=successor).count() == size
        costs[size] = (_statements(applied), _statements(handed_over))
    assert costs[2] == costs[7], costs


def _statements(captured) -> int:
    """Statements run, one bulk insert counted once: SQLite splits a large one into
    batches by its parameter limit (PostgreSQL's engine writes with COPY)."""
    count, previous = 0, None
    for query in captured:
        sql = query["sql"]
        insert = sql.split("(", 1)[0] if sql.startswith("INSERT INTO") else None
        count += insert is None or insert != previous
        previous = insert
    return count
