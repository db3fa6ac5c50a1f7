"""People pickers offer the picking person's own team first: before anything is typed
(under "Your team:"), and first among the matches of a search — only ever people the
picker's source offers anyway (people/pickers.py, `people.selectors.own_team`)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.support.factories import TeamFactory, TeamMembershipFactory, UserFactory
from tests.support.people_pickers import GIVE, listed, pick


@pytest.fixture
def few(settings):
    settings.PEOPLE_PICKER_LIST_UP_TO = 3


@pytest.mark.django_db
def test_before_typing_the_form_offers_the_reporting_line_team(client, org, few):
    client.force_login(org.rep)
    page = client.get(GIVE).content.decode()
    assert '<li class="muted choices-note">Your team:</li>' in page
    # Her manager and the colleague who shares him; nobody of the other team, not herself.
    assert listed(page) == [("", "Mia Manager"), ("", "Pavel Peer")]


@pytest.mark.django_db
def test_a_team_of_the_team_model_counts_members_and_lead_but_not_who_left(client, org, few):
    squad = TeamFactory(name="Deal desk", lead=org.other_manager)
    TeamMembershipFactory(team=squad, person=org.rep)
    TeamMembershipFactory(team=squad, person=org.hr)
    TeamMembershipFactory(
        team=squad,
        person=org.admin,
        joined_at=timezone.now() - timedelta(days=30),
        left_at=timezone.now() - timedelta(days=1),
    )
    client.force_login(org.rep)
    names = [name for _, name in listed(pick(client, "colleagues", "").content.decode())]
    assert names == ["Harriet HR", "Mia Manager", "Omar Other", "Pavel Peer"]


@pytest.mark.django_db
def test_a_search_lists_the_own_team_first_then_the_rest_as_before(client, org):
    client.force_login(org.rep)
    # Every email ends in .com: everyone matches, the team first, then by name.
    found = [name for _, name in listed(pick(client, "colleagues", "com").content.decode())]
    assert found[:2] == ["Mia Manager", "Pavel Peer"]
    assert found[2:] == sorted(found[2:])
    assert len(found) == 7


@pytest.mark.django_db
def test_clearing_the_box_offers_the_team_again_and_says_nothing(client, org):
    client.force_login(org.rep)
    fragment = pick(client, "colleagues", "").content.decode()
    assert '<li class="muted choices-note">Your team:</li>' in fragment
    assert '<p id="id_recipient_found" hx-swap-oob="innerHTML"></p>' in fragment


@pytest.mark.django_db
def test_the_team_is_never_offered_beyond_what_the_source_offers(client, org):
    """Mia's own team holds her manager and her fellow manager; "below" offers only
    the people below her, so they are never suggested, nor found."""
    client.force_login(org.manager)
    suggested = listed(pick(client, "below", "", name="coachee").content.decode())
    assert [name for _, name in suggested] == ["Pavel Peer", "Rita Rep"]
    found = listed(pick(client, "below", "com", name="coachee").content.decode())
    assert {name for _, name in found} == {"Pavel Peer", "Rita Rep"}


@pytest.mark.django_db
def test_teams_pickers_suggest_nothing(client, org):
    client.force_login(org.admin)
    fragment = pick(client, "teams", "", name="teams", multiple="1").content.decode()
    assert "Your team:" not in fragment


@pytest.mark.django_db
@pytest.mark.parametrize("extra", [0, 30])
def test_the_suggestions_cost_one_query_however_big_the_team(
    client, org, few, extra, django_assert_num_queries
):
    for _ in range(extra):
        UserFactory(manager=org.manager)
    client.force_login(org.rep)
    with django_assert_num_queries(3):  # session, user, the team
        fragment = pick(client, "colleagues", "").content.decode()
    assert len(listed(fragment)) == min(2 + extra, 20)
