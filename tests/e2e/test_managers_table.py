"""The head's "Managers below you" table is read on a laptop without scrolling it
sideways, even when every row carries the longest words its cells can hold ("too few
ratings to show to 30 Nov", three cancellation reasons). The usefulness cell did not
wrap and pushed the table past its box at 1280 px. The demo people have no history,
so the test writes those words into the cells and measures the table as laid out."""

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import sign_in
from tests.e2e.screens import DESKTOP, at_width

pytestmark = pytest.mark.django_db(transaction=True)

LONGEST = """() => {
    for (const cell of document.querySelectorAll('table.managers td[data-label="Usefulness"]')) {
        cell.innerHTML = '<span class="muted small">too few ratings to show to 30 Nov</span>';
    }
    for (const cell of document.querySelectorAll('table.managers td[data-label="Cancelled"]')) {
        cell.innerHTML = '12 <span class="muted small block">Forecast or pipeline call 5, '
            + 'Customer escalation 4, Clashing meeting 3</span>';
    }
    const box = document.querySelector('#managers .table-scroll');
    return {scrolls: box.scrollWidth, shows: box.clientWidth};
}"""


def test_the_managers_table_fits_a_laptop_with_its_longest_words(page: Page, live_server, demo_org):
    sign_in(page, live_server, demo_org.head, demo_org.password)
    at_width(page, DESKTOP)
    page.goto(f"{live_server.url}/team/")
    width = page.evaluate(LONGEST)
    assert width["scrolls"] <= width["shows"], width
