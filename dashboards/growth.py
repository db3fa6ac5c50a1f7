"""Reads for "My coaching" (everyone's growth page): goals, open commitments, the
scorecard trend on the active focus area, feedback themes, what waits on me, what
comes next and what I can still rate. Always the signed-in person's own, read as
them — the reveal rule applies to their own trend — in a fixed number of queries.

Feedback themes come from the developmental stream only (evaluation never shapes
the growth page) and only from what the person received, counted as on the feedback
page: per theme the person put on items, the last `RECENT_DAYS` days and before."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, F, Q
from django.db.models import Window as Over
from django.utils import timezone

from cadence.models import Closure
from cadence.selectors_closures import closures_coming
from coaching import selectors as coaching
from coaching.models import CoachingSession, Commitment, FocusArea, Goal, ParticipantRole
from coaching.ratings import sessions_to_rate
from coaching.selectors_goals import current_goal
from feedback import selectors as feedback
from feedback.models import Feedback, Stream
from feedback.views import RECENT_DAYS
from people.models import Team, User
from people.selectors import current_teams, management_chain
from scorecards import selectors as scorecards

from .focus import SkillTrend, active_areas, applying, skill_trends
from .waiting import Waiting, waiting_for

INBOX_SHOWN = 5
LATEST_FEEDBACK = 3


@dataclass
class GrowthDashboard:
    person: User
    manager: User | None
    skip_level: User | None
    teams: list[Team]
    goals: list[Goal]
    goal_line: str  # without active goals: the Goal of the latest 1:1 notes
    commitments: list[Commitment]
    focus_areas: list[FocusArea]
    trend: SkillTrend
    upcoming: list[CoachingSession]
    recent: list[CoachingSession]
    themes: list[dict]
    inbox: list
    inbox_count: int
    latest_feedback: list[Feedback]
    last_asked_at: datetime | None  # when I last asked anyone for feedback
    scorecards_waiting: int
    to_rate: list[CoachingSession] = field(default_factory=list)
    closures: list[Closure] = field(default_factory=list)  # closed days coming up
    waiting: Waiting = field(default_factory=Waiting)  # everything waiting for me
    recent_days: int = RECENT_DAYS

    @property
    def next_session(self) -> CoachingSession | None:
        return self.upcoming[0] if self.upcoming else None

    @property
    def next_to_prepare(self) -> CoachingSession | None:
        """The next session I am coached in (a 1:1, a manager review): it has a
        prepare page."""
        for session in self.upcoming:
            if any(
                p.person_id == self.person.pk and p.role == ParticipantRole.COACHEE
                for p in session.participants.all()
            ):
                return session
        return None

    @property
    def overdue_commitments(self) -> int:
        return sum(c.is_overdue for c in self.commitments)


def themes_of(*, person: User, now: datetime | None = None) -> list[dict]:
    """Themes on the developmental feedback `person` received (anonymous answers still
    held back left out, as on the feedback page), counted over the last RECENT_DAYS
    days and before; most used first. One query."""
    since = (now or timezone.now()) - timedelta(days=RECENT_DAYS)
    rows = (
        feedback.my_feedback(user=person, stream=Stream.DEVELOPMENTAL)
        .values(theme=F("themes__name"))
        .annotate(
            recent=Count("pk", filter=Q(created_at__gte=since)),
            earlier=Count("pk", filter=Q(created_at__lt=since)),
        )
        .order_by()
    )
    found = [
        {**row, "total": row["recent"] + row["earlier"]}
        for row in rows  # values() leaves the prefetches aside
        if row["theme"] is not None  # items without a theme
    ]
    return sorted(found, key=lambda r: (-r["total"], r["theme"]))


def growth_dashboard(
    *, person: User, now: datetime | None = None, waiting: bool = False, roles=None
) -> GrowthDashboard:
    """Everything "My coaching" shows; `waiting` adds everything waiting for `person`
    (the page, which knows their `roles`; the API leaves it out)."""
    now = now or timezone.now()
    chain = management_chain(person=person)
    teams = list(current_teams(person=person))
    goals = list(coaching.goals_of(viewer=person, owner=person).filter(status="active"))
    team_ids = {t.pk for t in teams}
    areas = active_areas(today=timezone.localdate(), team_ids=team_ids)
    trend = skill_trends(
        viewer=person,
        people=[person],
        charts="chart",
        areas=areas,
        team_ids={person.pk: team_ids},
    )[person.pk]
    inbox = list(
        feedback.feedback_inbox(user=person).annotate(total=Over(Count("pk")))[:INBOX_SHOWN]
    )
    latest = list(
        feedback.my_feedback(user=person, stream=Stream.DEVELOPMENTAL).prefetch_related(None)[
            :LATEST_FEEDBACK
        ]
    )
    for item in latest:
        item.shown_author = feedback.author_shown(item, person)
    upcoming, recent = coaching.upcoming_and_recent(person=person, upcoming=5, recent=5)
    to_rate = _to_rate(person, now)
    return GrowthDashboard(
        person=person,
        manager=chain[0] if chain else None,
        skip_level=chain[1] if len(chain) > 1 else None,
        teams=teams,
        goals=goals,
        goal_line="" if goals else current_goal(person=person),
        commitments=list(
            coaching.commitments_of(viewer=person, owner=person).filter(status="open")
        ),
        focus_areas=applying(team_ids, areas),
        trend=trend,
        upcoming=upcoming,
        recent=recent,
        themes=themes_of(person=person, now=now),
        inbox=inbox,
        inbox_count=inbox[0].total if inbox else 0,
        latest_feedback=latest,
        last_asked_at=feedback.last_asked(user=person),
        scorecards_waiting=scorecards.waiting_on(user=person).count(),
        to_rate=to_rate,
        closures=closures_coming(),
        waiting=(
            waiting_for(person=person, now=now, inbox=inbox, to_rate=to_rate, roles=roles)
            if waiting
            else Waiting()
        ),
    )


def _to_rate(person: User, now: datetime) -> list[CoachingSession]:
    """Held sessions of mine still open for rating, newest first (one query)."""
    return sessions_to_rate(person=person, now=now)
