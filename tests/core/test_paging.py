"""core.paging: one page-number parser for every list, and a short list's first rows."""

import pytest
from django.core.exceptions import ValidationError

from core.paging import first_of, page_asked, parse_page


@pytest.mark.parametrize(("raw", "number"), [(None, 1), ("", 1), ("1", 1), ("42", 42)])
def test_a_page_number_from_one_up_or_none_for_the_first(raw, number):
    assert parse_page(raw) == number


@pytest.mark.parametrize("raw", ["0", "-2", "x", "1.5", "9" * 5000])
def test_anything_else_is_refused_with_a_message(raw):
    with pytest.raises(ValidationError, match="Give a page number: a whole number from 1."):
        parse_page(raw)


def test_first_of_says_whether_more_rows_lie_beyond():
    assert first_of(range(3), 3) == {"rows": [0, 1, 2], "more": False}
    assert first_of(range(4), 3) == {"rows": [0, 1, 2], "more": True}
    assert first_of([], 3) == {"rows": [], "more": False}


def test_page_asked_gives_the_first_page_and_the_message_for_a_bad_number():
    assert page_asked("3") == (3, None)
    assert page_asked(None) == (1, None)
    assert page_asked("three") == (1, "Give a page number: a whole number from 1.")
