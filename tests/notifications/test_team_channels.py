"""Team channels in the app (`/programme/channels/`), for programme admins: every
channel with its record; connect one, change its address or format, switch it off and
on, send a test (the outbox posts it; the record says how it went), remove it — each
audited with the team, format and host only. The webhook address is a credential:
never shown back, in the page, the audit trail or the API. Bad input is a 400 with the
reason and nothing saved; everyone else gets 404; the page costs the same queries at
two sizes."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from notifications import outbox
from notifications.models import Notification, NotificationKind, NotificationStatus, TeamChannel
from people.models import AuditEvent
from tests.support.factories import TeamFactory
from tests.support.notifications_webhook import webhook  # noqa: F401 - the `webhook` fixture

pytestmark = pytest.mark.django_db
PAGE = "/programme/channels/"
SECRET_URL = "https://hooks.slack.com/services/T000/B000/very-secret-token"


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


@pytest.fixture
def east(org):
    return TeamFactory(name="East", lead=org.manager)


def channel_events():
    return AuditEvent.objects.filter(verb__startswith="channel.")


def errors_in(response) -> list[str]:
    return re.findall(r'role="alert">(?:<p>)?([^<]+)<', response.content.decode())


def test_connecting_a_team_keeps_the_address_and_shows_only_its_host(admin, org, east):
    response = admin.post(
        f"{PAGE}connect/", {"team": east.pk, "webhook_url": SECRET_URL, "format": "slack"}
    )
    channel = TeamChannel.objects.get(team=east)
    assert response.status_code == 302
    assert response["Location"] == f"{PAGE}#channel-{channel.pk}"
    assert channel.webhook_url == SECRET_URL and channel.is_active
    body = admin.get(PAGE).content.decode()
    assert 'East <span class="muted small">· Slack (or compatible) · hooks.slack.com' in body
    assert "very-secret-token" not in body and "/services/" not in body
    event = AuditEvent.objects.get(verb="channel.connected")
    assert event.actor == org.admin and event.target_id == str(east.pk)
    assert event.data == {"format": "slack", "host": "hooks.slack.com"}


@pytest.mark.parametrize(
    "data, message",
    [
        ({"webhook_url": ""}, "Paste the channel&#x27;s incoming webhook address."),
        ({"webhook_url": "ftp://files.example.com/x"}, "Paste the whole address, starting with"),
        ({"webhook_url": "not a url"}, "Paste the whole address, starting with"),
        ({"webhook_url": "https://x.example.com/" + "a" * 500}, "at most 500 characters"),
        ({"format": "discord"}, "Select a valid choice. discord is not one of"),
        ({"team": ""}, "Pick the team whose channel this is."),
        ({"team": "999999"}, "Pick a team without a channel from the list."),
    ],
)
def test_bad_input_when_connecting_is_a_400_and_nothing_is_saved(admin, east, data, message):
    posted = {"team": east.pk, "webhook_url": SECRET_URL, "format": "slack"} | data
    response = admin.post(f"{PAGE}connect/", posted)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not TeamChannel.objects.exists() and not channel_events()


def test_a_team_with_a_channel_cannot_get_a_second(admin, east):
    TeamChannel.objects.create(team=east, webhook_url=SECRET_URL)
    response = admin.post(f"{PAGE}connect/", {"team": east.pk, "webhook_url": SECRET_URL})
    assert response.status_code == 400
    assert "Pick a team without a channel from the list." in errors_in(response)
    assert TeamChannel.objects.count() == 1


def test_a_new_address_starts_a_clean_record_and_an_empty_one_keeps_the_old(admin, east):
    channel = TeamChannel.objects.create(
        team=east, webhook_url=SECRET_URL, last_error="URLError: refused"
    )
    prefix = f"channel-{channel.pk}"
    kept = admin.post(
        f"{PAGE}{channel.pk}/", {f"{prefix}-webhook_url": "", f"{prefix}-format": "teams"}
    )
    assert kept.status_code == 302
    channel.refresh_from_db()
    assert channel.format == "teams" and channel.webhook_url == SECRET_URL
    assert channel.last_error == "URLError: refused"
    new = "https://example.webhook.office.com/webhookb2/abc"
    admin.post(f"{PAGE}{channel.pk}/", {f"{prefix}-webhook_url": new, f"{prefix}-format": "teams"})
    channel.refresh_from_db()
    assert channel.webhook_url == new and channel.last_error == ""
    assert [e.data for e in AuditEvent.objects.filter(verb="channel.changed").order_by("pk")] == [
        {"format": "teams", "host": "hooks.slack.com", "fields": ["format"]},
        {"format": "teams", "host": "example.webhook.office.com", "fields": ["webhook_url"]},
    ]
    bad = admin.post(
        f"{PAGE}{channel.pk}/", {f"{prefix}-webhook_url": "nope", f"{prefix}-format": "slack"}
    )
    assert bad.status_code == 400
    assert "Paste the whole address, starting with https://." in errors_in(bad)
    channel.refresh_from_db()
    assert channel.webhook_url == new and channel.format == "teams"


def test_a_failure_is_told_in_plain_words_with_the_raw_error_as_a_detail(admin, east):
    TeamChannel.objects.create(
        team=east,
        webhook_url=SECRET_URL,
        last_failure_at=timezone.now(),
        last_error="URLError: <urlopen error [Errno 111] Connection refused>",
    )
    body = admin.get(PAGE).content.decode()
    said = re.search(r"<dt>Last failure</dt><dd><time [^>]*>[^<]*</time> — ([^<]*)<", body)
    assert said.group(1).startswith("The channel&#x27;s webhook could not be reached")
    assert (
        "<summary>Technical detail</summary><code>URLError: &lt;urlopen error [Errno 111] "
        "Connection refused&gt;</code>"
    ) in body


def test_a_test_message_goes_out_through_the_outbox_and_the_record_says_so(
    admin,
    east,
    webhook,  # noqa: F811
):
    url, hook = webhook
    channel = TeamChannel.objects.create(team=east, webhook_url=url)
    response = admin.post(f"{PAGE}{channel.pk}/test/", follow=True)
    assert "A test message is on its way to East" in response.content.decode()
    row = Notification.objects.get(kind=NotificationKind.CHANNEL_TEST)
    assert row.team == east and row.recipient is None
    outbox.drain()
    assert len(hook.received) == 1
    assert hook.received[0]["text"].startswith("Tandem is connected to East's channel")
    channel.refresh_from_db()
    row.refresh_from_db()
    assert channel.last_success_at is not None and row.status == NotificationStatus.SENT
    assert AuditEvent.objects.filter(verb="channel.tested").count() == 1


def test_a_channel_switched_off_gets_nothing_and_cannot_be_tested(admin, east):
    channel = TeamChannel.objects.create(team=east, webhook_url=SECRET_URL)
    assert admin.post(f"{PAGE}{channel.pk}/switch/", {"on": "0"}).status_code == 302
    channel.refresh_from_db()
    assert not channel.is_active
    refused = admin.post(f"{PAGE}{channel.pk}/test/")
    assert refused.status_code == 400
    assert "The channel is switched off: switch it on to test it." in errors_in(refused)
    assert not Notification.objects.exists()
    assert admin.post(f"{PAGE}{channel.pk}/switch/", {"on": "maybe"}).status_code == 400
    admin.post(f"{PAGE}{channel.pk}/switch/", {"on": "1"})
    channel.refresh_from_db()
    assert channel.is_active
    verbs = list(channel_events().order_by("pk").values_list("verb", flat=True))
    assert verbs == ["channel.switched_off", "channel.switched_on"]


def test_removing_a_channel_stops_posts_and_is_audited(admin, east):
    channel = TeamChannel.objects.create(team=east, webhook_url=SECRET_URL)
    response = admin.post(f"{PAGE}{channel.pk}/remove/", follow=True)
    assert "East&#x27;s channel is removed" in response.content.decode()
    assert not TeamChannel.objects.exists()
    assert AuditEvent.objects.get(verb="channel.removed").data == {
        "format": "slack",
        "host": "hooks.slack.com",
    }
    assert admin.post(f"{PAGE}{channel.pk}/remove/").status_code == 404


def test_no_audit_event_holds_the_address(admin, east):
    admin.post(f"{PAGE}connect/", {"team": east.pk, "webhook_url": SECRET_URL, "format": "slack"})
    channel = TeamChannel.objects.get()
    admin.post(f"{PAGE}{channel.pk}/test/")
    admin.post(f"{PAGE}{channel.pk}/remove/")
    trail = str(list(AuditEvent.objects.values_list("data", "target_repr")))
    assert "very-secret-token" not in trail and "/services/" not in trail


def test_everyone_else_gets_404_and_nothing_changes(org, client_for, east):
    channel = TeamChannel.objects.create(team=east, webhook_url=SECRET_URL)
    for who in (org.hr, org.manager, org.rep, org.head):
        client = client_for(who)
        assert client.get(PAGE).status_code == 404
        assert client.post(f"{PAGE}{channel.pk}/remove/").status_code == 404
        assert client.post(f"{PAGE}{channel.pk}/switch/", {"on": "0"}).status_code == 404
    channel.refresh_from_db()
    assert channel.is_active and not channel_events()


def test_the_page_costs_the_same_at_two_sizes(admin, org):
    def queries(n):
        for _ in range(n):
            TeamChannel.objects.create(team=TeamFactory(lead=org.manager), webhook_url=SECRET_URL)
        TeamFactory(lead=org.manager)  # one still to connect
        with CaptureQueriesContext(connection) as captured:
            assert admin.get(PAGE).status_code == 200
        return len(captured)

    assert queries(2) == queries(12)


def test_a_wrong_page_number_is_a_400_saying_so(admin):
    response = admin.get(PAGE, {"page": "zero"})
    assert response.status_code == 400
    assert "Give a page number: a whole number from 1." in response.content.decode()
