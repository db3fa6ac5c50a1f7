"""In an organisation too large to list, a rep finds people by typing: she asks two
colleagues for feedback, found in two searches, and gives feedback to a third. The
demo's 30 people are "large" here: PEOPLE_PICKER_LIST_UP_TO is lowered to 10. A
programme admin finds teams the same way, for a focus area and a team channel."""

import re
from datetime import date, timedelta

import pytest
from playwright.sync_api import Page, expect

from coaching.models import FocusArea
from feedback.models import Feedback, FeedbackRequest
from notifications.models import TeamChannel
from tests.e2e.a11y import assert_accessible
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)

AISHA = "aisha.bello@example.com"


@pytest.fixture
def large(settings):
    settings.PEOPLE_PICKER_LIST_UP_TO = 10


def test_a_rep_finds_people_by_typing(page: Page, live_server, demo_org, large):
    sign_in(page, live_server, AISHA, demo_org.password)

    page.goto(f"{live_server.url}/feedback/requests/new/")
    search = page.get_by_label("Ask", exact=True)
    # Before a search only her own team is offered, nobody chosen.
    expect(page.locator("#id_responders_results .choices-note")).to_have_text("Your team:")
    expect(page.locator('input[name="responders"]:checked')).to_have_count(0)
    # A screen reader hears how many were found, from a live region that stays (its
    # content swapped, not the element); the list of names is no live region.
    found = page.locator("#id_responders_found")
    expect(found).to_have_attribute("role", "status")
    assert page.locator("#id_responders_results").get_attribute("aria-live") is None
    found.evaluate("(region) => { region.dataset.kept = 'yes'; }")
    search.fill("tom")
    expect(found).to_have_text(re.compile(r"^\d+ (person|people) found\.$"))
    expect(found).to_have_attribute("data-kept", "yes")
    page.get_by_label("Tom Becker").check()
    search.fill("grac")
    search.press("Enter")  # searches; does not send the half-filled form
    expect(page.get_by_label("Grace Liu")).to_be_visible()
    assert page.url.endswith("/feedback/requests/new/")
    search.fill("grace")
    page.get_by_label("Grace Liu").check()
    expect(page.get_by_label("Tom Becker")).to_be_checked()  # still there, still chosen
    assert_accessible(page)
    search.fill("nobody by this name")
    expect(page.get_by_text("Nobody matches “nobody by this name”.")).to_be_visible()
    expect(found).to_have_text("Nobody else found.")  # Tom and Grace are chosen
    expect(page.get_by_label("Tom Becker")).to_be_checked()
    page.get_by_label("By").fill((date.today() + timedelta(days=14)).isoformat())
    with page.expect_navigation():
        page.get_by_role("button", name="Ask for feedback").click()
    asked = FeedbackRequest.objects.get(requester__email=AISHA)
    assert sorted(r.responder.display_name for r in asked.responders.all()) == [
        "Grace Liu",
        "Tom Becker",
    ]

    page.goto(f"{live_server.url}/feedback/give/")
    page.get_by_label("To", exact=True).fill("dieg")
    page.get_by_label("Diego Ramos").check()
    page.get_by_label("What happened").fill("You summarised the buyer's three concerns")
    page.get_by_label("What it led to").fill("She added the CFO to the next call")
    page.get_by_label("One thing to try").fill("Send the summary in writing the same day")
    with page.expect_navigation():
        page.get_by_role("button", name="Send feedback").click()
    assert Feedback.objects.get(author__email=AISHA).recipient.display_name == "Diego Ramos"


ADA = "ada.okafor@example.com"  # programme admin
WEBHOOK = "https://hooks.slack.com/services/T000/B000/demo-journey-token"


def test_a_programme_admin_finds_teams_by_typing(page: Page, live_server, demo_org, settings):
    """Three teams are "many" here: a focus area's teams, then a channel's team, are
    found by typing part of their name."""
    settings.PEOPLE_PICKER_LIST_UP_TO = 1
    sign_in(page, live_server, ADA, demo_org.password)

    page.goto(f"{live_server.url}/programme/focus-areas/new/")
    teams = page.get_by_label("Teams", exact=True)
    expect(page.locator('input[name="teams"]')).to_have_count(0)  # none listed yet
    teams.fill("emea")
    page.get_by_label("EMEA Growth").check()
    teams.fill("east")
    page.get_by_label("Enterprise East").check()
    expect(page.get_by_label("EMEA Growth")).to_be_checked()  # still there, still chosen
    assert_accessible(page)
    teams.fill("nowhere")
    expect(page.get_by_text("No team matches “nowhere”.")).to_be_visible()
    page.get_by_label("Name", exact=True).fill("Objection handling")
    page.get_by_label("Behaviours").fill("Acknowledges the concern before answering it.")
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    area = FocusArea.objects.get(name="Objection handling")
    assert sorted(t.name for t in area.teams.all()) == ["EMEA Growth", "Enterprise East"]

    page.goto(f"{live_server.url}/programme/channels/")
    connect = page.get_by_role("region", name="Connect a team")
    connect.get_by_label("Team", exact=True).fill("mid")
    connect.get_by_label("Mid-Market Central").check()
    connect.get_by_label("Webhook address").fill(WEBHOOK)
    with page.expect_navigation():
        connect.get_by_role("button", name="Connect").click()
    # The page's message, beside the team search's own live region (its count).
    expect(page.locator(".messages")).to_contain_text("Mid-Market Central is connected.")
    assert TeamChannel.objects.get(team__name="Mid-Market Central").webhook_url == WEBHOOK
