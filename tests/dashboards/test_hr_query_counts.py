"""Cadence health costs the same number of queries for 5 teams as for 50 — the page,
a team's page, every export and every endpoint — whatever the number of people and
sessions behind them."""

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.services_rollout import rollout_start
from dashboards.exports import ORGANISATION_TABLES, TEAM_TABLES
from people.services import team_create, team_member_add
from tests.factories import UserFactory, one_on_one

from ..cadence.test_health import held, mark_missed
from .hr_support import NOW, build, days_ago

pytestmark = pytest.mark.django_db


def more_teams(org, n):
    """n teams below the head, of one rep each (too few to show), each with a held and
    a missed 1:1 and its install plan started."""
    with time_machine.travel(days_ago(30), tick=False):
        for i in range(n):
            manager = UserFactory(manager=org.head)
            rep = UserFactory(manager=manager)
            team = team_create(name=f"More {manager.pk}-{i}", lead=manager)
            team_member_add(team=team, person=rep)
            held(one_on_one(manager, rep, start=days_ago(10)), manager)
            mark_missed(one_on_one(manager, rep, start=days_ago(3)))
            rollout_start(team=team, actor=manager, starts_on=NOW.date())


def counts(client, paths):
    found = {}
    with time_machine.travel(NOW, tick=False):
        for path in paths:
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
    # Every request: the session, the user, their roles (3). Health of one scope: now
    # (3), the window before (3), its weeks (1). The heatmap: the teams, their weeks,
    # their window (5). The attention list: plans with a miss and their runs (2),
    # coverage now and before and the coaches (3), quiet teams (2). Install plans: the
    # teams and their plans' evidence (12).
    # Exports add their audit event (1).
    assert small == {
        "/hr/": 3 + 1 + 7 + 5 + 7 + 12,  # and the head count (1)
        f"/hr/teams/{team}/": 3 + 1 + 7,  # and the team (1)
        "/hr/export/metrics.csv": 3 + 7 + 1,  # and the audit event (1)
        "/hr/export/cancellations.csv": 3 + 7 + 1,
        "/hr/export/weeks.csv": 3 + 7 + 1,
        "/hr/export/heatmap.csv": 3 + 5 + 1,
        "/hr/export/attention.csv": 3 + 7 + 1,
        "/hr/export/rollout.csv": 3 + 12 + 1,
        f"/hr/teams/{team}/export/metrics.csv": 3 + 1 + 7 + 1,
        f"/hr/teams/{team}/export/cancellations.csv": 3 + 1 + 7 + 1,
        f"/hr/teams/{team}/export/weeks.csv": 3 + 1 + 7 + 1,
        "/api/v1/health/organisation/": 3 + 7,
        "/api/v1/health/teams/": 3 + 5,
        f"/api/v1/health/teams/{team}/": 3 + 1 + 7,
        "/api/v1/health/attention/": 3 + 7,
    }
