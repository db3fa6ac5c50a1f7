"""A rep asks a peer for developmental feedback; the peer answers; the rep
acknowledges it and shares it with their coach; HR looks everywhere and never finds
the words."""

from datetime import date, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)

AISHA = "aisha.bello@example.com"  # rep, Enterprise East
TOM = "tom.becker@example.com"  # her peer
SOFIA = "sofia.alvarez@example.com"  # their manager
HELEN = "helen.park@example.com"  # HR
ANSWER = "On the Northwind call you asked three open questions before the demo"


def sign_out(page: Page):
    with page.expect_navigation():
        page.get_by_role("button", name="Sign out").click()


def test_developmental_feedback_stays_in_its_circle(page: Page, live_server, demo_org):
    password = demo_org.password
    # Aisha asks Tom.
    sign_in(page, live_server, AISHA, password)
    page.goto(f"{live_server.url}/feedback/requests/new/")
    expect(page.locator(".stream-banner").first).to_contain_text("Developmental feedback")
    page.get_by_label("Tom Becker").check()
    page.get_by_label("By").fill((date.today() + timedelta(days=30)).isoformat())
    with page.expect_navigation():
        page.get_by_role("button", name="Ask for feedback").click()
    request_url = page.url
    sign_out(page)

    # Tom answers from his inbox.
    sign_in(page, live_server, TOM, password)
    page.goto(f"{live_server.url}/feedback/inbox/")
    page.get_by_role("link", name="Aisha Bello").first.click()
    page.wait_for_url(request_url)
    page.get_by_label("What happened").fill(ANSWER)
    page.get_by_label("What it led to").fill("The buyer described the budget problem herself")
    with page.expect_navigation():
        page.get_by_role("button", name="Send answer").click()
    sign_out(page)

    # Aisha reads it, acknowledges it, and shares it with Sofia, her coach.
    sign_in(page, live_server, AISHA, password)
    page.goto(f"{live_server.url}/feedback/")
    expect(page.get_by_text(ANSWER)).to_be_visible()
    with page.expect_navigation():
        page.get_by_role("link", name=ANSWER).first.click()
    page.get_by_label("Your reflection (only you see this)").fill("I do rush to the demo.")
    page.get_by_role("button", name="Thank you, I'll think about it").click()
    page.wait_for_load_state()
    page.get_by_label("Share with").select_option(label="Sofia Alvarez")
    page.get_by_role("button", name="Share", exact=True).click()
    expect(page.get_by_role("button", name="Stop sharing with Sofia Alvarez")).to_be_visible()
    sign_out(page)

    # Sofia sees it under "shared with me"; not the reflection.
    sign_in(page, live_server, SOFIA, password)
    page.goto(f"{live_server.url}/feedback/shared/")
    expect(page.get_by_text(ANSWER)).to_be_visible()
    assert "I do rush to the demo." not in page.content()
    sign_out(page)

    # Helen (HR) looks everywhere she can go and never finds the words.
    sign_in(page, live_server, HELEN, password)
    for path in [
        "/",
        "/hr/",
        "/feedback/",
        "/feedback/given/",
        "/feedback/shared/",
        "/feedback/inbox/",
        "/feedback/requests/",
        "/feedback/wins/",
        request_url.replace(live_server.url, ""),
        "/api/v1/feedback/",
        "/api/v1/feedback-requests/",
    ]:
        page.goto(f"{live_server.url}{path}")
        assert ANSWER not in page.content(), path
