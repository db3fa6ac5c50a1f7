"""The team dashboards cost the same number of queries for a manager with 3 people
and 3 managers below as for one with 12 and 12 — pages and API alike, their own or
read from above — and the managers-below review does not grow with the managers."""

from datetime import date, time, timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.models import Occurrence
from cadence.services import plan_create
from coaching.ratings import release_usefulness
from coaching.services import session_rating_save
from people.services_teams import team_create, team_member_add
from scorecards import services as scorecards
from tests.support.dashboards_team import CRITERIA, NOW, held, missed, promise, queries, scored_call
from tests.support.factories import (
    FeedbackRequestFactory,
    FocusAreaFactory,
    RequestedResponderFactory,
    UserFactory,
    one_on_one,
)

pytestmark = pytest.mark.django_db


def boss_of(org, n, template):
    """A manager of managers below Hana: n direct reports, each with a held 1:1 this
    week (rated), a missed one and one to come in a plan, two held 1:1s 24 days ago
    (rated then, closed ten days ago, so counted by this week's summary), an overdue
    commitment and a scored call; n managers below, each with a rep and a held 1:1;
    n requests waiting on the boss."""
    with time_machine.travel(NOW - timedelta(days=30), tick=False):
        boss = UserFactory(manager=org.head)
        team = team_create(name=f"Team of {n}", lead=boss)
        reps = [UserFactory(manager=boss) for _ in range(n)]
        for rep in reps:
            team_member_add(team=team, person=rep)
    for rep in reps:
        org.rep, org.manager = rep, boss  # `scored_call` scores org.rep's calls as org.manager
        scored_call(org, template, NOW - timedelta(days=3), mine=[3, 3, 1], coach=[2, 2, 2])
    earlier = {}
    with time_machine.travel(NOW - timedelta(days=24), tick=False):
        for rep in reps:
            earlier[rep] = one_on_one(boss, rep, start=NOW - timedelta(days=24, hours=1))
            promise(earlier[rep], boss, due_on=(NOW - timedelta(days=2)).date())
            held(earlier[rep], boss)
            before = one_on_one(boss, rep, start=NOW - timedelta(days=24, hours=3))
            held(before, boss)
            for session in (earlier[rep], before):
                session_rating_save(session=session, rater=rep, score=4, comment="Good")
    with time_machine.travel(NOW, tick=False):
        for rep in reps:
            this_week = one_on_one(boss, rep, start=NOW - timedelta(hours=20))
            held(this_week, boss)
            miss = one_on_one(boss, rep, start=NOW - timedelta(hours=2))
            missed(miss)
            ahead = one_on_one(boss, rep, start=NOW + timedelta(days=1))
            plan = plan_create(kind="one_on_one", coach=boss, coachee=rep, weekday=3,
                               local_time=time(12, 0), time_zone="UTC", generate=False)  # fmt: skip
            for session in (this_week, miss, ahead):
                Occurrence.objects.create(
                    plan=plan, slot_start=session.original_start, session=session
                )
            session_rating_save(session=this_week, rater=rep, score=4, comment="Good")
            RequestedResponderFactory(
                request=FeedbackRequestFactory(requester=rep, due_on=date(2026, 3, 25)),
                responder=boss,
            )
            manager = UserFactory(manager=boss)
            their_rep = UserFactory(manager=manager)
            theirs = one_on_one(manager, their_rep, start=NOW - timedelta(days=1))
            held(theirs, manager)
            their_plan = plan_create(kind="one_on_one", coach=manager, coachee=their_rep,
                                     weekday=3, local_time=time(12, 0), time_zone="UTC",
                                     generate=False)  # fmt: skip
            Occurrence.objects.create(
                plan=their_plan, slot_start=theirs.original_start, session=theirs
            )
    return boss


@pytest.fixture
def bosses(org):
    with time_machine.travel(NOW - timedelta(days=90), tick=False):
        template = scorecards.template_create(actor=org.admin, name="Calls", criteria=CRITERIA)
        focus = FocusAreaFactory(starts_on=date(2026, 1, 1), ends_on=None)
        focus.criteria.set([c.criterion for c in template.versions.get().criteria.all()][:2])
    rep, manager = org.rep, org.manager
    small, large = boss_of(org, 3, template), boss_of(org, 12, template)
    org.rep, org.manager = rep, manager
    release_usefulness(now=NOW)  # the ratings closed ten days ago count: summaries shown
    return small, large


def count_for(client, viewer, path):
    client.force_login(viewer)
    return queries(client, path)


def first_of_slot(client, viewer, path):
    """Queries for `path` as a refresh slot's first reader: the session warm, nothing
    kept (the managers' numbers, who is below)."""
    client.force_login(viewer)
    with time_machine.travel(NOW, tick=False):
        client.get(path)
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(path).status_code == 200
    return len(captured)


def test_my_team_costs_the_same_for_3_or_12_people_and_managers(client, org, bosses):
    small, large = bosses
    few, many = count_for(client, small, "/team/"), count_for(client, large, "/team/")
    # session, user, roles; people overview, their memberships+teams, teams they lead
    # (3); focus areas, their teams, their criteria (3); the walk up from the people
    # (all below the manager: the reveal rule is not needed), monthly averages; streaks;
    # last manager reviews; the reporting lines' version (who is below is kept under
    # it: one walk more when they changed); this page of managers; health per coach
    # (3); weeks per coach; live plans; runs of misses; ratings (where each coach's
    # count stands, the numbers, then the manager's own comments: 3); this week's
    # sessions and their people (2); teams led; overdue commitments; requests waiting
    # on me, with their count; the header's unread count; what else waits for them
    # (the 1:1 to prepare, scores to give, pair invitations, sessions to rate,
    # escalations: 5, `dashboards.waiting`).
    assert few == many == 35


def test_a_managers_team_read_from_above_costs_the_same(client, org, bosses):
    small, large = bosses
    few = count_for(client, org.head, f"/team/managers/{small.pk}/")
    many = count_for(client, org.head, f"/team/managers/{large.pk}/")
    # As "My team", less the requests waiting on them and their own rating comments
    # (2), plus the check that the manager is among the managers below the viewer (the
    # reporting lines' version again, then the manager: 2), plus the header's unread
    # count; what waits for the reader is on their own pages, not here.
    assert few == many == 30


@pytest.mark.parametrize(
    "path",
    ["/api/v1/dashboards/team/", "/api/v1/dashboards/managers/"],
)
def test_the_api_costs_the_same_for_3_or_12(client, org, bosses, path):
    small, large = bosses
    assert count_for(client, small, path) == count_for(client, large, path)
    assert first_of_slot(client, small, path) == first_of_slot(client, large, path)


def test_my_team_costs_the_same_for_3_or_12_as_a_slots_first_reader(client, org, bosses):
    small, large = bosses
    few, many = first_of_slot(client, small, "/team/"), first_of_slot(client, large, "/team/")
    # As a later reader's 35, plus who is below worked out again (the walk: 1) and the
    # managers' numbers of this slot (health 3, weeks, live plans, runs of misses, where
    # each one's usefulness count stands — none counted yet, so no numbers: 7).
    assert few == many == 43


def test_the_api_costs_are_pinned(client, org, bosses):
    small, _ = bosses
    # The same selectors as the pages: the own dashboard reads the roles for its
    # permission as the page does; read from above, no roles are read (no navigation).
    assert count_for(client, small, "/api/v1/dashboards/team/") == 29
    assert count_for(client, org.head, f"/api/v1/dashboards/team/{small.pk}/") == 28
    # A slot's first reader: session, user, roles; managers below (the reporting
    # lines' version, the walk, this page: 3); health per coach (3); weeks; live plans;
    # runs of misses; where each manager's usefulness count stands (none counted yet, so
    # no numbers are read).
    assert first_of_slot(client, small, "/api/v1/dashboards/managers/") == 13
    # The rest of the slot reads those numbers kept: session, user, roles, the
    # reporting lines' version, this page of managers.
    assert count_for(client, small, "/api/v1/dashboards/managers/") == 5
