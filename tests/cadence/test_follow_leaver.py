"""Someone deactivated leaves the cadence with their sign-in: every live plan they
coach or are coached in ends — with the reason they left — so no session with them is
generated, swept as missed, reminded or escalated; their untouched future sessions go
and held ones stay. A pair they were in is drafted again for who remains. Reactivated,
the teams they are on that keep a policy make their 1:1 again, and a team they lead
gets its plans back. Both counts go into the audit event."""

from datetime import timedelta

import pytest
import time_machine

from cadence.engine import occurrences_generate, sweep_missed
from cadence.models import CadencePlan, EndReason
from cadence.services import policy_apply
from coaching.models import CoachingSession, SessionStatus
from coaching.services import session_mark_held
from people.models import AuditEvent
from people.services import account_deactivate, account_reactivate
from people.services_teams import team_lead_set
from tests.support.cadence_policies import make_policy
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory
from tests.support.peers_pairs import active_pair

pytestmark = pytest.mark.django_db


def live(**filters):
    return CadencePlan.objects.live().filter(**filters)


@pytest.fixture
def east(org):
    """Mia leads Rita and Pavel; the team keeps weekly 1:1s and a call review."""
    team = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    TeamMembershipFactory(team=team, person=org.peer)
    policy_apply(policy=make_policy(), team=team, actor=org.admin)
    return team


def event(verb):
    return AuditEvent.objects.filter(verb=verb).latest("pk")


@pytest.mark.parametrize(
    "reason, why",
    [
        ("departed", EndReason.DEPARTED),
        ("leave", EndReason.LEAVE),
        ("security", EndReason.DEACTIVATED),
    ],
)
def test_a_rep_who_leaves_takes_their_1_1_with_them(org, east, reason, why):
    plan = live(coachee=org.rep).get()
    account_deactivate(actor=org.admin, person=org.rep, reason=reason)
    plan.refresh_from_db()
    assert plan.ended_at is not None and plan.end_reason == why
    assert live(coachee=org.peer).exists()  # Pavel's goes on
    assert event("person.deactivated").data["plans_ended"] == 1


def test_their_future_sessions_go_held_ones_stay_and_nothing_is_swept_missed(org, east):
    occurrences_generate()
    rita = CoachingSession.objects.filter(occurrence__plan__coachee=org.rep).order_by(
        "scheduled_start"
    )
    first = rita.first()
    with time_machine.travel(first.scheduled_start + timedelta(minutes=40), tick=False):
        session_mark_held(session=first, actor=org.manager)
        account_deactivate(actor=org.admin, person=org.rep, reason="departed")
    assert list(rita.values_list("pk", "status")) == [(first.pk, SessionStatus.HELD)]
    with time_machine.travel(first.scheduled_start + timedelta(weeks=3), tick=False):
        occurrences_generate()
        sweep_missed()
    assert list(rita.values_list("pk", flat=True)) == [first.pk]


def test_a_lead_who_leaves_ends_the_plans_they_run_until_a_new_lead_comes(org, east):
    account_deactivate(actor=org.admin, person=org.manager, reason="departed")
    assert not live(team=east).exists() and not live(coach=org.manager).exists()
    ended = CadencePlan.objects.filter(assignment__team=east)
    assert {p.end_reason for p in ended} == {EndReason.DEPARTED}
    assert event("person.deactivated").data["plans_ended"] == 3  # two 1:1s, the review
    team_lead_set(team=east, lead=org.other_manager, actor=org.admin)
    assert sorted(live(kind="one_on_one").values_list("coach", "coachee")) == sorted(
        [(org.other_manager.pk, org.rep.pk), (org.other_manager.pk, org.peer.pk)]
    )


def test_a_trio_goes_on_with_two_and_a_pair_of_two_stops(org):
    nia = UserFactory(display_name="Nia New", manager=org.manager)
    trio = active_pair(org.manager, org.rep, org.peer, nia)
    duo = active_pair(org.manager, org.rep, UserFactory(manager=org.manager))
    account_deactivate(actor=org.admin, person=org.rep, reason="departed")
    plan = live(pair=trio).get()
    assert {plan.coach_id, plan.coachee_id} == {org.peer.pk, nia.pk}
    assert not live(pair=duo).exists()
    assert event("person.deactivated").data["plans_ended"] == 2


def test_someone_who_comes_back_is_back_in_their_teams_cadence(org, east):
    account_deactivate(actor=org.admin, person=org.rep, reason="leave")
    account_reactivate(actor=org.admin, person=org.rep)
    plan = live(coachee=org.rep).get()
    assert plan.coach == org.manager and plan.kind == "one_on_one"
    assert event("person.reactivated").data == {"plans_made": 1}


def test_a_lead_who_comes_back_gets_the_teams_plans_back(org, east):
    account_deactivate(actor=org.admin, person=org.manager, reason="leave")
    account_reactivate(actor=org.admin, person=org.manager)
    assert live(team=east, kind="team_call_review").get().coach == org.manager
    assert live(kind="one_on_one", coach=org.manager).count() == 2
    assert event("person.reactivated").data == {"plans_made": 3}


def test_someone_on_no_team_with_a_policy_leaves_and_comes_back_quietly(org):
    account_deactivate(actor=org.admin, person=org.other_rep, reason="departed")
    assert event("person.deactivated").data["plans_ended"] == 0
    account_reactivate(actor=org.admin, person=org.other_rep)
    assert event("person.reactivated").data == {"plans_made": 0}
    assert not CadencePlan.objects.exists()
