"""Cadence health costs the same number of queries for 5 teams as for 50 — the page,
a team's page, every export and every endpoint — whatever the number of people and
sessions behind them."""

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.services_rollout import rollout_start
from dashboards.exports import ORGANISATION_TABLES, TEAM_TABLES
from people.services_teams import team_create, team_member_add
from tests.support.cadence_health import held, mark_missed
from tests.support.dashboards_hr import NOW, build, days_ago
from tests.support.factories import UserFactory, one_on_one

pytestmark = pytest.mark.django_db


def more_teams(org, n):
    """n teams below the head, of one rep each (too few to show), each with a held and
    a missed 1:1 and its install plan started."""
    to_hold = []
    with time_machine.travel(days_ago(30), tick=False):
        for i in range(n):
            manager = UserFactory(manager=org.head)
            rep = UserFactory(manager=manager)
            team = team_create(name=f"More {manager.pk}-{i}", lead=manager)
            team_member_add(team=team, person=rep)
            to_hold.append((one_on_one(manager, rep, start=days_ago(10)), manager))
            mark_missed(one_on_one(manager, rep, start=days_ago(3)))
            rollout_start(team=team, actor=manager, starts_on=NOW.date())
    with time_machine.travel(days_ago(10, hours=-1), tick=False):  # once they took place
        for session, manager in to_hold:
            held(session, manager)


def counts(client, paths):
    """Each path's queries when it computes its numbers: the slot's snapshots are
    dropped before every request."""
    found = {}
    with time_machine.travel(NOW, tick=False):
        for path in paths:
            cache.clear()
            with CaptureQueriesContext(connection) as queries:
                response = client.get(path, {"weeks": 4})  # the window with a coverage drop
            assert response.status_code == 200, path
            found[path] = len(queries)
    return found


def every_path(team):
    return [
        "/hr/",
        f"/hr/teams/{team.pk}/",
        *(f"/hr/export/{table}.csv" for table in ORGANISATION_TABLES),
        *(f"/hr/teams/{team.pk}/export/{table}.csv" for table in TEAM_TABLES),
        "/api/v1/health/organisation/",
        "/api/v1/health/teams/",
        f"/api/v1/health/teams/{team.pk}/",
        "/api/v1/health/attention/",
    ]


def test_every_page_export_and_endpoint_costs_the_same_for_5_and_50_teams(client, org):
    client.force_login(org.hr)
    # The hand-counted world has something on every list: a run of misses, a coverage
    # drop, a quiet team, a team big enough to show (A) and one too small (B).
    world = build(org)
    more_teams(org, 3)
    small = counts(client, every_path(world.team_a))
    more_teams(org, 45)
    large = counts(client, every_path(world.team_a))
    assert large == small
    team = world.team_a.pk
    # Every request: the session, the user, their roles (3). The organisation's snapshot
    # (`dashboards.snapshots`), whichever page, export or endpoint computes it: the
    # head count (1); health now (3), the window before (3) and by week (1); the heatmap:
    # the teams, their weeks, their window (5); the attention list: plans with a miss
    # and their runs (2), coverage now and before and the coaches (3), quiet teams (2);
    # install plans: the teams, every started team's evidence (the rollouts, then 10,
    # kept for the slot: `cadence.rollout.kept_evidence`) and the ticks (13). A team's
    # snapshot: its health now, before and by week (7), after the team (1). Exports add
    # their audit event (1). Pages add the header's unread count (1); the home, what
    # waits for the reader (`dashboards.waiting`: 5, no escalations without reports).
    request, organisation, one_team = 3, 1 + 7 + 5 + 7 + 13, 1 + 7
    header, waiting = 1, 5
    assert small == {
        "/hr/": request + organisation + header + waiting,
        f"/hr/teams/{team}/": request + one_team + header,
        **{f"/hr/export/{table}.csv": request + organisation + 1 for table in ORGANISATION_TABLES},
        **{f"/hr/teams/{team}/export/{table}.csv": request + one_team + 1 for table in TEAM_TABLES},
        "/api/v1/health/organisation/": request + organisation,
        "/api/v1/health/teams/": request + organisation,
        f"/api/v1/health/teams/{team}/": request + one_team,
        "/api/v1/health/attention/": request + organisation,
    }
