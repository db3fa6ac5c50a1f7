"""The claim and the outcome UPDATE keep their cheap plans when PostgreSQL's statistics
are stale or missing — as they are just after a burst was queued (taken while nothing
was pending), while a claim is out (taken while nothing was sending), and on a new
outbox or with autovacuum off (none at all)."""

from datetime import timedelta

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from notifications import outbox
from notifications.models import Notification, NotificationKind, NotificationStatus
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

ROWS = 3_000


def explain(sql: str, params) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def queue_sent_rows(now):
    person = UserFactory()
    Notification.objects.bulk_create(
        Notification(
            kind=NotificationKind.DIGEST,
            recipient=person,
            status=NotificationStatus.SENT,
            sent_at=now,
            next_attempt_at=now - timedelta(seconds=i % 600),
        )
        for i in range(ROWS)
    )


@pytest.fixture(params=["analysed while all was sent", "never analysed"])
def burst_queued(request):
    """An outbox whose statistics know of no pending row; then all of it is due."""
    now = timezone.now()
    queue_sent_rows(now)
    with connection.cursor() as cursor:
        if request.param == "never analysed":
            # As on a new deployment, or one whose autovacuum is off.
            try:
                with transaction.atomic():
                    cursor.execute(
                        "DELETE FROM pg_statistic WHERE starelid = 'cadence_notification'::regclass"
                    )
            except DatabaseError:
                pytest.skip("removing a table's statistics needs a superuser")
        else:
            cursor.execute("ANALYZE cadence_notification")
    Notification.objects.update(status=NotificationStatus.PENDING, sent_at=None)
    return now


@pytest.mark.postgres
def test_a_claim_reads_its_rows_off_the_due_index_without_sorting_the_backlog(burst_queued):
    query = outbox.due_first(burst_queued).select_for_update(skip_locked=True)
    sql, params = query.values_list("pk", flat=True)[:50].query.sql_with_params()
    with outbox.claiming():
        plan = explain(sql, params)
    assert "notification_send_due" in plan, plan
    assert "Sort" not in plan, plan  # the index's order is the claim's


@pytest.mark.postgres
def test_an_outcome_is_saved_through_the_primary_key_while_a_claim_is_out(burst_queued):
    ids = outbox.claim(limit=50, now=burst_queued)
    row = Notification.objects.get(pk=ids[7])
    params = [NotificationStatus.SENT, timezone.now(), "", None, 0, row.pk, row.claimed_at]
    plan = explain(outbox._finish_sql(connection.vendor), params)
    assert "cadence_notification_pkey" in plan, plan
    assert "notification_expired_leases" not in plan, plan


@pytest.mark.postgres
def test_the_lease_renewal_and_the_reaper_read_only_what_they_must(burst_queued, request):
    """A renewal by primary key (the claim's rows); the reaper — every drain runs it —
    off the expired-leases index, never the outbox."""
    ids = outbox.claim(limit=50, now=burst_queued)
    mine = Notification.objects.filter(pk__in=ids, claimed_at=burst_queued).order_by()  # as updated
    sql, params = mine.query.sql_with_params()
    plan = explain(sql, params)
    # Without statistics PostgreSQL may guess the table tiny and scan it (seen in CI
    # runs, not alone); with them, the renewal goes by primary key.
    if request.node.callspec.params["burst_queued"] != "never analysed":
        assert "cadence_notification_pkey" in plan and "Seq Scan" not in plan, plan
    expired = Notification.objects.filter(
        status=NotificationStatus.SENDING, lease_until__lt=timezone.now()
    )
    plan = explain(*expired.query.sql_with_params())
    assert "notification_expired_leases" in plan, plan


@pytest.mark.parametrize(
    "status, claimed, leased",
    [
        (NotificationStatus.SENDING, False, True),
        (NotificationStatus.SENDING, True, False),  # a claim nobody could ever hand back
        (NotificationStatus.SENT, True, True),
        (NotificationStatus.PENDING, False, True),
    ],
)
def test_a_claim_stamp_and_lease_go_with_sending_and_only_with_it(status, claimed, leased):
    """What lets the outcome UPDATE leave the status out of its WHERE, and the reaper
    find every row whose sender died."""
    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(
            kind=NotificationKind.DIGEST,
            recipient=UserFactory(),
            status=status,
            claimed_at=timezone.now() if claimed else None,
            lease_until=timezone.now() if leased else None,
        )
