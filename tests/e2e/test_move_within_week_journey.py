"""Move it, don't cancel it, in the browser, on the demo organisation.

Sofia Alvarez (New York) has a 1:1 with Aisha Bello next Tuesday at 10:00, and a
forecast call pushes it aside. She opens Cancel…: before the reasons, the page offers
the times next week when both of them are free in their working hours — Tuesday 10:00
itself is not among them, nor Wednesday 11:00, where her 1:1 with Tom Becker is — and
one click on Wednesday 14:00 moves the 1:1 there: the session page says it moved, the
session keeps its original slot (so it still counts as kept: it stayed in its week),
and nothing was cancelled. The page is accessible and fits a desktop and a phone."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from coaching.models import CoachingSession
from people.models import User
from tests.e2e.conftest import sign_in
from tests.e2e.screens import check_both_widths
from tests.support.factories import one_on_one

pytestmark = pytest.mark.django_db(transaction=True)

NEW_YORK = ZoneInfo("America/New_York")


def next_week(weekday: int, at: time) -> datetime:
    today = timezone.now().astimezone(NEW_YORK).date()
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=1)
    return datetime.combine(monday + timedelta(days=weekday), at, tzinfo=NEW_YORK)


def test_the_cancel_page_offers_the_free_slots_of_the_week_and_one_click_moves_it(
    page: Page, live_server, demo_org
):
    sofia = User.objects.get(email=demo_org.manager)
    aisha = User.objects.get(email=demo_org.rep)
    tom = User.objects.get(display_name="Tom Becker")
    tuesday = next_week(1, time(10, 0))
    session = one_on_one(sofia, aisha, start=tuesday)
    one_on_one(sofia, tom, start=next_week(2, time(11, 0)))
    wednesday_2pm = next_week(2, time(14, 0))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    sign_in(page, live_server, demo_org.manager, demo_org.password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    with page.expect_navigation():
        page.get_by_role("link", name="Cancel…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Cancel this 1:1?")
    offer = page.get_by_role("region", name="Move it instead: free this week")
    expect(offer).to_be_visible()
    day = f"{tuesday:%A} {tuesday.day} {tuesday:%B}"
    expect(offer.get_by_role("button", name=f"Move it to {day}, 10:00")).to_have_count(0)
    wednesday = f"{wednesday_2pm:%A} {wednesday_2pm.day} {wednesday_2pm:%B}"
    expect(offer.get_by_role("button", name=f"Move it to {wednesday}, 11:00")).to_have_count(0)
    expect(offer.get_by_role("button", name=f"Move it to {wednesday}, 11:30")).to_have_count(1)
    # Cancelling stays possible, with a reason.
    expect(page.get_by_role("button", name="Cancel the session")).to_be_visible()
    check_both_widths(page, "session-cancel-free-slots")

    with page.expect_navigation():
        offer.get_by_role("button", name=f"Move it to {wednesday}, 14:00").click()
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/")
    expect(page.get_by_text("Session moved.")).to_be_visible()
    moved = CoachingSession.objects.get(pk=session.pk)
    assert moved.status == "scheduled"
    assert moved.scheduled_start == wednesday_2pm
    assert moved.original_start == tuesday
    assert errors == []
