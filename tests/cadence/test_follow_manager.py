"""A team lead who reports to someone else now has their monthly manager review, as
their team's policy made it, with the new manager: the review with the old one ends
("New manager"), held sessions stay. Someone reporting to nobody has none. A review
planned by hand, and a rep's own 1:1 (which follows the team's lead), are left alone."""

from datetime import time

import pytest

from cadence.models import CadencePlan, EndReason
from cadence.services import plan_create, policy_apply
from people.services import reporting_line_change
from tests.support.cadence_policies import make_policy
from tests.support.factories import TeamFactory, TeamMembershipFactory

pytestmark = pytest.mark.django_db


def reviews(**filters):
    return CadencePlan.objects.live().filter(kind="manager_review", **filters)


@pytest.fixture
def east(org):
    """Mia leads Rita; the team keeps 1:1s, a call review and Mia's review with Hana."""
    team = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    policy = make_policy()
    policy.items.create(kind="manager_review", weekday=4, local_time=time(11, 0))
    policy_apply(policy=policy, team=team, actor=org.admin)
    assert reviews().get().coach == org.head
    return team


def test_a_lead_with_a_new_manager_has_their_review_with_them(org, east):
    old = reviews().get()
    reporting_line_change(person=org.manager, manager=org.other_manager, actor=org.admin)
    new = reviews().get()
    assert (new.coach, new.coachee, new.assignment.team) == (org.other_manager, org.manager, east)
    old.refresh_from_db()
    assert old.ended_at is not None and old.end_reason == EndReason.NEW_MANAGER


def test_a_lead_reporting_to_nobody_has_no_review(org, east):
    reporting_line_change(person=org.manager, manager=None, actor=org.admin)
    assert not reviews().exists()
    assert CadencePlan.objects.live().filter(kind="one_on_one", coachee=org.rep).exists()


def test_a_review_planned_by_hand_and_a_reps_1_1_are_left_alone(org, east):
    by_hand = plan_create(
        kind="manager_review", coach=org.head, coachee=org.other_manager,
        weekday=2, local_time=time(9, 0), generate=False,
    )  # fmt: skip
    one_on_one = CadencePlan.objects.live().get(kind="one_on_one", coachee=org.rep)
    reporting_line_change(person=org.other_manager, manager=org.manager, actor=org.admin)
    reporting_line_change(person=org.rep, manager=org.other_manager, actor=org.admin)
    assert CadencePlan.objects.live().filter(pk__in=[by_hand.pk, one_on_one.pk]).count() == 2
