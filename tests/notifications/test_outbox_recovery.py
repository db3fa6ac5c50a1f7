"""The database goes away while a sender works through its claim: what went out is
recorded once the database is back — before anything more is claimed or sent — and
never sent again; what was not sent yet is handed back and sent once. The outage is
simulated by making the outcome UPDATE (or the message's rendering) raise what the
driver raises for a dropped connection; the fault test in tests/faults/ does it with a
real PostgreSQL stopped for 20 s."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import OperationalError

from notifications import delivery, outbox
from notifications.models import Notification, NotificationKind, NotificationStatus
from tests.support.factories import one_on_one

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def three_due(org):
    with time_machine.travel(NOON, tick=False):
        return [
            Notification.objects.create(
                kind=NotificationKind.UPCOMING,
                session=one_on_one(org.manager, org.rep, start=NOON + timedelta(hours=20)),
                recipient=person,
            ).pk
            for person in (org.rep, org.manager, org.peer)
        ]


@pytest.fixture
def outage(monkeypatch):
    """`outage.outcomes(n)`: the next n outcome UPDATEs fail as if PostgreSQL were
    stopped. Every send, recording and pause is logged in `outage.events`, in order."""

    class Outage:
        def __init__(self):
            self.events, self.failing = [], 0

        def outcomes(self, n):
            self.failing = n

    gone = Outage()
    real_finish, real_deliver = outbox._finish, delivery.deliver

    def finish(row, status, **fields):
        if gone.failing:
            gone.failing -= 1
            gone.events.append(("unrecorded", row.pk))
            raise OperationalError("terminating connection due to administrator command")
        gone.events.append(("recorded", row.pk, status))
        return real_finish(row, status, **fields)

    def deliver(row, now):
        result = real_deliver(row, now=now)
        gone.events.append(("sent", row.pk))
        return result

    monkeypatch.setattr(outbox, "_finish", finish)
    monkeypatch.setattr(delivery, "deliver", deliver)
    monkeypatch.setattr(outbox, "_pause", lambda seconds: gone.events.append(("pause", seconds)))
    return gone


@pytest.mark.django_db
def test_what_went_out_is_recorded_when_the_database_is_back_and_never_sent_again(
    three_due, outage
):
    outage.outcomes(4)  # the first outcome, then three tries while the server is away
    with time_machine.travel(NOON, tick=False):
        total = outbox.drain()
    first, second, third = [event[1] for event in outage.events if event[0] == "sent"]
    assert outage.events == [
        ("sent", first),
        ("unrecorded", first),
        ("unrecorded", first),
        ("pause", 0.5),
        ("unrecorded", first),
        ("pause", 1.0),
        ("unrecorded", first),
        ("pause", 2.0),
        # Back: recorded before anything more is claimed or sent.
        ("recorded", first, NotificationStatus.SENT),
        # The rest of the claim was handed back (not tried, so not an attempt) and
        # claimed again by the drain's next round.
        ("sent", second),
        ("recorded", second, NotificationStatus.SENT),
        ("sent", third),
        ("recorded", third, NotificationStatus.SENT),
    ]
    assert total["sent"] == 3
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        Notification.objects.get(pk=pk).recipient.email for pk in three_due
    )
    assert dict(Notification.objects.values_list("pk", "attempts")) == dict.fromkeys(three_due, 1)
    assert set(Notification.objects.values_list("status", flat=True)) == {"sent"}


@pytest.mark.django_db
def test_a_message_sent_before_an_outage_longer_than_its_lease_is_still_not_sent_again(
    three_due, outage, monkeypatch, settings
):
    """Down for longer than a lease: another drain reconnects first and hands the
    claim back. What the sender knows it sent is recorded on the handed-back row all
    the same (nobody had claimed it again), so it is not sent a second time."""
    settings.CADENCE_CLAIM_LEASE_SECONDS = 60
    outage.outcomes(2)
    with time_machine.travel(NOON, tick=False) as clock:

        def meanwhile(seconds):
            outage.events.append(("pause", seconds))
            clock.shift(timedelta(seconds=90))
            assert outbox.reap_expired_leases() == 3  # a drain elsewhere, back first

        monkeypatch.setattr(outbox, "_pause", meanwhile)
        assert outbox.drain()["sent"] == 3
    sent = [event[1] for event in outage.events if event[0] == "sent"]
    assert sorted(sent) == sorted(three_due) and len(mail.outbox) == 3
    assert set(Notification.objects.values_list("status", flat=True)) == {"sent"}


@pytest.mark.django_db
def test_a_database_that_stays_away_ends_the_drain_after_a_bounded_wait_sending_nothing_more(
    three_due, outage
):
    outage.outcomes(1000)
    with time_machine.travel(NOON, tick=False), pytest.raises(OperationalError):
        outbox.drain()
    sent = [event for event in outage.events if event[0] == "sent"]
    pauses = [event[1] for event in outage.events if event[0] == "pause"]
    assert len(sent) == 1 and len(mail.outbox) == 1
    assert pauses[:5] == [0.5, 1.0, 2.0, 4.0, 5.0] and set(pauses[4:]) == {5.0}
    assert sum(pauses) <= outbox.RECOVERY_PATIENCE_SECONDS < sum(pauses) + 5
    # Left leased: handed back when the lease runs out (the sent one with the rest:
    # the one duplicate an outage longer than the wait can cause).
    assert set(Notification.objects.values_list("status", flat=True)) == {"sending"}


@pytest.mark.django_db
def test_the_database_going_away_while_a_message_is_written_is_not_a_failed_attempt(
    three_due, outage, monkeypatch
):
    """Rendering reads the database: if it is gone, nothing was sent. The row is
    handed back with the rest of the claim — no error, no attempt counted."""
    real_deliver = delivery.deliver
    broke = []

    def rendering_breaks_once(row, now):
        if not broke:
            broke.append(row.pk)
            raise OperationalError("server closed the connection unexpectedly")
        return real_deliver(row, now=now)

    monkeypatch.setattr(delivery, "deliver", rendering_breaks_once)
    monkeypatch.setattr(outbox, "_database_answers", lambda: not broke or len(outage.events) > 0)
    with time_machine.travel(NOON, tick=False):
        assert outbox.drain()["sent"] == 3
    assert len(broke) == 1 and len(mail.outbox) == 3
    row = Notification.objects.get(pk=broke[0])
    assert (row.status, row.attempts, row.last_error) == ("sent", 1, "")


@pytest.mark.django_db
def test_an_error_of_a_database_that_still_answers_is_an_ordinary_failed_attempt(
    three_due, monkeypatch
):
    """A statement timeout while rendering, say: retried later with backoff like any
    failure, not waited out as an outage (which would claim the same row again at
    once, for ever)."""

    def times_out(row, now):
        raise OperationalError("canceling statement due to statement timeout")

    monkeypatch.setattr(delivery, "deliver", times_out)
    with time_machine.travel(NOON, tick=False):
        assert outbox.drain()["retry"] == 3
    assert set(Notification.objects.values_list("status", "attempts")) == {("pending", 1)}


@pytest.mark.django_db
def test_each_email_carries_a_message_id_derived_from_its_notification(org, settings):
    settings.SITE_URL = "https://tandem.example.com"
    with time_machine.travel(NOON, tick=False):
        session = one_on_one(org.manager, org.rep, start=NOON + timedelta(hours=20))
        rows = [
            Notification.objects.create(
                kind=NotificationKind.UPCOMING, session=session, recipient=person
            )
            for person in (org.rep, org.manager)
        ]
        outbox.drain()
        Notification.objects.filter(pk=rows[0].pk).update(status="pending")
        outbox.drain()  # the first one again, as after a worker died having sent it
    ids = [(m.to[0], m.extra_headers["Message-ID"]) for m in mail.outbox]
    key = delivery.idempotency_key(rows[0])
    again = (org.rep.email, f"<{key}@tandem.example.com>")
    assert ids[2] == again and again in ids[:2]  # the same Message-ID both times
    assert len({message_id for _, message_id in ids}) == 2  # and unlike the other's
    assert key.startswith(f"notification-{rows[0].pk}.") and len(key.split(".")[1]) == 16
    assert mail.outbox[2].message()["Message-ID"] == again[1]  # what the mail server gets
