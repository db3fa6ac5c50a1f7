"""Beat started twice by mistake (say, an old deploy's beat still running): every
periodic task is sent twice a tick, and still no notification is created twice, sent
twice or lost. The sweep's UPDATE is conditional, notifications are unique per
session, kind and recipient, and the outbox claims rows with SKIP LOCKED."""

import time
from datetime import UTC, datetime

import pytest

from . import services

pytestmark = pytest.mark.faults

OVERDUE = 12  # scheduled 1:1s moved three days into the past: the sweep's work


def test_two_beats_send_everything_twice_and_nothing_is_doubled_or_lost(
    cluster, database, redis, mail_dir, tmp_path, processes
):
    sql = lambda query, params=(): cluster.sql(query, params, database=database)  # noqa: E731
    # Every periodic task every minute, so one tick exercises them all.
    sql(
        "UPDATE django_celery_beat_crontabschedule SET minute = '*', hour = '*',"
        " day_of_week = '*', day_of_month = '*', month_of_year = '*'"
    )
    overdue = [
        row[0]
        for row in sql(
            "UPDATE coaching_coachingsession SET"
            " scheduled_start = now() - interval '3 days',"
            " scheduled_end = now() - interval '3 days' + interval '30 minutes'"
            " WHERE id IN (SELECT id FROM coaching_coachingsession WHERE status = 'scheduled'"
            " AND kind = 'one_on_one' AND scheduled_start > now() + interval '2 days'"
            " ORDER BY id LIMIT %s) RETURNING id",
            (OVERDUE,),
        )
    ]
    assert len(overdue) == OVERDUE
    started = datetime.now(UTC)

    env = services.app_env(database_url=cluster.url(database), redis=redis, mail_dir=mail_dir)
    processes.append(services.worker(env, tmp_path, concurrency=2))
    beats = [services.beat(env, tmp_path, "beat-1"), services.beat(env, tmp_path, "beat-2")]
    processes += beats

    def swept():
        missed = sql(
            "SELECT count(*) FROM coaching_coachingsession WHERE id = ANY(%s)"
            " AND status = 'missed'",
            (overdue,),
        )[0][0]
        return missed == OVERDUE

    services.wait_until(swept, timeout=100, what="the overdue sessions swept", every=1)

    def settled():
        waiting = sql(
            "SELECT count(*) FROM cadence_notification WHERE status = 'sending'"
            " OR (status = 'pending' AND next_attempt_at <= now())"
        )[0][0]
        return waiting == 0

    services.wait_until(settled, timeout=120, what="the outbox drained", every=1)
    time.sleep(5)  # the other beat's copies of each task, still running, finish

    for beat in beats:  # both really sent the sweep (else this test proves nothing)
        assert "(cadence.sweep_missed)" in beat.output()
    missed = sql(
        "SELECT n.session_id, n.recipient_id, count(*) FROM cadence_notification n"
        " WHERE n.kind = 'missed' AND n.session_id = ANY(%s) GROUP BY 1, 2",
        (overdue,),
    )
    runners = sql(
        "SELECT count(*) FROM coaching_sessionparticipant WHERE session_id = ANY(%s)"
        " AND role IN ('coach', 'host', 'manager', 'peer')",
        (overdue,),
    )[0][0]
    assert len(missed) == runners and all(count == 1 for *_, count in missed)
    sent = sql(
        "SELECT count(*) FROM cadence_notification WHERE status = 'sent' AND sent_at >= %s",
        (started,),
    )[0][0]
    mails = len(services.sent_mail(mail_dir))
    assert sent > 0
    assert mails == sent  # one email per row sent: none twice, none lost
    services.report(
        "beat-twice",
        {"beats": 2, "sessions_swept": OVERDUE, "notifications_sent": sent, "emails": mails},
    )
