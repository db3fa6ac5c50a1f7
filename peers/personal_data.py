"""Peers' part of a person's data (see `people.privacy`).

The download: their peer pairs with the notes and habits they may read, and their
open request for a peer.

Erasure: the pair notes they wrote, their habits and any request for a peer go; the
words they wrote only for themselves on shared records (a check-in's note, a reason
for leaving a pair) are blanked."""

from django.db.models import Prefetch

from people.models import User
from people.privacy import Erasure, erasure_part, export_section, ref, when

from .models import Habit, HabitCheckIn, PairMember, PairNote, PeerRequest
from .selectors import own_peer_request


@export_section("peer_pairs")
def peer_pairs(person: User) -> list:
    """The pairs they are or were in, with the notes and habits the pair's rules let
    them read (a member who left reads what was written while they were in it)."""
    memberships = list(
        PairMember.objects.filter(person=person)
        .select_related("pair", "pair__focus_area")
        .prefetch_related(
            Prefetch("pair__members", queryset=PairMember.objects.select_related("person"))
        )
    )
    pair_ids = [m.pair_id for m in memberships]
    notes: dict[int, list] = {}
    for note in (
        PairNote.objects.visible_to(person)
        .filter(pair_id__in=pair_ids)
        .select_related("author")
        .order_by("created_at", "pk")
    ):
        notes.setdefault(note.pair_id, []).append(
            {"author": ref(note.author), "text": note.text, "created_at": when(note.created_at)}
        )
    habits: dict[int, list] = {}
    for habit in (
        Habit.objects.visible_to(person)
        .filter(pair_id__in=pair_ids)
        .select_related("owner")
        .prefetch_related(
            Prefetch("check_ins", queryset=HabitCheckIn.objects.select_related("checked_by"))
        )
    ):
        habits.setdefault(habit.pair_id, []).append(
            {
                "owner": ref(habit.owner),
                "text": habit.text,
                "created_at": when(habit.created_at),
                "retired_at": when(habit.retired_at),
                "check_ins": [
                    {
                        "checked_by": ref(c.checked_by),
                        "outcome": c.outcome,
                        "note": c.note,
                        "checked_on": when(c.checked_on),
                    }
                    for c in habit.check_ins.all()
                ],
            }
        )
    return [
        {
            "id": m.pair_id,
            "status": m.pair.status,
            "focus_area": m.pair.focus_area.name if m.pair.focus_area else None,
            "members": [ref(other.person) for other in m.pair.members.all()],
            "accepted_at": when(m.accepted_at),
            "left_at": when(m.left_at),
            "left_reason": m.left_reason or None,
            "notes": notes.get(m.pair_id, []),
            "habits": habits.get(m.pair_id, []),
        }
        for m in memberships
    ]


@export_section("peer_request")
def peer_request(person: User) -> dict | None:
    mine = own_peer_request(user=person)
    if mine is None:
        return None
    return {
        "note": mine.note,
        "focus_area": mine.focus_area.name if mine.focus_area else None,
        "created_at": when(mine.created_at),
        "updated_at": when(mine.updated_at),
    }


@erasure_part
def erase(person: User) -> Erasure:
    return Erasure(
        delete=[
            PairNote.objects.filter(author=person),
            Habit.objects.filter(owner=person),
            PeerRequest.objects.filter(person=person),
        ],
        anonymise=[
            (
                HabitCheckIn.objects.filter(checked_by=person)
                .exclude(habit__owner=person)
                .exclude(note=""),
                {"note": ""},
            ),
            (PairMember.objects.filter(person=person).exclude(left_reason=""), {"left_reason": ""}),
        ],
    )
