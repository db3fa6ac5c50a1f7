"""Who is in the programme, who they report to and what they are appointed to, in the
browser, on the demo organisation. Aisha Bello, a rep on Sofia Alvarez's team, is signed
in on her own browser all along.

Ada, the programme admin, goes from Programme to People: the thirty people here are
listed by name, a page at a time, each with their manager and appointments (Ada a
programme admin, Helen HR); looking for "fisch" leaves Lena Fischer alone. She adds a
person with a broken email address first: the page stays, saying so, and nobody is
added. "Priya Raman", priya.raman@example.com in Asia/Kolkata reporting to Sofia, is
added (and audited), a welcome email with a link to set her password goes to her,
and Ada lands on Priya's page, whose reporting line shows Sofia.

She moves Aisha to Lena: the reporting line's history shows both. She tries to make
Daniel Mensah, the head of sales, report to Lena, who reports to him: the loop is
refused with the service's own words and nothing changes. She appoints Aisha HR and
takes it away again (both audited); on her own page she can change neither her
appointments nor whether she is here.

She deactivates Aisha, "Left the organisation": Aisha is under "Deactivated", her
weekly 1:1 has ended with her, and on her own browser her next page asks her to sign
in. Let back in, she has her 1:1 with Sofia again, and signs in again.
The list and a person's page (here and deactivated) are accessible and fit a desktop
and a phone; no page logs a console error beyond the two refusals' 400s."""

import pytest
from django.core import mail
from playwright.sync_api import Browser, Locator, Page, expect

from cadence.models import CadencePlan
from devdata.demo.cadence import seed_cadence
from people.models import AuditEvent, ReportingLine, User
from people.roles import Role
from people.selectors import roles_of
from tests.e2e.conftest import sign_in
from tests.e2e.screens import check_both_widths

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

REP = "Aisha Bello"  # Enterprise East: reports to Sofia Alvarez
SOFIA = "Sofia Alvarez"
LENA = "Lena Fischer"  # EMEA Growth's lead: reports to Daniel Mensah
DANIEL = "Daniel Mensah"  # head of sales: reports to nobody
NEW = ("Priya Raman", "priya.raman@example.com", "Asia/Kolkata")
BROKEN_EMAIL = "priya.raman@"
PEOPLE_HERE = 30  # the demo organisation
PER_PAGE = 25
LISTED = {  # name → reports to, appointed to
    "Ada Okafor": ["—", "Programme admin"],
    REP: [SOFIA, "—"],
    DANIEL: ["—", "—"],
    "Helen Park": ["—", "HR"],
    LENA: [DANIEL, "—"],
}
REFUSED_IN_CONSOLE = (
    "Failed to load resource: the server responded with a status of 400 (Bad Request)"
)


def never() -> int:
    """Who is here and has never signed in (the demo's people mostly have not)."""
    return User.objects.filter(is_active=True, last_login__isnull=True).count()


def person(name: str) -> User:
    return User.objects.get(display_name=name)


def people_table(page: Page) -> Locator:
    return page.get_by_role(
        "table", name="Each person, who they report to and what they are appointed to"
    )


def listed_rows(page: Page) -> Locator:
    return people_table(page).locator("tbody").get_by_role("row")


def person_row(page: Page, name: str) -> Locator:
    return listed_rows(page).filter(
        has=page.get_by_role("rowheader").get_by_role("link", name=name, exact=True)
    )


def tabs(page: Page) -> Locator:
    return page.get_by_role("navigation", name="Which people").get_by_role("link")


def region(page: Page, name: str) -> Locator:
    return page.get_by_role("region", name=name, exact=True)


def submit(page: Page, button: Locator):
    """Press a form's button; the response the form led to."""
    with page.expect_navigation() as navigation:
        button.click()
    return navigation.value


def open_person(page: Page, live_server, name: str) -> None:
    """From the list, found by name, to their page."""
    page.goto(f"{live_server.url}/programme/people/?show=all")
    page.get_by_label("Find someone by name or email", exact=True).fill(name)
    submit(page, page.get_by_role("button", name="Find", exact=True))
    with page.expect_navigation():
        person_row(page, name).get_by_role("link", name=name, exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/programme/people/{person(name).pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def audited(verb: str, actor: User, target: User):
    return AuditEvent.objects.filter(verb=verb, actor=actor, target_id=str(target.pk))


def test_a_programme_admin_keeps_the_people(page: Page, browser: Browser, live_server, demo_org):
    seed_cadence()  # every demo team keeps the demo's policy, its plans made
    admin = User.objects.get(email=demo_org.admin)
    aisha, sofia, lena, daniel = person(REP), person(SOFIA), person(LENA), person(DANIEL)
    assert aisha.email == demo_org.rep and aisha.reports_to == sofia
    assert lena.reports_to == daniel and daniel.reports_to is None
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Aisha, signed in on her own browser.
    aishas = browser.new_context(base_url=live_server.url)
    try:
        aishas_page = aishas.new_page()
        sign_in(aishas_page, live_server, demo_org.rep, demo_org.password)
        aishas_page.goto("/me/")
        expect(aishas_page).to_have_url(f"{live_server.url}/me/")

        # --- 1. From Programme to People: by name, with managers and appointments --------
        sign_in(page, live_server, demo_org.admin, demo_org.password)
        expect(page.get_by_role("heading", level=1)).to_have_text("Programme")
        with page.expect_navigation():
            page.get_by_role("main").get_by_role("link", name="People", exact=True).click()
        expect(page).to_have_url(f"{live_server.url}/programme/people/")
        expect(page.get_by_role("heading", level=1)).to_have_text("People")
        expect(tabs(page)).to_have_text(
            [
                f"Here {PEOPLE_HERE}",
                f"Never signed in {never()}",
                "Deactivated 0",
                f"Everyone {PEOPLE_HERE}",
            ]  # fmt: skip
        )
        expect(tabs(page).filter(has_text="Here")).to_have_attribute("aria-current", "page")
        expect(listed_rows(page)).to_have_count(PER_PAGE)
        names = listed_rows(page).get_by_role("rowheader").get_by_role("link")
        expect(names.first).to_have_text("Ada Okafor")  # by name
        for name, cells in LISTED.items():
            row = person_row(page, name)
            expect(row.get_by_role("rowheader")).to_contain_text(person(name).email)
            expect(row.get_by_role("cell")).to_have_text(cells)
        pager = page.get_by_role("navigation", name="Pages of people")
        expect(pager).to_contain_text("Page 1 of 2")
        check_both_widths(page, "journey-people")

        page.get_by_label("Find someone by name or email", exact=True).fill("fisch")
        submit(page, page.get_by_role("button", name="Find", exact=True))
        expect(page).to_have_url(f"{live_server.url}/programme/people/?show=&q=fisch")
        expect(listed_rows(page).get_by_role("rowheader").get_by_role("link")).to_have_text([LENA])
        expect(person_row(page, LENA).get_by_role("cell")).to_have_text(LISTED[LENA])
        expect(page.get_by_role("link", name="Show all")).to_be_visible()

        # --- 2. A broken email stays on the page, saying so; a good one adds Priya -------
        name, email, time_zone = NEW
        adding = region(page, "Add a person")
        adding.get_by_label("Name", exact=True).fill(name)
        adding.get_by_label("Email", exact=True).fill(BROKEN_EMAIL)
        adding.get_by_label("Time zone", exact=True).select_option(time_zone)
        adding.get_by_label("Manager", exact=True).select_option(label=SOFIA)
        add = adding.get_by_role("button", name="Add them")
        response = submit(page, add)
        assert response is not None and response.status == 400
        expect(page.get_by_role("heading", level=1)).to_have_text("People")
        email_field = adding.locator(".field").filter(has=page.get_by_label("Email", exact=True))
        expect(email_field.get_by_role("alert")).to_have_text("Enter a valid email address.")
        expect(adding.get_by_label("Name", exact=True)).to_have_value(name)  # kept
        expect(adding.get_by_label("Manager", exact=True)).to_have_value(str(sofia.pk))
        assert not User.objects.filter(display_name=name).exists()
        assert not AuditEvent.objects.filter(verb="person.created", actor=admin).exists()

        adding.get_by_label("Email", exact=True).fill(email)
        response = submit(page, add)
        assert response is not None and response.status == 200
        priya = User.objects.get(email=email)
        assert (priya.display_name, priya.time_zone, priya.reports_to) == (name, time_zone, sofia)
        expect(page).to_have_url(f"{live_server.url}/programme/people/{priya.pk}/")
        expect(page.get_by_role("heading", level=1)).to_have_text(name)
        expect(page.get_by_role("status")).to_have_text(
            f"{name} is added. A link to set their password is on its way to {email}."
        )
        # The welcome, sent by the worker (eager here): where to sign in, and the link.
        [welcome] = [m for m in mail.outbox if m.to == [email]]
        assert "/accounts/password/reset/key/" in welcome.body
        expect(region(page, "Signing in")).to_contain_text("They have not signed in yet.")
        expect(page.locator(".lede")).to_have_text(f"{email} · {time_zone} · reports to {SOFIA}")
        line = region(page, "Reporting line")
        expect(line.get_by_label("Reports to", exact=True)).to_have_value(str(sofia.pk))
        expect(line.get_by_role("listitem").first).to_contain_text(f"{SOFIA}")
        expect(line.get_by_role("listitem").first).to_contain_text("now")
        expect(region(page, "Teams")).to_contain_text("On no team.")
        assert audited("person.created", admin, priya).count() == 1
        assert audited("reporting_line.changed", admin, priya).get().data == {
            "from_manager_id": None,
            "to_manager_id": sofia.pk,
        }
        check_both_widths(page, "journey-person-new")

        # --- 3. Aisha moves to Lena; the line keeps its history ---------------------------
        open_person(page, live_server, REP)
        line = region(page, "Reporting line")
        expect(line.get_by_label("Reports to", exact=True)).to_have_value(str(sofia.pk))
        line.get_by_label("Reports to", exact=True).select_option(label=LENA)
        submit(page, line.get_by_role("button", name="Change manager"))
        expect(page).to_have_url(f"{live_server.url}/programme/people/{aisha.pk}/")
        expect(page.get_by_role("status")).to_have_text("Saved.")
        expect(page.locator(".lede")).to_contain_text(f"reports to {LENA}")
        expect(line.get_by_label("Reports to", exact=True)).to_have_value(str(lena.pk))
        history = line.locator("h3", has_text="History").locator("xpath=following-sibling::ul[1]")
        expect(history.get_by_role("listitem")).to_have_count(2)
        expect(history.get_by_role("listitem").first).to_contain_text(LENA)
        expect(history.get_by_role("listitem").first).to_contain_text("now")
        expect(history.get_by_role("listitem").last).to_contain_text(SOFIA)
        expect(history.get_by_role("listitem").last).not_to_contain_text("now")
        aisha.refresh_from_db()
        assert aisha.reports_to == lena
        lines = ReportingLine.objects.filter(report=aisha).order_by("started_at")
        assert [(line.manager_id, line.ended_at is None) for line in lines] == [
            (sofia.pk, False),
            (lena.pk, True),
        ]
        assert audited("reporting_line.changed", admin, aisha).get().data == {
            "from_manager_id": sofia.pk,
            "to_manager_id": lena.pk,
        }

        # --- 4. Daniel under Lena, who reports to him: a loop, refused --------------------
        open_person(page, live_server, DANIEL)
        line = region(page, "Reporting line")
        line.get_by_label("Reports to", exact=True).select_option(label=LENA)
        response = submit(page, line.get_by_role("button", name="Change manager"))
        assert response is not None and response.status == 400
        expect(page.get_by_role("heading", level=1)).to_have_text(DANIEL)
        expect(line.get_by_role("alert")).to_have_text(
            f"{LENA} already reports to {DANIEL}; that would make a loop."
        )
        expect(page.locator(".lede")).to_contain_text("reports to nobody")
        daniel.refresh_from_db()
        assert daniel.reports_to is None
        assert not audited("reporting_line.changed", admin, daniel).exists()
        assert not ReportingLine.objects.filter(report=daniel).exists()

        # --- 5. Aisha appointed HR, and not any more -------------------------------------
        open_person(page, live_server, REP)
        appointments = region(page, "Appointments")
        hr = appointments.get_by_label("HR", exact=True)
        expect(hr).not_to_be_checked()
        hr.check()
        submit(page, appointments.get_by_role("button", name="Save appointments"))
        expect(page.get_by_role("status")).to_have_text("Saved.")
        expect(hr).to_be_checked()
        expect(appointments.get_by_label("Programme admin", exact=True)).not_to_be_checked()
        expect(page.locator(".lede")).to_contain_text(f"reports to {LENA} · HR")
        assert Role.HR in roles_of(User.objects.get(pk=aisha.pk))
        assert audited("role.granted", admin, aisha).get().data == {"role": "hr"}

        hr.uncheck()
        submit(page, appointments.get_by_role("button", name="Save appointments"))
        expect(page.get_by_role("status")).to_have_text("Saved.")
        expect(hr).not_to_be_checked()
        expect(page.locator(".lede")).not_to_contain_text("HR")
        assert Role.HR not in roles_of(User.objects.get(pk=aisha.pk))
        assert audited("role.revoked", admin, aisha).get().data == {"role": "hr"}
        check_both_widths(page, "journey-person")

        # Her own page: no appointments to change, no deactivating herself.
        open_person(page, live_server, "Ada Okafor")
        expect(region(page, "Appointments")).to_contain_text(
            "Your own appointments are changed by another programme admin."
        )
        expect(region(page, "Appointments").get_by_role("checkbox")).to_have_count(0)
        expect(page.get_by_role("button", name="Save appointments")).to_have_count(0)
        expect(region(page, "Leaving")).to_contain_text(
            "Another programme admin deactivates you, if it comes to that."
        )
        expect(page.get_by_role("button", name="Deactivate Ada Okafor")).to_have_count(0)

        # --- 6. Aisha leaves: under "Deactivated", and signed out on her own browser -----
        open_person(page, live_server, REP)
        leaving = region(page, "Leaving")
        leaving.get_by_label("Why", exact=True).select_option(label="Left the organisation")
        submit(page, leaving.get_by_role("button", name=f"Deactivate {REP}"))
        expect(page).to_have_url(f"{live_server.url}/programme/people/{aisha.pk}/")
        expect(page.get_by_role("status")).to_have_text(
            f"{REP} is deactivated: every sign-in, API token and calendar feed of theirs is "
            "ended, and so are the plans they were in. Their history stays."
        )
        expect(page.locator(".lede")).to_contain_text("deactivated: they cannot sign in")
        expect(region(page, "Leaving")).to_have_count(0)
        back = region(page, "Deactivated").get_by_role("button", name=f"Let {REP} sign in again")
        expect(back).to_be_visible()
        aisha.refresh_from_db()
        assert not aisha.is_active
        left = audited("person.deactivated", admin, aisha).get()
        assert (left.data["reason"], left.data["was_active"], left.data["sessions"]) == (
            "departed",
            True,
            1,
        )
        # Her weekly 1:1 with Sofia ends with her: nothing to sweep as missed.
        assert left.data["plans_ended"] == 1
        assert not CadencePlan.objects.live().filter(coachee=aisha).exists()
        check_both_widths(page, "journey-person-deactivated")

        page.goto(f"{live_server.url}/programme/people/")
        expect(tabs(page)).to_have_text(
            [
                f"Here {PEOPLE_HERE}",
                f"Never signed in {never()}",
                "Deactivated 1",
                f"Everyone {PEOPLE_HERE + 1}",
            ]  # fmt: skip
        )
        expect(person_row(page, REP)).to_have_count(0)
        with page.expect_navigation():
            tabs(page).filter(has_text="Deactivated").click()
        expect(page).to_have_url(f"{live_server.url}/programme/people/?show=left")
        expect(listed_rows(page).get_by_role("rowheader").get_by_role("link")).to_have_text([REP])
        expect(person_row(page, REP).get_by_role("cell")).to_have_text([LENA, "—"])
        with page.expect_navigation():
            tabs(page).filter(has_text="Everyone").click()
        expect(person_row(page, REP).get_by_role("cell")).to_have_text([LENA, "—", "Deactivated"])
        expect(person_row(page, DANIEL).get_by_role("cell")).to_have_text(["—", "—", "Here"])
        check_both_widths(page, "journey-people-everyone")

        aishas_page.goto("/me/")
        expect(aishas_page).to_have_url(f"{live_server.url}/accounts/login/?next=/me/")

        # --- 7. Let back in, she signs in afresh -----------------------------------------
        open_person(page, live_server, REP)
        submit(page, page.get_by_role("button", name=f"Let {REP} sign in again"))
        expect(page.get_by_role("status")).to_have_text(f"{REP} can sign in again.")
        expect(
            region(page, "Leaving").get_by_role("button", name=f"Deactivate {REP}")
        ).to_be_visible()
        expect(page.locator(".lede")).to_contain_text(f"reports to {LENA}")
        aisha.refresh_from_db()
        assert aisha.is_active
        assert audited("person.reactivated", admin, aisha).get().data == {"plans_made": 1}
        # Back on Enterprise East's cadence: her 1:1 with its lead again.
        assert (
            CadencePlan.objects.live().get(coachee=aisha, kind="one_on_one").coach.display_name
            == SOFIA
        )

        sign_in(aishas_page, live_server, demo_org.rep, demo_org.password, go=False)
        expect(aishas_page).to_have_url(f"{live_server.url}/me/")
    finally:
        aishas.close()

    # The browser reports the two refusals' status, and nothing else.
    assert errors == [REFUSED_IN_CONSOLE] * 2, errors
