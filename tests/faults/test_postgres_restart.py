"""PostgreSQL restarts while people are using Tandem: the requests that hit the gap
fail cleanly — 503 from the pages, the API and /healthz, never a 500 or a dropped
connection — and once the server is back the same gunicorn processes serve again,
nobody restarting anything."""

import threading
import time
from collections import Counter

import pytest
import requests

from . import services

pytestmark = pytest.mark.faults

PAGES = [("manager", "/team/"), ("rep", "/me/"), ("rep", "/api/v1/sessions/"), (None, "/healthz")]


def test_a_restart_during_traffic_answers_503_then_recovers_by_itself(
    cluster, database, redis, mail_dir, tmp_path, processes
):
    env = services.app_env(database_url=cluster.url(database), redis=redis, mail_dir=mail_dir)
    web, base = services.gunicorn(env, tmp_path)
    processes.append(web)
    people = {
        "manager": services.signed_in(base, "sofia.alvarez@example.com"),
        "rep": services.signed_in(base, "aisha.bello@example.com"),
        None: requests.Session(),
    }
    phase = ["before"]
    seen = {name: Counter() for name in ("before", "down", "after", "changing")}
    stop = threading.Event()

    def traffic():
        while not stop.is_set():
            for who, path in PAGES:
                started = phase[0]
                try:
                    answer = people[who].get(base + path, timeout=15, allow_redirects=False)
                    status = answer.status_code
                except requests.RequestException as exc:
                    status = type(exc).__name__
                # A request in flight while the phase changed belongs to neither.
                seen[started if phase[0] == started else "changing"][(path, status)] += 1

    thread = threading.Thread(target=traffic, daemon=True)
    thread.start()
    try:
        time.sleep(2)
        phase[0] = "down"
        cluster.stop("fast")
        time.sleep(3)
        cluster.start()
        services.wait_until(
            lambda: requests.get(f"{base}/healthz", timeout=5).status_code == 200,
            timeout=30,
            what="/healthz back to 200",
        )
        phase[0] = "after"
        time.sleep(3)
    finally:
        stop.set()
        thread.join(timeout=30)
        if cluster_is_down(cluster):
            cluster.start()

    statuses = {phase: {status for (_, status) in counts} for phase, counts in seen.items()}
    services.report(
        "postgres",
        {
            "requests": sum(sum(counts.values()) for counts in seen.values()),
            "during_outage_503": sum(n for (_, s), n in seen["down"].items() if s == 503),
            "after_200": sum(n for (_, s), n in seen["after"].items() if s == 200),
            "errors_500": sum(n for c in seen.values() for (_, s), n in c.items() if s == 500),
        },
    )
    assert statuses["before"] == {200}, seen["before"]
    assert statuses["down"] <= {200, 503}, seen["down"]  # 200: answered before the stop
    assert statuses["changing"] <= {200, 503}, seen["changing"]
    assert {path for (path, status) in seen["down"] if status == 503} == {p for _, p in PAGES}
    assert statuses["after"] == {200}, seen["after"]
    assert all(seen["after"][(path, 200)] for _, path in PAGES), seen["after"]


def cluster_is_down(cluster) -> bool:
    try:
        cluster.sql("SELECT 1", database="postgres")
    except Exception:  # noqa: BLE001
        return True
    return False
