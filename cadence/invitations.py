"""Calendar invitations and change notices through the outbox.

- Every session still to come is sent as an invitation to each of its people when it
  comes within `CADENCE_INVITATION_DAYS` (beat, with the reminders; a session planned
  by hand inside the window, at the next look): a weekly 1:1 is one invitation a week
  per person, never six at the first generation, and the generator's COPY writes no
  notification rows. Once per session and person (the outbox's unique constraint),
  set-based.
- A session moved or cancelled (`coaching.signals.session_changed`) tells every other
  participant, once per change (`Notification.session_change`), so a second move is
  told again.

Rows are references; the email (with its iTIP `.ics`, `calendar.itip_ical`) is rendered
when it is sent, in the recipient's zone."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from coaching.models import (
    CoachingSession,
    SessionChange,
    SessionChangeKind,
    SessionParticipant,
    SessionStatus,
)
from notifications.models import Notification, NotificationKind, NotificationStatus
from notifications.services import enqueue

CHANGE_KIND = {
    SessionChangeKind.MOVED: NotificationKind.SESSION_MOVED,
    SessionChangeKind.CANCELLED: NotificationKind.SESSION_CANCELLED,
}


def invitations_queue(*, now: datetime | None = None) -> int:
    """Invite everyone in a scheduled session starting within the invitation window
    who has not been invited to it yet. One read of the participants in the window
    (the `(person, role, scheduled_start)` index's copy of the time is not led by
    time, so it goes through the sessions' `(status, scheduled_start)` index), less
    those with an invitation already (the outbox's once-per-session constraint)."""
    now = now or timezone.now()
    soon = CoachingSession.objects.filter(
        status=SessionStatus.SCHEDULED,
        scheduled_start__gt=now,
        scheduled_start__lte=now + timedelta(days=settings.CADENCE_INVITATION_DAYS),
    )
    invited = Notification.objects.filter(
        kind=NotificationKind.SESSION_INVITED,
        session_id=OuterRef("session_id"),
        recipient_id=OuterRef("person_id"),
        session_change__isnull=True,
    )
    pairs = (
        SessionParticipant.objects.filter(session__in=soon, person__is_active=True)
        .exclude(Exists(invited))
        .values_list("session_id", "person_id")
    )
    return len(
        Notification.objects.bulk_create(
            [
                # For the calendar, not news: in the app it is a quiet line, read (the
                # reminder the day before is what asks for attention).
                Notification(
                    kind=NotificationKind.SESSION_INVITED,
                    session_id=session_id,
                    recipient_id=pk,
                    read_at=now,
                )
                for session_id, pk in pairs
            ],
            ignore_conflicts=True,
        )
    )


def changed_queue(*, change: SessionChange) -> int:
    """Tell every other active participant of a move or cancellation. Whoever made it
    is told too if their invitation was emailed — only so that the event in their own
    calendar follows (recorded read, and emailed as a calendar update alone)."""
    people = SessionParticipant.objects.filter(
        session_id=change.session_id, person__is_active=True
    ).values_list("person_id", flat=True)
    invited = Notification.objects.filter(
        kind=NotificationKind.SESSION_INVITED,
        session_id=change.session_id,
        recipient_id=change.actor_id,
        session_change__isnull=True,
        status=NotificationStatus.SENT,
    )
    mine = change.actor_id is not None and invited.exists()
    return enqueue(
        [
            Notification(
                kind=CHANGE_KIND[change.kind],
                session_id=change.session_id,
                session_change=change,
                recipient_id=pk,
                read_at=change.at if pk == change.actor_id else None,
            )
            for pk in people
            if pk != change.actor_id or mine
        ]
    )


def still_invited(row: Notification) -> bool:
    """An invitation is not worth sending once the session is cancelled or past (held,
    missed); its cancellation, if any, is told by its own notice."""
    session = row.session
    return session.status == SessionStatus.SCHEDULED and session.scheduled_start > timezone.now()
