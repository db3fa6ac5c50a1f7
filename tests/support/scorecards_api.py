"""Helpers for the scorecards API tests (plain functions; each file keeps its own
fixtures, as the other API tests do)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scorecards import services
from tests.scorecards.conftest import criteria_of

# The people of `org` (tests/conftest.py) by their part in a round on the rep's call,
# plus `team_peer` (the peer, in the team review) and `outside_peer` (a colleague of
# the rep who is in no round).
OUTSIDERS = ["other_manager", "outside_peer", "other_rep", "hr", "admin"]


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def scores_body(scoring, ratings, **extra) -> dict:
    """A PUT body for `scoring-rounds/{id}/scorecard/`: one rating per criterion."""
    scores = [
        {"criterion": c.pk, "rating": r} for c, r in zip(criteria_of(scoring), ratings, strict=True)
    ]
    return {"scores": scores, **extra}


def team_review(org, template, call, *, participants, session_id=1):
    """A team call review round on `call`: its owner scores as the subject, the
    manager is revealed last, the participants score too."""
    return services.team_review_scoring_open(
        actor=org.manager,
        work=call,
        template=template,
        session_id=session_id,
        manager=org.manager,
        participants=participants,
    )


def queries(client, url, params=None) -> int:
    """The queries one GET costs, after a first one (sessions, caches) warmed up."""
    client.get(url, params)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params)
    assert response.status_code == 200, response.content
    return len(captured)


def ids(response) -> list[int]:
    body = response.json()
    rows = body["results"] if isinstance(body, dict) and "results" in body else body
    return [row["id"] for row in rows]
