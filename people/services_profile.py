"""What someone sets about themselves: their name, time zone and working hours."""

from datetime import date, datetime, time, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction

from .models import (
    User,
    work_days_bits,
)


@transaction.atomic
def profile_update(
    *,
    person: User,
    display_name: str,
    time_zone: str,
    work_days: list[int] | None = None,
    work_starts: time | None = None,
    work_ends: time | None = None,
) -> User:
    """Name and time zone, and the working hours when given (`working_hours_save`)."""
    person.display_name = display_name.strip()
    person.time_zone = time_zone
    fields = ["display_name", "time_zone"]
    if work_days is not None:
        _set_working_hours(person, work_days, work_starts, work_ends)
        fields += ["work_days", "work_starts", "work_ends"]
    person.full_clean(exclude=["password", "reports_to"])
    person.save(update_fields=fields)
    return person


# Shortest working day others may book into: less is a typo, not a day.
WORK_HOURS_MIN = timedelta(hours=1)


def _set_working_hours(person: User, days, starts, ends) -> None:
    """Check and set a person's working hours; a ValidationError names each bad field."""
    errors = {}
    if not days or any(not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 6
                       for d in days):  # fmt: skip
        errors["work_days"] = "Pick at least one working day, Monday to Sunday."
    if not isinstance(starts, time):
        errors["work_starts"] = "Give the time your working day starts, e.g. 09:00."
    if not isinstance(ends, time):
        errors["work_ends"] = "Give the time your working day ends, e.g. 17:00."
    elif isinstance(starts, time):
        length = datetime.combine(date.min, ends) - datetime.combine(date.min, starts)
        if length < WORK_HOURS_MIN:
            errors["work_ends"] = "The working day ends at least an hour after it starts."
    if errors:
        raise ValidationError(errors)
    person.work_days = work_days_bits(days)
    person.work_starts = starts.replace(second=0, microsecond=0, tzinfo=None)
    person.work_ends = ends.replace(second=0, microsecond=0, tzinfo=None)


@transaction.atomic
def working_hours_save(*, person: User, days: list[int], starts: time, ends: time) -> User:
    """A person's own working hours (days 0 = Monday … 6, local start and end in their
    time zone): where others may find them free for a session."""
    person = User.objects.select_for_update().get(pk=person.pk)
    _set_working_hours(person, days, starts, ends)
    person.save(update_fields=["work_days", "work_starts", "work_ends"])
    return person
