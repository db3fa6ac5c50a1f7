"""A people picker offers one's own team before anything is typed, and searches as one
types (no Enter, no button), the team first among the matches. The demo's 30 people
are "many" here: PEOPLE_PICKER_LIST_UP_TO is lowered to 10. Aisha (Enterprise East)
gives feedback: her manager Sofia and her teammates are offered at once; she types
"a" key by key and the list follows, the count read out; she picks Tom from her team.
The form fits a desktop and a phone."""

import re

import pytest
from playwright.sync_api import Page, expect

from feedback.models import Feedback
from tests.e2e.conftest import sign_in
from tests.e2e.screens import check_both_widths

pytestmark = pytest.mark.django_db(transaction=True)

AISHA = "aisha.bello@example.com"


def test_the_own_team_is_offered_first_and_the_search_follows_typing(
    page: Page, live_server, demo_org, settings
):
    settings.PEOPLE_PICKER_LIST_UP_TO = 10
    sign_in(page, live_server, AISHA, demo_org.password)
    page.goto(f"{live_server.url}/feedback/give/")

    results = page.locator("#id_recipient_results")
    expect(results.locator(".choices-note")).to_have_text("Your team:")
    expect(page.get_by_label("Sofia Alvarez")).to_be_visible()  # her manager
    expect(page.get_by_label("Tom Becker")).to_be_visible()  # a teammate
    expect(page.get_by_label("Marcus Chen")).to_have_count(0)  # another team's manager
    check_both_widths(page, "people-picker-team")

    # Typed key by key, no Enter: the list follows; the count is read out.
    box = page.get_by_label("To", exact=True)
    box.press_sequentially("be", delay=60)
    found = page.locator("#id_recipient_found")
    expect(found).to_have_text(re.compile(r"^\d+ (person|people) found\.$"))
    expect(results.locator(".choices-note")).to_have_count(0)
    names = results.locator("label").all_inner_texts()
    # Aisha's teammates first (Tom Becker; she is never offered herself).
    assert names[0].startswith("Tom Becker"), names
    check_both_widths(page, "people-picker-search")

    box.fill("")
    box.dispatch_event("search")
    expect(results.locator(".choices-note")).to_have_text("Your team:")
    expect(found).to_have_text("")

    page.get_by_label("Tom Becker").check()
    page.get_by_label("What happened").fill("You summarised the buyer's three concerns")
    page.get_by_label("What it led to").fill("She added the CFO to the next call")
    page.get_by_label("One thing to try").fill("Send the summary in writing the same day")
    with page.expect_navigation():
        page.get_by_role("button", name="Send feedback").click()
    assert Feedback.objects.get(author__email=AISHA).recipient.display_name == "Tom Becker"
