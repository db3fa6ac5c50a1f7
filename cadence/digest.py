"""What the weekly digests count. Counts and names only, never what anyone wrote."""

from datetime import datetime, timedelta

from django.db.models import Count, Q

from coaching.models import (
    CoachingSession,
    Commitment,
    ParticipantRole,
    SessionKind,
    SessionStatus,
)
from people.models import Team, User

from . import escalations


def manager_digest(*, manager: User, now: datetime) -> dict:
    """The past seven days and the next seven for one manager's direct reports."""
    reports = User.objects.filter(reports_to=manager, is_active=True)
    one_on_ones = CoachingSession.objects.filter(
        kind=SessionKind.ONE_ON_ONE,
        participants__role=ParticipantRole.COACHEE,
        participants__person__in=reports,
    )
    week = one_on_ones.filter(scheduled_start__gte=now - timedelta(days=7), scheduled_start__lt=now)
    counts = week.aggregate(
        due=Count("pk", distinct=True),
        held=Count("pk", filter=Q(status=SessionStatus.HELD), distinct=True),
        missed=Count("pk", filter=Q(status=SessionStatus.MISSED), distinct=True),
        cancelled=Count("pk", filter=Q(status=SessionStatus.CANCELLED), distinct=True),
    )
    recently_held = one_on_ones.filter(
        status=SessionStatus.HELD, scheduled_start__gte=now - timedelta(days=14)
    ).values("participants__person")
    open_commitments = Commitment.objects.open().filter(owner__in=reports)
    return {
        **counts,
        "upcoming": one_on_ones.filter(
            status=SessionStatus.SCHEDULED,
            scheduled_start__gte=now,
            scheduled_start__lt=now + timedelta(days=7),
        )
        .distinct()
        .count(),
        "without_recent_one_on_one": list(
            reports.exclude(pk__in=recently_held).order_by("display_name")
        ),
        "open_commitments": open_commitments.count(),
        "overdue_commitments": open_commitments.filter(due_on__lt=now.date()).count(),
        "escalations": escalations_of_the_week(manager=manager, now=now),
    }


def escalations_of_the_week(*, manager: User, now: datetime) -> list[escalations.Escalated]:
    """The runs of misses below `manager` they were told of in the seven days, worded and
    linked as the notification line and the email (two queries; one without any)."""
    return escalations.escalated(
        escalations.escalations_to(manager).filter(
            created_at__gte=now - timedelta(days=7), created_at__lt=now
        )
    )


def team_digest(*, team: Team, now: datetime) -> dict:
    sessions = CoachingSession.objects.filter(
        Q(team=team)
        | Q(
            kind=SessionKind.ONE_ON_ONE,
            participants__role=ParticipantRole.COACHEE,
            participants__person__memberships__team=team,
            participants__person__memberships__left_at__isnull=True,
        ),
        scheduled_start__gte=now - timedelta(days=7),
        scheduled_start__lt=now,
    )
    counts = sessions.aggregate(
        due=Count("pk", distinct=True),
        held=Count("pk", filter=Q(status=SessionStatus.HELD), distinct=True),
        reviews_held=Count(
            "pk",
            filter=Q(status=SessionStatus.HELD, kind=SessionKind.TEAM_CALL_REVIEW),
            distinct=True,
        ),
    )
    return {"due": counts["due"], "held": counts["held"], "review_held": counts["reviews_held"] > 0}
