"""Filter rows line up, in the browser, on the demo organisation: on the audit log the
four filters and "Show" sit in one row at a desktop's width, every input and the
button level (the "Who" help text hangs below its select instead of lifting it, and
"To" no longer wraps onto a row of its own); on Teams and People the "Find" button is
level with its search box (it sat 16px lower: the row aligned the fields' bottom
margins with the button's bottom). At a phone's width the filters stack, each as
wide as the row, and the page fits."""

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import sign_in
from tests.e2e.screens import DESKTOP, PHONE, assert_fits, at_width

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

CONTROLS = "form.review-filters :is(input:not([type=hidden]), select, button)"


def boxes(page: Page) -> list[dict]:
    return [c.bounding_box() for c in page.locator(CONTROLS).all()]


def assert_level(page: Page, path: str, how_many: int) -> None:
    """At a desktop's width: `how_many` controls in one row, tops and bottoms level."""
    page.goto(path)
    found = boxes(page)
    assert len(found) == how_many, found
    for box in found:
        assert abs(box["y"] - found[0]["y"]) <= 1, (path, found)
        assert abs(box["height"] - found[0]["height"]) <= 1, (path, found)


def test_filters_and_their_buttons_sit_level(page: Page, live_server, demo_org):
    sign_in(page, live_server, demo_org.admin, demo_org.password)
    at_width(page, DESKTOP)
    assert_level(page, f"{live_server.url}/programme/audit/", 5)  # what, who, from, to, Show
    assert_level(page, f"{live_server.url}/programme/teams/", 2)  # the search, Find
    assert_level(page, f"{live_server.url}/programme/people/", 2)
    assert_level(page, f"{live_server.url}/programme/plans/", 3)  # the search, kind, Find

    at_width(page, PHONE)
    page.goto(f"{live_server.url}/programme/audit/")
    assert_fits(page)
    fields = boxes(page)[:4]
    assert all(b["x"] == fields[0]["x"] and b["width"] == fields[0]["width"] for b in fields)
    assert sorted(b["y"] for b in fields) == [b["y"] for b in fields]  # one under another
