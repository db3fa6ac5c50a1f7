"""Helpers shared by the peer pair tests (tests/coaching/test_pairs_*.py)."""

from datetime import time

from peers.services import pair_accept, pair_create, pair_note_add


def form_pair(actor, *members, **extra):
    """A pair formed through the real service: Tuesdays 10:00, every two weeks."""
    fields = {
        "rationale": "complementary",
        "weekday": 1,
        "local_time": time(10, 0),
        **extra,
    }
    return pair_create(actor=actor, members=list(members), **fields)


def active_pair(actor, *members, **extra):
    """A pair every member accepted (so it started)."""
    pair = form_pair(actor, *members, **extra)
    for person in members:
        pair_accept(pair=pair, actor=person)
    pair.refresh_from_db()
    return pair


SECRET = "ZQPAIRSECRET we both dread the pricing slide"


def with_notes(pair, *authors, text=SECRET):
    for author in authors:
        pair_note_add(pair=pair, actor=author, text=f"{text} ({author.display_name})")
    return pair
