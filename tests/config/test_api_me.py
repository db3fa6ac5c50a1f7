import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from people.services_credentials import api_token_rotate
from people.services_teams import team_create, team_member_add


@pytest.mark.django_db
def test_it_returns_the_signed_in_person_with_manager_roles_and_teams(client, org):
    team = team_create(name="Enterprise East", lead=org.manager)
    team_member_add(team=team, person=org.rep)
    client.force_login(org.rep)
    body = client.get("/api/v1/me/").json()
    assert body == {
        "id": org.rep.pk,
        "email": "rep@example.com",
        "display_name": "Rita Rep",
        "time_zone": "Europe/Berlin",
        "manager": {"id": org.manager.pk, "display_name": "Mia Manager"},
        "roles": ["rep"],
        "teams": [{"id": team.pk, "name": "Enterprise East"}],
    }


@pytest.mark.django_db
def test_it_lists_every_role_of_a_manager_of_managers(client, org):
    client.force_login(org.head)
    body = client.get("/api/v1/me/").json()
    assert body["roles"] == ["manager", "manager_of_managers"]
    assert body["manager"] is None


@pytest.mark.django_db
def test_scripts_authenticate_with_a_token_and_a_revoked_token_stops_working(org):
    key = api_token_rotate(person=org.hr)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/me/").json()["roles"] == ["hr", "rep"]

    new_key = api_token_rotate(person=org.hr)
    assert api.get("/api/v1/me/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {new_key}")
    assert api.get("/api/v1/me/").status_code == 200


@pytest.mark.django_db
def test_a_deactivated_persons_token_is_refused(org):
    key = api_token_rotate(person=org.rep)
    org.rep.is_active = False
    org.rep.save()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/me/").status_code == 401


@pytest.mark.django_db
def test_it_uses_a_fixed_number_of_queries(client, org):
    client.force_login(org.rep)
    client.get("/api/v1/me/")
    # session, user, me + manager (select_related), roles, current teams
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/v1/me/")
    assert len(queries) == 5, [q["sql"] for q in queries]


@pytest.mark.django_db
def test_the_schema_and_docs_are_served_to_signed_in_people(client, org):
    client.force_login(org.rep)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/v1/me/" in schema.json()["paths"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()
    assert b"cdn" not in docs.content.lower()
