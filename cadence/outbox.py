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

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
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


def claim(*, limit: int = CLAIM_SIZE, now: datetime | None = None) -> list[int]:
    now = now or timezone.now()
    with transaction.atomic():
        ids = list(
            Notification.objects.select_for_update(skip_locked=True)
            .filter(status=NotificationStatus.PENDING, next_attempt_at__lte=now)
            .order_by("next_attempt_at", "pk")
            .values_list("pk", flat=True)[:limit]
        )
        if ids:
            Notification.objects.filter(pk__in=ids).update(
                status=NotificationStatus.SENDING, claimed_at=now, attempts=F("attempts") + 1
            )
    return ids


def deliver_claimed(ids: list[int], *, now: datetime | None = None) -> dict[str, int]:
    """Send claimed rows one by one; each row's outcome is saved on its own."""
    outcome = {"sent": 0, "skipped": 0, "deferred": 0, "retry": 0, "failed": 0, "lost": 0}
    rows = Notification.objects.filter(
        pk__in=ids, status=NotificationStatus.SENDING
    ).select_related(
        "recipient", "recipient__notification_preference", "team", "team__channel", "session"
    )
    for row in rows:
        outcome[_deliver_one(row, now=now or timezone.now())] += 1
    return outcome


def _deliver_one(row: Notification, *, now: datetime) -> str:
    # Still ours? A row reaped from a slow batch and claimed again is someone else's.
    if not Notification.objects.filter(
        pk=row.pk, status=NotificationStatus.SENDING, claimed_at=row.claimed_at
    ).exists():
        return "lost"
    try:
        result = delivery.deliver(row, now=now)
    except delivery.Defer as later:
        _finish(
            row,
            status=NotificationStatus.PENDING,
            next_attempt_at=later.until,
            attempts=F("attempts") - 1,
        )  # waiting for quiet hours is not an attempt
        return "deferred"
    except Exception as exc:  # noqa: BLE001 - any failure is recorded on the row
        error = f"{type(exc).__name__}: {exc}"[:500]
        log.warning("notification %s failed: %s", row.pk, error)
        if row.attempts >= MAX_ATTEMPTS:
            _finish(row, status=NotificationStatus.FAILED, last_error=error)
            return "failed"
        _finish(
            row,
            status=NotificationStatus.PENDING,
            last_error=error,
            next_attempt_at=now + backoff(row.attempts),
        )
        return "retry"
    if result == delivery.SKIPPED:
        _finish(row, status=NotificationStatus.SKIPPED, sent_at=now)
        return "skipped"
    _finish(row, status=NotificationStatus.SENT, sent_at=now, last_error="")
    return "sent"


def _finish(row: Notification, **fields) -> None:
    # Only a row still in our claim is updated: a reaped-and-reclaimed row is not ours.
    Notification.objects.filter(
        pk=row.pk, status=NotificationStatus.SENDING, claimed_at=row.claimed_at
    ).update(claimed_at=None, **fields)


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
