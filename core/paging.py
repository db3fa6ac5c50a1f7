"""Long lists: the page number from a query parameter (one parser, so every page and
API that pages refuses a bad number with the same message), the first few rows of a
list shown short, and a list's states as tabs with their counts."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError


@dataclass(frozen=True)
class StateChoice:
    """One tab of a list shown by state (`templates/_show_tabs.html`)."""

    key: str
    label: str
    count: int
    current: bool


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


def page_asked(raw: str | None) -> tuple[int, str | None]:
    """For a page that shows its list whatever the page number: the number asked for,
    or the first with the message to show (and answer 400 with) when it is bad."""
    try:
        return parse_page(raw), None
    except ValidationError as exc:
        return 1, " ".join(exc.messages)


def first_of(rows, n: int) -> dict:
    """For a list shown short (a page's panel, the newest few): the first `n` rows and
    whether there are more, read as one row beyond, so no count is needed. Templates
    say "n+" and how to see the rest rather than stopping silently."""
    found = list(rows[: n + 1])
    return {"rows": found[:n], "more": len(found) > n}
