"""Cadence history: plans, and for every planned slot the session the engine would
have materialised — with the participants, shared notes and occurrence in the shapes
`cadence.engine` gives them — and what then happened to it.

Plans: a weekly 1:1 for every manager–report pair (each stint of a report: a move or
a departure ends the plan, "left the team", as `cadence.services.follow_membership`
does), a monthly manager review for every pair whose report is a manager, and per
team a weekly (or fortnightly) call review and for about half the teams a monthly
role-play on the focus area. Team plans and the pairs below a team lead carry the
team's policy assignment. Every live plan has its sessions up to the horizon
(`CADENCE_HORIZON_WEEKS`) and `generated_until` there, so the engine carries on
from it without doubling a slot.

What happened, per slot (shaped by the coach's profile in `org`, the people's
holidays, the region's public holidays, quarter ends):
- held — on time, or moved first (a new `scheduled_start`, `original_start` kept);
  logged held a little after the end, now and then the next day, a few only after
  the sweep had marked them missed (so they keep `missed_at`);
- held but empty — logged with nothing written and nothing committed, or with the
  notes of the last session copied (coaching theatre, a habit of some coaches);
- missed — `missed_at` when the sweep would have marked it (end + grace); misses run
  in streaks for coaches who are slipping;
- cancelled — with a reason: forecast calls pile up at quarter ends, out of office in
  holidays, illness in winter, travel for those who travel; `cancelled_at` before the
  start.
The last four days are not all logged yet: unlogged sessions there are still
`scheduled` (the missed-session sweep finds those past the grace period). Sessions
from "now" on are scheduled, a few already moved or cancelled ahead, some prepared.

Held 1:1s and manager reviews carry GROW notes (with one revision per save: the
coachee's preparation, then the coach's), commitments that close at a later session
(most done, some dropped, a few left open and overdue), now and then an agenda item
and a private note; in the last 26 weeks the coachee rates some of them.

Written straight to the tables (COPY), not through the services: the services check
against the wall clock (no session more than 60 days back, no commitment due in the
past), take locks and write audit rows per call — right for people, a thousand times
too slow for a million rows of history. Every row keeps the models' constraints and
the invariants the app relies on: one live plan per pair and kind, one occurrence per
(plan, slot), a shared-notes row for every session, `held_at` on held sessions, a
reason on cancelled ones, `scheduled_end` = start + duration, `held_but_empty` as
`coaching.services.is_held_but_empty` would decide."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo

from django.conf import settings

from cadence.models import CadencePlan, EndReason, Occurrence, Recurrence
from cadence.recurrence import Rule, slots
from coaching.models import (
    AgendaItem,
    CancelReason,
    CoachingSession,
    Commitment,
    CommitmentStatus,
    NotesRevision,
    ParticipantRole,
    PrivateNote,
    SessionKind,
    SessionParticipant,
    SessionRating,
    SessionStatus,
    SharedNotes,
)
from coaching.ratings import RATING_DAYS

from . import words
from .org import REP, CoachProfile, Org, Person, Team, adherence_at
from .programme import Programme
from .sink import Sink

GRACE = timedelta(hours=settings.CADENCE_MISSED_GRACE_HOURS)
TAIL = timedelta(days=4)  # the last days: not everything is logged yet
RATINGS_WEEKS = 26  # session ratings arrived this long ago

HELD, MISSED = "held", "missed"
OOO = CancelReason.OUT_OF_OFFICE.value
FORECAST = CancelReason.FORECAST_CALL.value
SICK = CancelReason.SICK.value
TRAVEL = CancelReason.TRAVEL.value
REASONS = [
    FORECAST,
    CancelReason.CUSTOMER_ESCALATION.value,
    OOO,
    SICK,
    TRAVEL,
    CancelReason.CLASHING_MEETING.value,
    CancelReason.OTHER.value,
]
BASE_WEIGHTS = (14, 12, 10, 12, 12, 30, 4)
OTHER_NOTES = (
    "Offsite all day.",
    "Onboarding the new starter.",
    "Team lunch ran into it.",
    "Internet outage at home.",
)
RATING_COMMENTS = (
    "Useful — we stayed on one call.",
    "Felt rushed today.",
    "Good questions, I left with a plan.",
    "More status update than coaching.",
    "Listening back to the recording together helped a lot.",
    "Would like more time on the Options step.",
)
MOVES = (
    (timedelta(days=1), 30),
    (timedelta(days=-1), 15),
    (timedelta(days=2), 10),
    (timedelta(hours=2), 15),
    (timedelta(hours=-2), 10),
    (timedelta(hours=4), 10),
    (timedelta(hours=1), 10),
)
MOVE_DELTAS = [m for m, _ in MOVES]
MOVE_WEIGHTS = [w for _, w in MOVES]
AGENDA = (
    "Walk through yesterday's call together",
    "The pricing moment I want to get right",
    "Help with the stakeholder map",
    "Feedback on my discovery questions",
)
DAY_TIMES = [time(h, m) for h in range(9, 17) for m in (0, 30) if h != 12]


# --- Calendar ------------------------------------------------------------------------------


def _easter(year: int) -> date:
    """Gregorian Easter Sunday (the anonymous algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month = (h + ell - 7 * m + 114) // 31
    day = (h + ell - 7 * m + 114) % 31 + 1
    return date(year, month, day)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


@cache
def holiday(region: int, monday: date) -> float:
    """The chance a session that week falls on a public holiday or a bridge day."""
    sunday = monday + timedelta(days=6)
    year = monday.year

    def within(day: date) -> bool:
        return monday <= day <= sunday

    if within(date(year, 12, 25)) or within(date(sunday.year, 1, 1)):
        return 0.6
    if region in (0, 1):  # North America
        thanksgiving = date(year, 11, 22 + (3 - date(year, 11, 22).weekday()) % 7)
        if within(thanksgiving):
            return 0.35
        if within(date(year, 7, 4)):
            return 0.22
        return 0.0
    easter = _easter(year)
    if region == 2:  # EMEA
        if within(easter - timedelta(days=2)) or within(easter + timedelta(days=1)):
            return 0.25
        return 0.08 if monday.month == 8 else 0.0
    if region == 3:  # APAC: lunar new year, near enough
        return 0.25 if monday.month == 2 and monday.day <= 14 else 0.0
    if within(easter - timedelta(days=47)):  # Latin America: carnival
        return 0.35
    return 0.0


def quarter_end(monday: date) -> bool:
    friday = monday + timedelta(days=4)
    return friday.month in (3, 6, 9, 12) and friday.day >= 17


def winter(region: int, monday: date) -> bool:
    southern = region in (3, 4)
    return monday.month in ((6, 7, 8) if southern else (12, 1, 2))


@cache
def reason_weights(region: int, monday: date, travels: float) -> tuple:
    w = list(BASE_WEIGHTS)
    if quarter_end(monday):
        w[0] *= 6
    if winter(region, monday):
        w[3] *= 1.8
    w[4] *= travels
    return tuple(w)


# --- Plans -------------------------------------------------------------------------------


@dataclass(slots=True)
class Plan:
    id: int
    kind: str
    coach: Person
    coachee: Person | None
    team: Team | None
    rule: Rule
    start: datetime
    end: datetime | None
    duration: int
    created_at: datetime
    prev_missed: bool = False
    last_written: tuple | None = None
    host: int = 0


class Cadence:
    def __init__(self, sink: Sink, org: Org, programme: Programme, *, seed: int):
        self.sink, self.org, self.programme = sink, org, programme
        self.rng = random.Random(f"{seed}:cadence")
        clock = org.clock
        self.now, self.start, self.horizon = clock.now, clock.start, clock.horizon
        self.tail_from = self.now - TAIL
        self.ratings_from = self.now - timedelta(weeks=RATINGS_WEEKS)
        self.start_monday = clock.start.date()
        self.today = clock.today
        self.grids: dict[int, list[tuple[int, time]]] = {}
        self.pending: dict[int, list[list]] = {}  # owner → open commitments (rows to be)

        t = sink.table
        self.plans = t(
            CadencePlan,
            (
                "id",
                "kind",
                "coach_id",
                "coachee_id",
                "team_id",
                "assignment_id",
                "pair_id",
                "recurrence",
                "weekday",
                "interval_weeks",
                "week_of_month",
                "local_time",
                "duration_minutes",
                "time_zone",
                "starts_on",
                "ended_at",
                "end_reason",
                "generated_until",
                "created_at",
                "updated_at",
            ),
        )
        self.sessions = t(
            CoachingSession,
            (
                "id",
                "kind",
                "status",
                "scheduled_start",
                "original_start",
                "duration_minutes",
                "scheduled_end",
                "team_id",
                "focus_area_id",
                "scenario",
                "drills",
                "held_at",
                "held_by_id",
                "held_but_empty",
                "cancelled_at",
                "cancelled_by_id",
                "cancel_reason",
                "cancel_note",
                "missed_at",
                "created_at",
            ),
        )
        self.participants = t(
            SessionParticipant,
            ("id", "session_id", "person_id", "role", "speaking_order", "scheduled_start"),
        )
        self.notes = t(
            SharedNotes,
            (
                "id",
                "session_id",
                "goal",
                "reality",
                "reality_evidence_url",
                "options",
                "will",
                "notes",
                "version",
                "coachee_prepared_at",
                "updated_at",
                "updated_by_id",
            ),
        )
        self.revisions = t(
            NotesRevision,
            (
                "id",
                "notes_id",
                "version",
                "goal",
                "reality",
                "reality_evidence_url",
                "options",
                "will",
                "notes_text",
                "saved_by_id",
                "saved_at",
            ),
        )
        self.occurrences = t(Occurrence, ("id", "plan_id", "slot_start", "session_id"))
        self.commitments = t(
            Commitment,
            (
                "id",
                "owner_id",
                "text",
                "evidence",
                "due_on",
                "status",
                "drop_reason",
                "created_in_id",
                "created_by_id",
                "created_at",
                "closed_at",
                "closed_in_id",
                "version",
            ),
        )
        self.agenda = t(AgendaItem, ("id", "session_id", "author_id", "text", "done", "created_at"))
        self.private = t(
            PrivateNote, ("id", "session_id", "author_id", "text", "version", "updated_at")
        )
        self.ratings = t(
            SessionRating,
            (
                "id",
                "session_id",
                "rater_id",
                "coach_id",
                "session_start",
                "closes_at",
                "score",
                "comment",
                "created_at",
                "updated_at",
            ),
        )
        ids = sink.next_id
        self.plan_id = ids(CadencePlan)
        self.session_id = ids(CoachingSession)
        self.participant_id = ids(SessionParticipant)
        self.notes_id = ids(SharedNotes)
        self.revision_id = ids(NotesRevision)
        self.occurrence_id = ids(Occurrence)
        self.commitment_id = ids(Commitment)
        self.agenda_id = ids(AgendaItem)
        self.private_id = ids(PrivateNote)
        self.rating_id = ids(SessionRating)

    # --- the whole history -----------------------------------------------------------------

    def run(self, progress=None) -> None:
        people = self.org.people
        for i, person in enumerate(people):
            self.coachee(person)
            if progress and i % 1000 == 999:
                progress(f"{i + 1:,} of {len(people):,} people's 1:1s and reviews")
        for team in self.org.teams:
            self.team_sessions(team)

    # --- slots in a coach's week -----------------------------------------------------------

    def _slot_for(self, coach: Person) -> tuple[int, time]:
        """A free weekly slot in the coach's calendar: their two or three 1:1 days
        first, then the rest of the week."""
        grid = self.grids.get(coach.id)
        if grid is None:
            rng = self.rng
            days = rng.sample(range(5), 5)
            if days[0] == 4:
                days.append(days.pop(0))  # Friday is nobody's first choice
            first = rng.randrange(0, 6)
            times = DAY_TIMES[first:] + DAY_TIMES[:first]
            # Five in a row on each of their three 1:1 days, then anywhere in the week.
            grid = [(d, t) for d in days[:3] for t in times[:5]]
            grid += [(d, t) for d in days for t in times if (d, t) not in grid]
            self.grids[coach.id] = grid
        return grid.pop(0) if grid else (self.rng.randrange(5), time(17, 0))

    def _plan(
        self,
        *,
        kind: str,
        coach: Person,
        coachee: Person | None,
        team: Team | None,
        start: datetime,
        end: datetime | None,
        assignment: int | None,
        recurrence: str,
        weekday: int,
        local_time: time,
        duration: int,
        interval: int = 1,
        week_of_month: int = 1,
        pair: int | None = None,
        end_reason: str = EndReason.LEFT_TEAM.value,
    ) -> Plan:
        tz = coach.tz
        starts_on = start.astimezone(ZoneInfo(tz)).date()
        rule = Rule(
            recurrence=recurrence,
            weekday=weekday,
            local_time=local_time,
            time_zone=tz,
            starts_on=starts_on,
            interval_weeks=interval,
            week_of_month=week_of_month,
        )
        created_at = start - timedelta(days=self.rng.randint(1, 10))
        pk = self.plan_id()
        self.plans.add(
            (
                pk,
                kind,
                coach.id,
                coachee.id if coachee else None,
                team.id if team else None,
                assignment,
                pair,
                recurrence,
                weekday,
                interval,
                week_of_month,
                local_time,
                duration,
                tz,
                starts_on,
                end,
                end_reason if end else "",
                min(end + timedelta(weeks=6), self.horizon) if end else self.horizon,
                created_at,
                created_at,
            )
        )
        return Plan(pk, kind, coach, coachee, team, rule, start, end, duration, created_at)

    # --- 1:1s and manager reviews, per coachee ---------------------------------------------

    def coachee(self, person: Person) -> None:
        org = self.org
        plans = []
        for stint in person.stints:
            coach = org.by_id[stint.manager]
            team = org.team_by_id.get(stint.team) if stint.team else None
            adopted = team.adopted if team else org.region_adopted[coach.region]
            begins = max(stint.start, adopted)
            if stint.end is not None and begins >= stint.end:
                continue
            weekday, at = self._slot_for(coach)
            plans.append(
                self._plan(
                    kind=SessionKind.ONE_ON_ONE,
                    coach=coach,
                    coachee=person,
                    team=None,
                    start=begins,
                    end=stint.end,
                    assignment=self.programme.assignments.get(stint.team) if stint.team else None,
                    recurrence=Recurrence.WEEKLY,
                    weekday=weekday,
                    local_time=at,
                    duration=30,
                )
            )
        if person.coach is not None and person.stints and person.active:
            # A manager: their manager reviews their coaching once a month.
            coach = org.by_id[person.stints[-1].manager]
            begins = max(person.stints[-1].start, org.region_adopted[coach.region])
            begins += timedelta(weeks=self.rng.randint(2, 8))
            weekday, at = self._slot_for(coach)
            plans.append(
                self._plan(
                    kind=SessionKind.MANAGER_REVIEW,
                    coach=coach,
                    coachee=person,
                    team=None,
                    start=begins,
                    end=None,
                    assignment=self.programme.assignments.get(person.led) if person.led else None,
                    recurrence=Recurrence.MONTHLY_NTH,
                    weekday=weekday,
                    local_time=at,
                    duration=45,
                    week_of_month=self.rng.randint(1, 4),
                )
            )
        if not plans:
            return
        timeline = sorted(
            (slot, i)
            for i, plan in enumerate(plans)
            for slot in slots(plan.rule, plan.start, min(plan.end or self.horizon, self.horizon))
        )
        for slot, i in timeline:
            self.pair_session(plans[i], slot)
        for row in self.pending.pop(person.id, ()):
            self.commitments.add(tuple(row))

    def _outcome(self, plan: Plan, profile: CoachProfile, monday: date, people) -> str:
        rng = self.rng
        region = plan.coach.region
        for i, p in enumerate(people):
            if monday in p.vacations:  # the coach (first) often moves it; a coachee away, less
                return OOO if rng.random() < (0.5 if i == 0 else 0.85) else "moved-held"
        if rng.random() < holiday(region, monday):
            return OOO
        if plan.prev_missed and rng.random() < profile.sticky:
            return MISSED
        week = (monday - self.start_monday).days // 7
        p_held = adherence_at(profile, week) * (0.85 if quarter_end(monday) else 1.0)
        if plan.kind != SessionKind.ONE_ON_ONE:
            p_held *= 0.92
        u = rng.random()
        if u < p_held:
            return HELD
        if rng.random() < profile.miss_share:
            return MISSED
        travels = plan.coachee.travels if plan.coachee else 1.0
        return rng.choices(REASONS, reason_weights(region, monday, travels))[0]

    def pair_session(self, plan: Plan, slot: datetime) -> None:
        rng = self.rng
        coach, coachee = plan.coach, plan.coachee
        profile = coach.coach
        local = slot.astimezone(ZoneInfo(plan.rule.time_zone))
        monday = _monday(local.date())
        outcome = self._outcome(plan, profile, monday, (coach, coachee))
        start = slot
        if outcome == "moved-held":
            start, outcome = slot - timedelta(days=3), HELD
        elif rng.random() < profile.move_rate:
            start = slot + rng.choices(MOVE_DELTAS, MOVE_WEIGHTS)[0]
        duration = plan.duration
        end = start + timedelta(minutes=duration)
        session = self.session_id()
        is_one_on_one = plan.kind == SessionKind.ONE_ON_ONE

        status = SessionStatus.SCHEDULED
        held_at = held_by = cancelled_at = cancelled_by = missed_at = None
        reason = note = ""
        if slot >= self.now:  # ahead: a few cancelled or moved already
            if outcome == OOO:
                cancelled_at = slot - timedelta(days=rng.randint(1, 6), minutes=rng.randint(0, 300))
                if cancelled_at < self.now:
                    status, reason, cancelled_by = SessionStatus.CANCELLED, OOO, coach.id
                else:
                    cancelled_at = None
            if start != slot and (start < self.now or rng.random() < 0.5):
                start, end = slot, slot + timedelta(minutes=duration)
            outcome = "ahead"
        elif outcome == HELD:
            held_at = end + timedelta(minutes=rng.randint(-5, 90))
            late = rng.random()
            if late < 0.015:
                missed_at = end + GRACE + timedelta(minutes=rng.randint(0, 20))
                held_at = missed_at + timedelta(hours=rng.randint(1, 72))
            elif late < 0.07:
                held_at += timedelta(hours=rng.randint(14, 28))
            if held_at < self.now:
                status, held_by = SessionStatus.HELD, coach.id
            else:
                held_at = missed_at = None
                outcome = "unlogged"
        elif outcome == MISSED:
            missed_at = end + GRACE + timedelta(minutes=rng.randint(0, 20))
            if slot < self.tail_from and missed_at < self.now:
                status = SessionStatus.MISSED
            else:
                missed_at = None  # nobody logged it, the sweep has not been yet
        else:
            ahead = (1, 6) if outcome in (OOO, TRAVEL) else (0, 0)
            cancelled_at = slot - timedelta(days=rng.randint(*ahead), minutes=rng.randint(15, 480))
            if cancelled_at < self.now:
                status, reason, cancelled_by = SessionStatus.CANCELLED, outcome, coach.id
                notes_for = words.CANCEL_NOTES.get(outcome, OTHER_NOTES)
                note = rng.choice(notes_for).format(account=rng.choice(words.ACCOUNT_NAMES))
            else:
                cancelled_at = None
            start, end = slot, slot + timedelta(minutes=duration)
        plan.prev_missed = outcome == MISSED

        # Notes, commitments, agenda, private note, rating.
        goal = theme = None
        if coachee is not None:
            span = self.programme.goal_at(coachee.id, slot)
            if span is not None:
                goal, theme = span.title, span.theme
        theme = theme or ("multithreading" if coachee.level != REP else "discovery")
        written = None
        prepared_at = None
        held = status == SessionStatus.HELD
        empty = False
        if held:
            if rng.random() < profile.notes_rate:
                if plan.last_written is not None and rng.random() < profile.theatre:
                    written, empty = plan.last_written, True
                else:
                    written = self._grow(plan, coachee, theme, goal, slot)
                    if rng.random() < coachee.prep_rate:
                        prepared_at = start - timedelta(hours=rng.randint(1, 40))
            else:
                empty = True
        elif (status == SessionStatus.MISSED and rng.random() < 0.2) or (
            status == SessionStatus.SCHEDULED
            and self.now <= slot < self.now + timedelta(days=7)
            and rng.random() < coachee.prep_rate * 0.5
        ):
            prepared_at = min(start - timedelta(hours=rng.randint(1, 40)), self.now)
            written = self._grow(plan, coachee, theme, goal, slot)
            written = (written[0], written[1], written[2], "", "", "")

        created_at = max(plan.created_at, slot - timedelta(weeks=settings.CADENCE_HORIZON_WEEKS))
        self.sessions.add(
            (
                session,
                plan.kind,
                status,
                start,
                slot,
                duration,
                end,
                None,
                None,
                "",
                "",
                held_at,
                held_by,
                held and empty,
                cancelled_at,
                cancelled_by,
                reason,
                note,
                missed_at,
                created_at,
            )
        )
        pid = self.participant_id
        self.participants.add((pid(), session, coach.id, ParticipantRole.COACH, 0, start))
        self.participants.add((pid(), session, coachee.id, ParticipantRole.COACHEE, 1, start))
        self.occurrences.add((self.occurrence_id(), plan.id, slot, session))
        notes_id = self.notes_id()
        written_at = held_at + timedelta(minutes=rng.randint(0, 20)) if held else None
        if written is None:
            self.notes.add((notes_id, session, "", "", "", "", "", "", 0, None, created_at, None))
        else:
            goal_text, reality, url, options, will, extra = written
            version = 0
            if prepared_at is not None and not empty:
                version += 1
                self.revisions.add(
                    (
                        self.revision_id(),
                        notes_id,
                        version,
                        goal_text,
                        reality,
                        url,
                        "",
                        "",
                        "",
                        coachee.id,
                        prepared_at,
                    )
                )
            if held:
                version += 1
                self.revisions.add(
                    (
                        self.revision_id(),
                        notes_id,
                        version,
                        goal_text,
                        reality,
                        url,
                        options,
                        will,
                        extra,
                        coach.id,
                        written_at,
                    )
                )
                plan.last_written = written
            self.notes.add(
                (
                    notes_id,
                    session,
                    goal_text,
                    reality,
                    url,
                    options,
                    will,
                    extra,
                    version,
                    None if empty else prepared_at,
                    written_at if held else prepared_at,
                    coach.id if held else coachee.id,
                )
            )
            if prepared_at is not None and rng.random() < 0.25 and not empty:
                self.agenda.add(
                    (
                        self.agenda_id(),
                        session,
                        coachee.id,
                        rng.choice(AGENDA),
                        held and rng.random() < 0.7,
                        prepared_at,
                    )
                )
        if held:
            self._close_commitments(coachee.id, session, local.date(), written_at)
            if written is not None and not empty:
                self._make_commitments(plan, coachee, session, local.date(), written_at, theme)
                if rng.random() < profile.private_rate:
                    self.private.add(
                        (
                            self.private_id(),
                            session,
                            coach.id,
                            rng.choice(words.COACH_PRIVATE_NOTES).format(
                                first=coachee.first, account=rng.choice(words.ACCOUNT_NAMES)
                            ),
                            1,
                            written_at,
                        )
                    )
            if start >= self.ratings_from and coachee.rates and rng.random() < coachee.rates:
                rated = held_at + timedelta(minutes=rng.randint(30, 4 * 24 * 60))
                if rated < self.now and rated < start + timedelta(days=RATING_DAYS):
                    score = max(1, min(5, round(rng.gauss(profile.usefulness, 0.8))))
                    comment = rng.choice(RATING_COMMENTS) if rng.random() < 0.2 else ""
                    self.ratings.add(
                        (
                            self.rating_id(),
                            session,
                            coachee.id,
                            coach.id,
                            start,
                            held_at + timedelta(days=RATING_DAYS),
                            score,
                            comment,
                            rated,
                            rated,
                        )
                    )
        elif (
            is_one_on_one
            and status == SessionStatus.SCHEDULED
            and slot >= self.now
            and rng.random() < 0.06
        ):
            self.agenda.add(
                (
                    self.agenda_id(),
                    session,
                    coach.id,
                    rng.choice(words.COACH_AGENDA),
                    False,
                    self.now - timedelta(hours=rng.randint(1, 72)),
                )
            )

    def _grow(self, plan: Plan, coachee: Person, theme_key: str, goal: str | None, slot) -> tuple:
        rng = self.rng
        account = rng.choice(words.ACCOUNT_NAMES)
        if plan.kind == SessionKind.MANAGER_REVIEW:
            reality = rng.choice(words.MANAGER_REVIEW_NOTES).format(
                a=rng.randint(55, 98), c=rng.randint(50, 100), first=coachee.first
            )
            return (
                goal or rng.choice(words.GOAL_LIKE_MANAGER),
                reality,
                "",
                "- Protect the 1:1 slot through quarter end\n- Score one call together before "
                "the review",
                "Listen to one 1:1 recording with me before next month's review.",
                "",
            )
        theme = words.THEMES[theme_key]
        ts = f"{rng.randint(2, 34):02d}:{rng.randint(0, 59):02d}"
        reality = (
            f"Pulled up the {account} {rng.choice(theme.calls)}. "
            f"{rng.choice(theme.sideways).format(ts=ts)} {rng.choice(theme.happy)}"
        )
        url = f"https://calls.example.com/{coachee.id}/{slot:%Y%m%d}"
        options = "\n".join(f"- {o}" for o in rng.sample(theme.options, 2))
        will = rng.choice(theme.wills).format(account=account)
        extra = (
            rng.choice(words.COACH_SHARED_NOTES).format(ts=ts, first=coachee.first, account=account)
            if rng.random() < 0.3
            else ""
        )
        return (goal or rng.choice(theme.goals), reality, url, options, will, extra)

    def _make_commitments(self, plan, coachee, session, day, written_at, theme_key) -> None:
        rng = self.rng
        count = rng.choices((0, 1, 2), (4, 5, 1))[0]
        if not count:
            return
        if plan.kind == SessionKind.MANAGER_REVIEW:
            pool = (
                (
                    "Protect every 1:1 slot through quarter end",
                    "No 1:1 moved for the forecast call",
                ),
                ("Score one call per rep before the next review", "Scorecards in Tandem"),
            )
        else:
            pool = words.THEMES[theme_key].commitments
        pending = self.pending.setdefault(coachee.id, [])
        for text, evidence in rng.sample(pool, min(count, len(pool))):
            account = rng.choice(words.ACCOUNT_NAMES)
            pending.append(
                [
                    self.commitment_id(),
                    coachee.id,
                    text.format(account=account),
                    evidence.format(account=account),
                    day + timedelta(days=rng.randint(5, 14)),
                    CommitmentStatus.OPEN,
                    "",
                    session,
                    plan.coach.id,
                    written_at,
                    None,
                    None,
                    0,
                ]
            )

    def _close_commitments(self, owner: int, session: int, day: date, at: datetime) -> None:
        """Open commitments follow their owner to each held session: most are closed
        there once due, some before, a few dropped, a few left to go overdue."""
        pending = self.pending.get(owner)
        if not pending:
            return
        rng = self.rng
        keep = []
        for row in pending:
            if row[7] == session or row[9] >= at:  # made here, or logged after this one
                keep.append(row)
                continue
            u = rng.random()
            due = row[4] <= day
            if (due and u < 0.78) or (not due and u < 0.3):
                row[5] = CommitmentStatus.DONE
            elif due and u < 0.86:
                row[5] = CommitmentStatus.DROPPED
                row[6] = rng.choice(words.DROP_REASONS)
            else:
                keep.append(row)
                continue
            row[10], row[12] = at, 1
            row[11] = session if rng.random() < 0.9 else None
            self.commitments.add(tuple(row))
        self.pending[owner] = keep

    # --- team sessions -------------------------------------------------------------------

    def team_sessions(self, team: Team) -> None:
        lead = self.org.by_id[team.lead]
        assignment = self.programme.assignments.get(team.id)
        if team.call_review:
            starts, interval, weekday, hour, minute = team.call_review
            plan = self._plan(
                kind=SessionKind.TEAM_CALL_REVIEW,
                coach=lead,
                coachee=None,
                team=team,
                start=starts,
                end=None,
                assignment=assignment,
                recurrence=Recurrence.WEEKLY,
                weekday=weekday,
                local_time=time(hour, minute),
                duration=45,
                interval=interval,
            )
            for slot in slots(plan.rule, plan.start, self.horizon):
                self.group_session(plan, slot)
        if team.role_play:
            starts, week_of_month, weekday, hour, minute = team.role_play
            plan = self._plan(
                kind=SessionKind.ROLE_PLAY,
                coach=lead,
                coachee=None,
                team=team,
                start=starts,
                end=None,
                assignment=assignment,
                recurrence=Recurrence.MONTHLY_NTH,
                weekday=weekday,
                local_time=time(hour, minute),
                duration=60,
                week_of_month=week_of_month,
            )
            for slot in slots(plan.rule, plan.start, self.horizon):
                self.group_session(plan, slot)

    def group_session(self, plan: Plan, slot: datetime) -> None:
        """A team call review (host in turn, peers, the lead last) or a role-play (the
        lead coaching, the team taking part), for the team's members at the time."""
        rng, by_id = self.rng, self.org.by_id
        lead = plan.coach
        members = [by_id[pk] for pk in plan.team.members_at(slot) if pk != lead.id]
        if not members:
            return  # the engine makes nothing for a team with nobody on it
        members.sort(key=lambda p: (p.name, p.id))
        local = slot.astimezone(ZoneInfo(plan.rule.time_zone))
        area = None
        if plan.kind == SessionKind.ROLE_PLAY:
            area = self.programme.area_on(local.date(), plan.team.id)
            if area is None:
                return  # a role-play practises a focus area; none is active
        monday = _monday(local.date())
        outcome = self._outcome(plan, lead.coach, monday, (lead,))
        if outcome == "moved-held":
            outcome = OOO
        duration = plan.duration
        start, end = slot, slot + timedelta(minutes=duration)
        status = SessionStatus.SCHEDULED
        held_at = held_by = cancelled_at = cancelled_by = missed_at = None
        reason = cancel_note = ""
        if slot >= self.now:
            pass
        elif outcome == HELD:
            if rng.random() < lead.coach.move_rate:
                start = slot + rng.choices(MOVE_DELTAS, MOVE_WEIGHTS)[0]
                end = start + timedelta(minutes=duration)
            held_at = end + timedelta(minutes=rng.randint(-5, 120))
            if held_at < self.now:
                status, held_by = SessionStatus.HELD, lead.id
            else:
                held_at = None
        elif outcome == MISSED:
            missed_at = end + GRACE + timedelta(minutes=rng.randint(0, 20))
            if slot < self.tail_from and missed_at < self.now:
                status = SessionStatus.MISSED
            else:
                missed_at = None
        else:
            cancelled_at = slot - timedelta(hours=rng.randint(1, 48))
            if cancelled_at < self.now:
                status, reason, cancelled_by = SessionStatus.CANCELLED, outcome, lead.id
            else:
                cancelled_at = None
        plan.prev_missed = outcome == MISSED
        session = self.session_id()
        held = status == SessionStatus.HELD
        text = scenario = drills = ""
        if plan.kind == SessionKind.TEAM_CALL_REVIEW:
            host = members[plan.host % len(members)]
            plan.host += 1
            people = [
                (m.id, ParticipantRole.HOST if m is host else ParticipantRole.PARTICIPANT)
                for m in members
            ] + [(lead.id, ParticipantRole.MANAGER)]
            if held and rng.random() < lead.coach.notes_rate:
                presenter = rng.choice(members)
                peer = rng.choice(members)
                ts = f"{rng.randint(2, 34):02d}:{rng.randint(0, 59):02d}"
                text = (
                    f"{host.first} hosted. {presenter.first} brought the "
                    f"{rng.choice(words.ACCOUNT_NAMES)} call. {peer.first} "
                    f"{rng.choice(words.PEER_REMARKS).format(ts=ts)} From the lead: "
                    f"{rng.choice(words.LEAD_REMARKS)}"
                )
        else:
            people = [(lead.id, ParticipantRole.COACH)] + [
                (m.id, ParticipantRole.PARTICIPANT) for m in members
            ]
            if held:
                plays = words.ROLE_PLAYS.get(
                    "multithreading" if area.name == "Multi-threading" else "discovery"
                )
                play = rng.choice(plays)
                account = rng.choice(words.ACCOUNT_NAMES)
                scenario, drills = play.scenario.format(account=account), play.drills
                if rng.random() < lead.coach.notes_rate:
                    a, b = rng.sample(members, 2) if len(members) > 1 else (members[0], members[0])
                    text = play.notes.format(a=a.first, b=b.first)
        created_at = max(plan.created_at, slot - timedelta(weeks=settings.CADENCE_HORIZON_WEEKS))
        self.sessions.add(
            (
                session,
                plan.kind,
                status,
                start,
                slot,
                duration,
                end,
                plan.team.id,
                area.id if area else None,
                scenario,
                drills,
                held_at,
                held_by,
                held and not text,
                cancelled_at,
                cancelled_by,
                reason,
                cancel_note,
                missed_at,
                created_at,
            )
        )
        pid = self.participant_id
        for order, (person, role) in enumerate(people):
            self.participants.add((pid(), session, person, role, order, start))
        self.occurrences.add((self.occurrence_id(), plan.id, slot, session))
        notes_id = self.notes_id()
        if text:
            written_at = held_at + timedelta(minutes=rng.randint(0, 30))
            self.notes.add(
                (notes_id, session, "", "", "", "", "", text, 1, None, written_at, lead.id)
            )
            self.revisions.add(
                (self.revision_id(), notes_id, 1, "", "", "", "", "", text, lead.id, written_at)
            )
        else:
            self.notes.add((notes_id, session, "", "", "", "", "", "", 0, None, created_at, None))
