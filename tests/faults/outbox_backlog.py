"""A draining outbox to break things in (tests/faults/test_outbox_*.py): a backlog of
at least 3,000 notifications queued straight into a copy of the demo database — "session
moved" emails, one per session change, to people without quiet hours, and team channel
messages to a webhook sink — and a count of what reached the mail folder and the sink,
per notification.

Every email carries its notification's Message-ID and every post its Idempotency-Key
(`cadence.delivery.idempotency_key`): `notification-<pk>.<token>`, so a copy sent twice
is counted against the row it came from."""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from email.parser import BytesHeaderParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

EMAILS_PER_SESSION = 19  # x the demo's ~150 scheduled sessions: about 2,900 emails
POSTS_PER_TEAM = 100  # x its 3 teams
KEY = re.compile(r"notification-(\d+)\.")

QUEUE_SQL = """
DELETE FROM cadence_notification WHERE status IN ('pending', 'sending');
WITH pairs AS (
    SELECT s.id AS session_id, s.scheduled_start AS start, s.duration_minutes AS minutes,
           first.person_id AS actor_id, last.person_id AS recipient_id
    FROM coaching_coachingsession s
    CROSS JOIN LATERAL (
        SELECT p.person_id FROM coaching_sessionparticipant p
        JOIN people_user u ON u.id = p.person_id AND u.is_active
        WHERE p.session_id = s.id ORDER BY p.id LIMIT 1) first
    CROSS JOIN LATERAL (
        SELECT p.person_id FROM coaching_sessionparticipant p
        JOIN people_user u ON u.id = p.person_id AND u.is_active
        WHERE p.session_id = s.id ORDER BY p.id DESC LIMIT 1) last
    WHERE s.status = 'scheduled' AND first.person_id <> last.person_id
), changes AS (
    INSERT INTO coaching_sessionchange (kind, at, from_start, from_minutes, to_start,
        to_minutes, cancel_reason, cancel_note, sequence, actor_id, session_id)
    SELECT 'moved', now(), start - interval '1 hour', minutes, start, minutes, '', '',
        100000 + g, actor_id, session_id
    FROM pairs, generate_series(1, %(emails_per_session)s) g
    RETURNING id, session_id
)
INSERT INTO cadence_notification (kind, period, status, attempts, last_error,
    next_attempt_at, created_at, recipient_id, session_id, session_change_id)
SELECT 'session_moved', '', 'pending', 0, '', now(), now(), pairs.recipient_id,
    changes.session_id, changes.id
FROM changes JOIN pairs USING (session_id);

INSERT INTO cadence_teamchannel (webhook_url, format, is_active, last_error, team_id)
SELECT %(hook)s || id, 'slack', true, '', id FROM people_team
ON CONFLICT (team_id) DO UPDATE SET webhook_url = excluded.webhook_url, is_active = true;
INSERT INTO cadence_notification (kind, period, status, attempts, last_error,
    next_attempt_at, created_at, team_id)
SELECT 'channel_test', '', 'pending', 0, '', now(), now(), team.id
FROM people_team team, generate_series(1, %(posts_per_team)s);
"""


class WebhookSink:
    """Team channels' incoming webhook on loopback: counts each post's key."""

    def __init__(self):
        keys: Counter = Counter()
        lock = threading.Lock()

        class Hook(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers["Content-Length"]))
                with lock:
                    keys[self.headers.get("Idempotency-Key")] += 1
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.keys = keys
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def queue_backlog(cluster, database: str, sink: WebhookSink) -> list[int]:
    """Queue the backlog (the demo's own unsent notifications removed); its ids."""
    cluster.sql(
        QUEUE_SQL,
        {
            "emails_per_session": EMAILS_PER_SESSION,
            "posts_per_team": POSTS_PER_TEAM,
            "hook": sink.url,
        },
        database=database,
    )
    pending = "SELECT id FROM cadence_notification WHERE status = 'pending'"
    return [row[0] for row in cluster.sql(pending, database=database)]


def unfinished(cluster, database: str, ids: list[int]) -> int:
    return cluster.sql(
        "SELECT count(*) FROM cadence_notification WHERE id = ANY(%s) AND status <> 'sent'",
        (ids,),
        database=database,
    )[0][0]


def mail_files(mail_dir: Path) -> int:
    return sum(1 for _ in mail_dir.glob("*.eml"))


def deliveries(mail_dir: Path, sink: WebhookSink) -> Counter:
    """How many times each notification reached someone: email or post, by its key."""
    seen: Counter = Counter()
    for path in mail_dir.glob("*.eml"):
        with open(path, "rb") as handle:
            seen[_notification(BytesHeaderParser().parse(handle)["Message-ID"])] += 1
    for key, count in list(sink.keys.items()):
        seen[_notification(key)] += count
    return seen


def _notification(key: str | None) -> int | None:
    match = KEY.search(key or "")
    return int(match.group(1)) if match else None


def wait_drained(cluster, database, ids, *, timeout: float) -> float:
    """Seconds until every notification of the backlog is sent; fails after `timeout`
    with what is left, by status."""
    began = time.monotonic()
    while True:
        left = unfinished(cluster, database, ids)
        if not left:
            return time.monotonic() - began
        if time.monotonic() - began > timeout:
            by_status = cluster.sql(
                "SELECT status, count(*) FROM cadence_notification WHERE id = ANY(%s) GROUP BY 1",
                (ids,),
                database=database,
            )
            raise AssertionError(f"not drained {timeout:.0f} s after the fault: {by_status}")
        time.sleep(0.5)
