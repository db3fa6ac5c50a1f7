"""A small fixed organisation for the cadence-health pages, with every number counted
by hand below. Times are relative to NOW, Wednesday 18 March 2026, 12:00 UTC; the
window is the last four weeks (since 18 Feb 12:00), the previous one the four before.

Hana (head) → Mia (manager) → Rita, Pavel, Rosa, Raj, Ruth (team A, led by Mia)
            → Omar (other manager) → Olga, Otto (team B, led by Omar; too few to show)
            → Harriet (HR), Adam (programme admin)

This window (1:1s with Mia unless said)     The window before
  Rita   −10d held, moved from −9d: out of    Rita  −35d held, one commitment: done
              its week (late)
         −3d  held, two commitments: one done Pavel −35d held
  Pavel  −3d  held with nothing written       Rosa  −35d held
  Rosa   −3d  cancelled (forecast call)       Raj   −35d cancelled (illness)
  Raj    −10d missed, −3d missed
  Ruth   −20d held
  Team A call review −8d held
  Olga, Otto (with Omar) −3d held

Organisation, this window: due 10, held 7 (Rita ×2, Pavel, Ruth, the review, Olga,
Otto), on time 6, held but empty 1 (Pavel), missed 2, cancelled 1 (forecast call).
People with a manager: Mia's five, Omar's two, Mia, Omar, Harriet, Adam = 11; with a
held 1:1 in the last 14 days: Rita, Pavel, Olga, Otto = 4. Commitments made 2, done 1.
The window before: due 4, held 3, all on time, none empty, cancelled 1 (illness);
covered at its end (14 days before −28d): Rita, Pavel, Rosa = 3 of 11; made 1, done 1.
"""

from datetime import UTC, datetime, timedelta

import time_machine

from cadence.models import Occurrence
from cadence.services import plan_create
from coaching.models import CoachingSession
from coaching.services import (
    commitment_close,
    commitment_create,
    notes_save,
    session_cancel,
    session_mark_held,
    session_reschedule,
    team_call_review_create,
)
from people.services_teams import team_create, team_member_add
from tests.support.factories import UserFactory, one_on_one

NOW = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)
PLANTED = "PLANTED-NOTE-WORDS"  # written in every session: never on these pages


def days_ago(n, hours=0):
    return NOW - timedelta(days=n, hours=hours)


def _held(session, actor, *, written=True):
    if written:
        notes_save(
            session=session,
            actor=actor,
            base_version=0,
            changes={"reality": f"{PLANTED} #{session.pk}"},
        )
    return session_mark_held(session=session, actor=actor)


def _promise(session, actor):
    return commitment_create(
        session=session, actor=actor, text="Try it", evidence="A call", due_on=NOW.date()
    )


class World:
    pass


def build(org) -> World:
    w = World()
    w.org = org
    with time_machine.travel(days_ago(60), tick=False):
        w.reps = [org.rep, org.peer] + [UserFactory(manager=org.manager) for _ in range(3)]
        rita, pavel, rosa, raj, ruth = w.reps
        otto = UserFactory(manager=org.other_manager)
        w.team_a = team_create(name="Team A", lead=org.manager)
        w.team_b = team_create(name="Team B", lead=org.other_manager)
        for person in w.reps:
            team_member_add(team=w.team_a, person=person)
        for person in (org.other_rep, otto):
            team_member_add(team=w.team_b, person=person)

    with time_machine.travel(days_ago(35, hours=-1), tick=False):
        before = {p: one_on_one(org.manager, p, start=days_ago(35)) for p in (rita, pavel, rosa)}
        done_before = _promise(before[rita], org.manager)
        for session in before.values():
            _held(session, org.manager)
        commitment_close(commitment=done_before, actor=org.manager, status="done")
        raj_before = one_on_one(org.manager, raj, start=days_ago(35))
        session_cancel(session=raj_before, actor=org.manager, reason="sick")

    with time_machine.travel(days_ago(3, hours=-1), tick=False):
        rita_now = one_on_one(org.manager, rita, start=days_ago(3))
        kept, open_ = _promise(rita_now, org.manager), _promise(rita_now, org.manager)
        _held(rita_now, org.manager)
        commitment_close(commitment=kept, actor=org.manager, status="done")
        assert open_.status == "open"

    # Planned for Monday, moved back to the Sunday before: out of its week, so late (a
    # move within the week is kept).
    with time_machine.travel(days_ago(12), tick=False):
        rita_late = one_on_one(org.manager, rita, start=days_ago(9))
        rita_late = session_reschedule(session=rita_late, actor=org.manager, start=days_ago(10))
    with time_machine.travel(NOW, tick=False):
        _held(rita_late, org.manager)
        _held(one_on_one(org.manager, pavel, start=days_ago(3)), org.manager, written=False)
        rosa_now = one_on_one(org.manager, rosa, start=days_ago(3))
        session_cancel(session=rosa_now, actor=org.manager, reason="forecast_call")
        raj_missed = [one_on_one(org.manager, raj, start=days_ago(n)) for n in (10, 3)]
        CoachingSession.objects.filter(pk__in=[s.pk for s in raj_missed]).update(
            status="missed", missed_at=NOW
        )
        _held(one_on_one(org.manager, ruth, start=days_ago(20)), org.manager)
        review = team_call_review_create(
            actor=org.manager,
            team=w.team_a,
            start=days_ago(8),
            presenter=rita,
            call_url="https://calls.example.com/1",
            call_title="Discovery",
            call_date=days_ago(9).date(),
        )
        _held(review, org.manager)
        for person in (org.other_rep, otto):
            _held(one_on_one(org.other_manager, person, start=days_ago(3)), org.other_manager)

        # Raj's weekly plan: cancelled, then missed twice in a row.
        w.raj_plan = plan_create(
            kind="one_on_one",
            coach=org.manager,
            coachee=raj,
            weekday=6,
            local_time=datetime.min.time().replace(hour=12),
            time_zone="UTC",
            generate=False,
        )
        for session in (raj_before, *raj_missed):
            Occurrence.objects.create(
                plan=w.raj_plan, slot_start=session.original_start, session=session
            )
    return w
