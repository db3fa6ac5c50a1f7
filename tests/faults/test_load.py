"""A bounded load test on loopback: 50 people signed in at once (the demo
organisation's managers, reps, HR and head) using Tandem flat out for a minute — no
think time — through gunicorn and PostgreSQL. Zero errors; the throughput and
latency are reported (bin/trust-report), not asserted. A minute (1,000 to 1,800
requests, every worker saturated from the first second) says as much as the two it
used to run, and gives the suite's other process its two cores back a minute
sooner; FAULTS_LOAD_SECONDS runs it longer."""

import itertools
import os
import statistics
import threading
import time
from collections import Counter

import pytest
import requests

from devdata.demo.people import demo_people

from . import services

pytestmark = pytest.mark.faults

USERS = int(os.environ.get("FAULTS_LOAD_USERS", "50"))
SECONDS = float(os.environ.get("FAULTS_LOAD_SECONDS", "60"))

EVERYONE = ["/", "/me/", "/feedback/", "/api/v1/me/", "/api/v1/sessions/"]
PAGES = {
    "daniel.mensah": [*EVERYONE, "/team/"],
    "helen.park": [*EVERYONE, "/hr/", "/api/v1/health/organisation/"],
    "sofia.alvarez": [*EVERYONE, "/team/", "/api/v1/dashboards/team/"],
    "marcus.chen": [*EVERYONE, "/team/", "/api/v1/dashboards/team/"],
    "lena.fischer": [*EVERYONE, "/team/", "/api/v1/dashboards/team/"],
}
# allauth counts sign-ins per address (30 a minute) and every user here comes from
# 127.0.0.1: 25 people sign in, and the 50 users share their sessions two by two.
PEOPLE = 25


def test_fifty_people_for_a_minute_without_a_single_error(
    cluster, database, redis, mail_dir, tmp_path, processes
):
    env = services.app_env(database_url=cluster.url(database), redis=redis, mail_dir=mail_dir)
    web, base = services.gunicorn(env, tmp_path, workers=3, threads=2)
    processes.append(web)
    reps = [person.key for person in demo_people() if person.role == "rep"]
    keys = [*PAGES, *reps][:PEOPLE]
    sessions = {key: services.signed_in(base, f"{key}@example.com") for key in keys}
    users = []
    for key in itertools.islice(itertools.cycle(keys), USERS):
        browser = requests.Session()
        browser.cookies.update(sessions[key].cookies)
        users.append((browser, PAGES.get(key, EVERYONE)))

    latencies: list[float] = []
    errors: Counter = Counter()
    go, stop = threading.Event(), threading.Event()

    def use(session, paths):
        go.wait()
        for path in itertools.cycle(paths):
            if stop.is_set():
                return
            began = time.perf_counter()
            try:
                answer = session.get(base + path, timeout=60)
                if answer.status_code != 200:
                    errors[(path, answer.status_code)] += 1
            except requests.RequestException as exc:
                errors[(path, type(exc).__name__)] += 1
            latencies.append(time.perf_counter() - began)

    threads = [threading.Thread(target=use, args=user, daemon=True) for user in users]
    for thread in threads:
        thread.start()
    began = time.monotonic()
    go.set()
    time.sleep(SECONDS)
    stop.set()
    for thread in threads:
        thread.join(timeout=90)
    elapsed = time.monotonic() - began

    quantiles = statistics.quantiles(latencies, n=100)
    numbers = {
        "users": USERS,
        "seconds": round(elapsed, 1),
        "requests": len(latencies),
        "errors": sum(errors.values()),
        "requests_per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(quantiles[49] * 1000),
        "p95_ms": round(quantiles[94] * 1000),
        "p99_ms": round(quantiles[98] * 1000),
        "gunicorn": "3 workers x 2 threads",
    }
    services.report("load", numbers)
    print(numbers)
    assert not errors, errors
    assert len(latencies) > USERS
