"""The page number of a long list, from a query parameter: one parser, so every page
and API that pages refuses a bad number with the same message."""

from django.core.exceptions import ValidationError


def parse_page(raw: str | None) -> int:
    """A page number from a query parameter: absent means the first; anything but a
    whole number from 1 is refused with a message."""
    if raw in (None, ""):
        return 1
    try:
        number = int(raw)
    except (TypeError, ValueError):  # ValueError too for a number of 4,300+ digits
        number = 0
    if number < 1:
        raise ValidationError("Give a page number: a whole number from 1.", code="page")
    return number
