"""Team channels through the API, for programme admins alone (404 to everyone else):
connect, read (the host, never the address), change or switch off, test, remove —
through the page's services. Bad input is a 400 with field messages and nothing
saved; the list costs the same queries at two sizes."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from notifications.models import Notification, TeamChannel
from people.models import AuditEvent
from tests.support.factories import TeamFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/team-channels/"
SECRET_URL = "https://hooks.slack.com/services/T000/B000/very-secret-token"


def api(user):
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def east(org):
    return TeamFactory(name="East", lead=org.manager)


def test_an_admin_connects_reads_changes_tests_and_removes_a_channel(org, east):
    client = api(org.admin)
    created = client.post(URL, {"team": east.pk, "webhook_url": SECRET_URL}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["team"] == {"id": east.pk, "name": "East"}
    assert body["host"] == "hooks.slack.com" and body["format"] == "slack" and body["is_active"]
    assert "very-secret-token" not in str(client.get(URL).json())
    channel_url = f"{URL}{body['id']}/"
    assert "webhook_url" not in client.get(channel_url).json()

    off = client.patch(channel_url, {"is_active": False, "format": "teams"}, format="json")
    assert off.status_code == 200 and off.json()["is_active"] is False
    assert off.json()["format"] == "teams"
    refused = client.post(f"{channel_url}test/")
    assert refused.status_code == 400 and not Notification.objects.exists()
    client.patch(channel_url, {"is_active": True}, format="json")
    assert client.post(f"{channel_url}test/").status_code == 202
    assert Notification.objects.get().team == east

    assert client.delete(channel_url).status_code == 204
    assert not TeamChannel.objects.exists()
    verbs = AuditEvent.objects.filter(verb__startswith="channel.").order_by("pk")
    assert list(verbs.values_list("verb", flat=True)) == [
        "channel.connected",
        "channel.changed",
        "channel.switched_off",
        "channel.switched_on",
        "channel.tested",
        "channel.removed",
    ]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"webhook_url": "ftp://x.example.com/"}, "webhook_url"),
        ({"webhook_url": ""}, "webhook_url"),
        ({"format": "discord"}, "format"),
        ({"team": 999999}, "team"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_input_is_a_400_with_field_messages_and_nothing_saved(org, east, body, field):
    data = {"team": east.pk, "webhook_url": SECRET_URL} | body
    response = api(org.admin).post(URL, data, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not TeamChannel.objects.exists()


def test_a_refused_change_saves_nothing(org, east):
    channel = TeamChannel.objects.create(team=east, webhook_url=SECRET_URL)
    response = api(org.admin).patch(
        f"{URL}{channel.pk}/", {"webhook_url": "nope", "is_active": False}, format="json"
    )
    assert response.status_code == 400 and "webhook_url" in response.json()
    channel.refresh_from_db()
    assert channel.webhook_url == SECRET_URL and channel.is_active
    second = api(org.admin).post(URL, {"team": east.pk, "webhook_url": SECRET_URL}, format="json")
    assert second.status_code == 400 and "team" in second.json()


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "head"])
def test_everyone_else_gets_404(org, east, who):
    channel = TeamChannel.objects.create(team=east, webhook_url=SECRET_URL)
    client = api(getattr(org, who))
    assert client.get(URL).status_code == 404
    assert client.get(f"{URL}{channel.pk}/").status_code == 404
    assert client.delete(f"{URL}{channel.pk}/").status_code == 404
    assert client.post(URL, {"team": east.pk, "webhook_url": SECRET_URL}).status_code == 404
    assert TeamChannel.objects.count() == 1


def test_the_list_costs_the_same_at_two_sizes(org):
    def queries(n):
        for _ in range(n):
            TeamChannel.objects.create(team=TeamFactory(lead=org.manager), webhook_url=SECRET_URL)
        client = api(org.admin)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(URL).status_code == 200
        return len(captured)

    assert queries(2) == queries(12)
