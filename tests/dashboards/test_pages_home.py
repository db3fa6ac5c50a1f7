"""Each role lands on its own home page; a page for a role is 404 to everyone else."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from people.services_teams import team_create, team_member_add
from tests.support.factories import UserFactory

ROLE_PAGES = {
    "/team/": {"head", "manager", "other_manager"},
    "/hr/": {"hr", "admin"},
    "/programme/": {"admin"},
    "/me/": {"head", "manager", "other_manager", "rep", "peer", "other_rep", "hr", "admin"},
}
PEOPLE = ["head", "manager", "other_manager", "rep", "peer", "other_rep", "hr", "admin"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ROLE_PAGES)
@pytest.mark.parametrize("who", PEOPLE)
def test_role_pages_are_404_to_people_without_the_role(client, org, path, who):
    client.force_login(getattr(org, who))
    expected = 200 if who in ROLE_PAGES[path] else 404
    assert client.get(path).status_code == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "home"),
    [
        ("head", "/team/"),
        ("manager", "/team/"),
        ("hr", "/hr/"),
        ("admin", "/programme/"),
        ("rep", "/me/"),
    ],
)
def test_the_front_door_sends_each_role_to_its_home(client, org, who, home):
    client.force_login(getattr(org, who))
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == home


@pytest.mark.django_db
def test_navigation_offers_only_the_pages_a_person_may_open(client, org):
    client.force_login(org.rep)
    page = client.get("/me/").content.decode()
    assert 'href="/me/"' in page
    assert 'href="/team/"' not in page and 'href="/hr/"' not in page
    client.force_login(org.hr)
    page = client.get("/hr/").content.decode()
    assert 'href="/hr/"' in page and 'href="/programme/"' not in page


@pytest.mark.django_db
def test_a_rep_sees_their_manager_skip_level_and_teams(client, org):
    team = team_create(name="EMEA Growth", lead=org.manager)
    team_member_add(team=team, person=org.rep)
    client.force_login(org.rep)
    page = client.get("/me/").content.decode()
    assert "Mia Manager" in page and "Hana Head" in page and "EMEA Growth" in page


@pytest.mark.django_db
def test_a_manager_sees_only_their_own_people(client, org):
    client.force_login(org.manager)
    page = client.get("/team/").content.decode()
    assert "Rita Rep" in page and "Pavel Peer" in page
    assert "Olga Outsider" not in page


@pytest.mark.django_db
@pytest.mark.parametrize("reports", [3, 30])
def test_my_team_uses_the_same_number_of_queries_for_3_or_30_people(client, reports):
    manager = UserFactory()
    team = team_create(name="Team", lead=manager)
    for _ in range(reports):
        team_member_add(team=team, person=UserFactory(manager=manager))
    client.force_login(manager)
    client.get("/team/")
    # session, user, roles, the header's unread count, and the dashboard's selectors
    # (itemised, with every panel filled, in tests/dashboards/test_team_query_counts.py);
    # here, without focus areas, plans, sessions this week or requests, those that are
    # skipped; what waits for the manager (`dashboards.waiting`: 5).
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/team/")
    assert response.status_code == 200
    assert len(queries) == 26, [q["sql"] for q in queries]
