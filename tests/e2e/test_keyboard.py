"""With the keyboard alone, past what axe-core reads from a page: a part of the page
saved in place by htmx keeps focus where the person works (the control they used, or
the first field refused) and says what it did through a live region that stays."""

import pytest
from playwright.sync_api import Page, expect

from people.models import User
from tests.e2e.conftest import sign_in
from tests.factories import one_on_one

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)


def test_saving_on_the_session_page_keeps_the_keyboard_in_place(page: Page, live_server, demo_org):
    manager = User.objects.get(email=demo_org.manager)
    session = one_on_one(manager, User.objects.get(email=demo_org.rep))
    sign_in(page, live_server, demo_org.manager, demo_org.password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")

    page.locator("#notes_reality").fill("Sent a recap after two calls.")
    save = page.get_by_role("button", name="Save notes")
    save.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#announcer")).to_have_text("Saved.")
    expect(save).to_be_focused()  # the button swapped in, not the top of the page

    # Nothing filled in: focus on the first field refused, which names its error.
    page.get_by_role("button", name="Add commitment").focus()
    page.keyboard.press("Enter")
    what = page.locator("#commitment_text")
    expect(what).to_be_focused()
    expect(what).to_have_accessible_description("This field is required.")
