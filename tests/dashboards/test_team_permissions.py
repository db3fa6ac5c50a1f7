"""Who may open the team and growth dashboards, pages and API alike: a manager their
own team; anyone above a manager that manager's team, read-only; a manager of
managers the review of the managers below; everyone their own growth page and nobody
anyone else's. Everyone else gets 404 — a manager's peers, the people below them, HR
and programme admins included; anonymous visitors are sent to sign in (pages) or
answered 401 (API)."""

import pytest

from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
PEOPLE = ["head", "manager", "other_manager", "rep", "peer", "other_rep", "hr", "admin"]
JSON = {"HTTP_ACCEPT": "application/json"}


def status(client, org, who, path):
    client.force_login(getattr(org, who))
    return client.get(path, **JSON).status_code


# --- Pages -----------------------------------------------------------------------------


@pytest.mark.parametrize("who", PEOPLE)
def test_my_team_is_for_people_with_direct_reports(client, org, who):
    expected = 200 if who in {"head", "manager", "other_manager"} else 404
    assert status(client, org, who, "/team/") == expected


@pytest.mark.parametrize("who", PEOPLE)
def test_a_managers_team_is_for_the_people_above_them_only(client, org, who):
    path = f"/team/managers/{org.manager.pk}/"
    got = status(client, org, who, path)
    if who == "head":
        assert got == 200
    elif who == "manager":  # their own: the page they already have
        client.force_login(org.manager)
        response = client.get(path)
        assert (response.status_code, response["Location"]) == (302, "/team/")
    else:  # a peer manager, the people below, HR, admins
        assert got == 404


@pytest.mark.parametrize("who", PEOPLE)
def test_my_coaching_is_everyones_own(client, org, who):
    assert status(client, org, who, "/me/") == 200


def test_only_managers_below_have_a_team_page(client, org):
    client.force_login(org.head)
    assert client.get(f"/team/managers/{org.other_manager.pk}/").status_code == 200
    for pk in (org.rep.pk, org.hr.pk, 999_999):  # below but without reports; nobody
        assert client.get(f"/team/managers/{pk}/").status_code == 404, pk
    client.force_login(org.rep)  # a rep asking for their own id: not a manager
    assert client.get(f"/team/managers/{org.rep.pk}/").status_code == 404


def test_a_manager_who_leaves_is_no_longer_reachable(client, org):
    """Read first, so the head's managers below are kept (`people.below`): the
    departure is seen at once all the same."""
    client.force_login(org.head)
    assert client.get(f"/team/managers/{org.manager.pk}/").status_code == 200
    org.manager.is_active = False
    org.manager.save(update_fields=["is_active"])
    assert client.get(f"/team/managers/{org.manager.pk}/").status_code == 404


def test_a_manager_moved_out_from_below_is_no_longer_reachable(client, org):
    from people.services import reporting_line_change

    boss = UserFactory(manager=org.head)
    reporting_line_change(person=org.manager, manager=boss)
    client.force_login(boss)
    assert client.get(f"/team/managers/{org.manager.pk}/").status_code == 200
    reporting_line_change(person=org.manager, manager=org.head)
    assert client.get(f"/team/managers/{org.manager.pk}/").status_code == 404
    assert client.get(f"/team/managers/{2**70}/").status_code == 404  # no such id


def test_anonymous_visitors_are_sent_to_sign_in(client, org):
    for path in ("/team/", f"/team/managers/{org.manager.pk}/", "/me/", "/team/?weeks=4"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- API -------------------------------------------------------------------------------


@pytest.mark.parametrize("who", PEOPLE)
def test_the_team_endpoint_is_for_people_with_direct_reports(client, org, who):
    expected = 200 if who in {"head", "manager", "other_manager"} else 404
    assert status(client, org, who, "/api/v1/dashboards/team/") == expected


@pytest.mark.parametrize("who", PEOPLE)
def test_a_managers_team_endpoint_is_for_the_people_above_them(client, org, who):
    got = status(client, org, who, f"/api/v1/dashboards/team/{org.manager.pk}/")
    assert got == (200 if who in {"head", "manager"} else 404)
    if who == "manager":  # their own id gives their own, with their inbox
        data = client.get(f"/api/v1/dashboards/team/{org.manager.pk}/", **JSON).json()
        assert data["own"] is True and data["inbox"] is not None


@pytest.mark.parametrize("who", PEOPLE)
def test_the_managers_review_endpoint_is_for_managers_of_managers(client, org, who):
    got = status(client, org, who, "/api/v1/dashboards/managers/")
    assert got == (200 if who == "head" else 404)


@pytest.mark.parametrize("who", PEOPLE)
def test_the_growth_endpoint_answers_about_the_caller_only(client, org, who):
    person = getattr(org, who)
    client.force_login(person)
    # Naming someone else changes nothing: there is no way to ask for another person.
    response = client.get(f"/api/v1/dashboards/growth/?person={org.rep.pk}", **JSON)
    assert response.status_code == 200
    assert response.json()["person"]["id"] == person.pk


def test_anonymous_callers_get_401(client, org):
    for path in (
        "/api/v1/dashboards/team/",
        f"/api/v1/dashboards/team/{org.manager.pk}/",
        "/api/v1/dashboards/managers/",
        "/api/v1/dashboards/growth/",
    ):
        assert client.get(path, **JSON).status_code == 401, path


def test_the_managers_review_lists_only_managers_below(client, org):
    client.force_login(org.head)
    names = [
        r["manager"]["display_name"]
        for r in client.get("/api/v1/dashboards/managers/", **JSON).json()["managers"]
    ]
    assert names == ["Mia Manager", "Omar Other"]
