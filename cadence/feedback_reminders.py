"""Feedback requests through the outbox: "you were asked" when a request is made, and
one reminder the day before it is due to everyone still waiting to answer. Rows are
references only (the request, the person); the message is rendered when it is sent,
and names the requester and the date — never the question's answers or who gave them."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from feedback.models import FeedbackRequest, RequestedResponder, ResponderStatus

from .models import Notification, NotificationKind

# Reminders look one day ahead; a request already overdue by more than this is left
# alone rather than nagged about (e.g. on the first run after an upgrade).
REMIND_DAYS_BEFORE = 1
OVERDUE_GRACE_DAYS = 7


def _waiting(requests) -> list[tuple[int, int]]:
    return list(
        RequestedResponder.objects.filter(
            request__in=requests,
            status=ResponderStatus.WAITING,
            responder__is_active=True,
        ).values_list("request_id", "responder_id")
    )


def _queue(kind: str, pairs: list[tuple[int, int]]) -> int:
    rows = [
        Notification(kind=kind, feedback_request_id=request_id, recipient_id=person_id)
        for request_id, person_id in pairs
    ]
    return len(Notification.objects.bulk_create(rows, ignore_conflicts=True))


def asked_queue(*, request: FeedbackRequest) -> int:
    """Tell everyone asked, in the transaction that records the request, and nudge the
    sender once it commits. A broker that is down must not fail the request: the
    minute-ly drain sends the rows anyway, so the nudge is `robust`."""
    queued = _queue(NotificationKind.FEEDBACK_ASKED, _waiting([request.pk]))
    if queued:
        from .tasks import send_notifications

        transaction.on_commit(send_notifications.delay, robust=True)
    return queued


def due_queue(*, now: datetime | None = None) -> int:
    """One reminder per person still waiting on a request due by tomorrow. Safe to
    run any number of times: the outbox is unique per (request, kind, person), so
    rows already recorded are left alone. Returns how many were offered."""
    today = (now or timezone.now()).date()
    falling_due = FeedbackRequest.objects.filter(
        due_on__lte=today + timedelta(days=REMIND_DAYS_BEFORE),
        due_on__gte=today - timedelta(days=OVERDUE_GRACE_DAYS),
    ).values("pk")
    return _queue(NotificationKind.FEEDBACK_DUE, _waiting(falling_due))


def still_waiting(row: Notification) -> bool:
    return RequestedResponder.objects.filter(
        request_id=row.feedback_request_id,
        responder_id=row.recipient_id,
        status=ResponderStatus.WAITING,
    ).exists()
