"""People in the app (`/programme/people/`), for programme admins: the list searched
by name or email, here or deactivated, 25 a page at the same cost whatever the size; a
new person; a person's page to change their name and time zone, their manager, their
appointments, and to deactivate or reactivate them — each through the services, so it
is audited and the reporting line keeps its history. Bad input is a 400 with the reason
and nothing saved; the guards of the admin site hold here too; everyone else gets 404
(also in the authorization matrix)."""

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from people.models import AuditEvent, ReportingLine, User
from people.roles import Role
from people.selectors import roles_of
from people.services import account_deactivate
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
LIST = "/programme/people/"


def url(person, rest=""):
    return f"{LIST}{person.pk}/{rest}"


def errors_in(response) -> list[str]:
    return [html.unescape(error) for error in _errors_in(response)]


def _errors_in(response) -> list[str]:
    return re.findall(r'class="error" role="alert">([^<]+)<', response.content.decode()) + [
        m.strip()
        for m in re.findall(
            r'class="errors" role="alert">(?:<p>)?([^<]+)<', response.content.decode()
        )
    ]


def verbs() -> list[str]:
    events = AuditEvent.objects.exclude(verb__startswith="auth.").order_by("pk")
    return list(events.values_list("verb", flat=True))


def listed(response) -> str:
    """The list's table alone (the new-person form offers everyone as a manager)."""
    body = response.content.decode()
    return body[body.index("<tbody>") : body.index("</tbody>")] if "<tbody>" in body else ""


@pytest.fixture
def admin(org, client_for):
    client = client_for(org.admin)
    AuditEvent.objects.all().delete()  # the org's own making
    return client


def test_the_list_shows_people_with_manager_and_appointments_and_finds_them(admin, org):
    body = listed(admin.get(LIST))
    assert f'<a href="{url(org.rep)}">Rita Rep</a>' in body
    row = re.search(r"Harriet HR</a>.*?</tr>", body, re.S).group(0)
    assert "Hana Head" in row and ">HR<" in row
    found = listed(admin.get(LIST, {"q": "other.rep@"}))
    assert "Olga Outsider" in found and "Rita Rep" not in found
    nothing = admin.get(LIST, {"q": "zebra"}).content.decode()
    assert "Nobody's name or email holds “zebra”." in nothing


def test_the_tabs_part_people_here_from_those_who_left(admin, org):
    account_deactivate(actor=None, person=org.other_rep)
    here = admin.get(LIST).content.decode()
    assert "Olga Outsider" not in listed(admin.get(LIST))
    assert re.search(r'aria-current="page">Here <span class="count">7<', here)
    left = listed(admin.get(LIST, {"show": "left"}))
    assert "Olga Outsider" in left and "Rita Rep" not in left
    everyone = listed(admin.get(LIST, {"show": "all"}))
    assert "Olga Outsider" in everyone and "Rita Rep" in everyone and "Deactivated" in everyone


@pytest.mark.parametrize("query", [{"show": "gone"}, {"q": "x" * 101}, {"page": "0"}])
def test_a_bad_search_is_a_400_with_the_list_still_shown(admin, org, query):
    response = admin.get(LIST, query)
    assert response.status_code == 400 and "Rita Rep" in response.content.decode()


def test_a_new_person_is_added_with_their_manager_and_audited(admin, org):
    response = admin.post(
        f"{LIST}new/",
        {
            "display_name": " Priya Raman ",
            "email": "Priya.Raman@Example.com",
            "time_zone": "Asia/Kolkata",
            "manager": org.manager.pk,
        },
    )
    priya = User.objects.get(email="priya.raman@example.com")
    assert response.status_code == 302 and response["Location"] == url(priya)
    assert (priya.display_name, priya.time_zone, priya.reports_to) == (
        "Priya Raman",
        "Asia/Kolkata",
        org.manager,
    )
    assert not priya.has_usable_password()
    assert verbs() == ["reporting_line.changed", "person.created"]
    page = admin.get(url(priya)).content.decode()
    assert "reports to Mia Manager" in page


@pytest.mark.parametrize(
    "data, message",
    [
        ({"email": "rep@EXAMPLE.com"}, "rep@example.com already belongs to someone."),
        ({"email": "not-an-address"}, "Enter a valid email address."),
        ({"display_name": ""}, "Give their name as others see it."),
        ({"time_zone": "Mars/Olympus"}, "Select a valid choice."),
        ({"manager": "999999"}, "Pick someone who is still here."),
    ],
)
def test_bad_input_for_a_new_person_is_a_400_and_nothing_is_saved(admin, org, data, message):
    before = User.objects.count()
    fields = {"display_name": "New One", "email": "new@example.com", "time_zone": "UTC"}
    response = admin.post(f"{LIST}new/", {**fields, **data})
    assert response.status_code == 400
    assert any(message in e for e in errors_in(response)), errors_in(response)
    assert User.objects.count() == before and verbs() == []


def test_name_and_time_zone_are_changed_and_audited_with_the_fields_only(admin, org):
    response = admin.post(url(org.rep), {"display_name": "Rita Ramos", "time_zone": "UTC"})
    assert response.status_code == 302
    org.rep.refresh_from_db()
    assert (org.rep.display_name, org.rep.time_zone) == ("Rita Ramos", "UTC")
    event = AuditEvent.objects.get(verb="person.changed")
    assert event.data == {"fields": ["display_name", "time_zone"]}
    same = admin.post(url(org.rep), {"display_name": "Rita Ramos", "time_zone": "UTC"}, follow=True)
    assert "Nothing changed." in same.content.decode() and verbs() == ["person.changed"]
    bad = admin.post(url(org.rep), {"display_name": "", "time_zone": "UTC"})
    assert bad.status_code == 400 and "Give their name as others see it." in errors_in(bad)


def test_a_new_manager_keeps_the_lines_history(admin, org):
    response = admin.post(url(org.rep, "manager/"), {"manager": org.other_manager.pk})
    assert response.status_code == 302
    org.rep.refresh_from_db()
    assert org.rep.reports_to == org.other_manager
    lines = ReportingLine.objects.filter(report=org.rep).order_by("started_at", "pk")
    assert [(line.manager, line.ended_at is None) for line in lines] == [
        (org.manager, False),
        (org.other_manager, True),
    ]
    page = admin.get(url(org.rep)).content.decode()
    history = page.split("<h3>History</h3>")[1].split("</ul>")[0]
    assert history.index("Omar Other") < history.index("Mia Manager")
    assert verbs() == ["reporting_line.changed"]
    cleared = admin.post(url(org.rep, "manager/"), {"manager": ""})
    assert cleared.status_code == 302
    org.rep.refresh_from_db()
    assert org.rep.reports_to is None


@pytest.mark.parametrize(
    "who, manager, message",
    [
        ("rep", "rep", "A person cannot report to themselves."),
        ("manager", "rep", "Rita Rep already reports to Mia Manager; that would make a loop."),
    ],
)
def test_a_refused_manager_changes_nothing(admin, org, who, manager, message):
    person = getattr(org, who)
    before = person.reports_to_id
    response = admin.post(url(person, "manager/"), {"manager": getattr(org, manager).pk})
    assert response.status_code == 400 and message in errors_in(response)
    person.refresh_from_db()
    assert person.reports_to_id == before and verbs() == []


def test_appointments_are_granted_and_revoked_and_audited(admin, org):
    granted = admin.post(url(org.rep, "appointments/"), {"roles": ["hr", "programme_admin"]})
    assert granted.status_code == 302
    assert {Role.HR, Role.PROGRAMME_ADMIN} <= roles_of(org.rep)
    org.rep.refresh_from_db()
    assert org.rep.is_staff  # programme admins open the admin site
    revoked = admin.post(url(org.rep, "appointments/"), {"roles": ["hr"]})
    assert revoked.status_code == 302
    org.rep.refresh_from_db()
    assert Role.PROGRAMME_ADMIN not in roles_of(org.rep) and not org.rep.is_staff
    assert verbs() == ["role.granted", "role.granted", "role.revoked"]
    bad = admin.post(url(org.rep, "appointments/"), {"roles": ["manager"]})
    assert bad.status_code == 400 and len(verbs()) == 3


def test_your_own_appointments_and_deactivation_are_someone_elses(admin, org):
    page = admin.get(url(org.admin)).content.decode()
    assert "Your own appointments are changed by another programme admin." in page
    assert "Deactivate Adam Admin" not in page
    response = admin.post(url(org.admin, "appointments/"), {"roles": []})
    assert response.status_code == 400
    assert "Your own appointments are changed by someone else." in errors_in(response)
    left = admin.post(url(org.admin, "deactivate/"), {"reason": "departed"})
    assert left.status_code == 400
    assert "You cannot deactivate yourself: ask another programme admin." in errors_in(left)
    assert Role.PROGRAMME_ADMIN in roles_of(org.admin) and verbs() == []
    org.admin.refresh_from_db()
    assert org.admin.is_active


def test_deactivating_ends_every_sign_in_and_reactivating_lets_them_back(admin, org, client):
    Token.objects.create(user=org.rep)
    page = admin.get(url(org.manager)).content.decode()
    assert "Mia Manager has 2 direct reports: give them a new manager or lead first" in page
    response = admin.post(url(org.rep, "deactivate/"), {"reason": "departed"}, follow=True)
    assert "Rita Rep is deactivated" in response.content.decode()
    org.rep.refresh_from_db()
    assert not org.rep.is_active and not Token.objects.filter(user=org.rep).exists()
    event = AuditEvent.objects.get(verb="person.deactivated")
    assert event.data["reason"] == "departed" and event.data["api_tokens"] == 1
    assert "Let Rita Rep sign in again" in response.content.decode()
    back = admin.post(url(org.rep, "reactivate/"), follow=True)
    assert "Rita Rep can sign in again." in back.content.decode()
    org.rep.refresh_from_db()
    assert org.rep.is_active
    assert verbs() == ["person.deactivated", "person.reactivated"]


@pytest.mark.parametrize("reason", ["", "unspecified", "because"])
def test_a_deactivation_needs_one_of_the_reasons(admin, org, reason):
    response = admin.post(url(org.rep, "deactivate/"), {"reason": reason})
    assert response.status_code == 400
    org.rep.refresh_from_db()
    assert org.rep.is_active and verbs() == []


def test_only_a_superuser_changes_a_superuser(admin, org):
    boss = UserFactory(display_name="Sam Super", is_superuser=True, is_staff=True)
    for rest, data in [
        ("", {"display_name": "Renamed", "time_zone": "UTC"}),
        ("manager/", {"manager": org.head.pk}),
        ("appointments/", {"roles": ["hr"]}),
        ("deactivate/", {"reason": "security"}),
    ]:
        response = admin.post(url(boss, rest), data)
        assert response.status_code == 400, rest
        assert "Only a superuser changes a superuser's account." in errors_in(response)
    boss.refresh_from_db()
    assert (boss.display_name, boss.is_active, boss.reports_to) == ("Sam Super", True, None)
    assert verbs() == []


def test_a_persons_page_shows_their_teams_and_reports(admin, org):
    east = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=east, person=org.rep)
    rep_page = admin.get(url(org.rep)).content.decode()
    assert f'On <a href="/programme/teams/{east.pk}/">East</a>' in rep_page
    manager_page = admin.get(url(org.manager)).content.decode()
    assert f'Leads <a href="/programme/teams/{east.pk}/">East</a>' in manager_page
    assert "Rita Rep" in manager_page and "Pavel Peer" in manager_page


def test_the_manager_search_offers_people_still_here(admin, org, settings):
    settings.PEOPLE_PICKER_LIST_UP_TO = 1  # a search box, not a list
    account_deactivate(actor=None, person=org.other_rep)
    assert "/people/pick/managers/" in admin.get(url(org.rep)).content.decode()
    found = admin.get(
        "/people/pick/managers/", {"name": "manager", "id": "id_manager", "manager_search": "o"}
    ).content.decode()
    assert "Omar Other" in found and "Olga Outsider" not in found


def test_the_list_costs_the_same_at_two_sizes(admin, org):
    def queries(n):
        for _ in range(n):
            UserFactory(manager=org.manager, roles=["hr"])
        with CaptureQueriesContext(connection) as captured:
            assert admin.get(LIST).status_code == 200
        return len(captured)

    assert queries(2) == queries(12)


def test_a_persons_page_costs_the_same_at_two_sizes(admin, org):
    east = TeamFactory(lead=org.manager)

    def queries(n):
        for _ in range(n):
            TeamMembershipFactory(team=TeamFactory(lead=org.manager), person=org.manager)
            UserFactory(manager=org.manager)
        with CaptureQueriesContext(connection) as captured:
            assert admin.get(url(org.manager)).status_code == 200
        return len(captured)

    assert east and queries(2) == queries(12)


def test_everyone_else_gets_404_and_nothing_changes(org, client_for):
    AuditEvent.objects.all().delete()
    for who in (org.hr, org.manager, org.rep, org.head):
        client = client_for(who)
        assert client.get(LIST).status_code == 404
        assert client.get(url(org.peer)).status_code == 404
        assert client.post(f"{LIST}new/", {"email": "x@example.com"}).status_code == 404
        assert client.post(url(org.peer, "deactivate/"), {"reason": "departed"}).status_code == 404
        assert client.post(url(org.peer, "appointments/"), {"roles": ["hr"]}).status_code == 404
        assert client.get("/people/pick/managers/").status_code == 404
    org.peer.refresh_from_db()
    assert org.peer.is_active and verbs() == []


def test_ids_beyond_any_database_id_are_a_404(admin, org):
    huge = 2**64
    assert admin.get(f"{LIST}{huge}/").status_code == 404
    assert admin.post(f"{LIST}{huge}/manager/", {"manager": org.head.pk}).status_code == 404
    assert admin.post(url(org.rep, "manager/"), {"manager": str(huge)}).status_code == 400
