"""Which page of a long list a dashboard shows: below an organisation's head there can
be a thousand managers, too many to weigh on one page or to compute in one request.
One page size, so the pages and the API agree (the page number:
`core.paging.parse_page`)."""

from collections.abc import Sequence

from django.core.paginator import Page, Paginator

MANAGERS_PER_PAGE = 25


def page_of(ids: Sequence[int], number: int) -> Page:
    """The page asked for of `ids`, MANAGERS_PER_PAGE long; past the last one, the last
    (a link or a bookmark can outlive a reorganisation)."""
    return Paginator(ids, MANAGERS_PER_PAGE).get_page(number)
