"""The shared notes as people see them: the goal carried into sessions not yet held,
and the live state a session page polls (texts, version, who wrote each field last,
who is writing where). Private notes never pass through here."""

import copy
from datetime import datetime

from django.utils import timezone

from . import presence
from .models import CoachingSession, ParticipantRole, SessionStatus, SharedNotes
from .selectors_goals import current_goal

FIELD_LABELS = {
    "goal": "Goal",
    "reality": "Reality",
    "reality_evidence_url": "Evidence link",
    "options": "Options",
    "will": "Will",
    "notes": "Notes",
}


def carried_goal(session: CoachingSession) -> str:
    """The goal a 1:1 or manager review shows while none is written in it: the
    coachee's current one. It is frozen into the notes when the session is held."""
    coachee = _coachee_of(session) if session.uses_grow else None
    return current_goal(person=coachee) if coachee else ""


def _coachee_of(session: CoachingSession):
    """From the participants a page prefetched, else in one query (a session a service
    has just locked has none loaded: one read each would be a query per person)."""
    if "participants" in getattr(session, "_prefetched_objects_cache", {}):
        return session.coachee
    found = (
        session.participants.filter(role=ParticipantRole.COACHEE).select_related("person").first()
    )
    return found.person if found else None


def notes_shown(session: CoachingSession) -> SharedNotes:
    """The notes as the page and the API show them: a 1:1 not yet held with no goal
    of its own shows the coachee's current goal (read now, so a changed goal shows in
    every upcoming 1:1 and the generator pays nothing per row). A copy: never saved."""
    notes = session.notes
    if notes.goal or not session.uses_grow or session.status == SessionStatus.HELD:
        return notes
    shown = copy.copy(notes)
    shown.goal = carried_goal(session)
    return shown


def clock(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def written_by(session: CoachingSession, notes: SharedNotes) -> dict[str, dict]:
    """Per field, who last wrote it and when ("Aisha, 10:02"), named only among the
    people in the session (only they write the notes)."""
    names = {p.person_id: p.person.get_short_name() for p in session.participants.all()}
    lines = {}
    for field, mark in (notes.written or {}).items():
        at = datetime.fromisoformat(mark["at"])
        lines[field] = {
            "by": names.get(mark["by"], "Someone"),
            "at": at.isoformat(),
            "time": clock(at),
        }
    return lines


def notes_state(*, session: CoachingSession, viewer) -> dict:
    """What the session page's notes poll and autosave answer (JSON): the texts of
    the version saved now, who wrote each field last, and who else is writing where."""
    notes = notes_shown(session)
    return {
        "version": notes.version,
        "fields": notes.content(),
        "written": written_by(session, notes),
        "saved_at": clock(notes.updated_at) if notes.version else "",
        "writing": [
            {"name": name, "field": field, "label": FIELD_LABELS[field]}
            for name, field in presence.writing_now(session=session, viewer=viewer)
        ],
    }
