"""What is waiting for me, in one place, in the browser, on the demo organisation's
people.

Sofia has an unread digest and a feedback request from Aisha; she coaches Aisha
(a 1:1 in two days, not prepared; another a week later) and Tom (a 1:1 in two days,
prepared). Signed in, the header counts her unread notification on every page and My
team lists what waits for her. Sessions groups her 1:1s ahead by week and says per
1:1 whether the coachee prepared, with links that say what they open. On Aisha's 1:1,
her preparation and the agenda come before the GROW form — on a phone too, in the
page's own order (the keyboard meets them first) — and the desktop keeps its two
columns. Aisha, signed in, finds her 1:1 to prepare at the top of My coaching. Every
page fits a desktop and a phone."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from coaching.selectors import week_label
from coaching.services import notes_save
from feedback.services import feedback_request_create
from notifications.models import Notification, NotificationKind
from people.models import User
from tests.e2e.conftest import sign_in
from tests.e2e.journeys import AISHA, SOFIA, sign_out
from tests.e2e.screens import DESKTOP, PHONE, at_width, check_both_widths
from tests.support.factories import one_on_one

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

TOM = "tom.becker@example.com"
PREPARED = "Two calls slipped past the budget question; I want to ask it in the first ten."

# 1 when the first node comes before the second in the document (keyboard order).
BEFORE = """([a, b]) => {
    const [first, second] = [a, b].map((s) => document.querySelector(s));
    return first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : 0;
}"""


def _top(page: Page, selector: str) -> float:
    return page.locator(selector).first.bounding_box()["y"]


def test_sofia_and_aisha_find_what_waits_for_them(page: Page, live_server, demo_org):
    sofia, aisha, tom = (User.objects.get(email=e) for e in (SOFIA, AISHA, TOM))
    now = timezone.now()
    soon = now + dt.timedelta(days=2)
    aisha_next = one_on_one(sofia, aisha, start=soon)
    aisha_later = one_on_one(sofia, aisha, start=soon + dt.timedelta(days=7))
    tom_next = one_on_one(sofia, tom, start=soon + dt.timedelta(hours=2))
    notes_save(session=tom_next, actor=tom, base_version=0, changes={"reality": PREPARED})
    feedback_request_create(
        requester=aisha, responders=[sofia], due_on=timezone.localdate() + dt.timedelta(days=5)
    )
    Notification.objects.create(kind=NotificationKind.DIGEST, recipient=sofia, period="2026-W01")
    # The digest, and the request's own notification: 2.
    unread = f"Notifications {Notification.objects.filter(recipient=sofia).count()} unread"

    # Sofia lands on My team: her unread count in the header, and what waits for her.
    sign_in(page, live_server, SOFIA, demo_org.password)
    expect(page).to_have_url(f"{live_server.url}/team/")
    account = page.get_by_role("navigation", name="Account")
    expect(account.get_by_role("link", name=unread)).to_be_visible()
    waiting = page.get_by_role("region", name="Waiting for you")
    expect(
        waiting.get_by_role("link", name="Answer Aisha Bello’s feedback request")
    ).to_be_visible()
    check_both_widths(page, "waiting-team")

    # Sessions: by week, and per 1:1 ahead whether the coachee prepared.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sessions").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My sessions")
    expect(account.get_by_role("link", name=unread)).to_be_visible()
    coming = page.get_by_role("region", name="Coming up")
    zone = ZoneInfo(sofia.time_zone)
    today = now.astimezone(zone).date()
    for session in (aisha_next, aisha_later):
        label = week_label(session.scheduled_start.astimezone(zone).date(), today=today)
        expect(coming.get_by_role("heading", name=label, exact=True)).to_be_visible()
    tom_row = coming.get_by_role("listitem").filter(
        has=page.get_by_role("link", name="1:1 with Tom Becker")
    )
    expect(tom_row).to_contain_text("prepared")
    expect(tom_row).not_to_contain_text("not prepared yet")
    aisha_row = coming.get_by_role("listitem").filter(
        has=page.get_by_role("link", name="1:1 with Aisha Bello")
    )
    expect(aisha_row.first).to_contain_text("not prepared yet")
    check_both_widths(page, "sessions-by-week")

    # Aisha's 1:1: her preparation and the agenda before the GROW form.
    aisha_row.first.get_by_role("link", name="1:1 with Aisha Bello").click()
    expect(page).to_have_url(f"{live_server.url}/sessions/{aisha_next.pk}/")
    prep = page.get_by_role("region", name="Aisha's preparation")
    expect(prep).to_contain_text("not prepared yet")
    # In the document's order, so the keyboard meets them as the eye does.
    assert page.evaluate(BEFORE, [".coachee-prep", "#agenda"]) == 1
    assert page.evaluate(BEFORE, ["#agenda", "#notes"]) == 1
    at_width(page, PHONE)
    assert _top(page, ".coachee-prep") < _top(page, "#agenda") < _top(page, "#notes_reality")
    at_width(page, DESKTOP)
    main, side = (page.locator(s).bounding_box() for s in (".session-main", ".session-side"))
    assert side["x"] > main["x"] + main["width"] - 1  # two columns, the notes on the left
    assert _top(page, "#agenda") < _top(page, "#notes_reality")
    check_both_widths(page, "session-prep-first")

    # Tom prepared: his view, before the form.
    page.goto(f"{live_server.url}/sessions/{tom_next.pk}/")
    prep = page.get_by_role("region", name="Tom's preparation")
    expect(prep).to_contain_text("prepared")
    expect(prep).to_contain_text(PREPARED)

    # Aisha: her 1:1 to prepare, first thing on My coaching.
    sign_out(page)
    sign_in(page, live_server, AISHA, demo_org.password)
    expect(page.get_by_role("heading", level=1)).to_have_text("My coaching")
    waiting = page.get_by_role("region", name="Waiting for you")
    prepare = waiting.get_by_role("link", name="Prepare for your 1:1 with Sofia Alvarez")
    expect(prepare.first).to_be_visible()
    check_both_widths(page, "waiting-rep")
    prepare.first.click()
    expect(page).to_have_url(f"{live_server.url}/sessions/{aisha_next.pk}/prepare/")
