"""Every feedback page as every role: who gets in, who gets 404, and where the words
of a developmental item may appear (recipient, author, people it is shared with —
never the recipient's managers, HR or anyone else)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from feedback.models import Feedback, FeedbackShare, Stream
from feedback.services import (
    feedback_acknowledge,
    feedback_give,
    feedback_request_answer,
    feedback_request_create,
    feedback_share,
)
from people.models import AuditEvent

DEV = "DEV-MARKER you let the buyer finish before the demo"
EVAL = "EVAL-MARKER quarter review: 11 of 12 calls followed the structure"
REFLECTION = "REFLECTION-MARKER I rush when the price comes up"
ANSWER = "ANSWER-MARKER you asked three open questions first"

# recipient, author, recipient's manager, skip-level, peer, HR, programme admin
PEOPLE = ["rep", "other_manager", "manager", "head", "peer", "hr", "admin"]
SEES_DEV = {"rep", "other_manager"}
SEES_EVAL = {"rep", "other_manager", "manager", "head", "hr"}


@pytest.fixture
def items(org):
    dev = feedback_give(
        author=org.other_manager, recipient=org.rep, stream=Stream.DEVELOPMENTAL, observation=DEV
    )
    ev = feedback_give(
        author=org.other_manager, recipient=org.rep, stream=Stream.EVALUATIVE, observation=EVAL
    )
    feedback_acknowledge(feedback=dev, actor=org.rep, reflection=REFLECTION, themes=["pricing"])
    return dev, ev


@pytest.fixture
def asked(org):
    """The rep asked the peer and the author; the peer answered."""
    request = feedback_request_create(
        requester=org.rep,
        responders=[org.peer, org.other_manager],
        due_on=timezone.localdate() + timedelta(days=7),
    )
    feedback_request_answer(request=request, responder=org.peer, observation=ANSWER)
    return request


def list_pages():
    return [
        "/feedback/",
        "/feedback/?stream=evaluative",
        "/feedback/give/",
        "/feedback/given/",
        "/feedback/given/?stream=evaluative",
        "/feedback/shared/",
        "/feedback/inbox/",
        "/feedback/requests/",
        "/feedback/requests/new/",
        "/feedback/wins/",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_everyone_has_their_own_list_pages_and_sees_only_what_is_theirs(client, org, items, who):
    client.force_login(getattr(org, who))
    for path in list_pages():
        response = client.get(path)
        assert response.status_code == 200, path
        page = response.content.decode()
        assert 'class="stream-banner' in page, path
        # One stream a tab: the developmental one unless the path names the other.
        evaluative_tab = "evaluative" in path
        assert (DEV in page) == (
            (who == "rep" and path == "/feedback/")
            or (who == "other_manager" and "given" in path and not evaluative_tab)
        ), (who, path)
        assert (EVAL in page) == (
            (who == "rep" and path == "/feedback/?stream=evaluative")
            or (who == "other_manager" and "given" in path and evaluative_tab)
        ), (who, path)
        assert REFLECTION not in page


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_a_developmental_item_opens_for_recipient_and_author_only(client, org, items, who):
    dev, _ = items
    client.force_login(getattr(org, who))
    response = client.get(f"/feedback/{dev.pk}/")
    assert response.status_code == (200 if who in SEES_DEV else 404)
    page = response.content.decode()
    assert (DEV in page) == (who in SEES_DEV)
    assert (REFLECTION in page) == (who == "rep")  # only the recipient sees the reflection
    if who in SEES_DEV:
        assert "Developmental feedback — for growth." in page


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_an_evaluative_item_opens_for_the_chain_and_hr_and_reads_are_logged(
    client, org, items, who
):
    _, ev = items
    client.force_login(getattr(org, who))
    response = client.get(f"/feedback/{ev.pk}/")
    assert response.status_code == (200 if who in SEES_EVAL else 404)
    if who in SEES_EVAL:
        assert "Evaluative feedback — part of performance review." in response.content.decode()
    logged = AuditEvent.objects.filter(verb="feedback.evaluative_read", actor=getattr(org, who))
    assert logged.exists() == (who in {"manager", "head", "hr"})


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_a_request_opens_for_the_requester_and_the_people_asked(client, org, asked, who):
    client.force_login(getattr(org, who))
    response = client.get(f"/feedback/requests/{asked.pk}/")
    expected = 200 if who in {"rep", "peer", "other_manager"} else 404
    assert response.status_code == expected
    page = response.content.decode()
    assert (ANSWER in page) == (who == "rep")  # the author reads it from "given", not here


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_manager", "manager", "head", "peer", "hr", "admin"])
def test_only_the_recipient_can_acknowledge_or_share_and_others_get_404(client, org, items, who):
    dev, ev = items
    client.force_login(getattr(org, who))
    for item in (dev, ev):
        posts = {
            f"/feedback/{item.pk}/acknowledge/": {"reflection": "mine now", "themes": "x"},
            f"/feedback/{item.pk}/share/": {"person": org.peer.pk},
            f"/feedback/{item.pk}/unshare/": {"person": org.peer.pk},
        }
        for path, data in posts.items():
            assert client.post(path, data).status_code == 404, path
    dev.refresh_from_db()
    assert dev.reflection == REFLECTION
    assert not FeedbackShare.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "manager", "head", "hr", "admin"])
def test_people_not_asked_cannot_answer_or_decline(client, org, asked, who):
    client.force_login(getattr(org, who))
    before = Feedback.objects.count()
    assert (
        client.post(f"/feedback/requests/{asked.pk}/answer/", {"observation": "x"}).status_code
        == 404
    )
    assert client.post(f"/feedback/requests/{asked.pk}/decline/").status_code == 404
    assert Feedback.objects.count() == before
    assert asked.responders.filter(status="waiting").count() == 1


@pytest.mark.django_db
def test_signed_out_visitors_are_sent_to_sign_in_from_every_feedback_page(client, org, items):
    dev, ev = items
    for path in [*list_pages(), f"/feedback/{dev.pk}/", f"/feedback/{ev.pk}/"]:
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/accounts/login/"), path
    response = client.post(f"/feedback/{dev.pk}/acknowledge/", {"reflection": "x"})
    assert response.status_code == 302
    dev.refresh_from_db()
    assert dev.reflection == REFLECTION


@pytest.mark.django_db
def test_hr_walks_every_feedback_page_and_never_meets_developmental_words(
    client, org, items, asked
):
    dev, ev = items
    # Shared with the manager, answered in a request: every road the words can travel.
    feedback_share(feedback=dev, actor=org.rep, person=org.manager)
    answer = Feedback.objects.get(observation=ANSWER)
    client.force_login(org.hr)
    paths = [
        "/",
        "/me/",
        "/hr/",
        *list_pages(),
        f"/feedback/{dev.pk}/",
        f"/feedback/{answer.pk}/",
        f"/feedback/{ev.pk}/",
        f"/feedback/requests/{asked.pk}/",
    ]
    for path in paths:
        response = client.get(path, follow=True)
        page = response.content.decode()
        for words in (DEV, ANSWER, REFLECTION):
            assert words not in page, (path, words)
    assert client.get(f"/feedback/{dev.pk}/").status_code == 404
    assert client.get(f"/feedback/{answer.pk}/").status_code == 404
    assert EVAL in client.get(f"/feedback/{ev.pk}/").content.decode()  # HR's own stream
