"""People through the API (/api/v1/people/), for programme admins alone (404 to everyone
else on every route): list, search and the three states, read a record, add someone,
change their name, time zone and manager, set their appointments, deactivate and
reactivate them — through the services the People pages use, audited, with their
guards (not your own appointments, not yourself, a superuser only by a superuser).
Bad input is a 400 with field messages and nothing saved; nobody is deleted (405); the
list and a record cost the same queries at two sizes. Answers match the published
schema."""

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from people.models import AuditEvent, ReportingLine, SignInSession, User
from people.roles import GROUP_FOR_ROLE, Role
from people.services import account_deactivate, reporting_line_change
from people.services_people import SUPERUSER_ONLY
from people.services_teams import team_member_remove
from tests.support.api_schema import assert_conforms
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/people/"
DETAIL = "/api/v1/people/{id}/"
APPOINTMENTS = "/api/v1/people/{id}/appointments/"
DEACTIVATE = "/api/v1/people/{id}/deactivate/"
REACTIVATE = "/api/v1/people/{id}/reactivate/"


def api(user):
    client = APIClient()
    client.force_login(user)
    return client


def ref(person) -> dict:
    return {"id": person.pk, "display_name": person.display_name}


def verbs() -> list[str]:
    """The audit events of changes to people, oldest first."""
    events = AuditEvent.objects.filter(verb__regex=r"^(person|reporting_line|role)\.")
    return list(events.order_by("pk").values_list("verb", flat=True))


@pytest.fixture
def quiet(org):
    """The organisation with the events its set-up wrote forgotten."""
    AuditEvent.objects.all().delete()
    return org


def names(body) -> list[str]:
    return [p["display_name"] for p in body["results"]]


# --- reading ----------------------------------------------------------------------


def test_the_list_shows_everyone_here_by_name_with_manager_and_appointments(org):
    response = api(org.admin).get(URL)
    assert response.status_code == 200
    assert_conforms(response, "get", URL)
    body = response.json()
    assert body["count"] == 8
    assert names(body) == [
        "Adam Admin",
        "Hana Head",
        "Harriet HR",
        "Mia Manager",
        "Olga Outsider",
        "Omar Other",
        "Pavel Peer",
        "Rita Rep",
    ]
    admin, head, hr = body["results"][:3]
    assert admin == {
        "id": org.admin.pk,
        "display_name": "Adam Admin",
        "email": "admin@example.com",
        "time_zone": "Europe/Berlin",
        "welcome_sent_at": None,
        "is_active": True,
        "reports_to": ref(org.head),
        "appointments": ["programme_admin"],
    }
    assert head["reports_to"] is None and head["appointments"] == []
    assert hr["appointments"] == ["hr"]


def test_the_list_searches_name_and_email_and_shows_each_state(org):
    account_deactivate(actor=org.admin, person=org.other_rep, reason="departed")
    client = api(org.admin)

    assert names(client.get(URL, {"q": "rit"}).json()) == ["Rita Rep"]
    assert names(client.get(URL, {"q": "OTHER.MANAGER@"}).json()) == ["Omar Other"]
    assert client.get(URL, {"q": "nobody like that"}).json()["count"] == 0
    here = client.get(URL).json()
    assert here["count"] == 7 and "Olga Outsider" not in names(here)
    assert names(client.get(URL, {"show": ""}).json()) == names(here)
    left = client.get(URL, {"show": "left"})
    assert_conforms(left, "get", URL)
    assert names(left.json()) == ["Olga Outsider"]
    assert left.json()["results"][0]["is_active"] is False
    assert client.get(URL, {"show": "all"}).json()["count"] == 8
    assert names(client.get(URL, {"show": "left", "q": "rita"}).json()) == []


@pytest.mark.parametrize(
    "params, field",
    [
        ({"show": "gone"}, "show"),
        ({"show": "Left"}, "show"),
        ({"q": "x" * 101}, "q"),
        ({"q": "nul\x00"}, "q"),
    ],
)
def test_a_bad_search_is_a_400(org, params, field):
    response = api(org.admin).get(URL, params)
    assert response.status_code == 400
    assert_conforms(response, "get", URL)
    assert field in response.json()


def test_a_search_of_100_characters_is_fine(org):
    assert api(org.admin).get(URL, {"q": "x" * 100}).status_code == 200


def test_a_record_shows_the_line_history_reports_and_teams(org):
    reporting_line_change(person=org.manager, manager=org.other_manager, actor=org.admin)
    east = TeamFactory(name="East", lead=org.manager)
    west = TeamFactory(name="West", lead=org.manager)
    TeamMembershipFactory(team=west, person=org.manager)
    TeamMembershipFactory(team=east, person=org.manager)
    gone = TeamMembershipFactory(team=TeamFactory(name="Old", lead=None), person=org.manager)
    team_member_remove(team=gone.team, person=org.manager)
    account_deactivate(actor=org.admin, person=org.peer, reason="departed")

    response = api(org.admin).get(DETAIL.format(id=org.manager.pk))
    assert response.status_code == 200
    assert_conforms(response, "get", DETAIL)
    body = response.json()
    assert {k: body[k] for k in ("id", "email", "is_active", "reports_to", "appointments")} == {
        "id": org.manager.pk,
        "email": "manager@example.com",
        "is_active": True,
        "reports_to": ref(org.other_manager),
        "appointments": [],
    }
    now, before = body["reporting_lines"]
    assert now["manager"] == ref(org.other_manager) and now["ended_at"] is None
    assert before["manager"] == ref(org.head) and before["ended_at"] == now["started_at"]
    assert body["reports"] == [ref(org.rep)]  # Pavel left: not counted
    assert body["reports_count"] == 1
    assert [t["team"] for t in body["teams"]] == [
        {"id": east.pk, "name": "East"},
        {"id": west.pk, "name": "West"},
    ]
    assert all(t["joined_at"] for t in body["teams"])
    assert body["teams_led"] == [{"id": east.pk, "name": "East"}, {"id": west.pk, "name": "West"}]


def test_a_missing_person_is_a_404(org):
    client = api(org.admin)
    for pk in (999999, 2**63 - 1, 2**63, 2**64, 10**30):
        for response in (
            client.get(DETAIL.format(id=pk)),
            client.patch(DETAIL.format(id=pk), {"display_name": "X"}, format="json"),
            client.put(APPOINTMENTS.format(id=pk), {"roles": []}, format="json"),
            client.post(DEACTIVATE.format(id=pk), {"reason": "departed"}, format="json"),
            client.post(REACTIVATE.format(id=pk)),
        ):
            assert response.status_code == 404, (pk, response.request["REQUEST_METHOD"])
    assert_conforms(client.get(DETAIL.format(id=999999)), "get", DETAIL)


def test_nobody_is_deleted_or_replaced(org):
    client = api(org.admin)
    url = DETAIL.format(id=org.rep.pk)
    assert client.delete(url).status_code == 405
    assert client.put(url, {"display_name": "X"}, format="json").status_code == 405
    assert client.get(APPOINTMENTS.format(id=org.rep.pk)).status_code == 405
    assert client.get(DEACTIVATE.format(id=org.rep.pk)).status_code == 405
    assert User.objects.filter(pk=org.rep.pk, display_name="Rita Rep").exists()


# --- adding someone ---------------------------------------------------------------


def test_an_admin_adds_someone_with_a_manager(quiet):
    org = quiet
    body = {
        "email": "  New.Person@Example.com ",
        "display_name": "  Nina New ",
        "time_zone": "Asia/Tokyo",
        "manager": org.manager.pk,
    }
    response = api(org.admin).post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    assert_conforms(response, "post", URL)
    person = User.objects.get(email="new.person@example.com")
    answer = response.json()
    assert answer["id"] == person.pk and answer["display_name"] == "Nina New"
    assert answer["time_zone"] == "Asia/Tokyo" and answer["is_active"] is True
    assert answer["reports_to"] == ref(org.manager)
    assert [line["manager"] for line in answer["reporting_lines"]] == [ref(org.manager)]
    assert answer["appointments"] == [] and answer["teams"] == [] and answer["reports"] == []
    assert not person.has_usable_password()
    assert verbs() == ["reporting_line.changed", "person.created"]
    created = AuditEvent.objects.get(verb="person.created")
    assert created.actor == org.admin and created.target_id == str(person.pk)


def test_the_time_zone_is_utc_and_the_manager_nobody_unless_given(org):
    response = api(org.admin).post(
        URL, {"email": "a@example.com", "display_name": "A"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["time_zone"] == "UTC" and response.json()["reports_to"] is None
    with_null = {"email": "b@example.com", "display_name": "B", "manager": None}
    assert api(org.admin).post(URL, with_null, format="json").status_code == 201


@pytest.mark.parametrize(
    "body, field, message",
    [
        ({"email": "REP@example.com"}, "email", "rep@example.com already belongs to someone."),
        ({"email": "not an address"}, "email", None),
        ({"email": ""}, "email", None),
        ({"time_zone": "Mars/Olympus"}, "time_zone", None),
        ({"time_zone": ""}, "time_zone", None),
        ({"display_name": "   "}, "display_name", None),
        ({"display_name": "x" * 151}, "display_name", None),
        ({"display_name": "nul\x00"}, "display_name", None),
        ({"manager": 999999}, "manager", "No active person with id 999999."),
        ({"manager": 2**63}, "manager", None),
        ({"manager": "Mia"}, "manager", None),
        ({"manager": 1.5}, "manager", "Give a person's id (a number), not float."),
        ({"manager": True}, "manager", "Give a person's id (a number), not bool."),
        ({"manager": "gone"}, "manager", None),
        ({"roles": ["hr"]}, "roles", "Unknown field."),
    ],
)
def test_bad_input_to_create_is_a_400_and_nothing_is_saved(quiet, body, field, message):
    org = quiet
    gone = UserFactory(is_active=False)
    data = {"email": "new@example.com", "display_name": "Nina New", **body}
    if data.get("manager") == "gone":
        data["manager"] = gone.pk
    before = User.objects.count()
    response = api(org.admin).post(URL, data, format="json")
    assert response.status_code == 400, response.json()
    assert_conforms(response, "post", URL)
    assert field in response.json()
    if message:
        assert response.json()[field] == [message]
    assert User.objects.count() == before
    assert verbs() == []


def test_an_address_taken_a_moment_ago_is_a_400_not_a_500(org, monkeypatch):
    # The check before the insert saw nobody; the unique index still says no.
    monkeypatch.setattr(User.objects, "with_email", lambda email: User.objects.none())
    response = api(org.admin).post(URL, {"email": "rep@example.com", "display_name": "Twin"})
    assert response.status_code == 400
    assert response.json()["email"] == ["rep@example.com already belongs to someone."]
    assert User.objects.filter(display_name="Twin").count() == 0


def test_create_needs_an_email_and_a_name(org):
    response = api(org.admin).post(URL, {}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"email", "display_name"}


def test_the_time_zone_message_is_the_services(org):
    data = {"email": "new@example.com", "display_name": "N", "time_zone": "Mars/Olympus"}
    response = api(org.admin).post(URL, data, format="json")
    assert response.json()["time_zone"] == [
        "“Mars/Olympus” is not an IANA time zone (for example Europe/Berlin)."
    ]


# --- changing someone -------------------------------------------------------------


def test_an_admin_changes_a_name_and_a_time_zone(quiet):
    org = quiet
    client = api(org.admin)
    url = DETAIL.format(id=org.rep.pk)

    renamed = client.patch(url, {"display_name": " Rita Renamed "}, format="json")
    assert renamed.status_code == 200, renamed.json()
    assert_conforms(renamed, "patch", DETAIL)
    assert renamed.json()["display_name"] == "Rita Renamed"
    assert renamed.json()["time_zone"] == "Europe/Berlin"  # kept

    moved = client.patch(url, {"time_zone": "America/Chicago"}, format="json")
    assert moved.status_code == 200
    assert moved.json()["display_name"] == "Rita Renamed"  # kept
    assert moved.json()["time_zone"] == "America/Chicago"

    both = client.patch(url, {"display_name": "Rita", "time_zone": "UTC"}, format="json")
    assert both.status_code == 200
    # The same again, and nothing: no change, no event.
    same = client.patch(url, {"display_name": "Rita", "time_zone": "UTC"}, format="json")
    assert same.status_code == 200
    assert client.patch(url, {}, format="json").status_code == 200

    org.rep.refresh_from_db()
    assert (org.rep.display_name, org.rep.time_zone, org.rep.email) == (
        "Rita",
        "UTC",
        "rep@example.com",
    )
    events = AuditEvent.objects.filter(verb="person.changed").order_by("pk")
    assert [e.data["fields"] for e in events] == [
        ["display_name"],
        ["time_zone"],
        ["display_name", "time_zone"],
    ]
    assert {(e.actor_id, e.target_id) for e in events} == {(org.admin.pk, str(org.rep.pk))}
    assert verbs() == ["person.changed"] * 3


def test_an_admin_changes_the_manager_and_the_line_keeps_its_history(quiet):
    org = quiet
    client = api(org.admin)
    url = DETAIL.format(id=org.rep.pk)

    moved = client.patch(url, {"manager": org.other_manager.pk}, format="json")
    assert moved.status_code == 200, moved.json()
    assert_conforms(moved, "patch", DETAIL)
    body = moved.json()
    assert body["reports_to"] == ref(org.other_manager)
    assert [line["manager"] for line in body["reporting_lines"]] == [
        ref(org.other_manager),
        ref(org.manager),
    ]
    assert body["reporting_lines"][0]["ended_at"] is None
    assert body["reporting_lines"][1]["ended_at"] is not None
    assert client.get(DETAIL.format(id=org.manager.pk)).json()["reports"] == [ref(org.peer)]

    cleared = client.patch(url, {"manager": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["reports_to"] is None
    assert all(line["ended_at"] for line in cleared.json()["reporting_lines"])
    assert client.patch(url, {"manager": None}, format="json").status_code == 200  # as it is

    assert verbs() == ["reporting_line.changed", "reporting_line.changed"]
    first, second = AuditEvent.objects.filter(verb="reporting_line.changed").order_by("pk")
    assert first.actor == org.admin
    assert first.data == {"from_manager_id": org.manager.pk, "to_manager_id": org.other_manager.pk}
    assert second.data == {"from_manager_id": org.other_manager.pk, "to_manager_id": None}


@pytest.mark.parametrize(
    "who, manager, message",
    [
        ("head", "rep", "Rita Rep already reports to Hana Head; that would make a loop."),
        ("manager", "rep", "Rita Rep already reports to Mia Manager; that would make a loop."),
        ("rep", "rep", "A person cannot report to themselves."),
    ],
)
def test_a_refused_manager_saves_nothing_not_even_the_name(quiet, who, manager, message):
    org = quiet
    person, boss = getattr(org, who), getattr(org, manager)
    before = (person.display_name, person.time_zone, person.reports_to_id)
    data = {"display_name": "Renamed", "time_zone": "UTC", "manager": boss.pk}
    response = api(org.admin).patch(DETAIL.format(id=person.pk), data, format="json")
    assert response.status_code == 400, response.json()
    assert_conforms(response, "patch", DETAIL)
    assert response.json() == [message]
    person.refresh_from_db()
    assert (person.display_name, person.time_zone, person.reports_to_id) == before
    assert ReportingLine.objects.filter(report=person).count() == (0 if who == "head" else 1)
    assert verbs() == []


@pytest.mark.parametrize(
    "body, field",
    [
        ({"display_name": ""}, "display_name"),
        ({"display_name": None}, "display_name"),
        ({"display_name": "x" * 151}, "display_name"),
        ({"time_zone": "Nowhere"}, "time_zone"),
        ({"display_name": "Valid", "time_zone": "Nowhere"}, "time_zone"),
        ({"manager": "other", "time_zone": "Nowhere"}, "time_zone"),
        ({"manager": "other", "display_name": "   "}, "display_name"),
        ({"display_name": "Valid", "manager": "gone"}, "manager"),
        ({"display_name": "Valid", "manager": 999999}, "manager"),
        ({"display_name": "Valid", "email": "new@example.com"}, "email"),
        ({"display_name": "Valid", "is_active": False}, "is_active"),
    ],
)
def test_a_refused_change_is_a_400_and_saves_nothing(quiet, body, field):
    org = quiet
    people = {"gone": UserFactory(is_active=False).pk, "other": org.other_manager.pk}
    data = {k: people.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    response = api(org.admin).patch(DETAIL.format(id=org.rep.pk), data, format="json")
    assert response.status_code == 400, response.json()
    assert_conforms(response, "patch", DETAIL)
    assert field in response.json()
    org.rep.refresh_from_db()
    assert org.rep.display_name == "Rita Rep" and org.rep.time_zone == "Europe/Berlin"
    assert org.rep.email == "rep@example.com" and org.rep.is_active
    assert org.rep.reports_to == org.manager
    assert ReportingLine.objects.filter(report=org.rep).count() == 1
    assert verbs() == []


# --- appointments -----------------------------------------------------------------


def _groups(person) -> set[str]:
    return set(person.groups.values_list("name", flat=True))


def test_an_admin_grants_and_revokes_appointments(quiet):
    org = quiet
    client = api(org.admin)
    url = APPOINTMENTS.format(id=org.rep.pk)

    granted = client.put(url, {"roles": ["programme_admin", "hr"]}, format="json")
    assert granted.status_code == 200, granted.json()
    assert_conforms(granted, "put", APPOINTMENTS)
    assert granted.json()["appointments"] == ["hr", "programme_admin"]
    assert _groups(org.rep) == set(GROUP_FOR_ROLE.values())
    org.rep.refresh_from_db()
    assert org.rep.is_staff  # programme admins open the admin site

    again = client.put(url, {"roles": ["hr", "programme_admin", "hr"]}, format="json")
    assert again.status_code == 200

    revoked = client.put(url, {"roles": ["hr"]}, format="json")
    assert revoked.status_code == 200 and revoked.json()["appointments"] == ["hr"]
    org.rep.refresh_from_db()
    assert not org.rep.is_staff
    assert client.put(url, {"roles": []}, format="json").json()["appointments"] == []
    assert _groups(org.rep) == set()

    assert verbs() == ["role.granted", "role.granted", "role.revoked", "role.revoked"]
    events = AuditEvent.objects.filter(verb__startswith="role.").order_by("pk")
    assert [e.data["role"] for e in events] == ["hr", "programme_admin", "programme_admin", "hr"]
    assert {(e.actor_id, e.target_id) for e in events} == {(org.admin.pk, str(org.rep.pk))}


@pytest.mark.parametrize(
    "body, message",
    [
        ({"roles": ["manager"]}, None),
        ({"roles": ["rep", "hr"]}, None),
        ({"roles": ["HR"]}, None),
        ({"roles": "hr"}, None),
        ({"roles": None}, None),
        ({}, None),
        ({"roles": ["hr"], "person": 1}, "Unknown field."),
    ],
)
def test_unknown_roles_are_a_400(quiet, body, message):
    org = quiet
    response = api(org.admin).put(APPOINTMENTS.format(id=org.rep.pk), body, format="json")
    assert response.status_code == 400, response.json()
    assert_conforms(response, "put", APPOINTMENTS)
    field = "person" if message else "roles"
    assert field in response.json()
    if message:
        assert response.json()[field] == [message]
    assert _groups(org.rep) == set()
    assert verbs() == []


def test_nobody_changes_their_own_appointments(quiet):
    org = quiet
    client = api(org.admin)
    url = APPOINTMENTS.format(id=org.admin.pk)
    for roles in ([], ["hr", "programme_admin"]):
        response = client.put(url, {"roles": roles}, format="json")
        assert response.status_code == 403
        assert_conforms(response, "put", APPOINTMENTS)
        assert response.json() == {"detail": "Your own appointments are changed by someone else."}
    # Asking for what one holds already changes nothing, and is not refused.
    assert client.put(url, {"roles": ["programme_admin"]}, format="json").status_code == 200
    assert _groups(org.admin) == {GROUP_FOR_ROLE[Role.PROGRAMME_ADMIN]}
    assert verbs() == []


# --- leaving and coming back ------------------------------------------------------


def test_deactivating_ends_every_sign_in_and_reactivating_lets_them_back(quiet):
    org = quiet
    browser = Client()
    browser.force_login(org.rep)
    assert SignInSession.objects.filter(user_id=org.rep.pk).count() == 1
    client = api(org.admin)

    left = client.post(DEACTIVATE.format(id=org.rep.pk), {"reason": "leave"}, format="json")
    assert left.status_code == 200, left.json()
    assert_conforms(left, "post", DEACTIVATE)
    assert left.json()["is_active"] is False and left.json()["id"] == org.rep.pk
    assert not SignInSession.objects.filter(user_id=org.rep.pk).exists()
    assert browser.get("/me/").status_code != 200
    event = AuditEvent.objects.get(verb="person.deactivated")
    assert event.actor == org.admin and event.target_id == str(org.rep.pk)
    assert event.data["reason"] == "leave" and event.data["sessions"] == 1
    assert event.data["was_active"] is True
    assert client.get(DETAIL.format(id=org.manager.pk)).json()["reports"] == [ref(org.peer)]
    assert org.rep.pk in [p["id"] for p in client.get(URL, {"show": "left"}).json()["results"]]

    back = client.post(REACTIVATE.format(id=org.rep.pk))
    assert back.status_code == 200, back.json()
    assert_conforms(back, "post", REACTIVATE)
    assert back.json()["is_active"] is True
    assert client.post(REACTIVATE.format(id=org.rep.pk)).status_code == 200  # already here
    org.rep.refresh_from_db()
    assert org.rep.is_active
    assert verbs() == ["person.deactivated", "person.reactivated"]
    assert AuditEvent.objects.get(verb="person.reactivated").actor == org.admin


@pytest.mark.parametrize(
    "body, field",
    [
        ({"reason": "bored"}, "reason"),
        ({"reason": "unspecified"}, "reason"),  # the service knows it; the admin gives one
        ({"reason": ""}, "reason"),
        ({}, "reason"),
        ({"reason": "departed", "note": "x"}, "note"),
    ],
)
def test_deactivating_needs_a_reason(quiet, body, field):
    org = quiet
    response = api(org.admin).post(DEACTIVATE.format(id=org.rep.pk), body, format="json")
    assert response.status_code == 400, response.json()
    assert_conforms(response, "post", DEACTIVATE)
    assert field in response.json()
    org.rep.refresh_from_db()
    assert org.rep.is_active
    assert verbs() == []


def test_nobody_deactivates_themselves(quiet):
    org = quiet
    response = api(org.admin).post(
        DEACTIVATE.format(id=org.admin.pk), {"reason": "departed"}, format="json"
    )
    assert response.status_code == 403
    assert_conforms(response, "post", DEACTIVATE)
    assert response.json() == {
        "detail": "You cannot deactivate yourself: ask another programme admin."
    }
    org.admin.refresh_from_db()
    assert org.admin.is_active
    assert verbs() == []


# --- guards -----------------------------------------------------------------------


def test_only_a_superuser_changes_a_superuser(quiet):
    org = quiet
    root = UserFactory(display_name="Root", is_superuser=True, is_staff=True)
    gone = UserFactory(display_name="Gone", is_superuser=True, is_active=False)
    client = api(org.admin)
    refused = [
        client.patch(DETAIL.format(id=root.pk), {"display_name": "Mine"}, format="json"),
        client.patch(DETAIL.format(id=root.pk), {"manager": org.head.pk}, format="json"),
        client.put(APPOINTMENTS.format(id=root.pk), {"roles": ["hr"]}, format="json"),
        client.post(DEACTIVATE.format(id=root.pk), {"reason": "security"}, format="json"),
        client.post(REACTIVATE.format(id=gone.pk)),
    ]
    for response in refused:
        assert response.status_code == 403
        assert response.json() == {"detail": SUPERUSER_ONLY}
    root.refresh_from_db()
    assert root.display_name == "Root" and root.is_active and root.reports_to is None
    assert _groups(root) == set()
    assert not User.objects.get(pk=gone.pk).is_active
    assert verbs() == []
    assert client.get(DETAIL.format(id=root.pk)).status_code == 200  # read, not changed

    # A superuser who is a programme admin may.
    boss = UserFactory(is_superuser=True, roles=["programme_admin"])
    changed = api(boss).patch(DETAIL.format(id=root.pk), {"display_name": "Rooted"}, format="json")
    assert changed.status_code == 200 and changed.json()["display_name"] == "Rooted"


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "head"])
def test_everyone_but_programme_admins_gets_404_on_every_route(quiet, who):
    org = quiet
    client = api(getattr(org, who))
    url = DETAIL.format(id=org.peer.pk)
    answers = {
        "list": client.get(URL),
        "search": client.get(URL, {"q": "x" * 200, "show": "bad"}),
        "create": client.post(URL, {"email": "x@example.com", "display_name": "X"}, format="json"),
        "create (bad)": client.post(URL, {}, format="json"),
        "read": client.get(url),
        "read (missing)": client.get(DETAIL.format(id=999999)),
        "change": client.patch(url, {"display_name": "Mine now"}, format="json"),
        "manager": client.patch(url, {"manager": org.hr.pk}, format="json"),
        "replace": client.put(url, {"display_name": "Mine now"}, format="json"),
        "delete": client.delete(url),
        "appoint": client.put(
            APPOINTMENTS.format(id=org.peer.pk), {"roles": ["hr"]}, format="json"
        ),
        "appoint self": client.put(
            APPOINTMENTS.format(id=getattr(org, who).pk),
            {"roles": ["programme_admin"]},
            format="json",
        ),
        "deactivate": client.post(
            DEACTIVATE.format(id=org.peer.pk), {"reason": "departed"}, format="json"
        ),
        "reactivate": client.post(REACTIVATE.format(id=org.peer.pk)),
    }
    assert {name: r.status_code for name, r in answers.items()} == dict.fromkeys(answers, 404)
    org.peer.refresh_from_db()
    assert org.peer.display_name == "Pavel Peer" and org.peer.is_active
    assert org.peer.reports_to == org.manager
    assert not User.objects.filter(email="x@example.com").exists()
    assert Group.objects.get(name="Programme admins").user_set.get() == org.admin
    assert verbs() == []


def test_without_credentials_it_is_a_401(org):
    client = APIClient()
    assert client.get(URL).status_code == 401
    assert client.get(DETAIL.format(id=org.rep.pk)).status_code == 401
    body = {"email": "x@example.com", "display_name": "X"}
    assert client.post(URL, body, format="json").status_code == 401
    assert client.post(DEACTIVATE.format(id=org.rep.pk), {"reason": "departed"}).status_code == 401


# --- cost -------------------------------------------------------------------------


def test_the_list_costs_the_same_at_two_sizes(org):
    hr, admins = (Group.objects.get_or_create(name=n)[0] for n in GROUP_FOR_ROLE.values())

    def queries(n):
        for i in range(n):
            person = UserFactory(manager=org.manager if i % 2 else None)
            person.groups.add(hr if i % 3 else admins)
        client = api(org.admin)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(URL)
            assert response.status_code == 200
        return len(captured), len(response.json()["results"])

    small, big = queries(2), queries(12)
    assert (small[1], big[1]) == (10, 22)
    assert small[0] == big[0] == 6  # session, user, roles; count, page, groups


def test_a_record_costs_the_same_at_two_sizes(org):
    def queries(n):
        person = UserFactory(manager=org.head)
        for i in range(n):
            reporting_line_change(person=person, manager=org.manager if i % 2 else org.head)
            UserFactory(manager=person)
            TeamMembershipFactory(person=person)
            TeamFactory(lead=person)
        person.groups.add(Group.objects.get_or_create(name="HR")[0])
        client = api(org.admin)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(DETAIL.format(id=person.pk))
            assert response.status_code == 200
        body = response.json()
        assert body["reports_count"] == n and len(body["teams"]) == n
        return len(captured)

    # Session, user, roles; the person, their groups, lines, reports, teams, teams led.
    assert queries(1) == queries(12) == 9


def test_everyone_who_never_signed_in_is_welcomed_through_the_api(
    org, django_capture_on_commit_callbacks
):
    User.objects.exclude(pk=org.rep.pk).update(last_login=timezone.now())
    User.objects.filter(pk=org.rep.pk).update(last_login=None)
    client = api(org.admin)
    listed = client.get(URL, {"show": "new"}).json()["results"]
    assert [p["display_name"] for p in listed] == ["Rita Rep"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"{URL}welcome/")
    assert response.status_code == 202 and response.json() == {"welcomed": 1}
    assert_conforms(response, "post", f"{URL}welcome/")
    assert [m.to for m in mail.outbox] == [["rep@example.com"]]
    User.objects.update(last_login=timezone.now())
    assert client.post(f"{URL}welcome/").status_code == 400
