"""A database outage is a clean 503 ("try again"), for pages and the API alike, and
the next request after it ends is served without restarting anything. Any other
failure stays a 500, with nothing of the error shown."""

import pytest
from django.db import ProgrammingError, connection
from django.test import Client
from django.urls import path

from tests.support.factories import UserFactory


def _broken_query(request):
    raise ProgrammingError("relation does not exist")


urlpatterns = [path("boom/", _broken_query), path("api/boom/", _broken_query)]
handler500 = "core.error_pages.server_error"


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.mark.django_db(transaction=True)
def test_a_page_answers_503_with_retry_after_while_the_database_is_unreachable(
    client, unreachable_database
):
    response = client.get("/accounts/login/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "temporarily unavailable" in response.content.decode()
    assert "OperationalError" not in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_api_answers_503_as_json_while_the_database_is_unreachable(
    client, unreachable_database
):
    response = client.get("/api/v1/me/", HTTP_AUTHORIZATION="Token 0123456789abcdef")
    assert response.status_code == 503
    assert response.json() == {
        "detail": "Tandem cannot reach its database right now. Please try again in a moment."
    }


@pytest.mark.django_db(transaction=True)
def test_the_first_request_after_the_outage_is_served_without_a_restart(client):
    client.force_login(UserFactory())
    assert client.get("/me/").status_code == 200
    saved = dict(connection.settings_dict)
    connection.close()
    unreachable = {"HOST": "127.0.0.1", "PORT": "1"}
    if connection.vendor == "sqlite":
        unreachable = {"NAME": "/nonexistent-dir/tandem.sqlite3"}
    connection.settings_dict.update(unreachable)
    try:
        assert client.get("/me/").status_code == 503
    finally:
        connection.settings_dict.update(saved)  # the database is back; nobody reconnects
    assert client.get("/me/").status_code == 200


@pytest.mark.django_db
@pytest.mark.urls("tests.core.test_database_outage")
def test_any_other_failure_is_a_500_that_shows_nothing_of_the_error(client):
    page = client.get("/boom/")
    assert page.status_code == 500
    assert "relation does not exist" not in page.content.decode()
    assert "Something went wrong" in page.content.decode()
    api = client.get("/api/boom/")
    assert api.status_code == 500
    assert api.json() == {"detail": "Something went wrong on our side."}
