"""A team whose lead has left (deactivated) on Team cadence: the plans the lead ran
ended with them (`follow_leaver`) and the team's policy makes nothing until it has a
new lead, so the page says so in words, with a link to the team's page where a lead is
named, instead of offering policies; applying one — the policy it keeps, or another
"instead" — is a 400 saying why, from the page, the API and the admin site alike (all
through `policy_apply_check`), with nothing saved; the API's rows say `needs_lead`.
A team whose lead is here is unaffected. The page and the API list cost the same
queries however many such teams there are."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from cadence.models import CadencePlan, PolicyAssignment
from cadence.services import policy_apply
from people.models import AuditEvent
from people.services import account_deactivate
from tests.support.cadence_policies import PAGE, east_and_west, make_policy, row
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
TEAMS = "/api/v1/team-cadence/"
LEFT = (
    "Mia Manager, the lead of East, is deactivated (left, or on long leave): East needs a new "
    "lead, or Mia Manager back, before its cadence runs."
)


@pytest.fixture
def world(org):
    """East (Mia; Rita, Pavel) and West (Omar; Olga) keep the standard; Mia has left the
    organisation. "Light touch" is the other policy."""
    standard, light = make_policy(), make_policy("Light touch")
    east, west = east_and_west(org)
    for team in (east, west):
        policy_apply(policy=standard, team=team, actor=org.admin)
    account_deactivate(actor=org.admin, person=org.manager, reason="departed")
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


def test_the_page_says_the_lead_left_and_links_to_where_a_lead_is_named(admin, world):
    body = admin.get(PAGE).content.decode()
    east = row(body, "East")
    assert LEFT in east
    assert (
        f'<a href="/programme/teams/{world.east.pk}/" aria-label="Name a new lead for East">'
        "Name a new lead</a>" in east
    )
    assert 'Mia Manager <span class="muted small">deactivated</span>' in east
    assert "<select" not in east and "Apply instead" not in east  # nothing to apply
    assert "Make the missing plans" not in east
    # East still keeps its policy (the plans come back with a new lead); ending it stays
    # possible. The plans Mia ran ended with her: tests/cadence/test_follow_leaver.py.
    assert "End Sales team standard for East" in east
    assert "(leaves, or goes on long leave), the plans they ran end and the team needs" in body


def test_a_team_whose_lead_is_here_is_unaffected(admin, org, world):
    west = row(admin.get(PAGE).content.decode(), "West")
    assert "deactivated" not in west and "Name a new lead" not in west
    assert ">Apply instead…</button>" in west
    response = admin.post(f"{PAGE}teams/{world.west.pk}/apply/", {"policy": world.light.pk})
    assert response.status_code == 302
    kept = PolicyAssignment.objects.get(team=world.west, ended_at__isnull=True)
    assert kept.policy == world.light and kept.plans.live().count() == 2
    listed = {r["name"]: r for r in api(org.admin).get(TEAMS).json()["results"]}
    assert listed["West"]["needs_lead"] is False


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
    assert "the lead of North, is deactivated (left, or on long leave): North needs a new lead" in (
        response.content.decode()
    )
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


def test_the_apis_rows_say_which_teams_need_a_lead(org, world):
    TeamFactory(name="Zeta", lead=None)
    client = api(org.admin)
    listed = {r["name"]: r for r in client.get(TEAMS).json()["results"]}
    assert {name: r["needs_lead"] for name, r in listed.items()} == {
        "East": True,
        "West": False,
        "Zeta": True,
    }
    assert listed["East"]["lead"]["display_name"] == "Mia Manager"
    assert listed["East"]["plans_missing"] == 0
    assert client.get(f"{TEAMS}{world.east.pk}/").json()["needs_lead"] is True


def test_the_admin_site_refuses_it_with_the_reason(admin, world):
    before = saved(world)
    response = admin.post(
        "/admin/cadence/policyassignment/add/", {"policy": world.light.pk, "team": world.east.pk}
    )
    assert response.status_code == 200  # the form again, with the reason
    assert LEFT in response.content.decode()
    assert saved(world) == before


def test_the_page_and_the_api_cost_the_same_with_more_teams_whose_lead_left(admin, org, world):
    """Each team's lead is read with the team: ten more teams, each with its own lead
    who left, add no query."""

    def counts():
        with CaptureQueriesContext(connection) as page:
            body = admin.get(PAGE).content.decode()
        with CaptureQueriesContext(connection) as listed:
            rows = api(org.admin).get(TEAMS).json()["results"]
        return len(page), len(listed), body.count("Name a new lead</a>"), rows

    few_page, few_api, notes, rows = counts()
    assert notes == 1 and sum(r["needs_lead"] for r in rows) == 1
    for n in range(10):
        lead = UserFactory(display_name=f"Lead {n}")
        team = TeamFactory(name=f"Team {n:02}", lead=lead)
        TeamMembershipFactory(team=team, person=UserFactory())
        policy_apply(policy=world.light, team=team, actor=org.admin)
        account_deactivate(actor=org.admin, person=lead, reason="leave")
    many_page, many_api, notes, rows = counts()
    assert notes == 11 and sum(r["needs_lead"] for r in rows) == 11
    assert (few_page, few_api) == (many_page, many_api)
