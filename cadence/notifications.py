"""The notification kinds the cadence sends (`notifications.kinds`): what each message
says, whether it is still worth sending when its turn comes, and its line in the
in-app list (`notification_lines`). Registered at the app's `ready()`.

Sessions: the reminder the day before, a missed session, an escalation, the calendar
invitation, a move or cancellation, a withdrawal; the weekly digests; a team's call
review reminder and digest in its channel. A pair's invitation and a request for a
peer are told by `peers.notifications`, feedback requests by `feedback.notifications`."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import prefetch_related_objects
from django.urls import reverse
from django.utils import timezone

from coaching.models import ParticipantRole, SessionParticipant, SessionStatus
from coaching.selectors import open_commitments_seen_by
from notifications import kinds
from notifications.delivery import absolute
from notifications.models import Notification, NotificationKind

from . import escalations, invitations, notification_lines
from .calendar import itip_ical, itip_withdrawn
from .digest import manager_digest, team_digest

# Told once per change (`Notification.session_change`), so a session moved twice is
# told twice; the other session kinds are once per session.
CHANGE_KINDS = (NotificationKind.SESSION_MOVED, NotificationKind.SESSION_CANCELLED)

CARRIED_COMMITMENTS = 10  # listed in a "session tomorrow" reminder, soonest due first


def prefetch(rows: list[Notification]) -> None:
    """Load what the session kinds' messages of a claim read for all its rows at once
    (one call for every such row of the claim, `kinds.Kind.prefetch`), in a fixed
    number of queries however many rows: the sessions' participants and their people,
    and for each "session tomorrow" reminder the coachee's open commitments that its
    recipient may see (`open_commitments_seen_by`, kept on the row as
    `carried_commitments`), and for each escalation its run of misses (`miss_run`).
    Read when the claim starts, like the rows themselves; a
    row's message is still rendered from what its recipient may see (a claim takes
    well under a minute)."""
    emails = [row for row in rows if row.recipient_id is not None and row.session_id is not None]
    # People by id apart from their participations: joined, PostgreSQL hashes every
    # person in the organisation for a claim's hundred (measured by bench/outbox.py).
    prefetch_related_objects(emails, "session__participants__person")
    reminders = {}
    for row in emails:
        if row.kind == NotificationKind.UPCOMING:
            coachee = _coachee(_participants(row.session))
            if coachee is not None:
                reminders[row] = coachee.pk
    seen = open_commitments_seen_by(
        ((row.recipient, coachee) for row, coachee in reminders.items()),
        limit=CARRIED_COMMITMENTS,
    )
    for row, coachee in reminders.items():
        row.carried_commitments = seen[(row.recipient_id, coachee)]
    escalated = [row for row in emails if row.kind == NotificationKind.ESCALATION]
    runs = escalations.miss_runs([row.session_id for row in escalated])
    for row in escalated:
        row.miss_run = runs.get(row.session_id, 0)


def _participants(session) -> list[SessionParticipant]:
    if "participants" in getattr(session, "_prefetched_objects_cache", {}):
        return list(session.participants.all())
    return list(session.participants.select_related("person"))


def _coachee(participants: list[SessionParticipant]):
    return next((p.person for p in participants if p.role == ParticipantRole.COACHEE), None)


def _carried_commitments(row: Notification, coachee) -> list:
    carried = getattr(row, "carried_commitments", None)
    if carried is None:  # not prefetched with its claim: the same read for this row
        carried = open_commitments_seen_by(
            [(row.recipient, coachee.pk)], limit=CARRIED_COMMITMENTS
        ).get((row.recipient_id, coachee.pk), [])
    return carried


def _with_session(row: Notification, context: dict) -> list[SessionParticipant]:
    """The session's part of every session kind's message: when (in the recipient's
    zone), with whom, their role, its page. The participants, for what follows."""
    person, session = row.recipient, row.session
    zone = ZoneInfo(person.time_zone) if person else timezone.get_current_timezone()
    participants = _participants(session)
    role = next((p.role for p in participants if person and p.person_id == person.pk), None)
    context.update(
        session=session,
        when=timezone.localtime(session.scheduled_start, zone),
        others=[p.person for p in participants if not person or p.person_id != person.pk],
        role=role,
        session_url=absolute(reverse("coaching:session_detail", args=[session.pk])),
    )
    return participants


def upcoming(row: Notification, context: dict) -> dict | None:
    session = row.session
    participants = _with_session(row, context)
    if session.status != SessionStatus.SCHEDULED:
        return None
    coachee = _coachee(participants)
    if coachee is not None:
        context["commitments"] = _carried_commitments(row, coachee)
    if context["role"] == ParticipantRole.COACHEE:
        context["prepare_url"] = absolute(reverse("coaching:session_prepare", args=[session.pk]))
    return context


def missed(row: Notification, context: dict) -> dict | None:
    session = row.session
    participants = _with_session(row, context)
    if session.status != SessionStatus.MISSED:
        return None  # logged after all
    coachee = _coachee(participants)
    context["reschedule_url"] = absolute(
        reverse("coaching:session_new")
        + (f"?kind={session.kind}&with={coachee.pk}" if coachee else "")
    )
    return context


def escalation(row: Notification, context: dict) -> dict | None:
    if row.session_id is not None:
        _with_session(row, context)
    plan = row.plan
    if plan is None:
        return None  # the plan was deleted meanwhile
    run = getattr(row, "miss_run", None)
    if run is None:
        run = escalations.miss_runs([row.session_id]).get(row.session_id, 0)
    context.update(
        plan=plan,
        misses=run or settings.CADENCE_ESCALATE_AFTER,
        about=escalations.in_words(plan, run),
        person_url=absolute(escalations.act_url(plan)),
        review_url=absolute(escalations.review_url(plan)),
    )
    return context


def digest(row: Notification, context: dict) -> dict:
    # The week the digest was queued for, as its page shows it (not the moment a
    # retry happens to send it).
    context["digest"] = manager_digest(manager=row.recipient, now=row.created_at)
    context["digest_url"] = absolute(reverse("cadence:digest_detail", args=[row.period]))
    return context


def session_invited(row: Notification, context: dict) -> dict | None:
    _with_session(row, context)
    if not invitations.still_invited(row):
        return None  # cancelled or past meanwhile
    context["itip"] = itip_ical(row.session, reader=row.recipient)
    return context


def session_changed(row: Notification, context: dict) -> dict:
    person, change = row.recipient, row.session_change
    zone = ZoneInfo(person.time_zone) if person else timezone.get_current_timezone()
    _with_session(row, context)
    context.update(
        change=change,
        actor=change.actor,
        was=timezone.localtime(change.from_start, zone),
        now_at=timezone.localtime(change.to_start, zone),
        itip=itip_ical(row.session, reader=person, change=change),
    )
    return context


def session_withdrawn(row: Notification, context: dict) -> dict:
    facts = row.withdrawn
    context.update(
        withdrawn=facts,
        was=timezone.localtime(datetime.fromisoformat(facts["start"])),
        sessions_url=absolute(reverse("coaching:session_list")),
        itip=itip_withdrawn(facts, reader=row.recipient),
    )
    return context


# --- Team channels -------------------------------------------------------------------


def team_reminder(row: Notification) -> str | None:
    team, session = row.team, row.session
    if session is None or session.status != SessionStatus.SCHEDULED:
        return None
    host = session.participants.filter(role=ParticipantRole.HOST).select_related("person").first()
    when = session.scheduled_start.strftime("%a %d %b, %H:%M UTC")
    host_text = f" Host: {host.person.display_name}." if host else ""
    link = absolute(reverse("coaching:session_detail", args=[session.pk]))
    return (
        f"Team call review for {team.name}: {when}.{host_text} "
        f"Bring one recorded call and one thing you'd do differently. {link}"
    )


def weekly_team_digest(row: Notification) -> str:
    team = row.team
    d = team_digest(team=team, now=timezone.now())
    return (
        f"{team.name} this week: {d['held']} of {d['due']} sessions held"
        f"{', team call review held' if d['review_held'] else ''}. Keep the rhythm going."
    )


def register() -> None:
    Kind = kinds.Kind
    lines = notification_lines
    about_sessions = {
        "related": lines.SESSION_RELATED,
        "lines_prefetch": lines.prefetch,
        "prefetch": prefetch,
    }
    kinds.register(
        Kind(
            NotificationKind.UPCOMING, message=upcoming, line=lines.upcoming_line, **about_sessions
        ),
        Kind(NotificationKind.MISSED, message=missed, line=lines.session_line, **about_sessions),
        Kind(
            NotificationKind.ESCALATION,
            message=escalation,
            line=lines.escalation_line,
            **about_sessions,
        ),
        Kind(NotificationKind.DIGEST, message=digest, line=lines.digest_line),
        Kind(NotificationKind.TEAM_REMINDER, team_text=team_reminder),
        Kind(NotificationKind.TEAM_DIGEST, team_text=weekly_team_digest),
        Kind(
            NotificationKind.SESSION_INVITED,
            message=session_invited,
            line=lines.session_line,
            preference="email_invitations",
            **about_sessions,
        ),
        *(
            Kind(
                kind,
                message=session_changed,
                line=lines.change_line,
                preference="email_session_changed",
                **about_sessions,
            )
            for kind in CHANGE_KINDS
        ),
        Kind(
            NotificationKind.SESSION_WITHDRAWN,
            message=session_withdrawn,
            line=lines.withdrawn_line,
            preference="email_session_changed",
        ),
    )
