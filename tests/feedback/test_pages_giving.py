"""Giving feedback through the pages: the form says which stream it is in, the
literacy check advises while typing, and the item lands in both people's lists."""

import pytest

from feedback.models import Feedback, Stream
from feedback.services import feedback_give
from tests.support.factories import InterpretiveTermFactory

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.django_db
def test_it_sends_feedback_and_shows_it_under_given(client, org):
    client.force_login(org.peer)
    response = client.post(
        "/feedback/give/",
        {
            "recipient": org.rep.pk,
            "stream": "developmental",
            "observation": "You paused five seconds after stating the price",
            "impact": "The buyer filled the silence with their budget",
            "suggestion": "Keep the pause on the next pricing call",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/feedback/given/?stream=developmental"
    item = Feedback.objects.get()
    assert (item.author, item.recipient, item.stream, item.direction) == (
        org.peer,
        org.rep,
        Stream.DEVELOPMENTAL,
        "peer",
    )
    page = client.get(response["Location"]).content.decode()
    assert "You paused five seconds" in page and "Rita Rep" in page
    client.force_login(org.rep)
    page = client.get("/feedback/").content.decode()
    assert "You paused five seconds" in page and "Pavel Peer" in page
    assert "Not acknowledged yet" in page


@pytest.mark.django_db
def test_the_form_offers_active_people_other_than_me_and_both_streams(client, org):
    org.other_rep.is_active = False
    org.other_rep.save(update_fields=["is_active"])
    client.force_login(org.rep)
    page = client.get("/feedback/give/").content.decode()
    assert "Pavel Peer" in page and "Mia Manager" in page
    assert "Olga Outsider" not in page
    assert f'value="{org.rep.pk}">Rita Rep' not in page
    for label in ("To", "Stream", "What happened", "What it led to", "One thing to try"):
        assert f">{label}</" in page, label
    for choice in Stream.labels:
        assert choice in page
    assert "Send feedback" in page


@pytest.mark.django_db
def test_the_banner_follows_the_chosen_stream(client, org):
    client.force_login(org.rep)
    page = client.get("/feedback/give/").content.decode()
    assert "Developmental feedback — for growth." in page
    page = client.get("/feedback/give/?stream=evaluative").content.decode()
    assert "Evaluative feedback — part of performance review." in page
    # Choosing a stream swaps just the banner (htmx GET of the same page).
    fragment = client.get(
        "/feedback/give/?stream=evaluative", HTTP_HX_TARGET="stream-banner", **HTMX
    ).content.decode()
    assert fragment.startswith('<div class="stream-banner stream-evaluative" id="stream-banner"')
    assert "<form" not in fragment
    fragment = client.get(
        "/feedback/requests/new/?stream=developmental", HTTP_HX_TARGET="stream-banner", **HTMX
    ).content.decode()
    assert "Developmental feedback — for growth. " not in fragment  # wrapped in <strong>
    assert "Developmental feedback — for growth.</strong> Never seen by evaluators or HR." in (
        fragment
    )


@pytest.mark.django_db
def test_a_refused_form_keeps_the_chosen_stream_in_the_banner(client, org):
    client.force_login(org.rep)
    response = client.post("/feedback/give/", {"recipient": org.peer.pk, "stream": "evaluative"})
    assert response.status_code == 400
    assert "Evaluative feedback — part of performance review." in response.content.decode()


@pytest.mark.django_db
def test_the_literacy_check_advises_but_never_blocks(client, org):
    InterpretiveTermFactory(phrase="zoned out", hint="Say what you saw instead.")
    client.force_login(org.rep)
    page = client.get("/feedback/give/").content.decode()
    assert 'hx-post="/feedback/check/"' in page
    assert 'hx-trigger="keyup changed delay:600ms"' in page
    assert 'hx-target="#literacy-hints"' in page and 'id="literacy-hints"' in page
    fragment = client.post(
        "/feedback/check/", {"observation": "You zoned out on the call"}, **HTMX
    ).content.decode()
    assert "zoned out" in fragment and "Say what you saw instead." in fragment
    assert "Advice only" in fragment
    clean = client.post(
        "/feedback/check/", {"observation": "You spoke for 40 of 45 minutes"}, **HTMX
    ).content.decode()
    assert "zoned out" not in clean and "No interpretive words" in clean
    response = client.post(
        "/feedback/give/",
        {"recipient": org.peer.pk, "stream": "developmental", "observation": "You zoned out"},
    )
    assert response.status_code == 302
    assert Feedback.objects.filter(observation="You zoned out").exists()


@pytest.mark.django_db
def test_the_check_answers_only_posts(client, org):
    client.force_login(org.rep)
    assert client.get("/feedback/check/").status_code == 405


@pytest.mark.django_db
def test_evaluative_feedback_is_listed_under_its_own_stream(client, org):
    client.force_login(org.manager)
    client.post(
        "/feedback/give/",
        {"recipient": org.rep.pk, "stream": "evaluative", "observation": "Met the Q3 targets"},
    )
    client.force_login(org.rep)
    assert "Met the Q3 targets" not in client.get("/feedback/").content.decode()
    page = client.get("/feedback/?stream=evaluative").content.decode()
    assert "Met the Q3 targets" in page
    assert "Evaluative feedback — part of performance review." in page


@pytest.mark.django_db
def test_what_i_gave_comes_one_stream_and_a_page_at_a_time(client, org):
    for n in range(52):
        feedback_give(
            author=org.peer,
            recipient=org.rep,
            stream=Stream.DEVELOPMENTAL,
            observation=f"Given {n:02}: you let the buyer finish",
        )
    feedback_give(
        author=org.peer, recipient=org.manager, stream=Stream.EVALUATIVE, observation="EVAL-ONE"
    )
    client.force_login(org.peer)
    page = client.get("/feedback/given/").content.decode()
    assert "Given 51" in page and "Given 02" in page and "Given 01" not in page
    assert "EVAL-ONE" not in page and "Page 1 of 2" in page
    assert '<span class="count">52</span>' in page
    second = client.get("/feedback/given/", {"page": 2}).content.decode()
    assert "Given 01" in second and "Given 00" in second and "Given 02" not in second
    evaluative = client.get("/feedback/given/", {"stream": "evaluative"}).content.decode()
    assert "EVAL-ONE" in evaluative and "Given 51" not in evaluative
    bad = client.get("/feedback/given/", {"page": "0"})
    assert bad.status_code == 400 and "Give a page number" in bad.content.decode()
