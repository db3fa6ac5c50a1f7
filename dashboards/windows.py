"""The window a dashboard looks at: the last N weeks up to now, and the N weeks before
them for the trend. One place for the choices, the default and the message a wrong
value gets, so pages, exports and the API agree."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone

WEEK_CHOICES = (4, 8, 13, 26)
DEFAULT_WEEKS = 8


@dataclass(frozen=True)
class Window:
    weeks: int
    since: datetime
    until: datetime

    @property
    def previous(self) -> "Window":
        """The window of the same length just before this one (for trends)."""
        return Window(self.weeks, self.since - (self.until - self.since), self.since)


def window_ending(*, weeks: int = DEFAULT_WEEKS, now: datetime | None = None) -> Window:
    now = now or timezone.now()
    return Window(weeks, now - timedelta(weeks=weeks), now)


def parse_weeks(raw: str | None) -> int:
    """A `weeks` query parameter: absent means the default; anything but one of the
    choices is refused with a message that lists them."""
    if raw in (None, ""):
        return DEFAULT_WEEKS
    try:
        weeks = int(raw)
    except (TypeError, ValueError):
        weeks = None
    if weeks not in WEEK_CHOICES:
        *first, last = (str(w) for w in WEEK_CHOICES)
        choices = f"{', '.join(first)} or {last}"
        raise ValidationError(f"Choose a window of {choices} weeks.", code="weeks")
    return weeks
