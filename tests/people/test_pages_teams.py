"""Teams in the app (`/programme/teams/`), for programme admins: the list searched by
name, 25 a page, at the same cost whatever the size; a new team; a team's page to
rename it, change its lead, add people and take them off — each through the services,
so it is audited and the cadence follows. Bad input is a 400 with the reason and
nothing saved; everyone else gets 404 (also in the authorization matrix)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cadence.models import CadencePlan
from cadence.services import policy_apply
from people.models import AuditEvent, Team, TeamMembership
from people.services import account_deactivate
from people.services_teams import team_member_remove
from tests.support.cadence_policies import make_policy
from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
LIST = "/programme/teams/"


def url(team, rest=""):
    return f"{LIST}{team.pk}/{rest}"


def errors_in(response) -> list[str]:
    return re.findall(r'class="error" role="alert">([^<]+)<', response.content.decode())


def verbs() -> list[str]:
    events = AuditEvent.objects.filter(verb__startswith="team.").order_by("pk")
    return list(events.values_list("verb", flat=True))


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


@pytest.fixture
def east(org):
    team = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=team, person=org.rep)
    return team


def test_the_list_shows_each_team_with_its_lead_and_people_and_finds_by_name(admin, east):
    TeamFactory(name="West", lead=None)
    body = admin.get(LIST).content.decode()
    assert f'<a href="{url(east)}">East</a>' in body and "Mia Manager" in body
    found = admin.get(LIST, {"q": "eas"}).content.decode()
    assert "East" in found and ">West<" not in found
    nothing = admin.get(LIST, {"q": "north"}).content.decode()
    assert "No team's name holds “north”." in nothing


def test_a_new_team_is_made_with_its_lead_and_audited(admin, org):
    response = admin.post(f"{LIST}new/", {"name": "  North  ", "lead": org.other_manager.pk})
    team = Team.objects.get(name="North")
    assert response.status_code == 302 and response["Location"] == url(team)
    assert team.lead == org.other_manager
    assert verbs() == ["team.created"]


@pytest.mark.parametrize(
    "data, message",
    [
        ({"name": ""}, "A team needs a name."),
        ({"name": "east"}, "There is already a team called east."),
        ({"name": "x" * 121}, "Ensure this value has at most 120 characters"),
        ({"name": "North", "lead": "999999"}, "Pick someone who is still here."),
    ],
)
def test_bad_input_for_a_new_team_is_a_400_and_nothing_is_saved(admin, east, data, message):
    response = admin.post(f"{LIST}new/", data)
    assert response.status_code == 400
    assert any(message in e for e in errors_in(response))
    assert list(Team.objects.values_list("name", flat=True)) == ["East"]


def test_someone_who_left_cannot_lead(admin, org):
    gone = UserFactory(display_name="Gone Person", is_active=False)
    response = admin.post(f"{LIST}new/", {"name": "North", "lead": gone.pk})
    assert response.status_code == 400 and not Team.objects.filter(name="North").exists()


def test_renaming_and_a_new_lead_are_saved_and_the_plans_follow_the_lead(admin, org, east):
    # Three on the team: the page's N+1 detector would answer 500 if the policy were
    # read once per member.
    TeamMembershipFactory(team=east, person=org.peer)
    TeamMembershipFactory(team=east, person=UserFactory())
    policy_apply(policy=make_policy(), team=east, actor=org.admin)
    response = admin.post(url(east), {"name": "East Coast", "lead": org.other_manager.pk})
    assert response.status_code == 302
    east.refresh_from_db()
    assert (east.name, east.lead) == ("East Coast", org.other_manager)
    plan = CadencePlan.objects.live().get(kind="one_on_one", coachee=org.rep)
    assert plan.coach == org.other_manager
    assert verbs() == ["team.renamed", "team.lead_changed"]
    same = admin.post(url(east), {"name": "East Coast", "lead": org.other_manager.pk}, follow=True)
    assert "Nothing changed." in same.content.decode() and len(verbs()) == 2


def test_a_refused_rename_keeps_the_team_as_it_was(admin, org, east):
    TeamFactory(name="West")
    response = admin.post(url(east), {"name": "WEST", "lead": org.other_manager.pk})
    assert response.status_code == 400
    assert errors_in(response) == ["There is already a team called WEST."]
    east.refresh_from_db()
    assert (east.name, east.lead) == ("East", org.manager) and verbs() == []


def test_adding_and_taking_off_people_is_followed_by_the_cadence(admin, org, east):
    policy_apply(policy=make_policy(), team=east, actor=org.admin)
    added = admin.post(url(east, "members/add/"), {"person": org.peer.pk})
    assert added.status_code == 302
    assert TeamMembership.objects.current().filter(team=east, person=org.peer).exists()
    assert CadencePlan.objects.live().filter(coachee=org.peer, coach=org.manager).exists()

    off = admin.post(url(east, f"members/{org.peer.pk}/remove/"), follow=True)
    assert "Pavel Peer is off East; their history stays." in off.content.decode()
    assert not CadencePlan.objects.live().filter(coachee=org.peer).exists()
    assert TeamMembership.objects.filter(team=east, person=org.peer).get().left_at is not None
    assert "Left the team" in off.content.decode()
    assert verbs() == ["team.member_added", "team.member_removed"]


def test_someone_on_the_team_or_gone_cannot_be_added_and_only_members_taken_off(admin, org, east):
    again = admin.post(url(east, "members/add/"), {"person": org.rep.pk})
    assert again.status_code == 400
    assert errors_in(again) == ["Pick someone still here and not on the team yet."]
    gone = UserFactory(is_active=False)
    assert admin.post(url(east, "members/add/"), {"person": gone.pk}).status_code == 400
    assert admin.post(url(east, "members/add/"), {}).status_code == 400
    assert admin.post(url(east, f"members/{org.peer.pk}/remove/")).status_code == 404
    assert verbs() == []
    team_member_remove(team=east, person=org.rep)
    assert admin.post(url(east, f"members/{org.rep.pk}/remove/")).status_code == 404
    assert verbs() == ["team.member_removed"]  # the one above, not the page's


def test_the_people_search_offers_only_those_not_on_the_team(admin, org, east, settings):
    settings.PEOPLE_PICKER_LIST_UP_TO = 1  # a search box, not a list
    page = admin.get(url(east)).content.decode()
    assert "/people/pick/team-joiners/" in page
    found = admin.get(
        "/people/pick/team-joiners/",
        {"name": "person", "id": "id_person", "team": east.pk, "person_search": "r"},
    ).content.decode()
    assert "Pavel Peer" in found and "Rita Rep" not in found


def test_the_list_costs_the_same_at_two_sizes(admin, org):
    def queries(n):
        for _ in range(n):
            team = TeamFactory(lead=org.manager)
            TeamMembershipFactory(team=team, person=UserFactory())
        with CaptureQueriesContext(connection) as captured:
            assert admin.get(LIST).status_code == 200
        return len(captured)

    assert queries(2) == queries(12)


def test_a_teams_page_costs_the_same_at_two_sizes(admin, org, east):
    def queries(n):
        for _ in range(n):
            member = UserFactory()
            TeamMembershipFactory(team=east, person=member)
        with CaptureQueriesContext(connection) as captured:
            assert admin.get(url(east)).status_code == 200
        return len(captured)

    assert queries(2) == queries(12)


def test_everyone_else_gets_404_and_nothing_changes(org, client_for, east):
    for who in (org.hr, org.manager, org.rep, org.head):
        client = client_for(who)
        assert client.get(LIST).status_code == 404
        assert client.get(url(east)).status_code == 404
        assert client.post(f"{LIST}new/", {"name": "Mine"}).status_code == 404
        assert client.post(url(east, "members/add/"), {"person": who.pk}).status_code == 404
        assert client.get("/people/pick/team-joiners/", {"team": east.pk}).status_code == 404
    assert Team.objects.count() == 1 and verbs() == []


def test_ids_beyond_any_database_id_are_a_404(admin, org, east):
    huge = 2**64
    assert admin.get(f"{LIST}{huge}/").status_code == 404
    assert admin.post(f"{LIST}{huge}/members/add/", {"person": org.peer.pk}).status_code == 404
    assert admin.post(url(east, f"members/{huge}/remove/")).status_code == 404
    assert admin.post(url(east, "members/add/"), {"person": str(huge)}).status_code == 400


def test_someone_deactivated_keeps_their_place_but_is_not_counted(admin, org, east):
    account_deactivate(actor=org.admin, person=org.rep, reason="leave")
    listed = admin.get(LIST).content.decode()
    assert re.search(r'>East</a></th>\s*<td data-label="Lead">Mia Manager</td>\s*'
                     r'<td data-label="People">0</td>', listed)  # fmt: skip
    page = admin.get(url(east)).content.decode()
    assert "· 0 on the team" in page
    assert re.search(r"Rita Rep .*?Deactivated</span></th>", page)
