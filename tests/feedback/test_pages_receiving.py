"""The recipient's side through the pages: "Thank you, I'll think about it" with a
private reflection and themes, patterns over time, and sharing one developmental item
with a named person — and taking it back."""

from datetime import timedelta

import pytest
from django.utils import timezone

from feedback.models import Feedback, FeedbackShare, Stream
from feedback.services import feedback_acknowledge, feedback_give

HTMX = {"HTTP_HX_REQUEST": "true"}
WORDS = "SHARED-MARKER you summarised the goal of the customer before proposing"


@pytest.fixture
def dev(org):
    return feedback_give(
        author=org.peer, recipient=org.rep, stream=Stream.DEVELOPMENTAL, observation=WORDS
    )


@pytest.mark.django_db
def test_it_acknowledges_in_place_with_a_private_reflection_and_themes(client, org, dev):
    client.force_login(org.rep)
    response = client.post(
        f"/feedback/{dev.pk}/acknowledge/",
        {"reflection": "I do rush to the demo.", "themes": "discovery, listening, discovery"},
        **HTMX,
    )
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<section class="panel" id="acknowledge"')
    assert "You acknowledged this on" in fragment and "Noted." in fragment
    dev.refresh_from_db()
    assert dev.acknowledged_at is not None and dev.reflection == "I do rush to the demo."
    assert sorted(dev.themes.values_list("name", flat=True)) == ["discovery", "listening"]
    # The author sees that it was received, never the reflection or the themes.
    client.force_login(org.peer)
    page = client.get(f"/feedback/{dev.pk}/").content.decode()
    assert "Acknowledged" in page
    assert "I do rush to the demo." not in page and "listening" not in page


@pytest.mark.django_db
def test_without_js_acknowledging_redirects_back_to_the_item(client, org, dev):
    client.force_login(org.rep)
    response = client.post(f"/feedback/{dev.pk}/acknowledge/", {"reflection": "", "themes": ""})
    assert response.status_code == 302 and response["Location"] == f"/feedback/{dev.pk}/"
    dev.refresh_from_db()
    assert dev.acknowledged_at is not None


@pytest.mark.django_db
def test_my_feedback_shows_author_date_themes_state_and_patterns(client, org, dev):
    older = feedback_give(
        author=org.manager,
        recipient=org.rep,
        stream=Stream.DEVELOPMENTAL,
        observation="You sent the recap within the hour",
    )
    Feedback.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(days=200))
    feedback_acknowledge(feedback=dev, actor=org.rep, themes=["discovery", "pricing"])
    feedback_acknowledge(feedback=older, actor=org.rep, themes=["discovery"])
    client.force_login(org.rep)
    response = client.get("/feedback/")
    page = response.content.decode()
    assert "Pavel Peer" in page and "Mia Manager" in page
    assert "Acknowledged" in page
    assert f'href="/feedback/{dev.pk}/"' in page
    assert "Patterns" in page
    patterns = response.context["patterns"]
    assert patterns == [
        {"theme": "discovery", "recent": 1, "earlier": 1, "total": 2},
        {"theme": "pricing", "recent": 1, "earlier": 0, "total": 1},
    ]


@pytest.mark.django_db
def test_sharing_and_revoking_through_the_page(client, org, dev):
    client.force_login(org.rep)
    page = client.get(f"/feedback/{dev.pk}/").content.decode()
    assert "Share with" in page and ">Share</button>" in page
    response = client.post(f"/feedback/{dev.pk}/share/", {"person": org.manager.pk}, **HTMX)
    assert response.status_code == 200
    assert "Stop sharing with Mia Manager" in response.content.decode()
    assert FeedbackShare.objects.filter(person=org.manager, revoked_at__isnull=True).exists()

    client.force_login(org.manager)
    assert WORDS in client.get("/feedback/shared/").content.decode()
    assert client.get(f"/feedback/{dev.pk}/").status_code == 200
    client.force_login(org.head)  # the chain above is not the person it was shared with
    assert WORDS not in client.get("/feedback/shared/").content.decode()
    assert client.get(f"/feedback/{dev.pk}/").status_code == 404

    client.force_login(org.rep)
    response = client.post(f"/feedback/{dev.pk}/unshare/", {"person": org.manager.pk})
    assert response.status_code == 302  # without JS: back to the item
    page = client.get(response["Location"]).content.decode()
    assert "No longer shared with Mia Manager" in page
    assert "Stop sharing with Mia Manager" not in page
    client.force_login(org.manager)
    assert WORDS not in client.get("/feedback/shared/").content.decode()
    assert client.get(f"/feedback/{dev.pk}/").status_code == 404


@pytest.mark.django_db
def test_evaluative_items_have_no_share_form(client, org):
    ev = feedback_give(
        author=org.manager, recipient=org.rep, stream=Stream.EVALUATIVE, observation="Targets met"
    )
    client.force_login(org.rep)
    page = client.get(f"/feedback/{ev.pk}/").content.decode()
    assert "Share with" not in page
    assert "Thank you, I&#x27;ll think about it" in page or "Thank you, I'll think about it" in page
    assert client.post(f"/feedback/{ev.pk}/share/", {"person": org.peer.pk}).status_code == 404
    assert not FeedbackShare.objects.exists()


@pytest.mark.django_db
def test_the_rep_home_shows_waiting_requests_and_the_latest_three_items(client, org):
    from feedback.services import feedback_request_create

    for i in range(4):
        feedback_give(
            author=org.peer,
            recipient=org.rep,
            stream=Stream.DEVELOPMENTAL,
            observation=f"Item {i} " + "x" * 200,
        )
    feedback_give(
        author=org.manager, recipient=org.rep, stream=Stream.EVALUATIVE, observation="EVAL-HOME"
    )
    feedback_request_create(
        requester=org.peer, responders=[org.rep], due_on=timezone.localdate() + timedelta(days=3)
    )
    client.force_login(org.rep)
    page = client.get("/me/").content.decode()
    assert 'Requests waiting on me <span class="count">1</span>' in page
    assert 'href="/feedback/inbox/"' in page
    assert sum(f"Item {i} " in page for i in range(4)) == 3
    assert "x" * 200 not in page  # truncated
    assert "EVAL-HOME" not in page
    assert 'href="/feedback/"' in page and 'href="/feedback/requests/new/"' in page
    assert "Ask for feedback" in page


@pytest.mark.django_db
def test_what_i_received_comes_a_page_at_a_time_with_patterns_over_everything(client, org):
    """Hundreds of items after two years: 50 a page, newest first; the patterns and
    goal counts still count everything received; a bad page number is a 400 saying
    so, with the first page shown."""
    items = [
        feedback_give(
            author=org.peer,
            recipient=org.rep,
            stream=Stream.DEVELOPMENTAL,
            observation=f"Item {n:02} you paused after the price",
        )
        for n in range(55)
    ]
    for item in items:
        feedback_acknowledge(feedback=item, actor=org.rep, themes=["pricing"])
    client.force_login(org.rep)
    first = client.get("/feedback/")
    page = first.content.decode()
    assert "Item 54" in page and "Item 05" in page and "Item 04" not in page
    assert '<span class="count">55</span>' in page and "Page 1 of 2" in page
    assert first.context["patterns"] == [
        {"theme": "pricing", "recent": 55, "earlier": 0, "total": 55}
    ]
    second = client.get("/feedback/", {"page": 2}).content.decode()
    assert "Item 04" in second and "Item 00" in second and "Item 05" not in second
    bad = client.get("/feedback/", {"page": "x"})
    assert bad.status_code == 400
    assert "Give a page number" in bad.content.decode() and "Item 54" in bad.content.decode()
