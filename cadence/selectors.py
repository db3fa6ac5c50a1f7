"""Reads with rules for the cadence pages. A plan is reached through `access_plan`
(404 for what the person may not see, or may not change when they mean to); lists
have fixed query counts whatever their length."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode

from django.db.models import Exists, OuterRef, Q, Subquery
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from coaching.models import (
    RUNNING_ROLES,
    CoachingSession,
    ParticipantRole,
    SessionKind,
    SessionStatus,
)
from notifications.models import Notification, NotificationKind
from people.models import User
from people.roles import Role
from people.selectors import roles_of

from . import services
from .digest import manager_digest
from .models import CadencePlan, Occurrence, Recurrence, Weekday

MISSES_WEEKS = 4
UPCOMING_DAYS = 14

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def describe_rule(rule, *, time_zone: str | None = None) -> str:
    """A plan's (or policy item's) rule in words: "Tuesdays 10:00 Europe/Berlin,
    weekly", "2nd Wednesday of the month, 14:00 Europe/Berlin"."""
    zone = time_zone if time_zone is not None else getattr(rule, "time_zone", "")
    at = f"{rule.local_time:%H:%M}{f' {zone}' if zone else ''}"
    day = Weekday(rule.weekday).label
    if rule.recurrence == Recurrence.WEEKLY:
        every = "weekly" if rule.interval_weeks == 1 else f"every {rule.interval_weeks} weeks"
        return f"{day}s {at}, {every}"
    if rule.recurrence == Recurrence.MONTHLY_NTH:
        return f"{ORDINAL.get(rule.week_of_month, rule.week_of_month)} {day} of the month, {at}"
    return f"Last {day} of the month, {at}"


# --- Plans ------------------------------------------------------------------------------


def plans_with_next(queryset, *, now: datetime):
    """Plans with the start and id of their next scheduled session (one query)."""
    upcoming = Occurrence.objects.filter(
        plan=OuterRef("pk"),
        session__status=SessionStatus.SCHEDULED,
        session__scheduled_start__gte=now,
    ).order_by("session__scheduled_start")
    return queryset.select_related("coach", "coachee", "team").annotate(
        next_start=Subquery(upcoming.values("session__scheduled_start")[:1]),
        next_session_id=Subquery(upcoming.values("session_id")[:1]),
    )


def plan_decorate(plan: CadencePlan) -> CadencePlan:
    plan.rule_text = describe_rule(plan)
    plan.with_whom = (
        plan.coachee.display_name if plan.coachee_id else (plan.team.name if plan.team_id else "")
    )
    return plan


def access_plan(*, user: User, pk: int, manage: bool = False) -> CadencePlan:
    """The plan — or 404 if `user` may not see it (coach, coachee, people above the
    coach, programme admins), or, with `manage`, may not change it (the coach, people
    above them, programme admins). A programme admin's roles are read only when the
    plan is not in their own line."""
    now = timezone.now()
    plan = plans_with_next(CadencePlan.objects.visible_to(user), now=now).filter(pk=pk).first()
    if plan is None and Role.PROGRAMME_ADMIN in roles_of(user):
        plan = plans_with_next(CadencePlan.objects.all(), now=now).filter(pk=pk).first()
    if plan is None or (manage and not services.may_manage(actor=user, plan=plan)):
        raise Http404
    return plan_decorate(plan)


@dataclass
class MyCadence:
    plans: list[CadencePlan]
    misses: list[CoachingSession]
    upcoming: list[CoachingSession]


def _makeup_url(session: CoachingSession, viewer: User) -> str:
    """/sessions/new/ filled in for a make-up of a missed session."""
    query = {"kind": session.kind}
    if session.kind in (SessionKind.ONE_ON_ONE, SessionKind.MANAGER_REVIEW) and session.coachee:
        query["with"] = session.coachee.pk
    elif session.kind == SessionKind.PEER:
        other = next(
            (p.person for p in session.participants.all() if p.person_id != viewer.pk), None
        )
        if other is not None:
            query["with"] = other.pk
    return f"{reverse('coaching:session_new')}?{urlencode(query)}"


def plans_run_by(*, coach: User, now=None) -> list[CadencePlan]:
    """The live plans `coach` runs, each with its next session and its rule in words, as
    My cadence lists them (the API's list too)."""
    live = CadencePlan.objects.live().filter(coach=coach)
    return [plan_decorate(p) for p in plans_with_next(live, now=now or timezone.now())]


def my_cadence(*, coach: User, allow_empty: bool = False) -> MyCadence:
    """What `coach` runs: live plans with their next session, their missed sessions of
    the last four weeks, and the sessions they run in the next two weeks (from a plan
    or one-off). 404 for someone who runs no plan unless `allow_empty` (managers, whose
    plans may not exist yet). Five queries, whatever the numbers."""
    now = timezone.now()
    plans = plans_run_by(coach=coach, now=now)
    if not plans and not allow_empty and not CadencePlan.objects.filter(coach=coach).exists():
        raise Http404
    running = Q(participants__person=coach) & Q(
        participants__role__in=[*RUNNING_ROLES, ParticipantRole.PEER]
    )
    misses = list(
        CoachingSession.objects.filter(running)
        .filter(
            status=SessionStatus.MISSED,
            scheduled_start__gte=now - timedelta(weeks=MISSES_WEEKS),
        )
        .with_people()
        .order_by("-scheduled_start", "-pk")
    )
    for session in misses:
        session.makeup_url = _makeup_url(session, coach)
    upcoming = list(
        CoachingSession.objects.filter(running)
        .filter(
            status=SessionStatus.SCHEDULED,
            scheduled_start__gte=now,
            scheduled_start__lt=now + timedelta(days=UPCOMING_DAYS),
        )
        .annotate(from_plan=Exists(Occurrence.objects.filter(session=OuterRef("pk"))))
        .with_people()
        .order_by("scheduled_start", "pk")
    )
    return MyCadence(plans=plans, misses=misses, upcoming=upcoming)


# --- Digests ----------------------------------------------------------------------------


@dataclass
class DigestPage:
    notification: Notification
    digest: dict


def access_digest(*, user: User, period: str) -> DigestPage:
    """The weekly digest `user` was sent for `period` (e.g. 2026-W47), counted as of the
    moment it was queued, as its email was — or 404: a digest is its recipient's alone."""
    row = (
        Notification.objects.visible_to(user)
        .filter(kind=NotificationKind.DIGEST, period=period, session__isnull=True)
        .first()
    )
    if row is None:
        raise Http404
    return DigestPage(notification=row, digest=manager_digest(manager=user, now=row.created_at))
