"""The themes on "My coaching" come from the developmental feedback the person
received and nothing else: never the evaluative stream (however many items), never
feedback they gave or that someone else received, never anonymous answers still held
back; recent is the last 90 days, as on the feedback page."""

from datetime import timedelta

import pytest
from django.utils import timezone

from dashboards.growth import themes_of
from tests.support.factories import FeedbackFactory, ThemeFactory

pytestmark = pytest.mark.django_db


def tagged(theme, **fields):
    item = FeedbackFactory(**fields)
    item.themes.add(ThemeFactory(name=theme))
    return item


def test_evaluative_feedback_never_shapes_the_themes(client, org):
    for _ in range(3):
        tagged("pricing", recipient=org.rep, author=org.manager, stream="evaluative",
               direction="downward")  # fmt: skip
    tagged("listening", recipient=org.rep, author=org.peer)
    tagged("closing", recipient=org.peer, author=org.rep)  # given, not received
    tagged("negotiation", recipient=org.other_rep, author=org.other_manager)
    assert themes_of(person=org.rep) == [
        {"theme": "listening", "recent": 1, "earlier": 0, "total": 1}
    ]
    client.force_login(org.rep)
    data = client.get("/api/v1/dashboards/growth/", HTTP_ACCEPT="application/json").json()
    assert [t["theme"] for t in data["themes"]] == ["listening"]
    page = client.get("/me/").content.decode()
    assert "pricing" not in page and "negotiation" not in page and "closing" not in page


def test_recent_is_the_last_90_days(org):
    now = timezone.now()
    tagged("listening", recipient=org.rep, author=org.peer, created_at=now - timedelta(days=89))
    tagged("listening", recipient=org.rep, author=org.peer, created_at=now - timedelta(days=91))
    tagged("discovery", recipient=org.rep, author=org.peer, created_at=now - timedelta(days=200))
    assert themes_of(person=org.rep, now=now) == [
        {"theme": "listening", "recent": 1, "earlier": 1, "total": 2},
        {"theme": "discovery", "recent": 0, "earlier": 1, "total": 1},
    ]


def test_anonymous_answers_still_held_back_are_left_out(org):
    from feedback.services import ANONYMITY_THRESHOLD
    from tests.support.factories import FeedbackRequestFactory

    request = FeedbackRequestFactory(requester=org.manager, anonymous=True)
    tagged("candour", recipient=org.manager, author=org.rep, direction="upward",
           anonymous=True, request=request)  # fmt: skip
    assert ANONYMITY_THRESHOLD > 1  # one answer is not enough to show
    assert themes_of(person=org.manager) == []
