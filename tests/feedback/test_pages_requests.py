"""Asking for feedback through the pages: the request, the inbox of the people asked,
answering and declining, the requester's view with a status per person, and the
anonymity hold."""

from datetime import timedelta

import pytest
from django.utils import timezone

from feedback.models import DEFAULT_QUESTION, Feedback, FeedbackRequest, RequestedResponder
from feedback.services import feedback_request_answer, feedback_request_create
from tests.support.factories import UserFactory


def soon(days=7):
    return (timezone.localdate() + timedelta(days=days)).isoformat()


@pytest.mark.django_db
def test_the_form_has_the_default_question_the_rule_and_the_labels(client, org):
    client.force_login(org.rep)
    page = client.get("/feedback/requests/new/").content.decode()
    for label in ("Ask", "Question", "Stream", "Anything specific (optional)", "By", "Anonymous"):
        assert f">{label}</" in page, label
    assert DEFAULT_QUESTION.replace("'", "&#x27;") in page
    assert (
        "Only for upward feedback from at least 3 of your direct reports; answers appear "
        "together once the request closes (at the end of its due date, or when everyone asked "
        "has answered or declined) with at least 3 answers, so no one can be identified."
    ) in page
    assert 'value="developmental" hx-get' in page and "checked" in page
    assert "Developmental feedback — for growth." in page
    week = timezone.localdate(timezone=org.rep.tzinfo) + timedelta(days=7)
    assert f'type="date" name="due_on" value="{week.isoformat()}"' in page  # ISO for the picker


@pytest.mark.django_db
def test_ask_answer_and_decline_end_to_end(client, org):
    client.force_login(org.rep)
    response = client.post(
        "/feedback/requests/new/",
        {
            "responders": [org.peer.pk, org.manager.pk],
            "question": DEFAULT_QUESTION,
            "stream": "developmental",
            "topic": "Discovery calls",
            "due_on": soon(),
        },
    )
    asked = FeedbackRequest.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/feedback/requests/{asked.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "Pavel Peer" in page and "Mia Manager" in page and "Waiting" in page

    client.force_login(org.peer)
    inbox = client.get("/feedback/inbox/").content.decode()
    assert f'<a href="/feedback/requests/{asked.pk}/">Rita Rep</a>' in inbox
    page = client.get(f"/feedback/requests/{asked.pk}/").content.decode()
    assert "Send answer" in page and ">Decline</button>" in page
    response = client.post(
        f"/feedback/requests/{asked.pk}/answer/",
        {"observation": "You asked three open questions first", "impact": "They opened up"},
    )
    assert response.status_code == 302 and response["Location"] == "/feedback/inbox/"
    inbox = client.get("/feedback/inbox/").content.decode()
    assert "your answer reached Rita Rep" in inbox
    assert f'href="/feedback/requests/{asked.pk}/"' not in inbox
    page = client.get(f"/feedback/requests/{asked.pk}/").content.decode()
    assert "You answered on" in page and "Send answer" not in page

    client.force_login(org.manager)
    response = client.post(f"/feedback/requests/{asked.pk}/decline/")
    assert response.status_code == 302

    client.force_login(org.rep)
    page = client.get(f"/feedback/requests/{asked.pk}/").content.decode()
    assert "You asked three open questions first" in page
    assert "Answered" in page and "Declined" in page
    requests_page = client.get("/feedback/requests/").content.decode()
    assert "1 answered, 1 declined, 0 waiting" in requests_page
    answer = Feedback.objects.get()
    assert (answer.author, answer.recipient, answer.request) == (org.peer, org.rep, asked)


@pytest.mark.django_db
def test_answering_twice_is_refused_with_a_message(client, org):
    asked = feedback_request_create(
        requester=org.rep, responders=[org.peer], due_on=timezone.localdate() + timedelta(days=2)
    )
    feedback_request_answer(request=asked, responder=org.peer, observation="Once")
    client.force_login(org.peer)
    response = client.post(f"/feedback/requests/{asked.pk}/answer/", {"observation": "Twice"})
    assert response.status_code == 400
    assert "already answered" in response.content.decode()
    response = client.post(f"/feedback/requests/{asked.pk}/decline/")
    assert response.status_code == 400
    assert Feedback.objects.count() == 1


@pytest.mark.django_db
def test_anonymous_answers_wait_for_three_and_never_show_who(client, org):
    third = UserFactory(display_name="Tara Third", manager=org.manager)
    client.force_login(org.manager)
    response = client.post(
        "/feedback/requests/new/",
        {
            "responders": [org.rep.pk, org.peer.pk, third.pk],
            "question": "What should I stop doing in our 1:1s?",
            "stream": "developmental",
            "due_on": soon(),
            "anonymous": "on",
        },
    )
    assert response.status_code == 302
    asked = FeedbackRequest.objects.get()
    assert asked.anonymous
    for person, words in [(org.rep, "ANON-ONE"), (org.peer, "ANON-TWO")]:
        client.force_login(person)
        page = client.get(f"/feedback/requests/{asked.pk}/").content.decode()
        assert "Your answer is anonymous" in page
        client.post(f"/feedback/requests/{asked.pk}/answer/", {"observation": words})

    client.force_login(org.manager)
    page = client.get(f"/feedback/requests/{asked.pk}/").content.decode()
    assert "ANON-ONE" not in page
    assert "Answers appear together once the request closes on" in page
    assert "with at least 3 answers" in page and "fewer than 3 have answered so far" in page
    assert "Answered" not in page  # no status per person on an anonymous request
    assert "ANON-ONE" not in client.get("/feedback/").content.decode()
    held = Feedback.objects.get(observation="ANON-ONE")
    assert client.get(f"/feedback/{held.ref}/").status_code == 404

    # The last one asked answers: the request is over, and all come out together.
    client.force_login(third)
    client.post(f"/feedback/requests/{asked.pk}/answer/", {"observation": "ANON-THREE"})
    client.force_login(org.manager)
    page = client.get(f"/feedback/requests/{asked.pk}/").content.decode()
    assert "ANON-ONE" in page and "ANON-THREE" in page
    answers = page.split('id="answers-heading"')[1]
    assert "From Anonymous" in answers
    assert not {"Rita Rep", "Pavel Peer", "Tara Third"} & {
        name for name in ("Rita Rep", "Pavel Peer", "Tara Third") if name in answers
    }
    mine = client.get("/feedback/").content.decode()
    assert "ANON-TWO" in mine and "From Anonymous" in mine
    detail = client.get(f"/feedback/{held.ref}/").content.decode()
    assert "From Anonymous" in detail and "Rita Rep" not in detail


@pytest.mark.django_db
def test_anonymous_items_cannot_be_shared_with_anyone_who_was_asked(client, org):
    third = UserFactory(display_name="Tara Third", manager=org.manager)
    asked = feedback_request_create(
        requester=org.manager,
        responders=[org.rep, org.peer, third],
        due_on=timezone.localdate() + timedelta(days=3),
        anonymous=True,
    )
    for person in (org.rep, org.peer, third):
        feedback_request_answer(request=asked, responder=person, observation="Go last")
    item = Feedback.objects.filter(author=org.rep).get()
    client.force_login(org.manager)
    share_form = client.get(f"/feedback/{item.ref}/").content.decode().split('id="sharing"')[1]
    for name in ("Rita Rep", "Pavel Peer", "Tara Third"):
        assert name not in share_form  # leaving out only the author would name them
    assert "Hana Head" in share_form
    response = client.post(f"/feedback/{item.ref}/share/", {"person": org.rep.pk})
    assert response.status_code == 400


@pytest.mark.django_db
def test_the_inbox_lists_only_what_waits_on_me_soonest_first(client, org):
    later = feedback_request_create(
        requester=org.peer, responders=[org.rep], due_on=timezone.localdate() + timedelta(days=9)
    )
    sooner = feedback_request_create(
        requester=org.manager,
        responders=[org.rep],
        due_on=timezone.localdate() + timedelta(days=2),
        stream="evaluative",
    )
    done = feedback_request_create(
        requester=org.head, responders=[org.rep], due_on=timezone.localdate() + timedelta(days=1)
    )
    feedback_request_answer(request=done, responder=org.rep, observation="Done")
    client.force_login(org.rep)
    response = client.get("/feedback/inbox/")
    sections = {s["stream"]: [r.request for r in s["rows"]] for s in response.context["sections"]}
    assert sections == {"developmental": [later], "evaluative": [sooner]}
    assert RequestedResponder.objects.filter(responder=org.rep, status="waiting").count() == 2
