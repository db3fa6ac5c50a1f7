"""Email delivery (`/programme/delivery/`), for programme admins: what waits to be sent
and since when — with a warning once nothing has been sending for ten minutes — what is
being sent, what waits to be tried again, and what failed for good with its error,
newest first; sending failed ones again, one or all (audited, the senders started). The
page reads only the outbox's pending, sending and failed rows, at the same cost however
many; everyone else gets 404 (also in the authorization matrix)."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from notifications.delivery_errors import in_words
from notifications.models import Notification, NotificationStatus
from people.models import AuditEvent
from tests.support.factories import TeamFactory

pytestmark = pytest.mark.django_db
URL = "/programme/delivery/"
RETRY = "/programme/delivery/retry/"
REFUSED = "URLError: <urlopen error [Errno 111] Connection refused>"


def note(recipient=None, *, status=NotificationStatus.PENDING, due=None, team=None, **extra):
    fields = {"kind": "missed", "recipient": recipient, "team": team, "status": status, **extra}
    if status == NotificationStatus.SENDING:
        fields["claimed_at"] = timezone.now()
        fields["lease_until"] = timezone.now() + timedelta(minutes=1)
    if due is not None:
        fields["next_attempt_at"] = due
    return Notification.objects.create(**fields)


def failed(recipient=None, **extra):
    extra.setdefault("attempts", 6)
    extra.setdefault("last_error", "SMTPRecipientsRefused: 550 mailbox unavailable")
    return note(recipient, status=NotificationStatus.FAILED, **extra)


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def test_it_shows_what_waits_is_sent_waits_again_and_failed(admin, org):
    now = timezone.now()
    note(org.rep, due=now - timedelta(minutes=2))
    note(org.peer, due=now + timedelta(minutes=30))  # backing off
    note(org.manager, status=NotificationStatus.SENDING)
    note(org.head, status=NotificationStatus.SENT)
    failed(org.rep)
    failed(team=TeamFactory(name="East"), kind="team_digest", last_error="HTTPError: 404")
    body = admin.get(URL).content.decode()
    for label, number in [
        ("Waiting to be sent", 1),
        ("Being sent", 1),
        ("To try again later", 1),
        ("Failed", 2),
    ]:
        assert f"<dt>{label}</dt><dd>{number}</dd>" in body
    assert "no worker seems to be sending" not in body
    east = body.index("East's channel")
    assert east < body.index("Rita Rep")  # newest first
    assert "Weekly team digest" in body and "after 6 tries" in body
    # Each failure leads with what it means; the raw error is a detail for an operator.
    assert '<td data-label="Why it failed">The webhook address no longer exists (404)' in body
    assert '<td data-label="Why it failed">The mail server refused the recipient' in body
    detail = '<details class="error-detail"><summary>Technical detail</summary><code>'
    assert f"{detail}HTTPError: 404</code>" in body
    assert f"{detail}SMTPRecipientsRefused: 550 mailbox unavailable</code>" in body
    # Every one at once, or this one: two buttons, two names.
    assert ">Send all 2 failed again</button>" in body
    assert body.count(">Send this one again</button>") == 2


def test_a_single_failure_has_one_button_to_send_it_again(admin, org):
    failed(team=TeamFactory(name="East"), kind="team_digest", last_error=REFUSED)
    body = admin.get(URL).content.decode()
    assert "failed again</button>" not in body
    assert body.count(">Send this one again</button>") == 1
    why = re.search(r'<td data-label="Why it failed">(.*?)<', body).group(1)
    assert why.startswith("The channel&#x27;s webhook could not be reached: it refused")
    assert "Errno" not in why and "URLError" not in why


@pytest.mark.parametrize(
    ("raw", "channel", "words"),
    [
        (REFUSED, True, "The channel's webhook could not be reached: it refused the connection."),
        (REFUSED, False, "The mail server could not be reached: it refused the connection."),
        ("ConnectionRefusedError: [Errno 111] Connection refused", False, "could not be reached"),
        ("TimeoutError: timed out", True, "The channel's webhook did not answer in time."),
        ("URLError: <urlopen error [Errno -2] Name or service not known>", True, "spelled right"),
        ("HTTPError: HTTP Error 410: Gone", True, "no longer exists (410)"),
        ("OSError: webhook answered 403", True, "turned the message away (403)"),
        ("HTTPError: HTTP Error 503: Service Unavailable", True, "a problem of its own (503)"),
        ("HTTPError: HTTP Error 400: Bad Request", True, "refused the message (400)"),
        ("SMTPAuthenticationError: (535, b'bad')", False, "refused Tandem's sign-in"),
        ("SMTPServerDisconnected: gone", False, "closed the connection"),
        ("KeyError: 'the words of a private note'", False, "a reason Tandem does not recognise"),
        ("", True, ""),
    ],
)
def test_errors_are_put_in_plain_words_never_their_own(raw, channel, words):
    said = in_words(raw, channel=channel)
    assert words in said and (said == "" or said.endswith("."))
    assert "Errno" not in said and "private" not in said


def test_a_backlog_that_waits_more_than_ten_minutes_says_no_worker_is_sending(admin, org):
    note(org.rep)
    with time_machine.travel(timezone.now() + timedelta(minutes=11)):
        body = admin.get(URL).content.decode()
    assert "no worker seems to be sending" in body


def test_one_failed_notification_is_sent_again(admin, org, django_capture_on_commit_callbacks):
    first, second = failed(org.rep), failed(org.peer)
    with django_capture_on_commit_callbacks() as started:
        response = admin.post(RETRY, {"notification": first.pk}, follow=True)
    assert "1 notification will be sent again in a moment." in response.content.decode()
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, first.attempts, second.status) == ("pending", 0, "failed")
    assert first.next_attempt_at <= timezone.now()
    assert started  # the senders, once it commits
    event = AuditEvent.objects.get(verb="outbox.retried")
    assert (event.actor, event.data) == (org.admin, {"notifications": 1})


def test_every_failed_one_is_sent_again(admin, org):
    failed(org.rep)
    failed(org.peer)
    response = admin.post(RETRY, follow=True)
    assert "2 notifications will be sent again in a moment." in response.content.decode()
    assert not Notification.objects.filter(status="failed").exists()
    assert "Nothing has failed." in response.content.decode()


@pytest.mark.parametrize("data", [{"notification": "x"}, {"notification": "-1"}, {}])
def test_nothing_to_send_again_is_a_400(admin, org, data):
    note(org.rep)  # waiting, not failed
    response = admin.post(RETRY, data)
    assert response.status_code == 400
    assert Notification.objects.get().status == "pending"
    assert not AuditEvent.objects.filter(verb="outbox.retried").exists()


def test_it_costs_the_same_at_two_sizes(admin, org):
    def queries(n):
        for _ in range(n):
            failed(org.rep)
            failed(team=TeamFactory())
            note(org.peer)
        with CaptureQueriesContext(connection) as captured:
            assert admin.get(URL).status_code == 200
        return len(captured)

    assert queries(1) == queries(12)


def test_everyone_else_gets_404_and_nothing_is_sent_again(org, client_for):
    row = failed(org.rep)
    for who in (org.hr, org.manager, org.rep, org.head):
        client = client_for(who)
        assert client.get(URL).status_code == 404
        assert client.post(RETRY, {"notification": row.pk}).status_code == 404
    row.refresh_from_db()
    assert row.status == "failed"


def test_the_programme_page_says_when_something_failed_or_nothing_is_sent(admin, org):
    assert "failed</span>" not in admin.get("/programme/").content.decode()
    failed(org.rep)
    assert '<span class="status status-cancelled">1 failed</span>' in (
        admin.get("/programme/").content.decode()
    )
    note(org.peer)
    with time_machine.travel(timezone.now() + timedelta(minutes=11)):
        page = admin.get("/programme/").content.decode()
    assert "Nothing is being sent" in page
