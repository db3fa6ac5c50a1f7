"""What a person may *do* in a session they can already see (visibility itself is
`CoachingSession.objects.visible_to`). Pure functions over the prefetched
participants, so pages can ask them per button without queries. The services refuse
with the same words: `core.errors.Forbidden` for what the person may not do at all,
ValidationError for what the session's state or the input does not allow."""

from datetime import datetime, timedelta

from .models import (
    RUNNING_ROLES,
    AgendaItem,
    CoachingSession,
    Commitment,
    CommitmentStatus,
    ParticipantRole,
    SessionKind,
    SessionStatus,
)


def role_in(session: CoachingSession, user) -> str | None:
    for participant in session.participants.all():
        if participant.person_id == user.pk:
            return participant.role
    return None


def is_participant(session: CoachingSession, user) -> bool:
    return role_in(session, user) is not None


def can_run(session: CoachingSession, user) -> bool:
    """Log it held, move it, cancel it: whoever runs the session (any peer in a
    peer session)."""
    role = role_in(session, user)
    if session.kind == SessionKind.PEER:
        return role == ParticipantRole.PEER
    return role in RUNNING_ROLES


def why_not_run(person, session: CoachingSession, verb: str) -> str | None:
    """Why `person` may not `verb` ("log", "cancel", "move") `session` at all, or None:
    the not-allowed part of `why_not_log_held` and `why_not_change`, which the
    services refuse with `Forbidden` (the rest is the session's state, a 400)."""
    if not can_run(session, person):
        return f"Only the person running this session can {verb} it."
    return None


def why_not_rate(person, session: CoachingSession) -> str | None:
    """Why `person` may never rate `session` (whether it is open for rating *now* is
    the service's check of its state)."""
    from .ratings import RATED_KINDS, is_rater

    if session.kind not in RATED_KINDS:
        return "Only 1:1s and manager reviews are rated."
    if not is_rater(session, person):
        return "Only the person coached in this session can rate it."
    return None


def why_not_remove_agenda_item(person, item: AgendaItem) -> str | None:
    if item.author_id != person.pk:
        return "Only whoever added an item can remove it."
    return None


def logging_opens(session: CoachingSession, user) -> datetime:
    """When `user` may first log `session` held: the start of its day in their own time
    zone, so a 1:1 brought forward to the morning is logged when it ends, without
    being moved first. Earlier than its day, it has to be moved to when it took place."""
    local = session.scheduled_start.astimezone(user.tzinfo)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def why_not_log_held(session: CoachingSession, user, now) -> str | None:
    """Why `user` may not log `session` held at `now`, or None if they may: the page
    offers the button only when the service would take it, and the service refuses
    with the same words. A session cannot have been held before its day."""
    if refusal := why_not_run(user, session, "log"):
        return refusal
    if session.status not in (SessionStatus.SCHEDULED, SessionStatus.MISSED):
        return f"This session is already {session.get_status_display().lower()}."
    if now < logging_opens(session, user):
        day = session.scheduled_start.astimezone(user.tzinfo)
        return (
            f"This session has not started yet: it is on {day:%A} {day.day} {day:%B}. "
            "Log it as held on its day, once it has taken place; if you met earlier, "
            "move it to when you met, then log it."
        )
    return None


# What moving or cancelling a session has made of it, for the refusal's words.
_CHANGED = {"cancel": "cancelled", "move": "moved"}


def why_not_change(session: CoachingSession, user, verb: str) -> str | None:
    """Why `user` may not `verb` ("cancel" or "move") `session` now, or None if they
    may: the page says it instead of offering a form that would be refused, and the
    service refuses with the same words."""
    if refusal := why_not_run(user, session, verb):
        return refusal
    if session.status != SessionStatus.SCHEDULED:
        return f"Only a scheduled session can be {_CHANGED[verb]}."
    return None


def can_edit_notes(session: CoachingSession, user) -> bool:
    """Shared notes are written by the people in the room, not by managers reading
    along; a cancelled session has nothing to write up."""
    return session.status != SessionStatus.CANCELLED and is_participant(session, user)


def can_keep_private_note(session: CoachingSession, user) -> bool:
    return is_participant(session, user)


def carries_commitments(session: CoachingSession) -> bool:
    """Kinds whose agenda shows the coachee's open commitments."""
    return session.kind in (SessionKind.ONE_ON_ONE, SessionKind.MANAGER_REVIEW)


# Done or Dropped can be taken back this long after: a slip of the finger, not a change
# of mind weeks later (a commitment that still stands is made again).
UNDO_CLOSE = timedelta(minutes=1)


def undo_close_until(commitment: Commitment) -> datetime | None:
    """Until when closing `commitment` can be undone (None while it is open)."""
    if commitment.status == CommitmentStatus.OPEN or commitment.closed_at is None:
        return None
    return commitment.closed_at + UNDO_CLOSE


def why_not_reopen(commitment: Commitment, now: datetime) -> str | None:
    """Why closing `commitment` cannot be undone at `now`, or None if it can: the page
    offers Undo only while the service would take it, and the service refuses with
    the same words."""
    until = undo_close_until(commitment)
    if until is None:
        return "This commitment is open already."
    if now > until:
        return (
            "Too late to undo: closing a commitment can be undone only in the minute after. "
            "If it still stands, make it again as a new commitment."
        )
    return None
