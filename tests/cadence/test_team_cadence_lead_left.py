"""A team whose lead has left (deactivated) on Team cadence: the plans the lead ran
ended with them (`follow_leaver`) and the team's policy makes nothing until it has a
new lead, so applying one — the policy it keeps, or another "instead" — is a 400
saying why, from the page, the API and the admin site alike (all through
`policy_apply_check`), with nothing saved."""

import pytest
from rest_framework.test import APIClient

from cadence.models import CadencePlan, PolicyAssignment
from cadence.services import policy_apply
from people.models import AuditEvent
from people.services import person_deactivate
from tests.factories import TeamFactory, TeamMembershipFactory

from .test_team_cadence_page import PAGE, make_policy

pytestmark = pytest.mark.django_db
TEAMS = "/api/v1/team-cadence/"
LEFT = "Mia Manager, the lead of East, has left: East needs a new lead before its cadence runs."


@pytest.fixture
def world(org):
    """East (Mia; Rita, Pavel) and West (Omar; Olga) keep the standard; Mia has left the
    organisation. "Light touch" is the other policy."""
    standard, light = make_policy(), make_policy("Light touch")
    east = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=east, person=org.rep)
    TeamMembershipFactory(team=east, person=org.peer)
    west = TeamFactory(name="West", lead=org.other_manager)
    TeamMembershipFactory(team=west, person=org.other_rep)
    for team in (east, west):
        policy_apply(policy=standard, team=team, actor=org.admin)
    person_deactivate(actor=org.admin, person=org.manager, reason="departed")
    return type("World", (), {"standard": standard, "light": light, "east": east, "west": west})


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def api(user):
    client = APIClient()
    client.force_login(user)
    return client


def saved(world):
    """What applying could have changed: assignments, live plans, audit events."""
    return (
        list(PolicyAssignment.objects.order_by("pk").values_list("pk", "policy_id", "ended_at")),
        set(CadencePlan.objects.live().values_list("pk", flat=True)),
        AuditEvent.objects.filter(verb__in=["policy.applied", "policy.ended"]).count(),
    )


@pytest.mark.parametrize("policy", ["standard", "light"])  # the one it keeps, or instead
def test_applying_any_policy_from_the_page_is_a_400_that_saves_nothing(admin, world, policy):
    before = saved(world)
    response = admin.post(
        f"{PAGE}teams/{world.east.pk}/apply/", {"policy": getattr(world, policy).pk}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert LEFT in body and "already keeps" not in body
    assert saved(world) == before


def test_a_team_keeping_no_policy_is_refused_the_same(admin, org, world):
    north = TeamFactory(name="North", lead=org.manager)  # Mia had left already
    before = saved(world)
    response = admin.post(f"{PAGE}teams/{north.pk}/apply/", {"policy": world.light.pk})
    assert response.status_code == 400
    assert "the lead of North, has left: North needs a new lead" in response.content.decode()
    assert saved(world) == before


@pytest.mark.parametrize("policy", ["standard", "light"])
def test_the_api_refuses_it_with_the_reason_and_saves_nothing(org, world, policy):
    before = saved(world)
    response = api(org.admin).put(
        f"{TEAMS}{world.east.pk}/", {"policy": getattr(world, policy).pk}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"team": [LEFT]}
    assert saved(world) == before


def test_the_admin_site_refuses_it_with_the_reason(admin, world):
    before = saved(world)
    response = admin.post(
        "/admin/cadence/policyassignment/add/", {"policy": world.light.pk, "team": world.east.pk}
    )
    assert response.status_code == 200  # the form again, with the reason
    assert LEFT in response.content.decode()
    assert saved(world) == before
