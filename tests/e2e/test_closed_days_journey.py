"""Closed days under Programme, in the browser, on the demo organisation with its
cadence in place — and the winter break the demo closes, 24 December to 1 January.

Ada, the programme admin, goes from Programme to Closed days: the winter break is
listed under "Now and coming up", with how many planned sessions it removed. She
closes one day a couple of weeks ahead, the Tuesday every rep has a 1:1 with their
manager, for a "Company offsite": while a worker removes the day's planned sessions
the row says "Removing…", then, without a reload, how many went, and none is left on
that day (in each plan's own time zone). Days that end before they begin are refused
in place, saying so, and nothing is kept. Sofia Alvarez, a manager, finds the offsite
in the "Closed days" note on My cadence (the page itself is not hers: 404). Ada opens
the day again: the page says so, the offsite leaves the list, and the next planning
run plans the day's 1:1s again. The page is accessible and fits a desktop and a
phone; no page logs a console error beyond the refusal's 400 and Sofia's 404."""

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from cadence import engine
from cadence.models import Closure
from cadence.services_policies import SUGGESTED_ITEMS
from cadence.tasks import clear_closed_days
from coaching.models import CoachingSession, SessionStatus
from devdata.demo.cadence import WINTER_BREAK, seed_cadence
from people.models import AuditEvent, User
from tests.e2e.conftest import sign_in
from tests.e2e.screens import check_both_widths

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

OFFSITE = "Company offsite"
SOFIA = "sofia.alvarez@example.com"  # manager of Enterprise East
NOT_IN_ORDER = "The last day comes on or after the first."
# The demo's teams keep "Sales team standard": every rep's 1:1 is on this weekday.
ONE_ON_ONE_DAY = SUGGESTED_ITEMS["one_on_one"]["weekday"]
EXPECTED_IN_CONSOLE = tuple(
    f"Failed to load resource: the server responded with a status of {status}"
    for status in ("400 (Bad Request)", "404 (Not Found)")
)


def offsite_day(today: date) -> date:
    """The first 1:1 day at least ten days ahead that the winter break leaves open."""
    day = today + timedelta(days=10)
    day += timedelta(days=(ONE_ON_ONE_DAY - day.weekday()) % 7)
    while (day.month, day.day) >= (12, 24) or (day.month, day.day) == (1, 1):
        day += timedelta(weeks=1)
    return day


def planned_on(day: date) -> int:
    """The plans' sessions still planned (scheduled) whose slot falls on `day` in their
    plan's own time zone."""
    since = datetime.combine(day - timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    sessions = CoachingSession.objects.filter(
        occurrence__isnull=False,
        status=SessionStatus.SCHEDULED,
        occurrence__slot_start__gte=since,
        occurrence__slot_start__lt=since + timedelta(days=3),
    ).values_list("occurrence__slot_start", "occurrence__plan__time_zone")
    return sum(1 for slot, zone in sessions if slot.astimezone(ZoneInfo(zone)).date() == day)


def closures_ahead(page: Page) -> Locator:
    """The rows of "Now and coming up"."""
    ahead = page.get_by_role("region", name="Now and coming up")
    return ahead.get_by_role("table").locator("tbody").get_by_role("row")


def closure_row(page: Page, name: str) -> Locator:
    return closures_ahead(page).filter(has=page.get_by_role("rowheader", name=name, exact=True))


def open_again(page: Page, name: str) -> Locator:
    """A closure's "Open again" button, named for the closure (whatever the words' order)."""
    button = closure_row(page, name).get_by_role("button", name=re.compile(r"\bOpen\b.*\bagain\b"))
    expect(button).to_have_accessible_name(re.compile(re.escape(name)))
    return button


def close_days(page: Page, name: str, first: date, last: date):
    """Fill "Close days" and press "Close these days"; the response it led to."""
    form = page.get_by_role("region", name="Close days")
    form.get_by_label("Name", exact=True).fill(name)
    form.get_by_label("First day", exact=True).fill(first.isoformat())
    form.get_by_label("Last day", exact=True).fill(last.isoformat())
    with page.expect_navigation() as navigation:
        form.get_by_role("button", name="Close these days").click()
    return navigation.value


def sign_out(page: Page) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")


def test_a_programme_admin_closes_a_day_and_opens_it_again(
    page: Page, live_server, demo_org, monkeypatch
):
    seed_cadence()  # every demo team keeps the demo's policy, its plans made; winter break
    ada = User.objects.get(email=demo_org.admin)
    winter = Closure.objects.get(name=WINTER_BREAK)
    day = offsite_day(timezone.localdate())
    planned = planned_on(day)
    assert planned > 0, f"the demo's plans have sessions on {day}"
    errors: list[str] = []
    page.on(
        "console",
        lambda msg: errors.append(f"{page.url} {msg.text}") if msg.type == "error" else None,
    )
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # --- 1. Programme → Closed days: the winter break is there ----------------------------
    sign_in(page, live_server, demo_org.admin, demo_org.password)
    expect(page.get_by_role("heading", level=1)).to_have_text("Programme")
    with page.expect_navigation():
        page.get_by_role("main").get_by_role("link", name="Closed days", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/programme/closed-days/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Closed days")
    expect(closures_ahead(page)).to_have_count(1)
    row = closure_row(page, WINTER_BREAK)
    expect(row.locator("time").first).to_have_attribute("datetime", winter.first_day.isoformat())
    expect(row.get_by_role("cell").nth(0)).to_contain_text("(9 days)")
    expect(row.get_by_role("cell").nth(1)).to_contain_text("Ada Okafor")
    expect(open_again(page, WINTER_BREAK)).to_be_visible()
    check_both_widths(page, "journey-closed-days")

    # --- 2. A single day closed: a worker removes the day's planned sessions -------------
    # The worker is busy: its message waits, and the row says "Removing…" meanwhile.
    monkeypatch.setattr(clear_closed_days, "delay_on_commit", lambda *args: None)
    response = close_days(page, OFFSITE, day, day)
    assert response is not None and response.status == 200
    expect(page).to_have_url(f"{live_server.url}/programme/closed-days/")
    expect(page.get_by_role("status")).to_have_text(
        f"Closed: {OFFSITE}. No more sessions will be planned on those days; those already "
        "planned are being removed, and the list below says how many when it is done."
    )
    expect(closures_ahead(page)).to_have_count(2)  # soonest first
    expect(closures_ahead(page).first.get_by_role("rowheader")).to_have_text(OFFSITE)
    offsite_row = closure_row(page, OFFSITE)
    expect(offsite_row.locator("time")).to_have_attribute("datetime", day.isoformat())
    expect(offsite_row.get_by_role("cell").first).not_to_contain_text("days)")
    removed_cell = offsite_row.get_by_role("cell").nth(2)
    expect(removed_cell).to_have_text("Removing…")
    expect(closure_row(page, WINTER_BREAK).get_by_role("cell").nth(2)).to_have_text(
        str(winter.removed)
    )
    offsite = Closure.objects.get(name=OFFSITE)
    assert (offsite.first_day, offsite.last_day, offsite.created_by) == (day, day, ada)
    assert offsite.removed is None and planned_on(day) == planned
    # The worker's turn: the row, asking for itself every two seconds, says how many.
    assert clear_closed_days(offsite.pk) == planned
    expect(removed_cell).to_have_text(str(planned), timeout=10_000)
    expect(page).to_have_url(f"{live_server.url}/programme/closed-days/")  # not reloaded
    assert planned_on(day) == 0
    created = AuditEvent.objects.get(verb="closure.created", target_id=str(offsite.pk))
    assert created.actor == ada and created.data == {
        "first_day": day.isoformat(),
        "last_day": day.isoformat(),
    }
    cleared = AuditEvent.objects.get(verb="closure.cleared", target_id=str(offsite.pk))
    assert cleared.data == {"sessions_removed": planned}

    # --- 3. Days that end before they begin: refused in place, nothing kept ---------------
    response = close_days(page, "Board week", day + timedelta(days=14), day + timedelta(days=7))
    assert response is not None and response.status == 400
    expect(page.get_by_role("heading", level=1)).to_have_text("Closed days")
    last_day = page.locator(".field").filter(has=page.get_by_label("Last day", exact=True))
    expect(last_day.get_by_role("alert")).to_have_text(NOT_IN_ORDER)
    expect(page.get_by_label("Name", exact=True)).to_have_value("Board week")  # kept to mend
    expect(closures_ahead(page)).to_have_count(2)
    assert sorted(Closure.objects.values_list("name", flat=True)) == [OFFSITE, WINTER_BREAK]
    assert AuditEvent.objects.filter(verb="closure.created").count() == 2
    sign_out(page)

    # --- 4. Sofia, a manager: the offsite on My cadence; the page is not hers -------------
    sign_in(page, live_server, SOFIA, demo_org.password)
    response = page.goto(f"{live_server.url}/programme/closed-days/")
    assert response is not None and response.status == 404
    page.goto(f"{live_server.url}/cadence/")
    note = page.get_by_role("complementary", name="Closed days")
    expect(note).to_be_visible()
    said = note.get_by_role("paragraph").filter(has_text=OFFSITE)
    expect(said).to_contain_text(f"Closed: {OFFSITE}")
    expect(said).to_contain_text("no session is planned on these days")
    expect(said.locator("time")).to_have_attribute("datetime", day.isoformat())
    sign_out(page)

    # --- 5. Ada opens the day again; the next planning run plans it again -----------------
    sign_in(page, live_server, demo_org.admin, demo_org.password)
    page.goto(f"{live_server.url}/programme/closed-days/")
    with page.expect_navigation():
        open_again(page, OFFSITE).click()
    expect(page).to_have_url(f"{live_server.url}/programme/closed-days/")
    expect(page.get_by_role("status")).to_contain_text(f"Open again: {OFFSITE}.")
    expect(closures_ahead(page)).to_have_count(1)
    expect(closure_row(page, OFFSITE)).to_have_count(0)
    assert list(Closure.objects.values_list("name", flat=True)) == [WINTER_BREAK]
    assert AuditEvent.objects.filter(verb="closure.removed", actor=ada).count() == 1
    engine.occurrences_generate()  # what the queued generation does, within the hour
    assert planned_on(day) == planned

    unexpected = [e for e in errors if not e.endswith(EXPECTED_IN_CONSOLE)]
    assert unexpected == [], "\n".join(unexpected)
