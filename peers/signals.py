"""Signals for apps to the right (the cadence engine), so peers imports none of them,
and for peers' own notifications (`peers.notifications`, connected at its `ready()`).
Each is sent inside the transaction of the change: a receiver's writes commit or roll
back with it."""

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
