"""The small hand-counted organisation of the cadence-health tests (`world`, whose
numbers are MIA and OMAR), and helpers to hold, miss, write up and grow it; shared by
cadence's and dashboards' health tests."""

from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.health import (
    HealthNumbers,
)
from cadence.models import Occurrence
from cadence.services import plan_create
from coaching.models import CoachingSession
from coaching.services import (
    commitment_close,
    commitment_create,
    manager_review_create,
    notes_save,
    peer_session_create,
    session_cancel,
    session_mark_held,
    session_reschedule,
    team_call_review_create,
)
from people.services_teams import team_create, team_member_add, team_member_remove
from tests.support.factories import UserFactory, one_on_one

NOW = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)  # a Wednesday


SINCE = NOW - timedelta(days=28)


UNTIL = NOW + timedelta(days=7)  # reaches into the future: only what has started is due


def days_ago(n, hours=0):
    return NOW - timedelta(days=n, hours=hours)


def write_up(session, actor):
    # Different words each time: notes copied from the last session count as empty.
    notes_save(
        session=session, actor=actor, base_version=0, changes={"reality": f"Talked #{session.pk}"}
    )


def promise(session, actor):
    return commitment_create(
        session=session,
        actor=actor,
        text="Try it",
        evidence="A call",
        due_on=NOW.date() + timedelta(days=7),
    )


def held(session, actor, *, written=True):
    if written:
        write_up(session, actor)
    return session_mark_held(session=session, actor=actor)


def mark_missed(*sessions):
    CoachingSession.objects.filter(pk__in=[s.pk for s in sessions]).update(
        status="missed", missed_at=NOW
    )


def plan_with(coach, coachee, sessions):
    plan = plan_create(
        kind="one_on_one",
        coach=coach,
        coachee=coachee,
        weekday=2,
        local_time=time(12, 0),
        time_zone="UTC",
        generate=False,
    )
    for session in sessions:
        Occurrence.objects.create(plan=plan, slot_start=session.original_start, session=session)
    return plan


@pytest.fixture
def world(org):
    """The fixed data set. Times are relative to NOW (Wed 18 March 2026, 12:00 UTC).

    Mia (manager) → Rita (rep), Pavel (peer); Omar (other manager) → Olga (other rep).
    Team A (lead Mia): Rita, Pavel. Team B (lead Omar): Olga. Team C: Pavel only.
    Olga was on team A once and left.

    Rita's 1:1s with Mia        −40d held (before the window; commitment then, done)
                                −21d held, written; commitments made then: one later
                                     done, one dropped
                                −17d (a Sunday) → moved to −14d, into the next week,
                                     held with nothing written (empty; not kept)
                                −7d  cancelled (forecast call)
                                −2d  held; one open commitment, made then
                                +5d  scheduled (future: not due)
    Pavel's 1:1s with Mia       −20d cancelled (sick), −13d missed, −6d missed,
                                −1h  still scheduled (due, unresolved)
    Team A call review (Mia)    −8d  held, written (Rita presents, Pavel hosts)
    Olga's 1:1s with Omar       −10d held, written; −3d missed
    Hana's manager review of Mia −5d held, empty
    Rita ↔ Pavel peer session   −4d  held (peer coaching: never in health)
    """
    with time_machine.travel(days_ago(39), tick=False):
        old = one_on_one(org.manager, org.rep, start=days_ago(40))
        old_promise = promise(old, org.manager)
        held(old, org.manager)
        commitment_close(commitment=old_promise, actor=org.manager, status="done")

    with time_machine.travel(NOW, tick=False):
        team_a = team_create(name="Team A", lead=org.manager)
        team_b = team_create(name="Team B", lead=org.other_manager)
        team_c = team_create(name="Team C", lead=org.manager)
        for team, person in [
            (team_a, org.rep),
            (team_a, org.peer),
            (team_b, org.other_rep),
            (team_c, org.peer),
            (team_a, org.other_rep),
        ]:
            team_member_add(team=team, person=person)
        team_member_remove(team=team_a, person=org.other_rep)

    with time_machine.travel(days_ago(21, hours=-1), tick=False):  # commitments made then
        r1 = one_on_one(org.manager, org.rep, start=days_ago(21))
        done, dropped = promise(r1, org.manager), promise(r1, org.manager)
        held(r1, org.manager)
    with time_machine.travel(days_ago(2, hours=-1), tick=False):
        r4 = one_on_one(org.manager, org.rep, start=days_ago(2))
        promise(r4, org.manager)
        held(r4, org.manager)

    with time_machine.travel(NOW, tick=False):
        commitment_close(commitment=done, actor=org.manager, status="done")
        commitment_close(commitment=dropped, actor=org.manager, status="dropped", reason="Lost")
        r2 = one_on_one(org.manager, org.rep, start=days_ago(17))
        r2 = session_reschedule(session=r2, actor=org.manager, start=days_ago(14))
        held(r2, org.manager, written=False)
        r3 = one_on_one(org.manager, org.rep, start=days_ago(7))
        session_cancel(session=r3, actor=org.manager, reason="forecast_call")
        r5 = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=5))

        p1 = one_on_one(org.manager, org.peer, start=days_ago(20))
        session_cancel(session=p1, actor=org.manager, reason="sick")
        p2 = one_on_one(org.manager, org.peer, start=days_ago(13))
        p3 = one_on_one(org.manager, org.peer, start=days_ago(6))
        mark_missed(p2, p3)
        p4 = one_on_one(org.manager, org.peer, start=days_ago(0, hours=1))

        review = team_call_review_create(
            actor=org.manager,
            team=team_a,
            start=days_ago(8),
            presenter=org.rep,
            call_url="https://calls.example.com/1",
            call_title="Discovery",
            call_date=days_ago(9).date(),
        )
        held(review, org.manager)

        o1 = one_on_one(org.other_manager, org.other_rep, start=days_ago(10))
        held(o1, org.other_manager)
        o2 = one_on_one(org.other_manager, org.other_rep, start=days_ago(3))
        mark_missed(o2)

        mia_review = manager_review_create(coach=org.head, manager=org.manager, start=days_ago(5))
        held(mia_review, org.head, written=False)
        held(peer_session_create(actor=org.rep, peer=org.peer, start=days_ago(4)), org.rep)

        plans = {
            "rita": plan_with(org.manager, org.rep, [old, r1, r2, r3, r4, r5]),
            "pavel": plan_with(org.manager, org.peer, [p1, p2, p3, p4]),
            "olga": plan_with(org.other_manager, org.other_rep, [o1, o2]),
            "empty": plan_with(org.head, org.manager, []),
        }
    return type("World", (), dict(org=org, team_a=team_a, team_b=team_b, team_c=team_c, **plans))


# What Mia's people (and team A) did: Rita r1 r2 r3 r4, Pavel p1–p4, the call review.
MIA = HealthNumbers(
    due=9,
    held=4,  # r1 r2 r4 review
    on_time=3,  # r2 was moved out of its week
    held_but_empty=1,  # r2
    missed=2,  # p2 p3
    cancelled=2,
    unresolved=1,  # p4
    cancellations={"forecast_call": 1, "sick": 1},
    reps=2,  # Rita, Pavel
    covered=1,  # Rita (r2, r4); Pavel has had no held 1:1
    commitments_made=3,  # in the window: two on r1, one on r4 (not the −39d one)
    commitments_done=1,
)


def grow(org, n):
    """n teams, each led by a new manager below Mia with one rep, a held 1:1 with a
    commitment, a missed 1:1 and a cancelled one."""
    teams, managers, reps = [], [], []
    with time_machine.travel(days_ago(0, hours=1), tick=False):
        for i in range(n):
            manager = UserFactory(manager=org.manager)
            rep = UserFactory(manager=manager)
            team = team_create(name=f"Grown {n}-{i}", lead=manager)
            team_member_add(team=team, person=rep)
            session = one_on_one(manager, rep, start=days_ago(3))
            promise(session, manager)
            held(session, manager)
            mark_missed(one_on_one(manager, rep, start=days_ago(10)))
            cancelled = one_on_one(manager, rep, start=days_ago(17))
            session_cancel(session=cancelled, actor=manager, reason="travel")
            teams.append(team)
            managers.append(manager)
            reps.append(rep)
    return teams, managers, reps


def count_queries(call):
    with CaptureQueriesContext(connection) as queries:
        result = call()
    return len(queries), result
