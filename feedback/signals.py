"""Signals for apps to the right (the cadence outbox), so feedback imports none of them."""

from django.dispatch import Signal

# Sent with `request=` inside the transaction that records a new feedback request: a
# receiver's writes (the "you were asked" notifications) commit or roll back with it.
feedback_requested = Signal()
