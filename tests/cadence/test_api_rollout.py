"""Install plans through the API: listed for whoever may see them (the lead, above the
lead, HR, programme admins), read with their checklist, started by the lead, above
the lead or a programme admin, ticked by the lead. Others get 404 and an empty list;
those who see but may not act get 403; bad input is a 400, nothing saved; the list
costs the same queries for 2 teams as for 20."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from cadence.models import Rollout, RolloutTick
from cadence.services_rollout import rollout_start
from people.services_teams import team_create, team_member_add
from tests.support.cadence_rollout import (
    call_review,
    role_play,
    rollout_fixture,  # noqa: F401 - the `rollout` fixture
    team_fixture,  # noqa: F401 - the `team` fixture
    weekly,
)
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/rollouts/"
SEE = ["manager", "head", "hr", "admin"]
OUTSIDERS = ["rep", "peer", "other_manager", "other_rep"]


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", SEE)
def test_whoever_may_see_it_lists_and_reads_it_with_its_checklist(org, team, rollout, who):
    client = api(getattr(org, who))
    listed = client.get(URL).json()["results"]
    assert [row["id"] for row in listed] == [rollout.pk]
    assert listed[0]["team"] == {"id": team.pk, "name": team.name}
    assert listed[0]["done_count"] == 0 and listed[0]["total"] == 10
    assert listed[0]["next_item"] == "cadence_live"
    detail = client.get(f"{URL}{rollout.pk}/").json()
    assert [item["key"] for item in detail["items"]][:2] == ["cadence_live", "focus_area"]
    first = detail["items"][0]
    assert first["day"] == 30 and first["done"] is False and first["overdue"] is False
    assert first["due_on"] == (rollout.starts_on + timedelta(days=30)).isoformat()


@pytest.mark.parametrize("who", OUTSIDERS)
def test_everyone_else_gets_404_and_an_empty_list(org, team, rollout, who):
    client = api(getattr(org, who))
    assert client.get(URL).json()["results"] == []
    assert client.get(f"{URL}{rollout.pk}/").status_code == 404
    for action in ("tick", "untick"):
        response = client.post(f"{URL}{rollout.pk}/{action}/", {"item": "recordings_on"})
        assert response.status_code == 404
    start = client.post(URL, {"team": team.pk, "starts_on": "2026-01-01"}, format="json")
    assert start.status_code == 400 and "team" in start.json()
    assert not RolloutTick.objects.exists() and Rollout.objects.count() == 1


def test_anonymous_callers_get_401(rollout):
    assert api().get(URL).status_code == 401
    assert api().get(f"{URL}{rollout.pk}/").status_code == 401
    assert api().post(f"{URL}{rollout.pk}/tick/", {"item": "recordings_on"}).status_code == 401


def test_the_checklist_follows_the_data(org, team, rollout):
    held = call_review(org, team)
    item = {i["key"]: i for i in api(org.hr).get(f"{URL}{rollout.pk}/").json()["items"]}
    assert item["first_call_review"]["done"] is True
    assert item["first_call_review"]["done_on"] == timezone.localdate(held.held_at).isoformat()


@pytest.mark.parametrize("who", ["manager", "head", "admin"])
def test_the_lead_someone_above_or_a_programme_admin_starts_one(org, team, who):
    today = timezone.localdate().isoformat()
    response = api(getattr(org, who)).post(
        URL, {"team": team.pk, "starts_on": today}, format="json"
    )
    assert response.status_code == 201
    data = response.json()
    assert data["team"]["id"] == team.pk and data["starts_on"] == today and len(data["items"]) == 10
    assert Rollout.objects.get().created_by == getattr(org, who)


def test_hr_sees_a_team_but_may_not_start_it(org, team):
    response = api(org.hr).post(URL, {"team": team.pk, "starts_on": "2026-01-01"}, format="json")
    assert response.status_code == 403 and "started by its lead" in response.json()["detail"]
    assert not Rollout.objects.exists()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"starts_on": "soon"}, "starts_on"),
        ({"starts_on": None}, "starts_on"),
        ({"starts_on": "FAR"}, "starts_on"),
        ({"team": 999999}, "team"),
        ({"team": "x"}, "team"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_start_is_a_400_naming_the_field_and_nothing_is_saved(org, team, data, field):
    far = (timezone.localdate() + timedelta(days=91)).isoformat()
    body = {"team": team.pk, "starts_on": timezone.localdate().isoformat(), **data}
    if body["starts_on"] == "FAR":
        body["starts_on"] = far
    response = api(org.manager).post(URL, body, format="json")
    assert response.status_code == 400 and field in response.json()
    assert not Rollout.objects.exists()


def test_starting_twice_is_a_400(org, team, rollout):
    today = timezone.localdate().isoformat()
    response = api(org.head).post(URL, {"team": team.pk, "starts_on": today}, format="json")
    assert response.status_code == 400 and "already started" in str(response.json())
    assert Rollout.objects.count() == 1


def test_the_lead_ticks_and_unticks(org, rollout):
    client = api(org.manager)
    response = client.post(f"{URL}{rollout.pk}/tick/", {"item": "recordings_on"}, format="json")
    assert response.status_code == 200
    item = {i["key"]: i for i in response.json()["items"]}["recordings_on"]
    assert item["done"] is True and item["done_on"] == timezone.localdate().isoformat()
    assert response.json()["done_count"] == 1
    response = client.post(f"{URL}{rollout.pk}/untick/", {"item": "recordings_on"}, format="json")
    assert response.status_code == 200 and response.json()["done_count"] == 0
    assert not RolloutTick.objects.exists()


@pytest.mark.parametrize("who", ["head", "hr", "admin"])
def test_others_who_see_it_may_not_tick_403(org, rollout, who):
    client = api(getattr(org, who))
    response = client.post(f"{URL}{rollout.pk}/tick/", {"item": "recordings_on"}, format="json")
    assert response.status_code == 403 and "Only the team's lead" in response.json()["detail"]
    assert not RolloutTick.objects.exists()


@pytest.mark.parametrize(
    "body",
    [{"item": "first_call_review"}, {"item": "x"}, {}, {"item": "recordings_on", "extra": 1}],
)
def test_a_bad_tick_is_a_400(org, rollout, body):
    response = api(org.manager).post(f"{URL}{rollout.pk}/tick/", body, format="json")
    assert response.status_code == 400
    assert not RolloutTick.objects.exists()


def _count(client):
    client.get(URL)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(URL).status_code == 200
    return len(captured)


def _team(org, n):
    lead = UserFactory(manager=org.head)
    member = UserFactory(manager=lead)
    team = team_create(name=f"Team {n}", lead=lead)
    team_member_add(team=team, person=member)
    weekly(lead, member)
    role_play(org, coach=lead, participants=[member], team=team)
    rollout_start(team=team, actor=lead, starts_on=timezone.localdate() - timedelta(days=n))


def test_the_list_costs_the_same_queries_for_2_teams_as_for_20(org):
    client = api(org.hr)
    for n in range(2):
        _team(org, n)
    two = _count(client)
    for n in range(2, 20):
        _team(org, n)
    assert len(client.get(URL).json()["results"]) == 20
    assert _count(client) == two


def test_rollouts_are_in_the_schema(org):
    schema = api(org.rep).get("/api/schema/", {"format": "json"}).json()
    for path in (URL, f"{URL}{{id}}/", f"{URL}{{id}}/tick/", f"{URL}{{id}}/untick/"):
        assert path in schema["paths"], path
    assert "post" in schema["paths"][URL]
