"""A weekly 1:1 end to end in the browser: the manager writes GROW notes, records a
commitment, keeps a private note and logs the session as held; the rep then sees
what is shared (and not the private note); another manager gets a 404. Two people
writing at once: tests/e2e/test_notes_live_journey.py.

Runs on the demo organisation. seed_demo may or may not also write weeks of coaching
history, so nothing here counts rows or relies on lists being empty."""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from coaching.models import CoachingSession
from people.models import User
from tests.e2e.conftest import sign_in
from tests.e2e.journeys import AISHA, SOFIA, sign_out, upcoming_one_on_one  # noqa: F401
from tests.support.factories import one_on_one

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

MARCUS = "marcus.chen@example.com"  # another first-line manager

GROW = {
    "Goal": "Run discovery without pitching in the first ten minutes",
    "Reality": (
        "On Tuesday's Northwind call the demo started at minute four; the buyer never "
        "said what made this quarter urgent. The Fabrikam call went better: three open "
        "questions before any slides."
    ),
    "Options": (
        "Open with the buyer's agenda; write the questions down before the call; "
        "ask Jonas to flag the first pitch in a role-play."
    ),
    "Will": "Ask two open questions before any demo on every discovery call this week.",
}
COMMITMENT = "Ask two open questions before any demo"
EVIDENCE = "Two recorded calls show it"
AGENDA_ITEM = "Pricing objection on the Northwind call"
PRIVATE_NOTE = "Aisha sounded flat about quota - ask gently about workload, not in the team call."


def notes_region(page: Page) -> Locator:
    return page.get_by_role("region", name="Shared notes")


def grow_field(page: Page, label: str) -> Locator:
    # exact: the prompt lists beside each field are labelled "Questions for <label>".
    return notes_region(page).get_by_label(label, exact=True)


def test_one_on_one_journey(page: Page, live_server, demo_org):
    sofia = User.objects.get(email=SOFIA)
    aisha = User.objects.get(email=AISHA)
    session = upcoming_one_on_one(sofia, aisha)
    session_path = f"/sessions/{session.pk}/"
    session_url = f"{live_server.url}{session_path}"
    due_on = timezone.localdate(timezone=sofia.tzinfo) + dt.timedelta(days=7)

    # --- 1. Sofia runs the 1:1 ---------------------------------------------------------
    sign_in(page, live_server, SOFIA, demo_org.password)
    expect(page).to_have_url(f"{live_server.url}/team/")
    people = page.get_by_role("region", name="My people")
    aisha_row = people.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name="Aisha Bello")
    )
    next_link = aisha_row.get_by_role("cell").first.get_by_role("link")  # the "Next 1:1" column
    expect(next_link).to_have_attribute("href", session_path)
    next_link.click()
    expect(page).to_have_url(session_url)
    page.wait_for_load_state()  # htmx is a deferred script: let it wire up the forms
    expect(page.get_by_role("heading", level=1)).to_have_text("Aisha Bello")
    expect(page.get_by_text("Scheduled", exact=True)).to_be_visible()

    # GROW notes, saved in place as they are typed (and by the button): the page stays.
    page.evaluate("window.__sameDocument = true")
    for label, text in GROW.items():
        grow_field(page, label).fill(text)
    notes_region(page).get_by_role("button", name="Save notes").click()
    # Seen where it was saved; read out once, by the page's own live region.
    saved_at = re.compile(r"^Saved \d\d:\d\d$")
    expect(notes_region(page).locator("[data-autosave-status]")).to_have_text(saved_at)
    expect(page.locator("#announcer")).to_have_text(saved_at)
    expect(page).to_have_url(session_url)
    assert page.evaluate("window.__sameDocument") is True, "Save notes reloaded the whole page"
    for label, text in GROW.items():
        expect(grow_field(page, label)).to_have_value(text)

    # The Will step as a commitment; owner defaults to the coachee.
    commitments = page.get_by_role("region", name="Commitments", exact=True)
    expect(commitments.get_by_label("Who", exact=True)).to_have_value(str(aisha.pk))
    commitments.get_by_label("What will be done").fill(COMMITMENT)
    commitments.get_by_label("How we will know").fill(EVIDENCE)
    commitments.get_by_label("By", exact=True).fill(due_on.isoformat())
    commitments.get_by_role("button", name="Add commitment").click()
    made_here = commitments.get_by_role("heading", name="Made in this session").locator(
        "xpath=following-sibling::*[1]"
    )
    made = made_here.get_by_role("listitem").filter(has_text=COMMITMENT)
    expect(made).to_contain_text(EVIDENCE)
    expect(made).to_contain_text(f"due {due_on.day} {due_on:%b}")
    expect(commitments.get_by_label("What will be done")).to_have_value("")

    agenda = page.get_by_role("region", name="Agenda")
    agenda.get_by_label("Add to the agenda").fill(AGENDA_ITEM)
    agenda.get_by_role("button", name="Add", exact=True).click()
    expect(agenda.get_by_role("listitem").filter(has_text=AGENDA_ITEM)).to_have_count(1)
    expect(agenda.get_by_label("Add to the agenda")).to_have_value("")

    private = page.get_by_role("region", name="Private notes")
    private.get_by_label("Your private notes").fill(PRIVATE_NOTE)
    private.get_by_role("button", name="Save private notes").click()
    expect(private.locator("[data-autosave-status]")).to_have_text(saved_at)
    expect(page).to_have_url(session_url)

    # The hour passes (its start moves back): the 1:1 is due and still to log.
    started = timezone.now() - dt.timedelta(minutes=5)
    CoachingSession.objects.filter(pk=session.pk).update(
        scheduled_start=started,
        scheduled_end=started + dt.timedelta(minutes=session.duration_minutes),
    )
    session.participants.update(scheduled_start=started)
    page.reload()
    expect(page.get_by_text("Due, still to log", exact=True)).to_be_visible()
    with page.expect_navigation():
        page.get_by_role("button", name="Log as held").click()
    expect(page).to_have_url(session_url)
    expect(page.get_by_role("status").filter(has_text="Logged as held.")).to_be_visible()
    expect(page.get_by_text("Held", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Log as held")).to_have_count(0)
    # All of it survived the full reload.
    for label, text in GROW.items():
        expect(grow_field(page, label)).to_have_value(text)
    expect(
        page.get_by_role("region", name="Private notes").get_by_label("Your private notes")
    ).to_have_value(PRIVATE_NOTE)

    # --- 2. Aisha sees what is shared, and not Sofia's private note -------------------
    sign_out(page)
    sign_in(page, live_server, AISHA, demo_org.password, go=False)
    expect(page).to_have_url(f"{live_server.url}/me/")
    open_commitments = page.get_by_role("region", name="My open commitments")
    expect(open_commitments.get_by_role("listitem").filter(has_text=COMMITMENT)).to_contain_text(
        EVIDENCE
    )
    recent = page.get_by_role("region", name="Recent sessions")
    recent.get_by_role("link", name="1:1", exact=True).and_(
        page.locator(f'[href="{session_path}"]')
    ).click()
    expect(page).to_have_url(session_url)
    expect(page.get_by_role("heading", level=1)).to_have_text("With Sofia Alvarez")
    for label, text in GROW.items():
        expect(grow_field(page, label)).to_have_value(text)
    expect(page.get_by_role("region", name="Agenda")).to_contain_text(AGENDA_ITEM)
    expect(
        page.get_by_role("region", name="Private notes").get_by_label("Your private notes")
    ).to_have_value("")
    assert PRIVATE_NOTE not in page.content()

    # --- 3. Another manager cannot even tell the session exists -----------------------
    sign_out(page)
    sign_in(page, live_server, MARCUS, demo_org.password, go=False)
    response = page.goto(session_url)
    assert response is not None and response.status == 404
    assert GROW["Goal"] not in page.content()


def test_session_page_labels_name_their_own_fields(page: Page, live_server, org, password):
    session = one_on_one(org.manager, org.rep, start=timezone.now() + dt.timedelta(hours=1))
    sign_in(page, live_server, org.manager.email, password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    for region, label in (("Agenda", "Add to the agenda"), ("Private notes", "Your private notes")):
        expect(
            page.get_by_role("region", name=region).get_by_role("textbox", name=label)
        ).to_have_count(1, timeout=2_000)
    duplicates = page.evaluate(
        """() => { const seen = {}; for (const el of document.querySelectorAll('[id]'))
                 seen[el.id] = (seen[el.id] || 0) + 1;
               return Object.keys(seen).filter(id => seen[id] > 1); }"""
    )
    assert duplicates == []
