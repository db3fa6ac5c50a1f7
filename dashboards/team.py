"""Reads for "My team" (a manager's dashboard) and the monthly manager review (the
managers below a manager of managers). Every number is defined in `cadence.health`
or `dashboards.focus` and only composed here; each dashboard costs a fixed number
of queries whatever the number of people, teams, managers or sessions.

Who sees what: a manager their own dashboard (with their inbox, and their session
ratings with comments); anyone above a manager that manager's dashboard, read-only
(no inbox, ratings as numbers only). `access_manager` is the rule; 404 otherwise."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, time, timedelta

from django.conf import settings
from django.core.paginator import Page
from django.db.models import Count, Max
from django.db.models import Window as Over
from django.http import Http404
from django.utils import timezone

from cadence.health import (
    COVERAGE_DAYS,
    HEALTH_KINDS,
    LEADING_ROLES,
    HealthNumbers,
    WeekNumbers,
    consecutive_misses,
    health_by_coach,
    streaks,
    weekly_by_coach,
)
from cadence.models import CadencePlan
from coaching import selectors as coaching
from coaching.models import (
    CancelReason,
    CoachingSession,
    Commitment,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionState,
    SessionStatus,
)
from coaching.ratings import (
    RATING_MIN_RATERS,
    RATING_MIN_RATINGS,
    SCORES,
    RatingSummary,
    released_summaries,
)
from core.queries import in_order
from feedback import selectors as feedback
from people.below import Below, below_of
from people.models import Team, User
from scorecards.charts import distribution_bar, sparkline

from . import snapshots
from .charts import percent
from .focus import SkillTrend, skill_trends
from .paging import page_of
from .waiting import Waiting, waiting_for
from .windows import Window, window_ending

INBOX_SHOWN = 5
OVERDUE_SHOWN = 5


# --- Who may look ----------------------------------------------------------------------


def access_manager(*, viewer: User, pk: int) -> User:
    """A manager below `viewer` (at any depth) whose dashboard they may read — else
    404: their peers, the people below them, HR and admins get nothing. The managers
    below `viewer` as "My team" lists them (`people.below`: no walk while the reporting
    lines stay as they are), then the one (one query)."""
    if pk not in below_of(viewer).managers:
        raise Http404
    return User.objects.get(pk=pk)


# --- This week -------------------------------------------------------------------------

# What became of a session this week, in the order the panel lists them: its state
# (`coaching.models.SessionState`, as the session page words it), with sessions
# cancelled before their start counted apart.
WEEK_STATES = {
    "held": SessionState.HELD.label,
    "to_log": SessionState.TO_LOG.label,
    "missed": SessionState.MISSED.label,
    "cancelled": SessionState.CANCELLED.label,
    "to_come": "Still to come",
    "cancelled_ahead": "Cancelled ahead",
}


def _state(session: CoachingSession, now: datetime) -> str:
    state = session.state_at(now)
    if state == SessionState.CANCELLED and not session.has_started(now):
        return "cancelled_ahead"
    return state.value


@dataclass
class WeekPanel:
    """The sessions a manager leads (as coach or team lead, every kind but peer
    coaching) scheduled from Monday 00:00 to the next Monday in their time zone."""

    starts: datetime
    ends: datetime
    sessions: list[CoachingSession]
    counts: dict[str, int]
    cancellations: dict[str, int]  # reason label → due cancelled sessions

    @property
    def first_day(self):
        return self.starts.date()

    @property
    def last_day(self):
        return (self.ends - timedelta(days=1)).date()

    @property
    def due(self) -> int:
        """As `cadence.health` defines Due: started, whatever became of it."""
        return sum(self.counts[s] for s in ("held", "to_log", "missed", "cancelled"))

    @property
    def needs_action(self) -> list[CoachingSession]:
        return [s for s in self.sessions if s.week_state in ("to_log", "missed")]


def week_bounds(*, person: User, now: datetime) -> tuple[datetime, datetime]:
    tz = person.tzinfo
    monday = now.astimezone(tz).date()
    monday -= timedelta(days=monday.weekday())
    return (
        datetime.combine(monday, time.min, tzinfo=tz),
        datetime.combine(monday + timedelta(weeks=1), time.min, tzinfo=tz),
    )


def this_week(*, manager: User, now: datetime) -> WeekPanel:
    """Two queries (the sessions, their people)."""
    starts, ends = week_bounds(person=manager, now=now)
    sessions = list(
        CoachingSession.objects.filter(
            kind__in=HEALTH_KINDS,
            participants__person=manager,
            participants__role__in=LEADING_ROLES,
            # The participants' copy of the time: a range of their index.
            participants__scheduled_start__gte=starts,
            participants__scheduled_start__lt=ends,
        )
        .with_people()
        .order_by("scheduled_start", "pk")
    )
    counts = Counter(dict.fromkeys(WEEK_STATES, 0))
    reasons: Counter = Counter()
    labels = dict(CancelReason.choices)
    for session in sessions:
        session.week_state = _state(session, now)
        session.week_state_label = WEEK_STATES[session.week_state]
        counts[session.week_state] += 1
        if session.week_state == "cancelled":
            reasons[labels.get(session.cancel_reason, session.cancel_reason)] += 1
    return WeekPanel(starts, ends, sessions, dict(counts), dict(sorted(reasons.items())))


# --- Coaching quality of managers ------------------------------------------------------


@dataclass
class CoachRow:
    """How one manager coaches, over the window: `health` is `health(Scope.coach(p))`
    (adherence, on-time, held-but-empty, close rate over the sessions they led;
    coverage of their direct reports); `runs` is plans with consecutive misses."""

    person: User
    health: HealthNumbers
    plans_missing: int = 0  # live plans with at least ESCALATE_AFTER misses in a row
    longest_run: int = 0
    usefulness: Usefulness | None = None
    weeks: list[WeekNumbers] = field(default_factory=list)
    weekly_chart: str = ""


@dataclass(frozen=True)
class Usefulness:
    """A coach's released usefulness (`coaching.ratings.released_summaries`), with its
    distribution drawn when shown."""

    summary: RatingSummary
    counted_until: datetime | None  # None: nothing counted yet
    weeks: int
    chart: str = ""
    min_ratings: int = RATING_MIN_RATINGS
    min_raters: int = RATING_MIN_RATERS

    @property
    def counted_to(self):
        """The Monday the count stops at, as a date (00:00 UTC that day)."""
        return self.counted_until.date() if self.counted_until else None


def usefulness_of(coaches: list[int], *, comments_for: int | None = None) -> dict[int, Usefulness]:
    """Session usefulness per coach: numbers for everyone; the words only for
    `comments_for` (the coach reading their own dashboard) — never read for the
    others at all. The same whatever the page's window (see `released_summaries`)."""
    return {
        pk: Usefulness(r.summary, r.counted_until, r.weeks, _rating_chart(r.summary))
        for pk, r in released_summaries(coaches=coaches, comments_for=comments_for).items()
    }


def _rating_chart(summary: RatingSummary) -> str:
    if not summary.shown or not summary.ratings:
        return ""
    spread = ", ".join(f"{score}: {n}" for score, n in summary.distribution.items())
    return distribution_bar(
        counts=summary.distribution,
        scale_max=max(SCORES),
        label=f"How {summary.ratings} ratings spread from 1 (not useful) to 5 (very useful): "
        f"{spread}",
    )


def coach_rows(
    coaches: list[User], *, window: Window, now: datetime, comments_for: int | None = None
) -> dict[int, CoachRow]:
    """Per coach: health over the window, week by week adherence, plans with
    consecutive misses, session usefulness. A fixed number of queries however many
    coaches (health 3, weeks 1, plans 1, runs 1, ratings 1 — and with
    `comments_for`, the one coach whose comments are read, one or two more)."""
    ids = [c.pk for c in coaches]
    numbers = health_by_coach(ids, since=window.since, until=window.until, now=now)
    by_week = weekly_by_coach(
        ids, weeks=window.weeks, until=window.until, now=now, tz=timezone.get_current_timezone()
    )
    plans = list(
        CadencePlan.objects.live()
        .filter(coach__in=ids, kind__in=HEALTH_KINDS)
        .values_list("pk", "coach_id")
    )
    runs = consecutive_misses([pk for pk, _ in plans], now=now) if plans else {}
    rows = {c.pk: CoachRow(c, numbers[c.pk]) for c in coaches}
    threshold = settings.CADENCE_ESCALATE_AFTER
    for pk, coach_id in plans:
        row, run = rows[coach_id], runs.get(pk, 0)
        row.longest_run = max(row.longest_run, run)
        row.plans_missing += run >= threshold
    for pk, usefulness in usefulness_of(ids, comments_for=comments_for).items():
        rows[pk].usefulness = usefulness
    for row in rows.values():
        row.weeks = by_week[row.person.pk]
        row.weekly_chart = _weekly_sparkline(row)
    return rows


def _weekly_sparkline(row: CoachRow) -> str:
    """Adherence week by week as a sparkline on 0–100% (drawn on a 0–4 scale plus
    one, as `sparkline` draws 1..scale_max); nothing when nothing was due."""
    values = [None if w.adherence is None else 1 + 4 * w.adherence for w in row.weeks]
    if all(v is None for v in values):
        return ""
    first = row.weeks[0].week_start
    return sparkline(
        values=values,
        scale_max=5,
        label=f"{row.person.display_name}: adherence week by week since the week of "
        f"{first:%-d %b}, " + ", ".join(_percent(w.adherence) for w in row.weeks),
    )


def _percent(value: float | None) -> str:
    return "nothing due" if value is None else percent(value)


# --- The dashboard ---------------------------------------------------------------------


@dataclass
class TeamDashboard:
    manager: User
    own: bool  # the manager's own view: their inbox, rating comments, actions
    window: Window
    week: WeekPanel
    reports: list[User]  # direct reports, each with .trend, .streak, .not_covered, .new_here
    teams_led: list[Team]
    people_below_count: int
    coaching: CoachRow  # the manager's own coaching over the window
    overdue: list[Commitment] = field(default_factory=list)
    inbox: list | None = None  # requests waiting on the manager (own view only)
    inbox_count: int = 0
    managers_below: ManagersReview | None = None  # managers of managers only
    waiting: Waiting | None = None  # everything waiting for the manager (own view only)

    @property
    def not_covered(self) -> list[User]:
        return [p for p in self.reports if p.not_covered]

    @property
    def new_without_one_on_one(self) -> list[User]:
        """Reporting here for less than the coverage window, with no 1:1 held yet."""
        return [p for p in self.reports if p.new_here]

    @property
    def open_commitments(self) -> int:
        return sum(p.open_commitments for p in self.reports)

    @property
    def overdue_commitments(self) -> int:
        return sum(p.overdue_commitments for p in self.reports)

    @property
    def coverage_days(self) -> int:
        return COVERAGE_DAYS


def last_reviews(people: list[User]) -> dict[int, datetime]:
    """When each person last had a held manager review as coachee (the monthly rhythm
    of a manager with their own manager, beside the weekly 1:1's). One query."""
    rows = (
        SessionParticipant.objects.filter(
            person__in=[p.pk for p in people],
            role=ParticipantRole.COACHEE,
            session__kind=SessionKind.MANAGER_REVIEW,
            session__status=SessionStatus.HELD,
        )
        .values("person_id")
        .annotate(last=Max("session__scheduled_start"))
        .order_by()
    )
    return {row["person_id"]: row["last"] for row in rows}


def page_of_managers(
    manager: User, number: int, *, below: Below | None = None
) -> tuple[Page, list[User]]:
    """The page asked for of the managers below `manager` (`people.below`: in name
    order, kept while the reporting lines stay as they are), and its managers (one
    query, and the summary's one or two unless given)."""
    found = page_of((below or below_of(manager)).managers, number)
    rows = User.objects.select_related("reports_to")
    return found, in_order(rows, list(found.object_list))


@dataclass
class ManagersReview:
    window: Window
    page: Page  # of the managers below, MANAGERS_PER_PAGE at a time
    rows: list[CoachRow]  # the page's managers, each with their numbers
    as_of: datetime  # the start of the refresh slot the numbers are of
    # What the numbers are kept under, and for how long (0: not kept), for the page to
    # keep the rows it draws from them as long (drawing 25 rows costs more than reading).
    key: str = ""
    kept_seconds: int = 0


@dataclass(frozen=True)
class _KeptRows:
    """A page of managers' numbers as kept for a slot: each row without its person
    (re-read with the page, so the cache holds numbers, never a user row)."""

    as_of: datetime
    window: Window
    rows: dict[int, CoachRow]


def managers_review(
    *,
    manager: User,
    weeks: int,
    page: int = 1,
    below: Below | None = None,
    now: datetime | None = None,
) -> ManagersReview:
    """A page of the managers below `manager`, each with their coaching numbers
    (numbers only: no rating comments) — the monthly manager review. Only the page's
    managers are computed: below an organisation's head there are a thousand.

    Worked out as of the refresh slot (`dashboards.snapshots`, like HR's pages) and
    kept for it under the reporting lines' version: 25 managers' numbers are most of a
    head's "My team" (bench/pages.py), and they are the same for everyone above those
    managers. A change of manager, name or activity starts afresh; a session logged
    shows at the next slot, the page says as of when."""
    summary = below or below_of(manager)
    found, managers = page_of_managers(manager, page, below=summary)

    def work(as_of: datetime) -> _KeptRows:
        window = window_ending(weeks=weeks, now=as_of)
        rows = coach_rows(managers, window=window, now=as_of) if managers else {}
        return _KeptRows(as_of, window, {pk: replace(row, person=None) for pk, row in rows.items()})

    if summary.version is None:  # no reporting version to keep it under yet
        kept = work(snapshots.slot_start(now))
        return ManagersReview(kept.window, found, _with_people(kept, managers), kept.as_of)
    scope = (manager.pk, found.number, weeks, summary.version)
    tz = timezone.get_current_timezone()
    kept = snapshots.kept_per_slot("managers", *scope, tz=tz, now=now, work=work)
    key = ":".join(str(part) for part in (*scope, tz, kept.as_of.isoformat()))
    return ManagersReview(
        kept.window, found, _with_people(kept, managers), kept.as_of, key, snapshots.kept_seconds()
    )


def _with_people(kept: _KeptRows, managers: list[User]) -> list[CoachRow]:
    return [replace(kept.rows[m.pk], person=m) for m in managers]


def team_dashboard(
    *,
    viewer: User,
    manager: User,
    window: Window,
    now: datetime | None = None,
    charts: str = "sparkline",
    managers_page: int = 1,
    waiting: bool = False,
) -> TeamDashboard:
    """Everything "My team" shows for `manager`, as `viewer` may see it (the manager
    themselves, or someone above them: `access_manager` decides that first).
    `charts=""` leaves the sparklines out (the API); `waiting` adds, on their own view,
    everything waiting for the manager (the page)."""
    now = now or timezone.now()
    own = viewer.pk == manager.pk
    reports = coaching.people_overview(manager=manager)
    trends: dict[int, SkillTrend] = skill_trends(viewer=viewer, people=reports, charts=charts)
    runs = streaks(reports, now=now) if reports else {}
    reviews = last_reviews(reports) if reports else {}
    cutoff = now - timedelta(days=COVERAGE_DAYS)
    for person in reports:
        person.trend = trends[person.pk]
        person.streak = runs.get(person.pk, 0)
        person.last_review_at = reviews.get(person.pk)
        recent = person.last_held_at is not None and person.last_held_at >= cutoff
        # Reporting here for less than the coverage window, and no 1:1 yet: new, not late.
        person.new_here = not recent and bool(
            person.reports_since and person.reports_since > cutoff
        )
        person.not_covered = not recent and not person.new_here
    summary = below_of(manager)
    own_row = coach_rows(
        [manager], window=window, now=now, comments_for=manager.pk if own else None
    )
    dashboard = TeamDashboard(
        manager=manager,
        own=own,
        window=window,
        week=this_week(manager=manager, now=now),
        reports=reports,
        teams_led=list(Team.objects.filter(lead=manager).order_by("name")),
        people_below_count=summary.everyone,
        coaching=own_row[manager.pk],
        overdue=list(
            Commitment.objects.open()
            .filter(
                owner__reports_to=manager,
                owner__is_active=True,
                due_on__lt=timezone.localdate(),
            )
            .select_related("owner")
            .order_by("due_on", "pk")[:OVERDUE_SHOWN]
        ),
        managers_below=(
            managers_review(
                manager=manager, weeks=window.weeks, page=managers_page, below=summary, now=now
            )
            if summary.managers
            else None
        ),
    )
    if own:
        inbox = list(
            feedback.feedback_inbox(user=manager).annotate(total=_window_count())[:INBOX_SHOWN]
        )
        dashboard.inbox = inbox
        dashboard.inbox_count = inbox[0].total if inbox else 0
        if waiting:
            dashboard.waiting = waiting_for(person=manager, now=now, inbox=inbox)
    return dashboard


def _window_count() -> Over:
    """COUNT(*) OVER (): the whole count on every row, so one query gives the first
    few rows and how many there are."""
    return Over(Count("pk"))
