"""Development goals through the API: the owner and their chain list, read, add,
edit, close and reopen; everyone else gets 404; bad input is a 400 naming the field,
nothing saved; the list costs the same queries whatever its length."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from coaching.models import Goal, GoalStatus
from coaching.services import goal_close, goal_create
from tests.support.factories import FocusAreaFactory

CHAIN = ["rep", "manager", "head"]
OUTSIDERS = ["peer", "other_manager", "other_rep", "hr", "admin"]
URL = "/api/v1/goals/"


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


@pytest.fixture
def goal(org):
    return goal_create(owner=org.rep, actor=org.rep, title="Ask before telling")


@pytest.mark.django_db
@pytest.mark.parametrize("who", CHAIN)
def test_the_owner_and_their_chain_list_and_read_a_goal(api, org, goal, who):
    client = api(getattr(org, who))
    listed = client.get(URL, {"owner": org.rep.pk}).json()["results"]
    assert [row["id"] for row in listed] == [goal.pk]
    detail = client.get(f"{URL}{goal.pk}/").json()
    assert detail["title"] == "Ask before telling" and detail["status"] == "active"
    assert detail["owner"]["id"] == org.rep.pk and detail["focus_area"] is None


@pytest.mark.django_db
@pytest.mark.parametrize("who", OUTSIDERS)
def test_everyone_else_gets_404_and_an_empty_list(api, org, goal, who):
    client = api(getattr(org, who))
    assert client.get(URL).json()["results"] == []
    assert client.get(f"{URL}{goal.pk}/").status_code == 404
    assert client.patch(f"{URL}{goal.pk}/", {"title": "x"}, format="json").status_code == 404
    close = client.post(f"{URL}{goal.pk}/close/", {"status": "dropped"}, format="json")
    assert close.status_code == 404
    assert client.post(f"{URL}{goal.pk}/reopen/").status_code == 404
    goal.refresh_from_db()
    assert goal.title == "Ask before telling" and goal.status == GoalStatus.ACTIVE


@pytest.mark.django_db
def test_anonymous_callers_get_401(api, goal):
    assert api().get(URL).status_code in (401, 403)
    assert api().get(f"{URL}{goal.pk}/").status_code in (401, 403)


@pytest.mark.django_db
def test_a_rep_adds_their_own_goal_and_a_manager_one_for_a_coachee(api, org):
    focus = FocusAreaFactory(name="Discovery")
    mine = api(org.rep).post(
        URL, {"title": "Ask first", "focus_area": focus.pk, "success": "Two a call"}, format="json"
    )
    assert mine.status_code == 201, mine.json()
    assert mine.json()["owner"]["id"] == org.rep.pk
    assert mine.json()["focus_area"] == {"id": focus.pk, "name": "Discovery"}
    theirs = api(org.manager).post(URL, {"title": "Next steps", "owner": org.rep.pk}, format="json")
    assert theirs.status_code == 201 and theirs.json()["owner"]["id"] == org.rep.pk
    assert Goal.objects.filter(owner=org.rep).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "title"),
        ({"title": ""}, "title"),
        ({"title": "x" * 201}, "title"),
        ({"title": "Ok", "success": "y" * 501}, "success"),
        ({"title": "Ok", "owner": "OTHER"}, "owner"),
        ({"title": "Ok", "owner": 999999}, "owner"),
        ({"title": "Ok", "owner": "abc"}, "owner"),
        ({"title": "Ok", "focus_area": 999999}, "focus_area"),
        ({"title": "Ok", "colour": "red"}, "colour"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_nothing_is_saved(api, org, body, field):
    if body.get("owner") == "OTHER":
        body = {**body, "owner": org.other_rep.pk}
    response = api(org.manager).post(URL, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not Goal.objects.exists()


@pytest.mark.django_db
def test_a_fourth_active_goal_is_a_400_with_the_reason(api, org):
    for i in range(3):
        goal_create(owner=org.rep, actor=org.rep, title=f"Goal {i}")
    response = api(org.rep).post(URL, {"title": "One too many"}, format="json")
    assert response.status_code == 400 and "at most 3 goals" in str(response.json())
    assert Goal.objects.count() == 3


@pytest.mark.django_db
def test_editing_closing_and_reopening(api, org, goal):
    client = api(org.manager)
    edited = client.patch(f"{URL}{goal.pk}/", {"title": "Ask, then listen"}, format="json")
    assert edited.status_code == 200 and edited.json()["title"] == "Ask, then listen"
    assert client.patch(f"{URL}{goal.pk}/", {}, format="json").status_code == 400
    assert client.put(f"{URL}{goal.pk}/", {"title": "x"}, format="json").status_code == 405
    closed = client.post(f"{URL}{goal.pk}/close/", {"status": "achieved"}, format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "achieved"
    assert closed.json()["closed_at"] is not None
    again = client.post(f"{URL}{goal.pk}/close/", {"status": "dropped"}, format="json")
    assert again.status_code == 400
    wrong = client.post(f"{URL}{goal.pk}/close/", {"status": "active"}, format="json")
    assert wrong.status_code == 400 and "status" in wrong.json()
    reopened = client.post(f"{URL}{goal.pk}/reopen/")
    assert reopened.status_code == 200 and reopened.json()["status"] == "active"


@pytest.mark.django_db
def test_filters_by_owner_and_status(api, org, goal):
    done = goal_create(owner=org.peer, actor=org.peer, title="Pause")
    goal_close(goal=done, actor=org.peer, status=GoalStatus.ACHIEVED)
    client = api(org.manager)
    assert [r["id"] for r in client.get(URL, {"status": "achieved"}).json()["results"]] == [done.pk]
    assert [r["id"] for r in client.get(URL, {"owner": org.rep.pk}).json()["results"]] == [goal.pk]
    assert client.get(URL, {"status": "nonsense"}).status_code == 400


def _count(client):
    client.get(URL)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(URL).status_code == 200
    return len(captured)


@pytest.mark.django_db
def test_the_list_costs_the_same_queries_whatever_its_length(api, org):
    focus = FocusAreaFactory(name="Discovery")
    client = api(org.head)
    goal_create(owner=org.rep, actor=org.rep, title="One", focus_area=focus)
    few = _count(client)
    for person in (org.peer, org.manager, org.other_rep):
        for i in range(3):
            goal_create(owner=person, actor=org.head, title=f"Goal {i}", focus_area=focus)
    assert _count(client) == few


@pytest.mark.django_db
def test_goals_are_in_the_schema(api, org):
    schema = api(org.rep).get("/api/schema/", {"format": "json"}).json()
    for path in (URL, f"{URL}{{id}}/", f"{URL}{{id}}/close/", f"{URL}{{id}}/reopen/"):
        assert path in schema["paths"], path
