"""Two people in one 1:1, in two browsers: nothing typed is ever lost.

- typed notes are saved before "Log as held" goes through, with no Save pressed;
- two people typing in different fields both keep their words, and each sees the
  other's appear without a reload, with who is writing where and who wrote it last;
- the same field typed by both shows both texts side by side in the field itself;
- a private note saves as it is typed and the other person learns nothing of it."""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect

from coaching.models import CoachingSession, SharedNotes
from people.models import User
from tests.e2e.conftest import sign_in
from tests.e2e.journeys import AISHA, SOFIA, upcoming_one_on_one
from tests.e2e.screens import check_both_widths

pytestmark = pytest.mark.django_db(transaction=True)

LIVE = 10_000  # ms: the other person's words arrive within about five seconds
SAVED = re.compile(r"^Saved \d\d:\d\d$")


def notes_region(page: Page) -> Locator:
    return page.get_by_role("region", name="Shared notes")


def grow_field(page: Page, label: str) -> Locator:
    return notes_region(page).get_by_label(label, exact=True)


def field_box(page: Page, name: str) -> Locator:
    return notes_region(page).locator(f'[data-field="{name}"]')


def two_people(page: Page, browser: Browser, live_server, demo_org, session):
    """Sofia in `page`, Aisha in a second browser context, both on the session."""
    url = f"{live_server.url}/sessions/{session.pk}/"
    context = browser.new_context()
    aisha = context.new_page()
    for who, p in ((SOFIA, page), (AISHA, aisha)):
        sign_in(p, live_server, who, demo_org.password)
        p.goto(url)
        expect(grow_field(p, "Reality")).to_be_editable()
    return aisha, context


def started(session) -> CoachingSession:
    """The 1:1 began five minutes ago: it can be logged held."""
    start = timezone.now() - dt.timedelta(minutes=5)
    CoachingSession.objects.filter(pk=session.pk).update(
        scheduled_start=start, scheduled_end=start + dt.timedelta(minutes=30)
    )
    session.participants.update(scheduled_start=start)
    return session


def test_typed_notes_are_saved_before_log_as_held(page: Page, live_server, demo_org):
    sofia, aisha = User.objects.get(email=SOFIA), User.objects.get(email=AISHA)
    session = started(upcoming_one_on_one(sofia, aisha))
    sign_in(page, live_server, SOFIA, demo_org.password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.wait_for_load_state()
    options, will = "Open with the buyer's agenda", "Two open questions before any demo"
    grow_field(page, "Options").fill(options)
    grow_field(page, "Will").fill(will)
    # No Save pressed, straight to Log as held.
    with page.expect_navigation():
        page.get_by_role("button", name="Log as held").click()
    expect(page.get_by_role("status").filter(has_text="Logged as held.")).to_be_visible()
    expect(grow_field(page, "Options")).to_have_value(options)
    expect(grow_field(page, "Will")).to_have_value(will)
    notes = SharedNotes.objects.get(session=session)
    assert (notes.options, notes.will) == (options, will)


def test_a_link_away_saves_first_and_the_browser_warns_while_unsaved(
    page: Page, live_server, demo_org
):
    sofia, aisha = User.objects.get(email=SOFIA), User.objects.get(email=AISHA)
    session = upcoming_one_on_one(sofia, aisha)
    sign_in(page, live_server, SOFIA, demo_org.password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.wait_for_load_state()
    grow_field(page, "Reality").fill("Typed, then straight to Move")
    with page.expect_navigation():
        page.get_by_role("link", name="Move").click()
    expect(page).to_have_url(re.compile(r"/reschedule/$"))
    assert SharedNotes.objects.get(session=session).reality == "Typed, then straight to Move"


def test_two_people_typing_in_different_fields_both_keep_their_words(
    page: Page, browser: Browser, live_server, demo_org
):
    sofia, aisha_user = User.objects.get(email=SOFIA), User.objects.get(email=AISHA)
    session = upcoming_one_on_one(sofia, aisha_user)
    aisha, context = two_people(page, browser, live_server, demo_org, session)
    try:
        aishas = "I rushed the Northwind demo because the silence made me nervous."
        sofias = "Write three questions before each call."
        grow_field(aisha, "Reality").press_sequentially(aishas[:20], delay=20)
        # Sofia sees who is writing where, without a reload.
        expect(notes_region(page).locator("[data-presence]")).to_have_text(
            "Aisha is writing in Reality.", timeout=LIVE
        )
        grow_field(aisha, "Reality").press_sequentially(aishas[20:], delay=5)
        grow_field(page, "Options").fill(sofias)
        for p in (page, aisha):
            expect(notes_region(p).locator("[data-autosave-status]")).to_have_text(
                SAVED, timeout=LIVE
            )
        # Each sees the other's words arrive, and who wrote them.
        expect(grow_field(page, "Reality")).to_have_value(aishas, timeout=LIVE)
        expect(grow_field(aisha, "Options")).to_have_value(sofias, timeout=LIVE)
        expect(page.locator('[data-written-for="reality"]')).to_contain_text(
            "Last written by Aisha"
        )
        expect(aisha.locator('[data-written-for="options"]')).to_contain_text(
            "Last written by Sofia"
        )
        for p in (page, aisha):
            expect(notes_region(p).locator("[data-clash-for]:visible")).to_have_count(0)
        notes = SharedNotes.objects.get(session=session)
        assert (notes.reality, notes.options) == (aishas, sofias)
    finally:
        context.close()


def test_the_same_field_typed_by_both_shows_both_texts_in_the_field(
    page: Page, browser: Browser, live_server, demo_org
):
    sofia, aisha_user = User.objects.get(email=SOFIA), User.objects.get(email=AISHA)
    session = upcoming_one_on_one(sofia, aisha_user)
    aisha, context = two_people(page, browser, live_server, demo_org, session)
    try:
        aishas = "I rushed the Northwind demo."
        sofias = "Northwind: demo at minute four, no question about why now."
        grow_field(aisha, "Reality").fill(aishas)
        expect(notes_region(aisha).locator("[data-autosave-status]")).to_have_text(
            SAVED, timeout=LIVE
        )
        grow_field(page, "Reality").fill(sofias)  # from the page opened before Aisha saved
        box = field_box(page, "reality")
        saved = box.locator("[data-clash-for]")
        expect(saved).to_be_visible(timeout=LIVE)
        expect(saved).to_contain_text(aishas)
        expect(saved).to_contain_text("Saved by Aisha")
        expect(grow_field(page, "Reality")).to_have_value(sofias)  # hers, still there
        # Side by side: the saved text left of the box being typed in.
        left, right = saved.bounding_box(), grow_field(page, "Reality").bounding_box()
        assert left["x"] + left["width"] <= right["x"]
        assert SharedNotes.objects.get(session=session).reality == aishas
        check_both_widths(page, "notes-clash")  # accessible and fitting, photographed

        box.get_by_role("button", name="Keep both").click()
        expect(saved).to_be_hidden()
        expect(notes_region(page).locator("[data-autosave-status]")).to_have_text(
            SAVED, timeout=LIVE
        )
        both = f"{aishas}\n\n{sofias}"
        assert SharedNotes.objects.get(session=session).reality == both
        expect(grow_field(aisha, "Reality")).to_have_value(both, timeout=LIVE)
    finally:
        context.close()


def test_a_private_note_autosaves_and_the_other_person_learns_nothing(
    page: Page, browser: Browser, live_server, demo_org
):
    sofia, aisha_user = User.objects.get(email=SOFIA), User.objects.get(email=AISHA)
    session = upcoming_one_on_one(sofia, aisha_user)
    aisha, context = two_people(page, browser, live_server, demo_org, session)
    secret = "Ask gently about workload"
    polls = []
    aisha.on("response", lambda r: polls.append(r) if "/notes/live/" in r.url else None)
    try:
        private = page.get_by_role("region", name="Private notes")
        private.get_by_label("Your private notes").press_sequentially(secret, delay=30)
        expect(private.locator("[data-autosave-status]")).to_have_text(SAVED, timeout=LIVE)
        aisha.wait_for_timeout(5_000)  # more than a poll
        assert polls, "Aisha's page polled"
        for response in polls:
            assert secret not in response.text()
            assert response.json()["writing"] == []
        expect(notes_region(aisha).locator("[data-presence]")).to_have_text("")
        assert secret not in aisha.content()
    finally:
        context.close()


def test_the_browser_asks_before_a_page_with_unsaved_text_is_left(
    page: Page, live_server, demo_org
):
    sofia, aisha = User.objects.get(email=SOFIA), User.objects.get(email=AISHA)
    session = upcoming_one_on_one(sofia, aisha)
    sign_in(page, live_server, SOFIA, demo_org.password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.wait_for_load_state()
    # What the browser does before leaving: a cancelled beforeunload makes it ask.
    asks = """() => { const e = new Event('beforeunload', {cancelable: true});
                     window.dispatchEvent(e); return e.defaultPrevented; }"""
    assert page.evaluate(asks) is False  # nothing typed
    grow_field(page, "Will").fill("Typed a moment ago")
    assert page.evaluate(asks) is True  # before the autosave's pause is over
    expect(notes_region(page).locator("[data-autosave-status]")).to_have_text(SAVED)
    assert page.evaluate(asks) is False
    assert SharedNotes.objects.get(session=session).will == "Typed a moment ago"
