"""Draining the notification outbox.

Delivery rule (at least once, never silently lost, and a copy only where a worker died):
1. `claim` moves up to N due `pending` rows to `sending` in one short transaction,
   with SELECT … FOR UPDATE SKIP LOCKED, so concurrent senders never take the same
   row. The claim stamps its rows (`claimed_at`) and leases them for
   CADENCE_CLAIM_LEASE_SECONDS (`lease_until`); it is committed before anything is
   sent.
2. The sender (`Sender`) sends each claimed row and marks it `sent`, or — on an
   error — back to `pending` with exponential backoff (after MAX_ATTEMPTS: `failed`,
   with the error kept for the admin). While it works through the claim it renews the
   lease of the rows it still holds (one UPDATE a third of a lease), so a live claim
   never expires, however slow its sends.
3. If the database goes away mid-claim, the sender keeps in memory what it could not
   record — above all the messages that went out — and, once the database answers
   again (bounded waiting, with backoff), records them before it claims or sends
   anything more, then hands back the rows of the claim it had not sent yet. It never
   sends again what it knows it sent.
4. A worker that dies mid-claim leaves rows in `sending` until their lease runs out
   (a minute); every drain, and beat's reaper, hands expired leases back to
   `pending`. A row whose email went out just before the worker died is then sent a
   second time: a rare duplicate, carrying the same Message-ID (or webhook
   Idempotency-Key, `delivery.idempotency_key`) as the first, is the price of never
   losing one.
A Celery message only ever says "drain the outbox"; it carries no ids that matter, so
a lost or repeated message loses or doubles nothing. A drain that stops at its round
limit with rows still due sends the message again (`notifications.tasks.send_notifications`), and a
burst starts CADENCE_SENDERS drains side by side: the backlog never waits for beat's
next minute."""

import functools
import logging
import time
from contextlib import contextmanager, suppress
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F
from django.utils import timezone

from . import delivery
from .models import Notification, NotificationStatus

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
# Small enough that a claim takes seconds, not minutes: the rows of a claim are held
# (leased) by one sender until it gets to them.
CLAIM_SIZE = 50
OUTCOMES = ("sent", "skipped", "deferred", "retry", "failed", "lost")
# What the database driver raises when the server went away (stopped, restarted, the
# network between): the connection is broken, and nothing can be recorded until a new
# one is made.
DATABASE_GONE = (OperationalError, InterfaceError)
# How long a sender waits for the database to come back, to record what it sent, before
# it gives up (its rows then return when their lease runs out, and what it had sent but
# not recorded is sent again). Pauses double from half a second up to five.
RECOVERY_PATIENCE_SECONDS = 120
RECOVERY_PAUSE_MAX_SECONDS = 5


def backoff(attempts: int) -> timedelta:
    """1, 2, 4, 8, 16 … minutes, capped at six hours."""
    return timedelta(minutes=min(2 ** (attempts - 1), 360))


def lease() -> timedelta:
    return timedelta(seconds=settings.CADENCE_CLAIM_LEASE_SECONDS)


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
    sorting them a shade under walking `due_first`'s index for the 50 it takes, which
    is far cheaper (bench/outbox.py)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL enable_sort = off")
        yield


def claim(*, limit: int = CLAIM_SIZE, now: datetime | None = None) -> list[int]:
    """Take up to `limit` due rows, stamped `now` and leased from then."""
    now = now or timezone.now()
    with claiming():
        ids = list(
            due_first(now).select_for_update(skip_locked=True).values_list("pk", flat=True)[:limit]
        )
        if ids:
            Notification.objects.filter(pk__in=ids).update(
                status=NotificationStatus.SENDING,
                claimed_at=now,
                lease_until=now + lease(),
                attempts=F("attempts") + 1,
            )
    return ids


def deliver_claimed(ids: list[int], *, now: datetime | None = None) -> dict[str, int]:
    """Send the rows of one claim (see `Sender.deliver`)."""
    sender = Sender()
    sender.deliver(ids, now=now)
    return sender.total


def _pause(seconds: float) -> None:
    time.sleep(seconds)


def _database_answers() -> bool:
    return connection.connection is not None and connection.is_usable()


def _drop_broken_connection() -> None:
    """A connection the server dropped is never reused: closed, the next query opens a
    new one (or raises while the server is still away)."""
    if connection.connection is not None and not connection.is_usable():
        with suppress(DatabaseError):
            connection.close()


class Sender:
    """One drain's sending: the claim it holds, and what it must not forget when the
    database goes away mid-claim — the outcomes it could not record (a message that
    went out above all) and the rows of its claim it has not sent yet."""

    def __init__(self):
        self.total = dict.fromkeys(OUTCOMES, 0)
        self.held: set[int] = set()  # rows of the claim still ours and not yet sent
        self.stamp: datetime | None = None  # the claim's `claimed_at`
        self.renewed_at: datetime | None = None  # when its lease was last set
        self.unrecorded: list[tuple[Notification, dict]] = []

    def deliver(
        self, ids: list[int], *, stamp: datetime | None = None, now: datetime | None = None
    ) -> None:
        """Send claimed rows one by one; each row's outcome is saved on its own, before
        the next row is sent. What the messages read is loaded for the whole claim at
        once (`delivery.prefetch`), so a claim costs the same few queries whatever its
        size, plus one UPDATE per row, and one more each third of a lease to renew it.
        Raises one of DATABASE_GONE if the database went away (then `recover`)."""
        self.held, self.stamp, self.renewed_at = set(ids), stamp, stamp
        rows = list(
            Notification.objects.filter(
                pk__in=ids, status=NotificationStatus.SENDING
            ).select_related(
                "recipient",
                "recipient__notification_preference",
                "team",
                "team__channel",
                "session",
                "session_change__actor",
            )
        )
        self.held = {row.pk for row in rows}
        if rows and self.stamp is None:  # one claim, one stamp
            self.stamp = self.renewed_at = rows[0].claimed_at
        delivery.prefetch(rows)
        for row in rows:
            if not self._still_held(row):
                self.total["lost"] += 1
                continue
            label, outcome = _deliver_one(row, now=now or timezone.now())
            self.held.discard(row.pk)
            self.total[label] += 1
            try:
                _finish(row, **outcome)
            except DATABASE_GONE:
                self.unrecorded.append((row, outcome))
                raise

    def _still_held(self, row: Notification) -> bool:
        """Ours while the lease we last set runs: renewed (for every row still held, in
        one statement) once a third of it has passed, so a send starts with at least
        two thirds of a lease — 40 s by default — before anyone may take the row."""
        if timezone.now() - self.renewed_at >= lease() / 3:
            self._renew()
        return row.pk in self.held

    def _renew(self) -> None:
        now = timezone.now()
        # The stamp says the row is still in this claim (see `_finish_sql` on the status).
        ours = Notification.objects.filter(pk__in=self.held, claimed_at=self.stamp)
        if ours.update(lease_until=now + lease()) < len(self.held):
            # Some were handed back (the lease ran out) and maybe claimed again.
            self.held = set(ours.values_list("pk", flat=True))
        self.renewed_at = now

    def recover(self) -> None:
        """The database went away. Wait for it (pauses from half a second, doubling, up
        to RECOVERY_PATIENCE_SECONDS in all); then record the outcomes not recorded —
        so what went out is never sent again — and hand back the rows of the claim not
        sent, before anything more is claimed or sent. Re-raises if it stays away."""
        waited, pause = 0.0, 0.5
        while True:
            try:
                _drop_broken_connection()
                connection.ensure_connection()
                self._record_unrecorded()
                self._hand_back_held()
                return
            except DATABASE_GONE:
                if waited + pause > RECOVERY_PATIENCE_SECONDS:
                    log.error(
                        "database still unreachable after %.0f s: notifications sent but not"
                        " recorded (they will be sent again): %s",
                        waited,
                        [row.pk for row, _ in self.unrecorded],
                    )
                    raise
                log.warning("database unreachable; trying again in %.1f s", pause)
                _pause(pause)
                waited += pause
                pause = min(pause * 2, RECOVERY_PAUSE_MAX_SECONDS)

    def _record_unrecorded(self) -> None:
        while self.unrecorded:
            row, outcome = self.unrecorded[0]
            _finish(row, **outcome, or_handed_back=True)
            self.unrecorded.pop(0)

    def _hand_back_held(self) -> None:
        """Claimed but not tried: pending again, due as before, the attempt refunded."""
        if self.held and self.stamp is not None:
            Notification.objects.filter(pk__in=self.held, claimed_at=self.stamp).update(
                status=NotificationStatus.PENDING,
                claimed_at=None,
                lease_until=None,
                attempts=F("attempts") - 1,
            )
        self.held = set()


def _deliver_one(row: Notification, *, now: datetime) -> tuple[str, dict]:
    """Send one row; what happened (an OUTCOMES label) and what to record."""
    try:
        result = delivery.deliver(row, now=now)
    except delivery.Defer as later:
        # Waiting for quiet hours is not an attempt.
        return "deferred", {
            "status": NotificationStatus.PENDING,
            "next_attempt_at": later.until,
            "refund_attempt": True,
        }
    except Exception as exc:  # noqa: BLE001 - any failure is recorded on the row
        if isinstance(exc, DATABASE_GONE) and not _database_answers():
            raise  # the database went away while the message was written: not sent
        error = f"{type(exc).__name__}: {exc}"[:500]
        log.warning("notification %s failed: %s", row.pk, error)
        if row.attempts >= MAX_ATTEMPTS:
            return "failed", {"status": NotificationStatus.FAILED, "last_error": error}
        return "retry", {
            "status": NotificationStatus.PENDING,
            "last_error": error,
            "next_attempt_at": now + backoff(row.attempts),
        }
    if result == delivery.SKIPPED:
        return "skipped", {"status": NotificationStatus.SKIPPED, "sent_at": now}
    return "sent", {"status": NotificationStatus.SENT, "sent_at": now, "last_error": ""}


_KEPT_UNLESS_GIVEN = ("sent_at", "last_error", "next_attempt_at")


@functools.cache
def _finish_sql(vendor: str, *, or_handed_back: bool = False) -> str:
    """The outcome UPDATE: one fixed statement for every outcome (a field given as
    NULL keeps its value), so no query is built and compiled for every row sent. The
    only text interpolated is our own quoted table and column names.

    A row is still ours while it carries our claim's stamp (a check constraint ties
    the stamp to "sending"). The status is left out of the WHERE on purpose: with it,
    PostgreSQL may read the row through the reaper's index — which its statistics
    think empty — walking every row of the claim for each one (about a millisecond a
    row at 50), instead of the primary key.

    `or_handed_back`: also a row handed back (its lease ran out) that nobody has
    claimed since — an outcome recorded after a database outage, so that a message
    that went out is not sent again because the reaper got there first."""
    meta, q = Notification._meta, connection.ops.quote_name
    column = {field.name: q(field.column) for field in meta.concrete_fields}
    keep = ", ".join(f"{column[f]} = COALESCE(%s, {column[f]})" for f in _KEPT_UNLESS_GIVEN)
    return (
        f"UPDATE {q(meta.db_table)}"  # noqa: S608 - our own names, values are parameters
        f" SET {column['status']} = %s, {column['claimed_at']} = NULL,"
        f" {column['lease_until']} = NULL, {keep},"
        f" {column['attempts']} = {column['attempts']} - %s"
        f" WHERE {column['id']} = %s AND ({column['claimed_at']} = %s"
        + (
            f" OR ({column['claimed_at']} IS NULL AND {column['status']} = 'pending'))"
            if or_handed_back
            else ")"
        )
    )


def _finish(
    row: Notification,
    status: str,
    *,
    sent_at: datetime | None = None,
    last_error: str | None = None,
    next_attempt_at: datetime | None = None,
    refund_attempt: bool = False,
    or_handed_back: bool = False,
) -> None:
    """Save one row's outcome: one statement in autocommit, so it is committed before
    the next row is sent. Only a row still in our claim is updated (or, after an
    outage, handed back and not claimed since): a row claimed again is not ours."""
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
        cursor.execute(_finish_sql(connection.vendor, or_handed_back=or_handed_back), params)
        updated = cursor.rowcount
    if not updated:
        log.warning("notification %s was no longer ours when its outcome was saved", row.pk)


def drain(*, limit: int = CLAIM_SIZE, rounds: int = 50) -> dict[str, int]:
    """Claim and deliver until nothing is due (or `rounds` batches were sent). Each
    round first hands back expired leases (an index probe that finds nothing unless a
    sender died), so a dead worker's rows return with the next drain after their
    lease, not at the reaper's next run. A round the database interrupted ends in
    `Sender.recover` before the next one claims."""
    sender = Sender()
    for _ in range(rounds):
        try:
            reap_expired_leases()
            stamp = timezone.now()
            ids = claim(limit=limit, now=stamp)
            if not ids:
                break
            sender.deliver(ids, stamp=stamp)
        except DATABASE_GONE:
            sender.recover()
    return sender.total


def due_exists(*, now: datetime | None = None) -> bool:
    """Is anything still waiting to be sent? One query (the sender's claim index)."""
    return Notification.objects.filter(
        status=NotificationStatus.PENDING, next_attempt_at__lte=now or timezone.now()
    ).exists()


def reap_expired_leases(*, now: datetime | None = None) -> int:
    """Hand back the rows of claims whose lease ran out (their sender died, or lost the
    database for longer than a lease): pending and due now. Reads the partial index
    `notification_expired_leases`."""
    now = now or timezone.now()
    return Notification.objects.filter(
        status=NotificationStatus.SENDING, lease_until__lt=now
    ).update(
        status=NotificationStatus.PENDING, claimed_at=None, lease_until=None, next_attempt_at=now
    )
