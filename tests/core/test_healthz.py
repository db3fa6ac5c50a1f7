import pytest


@pytest.mark.django_db
def test_it_reports_ok_when_database_and_broker_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}
    assert "no-cache" in response["Cache-Control"]


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
def test_a_broker_outage_is_reported_but_keeps_the_replica_in_rotation(client, settings):
    """Pages work without Redis (the cache falls back, the outbox waits in the
    database), so a load balancer must not take every web replica out."""
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"] != "ok"
