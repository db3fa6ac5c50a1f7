"""Writes to the outbox that other apps use: queueing notifications (`enqueue`, the one
way a producer hands rows to the senders), sending failed ones again, a person's
email preferences and marking their notifications read."""

from django.db import transaction
from django.utils import timezone

from people.services import audit_record

from .models import Notification, NotificationStatus
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
