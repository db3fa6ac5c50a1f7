"""Counting, per notification, what a fault test's backlog (tests/faults/backlog.py)
delivered: every email carries its notification's Message-ID and every webhook post
its Idempotency-Key (`notifications.delivery.idempotency_key`, `notification-<pk>.<token>`),
so a copy sent twice is counted against the row it came from, and a row never
delivered shows as lost."""

from __future__ import annotations

import re
import time
from collections import Counter
from email.parser import BytesHeaderParser
from pathlib import Path

from . import backlog

KEY = re.compile(r"notification-(\d+)\.")


def backlog_ids(cluster, database: str, teams: list[int]) -> list[int]:
    """The backlog's notifications: to its own people, or to its own teams."""
    return [
        row[0]
        for row in cluster.sql(
            "SELECT n.id FROM cadence_notification n LEFT JOIN people_user u"
            " ON u.id = n.recipient_id WHERE u.email LIKE %s OR n.team_id = ANY(%s)",
            (f"%@{backlog.BACKLOG_DOMAIN}", teams),
            database=database,
        )
    ]


def mail_files(mail_dir: Path) -> int:
    return sum(1 for _ in mail_dir.glob("*.eml"))


def deliveries(mail_dir: Path, sink: backlog.WebhookSink) -> Counter:
    """How many times each notification reached someone, email or post, by its key."""
    seen: Counter = Counter()
    for path in mail_dir.glob("*.eml"):
        with open(path, "rb") as handle:
            seen[_notification(BytesHeaderParser().parse(handle)["Message-ID"])] += 1
    with sink.lock:
        keys = Counter(sink.keys)
    for key, count in keys.items():
        seen[_notification(key)] += count
    return seen


def _notification(key: str | None) -> int | None:
    match = KEY.search(key or "")
    return int(match.group(1)) if match else None


def unfinished(cluster, database: str, ids: list[int]) -> int:
    return cluster.sql(
        "SELECT count(*) FROM cadence_notification WHERE id = ANY(%s) AND status <> 'sent'",
        (ids,),
        database=database,
    )[0][0]


def wait_drained(cluster, database: str, ids: list[int], *, timeout: float) -> float:
    """Seconds until every notification of the backlog is sent; fails after `timeout`
    with what is left, by status."""
    began = time.monotonic()
    while unfinished(cluster, database, ids):
        if time.monotonic() - began > timeout:
            by_status = cluster.sql(
                "SELECT status, count(*) FROM cadence_notification WHERE id = ANY(%s) GROUP BY 1",
                (ids,),
                database=database,
            )
            raise AssertionError(f"not drained {timeout:.0f} s after the fault: {by_status}")
        time.sleep(0.5)
    return time.monotonic() - began


def lost_and_twice(seen: Counter, ids: list[int]) -> tuple[list[int], dict[int, int]]:
    """Of `ids`, those never delivered, and those delivered more than once (how often)."""
    lost = [pk for pk in ids if seen[pk] == 0]
    twice = {pk: seen[pk] for pk in ids if seen[pk] > 1}
    return lost, twice
