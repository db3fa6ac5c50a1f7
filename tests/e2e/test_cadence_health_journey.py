"""HR's inspection round in the browser, on the demo organisation: Helen signs in and
lands on cadence health, finds the slipping team in the heatmap and the attention list,
opens the team's page, downloads its weekly numbers as CSV, narrows the window, and
looks at whether coaching moves skill and whether people coach each other across the
organisation — every page accessible
and fitting a phone, nothing anyone wrote anywhere on them."""

import csv
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from coaching.models import SharedNotes
from feedback.models import Feedback
from peers.models import PairNote
from people.models import AuditEvent, Team
from tests.e2e.conftest import sign_in
from tests.e2e.screens import check_both_widths

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

HELEN = "helen.park@example.com"  # HR
SLIPPING = "Mid-Market Central"


def test_hr_finds_where_the_rhythm_breaks_and_takes_the_numbers_away(
    page: Page, live_server, demo_org
):
    call_command("seed_demo", stdout=StringIO())
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    written = next(n.reality for n in SharedNotes.objects.exclude(reality="")[:1])

    # --- 1. HR lands on cadence health ------------------------------------------------
    sign_in(page, live_server, HELEN, demo_org.password)
    expect(page).to_have_url(f"{live_server.url}/hr/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Cadence health")
    expect(page.get_by_text("The last 8 weeks, against the 8 before")).to_be_visible()
    heatmap = page.get_by_role("region", name="Adherence per team and calendar week")
    row = heatmap.get_by_role("row").filter(has_text=SLIPPING)
    expect(row.get_by_role("cell")).to_have_count(1 + 8)  # the window and eight weeks
    attention = page.get_by_role("region", name="Needs attention")
    expect(attention.get_by_text("Marcus Chen").first).to_be_visible()
    assert written not in page.content()
    check_both_widths(page, "journey-cadence-health")

    # --- 2. …opens the slipping team ---------------------------------------------------
    with page.expect_navigation():
        row.get_by_role("link", name=SLIPPING).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(SLIPPING)
    expect(page.get_by_text("Led by Marcus Chen.")).to_be_visible()
    expect(page.get_by_role("img", name="Adherence by week in this team")).to_be_visible()
    page.get_by_text("The numbers behind the chart").click()
    weeks_table = page.get_by_role("table", name="Sessions due and held each week")
    expect(weeks_table.get_by_role("row")).to_have_count(1 + 8)
    assert written not in page.content()
    check_both_widths(page, "journey-team-health")

    # --- 3. …downloads the team's weeks, audited ----------------------------------------
    weeks = page.get_by_role("region", name="Adherence by week")
    with page.expect_download() as download:
        weeks.get_by_role("link", name="Download this table (CSV)").click()
    rows = list(csv.reader(StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert rows[0] == ["week of", "due", "held", "missed", "cancelled", "adherence"]
    assert len(rows) == 1 + 8 and all(row[5].endswith(("%", "—")) for row in rows[1:])
    team = Team.objects.get(name=SLIPPING)
    # The newest: the demo's history holds downloads of Helen's from weeks before.
    event = AuditEvent.objects.filter(verb="dashboards.export").latest("at", "id")
    assert event.actor.email == HELEN and event.target_id == str(team.pk)
    assert event.data == {"table": "weeks", "weeks": 8, "rows": 8}

    # --- 4. …and looks at the last four weeks only ----------------------------------------
    page.get_by_label("Window", exact=True).select_option(label="last 4 weeks")
    with page.expect_navigation():
        page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(f"{live_server.url}/hr/teams/{team.pk}/?weeks=4")
    expect(page.get_by_text("The last 4 weeks, against the 4 before")).to_be_visible()
    with page.expect_navigation():
        page.get_by_role("main").get_by_role("link", name="Cadence health").click()
    expect(page).to_have_url(f"{live_server.url}/hr/?weeks=4")

    # --- 5. …and whether coaching moves skill ------------------------------------------
    with page.expect_navigation():
        page.get_by_role("link", name="Skills across the organisation").click()
    expect(page).to_have_url(f"{live_server.url}/hr/skills/")
    discovery = page.get_by_role("region", name="Discovery: ask before you pitch").first
    expect(discovery.get_by_text("Coaches and peers:")).to_be_visible()
    expect(discovery.get_by_role("img")).to_have_count(1)
    assert written not in page.content()
    check_both_widths(page, "journey-skills-across")

    # --- 6. …and whether people coach each other -----------------------------------------
    with page.expect_navigation():
        page.get_by_role("main").get_by_role("link", name="Cadence health").click()
    with page.expect_navigation():
        page.get_by_role("link", name="Peer coaching across the organisation").click()
    expect(page).to_have_url(f"{live_server.url}/hr/peers/")
    today = page.get_by_role("region", name="Today")
    expect(today.get_by_text("of the organisation is in a peer pair or trio")).to_be_visible()
    months = page.get_by_role("table", name="Peer coaching, month by month")
    expect(months.get_by_role("row")).to_have_count(1 + 6)
    expect(page.get_by_role("img", name="People who met a peer, month by month")).to_be_visible()
    pair_words = next(n.text for n in PairNote.objects.all()[:1])
    assert pair_words not in page.content()
    check_both_widths(page, "journey-peers-across")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download this table (CSV)").click()
    rows = list(csv.reader(StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert [row[0] for row in rows][-1] == "today" and len(rows) == 1 + 6 + 1
    assert AuditEvent.objects.filter(verb="dashboards.export", data__table="peers").exists()

    # --- 7. …and whether people seek feedback and give it in every direction ------------
    with page.expect_navigation():
        page.get_by_role("main").get_by_role("link", name="Cadence health").click()
    with page.expect_navigation():
        page.get_by_role("link", name="Feedback across the organisation").click()
    expect(page).to_have_url(f"{live_server.url}/hr/feedback/")
    recent = page.get_by_role("region", name="The last 90 days")
    expect(recent.get_by_text("Asked for feedback")).to_be_visible()
    expect(recent.get_by_text("Gave feedback unasked")).to_be_visible()
    months = page.get_by_role("table", name="Feedback, month by month")
    expect(months.get_by_role("row")).to_have_count(2 + 6)
    chart = page.get_by_role("img", name="People who asked for feedback, month by month")
    expect(chart).to_be_visible()
    feedback_words = next(f.observation for f in Feedback.objects.filter(stream="developmental"))
    assert feedback_words not in page.content()
    check_both_widths(page, "journey-feedback-across")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download this table (CSV)").click()
    rows = list(csv.reader(StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert rows[-1][0] == "last 90 days" and len(rows) == 1 + 6 + 1
    assert AuditEvent.objects.filter(verb="dashboards.export", data__table="feedback").exists()
    assert errors == [], errors
