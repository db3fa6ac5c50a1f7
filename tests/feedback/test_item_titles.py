"""Each feedback item's page has a title of its own — its stream, who wrote it to whom
and the day — so tabs, browser history and a screen reader's list of pages tell items
apart; and never the feedback's words (history keeps titles), nor a name the page
itself does not show (an anonymous author stays Anonymous)."""

import re
from datetime import datetime
from html import unescape
from zoneinfo import ZoneInfo

import pytest

from feedback.models import Feedback
from feedback.services import feedback_acknowledge
from tests.support.factories import FeedbackFactory, FeedbackShareFactory

WORDS = ["TITLE-OBSERVATION", "TITLE-IMPACT", "TITLE-SUGGESTION", "TITLE-REFLECTION"]


def _item(author, recipient, *, stream="developmental", day=(2026, 3, 3), **extra):
    item = FeedbackFactory(
        author=author,
        recipient=recipient,
        stream=stream,
        observation="TITLE-OBSERVATION you paused after the price",
        impact="TITLE-IMPACT the buyer named a budget",
        suggestion="TITLE-SUGGESTION try it on the renewal call",
        **extra,
    )
    # Noon UTC: the same day in Berlin, where the factories' people live.
    created = datetime(*day, 12, tzinfo=ZoneInfo("UTC"))
    Feedback.objects.filter(pk=item.pk).update(created_at=created)
    return item


def _title_and_heading(client, item) -> tuple[str, str]:
    response = client.get(f"/feedback/{item.ref}/")
    assert response.status_code == 200
    page = response.content.decode()
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    heading = re.search(r"<h1>(.*?)</h1>", page, re.S).group(1)
    return " ".join(unescape(title).split()), " ".join(unescape(heading).split())


@pytest.mark.django_db
def test_each_item_is_titled_by_stream_who_to_whom_and_day(client, org):
    from_peer = _item(org.peer, org.rep)
    from_manager = _item(org.manager, org.rep, stream="evaluative", day=(2026, 3, 10))
    feedback_acknowledge(feedback=from_peer, actor=org.rep, reflection="TITLE-REFLECTION mine")

    client.force_login(org.rep)
    peer_title, peer_heading = _title_and_heading(client, from_peer)
    manager_title, manager_heading = _title_and_heading(client, from_manager)
    assert peer_title == "Developmental feedback from Pavel Peer to you, 3 Mar 2026 · Tandem"
    assert manager_title == "Evaluative feedback from Mia Manager to you, 10 Mar 2026 · Tandem"
    assert peer_heading == "Feedback for you from Pavel Peer"
    assert manager_heading == "Feedback for you from Mia Manager"

    # The author, and a manager reading the evaluative item, see it from their side.
    client.force_login(org.peer)
    assert _title_and_heading(client, from_peer) == (
        "Developmental feedback from you to Rita Rep, 3 Mar 2026 · Tandem",
        "Feedback for Rita Rep from you",
    )
    client.force_login(org.head)
    assert _title_and_heading(client, from_manager)[0] == (
        "Evaluative feedback from Mia Manager to Rita Rep, 10 Mar 2026 · Tandem"
    )
    # Someone the recipient shared an item with.
    FeedbackShareFactory(feedback=from_peer, person=org.manager)
    client.force_login(org.manager)
    assert _title_and_heading(client, from_peer)[0] == (
        "Developmental feedback from Pavel Peer to Rita Rep, 3 Mar 2026 · Tandem"
    )


@pytest.mark.django_db
def test_no_title_or_heading_holds_the_feedbacks_words(client, org):
    item = _item(org.peer, org.rep)
    feedback_acknowledge(feedback=item, actor=org.rep, reflection="TITLE-REFLECTION mine")
    for who in (org.rep, org.peer):
        client.force_login(who)
        title, heading = _title_and_heading(client, item)
        assert not any(words in title or words in heading for words in WORDS)


@pytest.mark.django_db
def test_an_anonymous_author_stays_anonymous_in_the_title(client, org):
    item = _item(org.rep, org.manager, anonymous=True, direction="upward", day=(2026, 4, 1))
    client.force_login(org.manager)
    title, heading = _title_and_heading(client, item)
    assert "Rita" not in title and "Rita" not in heading
    assert title == "Developmental feedback from Anonymous to you, 1 Apr 2026 · Tandem"
    assert heading == "Feedback for you from Anonymous"
    client.force_login(org.rep)  # its author knows who wrote it
    assert _title_and_heading(client, item)[0] == (
        "Developmental feedback from you to Mia Manager, 1 Apr 2026 · Tandem"
    )
