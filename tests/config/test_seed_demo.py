import pytest
from django.core.management import call_command

from people.models import ReportingLine, Team, TeamMembership, User
from people.roles import Role
from people.selectors import roles_of


@pytest.mark.django_db
def test_it_builds_the_demo_organisation_and_prints_every_login(capsys):
    call_command("seed_demo")
    out = capsys.readouterr().out
    assert User.objects.count() == 30
    assert Team.objects.count() == 3
    for person in User.objects.all():
        assert person.email in out
        assert person.check_password("tandem-demo-2026")
    time_zones = set(User.objects.values_list("time_zone", flat=True))
    assert any(tz.startswith("America/") for tz in time_zones)
    assert any(tz.startswith("Europe/") for tz in time_zones)


@pytest.mark.django_db
def test_every_role_is_represented():
    call_command("seed_demo")
    by_email = {u.email: u for u in User.objects.all()}
    assert Role.MANAGER_OF_MANAGERS in roles_of(by_email["daniel.mensah@example.com"])
    assert Role.MANAGER in roles_of(by_email["sofia.alvarez@example.com"])
    assert Role.HR in roles_of(by_email["helen.park@example.com"])
    assert Role.PROGRAMME_ADMIN in roles_of(by_email["ada.okafor@example.com"])
    assert roles_of(by_email["aisha.bello@example.com"]) == {Role.REP}


@pytest.mark.django_db
def test_running_it_again_changes_nothing():
    call_command("seed_demo")
    counts = (
        User.objects.count(),
        ReportingLine.objects.count(),
        Team.objects.count(),
        TeamMembership.objects.count(),
    )
    call_command("seed_demo")
    assert counts == (
        User.objects.count(),
        ReportingLine.objects.count(),
        Team.objects.count(),
        TeamMembership.objects.count(),
    )
