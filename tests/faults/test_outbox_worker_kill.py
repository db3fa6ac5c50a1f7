"""Workers are killed (`kill -9`, the whole process group) six times while they drain
an outbox of 3,000 notifications, each restarted at once as a supervisor would. Nothing
is lost; at most the one message a killed drain had sent but not yet recorded goes out
twice — with the same Message-ID or Idempotency-Key, so it is recognisable — and
everything is sent within three minutes of the last kill: the dead drains' rows return
when their one-minute lease runs out (not after ten minutes), and a restarted worker
starts draining at once (not at beat's next minute)."""

import time

import pytest

from . import backlog, outbox_counts, services

pytestmark = pytest.mark.faults

EMAILS, TEAMS, POSTS_PER_TEAM = 2700, 3, 100  # 3,000 notifications

KILLS = 6
DRAINED_WITHIN = 180  # seconds after the last kill


def test_six_worker_kills_lose_nothing_and_repeat_at_most_one_message_each(
    cluster, database, redis, mail_dir, tmp_path, processes
):
    with backlog.WebhookSink() as sink:
        # A mail server taking 20 ms a message: the backlog lasts through the kills.
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
        # One pool process each, so a kill ends exactly one drain.
        workers = [services.worker(env, tmp_path, f"worker{n}") for n in (1, 2)]
        processes += [*workers, services.beat(env, tmp_path)]
        # No message is sent: each worker starts draining when it is ready.
        services.wait_until(
            lambda: outbox_counts.mail_files(mail_dir) >= 100,
            timeout=60,
            what="the workers draining",
        )
        for kill in range(KILLS):
            target = kill % 2
            before = outbox_counts.mail_files(mail_dir)
            services.wait_until(
                lambda: outbox_counts.mail_files(mail_dir) >= before + 100,  # noqa: B023
                timeout=60,
                what=f"sending going on before kill {kill + 1}",
            )
            workers[target].kill()
            workers[target] = services.worker(env, tmp_path, f"worker{target + 1}")
            processes.append(workers[target])
        left_at_last_kill = outbox_counts.unfinished(cluster, database, ids)
        fault_ended = time.monotonic()
        assert left_at_last_kill, "the backlog was drained before the last kill"

        seconds = outbox_counts.wait_drained(cluster, database, ids, timeout=DRAINED_WITHIN)
        time.sleep(1)  # a straggler (a drain sending twice) would show now
        seen = outbox_counts.deliveries(mail_dir, sink)
    lost, twice = outbox_counts.lost_and_twice(seen, ids)
    services.report(
        "outbox-worker-kill",
        {
            "notifications": len(ids),
            "kills": KILLS,
            "left_at_last_kill": left_at_last_kill,
            "drained_seconds_after_last_kill": round(time.monotonic() - fault_ended, 1),
            "lost": len(lost),
            "duplicates": sum(count - 1 for count in twice.values()),
        },
    )
    print(f"drained {seconds:.0f} s after the last kill; sent twice: {twice}")
    assert not lost, lost
    assert set(twice.values()) <= {2} and len(twice) <= KILLS, twice
