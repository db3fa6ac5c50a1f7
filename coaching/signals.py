"""Signals for apps to the right (the cadence engine), so coaching imports none of
them. Each is sent inside the transaction of the change: a receiver's writes commit or
roll back with it."""

from django.dispatch import Signal

# `change=` (a `SessionChange`): a session was moved or cancelled — the others are told.
session_changed = Signal()
# `session=`, `start=`, `end=`, `actor=`: a session is about to move there. A receiver
# refuses (a clash with someone's other session, a closed day) by raising
# ValidationError, which rolls the move back.
session_moving = Signal()
# `session=`: where could it move and still be kept? A receiver returns the free slots
# for everyone in it (cadence.availability, which knows the closed days).
move_slots_wanted = Signal()
