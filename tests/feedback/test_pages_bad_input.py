"""Bad input gets a 400 with a message a person can act on, and nothing is saved."""

from datetime import timedelta

import pytest
from django.utils import timezone

from feedback.models import Feedback, FeedbackRequest, FeedbackShare, RequestedResponder, Stream
from feedback.services import feedback_give, feedback_request_create


def day(offset):
    return (timezone.localdate() + timedelta(days=offset)).isoformat()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"observation": "   "}, "Say what happened"),
        ({"observation": ""}, "Say what happened"),
        ({"recipient": 999_999}, "Choose someone from the list."),
        ({"recipient": "not-a-number"}, "Choose someone from the list."),
        ({"recipient": "self"}, "Choose someone from the list."),
        ({"stream": "both"}, "Select a valid choice"),
        ({"observation": "x" * 5_001}, "at most 5000 characters"),
    ],
)
def test_giving_bad_feedback_is_refused(client, org, change, message):
    data = {"recipient": org.peer.pk, "stream": "developmental", "observation": "Saw it"}
    data.update(change)
    if data["recipient"] == "self":
        data["recipient"] = org.rep.pk
    client.force_login(org.rep)
    response = client.post("/feedback/give/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Feedback.objects.exists()


@pytest.mark.django_db
def test_giving_to_someone_who_left_is_refused(client, org):
    org.other_rep.is_active = False
    org.other_rep.save(update_fields=["is_active"])
    client.force_login(org.rep)
    response = client.post(
        "/feedback/give/",
        {"recipient": org.other_rep.pk, "stream": "developmental", "observation": "Saw it"},
    )
    assert response.status_code == 400
    assert not Feedback.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"responders": []}, "Ask at least one person."),
        ({"responders": "self"}, "Ask someone other than yourself."),
        ({"responders": "self-and-peer"}, "Ask someone other than yourself."),
        ({"responders": "twice"}, "Each person can be asked once."),
        ({"responders": [999_999]}, "Pick people from the list."),
        ({"due_on": day(-1)}, "The due date is in the past."),
        ({"due_on": day(400)}, "within six months"),
        ({"due_on": "someday"}, "Enter a valid date."),
        ({"due_on": ""}, "This field is required."),
        ({"stream": "both"}, "Select a valid choice"),
        ({"anonymous": "on"}, "at least 3 of your direct reports"),
        ({"question": "q" * 501}, "at most 500 characters"),
    ],
)
def test_asking_badly_is_refused(client, org, change, message):
    data = {
        "responders": [org.peer.pk],
        "question": "What should I change?",
        "stream": "developmental",
        "due_on": day(7),
    }
    data.update(change)
    if data["responders"] == "self":
        data["responders"] = [org.rep.pk]
    elif data["responders"] == "self-and-peer":
        data["responders"] = [org.peer.pk, org.rep.pk]
    elif data["responders"] == "twice":
        data["responders"] = [org.peer.pk, org.peer.pk]
    client.force_login(org.rep)
    response = client.post("/feedback/requests/new/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not FeedbackRequest.objects.exists()
    assert not RequestedResponder.objects.exists()


@pytest.mark.django_db
def test_an_empty_answer_is_refused_and_the_request_still_waits(client, org):
    asked = feedback_request_create(
        requester=org.rep, responders=[org.peer], due_on=timezone.localdate() + timedelta(days=3)
    )
    client.force_login(org.peer)
    response = client.post(f"/feedback/requests/{asked.pk}/answer/", {"observation": "  "})
    assert response.status_code == 400
    assert "Say what happened" in response.content.decode()
    assert "Send answer" in response.content.decode()  # the form is still there
    assert not Feedback.objects.exists()
    assert asked.responders.get().status == "waiting"


@pytest.mark.django_db
def test_bad_shares_and_acknowledgements_are_refused(client, org):
    dev = feedback_give(
        author=org.peer, recipient=org.rep, stream=Stream.DEVELOPMENTAL, observation="Saw it"
    )
    client.force_login(org.rep)
    hx = {"HTTP_HX_REQUEST": "true"}
    for data in ({}, {"person": 999_999}, {"person": org.peer.pk}, {"person": org.rep.pk}):
        response = client.post(f"/feedback/{dev.pk}/share/", data, **hx)
        assert response.status_code == 400, data
        assert 'id="sharing"' in response.content.decode()
    assert client.post(f"/feedback/{dev.pk}/unshare/", {"person": "x"}).status_code == 400
    assert not FeedbackShare.objects.exists()
    response = client.post(
        f"/feedback/{dev.pk}/acknowledge/", {"reflection": "r" * 5_001, "themes": "a"}
    )
    assert response.status_code == 400
    response = client.post(
        f"/feedback/{dev.pk}/acknowledge/", {"reflection": "ok", "themes": "t" * 61}
    )
    assert response.status_code == 400
    assert "under 60 characters" in response.content.decode()
    dev.refresh_from_db()
    assert dev.acknowledged_at is None and dev.reflection == "" and not dev.themes.exists()
