"""The grouped health reads the dashboards need: every team's weeks (the heatmap), each
coach's coverage at a moment (coverage that dropped), each team's latest call review
(teams gone quiet). Each equals its one-scope counterpart or a hand count on the fixed
organisation of test_health.py, and costs one query however many teams or coaches."""

from datetime import UTC

import pytest

from cadence.health import (
    Scope,
    coverage_by_coach,
    last_call_review_by_team,
    weekly_adherence,
    weekly_by_team,
)
from tests.support.cadence_health import NOW, count_queries, days_ago, grow
from tests.support.cadence_health import world as world  # noqa: F401, F811 - the fixture

pytestmark = pytest.mark.django_db


def test_every_teams_weeks_match_the_teams_own_weekly_adherence(world):
    teams = [world.team_a, world.team_b, world.team_c]
    by_team = weekly_by_team(teams, weeks=8, now=NOW, tz=UTC)
    for team in teams:
        assert by_team[team.pk] == weekly_adherence(Scope.team(team), weeks=8, now=NOW, tz=UTC)
    # Team A by hand, last three weeks: r1 held and p1 cancelled; r2 held (moved) and p2
    # missed; r3 cancelled, p3 missed and the call review held; r4 held, p4 unresolved.
    assert [(w.due, w.held) for w in by_team[world.team_a.pk][-4:]] == [
        (2, 1),
        (2, 1),
        (3, 1),
        (2, 1),
    ]
    # Team C is Pavel alone: his 1:1s count there too; Olga left team A, so her 1:1s
    # count only in team B.
    assert [w.due for w in by_team[world.team_c.pk][-4:]] == [1, 1, 1, 1]
    assert sum(w.due for w in by_team[world.team_b.pk]) == 2


def test_coverage_per_coach_counts_direct_reports_with_a_held_1_1_in_14_days(world):
    org = world.org
    got = coverage_by_coach(until=NOW, now=NOW)
    assert got[org.manager.pk] == (2, 1)  # Rita (r4, r2), not Pavel (never held)
    assert got[org.other_manager.pk] == (1, 1)  # Olga, 10 days ago
    # Mia, Omar, the HR person and the admin report to Hana; a manager review is not a 1:1.
    assert got[org.head.pk] == (4, 0)
    assert org.rep.pk not in got  # nobody reports to a rep
    # Eleven days ago Olga's 1:1 had not happened; Rita's r1 and r2 had.
    earlier = coverage_by_coach([org.manager, org.other_manager], until=days_ago(11), now=NOW)
    assert earlier == {org.manager.pk: (2, 1), org.other_manager.pk: (1, 0)}


def test_the_latest_held_call_review_per_team(world):
    got = last_call_review_by_team([world.team_a, world.team_b, world.team_c], now=NOW)
    assert got == {world.team_a.pk: days_ago(8), world.team_b.pk: None, world.team_c.pk: None}
    assert last_call_review_by_team([world.team_a], now=days_ago(9)) == {world.team_a.pk: None}


@pytest.mark.parametrize("n", [5, 50])
def test_each_costs_one_query_however_many_teams_or_coaches(org, n):
    teams, managers, _ = grow(org, n)
    count, by_team = count_queries(lambda: weekly_by_team(teams, weeks=8, now=NOW, tz=UTC))
    assert count == 1 and len(by_team) == n
    assert {sum(w.held for w in weeks) for weeks in by_team.values()} == {1}
    count, coverage = count_queries(lambda: coverage_by_coach(managers, until=NOW, now=NOW))
    assert count == 1 and set(coverage.values()) == {(1, 1)}
    count, _ = count_queries(lambda: last_call_review_by_team(teams, now=NOW))
    assert count == 1


def test_a_window_of_any_length_costs_the_same(org):
    teams, _, _ = grow(org, 3)
    for weeks in (1, 26):
        count, by_team = count_queries(
            lambda weeks=weeks: weekly_by_team(teams, weeks=weeks, now=NOW, tz=UTC)
        )
        assert count == 1 and {len(w) for w in by_team.values()} == {weeks}
