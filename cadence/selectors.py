"""Reads with rules for the cadence pages. A plan is reached through `access_plan`
(404 for what the person may not see, or may not change when they mean to); lists
have fixed query counts whatever their length."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, Max, OuterRef, Prefetch, Q, Subquery
from django.http import Http404
from django.urls import reverse
from django.utils import dateformat, timezone

from coaching.models import (
    RUNNING_ROLES,
    CoachingSession,
    ParticipantRole,
    SessionKind,
    SessionParticipant,
    SessionStatus,
)
from coaching.zones import zoned
from notifications.models import Notification, NotificationKind, NotificationPreference
from people.models import User
from people.roles import Role
from people.selectors import roles_of

from . import escalations, services
from .digest import manager_digest
from .models import CadencePlan, Occurrence, Recurrence, Weekday

MISSES_WEEKS = 4
UPCOMING_DAYS = 14
NOTIFICATIONS_PER_PAGE = 50

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
    return f"{reverse('session_new')}?{urlencode(query)}"


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


# --- Notifications ----------------------------------------------------------------------


@dataclass
class NotificationLine:
    notification: Notification
    text: str
    url: str | None

    @property
    def unread(self) -> bool:
        return self.notification.read_at is None


@dataclass
class NotificationsPage:
    page: Page
    lines: list[NotificationLine]
    unread: int
    newest_id: int | None
    preference: NotificationPreference


WHEN_FORMAT = "D j M, H:i"


def _when(
    session: CoachingSession,
    viewer: User,
    *,
    visible: bool = True,
    moment: datetime | None = None,
    fmt: str = WHEN_FORMAT,
) -> str:
    """When the session starts (or `moment`, a time it was moved from or to), for
    `viewer`, naming their zone when someone else in it reads another time then
    (`coaching.zones`); of a session no longer theirs to see, nothing about the
    others, their zones neither."""
    people = [p.person for p in session.participants.all()] if visible else []
    return zoned(moment or session.scheduled_start, fmt, reader=viewer, among=people)


def _upcoming_label(sent: datetime, starts: datetime) -> str:
    """A reminder says when the session is as of the moment it was sent, in the
    reader's time zone: the reminder window (CADENCE_REMINDER_HOURS) also holds
    sessions later the same day, planned at short notice or sent just before."""
    days = (timezone.localtime(starts).date() - timezone.localtime(sent).date()).days
    return {0: "Session today", 1: "Session tomorrow"}.get(days, "Session coming up")


def _with_whom(session: CoachingSession, viewer: User) -> str:
    if session.team_id and session.kind != SessionKind.ONE_ON_ONE:
        return session.team.name
    names = [p.person.display_name for p in session.participants.all() if p.person_id != viewer.pk]
    return ", ".join(names[:3]) + (" and others" if len(names) > 3 else "")


def _line(row: Notification, viewer: User, visible: set[int]) -> NotificationLine:
    """One line from the kind and what it is about — names and times, never words."""
    label = row.get_kind_display()
    session = row.session
    if row.kind == NotificationKind.DIGEST:
        return NotificationLine(
            row, f"{label} for the week {row.period}", reverse("digest_detail", args=[row.period])
        )
    if row.feedback_request_id is not None:
        asked = row.feedback_request
        due = dateformat.format(asked.due_on, "j M")
        return NotificationLine(
            row,
            f"{label}: {asked.requester.display_name}, by {due}",
            reverse("feedback_request_detail", args=[asked.pk]),
        )
    if row.peer_request_id is not None:
        return NotificationLine(
            row, f"{label}: {row.peer_request.person.display_name}", reverse("pair_new")
        )
    if row.pair_id is not None:
        return NotificationLine(
            row,
            f"{label}: formed by {row.pair.created_by.display_name}",
            reverse("pair_detail", args=[row.pair_id]),
        )
    if row.kind == NotificationKind.SESSION_WITHDRAWN:
        facts = row.withdrawn
        when = zoned(datetime.fromisoformat(facts["start"]), WHEN_FORMAT, reader=viewer)
        return NotificationLine(
            row, f"{label}: {facts['summary']}, {when} ({facts['why']})", reverse("session_list")
        )
    if session is None:
        return NotificationLine(row, label, None)
    if row.session_change_id is not None:
        return _change_line(row, viewer, visible)
    if row.kind == NotificationKind.UPCOMING:
        label = _upcoming_label(row.created_at, session.scheduled_start)
    if session.pk not in visible:  # no longer theirs to see (e.g. a new manager)
        return NotificationLine(
            row,
            f"{label}: {session.get_kind_display()} on {_when(session, viewer, visible=False)}",
            None,
        )
    if row.kind == NotificationKind.ESCALATION and row.plan_id:
        # The run and the place to act, as the email and the digest say them.
        return NotificationLine(
            row,
            f"{label}: {escalations.in_words(row.plan, getattr(row, 'miss_run', 0))}",
            escalations.act_url(row.plan),
        )
    about = session.get_kind_display()
    who = _with_whom(session, viewer)
    about += f" with {who}" if who else ""
    return NotificationLine(
        row,
        f"{label}: {about}, {_when(session, viewer)}",
        reverse("session_detail", args=[session.pk]),
    )


def _change_line(row: Notification, viewer: User, visible: set[int]) -> NotificationLine:
    """ "Session moved by Carla Coach: 1:1 with Rita Rep, Tue 8 Dec, 10:00 → Wed 9 Dec,
    14:00" in the reader's zone; a cancellation names the reason from the list, never
    the note (lines carry no one's words)."""
    change, session = row.session_change, row.session
    if change.actor_id is None:
        by = ""
    elif change.actor_id == viewer.pk:  # told for their calendar's sake (`invitations`)
        by = " by you"
    else:
        by = f" by {change.actor.display_name}"
    about = session.get_kind_display()
    if session.pk in visible:
        who = _with_whom(session, viewer)
        # A 1:1 moved by the other person reads "by Sofia Alvarez: 1:1", not twice.
        if who and not (change.actor_id and who == change.actor.display_name):
            about += f" with {who}"
    if row.kind == NotificationKind.SESSION_MOVED:
        shown = session.pk in visible
        was, now = timezone.localtime(change.from_start), timezone.localtime(change.to_start)
        to_fmt = "H:i" if was.date() == now.date() else WHEN_FORMAT
        to = _when(session, viewer, visible=shown, moment=now, fmt=to_fmt)
        was_when = _when(session, viewer, visible=shown, moment=was)
        text = f"Session moved{by}: {about}, {was_when} → {to}"
    else:
        cancelled = _when(session, viewer, visible=session.pk in visible, moment=change.from_start)
        text = f"Session cancelled{by}: {about}, {cancelled} ({change.get_cancel_reason_display()})"
    url = reverse("session_detail", args=[session.pk]) if session.pk in visible else None
    return NotificationLine(row, text, url)


def unread_count(*, user: User) -> int:
    """How many of the person's notifications are unread (one query)."""
    return Notification.objects.visible_to(user).filter(read_at__isnull=True).count()


def inbox(*, user: User):
    """The person's own notifications, newest first, with what their lines name."""
    return (
        Notification.objects.visible_to(user)
        .select_related(
            "session__team",
            "plan__coach",
            "plan__coachee",
            "plan__team",
            "feedback_request__requester",
            "pair__created_by",
            "peer_request__person",
            "session_change__actor",
        )
        .prefetch_related(
            Prefetch(
                "session__participants",
                queryset=SessionParticipant.objects.select_related("person"),
            )
        )
        .order_by("-created_at", "-id")
    )


def notification_lines(*, user: User, rows) -> list[NotificationLine]:
    """`rows` of `user`'s inbox as one line each, as the page shows them (the page and
    the API say the same). One query (and one more for the runs, when an escalation is
    among them): which of their sessions `user` may still see —
    the page's few checked one by one (`visible_for_lists`): gathering every session
    the head may see, a million, to keep fifty was the page's whole cost."""
    items = list(rows)
    session_ids = {n.session_id for n in items if n.session_id}
    visible = (
        set(
            CoachingSession.objects.visible_for_lists(user)
            .filter(pk__in=session_ids)
            .values_list("pk", flat=True)
        )
        if session_ids
        else set()
    )
    runs = escalations.miss_runs(
        [n.session_id for n in items if n.kind == NotificationKind.ESCALATION and n.session_id]
    )
    for n in items:
        n.miss_run = runs.get(n.session_id, 0)
    return [_line(n, user, visible) for n in items]


def notifications_page(*, user: User, page_number=1) -> NotificationsPage:
    """The person's own notifications, newest first, fifty a page, each as one line;
    their unread count and preferences. Seven queries, whatever the numbers (five when
    no line is about a session)."""
    page = Paginator(inbox(user=user), NOTIFICATIONS_PER_PAGE).get_page(page_number)
    lines = notification_lines(user=user, rows=page.object_list)
    unread = (
        Notification.objects.visible_to(user)
        .filter(read_at__isnull=True)
        .aggregate(count=Count("pk"), newest=Max("pk"))
    )
    preference = NotificationPreference.objects.filter(person=user).first()
    return NotificationsPage(
        page=page,
        lines=lines,
        unread=unread["count"],
        newest_id=unread["newest"],
        preference=preference or NotificationPreference(person=user),
    )


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
