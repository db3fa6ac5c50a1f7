"""A fresh install in the browser: the operator made a superuser with
`createsuperuser` and signs in to an organisation nobody runs yet. The front door
offers them the programme; "Run the programme" lands on the programme page with its
first steps, all to do, each a link to where it is done — the first opens the people
import. Both pages are accessible and fit a laptop and a phone."""

import pytest
from playwright.sync_api import Page, expect

from people.models import User
from tests.e2e.conftest import sign_in
from tests.e2e.screens import check_both_widths

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)


def test_the_operator_takes_the_programme_and_meets_its_first_steps(page: Page, live_server):
    User.objects.create_superuser("ops@example.com", "a long pass phrase", display_name="Olu Ops")

    sign_in(page, live_server, "ops@example.com", "a long pass phrase")

    expect(page.get_by_role("heading", level=1)).to_have_text("Nobody runs the programme yet")
    check_both_widths(page, "first-admin")
    page.get_by_role("button", name="Run the programme").click()

    expect(page).to_have_url(f"{live_server.url}/programme/")
    steps = page.locator(".first-steps")
    expect(steps.get_by_role("heading", level=2)).to_contain_text("0 of 6 done")
    expect(steps.locator("li")).to_have_count(6)
    expect(steps.locator("li.to-do")).to_have_count(6)
    check_both_widths(page, "first-steps")

    steps.get_by_role("link", name="Bring in your people and who they report to").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Import people")
