"""The "Since the last 1:1" panel in the browser, on the demo organisation's people.

Last week Sofia held a 1:1 with Aisha whose Will was written; since then Aisha recorded
a call and shared one piece of developmental feedback with Sofia (another she kept).
Sofia opens Aisha's next 1:1 from My team: beside the notes, "Since the last 1:1"
holds last week's Will, the call (which opens the call's page) and "1 shared with you".
Aisha prepares the same 1:1 from My coaching: the panel asks her to bring one call and
counts both pieces of feedback. The page fits a desktop and a phone."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from coaching.models import SharedNotes
from coaching.services import session_mark_held
from people.models import User
from scorecards.services import recorded_call_create
from tests.e2e.conftest import sign_in
from tests.e2e.journeys import AISHA, SOFIA, sign_out, upcoming_one_on_one
from tests.e2e.screens import check_both_widths
from tests.support.factories import FeedbackFactory, FeedbackShareFactory, one_on_one

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

WILL = "Two open questions before any screen share on every first call this week."
CALL = "First call — Kestrel Bank"


def test_the_coach_and_the_coachee_read_what_happened_since_the_last_1_1(
    page: Page, live_server, demo_org
):
    sofia = User.objects.get(email=SOFIA)
    aisha = User.objects.get(email=AISHA)
    week_ago = timezone.now() - dt.timedelta(days=7)
    last = one_on_one(sofia, aisha, start=week_ago)
    session_mark_held(session=last, actor=sofia, held_at=week_ago)
    SharedNotes.objects.filter(session=last).update(will=WILL)
    call = recorded_call_create(
        actor=aisha,
        person=aisha,
        title=CALL,
        call_date=timezone.localdate() - dt.timedelta(days=2),
        url="https://calls.example.com/aisha-bello/kestrel-bank",
    )
    since = {"recipient": aisha, "created_at": timezone.now() - dt.timedelta(days=1)}
    shared = FeedbackFactory(**since)
    FeedbackShareFactory(feedback=shared, person=sofia)
    FeedbackFactory(**since)
    session = upcoming_one_on_one(sofia, aisha)

    # Sofia, from My team's "Next 1:1".
    sign_in(page, live_server, SOFIA, demo_org.password)
    row = (
        page.get_by_role("region", name="My people")
        .get_by_role("row")
        .filter(has=page.get_by_role("rowheader", name="Aisha Bello"))
    )
    row.get_by_role("cell").first.get_by_role("link").click()
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/")
    since_last = page.get_by_role("region", name="Since the last 1:1")
    expect(since_last).to_contain_text(WILL)
    expect(since_last).to_contain_text("1 shared with you by Aisha since then")
    check_both_widths(page, "since-last-coach")
    since_last.get_by_role("link", name=CALL).click()
    expect(page).to_have_url(f"{live_server.url}/scorecards/calls/{call.pk}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Kestrel Bank")

    # Aisha, preparing the same 1:1.
    sign_out(page)
    sign_in(page, live_server, AISHA, demo_org.password, go=False)
    page.goto(f"{live_server.url}/sessions/{session.pk}/prepare/")
    since_last = page.get_by_role("region", name="Since the last 1:1")
    expect(since_last).to_contain_text("Bring one: the conversation is built around one call.")
    expect(since_last.get_by_role("link", name="2 new for you")).to_be_visible()
    expect(since_last.get_by_role("link", name=CALL)).to_be_visible()
