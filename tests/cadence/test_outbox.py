"""The outbox: claimed once, sent once, retried with backoff, failures kept, stale
claims handed back, preferences and quiet hours respected, team webhooks."""

import json
import threading
from datetime import UTC, datetime, time, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import time_machine
from django.core import mail

from cadence import outbox
from cadence.models import (
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationStatus,
    TeamChannel,
)
from people.services import team_create, team_member_add
from tests.factories import one_on_one

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def upcoming_for(org, person=None):
    session = one_on_one(org.manager, org.rep, start=NOON + timedelta(hours=20))
    return Notification.objects.create(
        kind=NotificationKind.UPCOMING, session=session, recipient=person or org.rep
    )


@pytest.mark.django_db
def test_a_claimed_row_is_not_claimed_again_and_is_sent_once(org):
    with time_machine.travel(NOON, tick=False):
        row = upcoming_for(org)
        first = outbox.claim()
        assert first == [row.pk] and outbox.claim() == []
        outbox.deliver_claimed(first)
        outbox.deliver_claimed(first)  # a repeated message finds nothing to send
    row.refresh_from_db()
    assert row.status == NotificationStatus.SENT and len(mail.outbox) == 1


@pytest.mark.django_db
def test_a_failed_send_is_retried_with_backoff_then_marked_failed(org, monkeypatch):
    from cadence import delivery

    def broken(row, now):
        raise ConnectionError("smtp down")

    monkeypatch.setattr(delivery, "deliver", broken)
    with time_machine.travel(NOON, tick=False) as clock:
        row = upcoming_for(org)
        seen = []
        for _ in range(outbox.MAX_ATTEMPTS):
            outbox.drain()
            row.refresh_from_db()
            seen.append((row.status, row.attempts))
            clock.move_to(row.next_attempt_at + timedelta(seconds=1))
    assert seen[0] == (NotificationStatus.PENDING, 1)
    assert seen[-1] == (NotificationStatus.FAILED, outbox.MAX_ATTEMPTS)
    assert row.last_error == "ConnectionError: smtp down"
    assert [outbox.backoff(n).total_seconds() / 60 for n in (1, 2, 3, 4)] == [1, 2, 4, 8]


@pytest.mark.django_db
def test_a_claim_left_by_a_dead_worker_is_handed_back_and_then_sent(org, settings):
    settings.CADENCE_STALE_CLAIM_MINUTES = 10
    with time_machine.travel(NOON, tick=False):
        row = upcoming_for(org)
        outbox.claim()  # ... and the worker dies here
    with time_machine.travel(NOON + timedelta(minutes=5), tick=False):
        assert outbox.reap_stale_claims() == 0
    with time_machine.travel(NOON + timedelta(minutes=11), tick=False):
        assert outbox.reap_stale_claims() == 1
        outbox.drain()
    row.refresh_from_db()
    assert row.status == NotificationStatus.SENT and len(mail.outbox) == 1


@pytest.mark.django_db
def test_a_kind_switched_off_stays_in_app_only(org):
    NotificationPreference.objects.create(person=org.rep, email_upcoming=False)
    with time_machine.travel(NOON, tick=False):
        row = upcoming_for(org)
        outbox.drain()
    row.refresh_from_db()
    assert row.status == NotificationStatus.SKIPPED and mail.outbox == []


@pytest.mark.django_db
def test_quiet_hours_in_the_recipients_zone_defer_the_email(org):
    # Rita is in Berlin; quiet 12:00–14:00 local. 12:00 UTC is 13:00 in Berlin.
    NotificationPreference.objects.create(person=org.rep, quiet_from=time(12), quiet_until=time(14))
    with time_machine.travel(NOON, tick=False):
        row = upcoming_for(org)
        assert outbox.drain()["deferred"] == 1
    row.refresh_from_db()
    assert row.status == NotificationStatus.PENDING and row.attempts == 0
    assert row.next_attempt_at == datetime(2026, 3, 2, 13, 0, tzinfo=UTC)  # 14:00 Berlin
    with time_machine.travel(row.next_attempt_at, tick=False):
        outbox.drain()
    assert len(mail.outbox) == 1


class _Hook(BaseHTTPRequestHandler):
    received: list = []
    status = 200

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Hook.received.append(json.loads(body))
        self.send_response(_Hook.status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook():
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Hook.received, _Hook.status = [], 200
    yield f"http://127.0.0.1:{server.server_port}/hook", _Hook
    server.shutdown()


@pytest.mark.django_db
def test_the_team_channel_gets_the_call_review_reminder_and_failures_are_kept(org, webhook):
    from cadence.engine import reminders_queue
    from coaching.services import session_create

    url, hook = webhook
    team = team_create(name="EMEA Growth", lead=org.manager)
    team_member_add(team=team, person=org.rep)
    team_member_add(team=team, person=org.peer)
    channel = TeamChannel.objects.create(team=team, webhook_url=url)
    with time_machine.travel(NOON, tick=False):
        session_create(
            kind="team_call_review",
            start=NOON + timedelta(hours=20),
            team=team,
            created_by=org.manager,
            participants=[(org.rep, "host"), (org.peer, "participant"), (org.manager, "manager")],
        )
        reminders_queue()
        outbox.drain()
    assert len(hook.received) == 1
    text = hook.received[0]["text"]
    assert "Team call review for EMEA Growth" in text and "Host: Rita Rep" in text
    channel.refresh_from_db()
    assert channel.last_success_at is not None

    hook.status = 500
    with time_machine.travel(NOON + timedelta(minutes=1), tick=False):
        row = Notification.objects.get(team=team)
        Notification.objects.filter(pk=row.pk).update(status="pending", next_attempt_at=NOON)
        outbox.drain()
    channel.refresh_from_db()
    row.refresh_from_db()
    assert "500" in channel.last_error and row.status == NotificationStatus.PENDING


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_senders_at_once_never_take_the_same_row(org):
    """Real PostgreSQL: SKIP LOCKED hands each row to exactly one claimer."""
    from django.db import connection

    with time_machine.travel(NOON, tick=False):
        rows = [upcoming_for(org) for _ in range(3)]
    rows += [
        Notification.objects.create(kind="digest", recipient=org.manager, period=f"2026-W{n}")
        for n in range(10, 40)
    ]
    barrier, claimed = threading.Barrier(4), []

    def claim():
        try:
            barrier.wait()
            claimed.extend(outbox.claim(limit=10))
        finally:
            connection.close()

    threads = [threading.Thread(target=claim) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(claimed) == len(set(claimed)) == len(rows)


@pytest.mark.django_db
@pytest.mark.parametrize("for_team", [False, True])
def test_an_escalation_email_names_the_coachee_or_the_team(org, weekly_plan, for_team):
    """A 1:1 plan has no team and a team plan no coachee; both escalations are sent."""
    team = team_create(name="Closers", lead=org.manager)
    plan = (
        weekly_plan(kind="team_call_review", coachee=None, team=team) if for_team else weekly_plan()
    )
    with time_machine.travel(NOON, tick=False):
        row = Notification.objects.create(
            kind=NotificationKind.ESCALATION, recipient=org.head, plan=plan
        )
        outbox.drain()
    row.refresh_from_db()
    assert row.status == NotificationStatus.SENT, row.last_error
    expected = "Closers" if for_team else org.rep.display_name
    assert expected in mail.outbox[0].subject and expected in mail.outbox[0].body


@pytest.mark.django_db
def test_a_drain_that_stops_at_its_limit_sends_itself_again_until_nothing_is_due(
    org, monkeypatch
):
    from cadence import tasks

    drains = []

    def small_drain():
        drains.append(1)
        return real_drain(limit=2, rounds=1)  # two rows a drain

    real_drain = outbox.drain
    monkeypatch.setattr(outbox, "drain", small_drain)
    with time_machine.travel(NOON, tick=False):
        for _ in range(5):
            upcoming_for(org)
        tasks.send_notifications.delay()  # eager in tests: the re-sends run in turn
    assert len(drains) == 3  # 2 + 2 + 1, then nothing was due
    assert Notification.objects.filter(status=NotificationStatus.SENT).count() == 5
    assert len(mail.outbox) == 5


@pytest.mark.django_db
def test_a_burst_starts_as_many_drains_as_there_are_senders(org, settings, monkeypatch):
    from cadence import tasks

    settings.CADENCE_SENDERS = 3
    sent = []
    monkeypatch.setattr(tasks.send_notifications, "delay_on_commit", lambda: sent.append(1))
    tasks.kick_senders()
    assert len(sent) == 3
