"""Coaching's part of a person's data (see `people.privacy`).

The download: sessions they took part in with the shared notes and agenda everyone
in them reads, their own private notes, commitments, goals, the ratings they gave,
the diagnoses they wrote (never those about them: a coach's hypothesis). Peer pairs
and the learning loop have their own (peers/ and learning/ `personal_data`).

Erasure: their private notes go; the words they wrote only for themselves on shared
records (a rating's comment, a diagnosis's notes) are blanked; the
sessions, their notes, commitments and goals stay — the dashboards count them and the
other people in them keep their history."""

from collections import defaultdict

from django.db.models import Q

from people.models import User
from people.privacy import Erasure, erasure_part, export_section, named, ref, when

from .models import (
    AgendaItem,
    CoachingSession,
    Commitment,
    Diagnosis,
    Goal,
    PrivateNote,
    SessionChange,
    SessionParticipant,
    SessionRating,
    SharedNotes,
)

# The shared notes' columns, read with their session (none: a session without notes).
_NOTES = tuple(
    f"notes__{name}" for name in ("pk", *SharedNotes.FIELDS, "updated_at", "coachee_prepared_at")
)


def _notes(row: dict) -> dict | None:
    if row["notes__pk"] is None:
        return None
    return {
        **{name: row[f"notes__{name}"] for name in SharedNotes.FIELDS},
        "updated_at": when(row["notes__updated_at"]),
        "coachee_prepared_at": when(row["notes__coachee_prepared_at"]),
    }


def _by_session(rows) -> dict[int, list]:
    grouped = defaultdict(list)
    for row in rows:
        grouped[row[0]].append(row[1:])
    return grouped


@export_section("sessions")
def sessions(person: User) -> list:
    """Every session they take part in, as every participant reads it: the "mine"
    branch of `SessionQuerySet.visible_to`, alone (the whole rule would also walk
    everyone below a manager only to throw those sessions away). Read as values: a
    team lead's 1,255 sessions with their 9,000 participants and agenda items as
    objects took most of the download's time (bench/routes.py)."""
    mine = SessionParticipant.objects.filter(person=person).values("session_id")
    found = (
        CoachingSession.objects.filter(pk__in=mine)
        .order_by("scheduled_start", "pk")
        .values(
            "pk",
            "kind",
            "status",
            "scheduled_start",
            "duration_minutes",
            "team__name",
            "focus_area__name",
            "held_at",
            "cancel_reason",
            "cancel_note",
            "scenario",
            "drills",
            *_NOTES,
        )
    )
    taking_part = _by_session(
        SessionParticipant.objects.filter(session__in=mine)
        .order_by("session_id", "speaking_order", "pk")
        .values_list("session_id", "person_id", "person__display_name", "role")
    )
    agenda = _by_session(
        AgendaItem.objects.filter(session__in=mine)
        .order_by("session_id", "created_at", "pk")
        .values_list(
            "session_id", "text", "done", "author_id", "author__display_name", "created_at"
        )
    )
    changes = _by_session(
        SessionChange.objects.filter(session__in=mine)
        .order_by("session_id", "sequence")
        .values_list(
            "session_id",
            "kind",
            "actor_id",
            "actor__display_name",
            "at",
            "from_start",
            "to_start",
            "cancel_reason",
            "cancel_note",
        )
    )
    return [
        {
            "id": s["pk"],
            "kind": s["kind"],
            "status": s["status"],
            "scheduled_start": when(s["scheduled_start"]),
            "duration_minutes": s["duration_minutes"],
            "team": s["team__name"],
            "focus_area": s["focus_area__name"],
            "participants": [
                {**named(pk, name), "role": role} for pk, name, role in taking_part[s["pk"]]
            ],
            "held_at": when(s["held_at"]),
            "cancel_reason": s["cancel_reason"] or None,
            "cancel_note": s["cancel_note"] or None,
            "scenario": s["scenario"] or None,
            "drills": s["drills"] or None,
            "shared_notes": _notes(s),
            "agenda": [
                {"text": text, "done": done, "author": named(pk, name), "created_at": when(at)}
                for text, done, pk, name, at in agenda[s["pk"]]
            ],
            "changes": [
                {
                    "kind": kind,
                    "by": named(pk, name),
                    "at": when(at),
                    "from": when(was),
                    "to": when(to),
                    "cancel_reason": reason or None,
                    "cancel_note": note or None,
                }
                for kind, pk, name, at, was, to, reason, note in changes[s["pk"]]
            ],
        }
        for s in found
    ]


@export_section("private_notes")
def private_notes(person: User) -> list:
    """Their own, and only theirs: the rule allows no one else's."""
    return [
        {"session_id": n.session_id, "text": n.text, "updated_at": when(n.updated_at)}
        for n in PrivateNote.objects.visible_to(person).order_by("session_id")
    ]


@export_section("commitments")
def commitments(person: User) -> list:
    """Theirs, and those they wrote down for someone else."""
    found = (
        Commitment.objects.filter(Q(owner=person) | Q(created_by=person))
        .select_related("owner")
        .order_by("created_at", "pk")
    )
    return [
        {
            "id": c.pk,
            "owner": ref(c.owner),
            "text": c.text,
            "evidence": c.evidence,
            "due_on": when(c.due_on),
            "status": c.status,
            "drop_reason": c.drop_reason or None,
            "created_in_session_id": c.created_in_id,
            "created_at": when(c.created_at),
            "closed_at": when(c.closed_at),
        }
        for c in found
    ]


@export_section("goals")
def goals(person: User) -> list:
    return [
        {
            "id": g.pk,
            "title": g.title,
            "success": g.success,
            "focus_area": g.focus_area.name if g.focus_area else None,
            "status": g.status,
            "created_at": when(g.created_at),
            "closed_at": when(g.closed_at),
        }
        for g in Goal.objects.filter(owner=person).select_related("focus_area")
    ]


@export_section("ratings_given")
def ratings_given(person: User) -> list:
    return [
        {
            "session_id": r.session_id,
            "coach": ref(r.coach),
            "score": r.score,
            "comment": r.comment,
            "created_at": when(r.created_at),
        }
        for r in SessionRating.objects.visible_to(person).select_related("coach")
    ]


@export_section("diagnoses_written")
def diagnoses_written(person: User) -> list:
    """The ones they wrote as a coach. Those about them are their coach's working
    hypothesis and are not shown to them anywhere, so not here either."""
    return [
        {
            "coachee": ref(d.coachee),
            "knows_how": d.knows_how,
            "believes": d.believes,
            "has_framework": d.has_framework,
            "has_system": d.has_system,
            "gap": d.gap,
            "notes": d.notes,
            "created_at": when(d.created_at),
        }
        # `DiagnosisQuerySet.visible_to` for its own author: theirs, never about them.
        for d in Diagnosis.objects.filter(author=person)
        .exclude(coachee=person)
        .select_related("coachee")
    ]


@erasure_part
def erase(person: User) -> Erasure:
    return Erasure(
        delete=[
            PrivateNote.objects.filter(author=person),
        ],
        anonymise=[
            (SessionRating.objects.filter(rater=person).exclude(comment=""), {"comment": ""}),
            (Diagnosis.objects.filter(author=person).exclude(notes=""), {"notes": ""}),
        ],
        keep=[
            SessionParticipant.objects.filter(person=person),
            Commitment.objects.filter(owner=person),
            Goal.objects.filter(owner=person),
            SessionRating.objects.filter(rater=person, comment=""),
        ],
    )
