"""Rendering and sending one notification: email for people, an incoming webhook for
team channels. Messages are rendered at send time from what the recipient may see
then; team channels only ever get names, times and counts — never anyone's words."""

import json
import logging
import urllib.request
from datetime import datetime, time, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import DatabaseError
from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from coaching.models import ParticipantRole, SessionParticipant, SessionStatus
from coaching.selectors import open_commitments_seen_by
from coaching.selectors_pairs import cadence_text as pair_cadence_text
from feedback.services import ANONYMITY_THRESHOLD

from . import escalations, feedback_reminders, invitations, pair_invitations, peer_requests
from .calendar import itip_ical, itip_withdrawn
from .models import (
    CHANGE_KINDS,
    Notification,
    NotificationKind,
    NotificationPreference,
    TeamChannel,
)

log = logging.getLogger(__name__)

SENT, SKIPPED = "sent", "skipped"
WEBHOOK_TIMEOUT = 10


class Defer(Exception):  # noqa: N818 - a signal, not an error
    """Not now (quiet hours): try again at `until`."""

    def __init__(self, until: datetime):
        super().__init__(f"deferred until {until.isoformat()}")
        self.until = until


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def idempotency_key(row: Notification) -> str:
    """The same for every attempt at one notification and unlike any other's, so a
    copy that still goes out twice (a worker killed between sending and recording) is
    recognisable downstream: the webhook's `Idempotency-Key`, the email's Message-ID.
    The keyed hash ties it to this installation (its SECRET_KEY) without saying
    anything a reader could not already see."""
    token = salted_hmac("cadence.notification", str(row.pk)).hexdigest()[:16]
    return f"notification-{row.pk}.{token}"


def message_id(row: Notification) -> str:
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"<{idempotency_key(row)}@{host}>"


def deliver(row: Notification, *, now: datetime) -> str:
    if row.team_id is not None:
        return _post_to_team(row)
    person = row.recipient
    if not person.is_active:
        return SKIPPED
    preference = _preference(person)
    if preference is not None and not _wants_email(preference, row):
        return SKIPPED  # it stays in the in-app list
    until = quiet_until(preference, person.time_zone, now)
    if until is not None:
        raise Defer(until)
    # Every time in the message reads in the recipient's own zone.
    with timezone.override(ZoneInfo(person.time_zone)):
        context = message_context(row)
        if context is None:
            return SKIPPED  # nothing left to say (e.g. the session was logged meanwhile)
        subject, text, html = (
            render_to_string(f"emails/{row.kind}-{part}", context)
            for part in ("subject.txt", "body.txt", "body.html")
        )
    message = EmailMultiAlternatives(
        subject=" ".join(subject.split()),
        body=text,
        to=[person.email],
        headers={"Message-ID": message_id(row)},
    )
    message.attach_alternative(html, "text/html")
    itip = context.get("itip")
    if itip is not None and (preference is None or preference.email_invitations):
        _attach_calendar(message, *itip)
    message.send()
    return SENT


def _attach_calendar(message: EmailMultiAlternatives, method: str, ical: bytes) -> None:
    """The iTIP part calendar clients act on (Outlook and Gmail read the
    `text/calendar; method=…` alternative and update the event in place), and the same
    file as an attachment for the rest."""
    message.attach_alternative(ical.decode(), f"text/calendar; method={method}")
    message.attach("invite.ics", ical, "application/ics")


def _wants_email(preference: NotificationPreference, row: Notification) -> bool:
    """A change told to whoever made it is their calendar's update alone."""
    if row.session_change_id is not None and row.session_change.actor_id == row.recipient_id:
        return preference.email_invitations
    return preference.wants_email(row.kind)


def _preference(person) -> NotificationPreference | None:
    try:
        return person.notification_preference
    except NotificationPreference.DoesNotExist:
        return None


def quiet_until(preference, time_zone: str, now: datetime) -> datetime | None:
    """When quiet hours are on in the person's own zone, the moment they end."""
    if preference is None or preference.quiet_from is None or preference.quiet_until is None:
        return None
    zone = ZoneInfo(time_zone)
    local = now.astimezone(zone)
    start, end = preference.quiet_from, preference.quiet_until
    wall = local.time().replace(tzinfo=None)
    inside = start <= wall < end if start < end else (wall >= start or wall < end)
    if not inside:
        return None
    end_day = local.date() if wall < end else local.date() + timedelta(days=1)
    return datetime.combine(end_day, time(end.hour, end.minute), tzinfo=zone)


# --- What each message says ---------------------------------------------------------

CARRIED_COMMITMENTS = 10  # listed in a "session tomorrow" reminder, soonest due first


def prefetch(rows: list[Notification]) -> None:
    """Load what the messages of a claim read for all its rows at once, in a fixed
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


def message_context(row: Notification) -> dict | None:
    person = row.recipient
    context = {"person": person, "site_url": settings.SITE_URL, "kind": row.kind}
    session = row.session
    if session is not None:
        zone = ZoneInfo(person.time_zone) if person else timezone.get_current_timezone()
        participants = _participants(session)
        role = next((p.role for p in participants if person and p.person_id == person.pk), None)
        context.update(
            session=session,
            when=timezone.localtime(session.scheduled_start, zone),
            others=[p.person for p in participants if not person or p.person_id != person.pk],
            role=role,
            session_url=absolute(reverse("session_detail", args=[session.pk])),
        )
    if row.kind == NotificationKind.UPCOMING:
        if session.status != SessionStatus.SCHEDULED:
            return None
        coachee = _coachee(participants)
        if coachee is not None:
            context["commitments"] = _carried_commitments(row, coachee)
        if context["role"] == ParticipantRole.COACHEE:
            context["prepare_url"] = absolute(reverse("session_prepare", args=[session.pk]))
    elif row.kind == NotificationKind.MISSED:
        if session.status != SessionStatus.MISSED:
            return None  # logged after all
        coachee = _coachee(participants)
        context["reschedule_url"] = absolute(
            reverse("session_new") + (f"?kind={session.kind}&with={coachee.pk}" if coachee else "")
        )
    elif row.kind == NotificationKind.ESCALATION:
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
    elif row.kind == NotificationKind.DIGEST:
        from .digest import manager_digest

        # The week the digest was queued for, as its page shows it (not the moment a
        # retry happens to send it).
        context["digest"] = manager_digest(manager=person, now=row.created_at)
        context["digest_url"] = absolute(reverse("digest_detail", args=[row.period]))
    elif row.kind in (NotificationKind.FEEDBACK_ASKED, NotificationKind.FEEDBACK_DUE):
        if not feedback_reminders.still_waiting(row):
            return None  # answered or declined meanwhile
        asked = row.feedback_request
        context.update(
            feedback_request=asked,
            requester=asked.requester,
            stream=asked.stream,
            request_url=absolute(reverse("feedback_request_detail", args=[asked.pk])),
            anonymity_threshold=ANONYMITY_THRESHOLD,
        )
    elif row.kind == NotificationKind.PAIR_INVITED:
        if not pair_invitations.still_invited(row):
            return None  # answered, left or ended meanwhile
        pair = row.pair
        partners = [
            m.person.display_name
            for m in pair.members.filter(left_at__isnull=True).select_related("person")
            if m.person_id != person.pk
        ]
        when = pair_cadence_text(pair)
        context.update(
            pair=pair,
            formed_by=pair.created_by,
            partners_names=", ".join(partners),
            cadence_text=when[:1].lower() + when[1:],
            pair_url=absolute(reverse("pair_detail", args=[pair.pk])),
        )
    elif row.kind == NotificationKind.SESSION_INVITED:
        if not invitations.still_invited(row):
            return None  # cancelled or past meanwhile
        context["itip"] = itip_ical(session, reader=person)
    elif row.kind in CHANGE_KINDS:
        change = row.session_change
        context.update(
            change=change,
            actor=change.actor,
            was=timezone.localtime(change.from_start, zone),
            now_at=timezone.localtime(change.to_start, zone),
            itip=itip_ical(session, reader=person, change=change),
        )
    elif row.kind == NotificationKind.SESSION_WITHDRAWN:
        facts = row.withdrawn
        context.update(
            withdrawn=facts,
            was=timezone.localtime(datetime.fromisoformat(facts["start"])),
            sessions_url=absolute(reverse("session_list")),
            itip=itip_withdrawn(facts, reader=person),
        )
    elif row.kind == NotificationKind.PEER_ASKED:
        if not peer_requests.still_asking(row):
            return None  # they may no longer be paired by this person
        context.update(asked=row.peer_request.person, pair_new_url=absolute(reverse("pair_new")))
    return context


# --- Team channels -------------------------------------------------------------------


def _post_to_team(row: Notification) -> str:
    try:
        channel = row.team.channel
    except TeamChannel.DoesNotExist:
        return SKIPPED
    if not channel.is_active:
        return SKIPPED
    text = _team_text(row)
    if text is None:
        return SKIPPED
    payload = (
        {"text": text}
        if channel.format == TeamChannel.Format.SLACK
        else {
            "@type": "MessageCard",
            "@context": "https://schema.org/extensions",
            "text": text,
        }
    )
    request = urllib.request.Request(  # noqa: S310 - admin-configured https/http webhook
        channel.webhook_url,
        data=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": idempotency_key(row)},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT) as response:  # noqa: S310
            if response.status >= 300:
                raise OSError(f"webhook answered {response.status}")
    except Exception as exc:
        TeamChannel.objects.filter(pk=channel.pk).update(
            last_failure_at=timezone.now(), last_error=f"{type(exc).__name__}: {exc}"[:500]
        )
        raise
    try:
        TeamChannel.objects.filter(pk=channel.pk).update(last_success_at=timezone.now())
    except DatabaseError as exc:
        # Posted: the database going away now must not make it look unsent (the outbox
        # records the row once it is back); the channel's stamp is only for the admin.
        log.warning("channel %s: posted, but its success not recorded: %s", channel.pk, exc)
    return SENT


def _team_text(row: Notification) -> str | None:
    team = row.team
    if row.kind == NotificationKind.TEAM_REMINDER:
        session = row.session
        if session is None or session.status != SessionStatus.SCHEDULED:
            return None
        host = (
            session.participants.filter(role=ParticipantRole.HOST).select_related("person").first()
        )
        when = session.scheduled_start.strftime("%a %d %b, %H:%M UTC")
        host_text = f" Host: {host.person.display_name}." if host else ""
        link = absolute(reverse("session_detail", args=[session.pk]))
        return (
            f"Team call review for {team.name}: {when}.{host_text} "
            f"Bring one recorded call and one thing you'd do differently. {link}"
        )
    if row.kind == NotificationKind.TEAM_DIGEST:
        from .digest import team_digest

        d = team_digest(team=team, now=timezone.now())
        return (
            f"{team.name} this week: {d['held']} of {d['due']} sessions held"
            f"{', team call review held' if d['review_held'] else ''}. Keep the rhythm going."
        )
    if row.kind == NotificationKind.CHANNEL_TEST:
        return (
            f"Tandem is connected to {team.name}'s channel: the team's call review "
            "reminders and a weekly digest will appear here — names, times and counts, "
            "never anyone's words."
        )
    return None
