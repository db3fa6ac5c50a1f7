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
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.crypto import salted_hmac

from . import kinds
from .models import Notification, NotificationPreference, TeamChannel

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


def prefetch(rows: list[Notification]) -> None:
    """Load what the messages of a claim read for all its rows at once: each kind's
    `prefetch` (`kinds`), called once with the rows of every kind that shares it, so a
    claim costs the same few queries however many rows. Read when the claim starts,
    like the rows themselves; a row's message is still rendered from what its
    recipient may see (a claim takes well under a minute)."""
    for fn, of_kind in kinds.prefetchers(rows):
        fn(of_kind)


def message_context(row: Notification) -> dict | None:
    """What the email says, as its kind declares it (`kinds.Kind.message`); None when
    there is nothing left to say."""
    context = {"person": row.recipient, "site_url": settings.SITE_URL, "kind": row.kind}
    message = kinds.of(row.kind).message
    return None if message is None else message(row, context)


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
    """What the team's channel is sent, as the kind declares it (`kinds.Kind.team_text`)."""
    team_text = kinds.of(row.kind).team_text
    return None if team_text is None else team_text(row)
