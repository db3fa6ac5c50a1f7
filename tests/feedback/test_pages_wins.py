"""Wins: recognition for the team, shared and read by the teams a person is on or leads."""

import pytest

from feedback.models import Win
from people.services_teams import team_create, team_member_add
from tests.support.factories import WinFactory


@pytest.fixture
def teams(org):
    mine = team_create(name="Enterprise East", lead=org.manager)
    team_member_add(team=mine, person=org.rep)
    other = team_create(name="EMEA Growth", lead=org.other_manager)
    team_member_add(team=other, person=org.other_rep)
    return mine, other


@pytest.mark.django_db
def test_it_shows_my_teams_wins_newest_first_and_shares_one(client, org, teams):
    mine, other = teams
    WinFactory(team=mine, title="First clip", author=org.manager)
    WinFactory(team=other, title="Not for us", author=org.other_rep)
    client.force_login(org.rep)
    page = client.get("/feedback/wins/").content.decode()
    assert "First clip" in page and "Not for us" not in page
    for label in ("Team", "Title", "Link", "What happened"):
        assert f">{label}</" in page
    response = client.post(
        "/feedback/wins/",
        {
            "team": mine.pk,
            "title": "Northwind signed",
            "link": "https://calls.example.com/clips/1",
            "text": "Named economic buyer from discovery",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/feedback/wins/"
    page = client.get("/feedback/wins/").content.decode()
    assert page.index("Northwind signed") < page.index("First clip")
    # The team lead reads it too.
    client.force_login(org.manager)
    assert "Northwind signed" in client.get("/feedback/wins/").content.decode()


@pytest.mark.django_db
def test_sharing_with_a_team_i_am_not_on_is_refused(client, org, teams):
    _, other = teams
    client.force_login(org.rep)
    response = client.post("/feedback/wins/", {"team": other.pk, "title": "Sneaky"})
    assert response.status_code == 400
    assert "Share wins with a team you are on." in response.content.decode()
    response = client.post("/feedback/wins/", {"team": teams[0].pk, "title": "  "})
    assert response.status_code == 400
    assert not Win.objects.exists()


@pytest.mark.django_db
def test_someone_on_no_team_is_told_so(client, org):
    client.force_login(org.hr)
    page = client.get("/feedback/wins/").content.decode()
    assert "not on a team yet" in page and "Share the win" not in page


@pytest.mark.django_db
def test_beyond_fifty_wins_the_page_says_it_shows_the_newest(client, org, teams):
    mine, _ = teams
    WinFactory.create_batch(50, team=mine, author=org.manager)
    client.force_login(org.rep)
    assert "The 50 newest." not in client.get("/feedback/wins/").content.decode()
    WinFactory(team=mine, author=org.manager, title="The fifty-first")
    page = client.get("/feedback/wins/").content.decode()
    assert "The 50 newest." in page and "The fifty-first" in page
    assert page.count('<li class="feedback-item win">') == 50
