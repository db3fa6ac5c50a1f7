"""Draining the notification outbox.

Delivery rule (at least once, never silently lost):
1. `claim` moves up to N due `pending` rows to `sending` in one short transaction,
   with SELECT … FOR UPDATE SKIP LOCKED, so concurrent senders never take the same
   row. The claim is committed before anything is sent.
2. `deliver_claimed` sends each claimed row and marks it `sent`, or — on an error —
   back to `pending` with exponential backoff (after MAX_ATTEMPTS: `failed`, with the
   error kept for the admin).
3. A worker that dies between 1 and 2 leaves rows in `sending`. `reap_stale_claims`
   hands rows claimed more than CADENCE_STALE_CLAIM_MINUTES ago back to `pending`.
   A row whose email went out just before the worker died is then sent a second
   time: a rare duplicate is the price of never losing one.
A Celery message only ever says "drain the outbox"; it carries no ids that matter, so
a lost or repeated message loses or doubles nothing. A drain that stops at its round
limit with rows still due sends the message again (`tasks.send_notifications`), and a
burst starts CADENCE_SENDERS drains side by side: the backlog never waits for beat's
next minute."""

import functools
import logging
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from . import delivery
from .models import Notification, NotificationStatus

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
# Small enough that a batch finishes long before its claims could go stale: with
# EMAIL_TIMEOUT and the webhook timeout, 50 rows take minutes at worst, and the send
# task's time limit stops it well inside CADENCE_STALE_CLAIM_MINUTES.
CLAIM_SIZE = 50


def backoff(attempts: int) -> timedelta:
    """1, 2, 4, 8, 16 … minutes, capped at six hours."""
    return timedelta(minutes=min(2 ** (attempts - 1), 360))


def due_first(now: datetime):
    """Pending rows whose time has come, the longest waiting first: the order of the
    `notification_send_due` index, so a claim reads only the rows it takes."""
    return Notification.objects.filter(
        status=NotificationStatus.PENDING, next_attempt_at__lte=now
    ).order_by("next_attempt_at", "pk")


@contextmanager
def claiming():
    """The claim's transaction. On PostgreSQL sorting is priced out inside it: while
    the outbox has no statistics about its pending rows (a new one, or one analysed
    before a burst was queued), PostgreSQL prices reading every pending row and
    sorting them (18–22 ms a claim at 20,000) a shade under walking `due_first`'s
    index for the 50 it takes (0.5 ms)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL enable_sort = off")
        yield


def claim(*, limit: int = CLAIM_SIZE, now: datetime | None = None) -> list[int]:
    now = now or timezone.now()
    with claiming():
        ids = list(
            due_first(now).select_for_update(skip_locked=True).values_list("pk", flat=True)[:limit]
        )
        if ids:
            Notification.objects.filter(pk__in=ids).update(
                status=NotificationStatus.SENDING, claimed_at=now, attempts=F("attempts") + 1
            )
    return ids


def deliver_claimed(ids: list[int], *, now: datetime | None = None) -> dict[str, int]:
    """Send claimed rows one by one; each row's outcome is saved on its own, before the
    next row is sent. What the messages read is loaded for the whole claim at once
    (`delivery.prefetch`), so a claim costs the same few queries whatever its size,
    plus one UPDATE per row."""
    outcome = {"sent": 0, "skipped": 0, "deferred": 0, "retry": 0, "failed": 0, "lost": 0}
    rows = list(
        Notification.objects.filter(pk__in=ids, status=NotificationStatus.SENDING).select_related(
            "recipient",
            "recipient__notification_preference",
            "team",
            "team__channel",
            "session",
            "session_change__actor",
        )
    )
    delivery.prefetch(rows)
    for row in rows:
        outcome[_deliver_one(row, now=now or timezone.now())] += 1
    return outcome


def _reapable_after() -> timedelta:
    """How old a claim must be before we ask whether it is still ours: half of the
    reaper's CADENCE_STALE_CLAIM_MINUTES, the other half being slack for a reaper
    whose clock runs ahead of ours."""
    return timedelta(minutes=settings.CADENCE_STALE_CLAIM_MINUTES) / 2


def _still_ours(row: Notification) -> bool:
    """A claim younger than `_reapable_after` cannot have been reaped (the reaper hands
    back only claims older than the whole stale window), so it is ours without a
    query. An older one — a slow batch — is checked row by row: reaped and claimed
    again, it is someone else's."""
    if row.claimed_at is not None and timezone.now() - row.claimed_at < _reapable_after():
        return True
    return Notification.objects.filter(
        pk=row.pk, status=NotificationStatus.SENDING, claimed_at=row.claimed_at
    ).exists()


def _deliver_one(row: Notification, *, now: datetime) -> str:
    if not _still_ours(row):
        return "lost"
    try:
        result = delivery.deliver(row, now=now)
    except delivery.Defer as later:
        # Waiting for quiet hours is not an attempt.
        _finish(row, NotificationStatus.PENDING, next_attempt_at=later.until, refund_attempt=True)
        return "deferred"
    except Exception as exc:  # noqa: BLE001 - any failure is recorded on the row
        error = f"{type(exc).__name__}: {exc}"[:500]
        log.warning("notification %s failed: %s", row.pk, error)
        if row.attempts >= MAX_ATTEMPTS:
            _finish(row, NotificationStatus.FAILED, last_error=error)
            return "failed"
        _finish(
            row,
            NotificationStatus.PENDING,
            last_error=error,
            next_attempt_at=now + backoff(row.attempts),
        )
        return "retry"
    if result == delivery.SKIPPED:
        _finish(row, NotificationStatus.SKIPPED, sent_at=now)
        return "skipped"
    _finish(row, NotificationStatus.SENT, sent_at=now, last_error="")
    return "sent"


_KEPT_UNLESS_GIVEN = ("sent_at", "last_error", "next_attempt_at")


@functools.cache
def _finish_sql(vendor: str) -> str:
    """The outcome UPDATE: one fixed statement for every outcome (a field given as
    NULL keeps its value), so no query is built and compiled for every row sent. The
    only text interpolated is our own quoted table and column names.

    A row is still ours while it carries our claim's stamp (a check constraint ties
    the stamp to "sending"). The status is left out of the WHERE on purpose: with it,
    PostgreSQL may read the row through the reaper's index — which its statistics
    think empty — walking every row of the claim for each one (about a millisecond a
    row at 50), instead of the primary key."""
    meta, q = Notification._meta, connection.ops.quote_name
    column = {field.name: q(field.column) for field in meta.concrete_fields}
    keep = ", ".join(f"{column[f]} = COALESCE(%s, {column[f]})" for f in _KEPT_UNLESS_GIVEN)
    return (
        f"UPDATE {q(meta.db_table)}"  # noqa: S608 - our own names, values are parameters
        f" SET {column['status']} = %s, {column['claimed_at']} = NULL, {keep},"
        f" {column['attempts']} = {column['attempts']} - %s"
        f" WHERE {column['id']} = %s AND {column['claimed_at']} = %s"
    )


def _finish(
    row: Notification,
    status: str,
    *,
    sent_at: datetime | None = None,
    last_error: str | None = None,
    next_attempt_at: datetime | None = None,
    refund_attempt: bool = False,
) -> None:
    """Save one row's outcome: one statement in autocommit, so it is committed before
    the next row is sent. Only a row still in our claim is updated: a row reaped and
    claimed again is not ours."""
    ops = connection.ops
    params = [
        status,
        ops.adapt_datetimefield_value(sent_at),
        last_error,
        ops.adapt_datetimefield_value(next_attempt_at),
        1 if refund_attempt else 0,
        row.pk,
        ops.adapt_datetimefield_value(row.claimed_at),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_finish_sql(connection.vendor), params)
        updated = cursor.rowcount
    if not updated:
        log.warning("notification %s was no longer ours when its outcome was saved", row.pk)


def drain(*, limit: int = CLAIM_SIZE, rounds: int = 50) -> dict[str, int]:
    """Claim and deliver until nothing is due (or `rounds` batches were sent)."""
    total = {"sent": 0, "skipped": 0, "deferred": 0, "retry": 0, "failed": 0, "lost": 0}
    for _ in range(rounds):
        ids = claim(limit=limit)
        if not ids:
            break
        for key, value in deliver_claimed(ids).items():
            total[key] += value
    return total


def due_exists(*, now: datetime | None = None) -> bool:
    """Is anything still waiting to be sent? One query (the sender's claim index)."""
    return Notification.objects.filter(
        status=NotificationStatus.PENDING, next_attempt_at__lte=now or timezone.now()
    ).exists()


def reap_stale_claims(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    stale = now - timedelta(minutes=settings.CADENCE_STALE_CLAIM_MINUTES)
    return Notification.objects.filter(
        status=NotificationStatus.SENDING, claimed_at__lt=stale
    ).update(status=NotificationStatus.PENDING, claimed_at=None, next_attempt_at=now)


@transaction.atomic
def failed_retry(*, actor, ids: list[int] | None = None) -> int:
    """Send failed notifications again (those of `ids`, or all): back to pending, due
    now, with a fresh count of attempts; the senders are started once this commits.
    The last error stays on the row until the next attempt. Audited with the count."""
    from people.services import audit_record

    from .tasks import kick_senders  # the tasks module imports this one

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
