"""Teams through the API (/api/v1/teams/), for programme admins alone (404 to everyone
else on every route): list and search, read a team with its members and leavers,
create, rename, change or clear the lead, add and remove members — through the
services, audited, with the cadence following membership. Bad input is a 400 with
field messages and nothing saved; a team is never deleted (405); the list and a team
cost the same queries at two sizes. Answers match the published schema."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from cadence.models import CadencePlan
from cadence.services import policy_apply
from people.models import AuditEvent, Team, TeamMembership
from people.services_teams import team_member_add, team_member_remove
from tests.support.api_schema import assert_conforms
from tests.support.cadence_policies import make_policy
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/teams/"
DETAIL = "/api/v1/teams/{id}/"
MEMBERS = "/api/v1/teams/{id}/members/"
MEMBER = "/api/v1/teams/{id}/members/{person_id}/"


def api(user):
    client = APIClient()
    client.force_login(user)
    return client


def ref(person) -> dict:
    return {"id": person.pk, "display_name": person.display_name}


def verbs() -> list[str]:
    events = AuditEvent.objects.filter(verb__startswith="team.").order_by("pk")
    return list(events.values_list("verb", flat=True))


@pytest.fixture
def east(org):
    """Mia's team: Rita and Pavel."""
    team = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    TeamMembershipFactory(team=team, person=org.peer)
    return team


def test_an_admin_creates_reads_renames_and_changes_the_lead(org):
    client = api(org.admin)
    created = client.post(URL, {"name": "  North  ", "lead": org.manager.pk}, format="json")
    assert created.status_code == 201, created.json()
    assert_conforms(created, "post", URL)
    body = created.json()
    team = Team.objects.get()
    assert body["id"] == team.pk and body["name"] == "North"
    assert body["lead"] == ref(org.manager)
    assert body["members_now"] == 0 and body["members"] == [] and body["left"] == []

    url = f"{URL}{team.pk}/"
    read = client.get(url)
    assert read.status_code == 200 and read.json() == body
    assert_conforms(read, "get", DETAIL)

    changed = client.patch(url, {"name": "North East", "lead": org.other_manager.pk}, format="json")
    assert changed.status_code == 200, changed.json()
    assert_conforms(changed, "patch", DETAIL)
    assert changed.json()["name"] == "North East"
    assert changed.json()["lead"] == ref(org.other_manager)
    cleared = client.patch(url, {"lead": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["lead"] is None
    # Sending what it already is changes nothing, and writes nothing.
    assert client.patch(url, {"name": "North East", "lead": None}, format="json").status_code == 200
    assert client.patch(url, {}, format="json").status_code == 200

    team.refresh_from_db()
    assert team.name == "North East" and team.lead is None
    assert verbs() == ["team.created", "team.renamed", "team.lead_changed", "team.lead_changed"]
    events = AuditEvent.objects.filter(verb__startswith="team.")
    assert {e.actor_id for e in events} == {org.admin.pk}
    assert {e.target_id for e in events} == {str(team.pk)}
    assert events.get(verb="team.lead_changed", data__to_lead_id=None).data == {
        "from_lead_id": org.other_manager.pk,
        "to_lead_id": None,
    }


def test_a_team_without_a_lead_can_be_created(org):
    created = api(org.admin).post(URL, {"name": "Nobody leads"}, format="json")
    assert created.status_code == 201 and created.json()["lead"] is None
    assert Team.objects.get().lead is None


def test_the_list_pages_searches_and_counts_members_now(org, east):
    TeamMembershipFactory(team=east, person=org.other_rep)
    team_member_remove(team=east, person=org.other_rep)
    TeamFactory(name="West", lead=None)
    client = api(org.admin)

    listed = client.get(URL)
    assert listed.status_code == 200
    assert_conforms(listed, "get", URL)
    body = listed.json()
    assert body["count"] == 2
    assert [t["name"] for t in body["results"]] == ["East", "West"]
    first = body["results"][0]
    assert first == {
        "id": east.pk,
        "name": "East",
        "lead": ref(org.manager),
        "members_now": 2,  # Olga left
        "created_at": first["created_at"],
    }
    assert body["results"][1]["lead"] is None

    found = client.get(URL, {"q": "eas"}).json()
    assert [t["name"] for t in found["results"]] == ["East"]
    assert client.get(URL, {"q": "nothing like it"}).json()["count"] == 0
    too_long = client.get(URL, {"q": "x" * 121})
    assert too_long.status_code == 400 and "q" in too_long.json()
    assert_conforms(too_long, "get", URL)
    assert client.get(URL, {"q": "x" * 120}).status_code == 200
    assert client.get(URL, {"q": "nul\x00"}).status_code == 400


def test_a_team_shows_its_members_by_name_and_who_left(org, east):
    team_member_add(team=east, person=org.other_rep)
    team_member_remove(team=east, person=org.other_rep)
    response = api(org.admin).get(f"{URL}{east.pk}/")
    assert response.status_code == 200
    assert_conforms(response, "get", DETAIL)
    body = response.json()
    assert body["members_now"] == 2
    assert [m["person"] for m in body["members"]] == [ref(org.peer), ref(org.rep)]  # Pavel, Rita
    assert all(m["joined_at"] for m in body["members"])
    [left] = body["left"]
    assert left["person"] == ref(org.other_rep)
    assert left["left_at"] >= left["joined_at"]


def test_adding_a_member_makes_their_1_1_with_the_lead_and_removing_ends_it(org):
    team = TeamFactory(name="East", lead=org.manager)
    policy_apply(policy=make_policy(), team=team, actor=org.admin)
    client = api(org.admin)
    one_on_ones = CadencePlan.objects.live().filter(kind="one_on_one", coachee=org.rep)

    added = client.post(MEMBERS.format(id=team.pk), {"person": org.rep.pk}, format="json")
    assert added.status_code == 201, added.json()
    assert_conforms(added, "post", MEMBERS)
    assert [m["person"] for m in added.json()["members"]] == [ref(org.rep)]
    assert added.json()["members_now"] == 1
    plan = one_on_ones.get()
    assert plan.coach == org.manager

    # Someone already on the team: 200, nothing doubled (membership, plan, event).
    again = client.post(MEMBERS.format(id=team.pk), {"person": org.rep.pk}, format="json")
    assert again.status_code == 200
    assert_conforms(again, "post", MEMBERS)
    assert again.json()["members_now"] == 1
    assert TeamMembership.objects.filter(team=team, person=org.rep).count() == 1
    assert one_on_ones.count() == 1

    url = MEMBER.format(id=team.pk, person_id=org.rep.pk)
    removed = client.delete(url)
    assert removed.status_code == 204
    assert_conforms(removed, "delete", MEMBER)
    membership = TeamMembership.objects.get(team=team, person=org.rep)
    assert membership.left_at is not None  # history stays
    assert not one_on_ones.exists()
    plan.refresh_from_db()
    assert plan.ended_at is not None and plan.end_reason == "left_team"

    detail = client.get(f"{URL}{team.pk}/").json()
    assert detail["members"] == [] and detail["members_now"] == 0
    assert [left["person"] for left in detail["left"]] == [ref(org.rep)]
    gone_again = client.delete(url)  # no longer a current member
    assert gone_again.status_code == 404
    assert_conforms(gone_again, "delete", MEMBER)

    assert verbs() == ["team.member_added", "team.member_removed"]
    events = AuditEvent.objects.filter(verb__startswith="team.member")
    assert {e.actor_id for e in events} == {org.admin.pk}
    assert {e.data["person_id"] for e in events} == {org.rep.pk}


def test_someone_who_left_can_join_again(org, east):
    client = api(org.admin)
    client.delete(MEMBER.format(id=east.pk, person_id=org.rep.pk))
    back = client.post(MEMBERS.format(id=east.pk), {"person": org.rep.pk}, format="json")
    assert back.status_code == 201
    assert TeamMembership.objects.filter(team=east, person=org.rep).count() == 2
    assert back.json()["members_now"] == 2 and len(back.json()["left"]) == 1


def test_removing_someone_not_on_the_team_is_a_404_and_changes_nothing(org, east):
    client = api(org.admin)
    for team_id, person_id in [
        (east.pk, org.other_rep.pk),  # never on it
        (east.pk, 2**63 - 1),  # nobody
        (east.pk, 2**64),  # beyond any id
        (2**64, org.rep.pk),
        (east.pk + 1000, org.rep.pk),  # no such team
    ]:
        response = client.delete(MEMBER.format(id=team_id, person_id=person_id))
        assert response.status_code == 404, (team_id, person_id)
    assert TeamMembership.objects.current().filter(team=east).count() == 2
    assert verbs() == []


@pytest.mark.parametrize(
    "body, field, message",
    [
        ({"name": "east"}, "name", "There is already a team called east."),
        ({"name": "EAST "}, "name", "There is already a team called EAST."),
        ({"name": ""}, "name", "A team needs a name."),
        ({"name": "   "}, "name", "A team needs a name."),
        ({"name": "x" * 121}, "name", "Keep the name to 120 characters."),
        ({"name": None}, "name", None),
        ({"name": "nul\x00"}, "name", None),
        ({}, "name", None),
        ({"name": "North", "lead": "gone"}, "lead", None),
        ({"name": "North", "lead": 999999}, "lead", "No active person with id 999999."),
        ({"name": "North", "lead": 2**63}, "lead", None),
        ({"name": "North", "colour": "red"}, "colour", "Unknown field."),
    ],
)
def test_bad_input_to_create_is_a_400_and_nothing_is_saved(org, east, body, field, message):
    response = api(org.admin).post(URL, body, format="json")
    assert response.status_code == 400, response.json()
    assert_conforms(response, "post", URL)
    assert field in response.json()
    if message:
        assert response.json()[field] == [message]
    assert list(Team.objects.values_list("name", flat=True)) == ["East"]
    assert verbs() == []


def test_a_deactivated_person_cannot_lead_a_new_team(org):
    gone = UserFactory(is_active=False)
    response = api(org.admin).post(URL, {"name": "North", "lead": gone.pk}, format="json")
    assert response.status_code == 400
    assert response.json()["lead"] == [f"No active person with id {gone.pk}."]
    assert not Team.objects.exists()


@pytest.mark.parametrize(
    "body, field",
    [
        # The lead is valid and would be set first; the name is refused: neither saved.
        ({"name": "west", "lead": "peer"}, "name"),
        ({"name": "", "lead": "peer"}, "name"),
        ({"name": "y" * 121, "lead": None}, "name"),
        ({"name": "North", "lead": "gone"}, "lead"),
        ({"name": "North", "lead": 999999}, "lead"),
        ({"name": "North", "members": []}, "members"),
    ],
)
def test_a_refused_change_saves_nothing(org, east, body, field):
    TeamFactory(name="West", lead=org.other_manager)
    people = {"peer": org.peer.pk, "gone": UserFactory(is_active=False).pk}
    data = {k: people.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    response = api(org.admin).patch(f"{URL}{east.pk}/", data, format="json")
    assert response.status_code == 400, response.json()
    assert_conforms(response, "patch", DETAIL)
    assert field in response.json()
    east.refresh_from_db()
    assert east.name == "East" and east.lead == org.manager
    assert verbs() == []


def test_renaming_to_the_same_name_in_another_case_is_allowed(org, east):
    response = api(org.admin).patch(f"{URL}{east.pk}/", {"name": "EAST"}, format="json")
    assert response.status_code == 200 and response.json()["name"] == "EAST"
    assert verbs() == ["team.renamed"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"person": 999999}, "person"),
        ({"person": "gone"}, "person"),
        ({"person": "Rita"}, "person"),
        ({"person": None}, "person"),
        ({}, "person"),
        ({"person": "rep", "team": 1}, "team"),
    ],
)
def test_adding_an_unknown_or_inactive_person_is_a_400_and_nothing_is_saved(org, east, body, field):
    people = {"rep": org.other_rep.pk, "gone": UserFactory(is_active=False).pk}
    data = {k: people.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    response = api(org.admin).post(MEMBERS.format(id=east.pk), data, format="json")
    assert response.status_code == 400, response.json()
    assert_conforms(response, "post", MEMBERS)
    assert field in response.json()
    assert TeamMembership.objects.count() == 2
    assert verbs() == []


def test_adding_to_a_team_that_does_not_exist_is_a_404(org):
    response = api(org.admin).post(MEMBERS.format(id=999999), {"person": org.rep.pk})
    assert response.status_code == 404
    assert not TeamMembership.objects.exists()


def test_a_team_is_never_deleted(org, east):
    client = api(org.admin)
    assert client.delete(f"{URL}{east.pk}/").status_code == 405
    assert client.put(f"{URL}{east.pk}/", {"name": "West"}, format="json").status_code == 405
    assert client.get(MEMBERS.format(id=east.pk)).status_code == 405
    assert Team.objects.filter(pk=east.pk, name="East").exists()


def test_a_missing_team_is_a_404(org):
    client = api(org.admin)
    assert client.get(f"{URL}999999/").status_code == 404
    assert client.patch(f"{URL}999999/", {"name": "X"}, format="json").status_code == 404
    assert client.get(f"{URL}{2**63 - 1}/").status_code == 404


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "head"])
def test_everyone_but_programme_admins_gets_404_on_every_route(org, east, who):
    client = api(getattr(org, who))
    team_url = f"{URL}{east.pk}/"
    answers = {
        "list": client.get(URL),
        "search": client.get(URL, {"q": "x" * 200}),
        "create": client.post(URL, {"name": "North"}, format="json"),
        "create (bad)": client.post(URL, {}, format="json"),
        "read": client.get(team_url),
        "change": client.patch(team_url, {"name": "Mine now"}, format="json"),
        "delete": client.delete(team_url),
        "add": client.post(MEMBERS.format(id=east.pk), {"person": org.hr.pk}, format="json"),
        "remove": client.delete(MEMBER.format(id=east.pk, person_id=org.rep.pk)),
    }
    assert {name: r.status_code for name, r in answers.items()} == dict.fromkeys(answers, 404)
    east.refresh_from_db()
    assert east.name == "East" and Team.objects.count() == 1
    assert TeamMembership.objects.current().filter(team=east).count() == 2
    assert verbs() == []


def test_without_credentials_it_is_a_401(org, east):
    client = APIClient()
    assert client.get(URL).status_code == 401
    assert client.post(URL, {"name": "North"}, format="json").status_code == 401
    assert client.delete(MEMBER.format(id=east.pk, person_id=org.rep.pk)).status_code == 401


def _teams(n, lead):
    for _ in range(n):
        team = TeamFactory(lead=lead)
        TeamMembershipFactory(team=team)
        TeamMembershipFactory(team=team)


def test_the_list_costs_the_same_at_two_sizes(org):
    def queries(n):
        _teams(n, org.manager)
        client = api(org.admin)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(URL)
            assert response.status_code == 200
        return len(captured), len(response.json()["results"])

    small, big = queries(2), queries(12)
    assert (small[1], big[1]) == (2, 14)
    assert small[0] == big[0]


def test_a_team_costs_the_same_at_two_sizes(org):
    def queries(members, leavers):
        team = TeamFactory(lead=org.manager)
        for _ in range(members):
            TeamMembershipFactory(team=team)
        for _ in range(leavers):
            team_member_remove(team=team, person=TeamMembershipFactory(team=team).person)
        client = api(org.admin)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"{URL}{team.pk}/")
            assert response.status_code == 200
        assert len(response.json()["members"]) == members
        return len(captured)

    assert queries(1, 1) == queries(15, 8)
