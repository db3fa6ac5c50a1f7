"""The outbox: claimed once, sent once, retried with backoff, failures kept, stale
claims handed back, preferences and quiet hours respected, team webhooks."""

import threading
from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from django.core import mail

from notifications import delivery, outbox
from notifications.models import (
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationStatus,
    TeamChannel,
)
from people.services_teams import team_create, team_member_add
from tests.support.factories import one_on_one
from tests.support.notifications_webhook import webhook as webhook  # noqa: F401 - the fixture

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
    from notifications import delivery

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
def test_a_claim_left_by_a_dead_worker_is_handed_back_once_its_lease_runs_out(org, settings):
    settings.CADENCE_CLAIM_LEASE_SECONDS = 60
    with time_machine.travel(NOON, tick=False):
        row = upcoming_for(org)
        outbox.claim()  # ... and the worker dies here: nobody renews the lease
    with time_machine.travel(NOON + timedelta(seconds=59), tick=False):
        assert outbox.reap_expired_leases() == 0
        assert outbox.drain()["sent"] == 0  # still leased: nobody else sends it
    with time_machine.travel(NOON + timedelta(seconds=61), tick=False):
        assert outbox.drain()["sent"] == 1  # the drain hands it back itself, then sends it
    row.refresh_from_db()
    assert row.status == NotificationStatus.SENT and len(mail.outbox) == 1
    assert (row.claimed_at, row.lease_until, row.attempts) == (None, None, 2)


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
    # Both attempts carried the same key, derived from the notification: a receiver
    # that got the first one can drop the second.
    assert hook.keys == [delivery.idempotency_key(row)] * 2
    assert hook.keys[0].startswith(f"notification-{row.pk}.")


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
def test_a_drain_that_stops_at_its_limit_sends_itself_again_until_nothing_is_due(org, monkeypatch):
    from notifications import tasks

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
    from notifications import tasks

    settings.CADENCE_SENDERS = 3
    sent = []
    monkeypatch.setattr(tasks.send_notifications, "delay_on_commit", lambda: sent.append(1))
    tasks.kick_senders()
    assert len(sent) == 3


# --- A claim's reads: a fixed number of queries, not a few per row -------------------


def reminders_with_commitments(coach, coachees: int, *, start: datetime) -> list[Notification]:
    """`coachees` new reports of `coach`, each with two open commitments (one written by
    the coach) and a done one, and a 1:1 with each at `start`: a "session tomorrow"
    reminder to both people of every 1:1."""
    from coaching.models import Commitment, CommitmentStatus
    from tests.support.factories import UserFactory

    rows = []
    for _ in range(coachees):
        coachee = UserFactory(manager=coach)
        for text, by, status in (
            ("Open, their own", coachee, CommitmentStatus.OPEN),
            ("Open, from the coach", coach, CommitmentStatus.OPEN),
            ("Done already", coachee, CommitmentStatus.DONE),
        ):
            Commitment.objects.create(
                owner=coachee,
                created_by=by,
                text=f"{text} ({coachee.pk})",
                evidence="Seen",
                due_on=start.date() + timedelta(days=3),
                status=status,
                closed_at=None if status == CommitmentStatus.OPEN else start,
            )
        session = one_on_one(coach, coachee, start=start)
        rows += [
            Notification.objects.create(
                kind=NotificationKind.UPCOMING, session=session, recipient=person
            )
            for person in (coachee, coach)
        ]
    return rows


@pytest.mark.django_db
@pytest.mark.parametrize("coachees", [1, 4])
def test_a_fresh_claim_costs_the_same_queries_whatever_its_size(org, coachees):
    """Rows, participants, commitments and management chains are read once for the
    whole claim; a claim younger than a third of its lease is ours without asking;
    what is left per row is its outcome UPDATE — one statement, committed before the
    next row is sent."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with time_machine.travel(NOON, tick=False):
        rows = reminders_with_commitments(org.manager, coachees, start=NOON + timedelta(hours=20))
        ids = outbox.claim()
        assert sorted(ids) == sorted(row.pk for row in rows)
        with CaptureQueriesContext(connection) as queries:
            outcome = outbox.deliver_claimed(ids)
    assert outcome["sent"] == len(rows) == len(mail.outbox)
    statements = [q["sql"] for q in queries]
    updates = [sql for sql in statements if sql.startswith("UPDATE")]
    reads = [sql for sql in statements if not sql.startswith("UPDATE")]
    # rows, participants, their people, open commitments, the coachees' managers
    assert len(reads) == 5, reads
    assert len(updates) == len(rows)  # one outcome per row, no renewal
    assert set(Notification.objects.values_list("status", flat=True)) == {"sent"}


@pytest.mark.django_db
def test_a_slow_sender_whose_lease_ran_out_leaves_the_rows_handed_back_to_their_new_claimer(
    org, settings, monkeypatch
):
    """Its first send takes two minutes (longer than any EMAIL_TIMEOUT allows, but
    say so): by then its lease has run out, a drain elsewhere has handed the rows back
    and claimed them again. Renewing finds them no longer ours: they are left alone."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from notifications import delivery

    settings.CADENCE_CLAIM_LEASE_SECONDS = 60
    real_deliver = delivery.deliver
    with time_machine.travel(NOON, tick=False) as clock:
        rows = [upcoming_for(org), upcoming_for(org, org.manager), upcoming_for(org, org.peer)]

        def slow_first_send(row, now):
            result = real_deliver(row, now=now)
            if len(mail.outbox) == 1:
                clock.move_to(NOON + timedelta(minutes=2))
                assert outbox.reap_expired_leases() == 3
                assert len(outbox.claim()) == 3  # someone else's claim now
            return result

        monkeypatch.setattr(delivery, "deliver", slow_first_send)
        ids = outbox.claim()
        with CaptureQueriesContext(connection) as queries:
            outcome = outbox.deliver_claimed(ids)
    assert outcome["sent"] == 1 and outcome["lost"] == 2
    assert len(mail.outbox) == 1  # the other two wait for their new claimer
    updates = [q["sql"] for q in queries if q["sql"].startswith("UPDATE")]
    renewals = [sql for sql in updates if "lease_until" in sql and "status" not in sql]
    assert len(renewals) == 1  # one statement for the rest of the claim
    statuses = dict(Notification.objects.values_list("pk", "status"))
    assert set(statuses.values()) == {NotificationStatus.SENDING}
    later = NOON + timedelta(minutes=2)
    assert set(Notification.objects.values_list("claimed_at", flat=True)) == {later}
    assert {row.pk for row in rows} == set(statuses)


@pytest.mark.django_db
def test_a_sender_renews_the_lease_of_what_it_still_holds_so_a_slow_claim_is_never_handed_back(
    org, settings, monkeypatch
):
    """Five sends of 25 s each: two minutes, twice the lease. The sender renews the
    rows it still holds, in one statement, whenever a third of the lease has passed;
    a reaper running after every send finds nothing to hand back."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from notifications import delivery

    settings.CADENCE_CLAIM_LEASE_SECONDS = 60
    real_deliver = delivery.deliver
    reaped = []
    with time_machine.travel(NOON, tick=False) as clock:
        people = [org.rep, org.manager, org.peer, org.hr, org.other_rep]
        for person in people:
            upcoming_for(org, person)

        def slow_send(row, now):
            result = real_deliver(row, now=now)
            clock.shift(timedelta(seconds=25))
            reaped.append(outbox.reap_expired_leases())
            return result

        monkeypatch.setattr(delivery, "deliver", slow_send)
        ids = outbox.claim()
        with CaptureQueriesContext(connection) as queries:
            assert outbox.deliver_claimed(ids)["sent"] == 5
    assert reaped == [0] * 5 and len(mail.outbox) == 5
    renewals = [q["sql"] for q in queries if q["sql"].startswith("UPDATE")]
    renewals = [sql for sql in renewals if "lease_until" in sql and "status" not in sql]
    assert len(renewals) == 4  # before the 2nd to 5th sends: 25 s (> 20 s) since the last
    assert not Notification.objects.exclude(status=NotificationStatus.SENT).exists()


@pytest.mark.django_db
def test_reminders_of_one_claim_list_exactly_what_each_recipient_may_see(org):
    """One claim, several reminders: each lists the coachee's open commitments that
    its own recipient may see — the coachee and their line all of them, a coach who
    is no longer in the coachee's line only what they wrote down themselves — never
    another coachee's, never a closed one."""
    from django.utils import timezone

    from coaching.models import Commitment, CommitmentStatus
    from people.services import reporting_line_change

    now = timezone.now()  # after the org's reporting lines began: Rita changes line

    def commit(owner, text, by, status=CommitmentStatus.OPEN, days=3):
        return Commitment.objects.create(
            owner=owner,
            created_by=by,
            text=text,
            evidence="Seen",
            due_on=now.date() + timedelta(days=days),
            status=status,
            closed_at=None if status == CommitmentStatus.OPEN else now,
        )

    commit(org.rep, "Rita asks for the budget", org.rep, days=5)
    commit(org.rep, "Rita sends the recap", org.manager, days=2)
    commit(org.rep, "Rita closed this one", org.rep, CommitmentStatus.DONE)
    commit(org.peer, "Pavel books the demo", org.manager)
    commit(org.other_rep, "Olga calls the CFO", org.other_manager)
    rep_session = one_on_one(org.manager, org.rep, start=now + timedelta(hours=20))
    peer_session = one_on_one(org.manager, org.peer, start=now + timedelta(hours=21))
    # Rita moves to Omar's team after her 1:1 with Mia was planned: Mia keeps the
    # 1:1 but is no longer in Rita's line.
    reporting_line_change(person=org.rep, manager=org.other_manager)
    commit(org.rep, "Rita tries the new opener", org.other_manager)
    for session, people in (
        (rep_session, (org.rep, org.manager)),
        (peer_session, (org.peer, org.manager)),
    ):
        for person in people:
            Notification.objects.create(
                kind=NotificationKind.UPCOMING, session=session, recipient=person
            )
    ids = outbox.claim()
    assert len(ids) == 4
    assert outbox.deliver_claimed(ids)["sent"] == 4

    listed = {
        (m.to[0], m.subject.split(" with ")[-1]): [
            line for line in m.body.splitlines() if line.startswith("- ")
        ]
        for m in mail.outbox
    }
    rita = [
        "- Rita sends the recap",
        "- Rita tries the new opener",
        "- Rita asks for the budget",
    ]
    assert {key: [line.split(" (how")[0] for line in lines] for key, lines in listed.items()} == {
        (org.rep.email, org.manager.display_name): rita,
        (org.manager.email, org.rep.display_name): ["- Rita sends the recap"],  # hers only
        (org.peer.email, org.manager.display_name): ["- Pavel books the demo"],
        (org.manager.email, org.peer.display_name): ["- Pavel books the demo"],
    }
