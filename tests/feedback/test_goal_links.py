"""Feedback and development goals: the recipient links an item to one of their own
goals (a private link, like the reflection) and sees what each goal is getting; a
request names one of the requester's goals or a focus area, which the people asked
see. Someone else's goal is refused; the link never reaches anyone but the recipient."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from coaching.services import goal_create
from feedback.models import Feedback, FeedbackRequest, Stream
from feedback.services import feedback_acknowledge, feedback_give, feedback_request_create
from notifications import outbox
from tests.support.factories import FocusAreaFactory


@pytest.fixture
def goal(org):
    return goal_create(owner=org.rep, actor=org.rep, title="Ask before telling")


def received(org, stream=Stream.DEVELOPMENTAL, author=None):
    return feedback_give(
        author=author or org.peer,
        recipient=org.rep,
        stream=stream,
        observation="You asked two open questions before the demo",
    )


def soon(days=7):
    return (timezone.localdate() + timedelta(days=days)).isoformat()


# --- Linking an item to a goal ------------------------------------------------------------


@pytest.mark.django_db
def test_the_recipient_links_an_item_to_a_goal_and_filters_by_it(client, org, goal):
    linked, other = received(org), received(org)
    client.force_login(org.rep)
    page = client.get(f"/feedback/{linked.pk}/").content.decode()
    assert "Link to one of my goals" in page and f'value="{goal.pk}"' in page
    response = client.post(
        f"/feedback/{linked.pk}/acknowledge/", {"reflection": "", "themes": "", "goal": goal.pk}
    )
    assert response.status_code == 302
    linked.refresh_from_db()
    assert linked.goal == goal and linked.acknowledged_at is not None
    assert "Linked to your goal" in client.get(f"/feedback/{linked.pk}/").content.decode()
    page = client.get("/feedback/", {"goal": goal.pk}).content.decode()
    assert f"/feedback/{linked.pk}/" in page and f"/feedback/{other.pk}/" not in page
    assert "Linked to your goals" in page  # the count per goal beside the list


@pytest.mark.django_db
def test_an_unknown_or_someone_elses_goal_in_the_filter_is_a_400(client, org):
    theirs = goal_create(owner=org.peer, actor=org.peer, title="Pause after the price")
    client.force_login(org.rep)
    for value in (theirs.pk, "999999", "abc"):
        response = client.get("/feedback/", {"goal": value})
        assert response.status_code == 400
        assert "No such goal among yours" in response.content.decode()
        assert "Pause after the price" not in response.content.decode()


@pytest.mark.django_db
def test_someone_elses_goal_is_refused_and_nothing_changes(client, org):
    item = received(org)
    theirs = goal_create(owner=org.peer, actor=org.peer, title="Pause after the price")
    client.force_login(org.rep)
    response = client.post(f"/feedback/{item.pk}/acknowledge/", {"goal": theirs.pk})
    assert response.status_code == 400
    assert "Pick one of your goals from the list." in response.content.decode()
    item.refresh_from_db()
    assert item.goal is None and item.acknowledged_at is None


@pytest.mark.django_db
def test_the_api_links_unlinks_and_keeps_the_link(client, org, goal):
    item = received(org)
    client.force_login(org.rep)
    url = f"/api/v1/feedback/{item.pk}/acknowledge/"
    linked = client.post(url, {"goal": goal.pk}, content_type="application/json").json()
    assert linked["goal"] == {"id": goal.pk, "title": "Ask before telling"}
    kept = client.post(url, {"reflection": "Noted"}, content_type="application/json").json()
    assert kept["goal"]["id"] == goal.pk
    cleared = client.post(url, {"goal": None}, content_type="application/json").json()
    assert cleared["goal"] is None
    theirs = goal_create(owner=org.peer, actor=org.peer, title="Pause")
    refused = client.post(url, {"goal": theirs.pk}, content_type="application/json")
    assert refused.status_code == 400 and refused.json() == {
        "goal": ["Pick one of your own goals."]
    }
    assert Feedback.objects.get().goal is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("stream", "reader"),
    [(Stream.DEVELOPMENTAL, "peer"), (Stream.EVALUATIVE, "peer"), (Stream.EVALUATIVE, "manager")],
)
def test_the_link_reaches_no_one_but_the_recipient(client, org, goal, stream, reader):
    """The author, and for evaluative items the chain, read the item, not its link."""
    item = received(org, stream=stream)
    feedback_acknowledge(feedback=item, actor=org.rep, goal=goal)
    client.force_login(getattr(org, reader))
    assert client.get(f"/api/v1/feedback/{item.pk}/").json()["goal"] is None
    page = client.get(f"/feedback/{item.pk}/").content.decode()
    assert "You asked two open questions" in page and "Ask before telling" not in page


# --- Requests about a goal or a focus area ------------------------------------------------


@pytest.mark.django_db
def test_a_request_names_a_goal_and_a_focus_area_the_people_asked_see(client, org, goal):
    focus = FocusAreaFactory(name="Discovery")
    client.force_login(org.rep)
    form = client.get("/feedback/requests/new/").content.decode()
    assert "For my goal (optional)" in form and "Ask before telling" in form
    response = client.post(
        "/feedback/requests/new/",
        {
            "responders": [org.peer.pk],
            "question": "What could I do differently?",
            "stream": "developmental",
            "goal": goal.pk,
            "focus_area": focus.pk,
            "due_on": soon(),
        },
    )
    assert response.status_code == 302
    asked = FeedbackRequest.objects.get()
    assert (asked.goal, asked.focus_area) == (goal, focus)
    client.force_login(org.peer)
    for path in (f"/feedback/requests/{asked.pk}/", "/feedback/inbox/"):
        page = client.get(path).content.decode()
        assert "goal “Ask before telling”" in page and "focus area Discovery" in page, path
    api = client.get(f"/api/v1/feedback-requests/{asked.pk}/").json()
    assert api["goal"] == {"id": goal.pk, "title": "Ask before telling"}
    assert api["focus_area"] == {"id": focus.pk, "name": "Discovery"}
    inbox = client.get("/api/v1/feedback-inbox/").json()["results"]
    assert inbox[0]["request"]["goal"]["title"] == "Ask before telling"


@pytest.mark.django_db
def test_the_email_to_the_people_asked_names_the_goal(org, goal):
    feedback_request_create(
        requester=org.rep,
        responders=[org.peer],
        due_on=timezone.localdate() + timedelta(days=3),
        goal=goal,
    )
    outbox.drain()
    assert "feedback on goal “Ask before telling”, by" in mail.outbox[0].body


@pytest.mark.django_db
def test_a_request_for_someone_elses_goal_or_an_ended_focus_area_is_refused(client, org):
    theirs = goal_create(owner=org.peer, actor=org.peer, title="Pause")
    today = timezone.localdate()
    ended = FocusAreaFactory(
        starts_on=today - timedelta(days=60), ends_on=today - timedelta(days=1)
    )
    client.force_login(org.rep)
    base = {"responders": [org.manager.pk], "due_on": soon()}
    for extra, field in (({"goal": theirs.pk}, "goal"), ({"focus_area": ended.pk}, "focus_area")):
        response = client.post(
            "/api/v1/feedback-requests/", {**base, **extra}, content_type="application/json"
        )
        assert response.status_code == 400 and field in response.json(), response.json()
        page = client.post("/feedback/requests/new/", {**base, "stream": "developmental", **extra})
        assert page.status_code == 400
    assert not FeedbackRequest.objects.exists()
