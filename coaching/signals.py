"""Signals for apps to the right (the cadence engine), so coaching imports none of
them. Each is sent inside the transaction of the change: a receiver's writes commit or
roll back with it."""

from django.dispatch import Signal

# `pair=`, `actor=`: a pair was formed — its members are asked to read the agreement.
pair_formed = Signal()
# `pair=`, `actor=`: every member accepted the agreement — the pair starts meeting.
pair_started = Signal()
# `pair=`, `actor=`: a member left and two or more remain — the sessions ahead change.
pair_members_changed = Signal()
# `pair=`, `actor=`: the pair ended (fewer than two left, or closed) — no more sessions.
pair_ended = Signal()
# `request=`: someone asked for a peer — whoever pairs them may be told.
peer_requested = Signal()
# `change=` (a `SessionChange`): a session was moved or cancelled — the others are told.
session_changed = Signal()
# `session=`, `start=`, `end=`, `actor=`: a session is about to move there. A receiver
# refuses (a clash with someone's other session, a closed day) by raising
# ValidationError, which rolls the move back.
session_moving = Signal()
# `session=`: where could it move and still be kept? A receiver returns the free slots
# for everyone in it (cadence.availability, which knows the closed days).
move_slots_wanted = Signal()
