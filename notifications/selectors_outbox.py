"""The outbox as the programme admin's Email delivery page and the API show it: what is
waiting to go and since when (a backlog that only grows means no worker is sending),
what is being sent, and what failed for good, newest first, with the error. Only the
outbox's own partial indexes are read: pending, sending and failed rows, never the
sent ones, however many millions there are. A fixed number of queries."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Min, Q
from django.utils import timezone

from .models import Notification, NotificationStatus

FAILURES_SHOWN = 50
# A row due this long ago and still waiting: no sender is draining the outbox.
STALLED_AFTER = timedelta(minutes=10)


@dataclass(frozen=True)
class Delivery:
    waiting: int  # pending and due now
    oldest_due: datetime | None  # when the longest waiting of them became due
    later: int  # pending, due later (retries backing off, quiet hours)
    sending: int
    failed: int
    failures: list[Notification]  # the FAILURES_SHOWN newest, with their audience
    stalled: bool  # something has waited longer than STALLED_AFTER


def delivery_state(*, now: datetime | None = None) -> Delivery:
    """The outbox now (four queries)."""
    now = now or timezone.now()
    pending = Notification.objects.filter(status=NotificationStatus.PENDING).aggregate(
        waiting=Count("pk", filter=Q(next_attempt_at__lte=now)),
        later=Count("pk", filter=Q(next_attempt_at__gt=now)),
        oldest_due=Min("next_attempt_at", filter=Q(next_attempt_at__lte=now)),
    )
    # One status a query: each is answered by its own partial index (an IN of two
    # statuses is not implied by either index's condition: the whole table).
    sending = Notification.objects.filter(status=NotificationStatus.SENDING).count()
    failed = Notification.objects.filter(status=NotificationStatus.FAILED).count()
    failures = list(
        Notification.objects.filter(status=NotificationStatus.FAILED)
        .select_related("recipient", "team")
        .order_by("-created_at", "-id")[:FAILURES_SHOWN]
    )
    oldest = pending["oldest_due"]
    return Delivery(
        waiting=pending["waiting"],
        oldest_due=oldest,
        later=pending["later"],
        sending=sending,
        failed=failed,
        failures=failures,
        stalled=oldest is not None and now - oldest > STALLED_AFTER,
    )
