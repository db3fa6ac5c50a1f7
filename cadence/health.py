"""Cadence health: the numbers HR and managers see, computed from the sessions (and,
for runs of misses, the occurrences) with SQL aggregates and a fixed number of
queries, whatever the number of people, teams, managers or weeks.

Definitions — dashboards quote these; change them here and nowhere else.

Which sessions count
    Every kind except peer coaching (peer sessions belong to the peers; the
    management chain never sees them, so they stay out of health too).

Window
    ``[since, until)`` on ``scheduled_start``: a session belongs to the window in
    which it is (now) scheduled to start. Moving a session moves it between windows;
    its original slot is kept in ``original_start`` for the on-time rate.

Due
    A session is **due** when it is in the window and its scheduled start has passed
    (``scheduled_start < now``). Every other count below is taken over due sessions,
    so ``due == held + missed + cancelled + unresolved`` always holds.

    A **cancelled** session counts as due and not held, however far ahead it was
    cancelled: a cancelled 1:1 is a 1:1 that did not happen, and a "cancel early
    and it does not count" rule would reward cancelling. Cancellations are shown
    by reason beside the rates so a week of illness reads differently from a
    forecast call. Rescheduling is not cancelling: a moved session is due at its
    new time.

    **Unresolved** = due but still ``scheduled`` (not yet logged held, and the
    missed-session sweep's grace period has not run out). It is due and not held.

Adherence
    held ÷ due.

On-time rate (kept)
    on_time ÷ held, where a held session was **kept** (on time) when it was held in
    its original slot (``scheduled_start == original_start``, never moved) or **moved
    within its week**: its new start is in the same calendar week as its original
    slot — Monday 00:00 to Monday 00:00 in the programme's time zone (``TIME_ZONE``,
    ``week_of``). The programme's rule is "never cancel — move it within the week", so
    a 1:1 moved from Tuesday to Thursday kept the rhythm; one pushed into the next
    week did not. ``KEPT`` below is the one test every figure uses.

Held but empty
    Held sessions flagged ``held_but_empty`` (logged held with nothing written and
    nothing committed, or with notes copied unchanged from the previous session).
    The rate is held_but_empty ÷ held.

Cancellations by reason
    Due cancelled sessions counted per ``cancel_reason``.

Coverage
    Among the **reps** in scope — active people with a manager (``reports_to``) —
    the share who were coachee in a *held* weekly 1:1 (kind ``one_on_one``, with any
    coach) whose scheduled start is in the 14 days before ``min(until, now)``.
    Coverage looks at the last 14 days of the window whatever its length, and never
    at the future.

Commitment close rate
    done ÷ made, over commitments **created** (``created_at``) in the window — up to
    ``min(until, now)``, like everything else — in a session that belongs to the
    scope. Dropped commitments count as made and not done; status is as it is now.

Consecutive misses (per plan)
    The plan's occurrences whose original slot has passed and whose session is
    resolved (held, missed or cancelled — not still scheduled) are taken newest slot
    first; the number of ``missed`` ones before the first that is not missed. A
    cancellation (which carries a reason) ends a run of misses, as it does for
    escalation in the sweep.

Current streak (per person)
    The person's 1:1s (kind ``one_on_one``, as coachee, any coach, planned or ad
    hoc) whose scheduled start has passed and which are resolved, newest first; the
    number held before the first that was missed or cancelled. Counted in sessions,
    not calendar weeks.

Scopes — which sessions belong to whom
    A session with a coachee (1:1, manager review) belongs to its **coachee**. A
    group session (team call review, role-play) belongs to its **team** when it has
    one, and to the person **leading** it (coach or team lead, as participant).

    - ``Scope.person(p)``: sessions p took part in to be coached — as coachee,
      presenter, host or participant. Reps: p, if p has a manager.
    - ``Scope.coach(p)``: sessions p led, as coach or team lead. Reps: p's direct
      reports. (For 1:1s this is ``coaching.selectors.coaching_quality``.)
    - ``Scope.team(t)``: sessions of team t, and sessions without a team whose
      coachee is a current member of t. Reps: t's current members with a manager.
      Someone on two teams counts in both; a role-play with no team counts in no
      team.
    - ``Scope.manager(m)``: sessions whose coachee is below m (at any depth, by the
      current reporting lines), and sessions without a coachee led by m or by
      someone below m. Reps: everyone below m. History follows the reporting tree
      as it is now: a rep who moves takes their past 1:1s with them.
    - ``Scope.organisation()``: every session; reps: everyone with a manager.

Who may see which scope is the caller's business (see DESIGN.md: own, teams below,
whole org; HR never sees groups under 5 — ``reps`` is there for that check)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from django.db.models import (
    Count,
    Exists,
    F,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce, TruncWeek
from django.db.models.lookups import Exact
from django.utils import timezone

from coaching.models import (
    CoachingSession,
    Commitment,
    CommitmentStatus,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionStatus,
)
from core.queries import any_of
from people.models import Team, TeamMembership, User
from people.selectors import people_below

from .models import CadencePlan, Occurrence

HEALTH_KINDS = tuple(k for k in SessionKind.values if k != SessionKind.PEER)
# Taking part to be coached, and leading (running the coaching, not hosting a review).
COACHED_ROLES = (
    ParticipantRole.COACHEE,
    ParticipantRole.PRESENTER,
    ParticipantRole.HOST,
    ParticipantRole.PARTICIPANT,
)
LEADING_ROLES = (ParticipantRole.COACH, ParticipantRole.MANAGER)
COVERAGE_DAYS = 14


# --- Numbers ---------------------------------------------------------------------------


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


@dataclass(frozen=True, kw_only=True)
class SessionNumbers:
    """Counts over due sessions (see the module docstring) and the rates from them."""

    due: int = 0
    held: int = 0
    on_time: int = 0
    held_but_empty: int = 0
    missed: int = 0
    cancelled: int = 0
    unresolved: int = 0

    @property
    def adherence(self) -> float | None:
        return _rate(self.held, self.due)

    @property
    def on_time_rate(self) -> float | None:
        return _rate(self.on_time, self.held)

    @property
    def held_but_empty_rate(self) -> float | None:
        return _rate(self.held_but_empty, self.held)


@dataclass(frozen=True, kw_only=True)
class HealthNumbers(SessionNumbers):
    cancellations: dict[str, int] = field(default_factory=dict)  # reason → count
    reps: int = 0
    covered: int = 0
    commitments_made: int = 0
    commitments_done: int = 0

    @property
    def coverage(self) -> float | None:
        return _rate(self.covered, self.reps)

    @property
    def close_rate(self) -> float | None:
        return _rate(self.commitments_done, self.commitments_made)


@dataclass(frozen=True, kw_only=True)
class WeekNumbers(SessionNumbers):
    week_start: date  # Monday, in the time zone the weeks were cut in


_HELD = Q(status=SessionStatus.HELD)


def week_zone() -> tzinfo:
    """The zone weeks are cut in for "moved within its week": the programme's own
    (settings.TIME_ZONE), the same for every viewer, page and rollup."""
    return timezone.get_default_timezone()


def week_of(moment: datetime) -> tuple[datetime, datetime]:
    """The week `moment` is in: [Monday 00:00, next Monday 00:00) in `week_zone`, as
    aware datetimes. A session moved to a start inside its original slot's week was
    kept (`KEPT`); the move and cancel pages offer free slots inside it."""
    zone = week_zone()
    day = moment.astimezone(zone).date()
    monday = day - timedelta(days=day.weekday())
    start = datetime.combine(monday, time(), tzinfo=zone)
    return start, datetime.combine(monday + timedelta(weeks=1), time(), tzinfo=zone)


def _moved_within_week() -> Q:
    zone = week_zone()
    return Q(
        Exact(TruncWeek("scheduled_start", tzinfo=zone), TruncWeek("original_start", tzinfo=zone))
    )


# Kept: held in its slot, or moved within its week (the module docstring).
KEPT = _HELD & (Q(scheduled_start=F("original_start")) | _moved_within_week())
# Over due sessions only: the queries filter to them first.
_SESSION_COUNTS = {
    "due": Count("pk"),
    "held": Count("pk", filter=_HELD),
    "on_time": Count("pk", filter=KEPT),
    "held_but_empty": Count("pk", filter=_HELD & Q(held_but_empty=True)),
    "missed": Count("pk", filter=Q(status=SessionStatus.MISSED)),
    "cancelled": Count("pk", filter=Q(status=SessionStatus.CANCELLED)),
    "unresolved": Count("pk", filter=Q(status=SessionStatus.SCHEDULED)),
}
_COMMITMENT_COUNTS = {
    "made": Count("pk"),
    "done": Count("pk", filter=Q(status=CommitmentStatus.DONE)),
}


class _Tally:
    """Adds up grouped rows (one per group × cancel reason) into HealthNumbers."""

    def __init__(self):
        self.sessions: Counter = Counter()
        self.cancellations: Counter = Counter()
        self.reps = self.covered = self.made = self.done = 0

    def add_sessions(self, row: dict) -> None:
        for name in _SESSION_COUNTS:
            self.sessions[name] += row[name]
        if row["cancelled"]:
            self.cancellations[row["reason"]] += row["cancelled"]

    def numbers(self) -> HealthNumbers:
        return HealthNumbers(
            **{name: self.sessions[name] for name in _SESSION_COUNTS},
            cancellations=dict(sorted(self.cancellations.items())),
            reps=self.reps,
            covered=self.covered,
            commitments_made=self.made,
            commitments_done=self.done,
        )


# --- Scopes ----------------------------------------------------------------------------


def _taking_part(*, roles, **person) -> Exists:
    """Someone matching `person` takes part in the session (OuterRef) in one of `roles`."""
    return Exists(
        SessionParticipant.objects.filter(session=OuterRef("pk"), role__in=roles, **person)
    )


_HAS_COACHEE = _taking_part(roles=[ParticipantRole.COACHEE])


def _sessions_of(**participant) -> QuerySet:
    """The ids of the sessions someone matching `participant` takes part in."""
    return SessionParticipant.objects.filter(**participant).order_by().values("session_id")


@dataclass(frozen=True, eq=False)
class Scope:
    """Whose health: `sessions` filters CoachingSession, `people` filters User (to
    whom coverage applies, before the "active with a manager" rule)."""

    label: str
    sessions: Q
    people: Q
    # A handful of people (a person, a coach's reports, a team): coverage then reads
    # their own coachee rows rather than the organisation's (see `_covered`).
    few: bool = False

    # The person, coach and team scopes name their sessions as one set of ids, read
    # from the participants' person index (and the sessions' team index), so a window's
    # sessions are fetched by id: an EXISTS per session made PostgreSQL read every
    # session of the window in the organisation (a team's 8 weeks at 10,000 people:
    # 78,000 rows; as a set, 1,119 ids; bench/routes.py).

    @classmethod
    def person(cls, person: User) -> Scope:
        return cls(
            label=f"person:{person.pk}",
            sessions=Q(pk__in=_sessions_of(person=person, role__in=COACHED_ROLES)),
            people=Q(pk=person.pk),
            few=True,
        )

    @classmethod
    def coach(cls, person: User) -> Scope:
        return cls(
            label=f"coach:{person.pk}",
            sessions=Q(pk__in=_sessions_of(person=person, role__in=LEADING_ROLES)),
            people=Q(reports_to=person),
            few=True,
        )

    @classmethod
    def team(cls, team: Team) -> Scope:
        # The team's own sessions, and its current members' 1:1s and the like as
        # coachee in sessions without a team.
        own = CoachingSession.objects.filter(team=team).order_by().values("pk")
        members = _sessions_of(
            role=ParticipantRole.COACHEE,
            person__memberships__team=team,
            person__memberships__left_at__isnull=True,
            session__team__isnull=True,
        )
        return cls(
            label=f"team:{team.pk}",
            sessions=Q(pk__in=own.union(members)),
            people=Q(
                Exists(TeamMembership.objects.current().filter(team=team, person=OuterRef("pk")))
            ),
            few=True,
        )

    @classmethod
    def manager(cls, manager: User) -> Scope:
        below = people_below(person=manager).values("pk")
        led_by_them_or_below = Q(person=manager) | Q(person__in=below)
        return cls(
            label=f"manager:{manager.pk}",
            sessions=Q(_taking_part(roles=[ParticipantRole.COACHEE], person__in=below))
            | (
                ~Q(_HAS_COACHEE)
                & Exists(
                    SessionParticipant.objects.filter(
                        led_by_them_or_below, session=OuterRef("pk"), role__in=LEADING_ROLES
                    )
                )
            ),
            people=Q(pk__in=below),
        )

    @classmethod
    def organisation(cls) -> Scope:
        return cls(label="organisation", sessions=Q(), people=Q())


# --- Building blocks -------------------------------------------------------------------


def _window(since: datetime, until: datetime, now: datetime | None) -> datetime:
    """Check the window's datetimes are aware; return `now` (default: the time now)."""
    for name, value in (("since", since), ("until", until)):
        if timezone.is_naive(value):
            raise ValueError(f"{name} must be an aware datetime")
    return _check_now(now)


def _check_now(now: datetime | None) -> datetime:
    if now is not None and timezone.is_naive(now):
        raise ValueError("now must be an aware datetime")
    return now or timezone.now()


def _due(since: datetime, until: datetime, now: datetime) -> QuerySet[CoachingSession]:
    return CoachingSession.objects.filter(
        kind__in=HEALTH_KINDS,
        scheduled_start__gte=since,
        scheduled_start__lt=min(until, now),
    ).order_by()


def _taking_part_between(since: datetime, end: datetime) -> dict:
    """Lookups for sessions filtered by their participants (in the same `filter()`,
    so on the same rows): the participants' copy of the session's time in [since,
    end), which makes a few people's sessions in a window a range of
    `participant_by_person_time` instead of a probe of every session they ever had
    (1,125 for a manager after two years). `_due` keeps the session's own bounds."""
    return {"participants__scheduled_start__gte": since, "participants__scheduled_start__lt": end}


def _reps() -> QuerySet[User]:
    return User.objects.filter(is_active=True, reports_to__isnull=False).order_by()


def _covered(*, until: datetime, now: datetime, among: QuerySet | None = None) -> QuerySet:
    """The people who were coachee in a held 1:1 in the 14 days before min(until, now):
    a subquery the database reads once (`pk__in=`), not once per person.

    `among` (a query of user ids): only those people, for a few teams' worth of reps.
    Without it the database gathers every coachee of the fortnight in the organisation
    (at 10,000 people: 14,000 held 1:1s) to count ten reps; with it, it walks
    those reps' own coachee rows of the fortnight (a range of `participant_by_person_time`)
    and checks each session. The whole organisation passes nothing: there the set is
    cheaper, found from the sessions' time."""
    end = min(until, now)
    start = end - timedelta(days=COVERAGE_DAYS)
    rows = SessionParticipant.objects.filter(
        role=ParticipantRole.COACHEE,
        session__kind=SessionKind.ONE_ON_ONE,
        session__status=SessionStatus.HELD,
        session__scheduled_start__gte=start,
        session__scheduled_start__lt=end,
    )
    if among is not None:
        # By array, so the rows come from `participant_by_person_time` whatever the
        # planner guesses: as a join it scanned every participant from a few hundred
        # reps on (the head's managers below; bench/routes.py).
        rows = rows.filter(
            any_of("person_id", among), scheduled_start__gte=start, scheduled_start__lt=end
        )
    return rows.order_by().values("person_id")


def _commitments(since: datetime, until: datetime, now: datetime) -> QuerySet[Commitment]:
    return Commitment.objects.filter(
        created_at__gte=since, created_at__lt=min(until, now), created_in__kind__in=HEALTH_KINDS
    ).order_by()


def _ids(objects: Iterable) -> list[int]:
    return [getattr(o, "pk", o) for o in objects]


# --- One scope -------------------------------------------------------------------------


def health(
    scope: Scope, *, since: datetime, until: datetime, now: datetime | None = None
) -> HealthNumbers:
    """Health of one scope in [since, until). Three queries: sessions (counts and
    cancellations by reason, grouped by reason), coverage, commitments."""
    now = _window(since, until, now)
    tally = _Tally()
    for row in (
        _due(since, until, now)
        .filter(scope.sessions)
        .values(reason=F("cancel_reason"))
        .annotate(**_SESSION_COUNTS)
    ):
        tally.add_sessions(row)

    reps = _reps().filter(scope.people)
    among = reps.values("pk") if scope.few else None
    coverage = reps.aggregate(
        reps=Count("pk"),
        covered=Count("pk", filter=Q(pk__in=_covered(until=until, now=now, among=among))),
    )
    tally.reps, tally.covered = coverage["reps"], coverage["covered"]

    in_scope = CoachingSession.objects.filter(scope.sessions).values("pk")
    commitments = (
        _commitments(since, until, now)
        .filter(created_in__in=in_scope)
        .aggregate(**_COMMITMENT_COUNTS)
    )
    tally.made, tally.done = commitments["made"], commitments["done"]
    return tally.numbers()


def weekly_adherence(
    scope: Scope,
    *,
    weeks: int = 8,
    until: datetime | None = None,
    now: datetime | None = None,
    tz: tzinfo | None = None,
) -> list[WeekNumbers]:
    """Per calendar week (Monday to Monday in `tz`, default the current time zone),
    the `weeks` weeks ending with the one containing `until` (default now), oldest
    first, empty weeks included. One query."""
    weeks_ = _CalendarWeeks.ending(weeks, until=until, now=now, tz=tz)
    rows = (
        _due(weeks_.since, weeks_.end, weeks_.now)
        .filter(scope.sessions)
        .annotate(week=weeks_.trunc())
        .values("week")
        .annotate(**_SESSION_COUNTS)
    )
    return weeks_.numbers({weeks_.monday_of(row["week"]): row for row in rows})


@dataclass(frozen=True)
class _CalendarWeeks:
    """`count` calendar weeks (Monday to Monday in `tz`) ending with the one that
    contains `until`, oldest first."""

    mondays: list[date]
    tz: tzinfo
    now: datetime

    @classmethod
    def ending(cls, count: int, *, until, now, tz) -> _CalendarWeeks:
        if count < 1:
            raise ValueError("weeks must be at least 1")
        now = _check_now(now)
        until = until or now
        _window(until, until, now)  # refuses a naive `until`
        tz = tz or timezone.get_current_timezone()
        last = until.astimezone(tz).date()
        last -= timedelta(days=last.weekday())
        return cls([last - timedelta(weeks=n) for n in range(count - 1, -1, -1)], tz, now)

    @property
    def since(self) -> datetime:
        return datetime.combine(self.mondays[0], time(), tzinfo=self.tz)

    @property
    def end(self) -> datetime:
        return datetime.combine(self.mondays[-1] + timedelta(weeks=1), time(), tzinfo=self.tz)

    def trunc(self) -> TruncWeek:
        return TruncWeek("scheduled_start", tzinfo=self.tz)

    def monday_of(self, week: datetime) -> date:
        return week.astimezone(self.tz).date()

    def numbers(self, by_week: dict[date, dict]) -> list[WeekNumbers]:
        empty = dict.fromkeys(_SESSION_COUNTS, 0)
        return [
            WeekNumbers(
                week_start=monday,
                **{name: by_week.get(monday, empty)[name] for name in _SESSION_COUNTS},
            )
            for monday in self.mondays
        ]


# --- Many teams, many managers ---------------------------------------------------------


def _via_coachee(team_ids: list[int]) -> dict:
    """Sessions without a team whose coachee is a current member of one of the teams."""
    return {
        "team__isnull": True,
        "participants__role": ParticipantRole.COACHEE,
        "participants__person__memberships__team__in": team_ids,
        "participants__person__memberships__left_at__isnull": True,
    }


def _counts_by_team(due: QuerySet, team_ids: list[int], **keys) -> QuerySet:
    """Session counts per team (as `key`) and `keys`: a team's own sessions UNION ALL
    its members' sessions without a team (see "Scopes")."""
    own = due.filter(team__in=team_ids).values(key=F("team_id"), **keys)
    members = due.filter(**_via_coachee(team_ids)).values(
        key=F("participants__person__memberships__team"), **keys
    )
    return own.annotate(**_SESSION_COUNTS).union(members.annotate(**_SESSION_COUNTS), all=True)


def health_by_team(
    teams: Iterable[Team | int], *, since: datetime, until: datetime, now: datetime | None = None
) -> dict[int, HealthNumbers]:
    """`health(Scope.team(t))` for every team, keyed by team id. Three queries
    however many teams: sessions, coverage, commitments (each a UNION ALL of the
    team's own sessions and its members' 1:1s, grouped by team in SQL)."""
    now = _window(since, until, now)
    ids = _ids(teams)
    tallies = {pk: _Tally() for pk in ids}
    for row in _counts_by_team(_due(since, until, now), ids, reason=F("cancel_reason")):
        tallies[row["key"]].add_sessions(row)

    for row in (
        TeamMembership.objects.current()
        .filter(team__in=ids, person__in=_reps())
        .order_by()
        .values("team_id")
        .annotate(
            reps=Count("pk"),
            covered=Count("pk", filter=Q(person_id__in=_covered(until=until, now=now))),
        )
    ):
        tallies[row["team_id"]].reps = row["reps"]
        tallies[row["team_id"]].covered = row["covered"]

    made = _commitments(since, until, now)
    own_made = made.filter(created_in__team__in=ids).values(key=F("created_in__team_id"))
    members_made = made.filter(
        **{f"created_in__{lookup}": value for lookup, value in _via_coachee(ids).items()}
    ).values(key=F("created_in__participants__person__memberships__team"))
    for row in own_made.annotate(**_COMMITMENT_COUNTS).union(
        members_made.annotate(**_COMMITMENT_COUNTS), all=True
    ):
        tallies[row["key"]].made += row["made"]
        tallies[row["key"]].done += row["done"]
    return {pk: tally.numbers() for pk, tally in tallies.items()}


def _anchor(session_ref) -> dict:
    """Whom a session belongs to for the manager roll-up: its coachee, else whoever
    leads it (see "Scopes")."""
    taking_part = SessionParticipant.objects.filter(session=session_ref).order_by(
        "speaking_order", "pk"
    )
    coachee = taking_part.filter(role=ParticipantRole.COACHEE)
    leader = taking_part.filter(role__in=LEADING_ROLES)
    return {
        "anchor": Coalesce(
            Subquery(coachee.values("person_id")[:1]), Subquery(leader.values("person_id")[:1])
        ),
        "by_coachee": Exists(coachee),
    }


class _Tree:
    """The reporting tree, to say which of the asked-for managers are above whom."""

    def __init__(self, parent: dict[int, int | None], managers: Iterable[int]):
        self.parent = parent
        self.managers = set(managers)
        self._above: dict[int, frozenset[int]] = {}

    def above(self, person: int) -> frozenset[int]:
        """The asked-for managers strictly above `person`."""
        if person not in self._above:
            found, seen, current = set(), {person}, self.parent.get(person)
            while current is not None and current not in seen:  # a cycle cannot hang us
                seen.add(current)
                if current in self.managers:
                    found.add(current)
                current = self.parent.get(current)
            self._above[person] = frozenset(found)
        return self._above[person]

    def owners(self, anchor: int | None, *, by_coachee: bool) -> frozenset[int]:
        """Managers whose scope a session (or commitment) with this anchor is in."""
        if anchor is None:
            return frozenset()
        if by_coachee:
            return self.above(anchor)
        return self.above(anchor) | ({anchor} & self.managers)


def health_by_manager(
    managers: Iterable[User | int],
    *,
    since: datetime,
    until: datetime,
    now: datetime | None = None,
) -> dict[int, HealthNumbers]:
    """`health(Scope.manager(m))` for every manager, keyed by user id; nested
    managers (a head and the managers below them) each get their full numbers.
    Three queries however many managers: the reporting tree with each rep's
    coverage flag (one short row per person in the organisation), sessions grouped
    by anchor person, commitments grouped likewise; the roll-up up the tree happens
    here."""
    now = _window(since, until, now)
    ids = _ids(managers)
    tallies = {pk: _Tally() for pk in ids}

    people = list(
        User.objects.order_by()
        .annotate(
            is_rep=Q(is_active=True, reports_to__isnull=False),
            covered=Q(pk__in=_covered(until=until, now=now)),
        )
        .values_list("pk", "reports_to_id", "is_rep", "covered")
    )
    tree = _Tree({pk: parent for pk, parent, _, _ in people}, ids)
    for pk, _, is_rep, covered in people:
        if is_rep:
            for manager in tree.above(pk):
                tallies[manager].reps += 1
                tallies[manager].covered += bool(covered)

    sessions = (
        _due(since, until, now)
        .annotate(**_anchor(OuterRef("pk")))
        .values("anchor", "by_coachee", reason=F("cancel_reason"))
        .annotate(**_SESSION_COUNTS)
    )
    for row in sessions:
        for manager in tree.owners(row["anchor"], by_coachee=row["by_coachee"]):
            tallies[manager].add_sessions(row)

    commitments = (
        _commitments(since, until, now)
        .annotate(**_anchor(OuterRef("created_in")))
        .values("anchor", "by_coachee")
        .annotate(**_COMMITMENT_COUNTS)
    )
    for row in commitments:
        for manager in tree.owners(row["anchor"], by_coachee=row["by_coachee"]):
            tallies[manager].made += row["made"]
            tallies[manager].done += row["done"]
    return {pk: tally.numbers() for pk, tally in tallies.items()}


# --- Many coaches ----------------------------------------------------------------------


def health_by_coach(
    coaches: Iterable[User | int],
    *,
    since: datetime,
    until: datetime,
    now: datetime | None = None,
) -> dict[int, HealthNumbers]:
    """`health(Scope.coach(p))` for every coach, keyed by user id: the sessions each
    led (as coach or team lead), their direct reports' coverage, the commitments made
    in the sessions they led. Three queries however many coaches: sessions grouped by
    leading person and cancel reason, reps and covered reps grouped by manager,
    commitments grouped by leading person (a session led by two of them counts for
    both, as it does in each one's own scope)."""
    now = _window(since, until, now)
    ids = _ids(coaches)
    tallies = {pk: _Tally() for pk in ids}
    led_by = {"participants__role__in": LEADING_ROLES, "participants__person__in": ids}
    for row in (
        _due(since, until, now)
        .filter(**led_by, **_taking_part_between(since, min(until, now)))
        .values(key=F("participants__person"), reason=F("cancel_reason"))
        .annotate(**_SESSION_COUNTS)
    ):
        tallies[row["key"]].add_sessions(row)

    for coach, (reps, covered) in coverage_by_coach(ids, until=until, now=now).items():
        tallies[coach].reps, tallies[coach].covered = reps, covered

    for row in (
        _commitments(since, until, now)
        .filter(**{f"created_in__{lookup}": value for lookup, value in led_by.items()})
        .values(key=F("created_in__participants__person"))
        .annotate(**_COMMITMENT_COUNTS)
    ):
        tallies[row["key"]].made += row["made"]
        tallies[row["key"]].done += row["done"]
    return {pk: tally.numbers() for pk, tally in tallies.items()}


# --- Runs: consecutive misses and streaks ----------------------------------------------


def consecutive_misses(
    plans: Iterable[CadencePlan | int], *, now: datetime | None = None
) -> dict[int, int]:
    """Per plan id, how many of its latest resolved occurrences in a row were missed
    (0 when the latest was held or cancelled, or nothing is resolved yet). One query."""
    now = _check_now(now)
    ids = _ids(plans)
    # Per plan, the latest resolved occurrence that was not missed (the break), then
    # how many resolved ones come after it: all of them missed. Both are short walks
    # of `occurrence_once_per_slot` (plan, slot_start) from the newest end, so a plan
    # costs its latest few occurrences, not its whole history: a running count over
    # every resolved occurrence of every plan read two years of history for the ~4,000
    # plans below the head of a 10,000-person organisation (bench/routes.py).
    resolved = Occurrence.objects.filter(plan=OuterRef("pk"), slot_start__lt=now).exclude(
        session__status=SessionStatus.SCHEDULED
    )
    last_break = (
        resolved.exclude(session__status=SessionStatus.MISSED)
        .order_by("-slot_start")
        .values("slot_start")[:1]
    )
    since_break = (
        resolved.filter(slot_start__gt=Coalesce(OuterRef("last_break"), Value(_DAWN)))
        .order_by()
        .values("plan")
        .annotate(n=Count("pk"))
        .values("n")
    )
    runs = dict(
        CadencePlan.objects.filter(pk__in=ids)
        .order_by()
        .annotate(last_break=Subquery(last_break))
        .annotate(run=Coalesce(Subquery(since_break), 0))
        .values_list("pk", "run")
    )
    return {pk: runs.get(pk, 0) for pk in ids}


# Before any occurrence: a plan that never had a break counts all its resolved ones.
_DAWN = datetime(1970, 1, 1, tzinfo=UTC)


def streaks(people: Iterable[User | int], *, now: datetime | None = None) -> dict[int, int]:
    """Per person id, how many of their latest resolved 1:1s as coachee in a row were
    held (0 when the latest was missed or cancelled, or there is none). One query."""
    now = _check_now(now)
    ids = _ids(people)
    # As `consecutive_misses`: per person the latest resolved 1:1 not held (the break),
    # then how many resolved ones come after it — all held. Both walk
    # `participant_by_person_time` (person, role, scheduled_start) back from `now`, so
    # a person costs their latest few 1:1s, not every one they ever had. Sessions at
    # the same start are ordered by id, as a running count would order them.
    resolved = SessionParticipant.objects.filter(
        person=OuterRef("pk"),
        role=ParticipantRole.COACHEE,
        scheduled_start__lt=now,
        session__kind=SessionKind.ONE_ON_ONE,
    ).exclude(session__status=SessionStatus.SCHEDULED)
    last_break = resolved.exclude(session__status=SessionStatus.HELD).order_by(
        "-scheduled_start", "-session_id"
    )
    break_start = Coalesce(OuterRef("break_start"), Value(_DAWN))
    since_break = (
        resolved.filter(scheduled_start__gte=break_start)
        .filter(
            Q(scheduled_start__gt=break_start)
            | Q(session_id__gt=Coalesce(OuterRef("break_session"), 0))
        )
        .order_by()
        .values("person")
        .annotate(n=Count("pk"))
        .values("n")
    )
    runs = dict(
        User.objects.filter(pk__in=ids)
        .order_by()
        .annotate(
            break_start=Subquery(last_break.values("scheduled_start")[:1]),
            break_session=Subquery(last_break.values("session_id")[:1]),
        )
        .annotate(run=Coalesce(Subquery(since_break), 0))
        .values_list("pk", "run")
    )
    return {pk: runs.get(pk, 0) for pk in ids}


def plans_ended_by_reason(scope: Scope, *, since: datetime, until: datetime) -> dict[str, int]:
    """Plans ended in the window, counted by reason, for plans whose coach or coachee
    is in the scope's people — the protected rhythm is not quietly switched off.
    One query."""
    _window(since, until, None)
    people = User.objects.filter(scope.people).values("pk")
    rows = (
        CadencePlan.objects.filter(ended_at__gte=since, ended_at__lt=until)
        .filter(Q(coach__in=people) | Q(coachee__in=people))
        .values("end_reason")
        .annotate(n=Count("pk"))
        .order_by("end_reason")
    )
    return {row["end_reason"]: row["n"] for row in rows}


# --- Dashboards: teams by week, coverage per coach, call reviews ---------------------------


def weekly_by_team(
    teams: Iterable[Team | int],
    *,
    weeks: int = 8,
    until: datetime | None = None,
    now: datetime | None = None,
    tz: tzinfo | None = None,
) -> dict[int, list[WeekNumbers]]:
    """`weekly_adherence(Scope.team(t))` for every team, keyed by team id: the heatmap's
    cells. One query however many teams and weeks."""
    ids = _ids(teams)
    weeks_ = _CalendarWeeks.ending(weeks, until=until, now=now, tz=tz)
    by_team: dict[int, dict[date, Counter]] = {pk: {} for pk in ids}
    due = _due(weeks_.since, weeks_.end, weeks_.now)
    for row in _counts_by_team(due, ids, week=weeks_.trunc()):
        cell = by_team[row["key"]].setdefault(weeks_.monday_of(row["week"]), Counter())
        cell.update({name: row[name] for name in _SESSION_COUNTS})
    return {pk: weeks_.numbers(cells) for pk, cells in by_team.items()}


def weekly_by_coach(
    coaches: Iterable[User | int],
    *,
    weeks: int = 8,
    until: datetime | None = None,
    now: datetime | None = None,
    tz: tzinfo | None = None,
) -> dict[int, list[WeekNumbers]]:
    """`weekly_adherence(Scope.coach(p))` for every coach, keyed by user id: the
    sessions each led, week by week (a session led by two counts for both). One query
    however many coaches and weeks."""
    ids = _ids(coaches)
    weeks_ = _CalendarWeeks.ending(weeks, until=until, now=now, tz=tz)
    rows = (
        _due(weeks_.since, weeks_.end, weeks_.now)
        .filter(
            participants__role__in=LEADING_ROLES,
            participants__person__in=ids,
            **_taking_part_between(weeks_.since, min(weeks_.end, weeks_.now)),
        )
        .values(key=F("participants__person"), week=weeks_.trunc())
        .annotate(**_SESSION_COUNTS)
    )
    by_coach: dict[int, dict[date, dict]] = {pk: {} for pk in ids}
    for row in rows:
        by_coach[row["key"]][weeks_.monday_of(row["week"])] = row
    return {pk: weeks_.numbers(cells) for pk, cells in by_coach.items()}


def calendar_mondays(
    weeks: int, *, until: datetime | None = None, now: datetime | None = None, tz=None
) -> list[date]:
    """The Mondays of the calendar weeks `weekly_adherence` and `weekly_by_team` count."""
    return _CalendarWeeks.ending(weeks, until=until, now=now, tz=tz).mondays


def coverage_by_coach(
    coaches: Iterable[User | int] | None = None,
    *,
    until: datetime,
    now: datetime | None = None,
) -> dict[int, tuple[int, int]]:
    """Per coach id: (reps, covered) over their direct reports — coverage as defined
    above, at the end of a window. `coaches=None`: everyone with a direct report. One
    query."""
    now = _window(until, until, now)
    reps, among = _reps(), None
    if coaches is not None:
        reps = reps.filter(reports_to__in=_ids(coaches))
        among = reps.values("pk")
    rows = reps.values("reports_to_id").annotate(
        reps=Count("pk"),
        covered=Count("pk", filter=Q(pk__in=_covered(until=until, now=now, among=among))),
    )
    return {row["reports_to_id"]: (row["reps"], row["covered"]) for row in rows}


def one_on_ones_by_coachee(
    *, since: datetime, until: datetime, now: datetime | None = None, among=None
) -> dict[int, tuple[int, int]]:
    """Per coachee id: (due, held) of their 1:1s in the window — adherence as defined
    above, over 1:1s only — for everyone, or for `among` (a subquery of ids). One query,
    by the participants' copy of the session's time. (Not narrowed by a list of ids:
    thousands would pass SQLite's limit on a statement's parameters.)"""
    now = _window(since, until, now)
    rows = SessionParticipant.objects.filter(
        role=ParticipantRole.COACHEE,
        session__kind=SessionKind.ONE_ON_ONE,
        scheduled_start__gte=since,
        scheduled_start__lt=min(until, now),
    )
    if among is not None:
        rows = rows.filter(person_id__in=among)
    rows = (
        rows.values("person_id")
        .annotate(due=Count("pk"), held=Count("pk", filter=Q(session__status=SessionStatus.HELD)))
        .order_by()
        .values_list("person_id", "due", "held")
    )
    return {person: (due, held) for person, due, held in rows}


def last_call_review_by_team(
    teams: Iterable[Team | int], *, now: datetime | None = None
) -> dict[int, datetime | None]:
    """Per team id, when its latest held team call review was scheduled to start (None:
    never). One query."""
    now = _check_now(now)
    ids = _ids(teams)
    rows = (
        CoachingSession.objects.filter(
            kind=SessionKind.TEAM_CALL_REVIEW,
            status=SessionStatus.HELD,
            team__in=ids,
            scheduled_start__lt=now,
        )
        .order_by()
        .values("team_id")
        .annotate(last=Max("scheduled_start"))
    )
    found = {row["team_id"]: row["last"] for row in rows}
    return {pk: found.get(pk) for pk in ids}


__all__ = [
    "COVERAGE_DAYS",
    "HEALTH_KINDS",
    "HealthNumbers",
    "Scope",
    "SessionNumbers",
    "WeekNumbers",
    "calendar_mondays",
    "consecutive_misses",
    "coverage_by_coach",
    "health",
    "health_by_coach",
    "health_by_manager",
    "health_by_team",
    "last_call_review_by_team",
    "one_on_ones_by_coachee",
    "plans_ended_by_reason",
    "streaks",
    "weekly_adherence",
    "weekly_by_coach",
    "weekly_by_team",
]
