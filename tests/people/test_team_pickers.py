"""Choosing teams in a large organisation (people/pickers.py, `offers=TEAMS`): a team
channel's team and a focus area's teams are listed up to PEOPLE_PICKER_LIST_UP_TO
teams; beyond, a search box by name whose matches come from the same source the field
validates against. Programme admins only: the search is 404 to everyone else."""

import re

import pytest

from coaching.models import FocusArea
from notifications.models import TeamChannel
from tests.support.factories import TeamFactory

pytestmark = pytest.mark.django_db
PICK = "/people/pick/{}/"
CHANNELS = "/programme/channels/"
NEW_AREA = "/programme/focus-areas/new/"
SECRET_URL = "https://hooks.slack.com/services/T000/B000/very-secret-token"


@pytest.fixture
def teams(org):
    """Five teams; West already has a channel."""
    made = {
        name: TeamFactory(name=name, lead=org.manager)
        for name in ("East", "Northeast", "West", "Southeast Enterprise", "Inside Sales")
    }
    TeamChannel.objects.create(team=made["West"], webhook_url=SECRET_URL)
    return made


@pytest.fixture
def many(settings):
    settings.PEOPLE_PICKER_LIST_UP_TO = 2  # four teams to connect, five in all: many


def _search(client, source, text="", chosen=(), name="team", **extra):
    query = {"name": name, "id": f"id_{name}", f"{name}_search": text, name: list(chosen)}
    return client.get(PICK.format(source), {**query, **extra})


def _listed(fragment: str) -> list[tuple[str, str]]:
    """The teams a fragment offers, in order: (checked?, name)."""
    return re.findall(
        r'<input type="(?:radio|checkbox)" name="\w+" value="\d+"[^>]*?( checked)?> '
        r'<label for="[\w-]+">([^<]+?) <span',
        fragment,
    )


def test_a_few_teams_are_listed_as_before(client_for, org, teams):
    page = client_for(org.admin).get(CHANNELS).content.decode()
    options = re.findall(r'<option value="\d+">([^<]+)</option>', page)
    assert options == ["East", "Inside Sales", "Northeast", "Southeast Enterprise"]  # not West
    assert 'class="people-search"' not in page


def test_many_teams_are_searched_by_name_on_the_channels_page(client_for, org, teams, many):
    page = client_for(org.admin).get(CHANNELS).content.decode()
    assert re.findall(r'<option value="\d+"', page) == []
    assert 'hx-get="/people/pick/unconnected-teams/?name=team&amp;id=id_team' in page
    assert 'placeholder="Type a team&#x27;s name"' in page
    assert "Type part of the team&#x27;s name to find it." in page


def test_the_search_finds_teams_by_name_those_it_starts_first(client_for, org, teams):
    admin = client_for(org.admin)
    found = _listed(_search(admin, "unconnected-teams", "east").content.decode())
    assert [name for _, name in found] == ["East", "Northeast", "Southeast Enterprise"]
    found = _listed(_search(admin, "unconnected-teams", "we").content.decode())
    assert found == []  # West has its channel
    fragment = _search(admin, "unconnected-teams", "zzz<b>").content.decode()
    assert "No team matches “zzz&lt;b&gt;”." in fragment
    found = _listed(_search(admin, "teams", "we").content.decode())
    assert [name for _, name in found] == ["West"]  # a focus area may have any team
    TeamFactory(name="Eastern pilot", lead=None)
    fragment = _search(admin, "teams", "eastern").content.decode()
    assert 'Eastern pilot <span class="muted">no lead yet</span>' in fragment
    fragment = _search(admin, "teams", "northeast").content.decode()
    assert 'Northeast <span class="muted">led by Mia Manager</span>' in fragment


def test_a_team_search_says_how_many_teams_it_found(client_for, org, teams):
    """Read out instead of every team's name (the list itself is no live region)."""
    admin = client_for(org.admin)
    said = '<p id="id_team_found" hx-swap-oob="innerHTML">{}</p>'
    fragment = _search(admin, "unconnected-teams", "east").content.decode()
    assert said.format("3 teams found.") in fragment
    fragment = _search(admin, "teams", "we").content.decode()
    assert said.format("1 team found.") in fragment
    fragment = _search(admin, "teams", "we", chosen=[teams["West"].pk]).content.decode()
    assert said.format("No other team found.") in fragment
    fragment = _search(admin, "unconnected-teams", "zzz").content.decode()
    assert said.format("No team found.") in fragment


def test_a_searched_team_is_connected_and_one_outside_the_source_is_refused(
    client_for, org, teams, many
):
    admin = client_for(org.admin)
    response = admin.post(
        CHANNELS + "connect/",
        {"team": teams["Northeast"].pk, "webhook_url": SECRET_URL, "format": "slack"},
    )
    assert response.status_code == 302
    assert TeamChannel.objects.filter(team=teams["Northeast"]).exists()
    refused = admin.post(
        CHANNELS + "connect/",
        {"team": teams["West"].pk, "webhook_url": SECRET_URL, "format": "slack"},
    )
    assert refused.status_code == 400
    assert "Pick a team without a channel from the list." in refused.content.decode()
    # The refused form is drawn again with a search box, not 900 options.
    assert 'name="team_search"' in refused.content.decode()


def test_a_focus_area_gets_searched_teams_and_keeps_them_checked(client_for, org, teams, many):
    admin = client_for(org.admin)
    page = admin.get(NEW_AREA).content.decode()
    assert 'hx-get="/people/pick/teams/?name=teams&amp;id=id_teams&amp;multiple=1"' in page
    data = {
        "name": "Discovery",
        "behaviours": "Asks two open questions before pitching.",
        "starts_on": "2026-12-01",
        "teams": [teams["East"].pk, teams["West"].pk],
    }
    assert admin.post(NEW_AREA, data).status_code == 302
    area = FocusArea.objects.get(name="Discovery")
    assert set(area.teams.all()) == {teams["East"], teams["West"]}
    edit = admin.get(f"/programme/focus-areas/{area.pk}/").content.decode()
    assert _listed(edit) == [(" checked", "East"), (" checked", "West")]


def test_a_team_search_costs_the_same_whatever_it_finds(
    client_for, org, teams, django_assert_num_queries
):
    admin = client_for(org.admin)
    for extra in (0, 30):
        for i in range(extra):
            TeamFactory(name=f"Eastern branch {i}")
        with django_assert_num_queries(5):  # session, user, roles, the chosen, the matches
            response = _search(admin, "teams", "east", chosen=[teams["West"].pk])
        assert response.status_code == 200


@pytest.mark.parametrize("who", ["manager", "rep", "hr", "head"])
@pytest.mark.parametrize("source", ["teams", "unconnected-teams"])
def test_everyone_but_programme_admins_gets_404(client_for, org, teams, who, source):
    assert _search(client_for(getattr(org, who)), source, "east").status_code == 404
