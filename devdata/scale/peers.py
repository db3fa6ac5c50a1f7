"""Peer coaching at scale: pairs and trios of reps who coach each other, formed week
by week since peer coaching joined the programme a year ago — slowly at first, then
as the habit spread — so the organisation's peer numbers (`/hr/peers/`) and the
programme admins' All pairs have a year of history to page through.

Each pair is formed by a team lead (now and then a programme admin) from people on
one team or on two teams under the same manager, nobody in two live pairs at once.
Most members accept within days and the pair starts; about one in fourteen is
declined by someone and ends before it starts (some with a reason, for programme
admins). A started pair meets at its own rhythm — every two weeks mostly — through
its cadence plan (kind peer, naming the pair, as `cadence.services.pair_cadence_start`
makes it), for eight to thirty-two weeks, until whoever formed it ends it, or sooner
if a member leaves the company; the pairs still going at "now" have their sessions
up to the horizon, like every live plan. Sessions are held, cancelled or missed and
logged as `devdata.scale.cadence` does for group sessions.

Between sessions a started pair keeps what only its members read: each member commits
to a habit or two in the first week (about one in four is let go later, because it
stuck, and a new one taken up), the partner checks each habit in at every held session
(kept, partly, not yet; now and then a word), and after about one held session in three
someone writes a note for the pair.

Written with the cadence history's writers (same tables, same columns), after it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from cadence.models import EndReason, Recurrence
from cadence.recurrence import slots
from coaching.models import ParticipantRole, SessionKind, SessionStatus
from coaching.programme_content import AGREEMENT
from peers.models import (
    CheckInOutcome,
    Habit,
    HabitCheckIn,
    PairingRationale,
    PairMember,
    PairNote,
    PeerPair,
)

from . import words
from .cadence import GRACE, MOVE_DELTAS, MOVE_WEIGHTS, OOO, REASONS, Cadence, Plan
from .org import REP, Org, Person, Team
from .programme import Programme

WEEKS = 52  # peer coaching joined the programme this long before today
# New pairs a week per rep, from the first week to the last: the habit spreads.
FIRST_RATE, LAST_RATE = 0.0006, 0.0028
DECLINED = 0.07
TRIO = 0.15
ACROSS_TEAMS = 0.4  # from two teams under the same manager
LASTS_WEEKS = (8, 32)
INTERVALS, INTERVAL_WEIGHTS = (1, 2, 3), (15, 70, 15)
PEER_TIMES = [time(h, m) for h in (8, 11, 13, 15, 16) for m in (0, 30)]
HELD_RATE, CANCELLED_RATE = 0.78, 0.12  # the rest missed
LEAVING_REASONS = (
    "",
    "",
    "",
    "Quarter-end is eating my Fridays.",
    "We found our rhythm in the team call review instead.",
    "New role: I'll pair again once I'm settled.",
)
HABITS_EACH, HABITS_WEIGHTS = (0, 1, 2), (10, 60, 30)
HABIT_TAKEN_UP_DAYS = 7  # after the pair starts
RETIRED = 0.25  # habits let go (they stuck) 3 to 12 weeks in, a new one taken up
OUTCOMES, OUTCOME_WEIGHTS = CheckInOutcome.values, (50, 30, 20)  # kept, partly, not yet
CHECK_IN_NOTE = 0.3
PAIR_NOTE = 0.35  # held sessions after which a member writes the pair a note
SESSION_NOTES = (
    "Tried the two-question opener on three calls; it held twice.",
    "Swapped recordings: both of us rush the pricing moment.",
    "Next experiment: name the economic buyer before the demo.",
    "Practised the objection on each other; slower second time.",
)


@dataclass
class _Habit:
    id: int
    owner: Person
    since: datetime
    retired: datetime | None


class PeerHistory:
    def __init__(self, cadence: Cadence, org: Org, programme: Programme, *, seed: int):
        self.cadence, self.org, self.programme = cadence, org, programme
        self.rng = random.Random(f"{seed}:peers")
        self.now = cadence.now
        sink = cadence.sink
        self.pairs = sink.table(
            PeerPair,
            (
                "id",
                "rationale",
                "rationale_note",
                "focus_area_id",
                "agreement_text",
                "weekday",
                "local_time",
                "time_zone",
                "interval_weeks",
                "duration_minutes",
                "created_by_id",
                "created_at",
                "started_at",
                "ended_at",
            ),
        )
        self.members = sink.table(
            PairMember, ("id", "pair_id", "person_id", "accepted_at", "left_at", "left_reason")
        )
        self.habits = sink.table(
            Habit, ("id", "pair_id", "owner_id", "text", "created_at", "retired_at")
        )
        self.check_ins = sink.table(
            HabitCheckIn,
            ("id", "habit_id", "checked_by_id", "session_id", "outcome", "note", "checked_on",
             "created_at"),
        )  # fmt: skip
        self.pair_notes = sink.table(PairNote, ("id", "pair_id", "author_id", "text", "created_at"))
        self.pair_id = sink.next_id(PeerPair)
        self.member_id = sink.next_id(PairMember)
        self.habit_id = sink.next_id(Habit)
        self.check_in_id = sink.next_id(HabitCheckIn)
        self.pair_note_id = sink.next_id(PairNote)
        self.free_from: dict[int, datetime] = {}  # person → when their last pair ended
        self.siblings: dict[int, list[Team]] = {}  # a lead's manager → their teams
        for team in org.teams:
            boss = org.by_id[team.lead].manager
            self.siblings.setdefault(boss, []).append(team)

    def run(self) -> None:
        rng = self.rng
        first = max(self.cadence.start, self.now - timedelta(weeks=WEEKS))
        reps = sum(1 for p in self.org.people if p.level == REP)
        weeks = max((self.now - first).days // 7, 1)
        for week in range(weeks):
            rate = FIRST_RATE + (LAST_RATE - FIRST_RATE) * week / weeks
            expected = reps * rate
            count = int(expected) + (rng.random() < expected % 1)
            monday = first + timedelta(weeks=week)
            for _ in range(count):
                at = monday + timedelta(days=rng.randint(0, 4), hours=rng.randint(8, 17))
                if at < self.now:
                    self.form(at)

    # --- one pair -------------------------------------------------------------------------

    def _free(self, team: Team, at: datetime) -> list[Person]:
        by_id = self.org.by_id
        return [
            by_id[pk]
            for pk in team.members_at(at)
            if pk != team.lead and self.free_from.get(pk, at) <= at
        ]

    def _people(self, at: datetime) -> tuple[list[Person], Team] | None:
        rng = self.rng
        for _ in range(6):
            team = rng.choice(self.org.teams)
            size = 3 if rng.random() < TRIO else 2
            free = self._free(team, at)
            if rng.random() < ACROSS_TEAMS:
                boss = self.org.by_id[team.lead].manager
                other = rng.choice(self.siblings.get(boss, [team]))
                if other is not team and free:
                    there = self._free(other, at)
                    if len(there) >= size - 1:
                        return [rng.choice(free), *rng.sample(there, size - 1)], team
            if len(free) >= size:
                return rng.sample(free, size), team
        return None

    def form(self, at: datetime) -> None:
        found = self._people(at)
        if found is None:
            return
        people, team = found
        rng, org, now = self.rng, self.org, self.now
        formed_by = rng.choice(org.admins).id if rng.random() < 0.2 else team.lead
        area = self.programme.area_on(at.date()) if rng.random() < 0.6 else None
        answers = [at + timedelta(hours=rng.randint(2, 120)) for _ in people]
        says_no = rng.randrange(1, len(people)) if rng.random() < DECLINED else None
        started = ended = leaving = None
        if says_no is not None:
            ended = answers[says_no]
        else:
            started = max(answers)
            planned = started + timedelta(weeks=rng.randint(*LASTS_WEEKS))
            leaving = min((p.left for p in people if p.left and p.left < planned), default=None)
            ended = leaving or planned
        if started is not None and started >= now:
            started = None  # still forming: someone has not answered yet
        if ended is not None and (ended >= now or started is None and says_no is None):
            ended = None
        pk = self.pair_id()
        weekday, local_time = rng.randrange(5), rng.choice(PEER_TIMES)
        interval = rng.choices(INTERVALS, INTERVAL_WEIGHTS)[0]
        self.pairs.add(
            (pk, rng.choice(PairingRationale.values), "", area.id if area else None, AGREEMENT,
             weekday, local_time, people[0].tz, interval, 30, formed_by, at, started, ended)
        )  # fmt: skip
        for i, person in enumerate(people):
            accepted = answers[i] if answers[i] < (ended or now) and i != says_no else None
            left, reason = None, ""
            if i == says_no and ended is not None:
                left, reason = ended, rng.choice(LEAVING_REASONS)
            elif leaving is not None and ended is not None and person.left == leaving:
                left = ended
            self.members.add((self.member_id(), pk, person.id, accepted, left, reason))
            self.free_from[person.id] = ended or datetime.max.replace(tzinfo=at.tzinfo)
        if started is not None:
            self._meet(pk, people, started, ended, weekday, local_time, interval)

    def _meet(self, pair, people, started, ended, weekday, local_time, interval) -> None:
        """The pair's plan from the day it started and a session at each of its slots."""
        plan = self.cadence._plan(
            kind=SessionKind.PEER,
            coach=people[0],
            coachee=people[1],
            team=None,
            start=started,
            end=ended,
            assignment=None,
            recurrence=Recurrence.WEEKLY,
            weekday=weekday,
            local_time=local_time,
            duration=30,
            interval=interval,
            pair=pair,
            end_reason=EndReason.PAIR_ENDED.value,
        )
        until = min(ended or self.now, self.now)
        habits = self._habits(pair, people, started, until)
        for slot in slots(plan.rule, started, min(ended or self.cadence.horizon,
                                                   self.cadence.horizon)):  # fmt: skip
            held = self._session(plan, people, slot)
            if held is not None:
                self._between_sessions(pair, people, habits, *held, until=until)

    def _habits(self, pair, people, started, until) -> list[_Habit]:
        """Each member's habits from the first week; one let go later is followed by
        a new one the same day (never more than two at a time)."""
        rng, taken = self.rng, []
        for person in people:
            for _ in range(rng.choices(HABITS_EACH, HABITS_WEIGHTS)[0]):
                at = started + timedelta(days=rng.uniform(0, HABIT_TAKEN_UP_DAYS))
                while at < until:
                    retired = at + timedelta(weeks=rng.uniform(3, 12))
                    if rng.random() >= RETIRED or retired >= until:
                        retired = None
                    habit = _Habit(self.habit_id(), person, at, retired)
                    self.habits.add((habit.id, pair, person.id, rng.choice(words.HABITS), at,
                                     retired))  # fmt: skip
                    taken.append(habit)
                    at = retired or until
        return taken

    def _between_sessions(self, pair, people, habits, session, start, held_at, *, until):
        """At a held session the partner checks in each habit kept then; afterwards,
        now and then, a note for the pair — while the pair still runs (a session held
        just before it ended may be logged after)."""
        rng = self.rng
        if held_at >= until:
            return
        for habit in habits:
            if habit.since < start and (habit.retired is None or habit.retired > held_at):
                partner = rng.choice([p for p in people if p is not habit.owner])
                note = rng.choice(words.CHECK_IN_NOTES) if rng.random() < CHECK_IN_NOTE else ""
                self.check_ins.add(
                    (self.check_in_id(), habit.id, partner.id, session,
                     rng.choices(OUTCOMES, OUTCOME_WEIGHTS)[0], note,
                     start.astimezone(ZoneInfo(partner.tz)).date(), held_at)
                )  # fmt: skip
        if rng.random() < PAIR_NOTE:
            at = held_at + timedelta(hours=rng.uniform(1, 72))
            if at < until:
                self.pair_notes.add(
                    (self.pair_note_id(), pair, rng.choice(people).id,
                     rng.choice(words.PAIR_NOTES), at)
                )  # fmt: skip

    def _session(
        self, plan: Plan, people: list[Person], slot: datetime
    ) -> tuple[int, datetime, datetime] | None:
        """Held (now and then moved first), cancelled or missed — or not logged yet in
        the last days, and scheduled ahead — as a group session is. A held session's
        id, start and when it was logged."""
        c, rng = self.cadence, self.rng
        start, end = slot, slot + timedelta(minutes=plan.duration)
        status = SessionStatus.SCHEDULED
        held_at = held_by = cancelled_at = cancelled_by = missed_at = None
        reason = text = ""
        roll = rng.random()
        if slot >= self.now:
            pass
        elif roll < HELD_RATE:
            if rng.random() < 0.1:
                start = slot + rng.choices(MOVE_DELTAS, MOVE_WEIGHTS)[0]
                end = start + timedelta(minutes=plan.duration)
            held_at = end + timedelta(minutes=rng.randint(-5, 240))
            if held_at < self.now:
                status, held_by = SessionStatus.HELD, people[0].id
                if rng.random() < 0.5:
                    text = rng.choice(SESSION_NOTES)
            else:
                held_at = None
        elif roll < HELD_RATE + CANCELLED_RATE:
            cancelled_at = slot - timedelta(hours=rng.randint(1, 48))
            if cancelled_at < self.now:
                status, cancelled_by = SessionStatus.CANCELLED, rng.choice(people).id
                reason = rng.choice([OOO, *REASONS])
            else:
                cancelled_at = None
        else:
            missed_at = end + GRACE + timedelta(minutes=rng.randint(0, 20))
            if slot < c.tail_from and missed_at < self.now:
                status = SessionStatus.MISSED
            else:
                missed_at = None
        session = c.session_id()
        held = status == SessionStatus.HELD
        created_at = max(plan.created_at, slot - timedelta(weeks=6))
        c.sessions.add(
            (session, SessionKind.PEER, status, start, slot, plan.duration, end, None, None,
             "", "", held_at, held_by, held and not text, cancelled_at, cancelled_by, reason,
             "", missed_at, created_at)
        )  # fmt: skip
        for order, person in enumerate(people):
            c.participants.add((c.participant_id(), session, person.id, ParticipantRole.PEER,
                                order, start))  # fmt: skip
        c.occurrences.add((c.occurrence_id(), plan.id, slot, session))
        notes = c.notes_id()
        if text:
            c.notes.add((notes, session, "", "", "", "", "", text, 1, None, held_at, held_by))
            c.revisions.add((c.revision_id(), notes, 1, "", "", "", "", "", text, held_by, held_at))
        else:
            c.notes.add((notes, session, "", "", "", "", "", "", 0, None, created_at, None))
        return (session, start, held_at) if held else None
