"""Nothing on Team cadence ends or makes plans in one click: Apply, Apply instead and
Make the missing plans open a preview of every plan at its time (and every clash it
stepped round, and what would end), End opens what it would end — both write nothing
until confirmed. An ended plan restarts from its page, or the API, with its times.
Everyone but programme admins gets 404 (the authorization matrix too)."""

from datetime import time

import pytest
from rest_framework.test import APIClient

from cadence.models import CadencePlan, PolicyAssignment
from cadence.services import plan_create, plan_end, policy_apply
from tests.support.cadence_policies import east_and_west, make_policy

pytestmark = pytest.mark.django_db
PAGE = "/programme/cadence/"


@pytest.fixture
def world(org):
    standard, light = make_policy(), make_policy("Light touch")
    east, west = east_and_west(org)
    policy_apply(policy=standard, team=west, actor=org.admin)
    return type("World", (), {"standard": standard, "light": light, "east": east, "west": west})


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def test_the_team_list_opens_the_preview_and_the_end_confirmation(admin, world):
    body = admin.get(PAGE).content.decode()
    east, west = world.east, world.west
    assert f'<form method="get" action="/programme/cadence/teams/{east.pk}/apply/"' in body
    assert f'href="/programme/cadence/teams/{west.pk}/end/?page=1"' in body
    assert f'action="/programme/cadence/teams/{west.pk}/end/"' not in body  # no one-click end


def test_the_preview_shows_every_plan_at_its_time_and_writes_nothing(admin, org, world):
    # Mia already runs a 1:1 with Olga's… no: with someone outside the team, Tuesdays 10:00.
    plan_create(kind="one_on_one", coach=org.manager, coachee=org.other_rep, weekday=1,
                local_time=time(10, 0), generate=False)  # fmt: skip
    before = CadencePlan.objects.count()
    response = admin.get(
        f"/programme/cadence/teams/{world.east.pk}/apply/?policy={world.standard.pk}"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "Apply “Sales team standard” to East?" in body
    assert "Pavel Peer&#x27;s 1:1" in body and "Rita Rep&#x27;s 1:1" in body
    # One each after the 10:00, a half hour free between the lead's sessions.
    assert "Tuesday 11:00" in body and "Tuesday 12:00" in body
    assert "Tuesday 10:00 clashes with Olga Outsider&#x27;s 1:1 with Mia Manager" in body
    assert "Confirm: make 3 plans" in body
    assert CadencePlan.objects.count() == before
    assert not PolicyAssignment.objects.filter(team=world.east).exists()


def test_confirming_makes_what_the_preview_showed(admin, world):
    url = f"/programme/cadence/teams/{world.east.pk}/apply/"
    admin.get(f"{url}?policy={world.standard.pk}")
    response = admin.post(url, {"policy": world.standard.pk})
    assert response.status_code == 302
    slots = sorted(
        CadencePlan.objects.live()
        .filter(team__isnull=True, coach=world.east.lead)
        .values_list("local_time", flat=True)
    )
    assert slots == [time(10, 0), time(11, 0)]


def test_apply_instead_shows_what_would_end(admin, world):
    response = admin.get(f"/programme/cadence/teams/{world.west.pk}/apply/?policy={world.light.pk}")
    body = response.content.decode()
    assert "Ends first" in body
    assert "Olga Outsider&#x27;s 1:1 with Omar Other" in body
    assert "West&#x27;s call review" in body
    assert "Confirm: make 2 plans and end 2" in body


def test_end_asks_first_listing_the_plans_that_end(admin, world):
    url = f"/programme/cadence/teams/{world.west.pk}/end/"
    body = admin.get(url).content.decode()
    assert "End “Sales team standard” for West?" in body
    assert "Olga Outsider&#x27;s 1:1 with Omar Other" in body
    assert "End it and its 2 plans" in body
    assert CadencePlan.objects.live().filter(assignment__team=world.west).count() == 2
    assert admin.post(url).status_code == 302
    assert CadencePlan.objects.live().filter(assignment__team=world.west).count() == 0


@pytest.mark.parametrize(
    "path",
    [
        "/programme/cadence/teams/{east}/apply/?policy={policy}",
        "/programme/cadence/teams/{west}/end/",
    ],
)
def test_outsiders_get_404(client_for, org, world, path):
    url = path.format(east=world.east.pk, west=world.west.pk, policy=world.standard.pk)
    for person in (org.manager, org.rep, org.hr, org.head):
        assert client_for(person).get(url).status_code == 404


def test_a_bad_policy_or_a_team_without_a_policy_is_a_400_with_the_reason(admin, world):
    bad = admin.get(f"/programme/cadence/teams/{world.east.pk}/apply/?policy=nope")
    assert bad.status_code == 400 and "Pick a policy from the list." in bad.content.decode()
    none = admin.get(f"/programme/cadence/teams/{world.east.pk}/end/")
    assert none.status_code == 400 and "East keeps no policy now." in none.content.decode()


@pytest.mark.parametrize("size", [2, 8])
def test_the_preview_costs_the_same_whatever_the_size_of_the_team(
    admin, org, world, size, django_assert_num_queries
):
    from tests.support.factories import TeamMembershipFactory, UserFactory

    for n in range(size):
        TeamMembershipFactory(team=world.east, person=UserFactory(display_name=f"New {n}"))
    url = f"/programme/cadence/teams/{world.east.pk}/apply/?policy={world.standard.pk}"
    admin.get(url)
    with django_assert_num_queries(13):  # the header's unread count among them
        assert admin.get(url).status_code == 200


# --- Restarting an ended plan ------------------------------------------------------------


def ended(org) -> CadencePlan:
    plan = plan_create(kind="one_on_one", coach=org.manager, coachee=org.rep, weekday=3,
                       local_time=time(14, 30), duration_minutes=45, generate=False)  # fmt: skip
    plan_end(plan=plan, actor=org.manager, reason="other", note="Forecast push")
    return plan


def test_an_ended_plan_restarts_from_its_page_with_its_times(client_for, org):
    plan = ended(org)
    client = client_for(org.manager)
    page = client.get(f"/programme/plans/{plan.pk}/")
    assert page.status_code == 404  # Programme → Plans is the admins'; My cadence is hers
    admin = client_for(org.admin)
    body = admin.get(f"/programme/plans/{plan.pk}/").content.decode()
    assert "Restart with its times" in body
    response = admin.post(f"/cadence/plans/{plan.pk}/restart/", {"back": "programme"})
    assert response.status_code == 302
    new = CadencePlan.objects.live().get(coach=org.manager, coachee=org.rep)
    assert new.pk != plan.pk
    assert (new.weekday, new.local_time, new.duration_minutes, new.time_zone) == (
        3,
        time(14, 30),
        45,
        plan.time_zone,
    )
    again = admin.post(f"/cadence/plans/{new.pk}/restart/", {"back": "programme"})
    assert again.status_code == 400
    assert "This plan is running" in again.content.decode()


def test_a_plan_restarts_in_the_api_and_outsiders_get_404(org):
    plan = ended(org)
    outsider = APIClient()
    outsider.force_authenticate(org.other_manager)
    assert outsider.post(f"/api/v1/plans/{plan.pk}/restart/").status_code == 404
    coach = APIClient()
    coach.force_authenticate(org.manager)
    response = coach.post(f"/api/v1/plans/{plan.pk}/restart/")
    assert response.status_code == 201, response.json()
    assert response.json()["id"] != plan.pk
    twice = coach.post(f"/api/v1/plans/{plan.pk}/restart/")
    assert twice.status_code == 400
    assert "already a live plan" in str(twice.json())


def test_a_plan_moved_onto_a_clash_is_saved_with_a_warning_naming_it(client_for, org):
    plan_create(kind="one_on_one", coach=org.manager, coachee=org.peer, weekday=1,
                local_time=time(10, 0), generate=False)  # fmt: skip
    plan = plan_create(kind="one_on_one", coach=org.manager, coachee=org.rep, weekday=2,
                       local_time=time(10, 0), generate=False)  # fmt: skip
    client = client_for(org.manager)
    prefix = f"plan-{plan.pk}"
    response = client.post(
        f"/cadence/plans/{plan.pk}/edit/",
        {f"{prefix}-weekday": "1", f"{prefix}-interval_weeks": "1",
         f"{prefix}-local_time": "10:15", f"{prefix}-duration_minutes": "30"},
        follow=True,
    )  # fmt: skip
    assert "it now clashes with Pavel Peer&#x27;s 1:1 with Mia Manager" in response.content.decode()


def test_the_plan_api_names_the_clash_a_change_or_a_restart_lands_on(org):
    plan_create(kind="one_on_one", coach=org.manager, coachee=org.peer, weekday=1,
                local_time=time(10, 0), generate=False)  # fmt: skip
    plan = plan_create(kind="one_on_one", coach=org.manager, coachee=org.rep, weekday=2,
                       local_time=time(10, 0), generate=False)  # fmt: skip
    coach = APIClient()
    coach.force_authenticate(org.manager)
    url = f"/api/v1/plans/{plan.pk}/"
    clear = coach.patch(url, {"local_time": "14:00"}, format="json")
    assert clear.status_code == 200, clear.json()
    assert clear.json()["clashes"] == []
    onto = coach.patch(url, {"weekday": 1, "local_time": "10:15"}, format="json")
    assert onto.status_code == 200, onto.json()
    assert onto.json()["clashes"] == ["Pavel Peer's 1:1 with Mia Manager"]
    plan_end(plan=CadencePlan.objects.get(pk=plan.pk), actor=org.manager, reason="other",
             note="A pause")  # fmt: skip
    restarted = coach.post(f"/api/v1/plans/{plan.pk}/restart/")
    assert restarted.status_code == 201, restarted.json()
    assert restarted.json()["clashes"] == ["Pavel Peer's 1:1 with Mia Manager"]


def test_the_api_previews_what_applying_makes_and_outsiders_get_404(org, world):
    admin = APIClient()
    admin.force_authenticate(org.admin)
    url = f"/api/v1/team-cadence/{world.east.pk}/preview/"
    response = admin.get(url, {"policy": world.standard.pk})
    assert response.status_code == 200, response.json()
    body = response.json()
    one_on_ones = [p for p in body["placed"] if p["kind"] == "one_on_one"]
    assert sorted((p["coachee"]["display_name"], p["local_time"]) for p in one_on_ones) == [
        ("Pavel Peer", "10:00"),
        ("Rita Rep", "11:00"),
    ]
    assert body["unplaced"] == [] and body["ending"] == []
    assert not CadencePlan.objects.filter(team=world.east).exists()  # nothing written
    assert admin.get(url).status_code == 400  # which policy?
    assert admin.get(url, {"policy": 9999}).status_code == 400
    outsider = APIClient()
    outsider.force_authenticate(org.manager)
    assert outsider.get(url, {"policy": world.standard.pk}).status_code == 404


@pytest.mark.parametrize("size", [1, 8])
def test_the_end_confirmation_costs_the_same_whatever_the_size_of_the_team(
    admin, org, world, size, django_assert_num_queries
):
    from tests.support.factories import TeamMembershipFactory, UserFactory

    for n in range(size):
        TeamMembershipFactory(team=world.west, person=UserFactory(display_name=f"New {n}"))
    policy_apply(policy=world.standard, team=world.west, actor=org.admin)  # their 1:1s too
    url = f"/programme/cadence/teams/{world.west.pk}/end/"
    admin.get(url)
    # Session and person, the header's unread count, the admin's roles (two), the
    # team, the assignment with its policy, its live plans with their people: the same
    # for one plan or nine.
    with django_assert_num_queries(7):
        assert admin.get(url).status_code == 200
