"""Someone's current goal in a line: their newest active development goal, else the
Goal of their latest 1:1 notes. Below the other selectors: the notes carry it into a
session not yet held (selectors_notes.py), the people overview lists it (selectors.py)."""

from django.db.models import QuerySet, Subquery, TextField, Value
from django.db.models.functions import Coalesce

from people.models import User

from .models import Goal, ParticipantRole, SessionParticipant


def latest_notes_goal(person_ref) -> QuerySet[SessionParticipant]:
    """Their coachee rows whose session's notes have a Goal, newest first: the first is
    the latest Goal they were coached on (`participant_by_person_time` read backwards,
    not every session they ever had)."""
    return SessionParticipant.objects.filter(
        person=person_ref,
        role=ParticipantRole.COACHEE,
        session__notes__goal__gt="",  # written (and a notes row at all: an inner join)
    ).order_by("-scheduled_start", "-session__notes__pk")


def newest_active_goal(person_ref) -> QuerySet[Goal]:
    return Goal.objects.active().filter(owner=person_ref).order_by("-created_at", "-pk")


def current_goal(*, person: User) -> str:
    """In a line: their newest active development goal, else the Goal of their latest
    1:1 notes. One query: the session page of every 1:1 not yet held reads it."""
    # Their own coachee rows newest first: joined from the sessions, PostgreSQL walked
    # every session newest first looking for one, and for someone never coached yet (a
    # new rep, the head of the organisation) read a million (/me/; bench/pages.py).
    goal = Coalesce(
        Subquery(newest_active_goal(person.pk).values("title")[:1]),
        Subquery(latest_notes_goal(person.pk).values("session__notes__goal")[:1]),
        Value(""),
        output_field=TextField(),
    )
    found = User.objects.filter(pk=person.pk).annotate(goal=goal).values_list("goal", flat=True)
    return found.first() or ""
