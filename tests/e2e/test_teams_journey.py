"""Who is on which team, in the browser, on the demo organisation where every team
keeps "Sales team standard": Ada, the programme admin, goes from Programme to Teams,
where the three demo teams are listed by name with their leads and eight people each;
looking for "mid" leaves Mid-Market Central alone. She makes a new team without a name
first: it stays on the page saying a team needs a name, and nothing is kept. Named
"Inbound" and led by Marcus Chen, it is made (and audited) and she lands on its page,
where she adds Aisha Bello from Enterprise East and Jonas Weber from EMEA Growth: both
are listed, and as Inbound keeps no cadence their 1:1s stay with their own leads.

On Mid-Market Central she takes Owen Murphy off: the page says his history stays, he
is under "Left the team", and his weekly 1:1 with Marcus has ended. Added back, he has
a live 1:1 with Marcus again. The list and a team's page are accessible and fit a
desktop and a phone; no page logs a console error beyond the refused team's 400.

She then gives Mid-Market Central Sofia Alvarez, who leads Enterprise East, as its
lead: it is saved, and every member's live 1:1 is now with Sofia (the first version
read the policy once per member, an N+1 the tests' detector answered with a 500)."""

import pytest
from playwright.sync_api import Locator, Page, expect

from cadence.models import CadencePlan, EndReason, PolicyAssignment
from coaching.models import SessionKind
from devdata.demo.cadence import POLICY, seed_cadence
from people.models import AuditEvent, Team, TeamMembership, User
from tests.e2e.conftest import sign_in
from tests.e2e.screens import check_both_widths

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

NEW_TEAM = "Inbound"
TEAM = "Mid-Market Central"  # Marcus Chen's eight reps; keeps "Sales team standard"
LEAD = "Marcus Chen"
NEW_LEAD = "Sofia Alvarez"  # leads Enterprise East
JOINERS = ["Aisha Bello", "Jonas Weber"]  # on Enterprise East and on EMEA Growth
LEAVER = "Owen Murphy"  # on Mid-Market Central
LISTED = [
    ["EMEA Growth", "Lena Fischer", "8"],
    ["Enterprise East", "Sofia Alvarez", "8"],
    ["Mid-Market Central", "Marcus Chen", "8"],
]
REFUSED_IN_CONSOLE = (
    "Failed to load resource: the server responded with a status of 400 (Bad Request)"
)


def person(name: str) -> User:
    return User.objects.get(display_name=name)


def teams_table(page: Page) -> Locator:
    return page.get_by_role("table", name="Each team, its lead and how many are on it")


def listed_rows(page: Page) -> Locator:
    return teams_table(page).locator("tbody").get_by_role("row")


def team_row(page: Page, team: str) -> Locator:
    return listed_rows(page).filter(has=page.get_by_role("rowheader", name=team, exact=True))


def members_table(page: Page, team: str) -> Locator:
    return page.get_by_role("table", name=f"Who is on {team} and since when")


def member_names(page: Page, team: str) -> Locator:
    return members_table(page, team).get_by_role("rowheader")


def left_the_team(page: Page) -> Locator:
    return page.get_by_role("region", name="Left the team")


def submit(page: Page, button: Locator):
    """Press a form's button; the response the form led to."""
    with page.expect_navigation() as navigation:
        button.click()
    return navigation.value


def live_one_on_ones(coachee: User):
    return CadencePlan.objects.live().filter(kind=SessionKind.ONE_ON_ONE, coachee=coachee)


def audited(verb: str, actor: User, team: Team):
    return AuditEvent.objects.filter(verb=verb, actor=actor, target_id=str(team.pk))


def test_a_programme_admin_makes_a_team_and_moves_people(page: Page, live_server, demo_org):
    seed_cadence()  # every demo team keeps the demo's policy, its plans made
    admin = User.objects.get(email=demo_org.admin)
    marcus = person(LEAD)
    team = Team.objects.get(name=TEAM)
    assert team.lead == marcus
    assignment = PolicyAssignment.objects.get(team=team, ended_at__isnull=True)
    assert assignment.policy.name == POLICY
    owen = person(LEAVER)
    assert live_one_on_ones(owen).get().coach == marcus
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # --- 1. From Programme to Teams: the demo's three, and a search -----------------------
    sign_in(page, live_server, demo_org.admin, demo_org.password)
    expect(page.get_by_role("heading", level=1)).to_have_text("Programme")
    with page.expect_navigation():
        page.get_by_role("main").get_by_role("link", name="Teams", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/programme/teams/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Teams")
    rows = listed_rows(page)
    expect(rows).to_have_count(3)
    for row, cells in zip(rows.all(), LISTED, strict=True):
        expect(row.get_by_role("rowheader")).to_have_text(cells[0])
        expect(row.get_by_role("cell")).to_have_text(cells[1:])
    check_both_widths(page, "journey-teams")

    page.get_by_label("Find a team", exact=True).fill("mid")
    with page.expect_navigation():
        page.get_by_role("button", name="Find", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/programme/teams/?q=mid")
    expect(listed_rows(page).get_by_role("rowheader")).to_have_text([TEAM])
    expect(page.get_by_role("link", name="Show all")).to_be_visible()

    # --- 2. A new team without a name stays, saying why; with one it is made ---------------
    new_team = page.get_by_role("region", name="New team")
    make = new_team.get_by_role("button", name="Make the team")
    response = submit(page, make)
    assert response is not None and response.status == 400
    expect(page.get_by_role("heading", level=1)).to_have_text("Teams")
    name_field = new_team.locator(".field").filter(has=page.get_by_label("Name", exact=True))
    expect(name_field.get_by_role("alert")).to_have_text("A team needs a name.")
    assert sorted(Team.objects.values_list("name", flat=True)) == [row[0] for row in LISTED]
    assert not AuditEvent.objects.filter(verb="team.created", actor=admin).exists()

    new_team.get_by_label("Name", exact=True).fill(NEW_TEAM)
    new_team.get_by_label("Lead", exact=True).select_option(label=LEAD)
    response = submit(page, make)
    assert response is not None and response.status == 200
    inbound = Team.objects.get(name=NEW_TEAM)
    assert inbound.lead == marcus
    expect(page).to_have_url(f"{live_server.url}/programme/teams/{inbound.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(NEW_TEAM)
    expect(page.get_by_role("status")).to_have_text(f"{NEW_TEAM} is made. Add its people.")
    expect(page.get_by_text("Nobody is on the team yet.")).to_be_visible()
    assert audited("team.created", admin, inbound).count() == 1

    # --- 3. Two people from other teams join it; it keeps no cadence, so theirs stay -------
    for name in JOINERS:
        page.get_by_label("Add someone", exact=True).select_option(label=name)
        submit(page, page.get_by_role("button", name="Add to the team"))
        expect(page).to_have_url(f"{live_server.url}/programme/teams/{inbound.pk}/#members-heading")
        expect(page.get_by_role("status")).to_have_text(f"{name} is on {NEW_TEAM} now.")
    names = member_names(page, NEW_TEAM)
    expect(names).to_have_count(2)
    for row, name in zip(names.all(), JOINERS, strict=True):
        expect(row).to_contain_text(name)
    picker = page.get_by_label("Add someone", exact=True)
    for name in JOINERS:  # no longer offered
        expect(picker.locator("option", has_text=name)).to_have_count(0)
    expect(page.get_by_role("heading", name="On the team")).to_contain_text("2")

    joiners = [person(name) for name in JOINERS]
    assert set(
        TeamMembership.objects.current().filter(team=inbound).values_list("person", flat=True)
    ) == {p.pk for p in joiners}
    assert sorted(
        audited("team.member_added", admin, inbound).values_list("data", flat=True),
        key=lambda d: d["person_id"],
    ) == sorted(({"person_id": p.pk} for p in joiners), key=lambda d: d["person_id"])
    for joiner in joiners:  # still on their own team too, their 1:1 with its lead
        own = TeamMembership.objects.current().exclude(team=inbound).get(person=joiner).team
        assert live_one_on_ones(joiner).get().coach_id == own.lead_id
    assert not CadencePlan.objects.filter(coachee__in=joiners, coach=marcus).exists()
    check_both_widths(page, "journey-team-new")

    # --- 4. Owen off Mid-Market Central: his history stays, his 1:1 ends; and back --------
    page.goto(f"{live_server.url}/programme/teams/?q=mid")
    with page.expect_navigation():
        teams_table(page).get_by_role("link", name=TEAM).click()
    expect(page).to_have_url(f"{live_server.url}/programme/teams/{team.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(TEAM)
    expect(member_names(page, TEAM)).to_have_count(8)
    expect(left_the_team(page)).to_have_count(0)
    submit(page, page.get_by_role("button", name=f"Take off {LEAVER}"))
    expect(page).to_have_url(f"{live_server.url}/programme/teams/{team.pk}/#members-heading")
    expect(page.get_by_role("status")).to_have_text(f"{LEAVER} is off {TEAM}; their history stays.")
    expect(member_names(page, TEAM)).to_have_count(7)
    expect(member_names(page, TEAM).filter(has_text=LEAVER)).to_have_count(0)
    expect(left_the_team(page).get_by_role("listitem")).to_have_count(1)
    expect(left_the_team(page).get_by_role("listitem")).to_contain_text(LEAVER)

    assert not TeamMembership.objects.current().filter(team=team, person=owen).exists()
    assert TeamMembership.objects.filter(team=team, person=owen, left_at__isnull=False).exists()
    assert not live_one_on_ones(owen).exists()
    ended = CadencePlan.objects.get(kind=SessionKind.ONE_ON_ONE, coachee=owen)
    assert (ended.coach, ended.end_reason) == (marcus, EndReason.LEFT_TEAM)
    removed = audited("team.member_removed", admin, team).get()
    assert removed.data == {"person_id": owen.pk}

    page.get_by_label("Add someone", exact=True).select_option(label=LEAVER)
    submit(page, page.get_by_role("button", name="Add to the team"))
    expect(page.get_by_role("status")).to_have_text(f"{LEAVER} is on {TEAM} now.")
    expect(member_names(page, TEAM)).to_have_count(8)
    expect(member_names(page, TEAM).filter(has_text=LEAVER)).to_have_count(1)
    expect(left_the_team(page).get_by_role("listitem")).to_contain_text(LEAVER)  # the old stay
    again = live_one_on_ones(owen).get()
    assert again.pk != ended.pk
    assert (again.coach, again.assignment) == (marcus, assignment)
    assert audited("team.member_added", admin, team).get().data == {"person_id": owen.pk}
    check_both_widths(page, "journey-team")

    # The list shows the new team, and everyone where they are now.
    page.goto(f"{live_server.url}/programme/teams/")
    expect(listed_rows(page).get_by_role("rowheader")).to_have_text(
        ["EMEA Growth", "Enterprise East", NEW_TEAM, TEAM]
    )
    expect(team_row(page, NEW_TEAM).get_by_role("cell")).to_have_text([LEAD, "2"])
    expect(team_row(page, TEAM).get_by_role("cell")).to_have_text([LEAD, "8"])

    # The browser reports the refused team's status, and nothing else.
    assert errors == [REFUSED_IN_CONSOLE], errors


def test_a_new_lead_takes_over_the_teams_one_on_ones(page: Page, live_server, demo_org):
    """Step 5 of the journey, on its own: Ada gives Mid-Market Central Sofia Alvarez as
    its lead; it is saved, and every member's live 1:1 is now with Sofia (the plans
    with Marcus end, "New manager"). Expected to fail for now, see the mark."""
    seed_cadence()
    admin = User.objects.get(email=demo_org.admin)
    marcus, sofia = person(LEAD), person(NEW_LEAD)
    team = Team.objects.get(name=TEAM)
    assignment = PolicyAssignment.objects.get(team=team, ended_at__isnull=True)
    members = set(
        TeamMembership.objects.current().filter(team=team).values_list("person", flat=True)
    )
    assert len(members) == 8
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    sign_in(page, live_server, demo_org.admin, demo_org.password)
    page.goto(f"{live_server.url}/programme/teams/{team.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(TEAM)
    edit = page.get_by_role("region", name="Name and lead")
    expect(edit.get_by_label("Name", exact=True)).to_have_value(TEAM)
    expect(edit.get_by_label("Lead", exact=True)).to_have_value(str(marcus.pk))
    edit.get_by_label("Lead", exact=True).select_option(label=NEW_LEAD)
    response = submit(page, edit.get_by_role("button", name="Save"))
    assert response is not None and response.status == 200, response and response.status
    expect(page).to_have_url(f"{live_server.url}/programme/teams/{team.pk}/")
    expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.get_by_text(f"Led by {NEW_LEAD} · 8 on the team.")).to_be_visible()
    expect(edit.get_by_label("Lead", exact=True)).to_have_value(str(sofia.pk))

    team.refresh_from_db()
    assert team.lead == sofia
    plans = CadencePlan.objects.live().filter(kind=SessionKind.ONE_ON_ONE, coachee__in=members)
    assert sorted(plans.values_list("coachee", flat=True)) == sorted(members)  # one each
    assert set(plans.values_list("coach", flat=True)) == {sofia.pk}
    assert set(plans.values_list("assignment", flat=True)) == {assignment.pk}
    old = CadencePlan.objects.filter(kind=SessionKind.ONE_ON_ONE, coach=marcus, coachee__in=members)
    assert set(old.values_list("end_reason", flat=True)) == {EndReason.NEW_MANAGER}
    changed = audited("team.lead_changed", admin, team).get()
    assert changed.data == {"from_lead_id": marcus.pk, "to_lead_id": sofia.pk}
    assert not audited("team.renamed", admin, team).exists()

    page.goto(f"{live_server.url}/programme/teams/")
    expect(team_row(page, TEAM).get_by_role("cell")).to_have_text([NEW_LEAD, "8"])
    assert errors == [], errors
