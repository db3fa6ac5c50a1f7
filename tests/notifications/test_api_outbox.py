"""Email delivery through the API, for programme admins alone (404 to everyone else, 401
to anyone signed out): `GET /api/v1/delivery/` is the outbox now — waiting (and since
when), to try again later, being sent, failed, stalled once something has waited more
than ten minutes, and the newest failures with whom they were for — and `POST
/api/v1/delivery/retry/` sends one failed notification again, or all, audited. Bad
input is a 400 naming the field, nothing changed; the state costs the same queries
at two sizes; every answer is the one the schema declares."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from notifications.models import Notification, NotificationKind, NotificationStatus
from notifications.selectors_outbox import FAILURES_SHOWN
from people.models import AuditEvent
from tests.support.api_schema import assert_conforms
from tests.support.factories import TeamFactory, one_on_one

pytestmark = pytest.mark.django_db
URL = "/api/v1/delivery/"
RETRY = "/api/v1/delivery/retry/"
NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def note(recipient=None, *, status=NotificationStatus.PENDING, due=None, team=None, **extra):
    fields = {"kind": NotificationKind.MISSED, "recipient": recipient, "team": team, **extra}
    fields["status"] = status
    if status == NotificationStatus.SENDING:  # a claim stamps and leases the row (a check)
        fields["claimed_at"] = timezone.now()
        fields["lease_until"] = timezone.now() + timedelta(minutes=1)
    if due is not None:
        fields["next_attempt_at"] = due
    return Notification.objects.create(**fields)


def failed(recipient=None, **extra):
    extra.setdefault("attempts", 6)
    extra.setdefault("last_error", "SMTPRecipientsRefused: 550 mailbox unavailable")
    return note(recipient, status=NotificationStatus.FAILED, **extra)


def when(value: str) -> datetime:
    return datetime.fromisoformat(value)


def test_it_counts_what_waits_waits_again_is_sent_and_failed_newest_failure_first(org):
    east = TeamFactory(name="East")
    with time_machine.travel(NOON, tick=False):
        note(org.rep, due=NOON - timedelta(minutes=2))
        note(org.peer, due=NOON - timedelta(minutes=1))
        note(org.peer, due=NOON + timedelta(minutes=30), kind=NotificationKind.DIGEST)
        note(org.manager, status=NotificationStatus.SENDING)
        note(org.head, status=NotificationStatus.SENT, sent_at=NOON)
        older = failed(org.rep, created_at=NOON - timedelta(hours=3))
        newer = failed(
            team=east,
            kind=NotificationKind.TEAM_DIGEST,
            attempts=5,
            last_error="HTTPError: 404",
            created_at=NOON - timedelta(hours=1),
        )
        response = api(org.admin).get(URL)
    assert response.status_code == 200
    assert_conforms(response, "get", URL)
    body = response.json()
    assert {k: body[k] for k in ("waiting", "later", "sending", "failed", "stalled")} == {
        "waiting": 2,
        "later": 1,
        "sending": 1,
        "failed": 2,
        "stalled": False,
    }
    assert when(body["oldest_due"]) == NOON - timedelta(minutes=2)
    assert body["failures"] == [
        {
            "id": newer.pk,
            "kind": "team_digest",
            "kind_name": "Weekly team digest",
            "recipient": None,
            "team": {"id": east.pk, "name": "East"},
            "attempts": 5,
            "last_error": "HTTPError: 404",
            "created_at": body["failures"][0]["created_at"],
        },
        {
            "id": older.pk,
            "kind": "missed",
            "kind_name": "Session missed",
            "recipient": {"id": org.rep.pk, "display_name": "Rita Rep"},
            "team": None,
            "attempts": 6,
            "last_error": "SMTPRecipientsRefused: 550 mailbox unavailable",
            "created_at": body["failures"][1]["created_at"],
        },
    ]
    assert [when(row["created_at"]) for row in body["failures"]] == [
        NOON - timedelta(hours=1),
        NOON - timedelta(hours=3),
    ]


def test_an_empty_outbox_is_all_zeros_and_nothing_waiting(org):
    note(org.head, status=NotificationStatus.SENT)
    response = api(org.admin).get(URL)
    assert_conforms(response, "get", URL)
    assert response.json() == {
        "waiting": 0,
        "oldest_due": None,
        "later": 0,
        "sending": 0,
        "failed": 0,
        "stalled": False,
        "failures": [],
    }


@pytest.mark.parametrize("minutes, stalled", [(9, False), (10, False), (11, True)])
def test_it_is_stalled_once_something_has_waited_more_than_ten_minutes(org, minutes, stalled):
    note(org.rep, due=NOON)
    note(org.peer, due=NOON + timedelta(minutes=minutes + 5))  # later: not counted
    with time_machine.travel(NOON + timedelta(minutes=minutes), tick=False):
        body = api(org.admin).get(URL).json()
    assert (body["waiting"], body["later"], body["stalled"]) == (1, 1, stalled)
    assert when(body["oldest_due"]) == NOON


def test_only_the_newest_failures_are_listed_and_all_are_counted(org):
    with time_machine.travel(NOON, tick=False) as clock:
        for _ in range(FAILURES_SHOWN + 2):
            failed(org.rep)
            clock.shift(timedelta(seconds=1))
    body = api(org.admin).get(URL).json()
    assert body["failed"] == FAILURES_SHOWN + 2 and len(body["failures"]) == FAILURES_SHOWN
    newest = list(
        Notification.objects.order_by("-created_at").values_list("pk", flat=True)[:FAILURES_SHOWN]
    )
    assert [row["id"] for row in body["failures"]] == newest


def test_one_failed_notification_is_sent_again(org, django_capture_on_commit_callbacks):
    first, second = failed(org.rep), failed(org.peer)
    with django_capture_on_commit_callbacks() as started:
        response = api(org.admin).post(RETRY, {"notification": first.pk}, format="json")
    assert response.status_code == 200, response.json()
    assert_conforms(response, "post", RETRY)
    assert response.json() == {"retried": 1}
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, first.attempts, second.status) == ("pending", 0, "failed")
    assert first.next_attempt_at <= timezone.now()
    assert len(started) == settings.CADENCE_SENDERS  # the senders, once it commits
    event = AuditEvent.objects.get(verb="outbox.retried")
    assert (event.actor, event.data) == (org.admin, {"notifications": 1})


def test_every_failed_one_is_sent_again_without_a_notification(org):
    failed(org.rep)
    failed(team=TeamFactory(), kind=NotificationKind.TEAM_DIGEST)
    waiting = note(org.peer, due=NOON)
    response = api(org.admin).post(RETRY, {}, format="json")
    assert response.json() == {"retried": 2}
    assert not Notification.objects.filter(status="failed").exists()
    assert Notification.objects.filter(status="pending", attempts=0).count() == 3
    waiting.refresh_from_db()
    assert waiting.next_attempt_at == NOON  # a row that had not failed is left alone
    event = AuditEvent.objects.get(verb="outbox.retried")
    assert event.data == {"notifications": 2}


def test_an_empty_body_sends_every_failed_one_again(org):
    failed(org.rep)
    response = api(org.admin).post(RETRY)
    assert response.status_code == 200 and response.json() == {"retried": 1}


def test_sent_again_it_goes_out_once_the_change_commits(org, django_capture_on_commit_callbacks):
    session = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(hours=20))
    row = failed(org.rep, kind=NotificationKind.UPCOMING, session=session)
    with django_capture_on_commit_callbacks(execute=True):
        response = api(org.admin).post(RETRY, {"notification": row.pk}, format="json")
    assert response.json() == {"retried": 1}
    row.refresh_from_db()
    assert row.status == NotificationStatus.SENT and row.attempts == 1
    assert [message.to for message in mail.outbox] == [[org.rep.email]]


@pytest.mark.parametrize("status", ["pending", "sending", "sent", "skipped"])
def test_nothing_failed_with_that_id_sends_nothing_again(org, status):
    row = note(org.rep, status=status)
    response = api(org.admin).post(RETRY, {"notification": row.pk}, format="json")
    assert response.status_code == 200 and response.json() == {"retried": 0}
    assert Notification.objects.get().status == status
    assert not AuditEvent.objects.filter(verb="outbox.retried").exists()


def test_nothing_failed_at_all_sends_nothing_again(org):
    failed(org.rep)
    client = api(org.admin)
    assert client.post(RETRY, {"notification": 10**12}, format="json").json() == {"retried": 0}
    assert client.post(RETRY, {}, format="json").json() == {"retried": 1}
    assert client.post(RETRY, {}, format="json").json() == {"retried": 0}
    assert AuditEvent.objects.filter(verb="outbox.retried").count() == 1


@pytest.mark.parametrize(
    "body, field",
    [
        ({"notification": "x"}, "notification"),
        ({"notification": "one"}, "notification"),
        ({"notification": 1.5}, "notification"),
        ({"notification": True}, "notification"),
        ({"notification": None}, "notification"),
        ({"notification": [1]}, "notification"),
        ({"notification": -1}, "notification"),
        ({"notification": 0}, "notification"),
        ({"notification": 2**63}, "notification"),
        ({"notifications": 1}, "notifications"),
        ({"all": True}, "all"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_nothing_is_sent_again(org, body, field):
    row = failed(org.rep)
    if body.get("notifications") == 1:
        body = {"notifications": row.pk}
    response = api(org.admin).post(RETRY, body, format="json")
    assert response.status_code == 400
    assert_conforms(response, "post", RETRY)
    assert field in response.json()
    row.refresh_from_db()
    assert row.status == "failed" and row.attempts == 6
    assert not AuditEvent.objects.filter(verb="outbox.retried").exists()


def test_a_body_that_is_not_an_object_is_a_400(org):
    failed(org.rep)
    response = api(org.admin).post(RETRY, [1], format="json")
    assert response.status_code == 400
    assert Notification.objects.get().status == "failed"


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "head"])
def test_everyone_but_programme_admins_gets_404(org, who):
    row = failed(org.rep)
    client = api(getattr(org, who))
    seen = client.get(URL)
    assert seen.status_code == 404
    assert_conforms(seen, "get", URL)
    retried = client.post(RETRY, {"notification": row.pk}, format="json")
    assert retried.status_code == 404
    assert_conforms(retried, "post", RETRY)
    assert client.post(RETRY, {}, format="json").status_code == 404
    row.refresh_from_db()
    assert row.status == "failed"
    assert not AuditEvent.objects.filter(verb="outbox.retried").exists()


def test_anyone_signed_out_gets_401(org):
    row = failed(org.rep)
    client = api()
    seen = client.get(URL)
    assert seen.status_code == 401 and seen.headers["WWW-Authenticate"] == "Token"
    assert_conforms(seen, "get", URL)
    retried = client.post(RETRY, {"notification": row.pk}, format="json")
    assert retried.status_code == 401
    assert_conforms(retried, "post", RETRY)
    assert Notification.objects.get().status == "failed"


@pytest.mark.parametrize("size", [1, FAILURES_SHOWN + 10])
def test_the_state_costs_the_same_queries_at_two_sizes(org, size, django_assert_num_queries):
    for _ in range(size):
        failed(org.rep)
        failed(team=TeamFactory(), kind=NotificationKind.TEAM_DIGEST)
        note(org.peer)
        note(org.peer, due=timezone.now() + timedelta(hours=1))
        note(org.manager, status=NotificationStatus.SENDING)
        note(org.head, status=NotificationStatus.SENT)
    client = api(org.admin)
    # The session, the person, their roles, then the outbox's four: pending, sending,
    # failed, and the newest failures with whom they were for.
    with django_assert_num_queries(7):
        response = client.get(URL)
    assert response.status_code == 200
    assert len(response.json()["failures"]) == min(2 * size, FAILURES_SHOWN)
