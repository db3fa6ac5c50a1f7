from datetime import time
from types import SimpleNamespace

import pytest

from cadence.engine import occurrences_generate
from cadence.models import CadencePlan
from cadence.services import plan_create, plan_end, plan_update, plans_end
from people.models import AuditEvent
from people.services_teams import team_create
from tests.support.cadence_plans import EARLIER, ENDED, one_on_one


@pytest.fixture
def weekly_plan(org):
    """Mia's weekly 1:1 with Rita, Tuesdays 10:00 Berlin."""

    def make(**kw):
        return plan_create(
            **{
                "kind": "one_on_one",
                "coach": org.manager,
                "coachee": org.rep,
                "weekday": 1,
                "local_time": time(10, 0),
                "generate": False,
                **kw,
            }
        )

    return make


@pytest.fixture
def plans_world(org):
    """Running: Hana's review with Mia, Mia's 1:1 with Rita, Omar's call review for
    Westward. Paused: Omar's 1:1 with Olga. Ended: Mia's 1:1 with Pavel (by Hana, long
    leave, 2 March) and Hana's review with Omar (by nobody, role change, 10 February).
    All made by hand, with sessions planned."""
    west = team_create(name="Westward", lead=org.other_manager)
    boss = plan_create(
        kind="manager_review", coach=org.head, coachee=org.manager, weekday=4,
        local_time=time(11, 0), generate=False,
    )  # fmt: skip
    rita = one_on_one(org.manager, org.rep)
    review = plan_create(
        kind="team_call_review", coach=org.other_manager, team=west, weekday=3,
        local_time=time(15, 0), generate=False,
    )  # fmt: skip
    olga = one_on_one(org.other_manager, org.other_rep, weekday=2)
    plan_update(plan=olga, actor=org.other_manager, paused=True)
    pavel = one_on_one(org.manager, org.peer, weekday=0)
    plan_end(plan=pavel, actor=org.head, reason="leave", note="Parental leave")
    omar = plan_create(
        kind="manager_review", coach=org.head, coachee=org.other_manager, weekday=4,
        local_time=time(9, 0), generate=False,
    )  # fmt: skip
    plans_end(plans=[omar], actor=None, reason="role_change")
    CadencePlan.objects.filter(pk=pavel.pk).update(ended_at=ENDED)
    CadencePlan.objects.filter(pk=omar.pk).update(ended_at=EARLIER)
    occurrences_generate()
    AuditEvent.objects.all().delete()
    return SimpleNamespace(
        west=west, boss=boss, rita=rita, review=review, olga=olga, pavel=pavel, omar=omar
    )
