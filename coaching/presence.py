"""Who is writing in which field of a session's shared notes, for a few seconds, in
the cache (a miss only hides the line). Only shared-note fields: nobody ever learns
that someone is writing a private note."""

from django.core.cache import cache
from django.core.exceptions import ValidationError

from core.errors import Forbidden

from . import rules
from .models import CoachingSession, SharedNotes

# A poll every few seconds renews it; a closed tab lets it lapse.
WRITING_FOR_SECONDS = 8


def _key(session_id: int, person_id: int) -> str:
    return f"notes-writing:{session_id}:{person_id}"


def mark_writing(*, session: CoachingSession, person, field: str) -> None:
    """`person` is writing in `field` of the shared notes now (a few seconds)."""
    if not rules.may_edit_notes(person, session):
        raise Forbidden("Only people who write these notes are shown writing.")
    if field not in SharedNotes.FIELDS:  # never anything else: not a private note
        raise ValidationError({"writing": "Name a field of the shared notes."})
    cache.set(_key(session.pk, person.pk), field, WRITING_FOR_SECONDS)


def writing_now(*, session: CoachingSession, viewer) -> list[tuple[str, str]]:
    """(short name, field) of the others in the session writing now."""
    others = [p.person for p in session.participants.all() if p.person_id != viewer.pk]
    if not others:
        return []
    found = cache.get_many([_key(session.pk, p.pk) for p in others])
    return [
        (p.get_short_name(), found[_key(session.pk, p.pk)])
        for p in others
        if found.get(_key(session.pk, p.pk)) in SharedNotes.FIELDS
    ]
