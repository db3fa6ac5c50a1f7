"""What an escalation says and where it leads, the same in the in-app line, the email and
the weekly digest: whose plan keeps being missed, how many times in a row, and the two
places a manager's manager acts — the coachee's coaching history (where the misses are)
and a manager review to plan with the coach."""

from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlencode

from django.db.models import Count, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.urls import reverse

from coaching.models import SessionKind, SessionStatus
from notifications.models import Notification, NotificationKind

from .models import CadencePlan, Occurrence

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def miss_runs(session_ids) -> dict[int, int]:
    """For each triggering session, how many of its plan's occurrences were missed in a
    row up to it (a held or cancelled one ends a run), as the escalation said it when
    it was sent — one query however many."""
    if not session_ids:
        return {}
    # The latest break before it, as `health.consecutive_misses` counts a run today.
    kept = (
        Occurrence.objects.filter(
            plan_id=OuterRef("plan_id"), slot_start__lt=OuterRef("slot_start")
        )
        .exclude(session__status__in=[SessionStatus.MISSED, SessionStatus.SCHEDULED])
        .order_by("-slot_start")
        .values("slot_start")[:1]
    )
    missed = (
        Occurrence.objects.filter(
            plan_id=OuterRef("plan_id"),
            slot_start__lte=OuterRef("slot_start"),
            slot_start__gt=OuterRef("since"),
            session__status=SessionStatus.MISSED,
        )
        .order_by()
        .values("plan_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        Occurrence.objects.filter(session_id__in=session_ids)
        .annotate(since=Coalesce(Subquery(kept), Value(EPOCH)))
        .annotate(run=Subquery(missed))
        .values_list("session_id", "run")
    )
    return {session_id: run or 0 for session_id, run in rows}


def review_url(plan: CadencePlan) -> str:
    """/sessions/new/ filled in for a manager review with the plan's coach."""
    query = urlencode({"kind": SessionKind.MANAGER_REVIEW, "with": plan.coach_id})
    return f"{reverse('coaching:session_new')}?{query}"


def act_url(plan: CadencePlan) -> str:
    """Where the misses show: the coachee's coaching history, or for a team plan the
    coach's own page (their team's sessions with them)."""
    person = plan.coachee_id or plan.coach_id
    return reverse("coaching:person_detail", args=[person]) + "#h-heading"


def in_words(plan: CadencePlan, run: int) -> str:
    """ "Rita Rep's 1:1s with Mia Manager: 3 missed in a row" (a team plan names the team)."""
    kind = plan.get_kind_display()
    times = f"missed {run} times in a row" if run else "missed again"
    if plan.coachee_id:
        return f"{plan.coachee.display_name}'s {kind}s with {plan.coach.display_name} {times}"
    return f"{plan.team.name}'s {kind}s with {plan.coach.display_name} {times}"


@dataclass
class Escalated:
    """One escalation as the digest and the homes list it: the words, and both links."""

    text: str
    url: str
    review_url: str
    coach: str  # the coach's short name, for "Plan a manager review with Marcus"


def escalated(rows) -> list[Escalated]:
    """Escalation notifications (their plans' people selected) as `Escalated`, in order
    (one query for their runs; none without any)."""
    rows = list(rows)
    runs = miss_runs([n.session_id for n in rows if n.session_id])
    return [
        Escalated(
            text=in_words(n.plan, runs.get(n.session_id, 0)),
            url=act_url(n.plan),
            review_url=review_url(n.plan),
            coach=n.plan.coach.get_short_name(),
        )
        for n in rows
    ]


def escalations_to(manager) -> QuerySet[Notification]:
    """The escalations `manager` received, newest first, with what their words name."""
    return (
        Notification.objects.filter(
            recipient=manager, kind=NotificationKind.ESCALATION, plan__isnull=False
        )
        .select_related("plan__coach", "plan__coachee", "plan__team")
        .order_by("-created_at", "-id")
    )
