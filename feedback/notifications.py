"""Feedback requests through the outbox: "you were asked" when a request is made, and
one reminder the day before it is due to everyone still waiting to answer. Rows are
references only (the request, the person); the message is rendered when it is sent,
and names the requester and the date — never the question's answers or who gave them.

The two kinds are declared here (`notifications.kinds`), registered at the app's
`ready()`; beat's `cadence.queue_feedback_reminders` calls `due_queue`."""

from datetime import datetime, timedelta

from django.urls import reverse
from django.utils import dateformat, timezone

from notifications import kinds
from notifications.delivery import absolute
from notifications.models import Notification, NotificationKind
from notifications.services import enqueue

from .models import FeedbackRequest, RequestedResponder, ResponderStatus
from .services import ANONYMITY_THRESHOLD

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


def _queue(kind: str, pairs: list[tuple[int, int]], *, wake: bool = False) -> int:
    rows = [
        Notification(kind=kind, feedback_request_id=request_id, recipient_id=person_id)
        for request_id, person_id in pairs
    ]
    return enqueue(rows, wake=wake)


def asked_queue(*, request: FeedbackRequest) -> int:
    """Tell everyone asked, in the transaction that records the request, and nudge the
    sender once it commits. A broker that is down must not fail the request: the
    minute-ly drain sends the rows anyway, so the nudge is `robust`."""
    return _queue(NotificationKind.FEEDBACK_ASKED, _waiting([request.pk]), wake=True)


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


def tell_people_asked(sender, request, **kwargs):
    """`feedback_requested`'s receiver."""
    asked_queue(request=request)


def message(row: Notification, context: dict) -> dict | None:
    if not still_waiting(row):
        return None  # answered or declined meanwhile
    asked = row.feedback_request
    context.update(
        feedback_request=asked,
        requester=asked.requester,
        stream=asked.stream,
        request_url=absolute(reverse("feedback:feedback_request_detail", args=[asked.pk])),
        anonymity_threshold=ANONYMITY_THRESHOLD,
    )
    return context


def line(row: Notification, viewer) -> kinds.Line:
    # Who asked and by when, never the question or anyone's answers.
    asked = row.feedback_request
    return kinds.Line(
        f"{row.get_kind_display()}: {asked.requester.display_name}, "
        f"by {dateformat.format(asked.due_on, 'j M')}",
        reverse("feedback:feedback_request_detail", args=[asked.pk]),
    )


def register() -> None:
    kinds.register(
        *(
            kinds.Kind(
                kind,
                message=message,
                preference="email_feedback",
                line=line,
                related=("feedback_request__requester",),
            )
            for kind in (NotificationKind.FEEDBACK_ASKED, NotificationKind.FEEDBACK_DUE)
        )
    )
