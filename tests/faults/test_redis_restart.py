"""Redis restarts while the workers are draining a large outbox: the workers — the same
processes, nobody restarting them — reconnect and finish it, every email and every
webhook post sent exactly once, within three minutes of Redis being back.

The Redis here keeps nothing across a restart (no snapshot, no append-only file), so
the messages the workers held are gone with it: what is still due afterwards is
drained by the tasks that were running (each sends "drain again" when it ends) and by
beat's next minute. Each worker holds unfinished drains and still waits on Redis for
more when it goes: with celery 5.7.0 / kombu 5.7.0 such a worker exited
(docs/decisions/0026-celery-redis-reconnect.md)."""

import re
import time

import pytest

from . import backlog, services

pytestmark = pytest.mark.faults

EMAILS = 3_000
TEAMS, POSTS_PER_TEAM = 10, 30
WORKERS, CONCURRENCY = 2, 2
BACK_WITHIN = 180  # seconds after Redis answers again


def test_workers_survive_a_redis_restart_mid_drain_and_lose_or_double_nothing(
    cluster, database, redis, mail_dir, tmp_path, processes
):
    env = services.app_env(
        database_url=cluster.url(database),
        redis=redis,
        mail_dir=mail_dir,
        # A slow SMTP server and chat service: the drain lasts long enough to be
        # interrupted, every pool process mid-task.
        TANDEM_TEST_MAIL_DELAY="0.02",
    )
    with backlog.WebhookSink(delay=0.05) as sink:
        teams = backlog.queue_backlog(
            env, emails=EMAILS, teams=TEAMS, posts_per_team=POSTS_PER_TEAM, sink=sink.url
        )
        workers = [_worker(env, tmp_path, f"worker{i}") for i in range(WORKERS)]
        processes += [*workers, services.beat(env, tmp_path)]
        services.wait_until(
            lambda: all(" ready." in w.output() for w in workers), timeout=120, what="workers up"
        )
        pids = [w.proc.pid for w in workers]
        # Fewer drains than the workers may prefetch (4 x concurrency each): a worker
        # holding one still waits on Redis for more, as after a burst (kick_senders).
        backlog.kick_senders(env, messages=3 * WORKERS)

        def busy() -> bool:
            return all(_sends_running(w) for w in workers) and (
                sum(backlog.backlog_emails(mail_dir).values()) >= 300
            )

        services.wait_until(busy, timeout=120, what="every worker sending", every=0.2)
        sent_before = sum(backlog.backlog_emails(mail_dir).values())
        assert sent_before < EMAILS // 2, "drained too fast to be interrupted"
        assert _statuses(cluster, database).get("sending"), "no claim in flight"
        assert all(_sends_running(w) for w in workers), "a worker finished before the restart"

        redis.stop()
        time.sleep(3)
        redis.start()
        back = time.monotonic()

        def drained() -> bool:
            for worker in workers:
                assert worker.alive(), f"{worker.log.name} exited:\n{worker.output()[-3000:]}"
            return set(_statuses(cluster, database)) == {"sent"}

        services.wait_until(drained, timeout=BACK_WITHIN, what="the backlog drained", every=1)
        seconds = time.monotonic() - back

    emails = backlog.backlog_emails(mail_dir)
    posts = sink.counts()
    expected_posts = {f"/team/{pk}": POSTS_PER_TEAM for pk in teams}
    missing = [p for p, n in expected_posts.items() for _ in range(n - posts[p])]
    repeated = [p for p, n in posts.items() for _ in range(n - expected_posts.get(p, n))]
    services.report(
        "redis-restart",
        {
            "emails": EMAILS,
            "webhook_posts": TEAMS * POSTS_PER_TEAM,
            "sent_before_restart": sent_before,
            "seconds_to_drain_after_restart": round(seconds),
            "lost": EMAILS - len(emails) + len(missing),
            "duplicates": sum(n - 1 for n in emails.values()) + len(repeated),
        },
    )
    assert [w.proc.pid for w in workers] == pids and all(w.alive() for w in workers)
    assert len(emails) == EMAILS, f"{EMAILS - len(emails)} emails lost"
    assert set(emails.values()) == {1}, f"sent twice: {[k for k, n in emails.items() if n > 1]}"
    assert (missing, repeated) == ([], []), posts


def _worker(env: dict, folder, name: str) -> services.Process:
    """A worker started as docker-compose.yml starts one (heartbeats, gossip and mingle
    on), with CONCURRENCY pool processes."""
    args = ["worker", "--loglevel=INFO", f"--concurrency={CONCURRENCY}", "--hostname", f"{name}@%h"]
    return services.celery(env, folder, name, *args)


def _statuses(cluster, database) -> dict[str, int]:
    """The backlog's rows by status (the demo's own notifications are left out)."""
    rows = cluster.sql(
        "SELECT n.status, count(*) FROM cadence_notification n"
        " LEFT JOIN people_user u ON u.id = n.recipient_id"
        " LEFT JOIN people_team t ON t.id = n.team_id"
        " WHERE u.email LIKE %s OR t.name LIKE 'Backlog team %%' GROUP BY n.status",
        (f"%@{backlog.BACKLOG_DOMAIN}",),
        database=database,
    )
    return dict(rows)


def _sends_running(worker) -> int:
    """How many "drain the outbox" tasks the worker has received and not finished."""
    log = worker.output()
    return len(_RECEIVED.findall(log)) - len(_FINISHED.findall(log))


_RECEIVED = re.compile(r"Task cadence\.send_notifications\[[^\]]+\] received")
_FINISHED = re.compile(r"Task cadence\.send_notifications\[[^\]]+\] (succeeded|failed|raised)")
