"""Development goals in the browser: "My goals", the coachee's page for the people
above them, editing, closing and reopening. Outsiders get 404 and change nothing;
bad input is a 400 with the reason and nothing saved; the list costs the same
queries whatever the number of goals."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.models import MAX_ACTIVE_GOALS, Goal, GoalStatus
from coaching.services import goal_close, goal_create
from tests.support.factories import FocusAreaFactory

CHAIN = ["rep", "manager", "head"]  # the owner and the people above them
OUTSIDERS = ["peer", "other_manager", "other_rep", "hr", "admin"]


@pytest.fixture
def goal(org):
    return goal_create(owner=org.rep, actor=org.rep, title="Ask before telling")


def body(**extra):
    return {"title": "Confirm next steps on every call", "success": "", **extra}


@pytest.mark.django_db
def test_my_goals_lists_what_i_work_on_and_what_i_closed(client, org, goal):
    done = goal_create(owner=org.rep, actor=org.rep, title="Pause after the price")
    goal_close(goal=done, actor=org.rep, status=GoalStatus.ACHIEVED)
    client.force_login(org.rep)
    page = client.get("/goals/").content.decode()
    assert "Ask before telling" in page and "Pause after the price" in page
    assert "Achieved or dropped" in page and f'href="/goals/{goal.pk}/edit/"' in page
    assert 'href="/goals/"' in client.get("/me/").content.decode()  # reachable from home


@pytest.mark.django_db
def test_a_rep_adds_a_goal_with_a_focus_area(client, org):
    focus = FocusAreaFactory(name="Discovery")
    client.force_login(org.rep)
    response = client.post("/goals/", body(focus_area=focus.pk, success="Two a call"))
    assert response.status_code == 302 and response["Location"] == "/goals/"
    goal = Goal.objects.get()
    assert (goal.owner, goal.created_by, goal.focus_area) == (org.rep, org.rep, focus)
    assert goal.success == "Two a call"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (body(title=""), "This field is required."),
        (body(title="x" * 201), "at most 200 characters"),
        (body(focus_area="999999"), "Pick a current focus area from the list."),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_nothing_saved(client, org, data, message):
    client.force_login(org.rep)
    response = client.post("/goals/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Goal.objects.exists()


@pytest.mark.django_db
def test_a_fourth_active_goal_is_refused_on_the_page(client, org):
    for i in range(MAX_ACTIVE_GOALS):
        goal_create(owner=org.rep, actor=org.rep, title=f"Goal {i}")
    client.force_login(org.rep)
    page = client.get("/goals/").content.decode()
    assert "Add the goal" not in page and "goals at a time is plenty" in page
    response = client.post("/goals/", body())
    assert response.status_code == 400 and "at most 3 goals" in response.content.decode()
    assert Goal.objects.count() == MAX_ACTIVE_GOALS


@pytest.mark.django_db
def test_a_manager_sees_and_writes_down_a_coachees_goal_on_their_page(client, org, goal):
    client.force_login(org.manager)
    page = client.get(f"/people/{org.rep.pk}/").content.decode()
    assert "Ask before telling" in page and f'action="/people/{org.rep.pk}/goals/"' in page
    response = client.post(f"/people/{org.rep.pk}/goals/", body())
    assert response.status_code == 302
    assert response["Location"] == f"/people/{org.rep.pk}/#goals-heading"
    added = Goal.objects.get(title=body()["title"])
    assert (added.owner, added.created_by) == (org.rep, org.manager)


@pytest.mark.django_db
def test_a_refused_goal_on_a_coachees_page_is_a_400_on_that_page(client, org):
    client.force_login(org.manager)
    response = client.post(f"/people/{org.rep.pk}/goals/", body(title=""))
    assert response.status_code == 400
    page = response.content.decode()
    assert "Rita Rep" in page and "This field is required." in page
    assert not Goal.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("who", OUTSIDERS)
def test_outsiders_get_404_everywhere_and_change_nothing(client, org, goal, who):
    client.force_login(getattr(org, who))
    assert client.get(f"/goals/{goal.pk}/edit/").status_code == 404
    posts = {
        f"/goals/{goal.pk}/edit/": body(),
        f"/goals/{goal.pk}/close/": {"status": "dropped"},
        f"/goals/{goal.pk}/reopen/": {},
        f"/people/{org.rep.pk}/goals/": body(),
    }
    for path, data in posts.items():
        assert client.post(path, data).status_code == 404, path
    assert Goal.objects.get().title == "Ask before telling"
    assert Goal.objects.count() == 1 and Goal.objects.get().status == GoalStatus.ACTIVE
    assert "Ask before telling" not in client.get("/goals/").content.decode()


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in(client, goal):
    for path in ("/goals/", f"/goals/{goal.pk}/edit/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(f"/goals/{goal.pk}/close/", {"status": "dropped"}).status_code == 302
    assert Goal.objects.get().status == GoalStatus.ACTIVE


@pytest.mark.django_db
@pytest.mark.parametrize("who", CHAIN)
def test_the_owner_and_their_chain_edit_a_goal(client, org, goal, who):
    client.force_login(getattr(org, who))
    page = client.get(f"/goals/{goal.pk}/edit/").content.decode()
    assert 'value="Ask before telling"' in page
    response = client.post(f"/goals/{goal.pk}/edit/", body(title="Ask, then listen"))
    assert response.status_code == 302
    goal.refresh_from_db()
    assert goal.title == "Ask, then listen"


@pytest.mark.django_db
def test_a_bad_edit_is_a_400_and_keeps_the_goal(client, org, goal):
    client.force_login(org.rep)
    response = client.post(f"/goals/{goal.pk}/edit/", body(title=" "))
    assert response.status_code == 400
    goal.refresh_from_db()
    assert goal.title == "Ask before telling"


@pytest.mark.django_db
def test_closing_and_reopening_from_the_page(client, org, goal):
    client.force_login(org.rep)
    response = client.post(f"/goals/{goal.pk}/close/", {"status": "achieved"}, follow=True)
    assert "Achieved — well done." in response.content.decode()
    goal.refresh_from_db()
    assert goal.status == GoalStatus.ACHIEVED
    assert client.post(f"/goals/{goal.pk}/close/", {"status": "dropped"}).status_code == 400
    assert client.post(f"/goals/{goal.pk}/close/", {"status": "nonsense"}).status_code == 400
    assert client.post(f"/goals/{goal.pk}/reopen/").status_code == 302
    goal.refresh_from_db()
    assert goal.status == GoalStatus.ACTIVE


@pytest.mark.django_db
def test_reopening_when_three_are_active_is_a_400_with_the_reason(client, org, goal):
    goal_close(goal=goal, actor=org.rep, status=GoalStatus.DROPPED)
    for i in range(MAX_ACTIVE_GOALS):
        goal_create(owner=org.rep, actor=org.rep, title=f"Goal {i}")
    client.force_login(org.manager)
    response = client.post(f"/goals/{goal.pk}/reopen/")
    assert response.status_code == 400 and "at most 3 goals" in response.content.decode()
    goal.refresh_from_db()
    assert goal.status == GoalStatus.DROPPED


def _queries(client, path):
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/goals/", "PERSON"])
def test_goal_lists_cost_the_same_queries_whatever_the_number_of_goals(client, org, path):
    focus = FocusAreaFactory(name="Discovery")
    viewer = org.rep if path == "/goals/" else org.manager
    path = f"/people/{org.rep.pk}/" if path == "PERSON" else path
    client.force_login(viewer)
    goal_create(owner=org.rep, actor=org.rep, title="First", focus_area=focus)
    few = _queries(client, path)
    for i in range(4):
        closed = goal_create(owner=org.rep, actor=org.rep, title=f"Old {i}")
        goal_close(goal=closed, actor=org.rep, status=GoalStatus.ACHIEVED)
    # (one more active: with three the add form, and its focus-area query, is gone)
    goal_create(owner=org.rep, actor=org.rep, title="More", focus_area=focus)
    assert _queries(client, path) == few
