"""Migration cadence/0011 ends the live plans of people deactivated before deactivating
ended them ("Deactivated"), with their untouched future sessions; held sessions and
everyone else's plans stay as they were."""

from datetime import timedelta

import pytest
import time_machine

from cadence.engine import occurrences_generate
from cadence.models import CadencePlan
from cadence.services import policy_apply
from coaching.models import CoachingSession, SessionStatus
from coaching.services import session_mark_held
from people.models import User
from tests.support.cadence_policies import make_policy
from tests.support.factories import TeamFactory, TeamMembershipFactory
from tests.support.migrations import migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = ("cadence", "0010_plan_end_reasons_on_leaving")
AFTER = ("cadence", "0011_end_plans_of_deactivated_people")


def test_plans_of_people_deactivated_before_end_and_others_stay(org):
    team = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    TeamMembershipFactory(team=team, person=org.peer)
    policy_apply(policy=make_policy(), team=team, actor=org.admin)
    occurrences_generate()
    ritas = CoachingSession.objects.filter(occurrence__plan__coachee=org.rep)
    first = ritas.order_by("scheduled_start").first()
    with time_machine.travel(first.scheduled_start + timedelta(minutes=40), tick=False):
        session_mark_held(session=first, actor=org.manager)
        # Deactivated as before this upgrade: the flag alone, the plan left live.
        User.objects.filter(pk=org.rep.pk).update(is_active=False)
        migrate(BEFORE)
        try:
            migrate(AFTER)
        finally:
            migrate_to_latest()
    rita = CadencePlan.objects.get(coachee=org.rep)
    assert rita.ended_at is not None and rita.end_reason == "deactivated"
    assert list(ritas.values_list("pk", "status")) == [(first.pk, SessionStatus.HELD)]
    assert CadencePlan.objects.live().filter(coachee=org.peer).exists()
    assert CadencePlan.objects.live().filter(team=team).exists()
