"""Cadence policies and team cadence through the API. Policies are programme
configuration: everyone signed in reads them, programme admins write them through the
page's service (audited; 403 for the others, nothing saved), nobody deletes them.
Which team keeps which policy is for programme admins alone (404 to everyone else):
`PUT` applies, `DELETE` ends. Bad input is a 400 with field messages and nothing
saved; both lists cost the same queries at two sizes."""

from datetime import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from cadence.models import CadencePlan, CadencePolicy, PolicyAssignment, PolicyItem
from cadence.services import policy_apply
from people.models import AuditEvent
from tests.support.cadence_policies import make_policy
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
POLICIES = "/api/v1/cadence-policies/"
TEAMS = "/api/v1/team-cadence/"
ONE_ON_ONE = {
    "kind": "one_on_one",
    "recurrence": "weekly",
    "weekday": 2,
    "interval_weeks": 2,
    "local_time": "09:30",
    "duration_minutes": 25,
}


def api(user):
    client = APIClient()
    client.force_login(user)
    return client


def items_of(policy):
    return sorted(policy.items.values_list("kind", "weekday", "duration_minutes"))


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "admin"])
def test_everyone_signed_in_reads_the_policies_in_words(org, who):
    policy = make_policy()
    listed = api(getattr(org, who)).get(POLICIES).json()["results"]
    assert [row["name"] for row in listed] == ["Sales team standard"]
    detail = api(getattr(org, who)).get(f"{POLICIES}{policy.pk}/").json()
    assert detail["teams_now"] == 0
    assert detail["items"][0] | {} == {
        "kind": "one_on_one",
        "recurrence": "weekly",
        "weekday": 1,
        "interval_weeks": 1,
        "week_of_month": 1,
        "local_time": "10:00:00",
        "duration_minutes": 30,
        "rule_text": "Tuesdays 10:00, weekly",
    }


def test_an_admin_creates_a_policy_through_the_service(org):
    body = {"name": "Inside sales", "description": "Short calls.", "items": [ONE_ON_ONE]}
    response = api(org.admin).post(POLICIES, body, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["items"][0]["rule_text"] == "Wednesdays 09:30, every 2 weeks"
    policy = CadencePolicy.objects.get(pk=created["id"])
    assert items_of(policy) == [("one_on_one", 2, 25)]
    assert AuditEvent.objects.get(verb="policy.created").target_id == str(policy.pk)


def test_a_patch_keeps_what_it_leaves_out_and_items_sent_replace_them(org):
    policy = make_policy()
    client = api(org.admin)
    renamed = client.patch(f"{POLICIES}{policy.pk}/", {"name": "Standard"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Standard"
    assert items_of(policy) == [("one_on_one", 1, 30), ("team_call_review", 3, 45)]
    client.patch(f"{POLICIES}{policy.pk}/", {"items": [ONE_ON_ONE]}, format="json")
    assert items_of(policy) == [("one_on_one", 2, 25)]
    assert AuditEvent.objects.filter(verb="policy.changed").count() == 2


@pytest.mark.parametrize(
    "body, errors",
    [
        ({"name": "", "items": [ONE_ON_ONE]}, {"name": ["This field may not be blank."]}),
        (
            {"name": "sales team STANDARD", "items": [ONE_ON_ONE]},
            {
                "name": [
                    "There is already a policy called “sales team STANDARD”: pick another name."
                ]
            },
        ),
        (
            {"name": "X", "items": []},
            {"items": ["Pick at least one kind of session the team keeps."]},
        ),
        (
            {"name": "X", "items": [ONE_ON_ONE, ONE_ON_ONE]},
            {"items": ["Each kind of session appears once."]},
        ),
        (
            {"name": "X", "items": [ONE_ON_ONE | {"kind": "peer"}]},
            {"items": {"0": {"kind": ['"peer" is not a valid choice.']}}},
        ),
        (
            {"name": "X", "items": [ONE_ON_ONE | {"interval_weeks": 9}]},
            {"items": {"0": {"interval_weeks": ["Ensure this value is less than or equal to 8."]}}},
        ),
        ({"name": "X", "items": [ONE_ON_ONE], "colour": "red"}, {"colour": ["Unknown field."]}),
    ],
)
def test_bad_input_is_a_400_with_field_messages_and_nothing_saved(org, body, errors):
    make_policy()
    response = api(org.admin).post(POLICIES, body, format="json")
    assert response.status_code == 400
    assert response.json() == errors
    assert CadencePolicy.objects.count() == 1 and PolicyItem.objects.count() == 2
    assert not AuditEvent.objects.filter(verb__startswith="policy.").exists()


@pytest.mark.parametrize("who", ["rep", "manager", "hr"])
def test_only_programme_admins_write_policies(org, who):
    policy = make_policy()
    client = api(getattr(org, who))
    body = {"name": "Mine", "items": [ONE_ON_ONE]}
    assert client.post(POLICIES, body, format="json").status_code == 403
    assert client.patch(f"{POLICIES}{policy.pk}/", body, format="json").status_code == 403
    assert CadencePolicy.objects.get().name == "Sales team standard"


def test_nobody_deletes_a_policy_and_an_unknown_one_is_a_404(org):
    policy = make_policy()
    assert api(org.admin).delete(f"{POLICIES}{policy.pk}/").status_code == 405
    assert api(org.admin).get(f"{POLICIES}999999/").status_code == 404
    assert CadencePolicy.objects.filter(pk=policy.pk).exists()


def test_the_policy_list_costs_the_same_at_two_sizes(org):
    def queries(n):
        for i in range(n):
            make_policy(f"Policy {len(CadencePolicy.objects.all())} {i}")
        client = api(org.rep)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(POLICIES).status_code == 200
        return len(captured)

    assert queries(2) == queries(12)


# --- Team cadence -----------------------------------------------------------------------


@pytest.fixture
def east(org):
    team = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    return team


def test_an_admin_lists_teams_with_the_policy_each_keeps(org, east):
    policy = make_policy()
    west = TeamFactory(name="West", lead=org.other_manager)
    policy_apply(policy=policy, team=west, actor=org.admin)
    rows = api(org.admin).get(TEAMS).json()["results"]
    assert [(r["name"], r["policy_name"]) for r in rows] == [
        ("East", None),
        ("West", "Sales team standard"),
    ]
    assert rows[0]["lead"] == {"id": org.manager.pk, "display_name": org.manager.display_name}
    without = api(org.admin).get(TEAMS, {"show": "without"}).json()["results"]
    assert [r["name"] for r in without] == ["East"]
    bad = api(org.admin).get(TEAMS, {"show": "some"})
    assert bad.status_code == 400 and "show" in bad.json()


def test_applying_makes_the_plans_and_ending_ends_them(org, east):
    policy = make_policy()
    client = api(org.admin)
    applied = client.put(f"{TEAMS}{east.pk}/", {"policy": policy.pk}, format="json")
    assert applied.status_code == 200
    assert applied.json()["policy_id"] == policy.pk
    assert CadencePlan.objects.live().filter(coachee=org.rep, kind="one_on_one").exists()
    assert client.delete(f"{TEAMS}{east.pk}/").status_code == 204
    assert not CadencePlan.objects.live().filter(coachee=org.rep).exists()
    assert not PolicyAssignment.objects.filter(ended_at__isnull=True).exists()
    again = client.delete(f"{TEAMS}{east.pk}/")
    assert again.status_code == 400


def test_what_cannot_be_applied_is_a_400_and_an_unknown_team_a_404(org, east):
    client = api(org.admin)
    leaderless = TeamFactory(name="Zeta", lead=None)
    policy = make_policy()
    no_lead = client.put(f"{TEAMS}{leaderless.pk}/", {"policy": policy.pk}, format="json")
    assert no_lead.status_code == 400 and "team" in no_lead.json()
    unknown = client.put(f"{TEAMS}{east.pk}/", {"policy": 999999}, format="json")
    assert unknown.status_code == 400 and "policy" in unknown.json()
    assert client.put(f"{TEAMS}999999/", {"policy": policy.pk}, format="json").status_code == 404
    assert not PolicyAssignment.objects.exists() and not CadencePlan.objects.exists()


def test_the_policy_a_team_keeps_already_is_a_400_as_on_the_page(org, east):
    policy = make_policy()
    client = api(org.admin)
    assert client.put(f"{TEAMS}{east.pk}/", {"policy": policy.pk}, format="json").status_code == 200
    plans = set(CadencePlan.objects.live().values_list("pk", flat=True))
    again = client.put(f"{TEAMS}{east.pk}/", {"policy": policy.pk}, format="json")
    assert again.status_code == 400
    assert again.json() == {
        "policy": [
            "East already keeps “Sales team standard”, with every plan it makes. Pick another "
            "policy to apply instead, or end this one."
        ]
    }
    assert PolicyAssignment.objects.filter(team=east).count() == 1
    assert set(CadencePlan.objects.live().values_list("pk", flat=True)) == plans
    assert AuditEvent.objects.filter(verb="policy.applied").count() == 1
    # A kind the policy gained since: applying it again makes that, and only that.
    PolicyItem.objects.create(policy=policy, kind="role_play", weekday=2, local_time=time(9, 0))
    gained = client.put(f"{TEAMS}{east.pk}/", {"policy": policy.pk}, format="json")
    assert gained.status_code == 200
    made = CadencePlan.objects.live().exclude(pk__in=plans)
    assert list(made.values_list("kind", "team_id")) == [("role_play", east.pk)]


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "head"])
def test_everyone_else_gets_404_on_team_cadence(org, east, who):
    policy = make_policy()
    client = api(getattr(org, who))
    assert client.get(TEAMS).status_code == 404
    assert client.put(f"{TEAMS}{east.pk}/", {"policy": policy.pk}, format="json").status_code == 404
    assert client.delete(f"{TEAMS}{east.pk}/").status_code == 404
    assert not PolicyAssignment.objects.exists()


def test_the_team_list_costs_the_same_at_two_sizes(org):
    policy = make_policy()

    def queries(n):
        """Each team with a member its policy made no 1:1 for: one plan missing."""
        for _ in range(n):
            team = TeamFactory(lead=org.manager)
            policy_apply(policy=policy, team=team, actor=org.admin)
            TeamMembershipFactory(team=team, person=UserFactory())
        client = api(org.admin)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(TEAMS)
        assert {row["plans_missing"] for row in response.json()["results"]} == {1}
        return len(captured)

    assert queries(2) == queries(12)
