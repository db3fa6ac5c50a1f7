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


def role_in(person, session: CoachingSession) -> str | None:
    """`person`'s role in `session`, or None if they are not in it."""
    for participant in session.participants.all():
        if participant.person_id == person.pk:
            return participant.role
    return None


def is_participant(person, session: CoachingSession) -> bool:
    return role_in(person, session) is not None


def may_run(person, session: CoachingSession) -> bool:
    """Log it held, move it, cancel it: whoever runs the session (any peer in a
    peer session)."""
    role = role_in(person, session)
    if session.kind == SessionKind.PEER:
        return role == ParticipantRole.PEER
    return role in RUNNING_ROLES


def why_not_run(person, session: CoachingSession, verb: str) -> str | None:
    """Why `person` may not `verb` ("log", "cancel", "move") `session` at all, or None:
    the not-allowed part of `why_not_log_held` and `why_not_change`, which the
    services refuse with `Forbidden` (the rest is the session's state, a 400)."""
    if not may_run(person, session):
        return f"Only the person running this session can {verb} it."
    return None


def why_not_open_review_scoring(person, session: CoachingSession) -> str | None:
    """A team call review's scoring is opened by whoever runs the review."""
    if not may_run(person, session):
        return "Only whoever runs the review opens the scoring."
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


def may_remove_agenda_item(person, item: AgendaItem) -> bool:
    return why_not_remove_agenda_item(person, item) is None


def logging_opens(person, session: CoachingSession) -> datetime:
    """When `person` may first log `session` held: the start of its day in their own
    time zone, so a 1:1 brought forward to the morning is logged when it ends, without
    being moved first. Earlier than its day, it has to be moved to when it took place."""
    local = session.scheduled_start.astimezone(person.tzinfo)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def why_not_log_held(person, session: CoachingSession, now) -> str | None:
    """Why `person` may not log `session` held at `now`, or None if they may: the page
    offers the button only when the service would take it, and the service refuses
    with the same words. A session cannot have been held before its day."""
    if refusal := why_not_run(person, session, "log"):
        return refusal
    if session.status not in (SessionStatus.SCHEDULED, SessionStatus.MISSED):
        return f"This session is already {session.get_status_display().lower()}."
    if now < logging_opens(person, session):
        day = session.scheduled_start.astimezone(person.tzinfo)
        return (
            f"This session has not started yet: it is on {day:%A} {day.day} {day:%B}. "
            "Log it as held on its day, once it has taken place; if you met earlier, "
            "move it to when you met, then log it."
        )
    return None


def may_log_held(person, session: CoachingSession, now) -> bool:
    return why_not_log_held(person, session, now) is None


# What moving or cancelling a session has made of it, for the refusal's words.
_CHANGED = {"cancel": "cancelled", "move": "moved"}


def why_not_change(person, session: CoachingSession, verb: str) -> str | None:
    """Why `person` may not `verb` ("cancel" or "move") `session` now, or None if they
    may: the page says it instead of offering a form that would be refused, and the
    service refuses with the same words."""
    if refusal := why_not_run(person, session, verb):
        return refusal
    if session.status != SessionStatus.SCHEDULED:
        return f"Only a scheduled session can be {_CHANGED[verb]}."
    return None


def may_edit_notes(person, session: CoachingSession) -> bool:
    """Shared notes, the agenda and the session's commitments are written by the
    people in the room, not by managers reading along; a cancelled session has nothing
    to write up. The `why_not_*` below say it for each thing written."""
    return session.status != SessionStatus.CANCELLED and is_participant(person, session)


def _unless_writing(person, session: CoachingSession, reason: str) -> str | None:
    return None if may_edit_notes(person, session) else reason


def why_not_edit_notes(person, session: CoachingSession) -> str | None:
    return _unless_writing(person, session, "You can read these notes but not edit them.")


def why_not_add_agenda_item(person, session: CoachingSession) -> str | None:
    return _unless_writing(person, session, "Only people in the session add to its agenda.")


def why_not_tick_agenda_item(person, item: AgendaItem) -> str | None:
    return _unless_writing(person, item.session, "Only people in the session tick items off.")


def why_not_make_commitment(person, session: CoachingSession) -> str | None:
    return _unless_writing(person, session, "Only people in the session make commitments in it.")


def why_not_keep_private_note(person, session: CoachingSession) -> str | None:
    if not is_participant(person, session):
        return "Only people in the session keep notes here."
    return None


def may_keep_private_note(person, session: CoachingSession) -> bool:
    return why_not_keep_private_note(person, session) is None


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
