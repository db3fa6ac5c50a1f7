"""Self-assessment first, in the browser: a manager adds a call of her rep, scores it
as the coach and submits; the rep is told to score it herself first and finds none of
the coach's ratings on the page; she scores it with the plain form (no script at
all: the page works without htmx) and then sees both scorecards side by side, the
big gaps highlighted. No page logs a console error (a blocked inline script or style
under the content security policy would)."""

from datetime import date, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect

from people.models import User
from scorecards.models import CriterionVersion, ScoringRound
from scorecards.services import CriterionSpec, template_create
from tests.e2e.conftest import sign_in

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

SOFIA = "sofia.alvarez@example.com"  # manager, Enterprise East
AISHA = "aisha.bello@example.com"  # rep in Sofia's team
SCORECARD = "Journey discovery call"  # its own name: the starter library may be seeded too
CRITERIA = [
    CriterionSpec(
        "Open questions",
        "Asks open questions before presenting anything.",
        anchors={1: "Pitches straight away", 3: "Three open questions before the demo"},
    ),
    CriterionSpec("Next step", "Ends with a dated next step the buyer agreed to."),
    CriterionSpec("Listening", "Summarises the buyer's words back before answering."),
]
COACH = [3, 2, 3]
SELF = [4, 2, 1]  # gaps: +1, 0, −2 — the first and the last are a point or more
COACH_KEEP = "Your agenda slide set the call up well"
COACH_EVIDENCE = "Demo started at minute four"
CALL_TITLE = "Northwind discovery"


def watch_console(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def sign_out(page: Page) -> None:
    with page.expect_navigation():
        page.get_by_role("navigation", name="Account").get_by_role(
            "button", name="Sign out"
        ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")


def rate(page: Page, ratings: list[int]) -> None:
    for criterion, rating in zip(CRITERIA, ratings, strict=True):
        group = page.get_by_role("group", name=criterion.title)
        group.locator(f'input[type="radio"][value="{rating}"]').check()


def test_the_rep_scores_first_and_then_sees_both_side_by_side(
    page: Page, browser: Browser, live_server, demo_org
):
    admin = User.objects.get(email=demo_org.admin)
    template_create(actor=admin, name=SCORECARD, criteria=CRITERIA)
    errors = watch_console(page)

    # --- 1. Sofia adds Aisha's call and scores it as her coach --------------------------
    sign_in(page, live_server, SOFIA, demo_org.password)
    page.goto(f"{live_server.url}/scorecards/")
    page.wait_for_load_state()
    with page.expect_navigation():
        page.get_by_role("link", name="Add a call").first.click()
    page.get_by_label("Whose call").select_option(label="Aisha Bello")
    page.get_by_label("Title", exact=True).fill(CALL_TITLE)
    page.get_by_label("Recording link").fill("https://calls.example.com/recordings/42")
    page.get_by_label("Date").fill((date.today() - timedelta(days=1)).isoformat())
    page.get_by_label("Moments worth a look").fill("04:10 first pricing question")
    with page.expect_navigation():
        page.get_by_role("button", name="Add the call").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(CALL_TITLE)
    expect(page.get_by_text("Call added. Now pick how it gets scored.")).to_be_visible()

    page.get_by_label("Scorecard", exact=True).select_option(label=SCORECARD)
    page.get_by_label("Score it as their coach").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Start scoring").click()
    scoring = ScoringRound.objects.get(work__title=CALL_TITLE)
    round_url = f"{live_server.url}/scorecards/rounds/{scoring.pk}/"
    expect(page).to_have_url(round_url)
    page.wait_for_load_state()  # htmx is deferred: let it wire up the form

    rate(page, COACH)
    page.get_by_role("group", name="Open questions").get_by_label("What you saw or heard").fill(
        COACH_EVIDENCE
    )
    page.get_by_label("One thing to keep").fill(COACH_KEEP)
    with page.expect_navigation():
        page.get_by_role("button", name="Submit my scores").click()
    expect(page).to_have_url(round_url)
    expect(page.get_by_text("Submitted.", exact=True)).to_be_visible()
    expect(page.get_by_text(COACH_KEEP)).to_be_visible()
    expect(page.get_by_role("button", name="Submit my scores")).to_have_count(0)
    sign_out(page)

    # --- 2. Aisha is told to score it herself first ----------------------------------------
    sign_in(page, live_server, AISHA, demo_org.password)
    page.goto(f"{live_server.url}/scorecards/")
    waiting = page.get_by_role("region", name="Waiting for your scores")
    expect(waiting.get_by_text("score it yourself first")).to_be_visible()
    with page.expect_navigation():
        waiting.get_by_role("link", name=CALL_TITLE).click()
    expect(page).to_have_url(round_url)
    expect(page.get_by_role("status").filter(has_text="Score it yourself first.")).to_be_visible()
    expect(page.locator("table.side-by-side")).to_have_count(0)
    content = page.content()
    assert COACH_KEEP not in content and COACH_EVIDENCE not in content
    expect(page.locator('input[type="radio"]:checked')).to_have_count(0)
    assert errors == [], errors

    # --- 3. She scores with the plain form: no script runs at all ----------------------------
    plain = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    try:
        no_js = plain.new_page()
        sign_in(no_js, live_server, AISHA, demo_org.password)
        no_js.goto(round_url)
        expect(no_js.get_by_text("Score it yourself first.")).to_be_visible()
        rate(no_js, SELF)
        no_js.get_by_label("One thing to try").fill("Ask for the next meeting before hanging up")
        with no_js.expect_navigation():
            no_js.get_by_role("button", name="Submit my scores").click()
        expect(no_js).to_have_url(round_url)
        expect(no_js.get_by_text("Submitted.", exact=True)).to_be_visible()
        expect(no_js.get_by_role("heading", name="Side by side")).to_be_visible()
    finally:
        plain.close()

    # --- 4. Both side by side, the gap highlighted -------------------------------------------
    page.goto(round_url)
    page.wait_for_load_state()
    expect(page.get_by_text("Score it yourself first.")).to_have_count(0)
    table = page.locator("table.side-by-side")
    expect(table.get_by_role("columnheader", name="Sofia Alvarez")).to_be_visible()
    expect(table.get_by_role("columnheader", name="Aisha Bello (you)")).to_be_visible()
    expect(table.get_by_role("columnheader", name="Gap")).to_be_visible()
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(len(CRITERIA))
    headers = table.locator("thead th").all_inner_texts()  # the criterion, then people
    coach_at = next(n for n, h in enumerate(headers) if h.startswith("Sofia Alvarez")) - 1
    mine_at = next(n for n, h in enumerate(headers) if h.startswith("Aisha Bello")) - 1
    gap_at = next(n for n, h in enumerate(headers) if h.startswith("Gap")) - 1
    for n, (coach, mine) in enumerate(zip(COACH, SELF, strict=True)):
        cells = rows.nth(n).get_by_role("cell")
        expect(cells.nth(coach_at).locator("strong")).to_have_text(str(coach))
        expect(cells.nth(mine_at).locator("strong")).to_have_text(str(mine))
        gap = cells.nth(gap_at)
        expect(gap).to_have_text(f"{mine - coach:+d}" if mine != coach else "0")
        if abs(mine - coach) >= 1:
            expect(gap).to_have_class("gap-big")
        else:
            expect(gap).not_to_have_class("gap-big")
    expect(page.get_by_text(COACH_KEEP)).to_be_visible()
    expect(page.get_by_text(COACH_EVIDENCE)).to_be_visible()
    assert CriterionVersion.objects.filter(version=scoring.version).count() == len(CRITERIA)
    assert errors == [], errors
