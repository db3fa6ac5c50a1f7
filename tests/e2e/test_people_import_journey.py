"""Importing people from a CSV file in the browser, as the programme admin: from
Programme she follows the link to Import people; a file with a bad email is refused
with its problem by line, and nothing is kept. A right file lands on its import's
page, which says it is being checked and, once a worker has counted it, updates
itself (htmx) to what it would change; "Import 4 people" shows it importing until the
worker has imported them — three new people, one of them a new manager leading a new
team, and an existing rep moved under her — and the page updates to Imported; the
Imports table lists the file as Imported. A rep asking for the import page gets a 404. No page
logs a console error beyond the refused upload's 400."""

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from people.models import PeopleImport, Team, TeamMembership, User
from people.tasks import run_import
from tests.e2e.conftest import sign_in

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

HEADER = "email,name,manager_email,team,time_zone,role\n"
# Line 3 is wrong; line 2 is fine, yet nothing of the file may be kept.
BAD_FILE = HEADER + (
    "zoe.hart@example.com,Zoe Hart,daniel.mensah@example.com,Partner Sales,Europe/Dublin,manager\n"
    "ivan.petrov.example.com,Ivan Petrov,zoe.hart@example.com,Partner Sales,Europe/Sofia,\n"
)
BAD_PROBLEM = "line 3: ivan.petrov.example.com is not a valid email address"
# Three new people (Zoe leads a new team, Ivan joins it and a second new one) and one
# demo rep, Tom Becker, moved from Sofia Alvarez to Zoe: 3 new, 1 updated, 2 new teams.
GOOD_FILE = HEADER + (
    "zoe.hart@example.com,Zoe Hart,daniel.mensah@example.com,Partner Sales,Europe/Dublin,manager\n"
    "ivan.petrov@example.com,Ivan Petrov,zoe.hart@example.com,"
    "Partner Sales;Channel Enablement,Europe/Sofia,\n"
    "mei.tanaka@example.com,Mei Tanaka,zoe.hart@example.com,Partner Sales,Asia/Tokyo,rep\n"
    "tom.becker@example.com,Tom Becker,zoe.hart@example.com,Partner Sales,America/New_York,\n"
)
GOOD_NAME = "partner-sales.csv"
REFUSED_IN_CONSOLE = (
    "Failed to load resource: the server responded with a status of 400 (Bad Request)"
)
COUNTS = {"New people": "3", "Updated": "1", "Unchanged": "0", "New teams": "2"}


@pytest.fixture
def worker(monkeypatch):
    """Imports queued by the pages wait until the test runs the worker, as in production
    a worker in its own process picks them up a moment later; meanwhile the page says
    so and polls. (Run eagerly, the check would be over before the page first shows.)"""
    queued: list[int] = []
    monkeypatch.setattr(run_import, "delay", queued.append)

    def run_queued() -> list[int]:
        ran = list(queued)
        queued.clear()
        for pk in ran:
            run_import(pk)
        return ran

    return run_queued


def watch_console(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def upload(page: Page, path: Path):
    """Choose the file and press "Check the file"; the response the form led to."""
    page.get_by_label("CSV file").set_input_files(path)
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name="Check the file").click()
    return navigation.value


def expect_counts(status: Locator, counts: dict[str, str]) -> None:
    for label, value in counts.items():
        expect(status.locator(f'dt:text-is("{label}") + dd')).to_have_text(value)


def test_a_programme_admin_imports_people_from_a_csv_file(
    page: Page, live_server, demo_org, tmp_path, worker
):
    errors = watch_console(page)

    # --- 1. From Programme to Import people --------------------------------------------
    sign_in(page, live_server, demo_org.admin, demo_org.password)
    expect(page.get_by_role("heading", level=1)).to_have_text("Programme")
    with page.expect_navigation():
        page.get_by_role("link", name="Import people from a CSV file").click()
    expect(page).to_have_url(f"{live_server.url}/programme/imports/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Import people")
    expect(page.get_by_text("No imports yet.")).to_be_visible()

    # --- 2. A file with a bad row is refused, by line, and nothing is kept ---------------
    bad = tmp_path / "people-bad.csv"
    bad.write_text(BAD_FILE, encoding="utf-8")
    response = upload(page, bad)
    assert response is not None and response.status == 400
    expect(page.get_by_role("heading", level=1)).to_have_text("Import people")
    expect(page.get_by_role("alert")).to_have_text(
        "Nothing was kept: fix this and upload the file again."
    )
    expect(page.locator("ul.problems > li")).to_have_text([BAD_PROBLEM])
    expect(page.get_by_text("No imports yet.")).to_be_visible()
    assert not PeopleImport.objects.exists()
    assert not User.objects.filter(email="zoe.hart@example.com").exists()

    # --- 3. A right file: its page says what it would change, once it is checked ---------
    good = tmp_path / GOOD_NAME
    good.write_text(GOOD_FILE, encoding="utf-8")
    upload(page, good)
    job = PeopleImport.objects.get()
    expect(page).to_have_url(f"{live_server.url}/programme/imports/{job.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(GOOD_NAME)
    expect(page.get_by_text(f"{GOOD_NAME}: every row is valid.")).to_be_visible()
    status = page.locator("#import-status")
    heading = status.get_by_role("heading", level=2)
    expect(heading).to_have_text("Checking 4 people")
    expect(status).to_have_attribute("hx-trigger", "every 2s")
    assert worker() == [job.pk]
    # htmx swaps the panel in by itself, and stops polling.
    expect(heading).to_have_text("Ready to import 4 people")
    expect(status).not_to_have_attribute("hx-trigger", "every 2s")
    expect_counts(status, COUNTS)
    expect(status.get_by_role("button", name="Discard")).to_be_visible()
    assert not User.objects.filter(email="zoe.hart@example.com").exists()  # a trial only

    # --- 4. Import them ------------------------------------------------------------------
    with page.expect_navigation():
        status.get_by_role("button", name="Import 4 people").click()
    expect(page.get_by_text(f"Importing {GOOD_NAME}…")).to_be_visible()
    expect(heading).to_have_text("Importing 4 people")
    expect(status).to_have_attribute("hx-trigger", "every 2s")
    assert worker() == [job.pk]
    expect(heading).to_have_text("Imported 4 people")
    expect(status).not_to_have_attribute("hx-trigger", "every 2s")
    expect(status).to_contain_text("Imported by Ada Okafor")
    expect_counts(status, COUNTS)
    expect(status.get_by_role("button")).to_have_count(0)

    zoe = User.objects.get(email="zoe.hart@example.com")
    assert zoe.display_name == "Zoe Hart" and zoe.time_zone == "Europe/Dublin"
    assert zoe.reports_to.email == demo_org.head
    reports = User.objects.filter(reports_to=zoe).values_list("email", flat=True)
    assert sorted(reports) == [
        "ivan.petrov@example.com",
        "mei.tanaka@example.com",
        "tom.becker@example.com",
    ]
    partner_sales = Team.objects.get(name="Partner Sales")
    assert partner_sales.lead == zoe
    members = TeamMembership.objects.current()
    assert set(members.filter(team=partner_sales).values_list("person__email", flat=True)) == {
        "ivan.petrov@example.com",
        "mei.tanaka@example.com",
        "tom.becker@example.com",
    }
    ivans_teams = members.filter(person__email="ivan.petrov@example.com")
    assert set(ivans_teams.values_list("team__name", flat=True)) == {
        "Partner Sales",
        "Channel Enablement",
    }
    # Importing never removes anyone from a team: Tom is still in Enterprise East.
    toms_teams = members.filter(person__email="tom.becker@example.com")
    assert set(toms_teams.values_list("team__name", flat=True)) == {
        "Enterprise East",
        "Partner Sales",
    }

    # --- 5. The Imports table lists it as Imported ----------------------------------------
    with page.expect_navigation():
        page.get_by_role("link", name="Imports", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/programme/imports/")
    rows = page.get_by_role("table").get_by_role("row")
    expect(rows).to_have_count(2)  # the header and this import: the bad file left none
    row = rows.filter(has=page.get_by_role("link", name=GOOD_NAME))
    expect(row.locator('[data-label="Uploaded"]')).to_contain_text("by Ada Okafor")
    expect(row.locator('[data-label="People"]')).to_have_text("4")
    expect(row.locator('[data-label="Status"]')).to_have_text("Imported")
    expect(row.locator('[data-label="Result"]')).to_have_text("3 new, 1 updated, 0 unchanged")

    # The browser reports the refused upload's status, and nothing else.
    assert errors == [REFUSED_IN_CONSOLE], errors


def test_a_rep_gets_a_404_for_the_import_page(page: Page, live_server, demo_org):
    sign_in(page, live_server, demo_org.rep, demo_org.password)
    expect(page.get_by_role("heading", level=1)).to_have_text("My coaching")

    response = page.goto(f"{live_server.url}/programme/imports/")

    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Not found")
    expect(page.get_by_label("CSV file")).to_have_count(0)
