""" "My coaching" costs the same number of queries for a rep with a little history as
for one with a lot — sessions, commitments, scores, feedback and its themes,
requests, sessions to rate — page and API alike."""

from datetime import date, timedelta

import pytest
import time_machine

from coaching.services import goal_create
from people.services_teams import team_create, team_member_add
from scorecards import services as scorecards
from tests.support.dashboards_team import CRITERIA, NOW, held, promise, queries, scored_call
from tests.support.factories import (
    FeedbackFactory,
    FeedbackRequestFactory,
    FocusAreaFactory,
    RequestedResponderFactory,
    ThemeFactory,
    UserFactory,
    one_on_one,
)

pytestmark = pytest.mark.django_db


def rep_with(org, n, template):
    """A rep of Mia's with n of everything."""
    with time_machine.travel(NOW - timedelta(days=30), tick=False):
        rep = UserFactory(manager=org.manager)
        team = team_create(name=f"Team {n}", lead=org.manager)
        team_member_add(team=team, person=rep)
        goal_create(owner=rep, actor=rep, title=f"Goal for {n}")
    keep = org.rep
    org.rep = rep
    for i in range(n):
        scored_call(
            org, template, NOW - timedelta(days=3 + 20 * i), mine=[3, 2, 1], coach=[2, 2, 2]
        )
    org.rep = keep
    for i in range(n):
        with time_machine.travel(NOW - timedelta(days=i + 1), tick=False):
            session = one_on_one(org.manager, rep, start=NOW - timedelta(days=i + 1, hours=1))
            promise(session, org.manager, due_on=(NOW + timedelta(days=3)).date())
            held(session, org.manager)
        with time_machine.travel(NOW, tick=False):
            one_on_one(org.manager, rep, start=NOW + timedelta(days=i + 1))
            item = FeedbackFactory(
                recipient=rep, author=org.peer, created_at=NOW - timedelta(days=40 * i)
            )
            item.themes.add(ThemeFactory(name=f"theme {i % 4}"))
            RequestedResponderFactory(
                request=FeedbackRequestFactory(requester=org.peer, due_on=date(2026, 3, 25)),
                responder=rep,
            )
    return rep


@pytest.fixture
def reps(org):
    with time_machine.travel(NOW - timedelta(days=200), tick=False):
        template = scorecards.template_create(actor=org.admin, name="Calls", criteria=CRITERIA)
        focus = FocusAreaFactory(starts_on=date(2025, 9, 1), ends_on=None)
        focus.criteria.set([c.criterion for c in template.versions.get().criteria.all()][:2])
    return rep_with(org, 2, template), rep_with(org, 9, template)


@pytest.mark.parametrize("path", ["/me/", "/api/v1/dashboards/growth/"])
def test_it_costs_the_same_for_a_little_or_a_lot(client, reps, path):
    few_rep, many_rep = reps
    client.force_login(few_rep)
    few = queries(client, path)
    client.force_login(many_rep)
    assert queries(client, path) == few


def test_the_costs_are_pinned(client, reps):
    rep, _ = reps
    client.force_login(rep)
    # session, user; management chain; current teams; active goals; focus areas, their
    # teams, their criteria (3); monthly averages; requests waiting on me (with their
    # count); latest developmental feedback; open commitments; upcoming sessions,
    # recent sessions, the people of both (3); themes; calls waiting for my scores;
    # sessions to rate; when I last asked for feedback; closed days coming up; roles
    # (the navigation); the header's unread count; what else waits for me (the 1:1 to
    # prepare, scores to give, pair invitations: 3 — requests and sessions to rate are
    # the page's own; no escalations are read for someone without reports).
    assert queries(client, "/me/") == 25
    assert queries(client, "/api/v1/dashboards/growth/") == 20  # no navigation
