"""Undo for a commitment just closed: offered while `rules.why_not_reopen` allows it."""

import math

from django import template
from django.utils import timezone

from coaching import rules

register = template.Library()


@register.filter
def undo_seconds(commitment) -> int | None:
    """How many seconds closing `commitment` can still be undone, or None: the Undo
    button shows only then, and hides itself when they are up (undo-expiry.js counts
    from when the page arrived, so a browser's clock that is off does not matter)."""
    now = timezone.now()
    if rules.why_not_reopen(commitment, now) is not None:
        return None
    return max(1, math.ceil((rules.undo_close_until(commitment) - now).total_seconds()))
