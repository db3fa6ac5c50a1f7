"""PostgreSQL stops for 20 s (`pg_ctl stop -m fast`) while four drains work through an
outbox of 3,000 notifications. A drain that had sent a message and could not record it
keeps it in memory and records it once the server is back, before it sends anything
more; the rest of its claim goes back to pending. Nothing is lost, nothing is sent
twice, and everything is sent within three minutes of the server's return — nobody
restarting anything."""

import time

import pytest

from . import backlog, outbox_counts, services

pytestmark = pytest.mark.faults

EMAILS, TEAMS, POSTS_PER_TEAM = 2700, 3, 100  # 3,000 notifications

DOWN_SECONDS = 20
DRAINED_WITHIN = 180  # seconds after the server is back


def test_a_postgres_stop_mid_drain_loses_nothing_and_sends_nothing_twice(
    cluster, database, redis, mail_dir, tmp_path, processes
):
    with backlog.WebhookSink() as sink:
        env = services.app_env(
            database_url=cluster.url(database),
            redis=redis,
            mail_dir=mail_dir,
            TANDEM_TEST_MAIL_DELAY="0.02",
        )
        teams = backlog.queue_backlog(
            env, emails=EMAILS, teams=TEAMS, posts_per_team=POSTS_PER_TEAM, sink=sink.url
        )
        ids = outbox_counts.backlog_ids(cluster, database, teams)
        assert len(ids) == EMAILS + TEAMS * POSTS_PER_TEAM
        # Two workers of two pool processes: four drains side by side.
        processes += [
            services.worker(env, tmp_path, "worker1", concurrency=2),
            services.worker(env, tmp_path, "worker2", concurrency=2),
            services.beat(env, tmp_path),
        ]
        services.wait_until(
            lambda: outbox_counts.mail_files(mail_dir) >= 300,
            timeout=60,
            what="the workers draining",
        )
        try:
            cluster.stop("fast")
            sent_while_down = outbox_counts.mail_files(mail_dir)
            time.sleep(DOWN_SECONDS)
            sent_while_down = outbox_counts.mail_files(mail_dir) - sent_while_down
        finally:
            cluster.start()
        back = time.monotonic()
        left_when_back = outbox_counts.unfinished(cluster, database, ids)
        assert left_when_back, "the backlog was drained before the server stopped"

        seconds = outbox_counts.wait_drained(cluster, database, ids, timeout=DRAINED_WITHIN)
        time.sleep(1)  # a straggler (a drain sending twice) would show now
        seen = outbox_counts.deliveries(mail_dir, sink)
    lost, twice = outbox_counts.lost_and_twice(seen, ids)
    services.report(
        "outbox-postgres-stop",
        {
            "notifications": len(ids),
            "down_seconds": DOWN_SECONDS,
            "sent_while_down": sent_while_down,
            "left_when_back": left_when_back,
            "drained_seconds_after_back": round(time.monotonic() - back, 1),
            "lost": len(lost),
            "duplicates": sum(count - 1 for count in twice.values()),
        },
    )
    print(f"drained {seconds:.0f} s after the server came back; sent twice: {twice}")
    assert not lost, lost
    assert not twice, twice
