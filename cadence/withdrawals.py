"""Sessions the cadence takes back after inviting people to them.

The generator deletes planned sessions nobody touched when their plan changes or ends,
or their day is closed (`engine.occurrences_discard_untouched`,
`engine.occurrences_discard_closed`). Once a session's invitation has gone out the
event sits in people's calendars, while the session's own notifications go with its
row. So before the delete, each person told of it gets a withdrawal that outlives it,
holding what a METHOD:CANCEL needs (`calendar.withdrawal_facts`, `itip_withdrawn`)
and why it went: names, times and addresses only. Invitations not yet sent go with
the session: nobody heard of it."""

from datetime import datetime

from django.db.models import Prefetch
from django.utils import timezone

from coaching.models import CoachingSession, SessionParticipant
from notifications.models import Notification, NotificationKind, NotificationStatus
from notifications.services import enqueue

from .calendar import withdrawal_facts

# Why a session went, as its withdrawal says it ("… withdrawn: its plan changed").
PLAN_CHANGED = "its plan changed"
PLAN_ENDED = "its plan ended"


def closed_day(name: str) -> str:
    return f"the day is closed ({name})" if name else "the day is closed"


def withdrawals_queue(
    session_ids: list[int], *, why: str, actor_id: int | None = None, now: datetime | None = None
) -> int:
    """Queue a withdrawal for everyone told of these sessions (their invitation sent,
    or kept in the app only); call before deleting them. Whoever caused it (`actor_id`)
    gets theirs already read: it is for their calendar. At most three queries and an
    insert, however many sessions."""
    if not session_ids:
        return 0
    told = Notification.objects.filter(
        kind=NotificationKind.SESSION_INVITED,
        session_id__in=session_ids,
        session_change__isnull=True,
        status__in=[NotificationStatus.SENT, NotificationStatus.SKIPPED],
    ).select_related("recipient")
    readers: dict[int, list] = {}
    for row in told:
        readers.setdefault(row.session_id, []).append(row.recipient)
    if not readers:
        return 0
    now = now or timezone.now()
    sessions = CoachingSession.objects.filter(pk__in=list(readers)).prefetch_related(
        Prefetch("participants", queryset=SessionParticipant.objects.select_related("person"))
    )
    return enqueue(
        [
            Notification(
                kind=NotificationKind.SESSION_WITHDRAWN,
                recipient=person,
                period=str(session.pk),
                withdrawn={
                    **withdrawal_facts(session, reader=person),
                    "kind": session.get_kind_display(),
                    "why": why,
                },
                read_at=now if person.pk == actor_id else None,
            )
            for session in sessions
            for person in readers[session.pk]
        ]
    )
