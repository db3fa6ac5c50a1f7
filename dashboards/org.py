"""Cadence health of the organisation, for HR and programme admins: the overview with
its trend, the heatmap of teams by week, the attention list and one team's page.

Aggregates only — counts and rates from `cadence.health`, never what anyone wrote —
and an aggregate over fewer than `MIN_GROUP` people is suppressed (`privacy`). Every
read here costs a fixed number of queries, however many teams, people or sessions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q
from django.http import Http404

from cadence import health
from cadence.health import HealthNumbers, Scope, WeekNumbers
from cadence.models import CadencePlan, Occurrence
from coaching.models import CancelReason, SessionStatus
from people.models import Team, TeamMembership, User

from .charts import whole_percent
from .privacy import too_few
from .windows import Window

# A manager's coverage fell by at least this much (in points) since the previous window.
COVERAGE_DROP_POINTS = 20
# A team with people and no held team call review for this long has gone quiet.
QUIET_DAYS = 21


# --- Metrics with their trend ------------------------------------------------------------


@dataclass(frozen=True)
class MetricSpec:
    key: str  # an attribute of HealthNumbers
    label: str
    explained: str
    higher_is_better: bool = True


METRICS = (
    MetricSpec("adherence", "Adherence", "held ÷ due"),
    MetricSpec("on_time_rate", "On time", "held in their planned slot or week ÷ held"),
    MetricSpec("coverage", "Coverage", "people with a held 1:1 in the last 14 days"),
    MetricSpec("held_but_empty_rate", "Held but empty", "held with nothing written", False),
    MetricSpec("close_rate", "Commitments kept", "done ÷ made in the window"),
)


@dataclass(frozen=True)
class Metric:
    spec: MetricSpec
    now: float | None
    before: float | None

    @property
    def change(self) -> int | None:
        """The change since the previous window, in percentage points."""
        if self.now is None or self.before is None:
            return None
        return whole_percent(self.now) - whole_percent(self.before)

    @property
    def verdict(self) -> str:
        """ "better", "worse" or "steady": the change read in the metric's direction."""
        if not self.change:
            return "steady"
        rising = self.change > 0
        return "better" if rising == self.spec.higher_is_better else "worse"


@dataclass(frozen=True)
class Cancellations:
    reason: str
    label: str
    now: int
    before: int


def _metrics(numbers: HealthNumbers, previous: HealthNumbers) -> list[Metric]:
    return [
        Metric(spec, getattr(numbers, spec.key), getattr(previous, spec.key)) for spec in METRICS
    ]


def _cancellations(numbers: HealthNumbers, previous: HealthNumbers) -> list[Cancellations]:
    reasons = set(numbers.cancellations) | set(previous.cancellations)
    return [
        Cancellations(
            reason,
            CancelReason(reason).label if reason in CancelReason.values else reason,
            numbers.cancellations.get(reason, 0),
            previous.cancellations.get(reason, 0),
        )
        for reason in sorted(reasons, key=lambda r: (-numbers.cancellations.get(r, 0), r))
    ]


@dataclass(frozen=True)
class Health:
    """One scope's health over a window, against the window before; `numbers` and
    `previous` are None when the group is too small to show."""

    window: Window
    reps: int
    numbers: HealthNumbers | None
    previous: HealthNumbers | None
    weeks: list[WeekNumbers] | None

    @property
    def suppressed(self) -> bool:
        return self.numbers is None

    @property
    def metrics(self) -> list[Metric]:
        return [] if self.suppressed else _metrics(self.numbers, self.previous)

    @property
    def cancellations(self) -> list[Cancellations]:
        return [] if self.suppressed else _cancellations(self.numbers, self.previous)


@dataclass(frozen=True)
class WindowNumbers:
    """A scope's numbers over a window and over the one before (None when the group is
    too small to show): the same in every time zone, as a window is a span of instants
    — only its calendar weeks depend on the zone."""

    numbers: HealthNumbers
    previous: HealthNumbers | None


def window_numbers(scope: Scope, *, window: Window, now: datetime) -> WindowNumbers:
    """Six queries: the window and the one before (three each); three when too few."""
    numbers = health.health(scope, since=window.since, until=window.until, now=now)
    if too_few(numbers.reps):
        return WindowNumbers(numbers, None)
    before = window.previous
    return WindowNumbers(
        numbers, health.health(scope, since=before.since, until=before.until, now=now)
    )


def _health(
    scope: Scope, *, window: Window, now: datetime, tz: tzinfo, known: WindowNumbers | None
) -> Health:
    """Seven queries: the window and the one before (three each, none when `known`),
    and the weeks."""
    known = known or window_numbers(scope, window=window, now=now)
    reps = known.numbers.reps
    if known.previous is None:
        return Health(window, reps, None, None, None)
    weeks = health.weekly_adherence(scope, weeks=window.weeks, until=window.until, now=now, tz=tz)
    return Health(window, reps, known.numbers, known.previous, weeks)


def organisation_numbers(*, window: Window, now: datetime) -> WindowNumbers:
    return window_numbers(Scope.organisation(), window=window, now=now)


def organisation_health(
    *, window: Window, now: datetime, tz: tzinfo, known: WindowNumbers | None = None
) -> Health:
    """`known`: `organisation_numbers`, when another zone's snapshot of the same slot
    worked them out already."""
    return _health(Scope.organisation(), window=window, now=now, tz=tz, known=known)


def team_or_404(*, pk: int) -> Team:
    """Any team, for those who see the whole organisation's health (the views check
    the role); 404 for a team that does not exist."""
    team = Team.objects.select_related("lead").filter(pk=pk).first()
    if team is None:
        raise Http404
    return team


def team_health(*, team: Team, window: Window, now: datetime, tz: tzinfo) -> Health:
    return _health(Scope.team(team), window=window, now=now, tz=tz, known=None)


# --- Names as a snapshot keeps them --------------------------------------------------------


@dataclass(frozen=True)
class PersonRef:
    """A person as the organisation's snapshot keeps them: id and name, not their row.
    Every read of a cached part unpickles it (900 teams' rows with their leads and
    heads were 13,500 model instances at 10,000 people, on every read), and a user's
    row carries their password hash, which has no business in the cache."""

    id: int
    display_name: str

    @property
    def pk(self) -> int:
        return self.id

    @classmethod
    def of(cls, person: User | None) -> PersonRef | None:
        return None if person is None else cls(person.pk, person.display_name)


@dataclass(frozen=True)
class TeamRef:
    id: int
    name: str
    lead: PersonRef | None

    @property
    def pk(self) -> int:
        return self.id

    @classmethod
    def of(cls, team: Team) -> TeamRef:
        return cls(team.pk, team.name, PersonRef.of(team.lead))


# --- The heatmap: teams × weeks, grouped under the manager of managers --------------------


@dataclass(frozen=True)
class HeatRow:
    team: TeamRef
    head: PersonRef | None  # the manager above the team's lead
    reps: int
    window: HealthNumbers | None  # None: too few people to show
    weeks: list[WeekNumbers] | None

    @property
    def suppressed(self) -> bool:
        return self.window is None


@dataclass(frozen=True)
class HeatGroup:
    head: PersonRef | None  # the team leads' manager; None for teams without one
    rows: list[HeatRow]


@dataclass(frozen=True)
class Heatmap:
    mondays: list[date]
    groups: list[HeatGroup]

    @property
    def rows(self) -> list[HeatRow]:
        return [row for group in self.groups for row in group.rows]


def _head_of(team: Team) -> PersonRef | None:
    return PersonRef.of(team.lead.reports_to) if team.lead is not None else None


@dataclass(frozen=True)
class TeamWindows:
    """Every team (with its lead and their manager) and its numbers over a window: the
    same in every time zone, as `WindowNumbers`."""

    teams: list[Team]
    numbers: dict[int, HealthNumbers]


def team_windows(*, window: Window, now: datetime) -> TeamWindows:
    """Four queries: the teams with their leads and heads, the window of every team
    (three)."""
    teams = list(Team.objects.select_related("lead__reports_to").order_by("name", "pk"))
    numbers = health.health_by_team(teams, since=window.since, until=window.until, now=now)
    return TeamWindows(teams, numbers)


def heatmap(
    *, window: Window, now: datetime, tz: tzinfo, known: TeamWindows | None = None
) -> Heatmap:
    """Every team's adherence per calendar week of the window, and over the whole
    window, grouped under the manager above each team's lead. Five queries: the teams
    with their leads and heads, the weeks of every team, the window of every team
    (three) — only the weeks when `known` (`team_windows`) comes from another zone's
    snapshot of the same slot."""
    known = known or team_windows(window=window, now=now)
    teams, numbers = known.teams, known.numbers
    weeks = health.weekly_by_team(teams, weeks=window.weeks, until=window.until, now=now, tz=tz)
    groups: dict[int | None, list[HeatRow]] = {}
    heads: dict[int | None, PersonRef | None] = {}
    for team in teams:
        head = _head_of(team)
        key = head.pk if head is not None else None
        heads[key] = head
        reps = numbers[team.pk].reps
        shown = not too_few(reps)
        groups.setdefault(key, []).append(
            HeatRow(
                TeamRef.of(team),
                head,
                reps,
                numbers[team.pk] if shown else None,
                weeks[team.pk] if shown else None,
            )
        )
    order = sorted(groups, key=lambda k: (k is None, heads[k].display_name if k else ""))
    mondays = health.calendar_mondays(window.weeks, until=window.until, now=now, tz=tz)
    return Heatmap(mondays, [HeatGroup(heads[k], groups[k]) for k in order])


# --- Where the rhythm breaks ---------------------------------------------------------------


@dataclass(frozen=True)
class MissedRuns:
    """A coach's plans whose latest sessions were missed several times in a row. The
    people they coach are not named: HR talks to the coach."""

    coach: PersonRef
    plans: int
    longest: int
    kinds: list[str]


@dataclass(frozen=True)
class CoverageDrop:
    coach: PersonRef
    reps: int
    before: float
    now: float

    @property
    def points(self) -> int:
        return whole_percent(self.before) - whole_percent(self.now)


@dataclass(frozen=True)
class QuietTeam:
    team: TeamRef
    last_review: datetime | None


@dataclass(frozen=True)
class Attention:
    runs: list[MissedRuns]
    drops: list[CoverageDrop]
    quiet: list[QuietTeam]

    @property
    def empty(self) -> bool:
        return not (self.runs or self.drops or self.quiet)


def _missed_runs(*, window: Window, now: datetime) -> list[MissedRuns]:
    """Two queries: the live plans (not peer pairs') with a miss in the window, then
    how many of each one's latest sessions in a row were missed."""
    candidates = list(
        CadencePlan.objects.live()
        .filter(pair__isnull=True)
        .filter(
            Exists(
                Occurrence.objects.filter(
                    plan=OuterRef("pk"),
                    slot_start__gte=window.since,
                    slot_start__lt=now,
                    session__status=SessionStatus.MISSED,
                )
            )
        )
        .select_related("coach")
        .order_by("pk")
    )
    runs = health.consecutive_misses(candidates, now=now)
    by_coach: dict[int, list[tuple[CadencePlan, int]]] = {}
    for plan in candidates:
        if runs[plan.pk] >= settings.CADENCE_ESCALATE_AFTER:
            by_coach.setdefault(plan.coach_id, []).append((plan, runs[plan.pk]))
    found = [
        MissedRuns(
            coach=PersonRef.of(plans[0][0].coach),
            plans=len(plans),
            longest=max(run for _, run in plans),
            kinds=sorted({plan.get_kind_display() for plan, _ in plans}),
        )
        for plans in by_coach.values()
    ]
    return sorted(found, key=lambda r: (-r.longest, -r.plans, r.coach.display_name))


def _coverage_drops(*, window: Window, now: datetime) -> list[CoverageDrop]:
    """Three queries: coverage of every coach's direct reports now and at the end of
    the previous window, then the coaches whose coverage fell (groups big enough)."""
    current = health.coverage_by_coach(until=window.until, now=now)
    earlier = health.coverage_by_coach(until=window.previous.until, now=now)
    fell = {}
    for coach, (reps, covered) in current.items():
        reps_before, covered_before = earlier.get(coach, (0, 0))
        if too_few(reps) or too_few(reps_before):
            continue
        drop = CoverageDrop(None, reps, covered_before / reps_before, covered / reps)
        if drop.points >= COVERAGE_DROP_POINTS:
            fell[coach] = drop
    coaches = User.objects.in_bulk(list(fell))
    found = [
        CoverageDrop(PersonRef.of(coaches[pk]), d.reps, d.before, d.now) for pk, d in fell.items()
    ]
    return sorted(found, key=lambda d: (-d.points, d.coach.display_name))


def _quiet_teams(*, now: datetime) -> list[QuietTeam]:
    """Two queries: teams with current members, formed long enough ago to have held a
    review, then each one's latest held review."""
    cutoff = now - timedelta(days=QUIET_DAYS)
    teams = list(
        Team.objects.filter(created_at__lt=cutoff)
        .filter(Exists(TeamMembership.objects.current().filter(team=OuterRef("pk"))))
        .select_related("lead")  # for TeamRef
        .order_by("name", "pk")
    )
    last = health.last_call_review_by_team(teams, now=now)
    return [
        QuietTeam(TeamRef.of(team), last[team.pk])
        for team in teams
        if last[team.pk] is None or last[team.pk] < cutoff
    ]


def attention(*, window: Window, now: datetime) -> Attention:
    """Where the rhythm breaks: coaches with plans missed several times in a row,
    coaches whose coverage dropped, teams without a call review for three weeks. Seven
    queries."""
    return Attention(
        runs=_missed_runs(window=window, now=now),
        drops=_coverage_drops(window=window, now=now),
        quiet=_quiet_teams(now=now),
    )


def people_count() -> dict:
    """Head counts for the page's header: one query. Both counts are distinct: the
    managers' count joins each person to their reports, a row per report."""
    return User.objects.filter(is_active=True).aggregate(
        total=Count("pk", distinct=True),
        managers=Count("pk", filter=Q(direct_reports__is_active=True), distinct=True),
    )
