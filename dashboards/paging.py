"""Which page of a long list a dashboard shows: below an organisation's head there can
be a thousand managers, too many to weigh on one page or to compute in one request.
One page size, so the pages and the API agree (the page number:
`people.paging.parse_page`)."""

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

MANAGERS_PER_PAGE = 25


def page_of(queryset: QuerySet, number: int, *, count: int | None = None) -> Page:
    """The page asked for, MANAGERS_PER_PAGE long; past the last one, the last (a link
    or a bookmark can outlive a reorganisation). Two queries: the count and the page —
    one when the caller counted the rows already (`count`), with something else."""
    paginator = Paginator(queryset, MANAGERS_PER_PAGE)
    if count is not None:
        paginator.count = count  # a cached property: set, it is not computed
    return paginator.get_page(number)
