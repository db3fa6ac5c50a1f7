"""Reading people imports: the programme admins' list and one import. Only
programme admins reach these (the pages and the API check the role first)."""

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from .models import PeopleImport

IMPORTS_PER_PAGE = 20


def imports() -> QuerySet[PeopleImport]:
    """Every import, newest first, with who uploaded and applied it; without the
    file's text, which only the worker reads."""
    return PeopleImport.objects.select_related("uploaded_by", "applied_by").defer("csv_text")


def imports_listed() -> QuerySet[PeopleImport]:
    """As `imports`, for lists: without the problems either (up to 500 lines each)."""
    return imports().defer("problems")


def imports_page(number: int) -> Page:
    """The page asked for (past the last, the last), IMPORTS_PER_PAGE long: two
    queries whatever the number of imports."""
    return Paginator(imports_listed(), IMPORTS_PER_PAGE).get_page(number)
