"""List pages cost a fixed number of queries, whatever the number of rows."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.services import goal_create
from feedback.models import Stream
from feedback.services import (
    feedback_acknowledge,
    feedback_give,
    feedback_request_create,
    feedback_share,
)
from tests.support.factories import UserFactory


def build(person, n):
    """n of everything: items received (acknowledged with themes, shared), requests
    waiting on them, requests they made, feedback they gave."""
    coach = UserFactory()
    goals = [goal_create(owner=person, actor=person, title=f"Goal {g}") for g in range(2)]
    for i in range(n):
        author = UserFactory()
        item = feedback_give(
            author=author, recipient=person, stream=Stream.DEVELOPMENTAL, observation=f"Saw {i}"
        )
        feedback_acknowledge(
            feedback=item,
            actor=person,
            themes=[f"theme {i % 4}", "listening"],
            goal=goals[i % 2] if i % 3 else None,
        )
        feedback_share(feedback=item, actor=person, person=coach)
        feedback_request_create(
            requester=author,
            responders=[person],
            due_on=timezone.localdate() + timedelta(days=1 + i % 9),
        )
        feedback_request_create(
            requester=person,
            responders=[author, coach],
            due_on=timezone.localdate() + timedelta(days=3),
            stream=Stream.EVALUATIVE if i % 2 else Stream.DEVELOPMENTAL,
        )
        feedback_give(
            author=person, recipient=author, stream=Stream.EVALUATIVE, observation=f"Gave {i}"
        )


def queries(client, path):
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return [q["sql"] for q in captured]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # Every page: session, user, roles (nav), the header's unread count. Then:
        # waiting requests with requester
        ("/feedback/inbox/", 5),
        # how many (the pager), the page's items with authors and goals, their themes,
        # their live shares, the theme patterns and the goal counts over everything
        # received, my goals (the filter)
        ("/feedback/", 11),
        # how many (the pager), the page of items I gave with recipients (in the
        # stream they gave in)
        ("/feedback/given/?stream=evaluative", 6),
        # my requests, their responders with people
        ("/feedback/requests/", 6),
        # items shared with me with people
        ("/feedback/shared/", 5),
    ],
)
@pytest.mark.parametrize("rows", [3, 30])
def test_it_does_not_grow_with_the_number_of_rows(client, path, expected, rows):
    person = UserFactory()
    build(person, rows)
    client.force_login(person)
    sql = queries(client, path)
    assert len(sql) == expected, sql


@pytest.mark.django_db
def test_the_rep_home_feedback_panel_costs_four_queries_at_any_size(client):
    small, large = UserFactory(), UserFactory()
    build(small, 3)
    build(large, 30)
    client.force_login(small)
    few = queries(client, "/me/")
    client.force_login(large)
    many = queries(client, "/me/")
    assert len(few) == len(many)
    # Requests waiting on me (with their count), the latest developmental items, the
    # themes of what I received, and when I last asked for feedback.
    assert sum("feedback_" in q for q in many) == 4, [q for q in many if "feedback_" in q]
