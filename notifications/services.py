"""Writes to the outbox that other apps use: queueing notifications (`enqueue`, the one
way a producer hands rows to the senders), sending failed ones again, a person's
email preferences and quiet hours, and marking their notifications read."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from people.models import User
from people.services_audit import audit_record

from .models import Notification, NotificationPreference, NotificationStatus
from .tasks import kick_senders, send_notifications


def enqueue(rows: list[Notification], *, wake: bool = True) -> int:
    """Insert the rows (once each: the outbox's unique constraints leave alone what is
    recorded already) and, with `wake`, nudge a sender once the transaction commits.
    A broker that is down must not fail the caller: the minute-ly drain sends the rows
    anyway, so the nudge is `robust`. How many rows were new."""
    queued = len(Notification.objects.bulk_create(rows, ignore_conflicts=True))
    if queued and wake:
        transaction.on_commit(send_notifications.delay, robust=True)
    return queued


def senders_kick() -> None:
    """After a burst is queued (a beat task's sweep): CADENCE_SENDERS drains side by
    side, once it commits."""
    kick_senders()


@transaction.atomic
def failed_retry(*, actor, ids: list[int] | None = None) -> int:
    """Send failed notifications again (those of `ids`, or all): back to pending, due
    now, with a fresh count of attempts; the senders are started once this commits.
    The last error stays on the row until the next attempt. Audited with the count."""
    failed = Notification.objects.filter(status=NotificationStatus.FAILED)
    if ids is not None:
        failed = failed.filter(pk__in=ids)
    retried = failed.update(
        status=NotificationStatus.PENDING, attempts=0, next_attempt_at=timezone.now()
    )
    if retried:
        audit_record(actor=actor, verb="outbox.retried", data={"notifications": retried})
        kick_senders()
    return retried


PREFERENCE_FIELDS = (
    "email_upcoming",
    "email_missed",
    "email_escalation",
    "email_digest",
    "email_feedback",
    "email_pair_invited",
    "email_peer_asked",
    "email_session_changed",
    "email_invitations",
    "quiet_from",
    "quiet_until",
)
# Kinds that reach only someone with direct reports (`engine`): the weekly digest goes
# to managers, an escalation to the coach's manager, a peer request to the asker's. The
# page offers them to managers alone; anyone else's saved choice stays as it is for the
# day they become one.
MANAGER_PREFERENCE_FIELDS = ("email_escalation", "email_digest", "email_peer_asked")


@transaction.atomic
def notification_preference_save(*, person: User, **fields) -> NotificationPreference:
    """Which kinds reach `person` by email, and their quiet hours (their own time zone).
    Quiet hours need both ends, and two different times."""
    unknown = set(fields) - set(PREFERENCE_FIELDS)
    if unknown:
        raise ValidationError(f"Cannot change: {', '.join(sorted(unknown))}.")
    preference, _ = NotificationPreference.objects.select_for_update().get_or_create(person=person)
    for name, value in fields.items():
        setattr(preference, name, value)
    start, end = preference.quiet_from, preference.quiet_until
    if (start is None) != (end is None):
        missing = "quiet_until" if end is None else "quiet_from"
        raise ValidationError({missing: "Quiet hours need a start and an end."})
    if start is not None and start == end:
        raise ValidationError({"quiet_until": "Quiet hours must end at a different time."})
    preference.save()
    return preference


@transaction.atomic
def notifications_mark_read(*, person: User, up_to: int | None = None) -> int:
    """Mark `person`'s unread notifications read — those up to id `up_to` (what the page
    showed), so one that arrived since stays unread. Returns how many."""
    unread = Notification.objects.filter(recipient=person, read_at__isnull=True)
    if up_to is not None:
        unread = unread.filter(pk__lte=up_to)
    return unread.update(read_at=timezone.now())
