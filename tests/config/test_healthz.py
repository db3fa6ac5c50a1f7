import pytest
from django.db import connection


@pytest.mark.django_db
def test_it_reports_ok_when_database_and_broker_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}
    assert "no-cache" in response["Cache-Control"]


@pytest.fixture
def unreachable_database():
    """Point the default connection at a database that cannot be reached, for real."""
    saved = dict(connection.settings_dict)
    connection.close()
    if connection.vendor == "postgresql":
        connection.settings_dict.update(HOST="127.0.0.1", PORT="1")
    else:
        connection.settings_dict["NAME"] = "/nonexistent-dir/tandem.sqlite3"
    yield
    connection.close()
    connection.settings_dict.clear()
    connection.settings_dict.update(saved)


@pytest.mark.django_db(transaction=True)
def test_it_answers_503_with_a_reason_when_the_database_is_unreachable(
    client, unreachable_database
):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "OperationalError"
    assert body["checks"]["broker"] == "ok"


@pytest.mark.django_db
def test_it_answers_503_when_the_broker_is_unreachable(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"] != "ok"
