"""Wins shared with one's teams, and the interpretive-language list that everyone
reads and programme admins edit, through the API; and the schema."""

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from feedback.models import InterpretiveTerm, Win
from people.services_teams import team_create, team_member_add, team_member_remove
from tests.support.factories import InterpretiveTermFactory, WinFactory


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


@pytest.fixture
def teams(org):
    east = team_create(name="Enterprise East", lead=org.manager)
    team_member_add(team=east, person=org.rep)
    team_member_add(team=east, person=org.peer)
    west = team_create(name="Enterprise West", lead=org.other_manager)
    team_member_add(team=west, person=org.other_rep)
    return type("Teams", (), {"east": east, "west": west})


def ids(response):
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


# --- Wins ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_member_shares_a_win_with_their_team(api, org, teams):
    response = api(org.rep).post(
        "/api/v1/wins/",
        {
            "team": teams.east.pk,
            "title": "The pricing pause",
            "link": "https://calls.example.com/42",
            "text": "Listen from 12:30",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["team"] == {"id": teams.east.pk, "name": "Enterprise East"}
    assert body["author"] == {"id": org.rep.pk, "display_name": "Rita Rep"}
    assert (body["title"], body["link"]) == ("The pricing pause", "https://calls.example.com/42")


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "peer"])
def test_the_lead_and_members_see_the_teams_wins(api, org, teams, who):
    win = WinFactory(team=teams.east, author=org.rep)
    client = api(getattr(org, who))
    assert ids(client.get("/api/v1/wins/")) == [win.pk]
    assert client.get(f"/api/v1/wins/{win.pk}/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_rep", "other_manager", "hr", "admin", "head"])
def test_everyone_else_gets_404_and_an_empty_list(api, org, teams, who):
    win = WinFactory(team=teams.east, author=org.rep)
    client = api(getattr(org, who))
    assert ids(client.get("/api/v1/wins/")) == []
    assert client.get(f"/api/v1/wins/{win.pk}/").status_code == 404


@pytest.mark.django_db
def test_wins_filter_by_team(api, org, teams):
    team_member_add(team=teams.west, person=org.rep)
    east = WinFactory(team=teams.east, author=org.rep)
    west = WinFactory(team=teams.west, author=org.rep)
    client = api(org.rep)
    assert ids(client.get("/api/v1/wins/")) == [west.pk, east.pk]
    assert ids(client.get(f"/api/v1/wins/?team={teams.east.pk}")) == [east.pk]
    assert client.get("/api/v1/wins/?team=east").status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("team", ["west", "left", 987_654])
def test_a_win_for_a_team_one_is_not_on_is_a_400(api, org, teams, team):
    if team == "left":
        team_member_remove(team=teams.east, person=org.rep)
    team_id = (
        team if isinstance(team, int) else getattr(teams, "east" if team == "left" else team).pk
    )
    response = api(org.rep).post("/api/v1/wins/", {"team": team_id, "title": "Mine"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"team": ["Share wins with a team you are on."]}
    assert not Win.objects.exists()


@pytest.mark.django_db
def test_a_team_filter_beyond_any_id_is_a_400_not_a_database_error(api, org, teams):
    # Found by the API fuzzing test: SQLite cannot bind it, PostgreSQL's bigint cannot hold it.
    response = api(org.rep).get("/api/v1/wins/", {"team": 2**70})
    assert response.status_code == 400
    assert "team" in response.json()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"title": ""}, "title"),
        ({"title": "x" * 201}, "title"),
        ({"link": "not a link"}, "link"),
        ({"author": 1}, "author"),
    ],
)
def test_malformed_wins_are_refused(api, org, teams, change, field):
    response = api(org.rep).post(
        "/api/v1/wins/", {"team": teams.east.pk, "title": "Mine"} | change, format="json"
    )
    assert response.status_code == 400
    assert field in response.json()
    assert not Win.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_wins_are_not_edited_through_the_api(api, org, teams, method):
    win = WinFactory(team=teams.east, author=org.rep)
    response = getattr(api(org.rep), method)(f"/api/v1/wins/{win.pk}/", {"title": "x"})
    assert response.status_code == 405


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_win_list_takes_the_same_number_of_queries_for_3_or_30(api, org, teams, how_many):
    for n in range(how_many):
        WinFactory(team=teams.east, author=org.rep if n % 2 else org.peer)
    client = api(org.manager)
    client.get("/api/v1/wins/")
    # 1 session row, 2 user, 3 count, 4 wins with team and author
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/wins/")
    assert response.json()["count"] == how_many
    assert len(queries) == 4, [q["sql"] for q in queries]


# --- Interpretive terms --------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "hr", "admin"])
def test_everyone_reads_the_list(api, org, who):
    body = api(getattr(org, who)).get("/api/v1/interpretive-terms/").json()
    phrases = [row["phrase"] for row in body["results"]]
    assert "you seem" in phrases and phrases == sorted(phrases)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "manager", "hr"])
def test_only_programme_admins_change_it(api, org, who):
    term = InterpretiveTerm.objects.get(phrase="lazy")
    client = api(getattr(org, who))
    url = f"/api/v1/interpretive-terms/{term.pk}/"
    for response in (
        client.post("/api/v1/interpretive-terms/", {"phrase": "sloppy"}, format="json"),
        client.patch(url, {"hint": "Changed"}, format="json"),
        client.delete(url),
    ):
        assert response.status_code == 403
        assert response.json() == {"detail": "Only programme admins can change this."}
    assert not InterpretiveTerm.objects.filter(phrase="sloppy").exists()
    assert InterpretiveTerm.objects.get(pk=term.pk).hint != "Changed"


@pytest.mark.django_db
def test_a_programme_admin_adds_edits_and_removes_terms(api, org):
    client = api(org.admin)
    response = client.post(
        "/api/v1/interpretive-terms/",
        {"phrase": "  Too   Aggressive ", "hint": "Which words, which moment?"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    term = response.json()
    assert term["phrase"] == "too aggressive"
    url = f"/api/v1/interpretive-terms/{term['id']}/"
    assert client.patch(url, {"hint": "Describe it."}, format="json").json()["hint"] == (
        "Describe it."
    )
    feedback = api(org.rep).post(
        "/api/v1/feedback/",
        {"recipient": org.peer.pk, "stream": "developmental", "observation": "Too aggressive"},
        format="json",
    )
    assert [h["hint"] for h in feedback.json()["literacy_hints"]] == ["Describe it."]
    assert client.delete(url).status_code == 204
    assert not InterpretiveTerm.objects.filter(phrase="too aggressive").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"phrase": "You Seem"}, {"phrase": ["That phrase is already on the list."]}),
        ({"phrase": "   "}, {"phrase": ["This field may not be blank."]}),
        ({"phrase": "x" * 61}, {"phrase": ["Ensure this field has no more than 60 characters."]}),
        ({"phrase": "meh", "weight": 3}, {"weight": ["Unknown field."]}),
    ],
)
def test_bad_terms_are_refused(api, org, body, expected):
    before = InterpretiveTerm.objects.count()
    response = api(org.admin).post("/api/v1/interpretive-terms/", body, format="json")
    assert response.status_code == 400
    assert response.json() == expected
    assert InterpretiveTerm.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_term_list_takes_the_same_number_of_queries_for_3_or_30(api, org, how_many):
    InterpretiveTerm.objects.all().delete()
    InterpretiveTermFactory.create_batch(how_many)
    client = api(org.rep)
    client.get("/api/v1/interpretive-terms/")
    # 1 session row, 2 user, 3 count, 4 terms
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/interpretive-terms/")
    assert response.json()["count"] == how_many
    assert len(queries) == 4, [q["sql"] for q in queries]


# --- The schema ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_openapi_schema_validates_and_describes_the_feedback_api(tmp_path):
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    schema = (tmp_path / "schema.yml").read_text()
    for path in (
        "/api/v1/feedback/",
        "/api/v1/feedback/{id}/",
        "/api/v1/feedback/{id}/acknowledge/",
        "/api/v1/feedback/{id}/share/",
        "/api/v1/feedback/{id}/unshare/",
        "/api/v1/feedback-requests/",
        "/api/v1/feedback-requests/{id}/answer/",
        "/api/v1/feedback-requests/{id}/decline/",
        "/api/v1/feedback-inbox/",
        "/api/v1/wins/",
        "/api/v1/interpretive-terms/{id}/",
    ):
        assert f"  {path}:" in schema, path
    assert "operationId: feedback_acknowledge" in schema
