import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from people.models import AuditEvent, ReportingLine, Team, TeamMembership, User
from people.roles import Role
from people.selectors import roles_of
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "people.csv"
HEADER = "email,name,manager_email,team,time_zone,role\n"

ORG = HEADER + (
    "ada@example.com,Ada Lovelace,,Leadership,Europe/London,manager\n"
    "ben@example.com,Ben Okoro,ada@example.com,Sales,Europe/Berlin,manager\n"
    "cam@example.com,Cam Silva,ben@example.com,Sales;Enablement,America/Sao_Paulo,rep\n"
    "dee@example.com,Dee Park,ben@example.com,Sales,,\n"
    "eve@example.com,Eve Adams,ada@example.com,,America/New_York,hr\n"
    "fay@example.com,Fay Khan,ada@example.com,Enablement,Asia/Kolkata,programme admin\n"
)


def write(tmp_path, text, *, name="people.csv", bom=False):
    path = tmp_path / name
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode())
    return path


def import_people(path, *args):
    """Run the command; returns its stdout."""
    out = io.StringIO()
    call_command("import_people", str(path), *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def import_errors(path, *args):
    """Run the command expecting it to refuse the file; returns the stderr lines."""
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_people", str(path), *args, stdout=io.StringIO(), stderr=err)
    return err.getvalue().splitlines()


def counts():
    return (
        User.objects.count(),
        Team.objects.count(),
        TeamMembership.objects.count(),
        ReportingLine.objects.count(),
        AuditEvent.objects.count(),
    )


def person(email):
    return User.objects.get(email__iexact=email)


@pytest.mark.django_db
def test_it_creates_people_reporting_lines_teams_leads_and_roles(tmp_path):
    out = import_people(write(tmp_path, ORG))

    assert "Imported 6 people: 6 created, 0 updated, 0 unchanged; 3 teams created." in out
    ada, ben, cam, dee = (person(f"{n}@example.com") for n in ("ada", "ben", "cam", "dee"))
    assert ada.reports_to is None
    assert ben.reports_to == ada
    assert cam.reports_to == ben
    assert cam.display_name == "Cam Silva" and cam.time_zone == "America/Sao_Paulo"
    assert dee.time_zone == "UTC"
    assert ReportingLine.objects.filter(ended_at__isnull=True).count() == 5

    sales = Team.objects.get(name="Sales")
    assert sales.lead == ben
    assert set(sales.memberships.values_list("person__email", flat=True)) == {
        "cam@example.com",
        "dee@example.com",
    }
    assert Team.objects.get(name="Leadership").lead == ada
    assert set(
        Team.objects.get(name="Enablement").memberships.values_list("person__email", flat=True)
    ) == {"cam@example.com", "fay@example.com"}

    assert Role.HR in roles_of(person("eve@example.com"))
    fay = person("fay@example.com")
    assert Role.PROGRAMME_ADMIN in roles_of(fay)
    assert fay.is_staff
    assert not ada.has_usable_password()


@pytest.mark.django_db
def test_it_records_one_import_audit_event_with_counts_only(tmp_path):
    import_people(write(tmp_path, ORG))

    event = AuditEvent.objects.get(verb="people.imported")
    assert event.data == {"created": 6, "updated": 0, "unchanged": 0, "teams_created": 3}


@pytest.mark.django_db
def test_it_imports_the_example_file():
    out = import_people(EXAMPLE)

    assert "Imported 9 people: 9 created" in out
    assert User.objects.filter(reports_to__isnull=False).count() == 8


@pytest.mark.django_db
def test_it_reports_every_bad_row_with_its_line_number(tmp_path):
    UserFactory(email="gone@example.com", is_active=False)
    path = write(
        tmp_path,
        HEADER
        + "ok@example.com,Olu Kay,,,Europe/Paris,\n"  # line 2
        + "not-an-email,No Email,,,,\n"  # line 3
        + ",Blank Email,,,,\n"  # line 4
        + "noname@example.com,,,,,\n"  # line 5
        + f"long@example.com,{'x' * 151},,,,\n"  # line 6
        + "tz@example.com,Tia Zed,,,Mars/Olympus,\n"  # line 7
        + "role@example.com,Rae Ole,,,,ceo\n"  # line 8
        + "self@example.com,Sel F,self@example.com,,,\n"  # line 9
        + "orphan@example.com,Orph An,nobody@example.com,,,\n"  # line 10
        + "dead@example.com,Dee Ad,gone@example.com,,,\n"  # line 11
        + "OK@example.com,Olu Again,,,,\n",  # line 12
    )
    before = counts()

    errors = import_errors(path)

    assert errors == [
        "line 3: not-an-email is not a valid email address",
        "line 4: email is missing",
        "line 5: name is missing",
        "line 6: name is longer than 150 characters",
        "line 7: Mars/Olympus is not an IANA time zone (for example Europe/Berlin)",
        "line 8: unknown role ceo (use rep, manager, hr or programme_admin)",
        "line 9: manager_email is the person's own email",
        "line 10: manager nobody@example.com is neither in the file nor an existing person",
        "line 11: manager gone@example.com is deactivated",
        "line 12: ok@example.com is already on line 2",
    ]
    assert counts() == before


@pytest.mark.django_db
def test_it_counts_physical_lines_across_blank_lines_and_multiline_fields(tmp_path):
    path = write(
        tmp_path,
        HEADER
        + 'a@example.com,"Ann\nAnders",,,,\n'  # lines 2-3: a quoted name spans two
        + "\n"  # line 4: blank, skipped
        + "b@example.com,Bo,,,Nowhere/City,\n",  # line 5
    )

    assert import_errors(path) == [
        "line 5: Nowhere/City is not an IANA time zone (for example Europe/Berlin)"
    ]


@pytest.mark.django_db
def test_it_names_one_error_for_a_header_missing_columns(tmp_path):
    path = write(tmp_path, "email,name,team\nbad,,\n")

    assert import_errors(path) == [
        "line 1: missing required column(s): manager_email, time_zone, role "
        "(the header needs: email, name, manager_email, team, time_zone, role)"
    ]


@pytest.mark.django_db
def test_it_refuses_an_empty_file(tmp_path):
    errors = import_errors(write(tmp_path, ""))

    assert errors[0].startswith("line 1: the file is empty")


@pytest.mark.django_db
def test_it_accepts_a_bom_any_header_case_and_column_order(tmp_path):
    path = write(
        tmp_path,
        " Role , TIME_ZONE,Team,Manager_Email,NAME ,Email\n"
        "HR,europe/berlin,,,Bea Bom,Bea@Example.com\n",
        bom=True,
    )

    import_people(path)

    bea = person("bea@example.com")
    assert bea.display_name == "Bea Bom"
    assert bea.time_zone == "Europe/Berlin"
    assert Role.HR in roles_of(bea)


@pytest.mark.parametrize(
    "written", ["programme_admin", "Admin", "programme admin", "PROGRAMME ADMIN"]
)
@pytest.mark.django_db
def test_it_accepts_the_names_of_the_programme_admin_role(tmp_path, written):
    import_people(write(tmp_path, HEADER + f"pa@example.com,Pat Admin,,,,{written}\n"))

    assert Role.PROGRAMME_ADMIN in roles_of(person("pa@example.com"))


@pytest.mark.django_db
def test_it_changes_nothing_when_run_again(tmp_path):
    path = write(tmp_path, ORG)
    import_people(path)
    before = counts()

    out = import_people(path)

    assert "Imported 6 people: 0 created, 0 updated, 6 unchanged; 0 teams created." in out
    # Only the second import's own audit event is new.
    assert counts() == before[:-1] + (before[-1] + 1,)


@pytest.mark.django_db
def test_it_updates_only_what_differs_for_existing_people(tmp_path):
    boss = UserFactory(email="boss@example.com", display_name="Bo Boss")
    UserFactory(email="Kim@Example.com", display_name="Kim Old", time_zone="UTC", manager=boss)
    sales = TeamFactory(name="Sales", lead=boss)
    path = write(
        tmp_path,
        HEADER
        + "KIM@example.com,Kim New,BOSS@example.com,sales,Asia/Tokyo,\n"
        + "boss@example.com,Bo Boss,,SALES,Europe/Berlin,manager\n",
    )
    lines_before = ReportingLine.objects.count()

    out = import_people(path)

    assert "Imported 2 people: 0 created, 1 updated, 1 unchanged; 0 teams created." in out
    kim = person("kim@example.com")
    assert (kim.display_name, kim.time_zone, kim.reports_to) == ("Kim New", "Asia/Tokyo", boss)
    assert ReportingLine.objects.count() == lines_before
    assert TeamMembership.objects.current().filter(team=sales, person=kim).exists()
    assert Team.objects.count() == 1


@pytest.mark.django_db
def test_it_closes_the_old_reporting_line_when_the_manager_changes(tmp_path):
    path = write(tmp_path, ORG)
    import_people(path)
    path.write_text(ORG.replace("dee@example.com,Dee Park,ben@", "dee@example.com,Dee Park,ada@"))

    out = import_people(path)

    assert "1 updated, 5 unchanged" in out
    dee = person("dee@example.com")
    lines = ReportingLine.objects.filter(report=dee).order_by("started_at")
    assert [(line.manager.email, line.ended_at is None) for line in lines] == [
        ("ben@example.com", False),
        ("ada@example.com", True),
    ]
    assert dee.reports_to == person("ada@example.com")


@pytest.mark.django_db
def test_it_imports_managers_before_their_reports_whatever_the_file_order(tmp_path):
    rows = ORG.splitlines(keepends=True)
    path = write(tmp_path, rows[0] + "".join(reversed(rows[1:])))

    import_people(path)

    assert person("cam@example.com").reports_to == person("ben@example.com")
    assert person("ben@example.com").reports_to == person("ada@example.com")


@pytest.mark.django_db
def test_it_can_turn_an_existing_reporting_line_around(tmp_path):
    # ann reports to bob today; the file makes bob report to ann. Done top-down, the
    # change never passes through a loop.
    bob = UserFactory(email="bob@example.com")
    UserFactory(email="ann@example.com", manager=bob)
    path = write(
        tmp_path,
        HEADER + "bob@example.com,Bob,ann@example.com,,,\nann@example.com,Ann,,,,\n",
    )

    import_people(path)

    assert person("bob@example.com").reports_to == person("ann@example.com")
    assert person("ann@example.com").reports_to is None


@pytest.mark.django_db
def test_it_rejects_a_reporting_cycle_within_the_file(tmp_path):
    path = write(
        tmp_path,
        HEADER
        + "top@example.com,Top,,,,\n"
        + "a@example.com,A,c@example.com,,,\n"  # line 3
        + "b@example.com,B,a@example.com,,,\n"
        + "c@example.com,C,b@example.com,,,\n",
    )

    assert import_errors(path) == [
        "line 3: reporting cycle: a@example.com → c@example.com → b@example.com → a@example.com"
    ]
    assert not User.objects.exists()


@pytest.mark.django_db
def test_it_rejects_a_cycle_through_existing_reporting_lines(tmp_path):
    # In the database: low → mid → high. The file makes high report to low.
    high = UserFactory(email="high@example.com")
    mid = UserFactory(email="mid@example.com", manager=high)
    UserFactory(email="low@example.com", manager=mid)
    path = write(tmp_path, HEADER + "high@example.com,High,low@example.com,,,\n")
    before = counts()

    assert import_errors(path) == [
        "line 2: reporting cycle: high@example.com → low@example.com → mid@example.com"
        " → high@example.com"
    ]
    assert counts() == before
    assert person("high@example.com").reports_to is None


@pytest.mark.django_db
def test_it_names_both_lines_of_a_duplicate_email_whatever_its_case(tmp_path):
    path = write(
        tmp_path,
        HEADER + "sam@example.com,Sam,,,,\nx@example.com,X,,,,\nSAM@Example.com,Sam B,,,,\n",
    )

    assert import_errors(path) == ["line 4: sam@example.com is already on line 2"]


@pytest.mark.django_db
def test_it_rejects_two_leads_for_one_team(tmp_path):
    path = write(
        tmp_path,
        HEADER + "a@example.com,A,,Sales,,manager\nb@example.com,B,,sales,,manager\n",
    )

    assert import_errors(path) == ["line 3: team sales already has a lead on line 2"]


@pytest.mark.django_db
def test_it_links_to_managers_and_teams_already_in_the_database(tmp_path):
    boss = UserFactory(email="boss@example.com")
    team = TeamFactory(name="Support", lead=boss)
    TeamMembershipFactory(team=team)
    path = write(tmp_path, HEADER + "new@example.com,New Person,Boss@Example.com,support,,\n")

    out = import_people(path)

    assert "0 teams created" in out
    new = person("new@example.com")
    assert new.reports_to == boss
    assert TeamMembership.objects.current().filter(team=team, person=new).exists()


@pytest.mark.django_db
def test_it_makes_a_manager_the_lead_of_an_existing_team_not_a_member(tmp_path):
    team = TeamFactory(name="Support")
    path = write(tmp_path, HEADER + "lee@example.com,Lee,,Support,,manager\n")

    import_people(path)

    lee = person("lee@example.com")
    team.refresh_from_db()
    assert team.lead == lee
    assert not TeamMembership.objects.filter(team=team, person=lee).exists()
    assert AuditEvent.objects.filter(verb="team.lead_changed", target_id=str(team.pk)).exists()


@pytest.mark.django_db
def test_it_writes_nothing_on_a_dry_run(tmp_path):
    UserFactory(email="ada@example.com", display_name="Ada Old")
    before = counts()

    out = import_people(write(tmp_path, ORG), "--dry-run")

    assert out.strip() == (
        "Dry run, nothing was written. Would import 6 people: "
        "5 created, 1 updated, 0 unchanged; 3 teams created."
    )
    assert counts() == before
    assert person("ada@example.com").display_name == "Ada Old"


@pytest.mark.django_db
def test_it_reports_errors_on_a_dry_run_too(tmp_path):
    path = write(tmp_path, HEADER + "a@example.com,A,,,Bad/Zone,\n")

    assert import_errors(path, "--dry-run") == [
        "line 2: Bad/Zone is not an IANA time zone (for example Europe/Berlin)"
    ]


@pytest.mark.django_db
def test_it_refuses_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes(HEADER.encode() + "jo@example.com,Jos\xe9,,,,\n".encode("latin-1"))

    with pytest.raises(CommandError, match="line 2: not UTF-8 text"):
        call_command("import_people", str(path))


@pytest.mark.django_db
def test_it_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_people", str(tmp_path / "nope.csv"))


@pytest.mark.django_db
def test_it_ignores_extra_columns_but_catches_a_row_shifted_by_an_unquoted_comma(tmp_path):
    path = write(
        tmp_path,
        "email,name,manager_email,team,time_zone,role,notes\n"
        "ok@example.com,Olu,,,,,likes tea\n"
        "bad@example.com,Smith, John,,,,,likes coffee\n",
    )

    assert import_errors(path) == [
        "line 3: 8 fields but the header has 7",
        "line 3: manager john is neither in the file nor an existing person",
    ]
