"""Which page of a long list a dashboard shows: below an organisation's head there can
be a thousand managers, too many to weigh on one page or to compute in one request.
One parser and one page size, so the pages and the API agree."""

from django.core.exceptions import ValidationError
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

MANAGERS_PER_PAGE = 25


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


def page_of(queryset: QuerySet, number: int) -> Page:
    """The page asked for, MANAGERS_PER_PAGE long; past the last one, the last (a link
    or a bookmark can outlive a reorganisation). Two queries: the count and the page."""
    return Paginator(queryset, MANAGERS_PER_PAGE).get_page(number)
