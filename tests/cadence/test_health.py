"""Cadence health: every number equals a hand count on a small fixed organisation;
rates are None with nothing to divide by; scopes never leak into one another; the
grouped selectors agree with the one-scope selector and cost a fixed number of
queries however many teams, managers, people or weeks."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.health import (
    HealthNumbers,
    Scope,
    consecutive_misses,
    health,
    health_by_manager,
    health_by_team,
    streaks,
    weekly_adherence,
)
from cadence.services import plan_create
from coaching.selectors import commitment_close_rates
from coaching.services import (
    role_play_create,
)
from tests.support.cadence_health import (
    MIA,
    NOW,
    SINCE,
    UNTIL,
    count_queries,
    days_ago,
    grow,
    held,
)
from tests.support.cadence_health import world as world  # noqa: F401 - the fixture
from tests.support.factories import FocusAreaFactory, one_on_one


def numbers(scope):
    return health(scope, since=SINCE, until=UNTIL, now=NOW)


OMAR = HealthNumbers(due=2, held=1, on_time=1, missed=1, reps=1, covered=1, commitments_made=0)


@pytest.mark.django_db
def test_it_counts_a_managers_people_by_hand(world):
    got = numbers(Scope.manager(world.org.manager))
    assert got == MIA
    assert got.adherence == pytest.approx(4 / 9)
    assert got.on_time_rate == pytest.approx(3 / 4)
    assert got.held_but_empty_rate == pytest.approx(1 / 4)
    assert got.coverage == pytest.approx(1 / 2)
    assert got.close_rate == pytest.approx(1 / 3)
    assert got.due == got.held + got.missed + got.cancelled + got.unresolved


@pytest.mark.django_db
def test_a_managers_manager_sees_everything_below_including_the_manager_review(world):
    org = world.org
    got = numbers(Scope.manager(org.head))
    assert got == HealthNumbers(
        due=12,  # Mia's 9, Omar's 2, Hana's review of Mia
        held=6,
        on_time=5,
        held_but_empty=2,  # r2, the manager review
        missed=3,
        cancelled=2,
        unresolved=1,
        cancellations={"forecast_call": 1, "sick": 1},
        reps=7,  # everyone below Hana; only Rita and Olga had a held 1:1
        covered=2,
        commitments_made=3,
        commitments_done=1,
    )
    # Nobody is above Hana, so the organisation is her scope.
    assert numbers(Scope.organisation()) == got


@pytest.mark.django_db
def test_another_managers_sessions_never_count_in_my_scope(world):
    org = world.org
    assert numbers(Scope.manager(org.other_manager)) == OMAR
    # More of Omar's 1:1s change nothing for Mia, and Mia's own coaching of her
    # people changes nothing for Omar.
    with time_machine.travel(NOW, tick=False):
        held(one_on_one(org.other_manager, org.other_rep, start=days_ago(1)), org.other_manager)
    assert numbers(Scope.manager(org.manager)) == MIA
    assert numbers(Scope.manager(org.rep)) == HealthNumbers()  # nobody below a rep


@pytest.mark.django_db
def test_a_team_counts_its_own_sessions_and_its_current_members_1_1s(world):
    assert numbers(Scope.team(world.team_a)) == MIA  # Olga left team A: not counted
    assert numbers(Scope.team(world.team_b)) == OMAR
    # Pavel is on team C as well: his 1:1s count there too, the call review does not.
    assert numbers(Scope.team(world.team_c)) == HealthNumbers(
        due=4,
        missed=2,
        cancelled=1,
        unresolved=1,
        cancellations={"sick": 1},
        reps=1,
        covered=0,
    )


@pytest.mark.django_db
def test_a_person_counts_what_they_were_coached_in_and_a_coach_what_they_led(world):
    org = world.org
    rita = numbers(Scope.person(org.rep))
    assert rita == HealthNumbers(
        due=5,  # r1–r4 and the call review she presented (not the peer session)
        held=4,
        on_time=3,
        held_but_empty=1,
        cancelled=1,
        cancellations={"forecast_call": 1},
        reps=1,
        covered=1,
        commitments_made=3,
        commitments_done=1,
    )
    # The close rate agrees with coaching's per-owner close rates for the same window.
    done, made = commitment_close_rates(owners=[org.rep], since=SINCE, until=UNTIL)[org.rep.pk]
    assert (rita.commitments_done, rita.commitments_made) == (done, made)

    assert numbers(Scope.coach(org.manager)) == MIA  # she led all of it
    assert numbers(Scope.coach(org.head)) == HealthNumbers(
        due=1, held=1, on_time=1, held_but_empty=1, reps=4, covered=0
    )


@pytest.mark.django_db
def test_a_role_play_without_a_team_belongs_to_whoever_led_it_and_to_no_team(world):
    org = world.org
    with time_machine.travel(NOW, tick=False):
        role_play = role_play_create(
            coach=org.manager,
            participants=[org.rep, org.peer],
            focus_area=FocusAreaFactory(),
            start=days_ago(9),
            scenario="The buyer pushes back on price",
        )
        held(role_play, org.manager)
    mia = numbers(Scope.manager(org.manager))
    assert (mia.due, mia.held, mia.on_time) == (MIA.due + 1, MIA.held + 1, MIA.on_time + 1)
    assert numbers(Scope.manager(org.head)).due == 13
    assert numbers(Scope.person(org.peer)).held == 2  # he hosted the review, practised here
    assert numbers(Scope.team(world.team_a)) == MIA
    assert numbers(Scope.manager(org.other_manager)) == OMAR
    by_manager = health_by_manager([org.head, org.manager], since=SINCE, until=UNTIL, now=NOW)
    assert by_manager[org.manager.pk] == mia


@pytest.mark.django_db
def test_the_window_and_now_decide_what_is_due(world):
    org = world.org
    # Before r4 and p4 were due, and before the −2d commitment was made.
    earlier = health(Scope.manager(org.manager), since=SINCE, until=UNTIL, now=days_ago(3))
    assert (earlier.due, earlier.held, earlier.unresolved, earlier.commitments_made) == (
        7,
        3,
        0,
        2,
    )
    # Coverage looks at the 14 days before min(until, now): r2 (−14d) is then −11d.
    assert (earlier.reps, earlier.covered) == (2, 1)
    week = health(Scope.manager(org.manager), since=days_ago(7), until=NOW)
    assert (week.due, week.held, week.cancelled, week.missed, week.unresolved) == (4, 1, 1, 1, 1)


@pytest.mark.django_db
def test_rates_are_none_when_there_is_nothing_to_divide_by(org):
    got = numbers(Scope.organisation())
    assert got == HealthNumbers(reps=7)
    assert (got.adherence, got.on_time_rate, got.held_but_empty_rate, got.close_rate) == (
        None,
        None,
        None,
        None,
    )
    assert got.coverage == 0.0
    assert numbers(Scope.manager(org.rep)).coverage is None  # nobody to cover


@pytest.mark.django_db
def test_health_by_team_matches_each_teams_own_numbers(world):
    by_team = health_by_team(
        [world.team_a, world.team_b, world.team_c], since=SINCE, until=UNTIL, now=NOW
    )
    for team in (world.team_a, world.team_b, world.team_c):
        assert by_team[team.pk] == numbers(Scope.team(team))
    assert by_team[world.team_a.pk] == MIA


@pytest.mark.django_db
def test_health_by_manager_matches_each_managers_own_numbers_even_when_nested(world):
    org = world.org
    people = [org.head, org.manager, org.other_manager, org.rep]
    by_manager = health_by_manager(people, since=SINCE, until=UNTIL, now=NOW)
    for person in people:
        assert by_manager[person.pk] == numbers(Scope.manager(person))
    assert by_manager[org.manager.pk] == MIA


@pytest.mark.django_db
def test_weekly_adherence_counts_each_calendar_week(world):
    weeks = weekly_adherence(Scope.manager(world.org.manager), weeks=8, now=NOW, tz=UTC)
    assert [(w.week_start, w.due, w.held) for w in weeks] == [
        (date(2026, 1, 26), 0, 0),
        (date(2026, 2, 2), 1, 1),  # the −40d 1:1 (6 Feb)
        (date(2026, 2, 9), 0, 0),
        (date(2026, 2, 16), 0, 0),
        (date(2026, 2, 23), 2, 1),  # r1 held, p1 cancelled
        (date(2026, 3, 2), 2, 1),  # r2 held (moved), p2 missed
        (date(2026, 3, 9), 3, 1),  # r3 cancelled, p3 missed, the call review held
        (date(2026, 3, 16), 2, 1),  # r4 held, p4 not yet logged; r5 not yet due
    ]
    assert weeks[-1].adherence == pytest.approx(1 / 2)
    assert weeks[0].adherence is None
    assert weeks[5].on_time == 0


@pytest.mark.django_db
def test_weeks_are_cut_in_the_time_zone_asked_for(org):
    sunday_night_utc = datetime(2026, 3, 15, 23, 30, tzinfo=UTC)  # Monday 00:30 in Berlin
    with time_machine.travel(NOW, tick=False):
        held(one_on_one(org.manager, org.rep, start=sunday_night_utc), org.manager)
    scope = Scope.person(org.rep)
    in_utc = weekly_adherence(scope, weeks=2, now=NOW, tz=UTC)
    in_berlin = weekly_adherence(scope, weeks=2, now=NOW, tz=ZoneInfo("Europe/Berlin"))
    assert [(w.week_start, w.held) for w in in_utc] == [
        (date(2026, 3, 9), 1),
        (date(2026, 3, 16), 0),
    ]
    assert [(w.week_start, w.held) for w in in_berlin] == [
        (date(2026, 3, 9), 0),
        (date(2026, 3, 16), 1),
    ]


@pytest.mark.django_db
def test_consecutive_misses_count_back_from_the_latest_resolved_occurrence(world):
    plans = [world.rita, world.pavel, world.olga, world.empty]
    with CaptureQueriesContext(connection) as queries:
        got = consecutive_misses(plans, now=NOW)
    assert len(queries) == 1
    assert got == {
        world.rita.pk: 0,  # r4 held
        world.pavel.pk: 2,  # p4 unresolved is skipped; p3, p2 missed; p1 cancelled ends it
        world.olga.pk: 1,
        world.empty.pk: 0,
    }
    assert consecutive_misses([world.pavel], now=days_ago(10)) == {world.pavel.pk: 1}


@pytest.mark.django_db
def test_streaks_count_held_1_1s_back_from_the_latest_resolved_one(world):
    org = world.org
    people = [org.rep, org.peer, org.other_rep, org.manager]
    with CaptureQueriesContext(connection) as queries:
        got = streaks(people, now=NOW)
    assert len(queries) == 1
    assert got == {
        org.rep.pk: 1,  # r4 held, r3 cancelled
        org.peer.pk: 0,  # p3 missed
        org.other_rep.pk: 0,  # o2 missed
        org.manager.pk: 0,  # a manager review is not a weekly 1:1
    }
    # A week and a day ago Rita's last three (r2, r1, the −40d one) were all held.
    assert streaks([org.rep], now=days_ago(8)) == {org.rep.pk: 3}


# --- Query counts ------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("n", [5, 50])
def test_health_by_team_costs_three_queries_however_many_teams(org, n):
    teams, _, _ = grow(org, n)
    # 1. sessions per team and cancel reason (the team's own sessions UNION ALL its
    #    members' 1:1s); 2. reps and covered reps per team; 3. commitments per team.
    count, by_team = count_queries(lambda: health_by_team(teams, since=SINCE, until=UNTIL, now=NOW))
    assert count == 3
    assert {
        (t.due, t.held, t.missed, t.cancelled, t.covered, t.close_rate) for t in by_team.values()
    } == {(3, 1, 1, 1, 1, 0.0)}


@pytest.mark.django_db
@pytest.mark.parametrize("n", [3, 30])
def test_health_by_manager_costs_three_queries_however_many_managers(org, n):
    _, managers, _ = grow(org, n)
    # 1. the reporting tree with each rep's coverage flag; 2. sessions per anchor
    #    person and cancel reason; 3. commitments per anchor person.
    count, by_manager = count_queries(
        lambda: health_by_manager(
            [org.head, org.manager, *managers], since=SINCE, until=UNTIL, now=NOW
        )
    )
    assert count == 3
    assert by_manager[org.manager.pk].due == 3 * n
    assert by_manager[org.head.pk].reps == 2 * n + 7


@pytest.mark.django_db
@pytest.mark.parametrize("n", [3, 30])
def test_per_person_runs_cost_one_query_however_many_people(org, n):
    _, managers, reps = grow(org, n)
    count, got = count_queries(lambda: streaks(reps, now=NOW))
    assert count == 1 and set(got.values()) == {1}


@pytest.mark.django_db
@pytest.mark.parametrize("weeks", [2, 26])
def test_one_scope_costs_three_queries_and_its_weeks_one(org, weeks):
    grow(org, 3)
    # 1. sessions grouped by cancel reason; 2. reps and covered reps; 3. commitments.
    count, _ = count_queries(lambda: numbers(Scope.manager(org.manager)))
    assert count == 3
    count, got = count_queries(
        lambda: weekly_adherence(Scope.manager(org.manager), weeks=weeks, now=NOW, tz=UTC)
    )
    assert count == 1 and len(got) == weeks


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="aware"):
        health(Scope.organisation(), since=datetime(2026, 1, 1), until=NOW)


@pytest.mark.django_db
def test_ended_plans_are_counted_by_reason_in_scope(org):
    from datetime import time as _time

    from django.utils import timezone as tz

    from cadence.health import Scope, plans_ended_by_reason
    from cadence.services import plan_end

    mine = plan_create(
        kind="one_on_one",
        coach=org.manager,
        coachee=org.rep,
        weekday=1,
        local_time=_time(10),
        generate=False,
    )
    theirs = plan_create(
        kind="one_on_one",
        coach=org.other_manager,
        coachee=org.other_rep,
        weekday=1,
        local_time=_time(10),
        generate=False,
    )
    plan_end(plan=mine, actor=org.manager, reason="leave")
    plan_end(plan=theirs, actor=org.other_manager, reason="new_manager")
    window = {"since": tz.now() - timedelta(days=1), "until": tz.now() + timedelta(days=1)}
    assert plans_ended_by_reason(Scope.manager(org.manager), **window) == {"leave": 1}
    assert plans_ended_by_reason(Scope.organisation(), **window) == {"leave": 1, "new_manager": 1}
