"""Nobody is surprised, in the browser, on the demo organisation's people.

Sofia (Berlin) moves Aisha's 1:1 from 10:00 to 15:00 on the session page; the page
keeps the move in its history. Aisha (New York), in a browser of her own, finds it in
her notifications with both times in her own zone (04:00 → 09:00) and opens the
session from there. The email the outbox sends her carries a METHOD:REQUEST calendar
part with the session's UID and a higher SEQUENCE, so her calendar moves the event."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone
from icalendar import Calendar
from playwright.sync_api import Browser, Page, expect

from cadence.calendar import event_uid
from notifications import outbox
from people.models import User
from tests.e2e.conftest import sign_in
from tests.e2e.journeys import AISHA, SOFIA
from tests.e2e.screens import check_both_widths
from tests.support.factories import one_on_one

pytestmark = pytest.mark.django_db(transaction=True)

BERLIN, NEW_YORK = ZoneInfo("Europe/Berlin"), ZoneInfo("America/New_York")


def _line_time(moment: dt.datetime, zone: ZoneInfo) -> str:
    local = moment.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b, %H:%M}"


def test_the_coach_moves_a_1_1_and_the_rep_finds_it_in_her_own_zone(
    page: Page, browser: Browser, live_server, demo_org
):
    User.objects.filter(email=SOFIA).update(time_zone="Europe/Berlin")
    User.objects.filter(email=AISHA).update(time_zone="America/New_York")
    sofia, aisha = User.objects.get(email=SOFIA), User.objects.get(email=AISHA)
    day = (timezone.now() + dt.timedelta(days=3)).astimezone(BERLIN).date()
    first = dt.datetime.combine(day, dt.time(10), tzinfo=BERLIN)
    then = dt.datetime.combine(day, dt.time(15), tzinfo=BERLIN)
    session = one_on_one(sofia, aisha, start=first)

    # Sofia moves it, from the session page.
    sign_in(page, live_server, SOFIA, demo_org.password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.get_by_role("link", name="Move").click()
    page.get_by_label("When").fill(then.strftime("%Y-%m-%dT%H:%M"))
    with page.expect_navigation():
        page.get_by_role("button", name="Move it", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/")
    history = page.get_by_role("region", name="Moves and cancellations")
    expect(history).to_contain_text("Moved by Sofia Alvarez")
    expect(history).to_contain_text(f"to {_line_time(then, BERLIN)}")
    check_both_widths(page, "session-moved-coach")

    # Aisha, in a browser of her own, finds it in her notifications in her own zone.
    rep_context = browser.new_context()
    rep = rep_context.new_page()
    sign_in(rep, live_server, AISHA, demo_org.password)
    rep.goto(f"{live_server.url}/me/notifications/")
    line = rep.get_by_role("link", name="Session moved by Sofia Alvarez")
    # Same day: the new time alone after the arrow; her zone named, as Sofia's differs.
    expect(line).to_contain_text(
        f"1:1, {_line_time(first, NEW_YORK)} {first.astimezone(NEW_YORK):%Z}"
        f" → {then.astimezone(NEW_YORK):%H:%M %Z}"
    )
    check_both_widths(rep, "notifications-moved-rep")
    line.click()
    expect(rep).to_have_url(f"{live_server.url}/sessions/{session.pk}/")
    expect(rep.get_by_role("region", name="Moves and cancellations")).to_contain_text(
        f"from {_line_time(first, NEW_YORK)} {first.astimezone(NEW_YORK):%Z}"
        f" to {_line_time(then, NEW_YORK)} {then.astimezone(NEW_YORK):%Z}"
    )
    rep_context.close()

    # Her email: a METHOD:REQUEST with the session's UID and a higher SEQUENCE.
    outbox.drain()
    [email] = [m for m in mail.outbox if m.to == [AISHA]]
    [ical] = [
        c for c, mimetype in email.alternatives if mimetype == "text/calendar; method=REQUEST"
    ]
    calendar = Calendar.from_ical(ical)
    [event] = calendar.walk("VEVENT")
    assert calendar["METHOD"] == "REQUEST"
    assert str(event["UID"]) == event_uid(session)
    assert event.decoded("SEQUENCE") == 1
    assert event.decoded("DTSTART") == then
