"""Forgetting old notifications. The outbox gains tens of thousands of rows a week at
10,000 people (a reminder for everyone in every session, missed-session notes,
digests) and nothing else ever deletes them. Once a row is finished — sent, failed
or kept in-app only — and older than NOTIFICATION_RETENTION_DAYS, it goes: from the
person's list, their data export and the delivery page alike. Pending rows stay, at
any age. Nothing is queued again for what was forgotten: every kind is recorded once,
when its moment comes (a session missed or falling due, a request made or due within
the week, a digest's week), and that moment is long past."""

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from .models import FINISHED_STATUSES, Notification

# Rows deleted per statement, each in its own transaction: short locks, and the
# sender's claims never wait long behind a night's deletes.
FORGET_BATCH = 5000


def forget_old_notifications(*, now: datetime | None = None, batch: int = FORGET_BATCH) -> int:
    """Delete finished notifications recorded before the retention period, oldest
    first, `batch` at a time (each batch read off `notification_forgettable`).
    Returns how many went."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.NOTIFICATION_RETENTION_DAYS)
    old = Notification.objects.filter(status__in=FINISHED_STATUSES, created_at__lt=cutoff)
    forgotten = 0
    while ids := list(old.order_by("created_at").values_list("pk", flat=True)[:batch]):
        forgotten += Notification.objects.filter(pk__in=ids).delete()[0]
    return forgotten
