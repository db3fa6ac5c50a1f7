"""My coaching nudges a person to ask for feedback: when they last asked anyone (page
and API), or that they never have — their own requests only, never someone else's."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from feedback.services import feedback_request_create

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)
JSON = {"HTTP_ACCEPT": "application/json"}


def asked(when, requester, responder):
    with time_machine.travel(when, tick=False):
        feedback_request_create(
            requester=requester, responders=[responder], due_on=when.date() + timedelta(days=7)
        )


def test_someone_who_never_asked_is_told_so(org, client_for):
    asked(NOW - timedelta(days=3), org.peer, org.rep)  # someone else's request
    with time_machine.travel(NOW, tick=False):
        client = client_for(org.rep)
        body = client.get("/me/").content.decode()
        data = client.get("/api/v1/dashboards/growth/", **JSON).json()
    assert "You have not asked anyone for feedback yet." in body
    assert data["last_asked_at"] is None


def test_the_latest_of_their_own_requests_is_shown(org, client_for):
    asked(NOW - timedelta(days=40), org.rep, org.manager)
    asked(NOW - timedelta(days=15), org.rep, org.peer)
    with time_machine.travel(NOW, tick=False):
        client = client_for(org.rep)
        body = client.get("/me/").content.decode()
        data = client.get("/api/v1/dashboards/growth/", **JSON).json()
    assert "You last asked for feedback on 3 Mar 2026, 2\xa0weeks, 1\xa0day ago." in body
    assert data["last_asked_at"] == "2026-03-03T13:00:00+01:00"
