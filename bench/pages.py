"""Benchmark: page latency through the real stack at scale (gunicorn + PostgreSQL + wrk).

    make seed-scale                       # once: the 10,000-person database tandem_scale
    make bench-pages                      # 8 connections x 20 s per page after a 3 s warm-up
    .venv/bin/python bench/pages.py --connections 8 --duration 20 --warmup 3 \\
        [--worker-class sync|gthread|both] [--pages trivial,team,...] [--ref COMMIT]

It starts gunicorn (`config.wsgi`, `--workers 2`, sync workers by default: on two
cores they gave the pages the same or more throughput and a tighter p95 than gthread
with 4 threads, whose threads contend for the GIL while a page renders)
on a free port of 127.0.0.1 with the production settings (`bench/pages_settings.py`:
production's, with static files collected into var/bench/ because production's
manifest storage needs them) against the database `tandem_scale`: DEBUG off,
SECURE_SSL_REDIRECT=false (plain HTTP on localhost), ALLOWED_HOSTS=127.0.0.1,
CONN_MAX_AGE=600, cache and Celery broker on Redis db 11 (flushed before and after;
no worker is needed to read pages). Two settings differ from a deployment, both
through their environment variables: ACCOUNT_EMAIL_VERIFICATION=none, since the
seeded people have no verified email address and would otherwise be sent a
confirmation on signing in, and API_USER_RATE=1000000/hour, since the API's
2000/hour per person would answer 429 within a few seconds of load (the throttle is
still counted in Redis on every API request).

Each person signs in once through the real sign-in form (GET /accounts/login/ for
the CSRF token, POST the email and the demo password; the session is a row in
`django_session`), and every page is checked once with that cookie before it is
loaded: the expected status (200; the trivial view 301), no redirect to sign-in.
Then `wrk` (Debian's, with bench/pages.lua counting statuses and printing the
latency percentiles) runs from a separate process, the same connections and duration
for every URL: a warm-up run whose numbers are dropped, then the measured run; before
each, the benchmark waits until gunicorn's workers are idle (no CPU time moving, no
query of theirs running), so requests abandoned by the previous run do not count.

The trivial view is /favicon.ico without a cookie: a permanent redirect to the
static file, through every middleware, with no database query (anonymous, so no
session to read). It is measured first and again last, never across the start of
a slot (it waits for beat's warming first); the framework's ceiling is the mean of
the two, and every page is reported as a fraction of it. The same view
with the team lead's cookie ("signed in": the session row and the person are read,
as on every page) is reported too, as the ceiling of a signed-in request; no target.

Beat's part is played too, as in a deployment: HR's cadence health is a rollup
snapshot of each DASHBOARD_REFRESH_MINUTES slot that beat warms at the slot's start
(`dashboards.warm_snapshots`, the default 8-week window in every HR reader's time
zone). A thread of the benchmark runs that task, with its own database connection, at
the start of every slot for as long as pages are loaded (a slot that starts during a
run is warmed while the requests go on, as beat would; meanwhile HR's requests read
the slot before, as in a deployment — bench/slot_start.py measures that moment), and
the report says how long each warming took.

Before each URL's warm-up it empties the cache (Redis db 11) and times requests one
at a time on the idle server: the first ("empty cache": what a request pays when
nothing is cached — for HR's pages, the snapshot computed by the request itself, as
without beat; HR's team drill-down is never warmed by beat, so this is its first
request of every slot); then, before HR's overview (the page that reads what beat
warms), it runs beat's task, as beat would have at the slot's start; then the median
of five more ("alone": the service time without queueing).

Prints a Markdown table per worker class — page, who, requests, requests/second,
p50/p95/p99 in ms as wrk saw them (the wait for a free worker included), p50/p95 on
the server's side (the time gunicorn's worker spent on each request of the measured
run, from its access log: `%(D)s`, no queueing), alone and empty-cache ms, errors and
unexpected statuses, fraction
of the ceiling, the 1-minute load average at the end of the measured run (on a shared
machine, how busy the others kept it; 2 is this benchmark alone on two cores), and the
seconds of beat's slot warming that fell inside the measured run ("beat s": it takes a
core and PostgreSQL for 10-20 s at 10,000 people, so such a run's p95 is not the
page's alone) — with
a machine line (cores, RAM, PostgreSQL, load average before and after, the code's
commit and any uncommitted app changes measured with it) and the issue 9 targets.
`--ref COMMIT` measures one commit, exported with git archive into a temporary
folder, instead of the working tree that others may be changing; the machine line
says which code ran. A run with any socket error, timeout or unexpected status exits
non-zero. Every process started (gunicorn's process group, wrk) is stopped whatever happens.
A measurement, never a test that fails on a slow machine."""

import argparse
import atexit
import contextlib
import http.client
import json
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PASSWORD = "tandem-demo-2026"
DOMAIN = "scale.example.com"
APP_NAME = "tandem-bench-pages"
LUA = ROOT / "bench" / "pages.lua"

LEAD, REP, HR, ADMIN = "andrea.chen", "paula.kaur", "isabel.nwosu", "noah.thomas"
HEAD = "salma.tanaka"  # the head of the organisation: 9,600 people and 1,000 managers below

# key, page, who (None: anonymous), path (ids filled in), expected status
PAGES = [
    ("trivial", "trivial view `/favicon.ico` (301)", None, "/favicon.ico", 301),
    # Not a target: the same view signed in, so the session and the person are read
    # (two queries), as on every page — the ceiling of a signed-in request.
    ("trivial_signed_in", "trivial view, signed in", LEAD, "/favicon.ico", 301),
    ("team", "manager home `/team/`", LEAD, "/team/", 200),
    ("team_head", "the head's home `/team/`", HEAD, "/team/", 200),
    ("session", "1:1 session page `/sessions/{session}/`", LEAD, "/sessions/{session}/", 200),
    ("me", "rep growth `/me/`", REP, "/me/", 200),
    ("hr", "HR overview `/hr/?weeks=8`", HR, "/hr/?weeks=8", 200),
    ("hr_team", "HR team `/hr/teams/{team}/?weeks=8`", HR, "/hr/teams/{team}/?weeks=8", 200),
    ("hr_skills", "HR skills across the organisation `/hr/skills/`", HR, "/hr/skills/", 200),
    ("hr_peers", "HR peer coaching across the organisation `/hr/peers/`", HR, "/hr/peers/", 200),
    ("hr_feedback", "HR feedback in the organisation `/hr/feedback/`", HR, "/hr/feedback/", 200),
    ("pairs", "programme admin's All pairs `/peers/overview/`", ADMIN, "/peers/overview/", 200),
    ("plans", "programme admin's Plans `/programme/plans/`", ADMIN, "/programme/plans/", 200),
    ("audit", "programme admin's Audit log `/programme/audit/`", ADMIN, "/programme/audit/", 200),
    ("api", "API `/api/v1/sessions/`", LEAD, "/api/v1/sessions/", 200),
]
# Pages that read the snapshot beat warms: the benchmark warms it after emptying the
# cache, as beat would have at the slot's start (the others never read it).
READ_BEATS_SNAPSHOT = {"hr"}
# Issue 9: p95 targets in ms; and every page at least 25% of the ceiling's throughput.
P95_TARGETS = {"team": 100, "team_head": 100, "session": 100, "me": 100, "hr": 300}
# gunicorn's default access log line, and the request's time in microseconds.
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(D)s'
CEILING_SHARE = 0.25

_children: list[subprocess.Popen] = []


# --- Processes -------------------------------------------------------------------------


def _stop(process: subprocess.Popen, grace: float = 10) -> None:
    """Stop a process started in its own session: its whole group, TERM then KILL."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=grace)


def _stop_all() -> None:
    while _children:
        _stop(_children.pop())


def _spawn(command: list[str], **kwargs) -> subprocess.Popen:
    process = subprocess.Popen(command, start_new_session=True, **kwargs)  # noqa: S603
    _children.append(process)
    return process


def _on_term(signum, frame):
    raise SystemExit(f"Stopped by signal {signum}.")


# --- The benchmark -----------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=8, help="wrk connections")
    parser.add_argument("--duration", type=float, default=20, help="seconds measured per URL")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of warm-up per URL")
    parser.add_argument("--wrk-threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--worker-class", choices=["sync", "gthread", "both"], default="sync")
    parser.add_argument("--threads", type=int, default=4, help="threads per gthread worker")
    parser.add_argument("--timeout", type=float, default=120, help="per-request time limit")
    parser.add_argument(
        "--pages",
        default=",".join(key for key, *_ in PAGES),
        help="comma-separated subset of: " + ", ".join(key for key, *_ in PAGES),
    )
    parser.add_argument(
        "--ref",
        help="measure this commit (exported with git archive) instead of the working tree, "
        "which others may be changing",
    )
    args = parser.parse_args()
    keys = [key.strip() for key in args.pages.split(",") if key.strip()]
    unknown = set(keys) - {key for key, *_ in PAGES}
    if unknown:
        parser.error(f"unknown pages: {', '.join(sorted(unknown))}")
    if "trivial" not in keys:
        keys.insert(0, "trivial")  # the ceiling every page is compared with
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install -y wrk (Debian's package).")

    redis_url = args.redis_url = _environment()
    static_root = ROOT / "var" / "bench" / "pages-static"

    signal.signal(signal.SIGTERM, _on_term)
    atexit.register(_stop_all)
    logs = Path(tempfile.mkdtemp(prefix="tandem-bench-pages-"))
    ok = False
    try:
        args.code = _export(args.ref, logs / "code") if args.ref else ROOT
        os.environ["PYTHONPATH"] = str(args.code)
        sys.path.insert(0, str(args.code))  # beat's warming here runs the measured code too
        ids = _resolve_ids()
        _collectstatic(args.code, static_root, logs)
        _flush(redis_url)
        machine = _machine(args.ref)
        classes = ["sync", "gthread"] if args.worker_class == "both" else [args.worker_class]
        ok = True
        for worker_class in classes:
            ok = _run(args, worker_class, keys, ids, machine, logs) and ok
    finally:
        _stop_all()
        with contextlib.suppress(Exception):
            _flush(redis_url)
        if ok:
            shutil.rmtree(logs, ignore_errors=True)
        else:
            print(f"Logs kept in {logs}", file=sys.stderr)
    return 0 if ok else 1


def _environment() -> str:
    """The production settings as the benchmark runs them (plain HTTP on localhost,
    `tandem_scale`, a Redis database of its own), for this process and the gunicorn
    it starts; returns that Redis URL (it is flushed)."""
    database = os.environ.get(
        "BENCH_PAGES_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tandem_scale"
    )
    redis_url = os.environ.get("BENCH_PAGES_REDIS_URL", "redis://127.0.0.1:6379/11")
    if urlparse(redis_url).path.strip("/") in ("", "0", "1"):
        sys.exit("Use a Redis database of the benchmark's own (e.g. /11): it is flushed.")
    separator = "&" if "?" in database else "?"
    os.environ.update(
        DJANGO_SETTINGS_MODULE="bench.pages_settings",
        TANDEM_BENCH_STATIC_ROOT=str(ROOT / "var" / "bench" / "pages-static"),
        SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS="127.0.0.1",
        DEBUG="false",
        SECURE_SSL_REDIRECT="false",
        DATABASE_URL=f"{database}{separator}application_name={APP_NAME}",
        CONN_MAX_AGE="600",
        CACHE_URL=redis_url,
        CELERY_BROKER_URL=redis_url,
        ACCOUNT_EMAIL_VERIFICATION="none",
        API_USER_RATE="1000000/hour",
        EMAIL_URL="memorymail://",
        LOG_LEVEL="WARNING",
    )
    return redis_url


def _run(args, worker_class, keys, ids, machine, logs) -> bool:
    port = args.port = _free_port()
    server = _start_gunicorn(args, worker_class, port, logs / f"gunicorn-{worker_class}")
    _wait_healthy(server, port, logs / f"gunicorn-{worker_class}")
    who_reads = {who for key, _, who, _, _ in PAGES if key in keys and who}
    cookies = {person: _sign_in(port, f"{person}@{DOMAIN}") for person in who_reads}
    cookies[None] = None
    pages = {key: (page, who, path.format(**ids), status) for key, page, who, path, status in PAGES}
    for key in keys:
        _, who, path, status = pages[key]
        _probe(port, path, cookies[who], status)

    beat = _Beat()
    beat.start()
    try:
        load_before = os.getloadavg()
        started = time.time()
        access_log = logs / f"gunicorn-{worker_class}.access.log"
        results = _measure(args, server, keys, pages, cookies, beat, access_log)
        load_after = os.getloadavg()
    finally:
        beat.stop()
    _stop(server)
    _children.remove(server)
    return _report(
        args,
        worker_class,
        results,
        machine,
        load_before,
        load_after,
        time.time() - started,
        beat,
    )


def _measure(args, server, keys, pages, cookies, beat, access_log: Path) -> list:
    results = []
    order = keys + ["trivial"]  # the ceiling again at the end, to see it drift
    for i, key in enumerate(order):
        page, who, path, status = pages[key]
        if i == len(order) - 1:
            page = f"{page}, again"
        # Alone first: one request with the cache emptied (what a request pays with
        # nothing cached), then beat's warming of the slot, then the median of five
        # more, one at a time.
        _wait_idle(server)
        _flush(args.redis_url)
        alone = [_timed(args.port, path, cookies[who], status)]
        if key in READ_BEATS_SNAPSHOT:
            beat.warm("after emptying the cache")
        alone += [_timed(args.port, path, cookies[who], status) for _ in range(5)]
        if key == "trivial":
            # The ceiling is the framework's on an otherwise idle server: not across
            # a slot's start, whose warming takes a core for seconds (it once halved
            # the last trivial run's requests/second).
            beat.wait_out_slot_within(args.warmup + args.duration + 5)
        for phase, seconds in (("warm-up", args.warmup), ("measured", args.duration)):
            if seconds <= 0:
                continue
            _wait_idle(server)
            logged_before = access_log.stat().st_size
            started = time.monotonic()
            result = _wrk(args, args.port, path, cookies[who], seconds)
            if phase == "measured":
                result["beat_s"] = beat.warming_between(started, time.monotonic())
                _wait_idle(server)  # the last requests logged
                result["server_ms"] = _server_side_ms(access_log, logged_before)
                result["load"] = os.getloadavg()[0]  # others' work on a shared machine
                result["empty_cache_ms"] = alone[0]
                result["alone_ms"] = statistics.median(alone[1:])
                results.append((key, page, who, status, result))
        print(f"  {page}: {_summary(results[-1][4])}", file=sys.stderr, flush=True)
    return results


# --- Beat ---------------------------------------------------------------------------------


class _Beat:
    """Beat's schedule for the pages measured: the task `dashboards.warm_snapshots` at
    the start of every DASHBOARD_REFRESH_MINUTES slot, in a thread of this process (its
    own database connection, named like gunicorn's so `_wait_idle` waits for it), and
    whenever the benchmark empties the cache. Keeps each warming's moment and seconds."""

    def __init__(self):
        self.runs: list[tuple[str, str, float]] = []  # (UTC time, why, seconds)
        self._slot_spans: list[tuple[float, float]] = []  # monotonic start, end
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="beat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=600)

    def warm(self, why: str) -> None:
        from django.db import connection

        from dashboards.tasks import warm_snapshots

        with self._lock:
            started = time.monotonic()
            warm_snapshots()  # the task's body, run here as the worker would
            ended = time.monotonic()
            self.runs.append((time.strftime("%H:%M:%S", time.gmtime()), why, ended - started))
            if why == "start of a slot":
                self._slot_spans.append((started, ended))
        if threading.current_thread() is self._thread:
            return
        connection.close()  # the main thread's connection is opened again when needed

    def wait_out_slot_within(self, seconds: float) -> None:
        """If a slot starts within `seconds`, wait until beat's warming of it is done."""
        if _seconds_to_next_slot() > seconds:
            return
        warmed = self._slot_runs()
        while self._slot_runs() == warmed and self._thread.is_alive():
            time.sleep(0.2)

    def warming_between(self, started: float, ended: float) -> float:
        """Seconds of slot warmings (done or under way) inside [started, ended]: a page
        loaded while beat warms shares the machine with it, as in a deployment."""
        with self._lock:  # waits for a warming under way to be recorded
            spans = list(self._slot_spans)
        return sum(max(0.0, min(ended, end) - max(started, start)) for start, end in spans)

    def _slot_runs(self) -> int:
        with self._lock:
            return sum(why == "start of a slot" for _, why, _ in self.runs)

    def _loop(self) -> None:
        from django.db import connection

        try:
            while True:
                if self._stopped.wait(_seconds_to_next_slot()):
                    return
                self.warm("start of a slot")
        finally:
            connection.close()


def _seconds_to_next_slot() -> float:
    from django.conf import settings
    from django.utils import timezone

    from dashboards.snapshots import slot_start

    now = timezone.now()
    due = slot_start(now) + timedelta(minutes=settings.DASHBOARD_REFRESH_MINUTES)
    return (due - now).total_seconds()


# --- Database, static files, Redis -------------------------------------------------------------


def _resolve_ids() -> dict[str, int]:
    """The team lead's team and her latest held 1:1 with her rep, read with the ORM."""
    import django

    django.setup()
    from django.db import connection

    _require_migrated()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT email, id FROM people_user WHERE email = ANY(%s)",
            [[f"{person}@{DOMAIN}" for person in (LEAD, REP, HR)]],
        )
        people = dict(cursor.fetchall())
        if len(people) < 3:
            sys.exit(
                "tandem_scale does not hold the scale organisation's logins: run "
                "`make seed-scale` (about 3 minutes)."
            )
        lead, rep = people[f"{LEAD}@{DOMAIN}"], people[f"{REP}@{DOMAIN}"]
        cursor.execute("SELECT id FROM people_team WHERE lead_id = %s ORDER BY id LIMIT 1", [lead])
        team = cursor.fetchone()
        cursor.execute(
            """
            SELECT s.id FROM coaching_coachingsession s
            JOIN coaching_sessionparticipant c
              ON c.session_id = s.id AND c.role = 'coach' AND c.person_id = %s
            JOIN coaching_sessionparticipant r
              ON r.session_id = s.id AND r.role = 'coachee' AND r.person_id = %s
            WHERE s.kind = 'one_on_one' AND s.status = 'held'
            ORDER BY s.scheduled_start DESC LIMIT 1
            """,
            [lead, rep],
        )
        session = cursor.fetchone()
    connection.close()
    if not team or not session:
        sys.exit(f"{LEAD} leads no team or has no held 1:1 with {REP}: run `make seed-scale`.")
    return {"team": team[0], "session": session[0]}


def _require_migrated() -> None:
    """Stop with the list when the code measured has migrations the database lacks (a
    table it reads on signing in), rather than fail with a 500 at the sign-in form."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if pending:
        names = ", ".join(f"{m.app_label}.{m.name}" for m, _ in pending)
        sys.exit(
            f"The database lacks migrations of the code measured ({names}): migrate it, "
            "or measure a copy (BENCH_PAGES_DATABASE_URL; see bench/README.md)."
        )


def _export(ref: str, folder: Path) -> Path:
    """The code of one commit in a folder of its own, with this benchmark's settings."""
    folder.mkdir(parents=True)
    archive = subprocess.run(  # noqa: S603
        [shutil.which("git") or "git", "archive", "--format=tar", ref],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        sys.exit(f"git archive {ref}: {archive.stderr.decode().strip()}")
    subprocess.run(  # noqa: S603
        [shutil.which("tar") or "tar", "-x", "-C", str(folder)], input=archive.stdout, check=True
    )
    (folder / "bench").mkdir(exist_ok=True)
    shutil.copy(ROOT / "bench" / "pages_settings.py", folder / "bench" / "pages_settings.py")
    return folder


def _collectstatic(code: Path, static_root: Path, logs: Path) -> None:
    static_root.mkdir(parents=True, exist_ok=True)
    with open(logs / "collectstatic.log", "w") as log:
        subprocess.run(  # noqa: S603
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=code,
            stdout=log,
            stderr=subprocess.STDOUT,
            check=True,
        )


def _flush(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()


def _active_queries() -> int:
    """Queries of the benchmark's gunicorn (by application_name) running right now."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE application_name = %s AND state <> 'idle' AND pid <> pg_backend_pid()",
            [APP_NAME],
        )
        return cursor.fetchone()[0]


# --- gunicorn ---------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_gunicorn(args, worker_class: str, port: int, log_base: Path) -> subprocess.Popen:
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(args.workers),
        "--worker-class",
        worker_class,
        "--timeout",
        str(int(args.timeout)),
        # As the image runs it: an access log line per request (here to a file),
        # ending in the time the worker spent on it (%(D)s, microseconds): the
        # server-side latency, without the wait in the listen queue.
        "--access-logfile",
        f"{log_base}.access.log",
        "--access-logformat",
        ACCESS_LOG_FORMAT,
        "--error-logfile",
        f"{log_base}.error.log",
    ]
    if worker_class == "gthread":
        command += ["--threads", str(args.threads)]
    return _spawn(command, cwd=args.code, stdin=subprocess.DEVNULL)


def _wait_healthy(server: subprocess.Popen, port: int, log_base: Path, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"gunicorn exited ({server.returncode}); see {log_base}.error.log")
        with contextlib.suppress(OSError):
            status, _, _ = _get(port, "/healthz")
            if status == 200:
                return
        time.sleep(0.2)
    sys.exit(f"gunicorn did not answer /healthz in {timeout:.0f} s; see {log_base}.error.log")


def _group_cpu_ticks(pgid: int) -> int:
    """User + system CPU ticks of every process in a process group (gunicorn's)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:
                total += int(fields[11]) + int(fields[12])
    return total


def _wait_idle(server: subprocess.Popen, timeout: float = 300) -> None:
    """Until gunicorn's processes use no CPU for 0.3 s and none of their queries runs:
    a run cut short by wrk leaves requests in flight that the next run must not pay."""
    deadline = time.monotonic() + timeout
    quiet, ticks = 0, _group_cpu_ticks(server.pid)
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = _group_cpu_ticks(server.pid)
        quiet = quiet + 1 if now == ticks and _active_queries() == 0 else 0
        ticks = now
        if quiet >= 3:
            return
    print(f"  (gunicorn still busy after {timeout:.0f} s; going on)", file=sys.stderr)


# --- HTTP: sign-in and probes ---------------------------------------------------------------


def _get(port: int, path: str, cookie: str | None = None, timeout: float = 120):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Cookie": cookie} if cookie else {}
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def _cookies(headers) -> SimpleCookie:
    jar = SimpleCookie()
    for header in headers.get_all("Set-Cookie") or []:
        jar.load(header)
    return jar


def _sign_in(port: int, email: str) -> str:
    """The real sign-in form: returns the Cookie header of the signed-in session."""
    status, headers, body = _get(port, "/accounts/login/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    csrf = _cookies(headers).get("csrftoken")
    if status != 200 or not token or not csrf:
        sys.exit(f"Sign-in page: {status}, no CSRF token or cookie; cannot sign in.")
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        form = {"login": email, "password": PASSWORD, "csrfmiddlewaretoken": token[1].decode()}
        connection.request(
            "POST",
            "/accounts/login/",
            body=urlencode(form),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={csrf.value}",
            },
        )
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    session = _cookies(response.headers).get("sessionid")
    location = response.headers.get("Location", "")
    if response.status != 302 or location != "/" or not session:
        sys.exit(
            f"Signing in {email} failed: {response.status} to {location!r}"
            f"{'' if session else ', no session cookie'}."
        )
    return f"sessionid={session.value}"


def _timed(port: int, path: str, cookie: str | None, expected: int) -> float:
    """One request on its own: milliseconds, checked like a probe."""
    started = time.perf_counter()
    status, headers, _ = _get(port, path, cookie)
    ms = (time.perf_counter() - started) * 1000
    if status != expected:
        sys.exit(f"{path}: expected {expected}, got {status} {headers.get('Location', '')}")
    return ms


def _probe(port: int, path: str, cookie: str | None, expected: int) -> None:
    status, headers, body = _get(port, path, cookie)
    location = headers.get("Location", "")
    if "/accounts/login/" in location:
        sys.exit(f"{path}: {status} to the sign-in page: the session cookie is not accepted.")
    if status != expected:
        sys.exit(f"{path}: expected {expected}, got {status} {location}".rstrip())
    if expected == 301 and "favicon" not in location:
        sys.exit(f"{path}: 301 to {location!r}, not the static favicon.")


# --- wrk --------------------------------------------------------------------------------------


def _wrk(args, port: int, path: str, cookie: str | None, seconds: float) -> dict:
    command = [
        shutil.which("wrk"),
        "--threads",
        str(min(args.wrk_threads, args.connections)),
        "--connections",
        str(args.connections),
        "--duration",
        f"{max(1, round(seconds))}s",
        "--timeout",
        f"{int(args.timeout)}s",
        "--script",
        str(LUA),
    ]
    if cookie:
        command += ["--header", f"Cookie: {cookie}"]
    if path.startswith("/api/"):
        command += ["--header", "Accept: application/json"]
    command.append(f"http://127.0.0.1:{port}{path}")
    process = _spawn(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=seconds + args.timeout + 60)
    finally:
        _stop(process)
        _children.remove(process)
    line = next((x for x in out.splitlines() if x.startswith("WRK-RESULT ")), None)
    if process.returncode != 0 or line is None:
        sys.exit(f"wrk failed ({process.returncode}): {err.strip() or out.strip()}")
    result = json.loads(line.removeprefix("WRK-RESULT "))
    result["statuses"] = {int(k): v for k, v in result["statuses"].items()}
    return result


def _server_side_ms(access_log: Path, offset: int) -> dict[str, float]:
    """p50/p95/p99 of the time gunicorn's workers spent on each request logged from
    `offset` on (the last field of ACCESS_LOG_FORMAT): latency on the server's side,
    without the wait in the listen queue that wrk's numbers include."""
    with access_log.open("rb") as log:
        log.seek(offset)
        micros = [int(line.rsplit(None, 1)[-1]) for line in log.read().splitlines() if line]
    if len(micros) < 2:  # quantiles need two; a lone request is its own p50 … p99
        only = micros[0] / 1000 if micros else float("nan")
        return {"p50": only, "p95": only, "p99": only}
    cuts = statistics.quantiles(micros, n=100, method="inclusive")
    return {"p50": cuts[49] / 1000, "p95": cuts[94] / 1000, "p99": cuts[98] / 1000}


def _rps(result: dict) -> float:
    return result["requests"] / (result["duration_us"] / 1e6)


def _ms(result: dict, name: str) -> float:
    return result["latency_us"][name] / 1000


def _problems(result: dict, expected: int) -> int:
    errors = sum(result["errors"][k] for k in ("connect", "read", "write", "timeout"))
    unexpected = sum(n for status, n in result["statuses"].items() if status != expected)
    return errors + unexpected


def _summary(result: dict) -> str:
    return (
        f"{result['requests']} requests, {_rps(result):.1f}/s, "
        f"{result['bytes'] / max(1, result['requests']) / 1024:.1f} KiB each, "
        f"p50 {_ms(result, 'p50'):.1f} ms, p95 {_ms(result, 'p95'):.1f} ms, "
        f"statuses {result['statuses']}, errors {result['errors']}"
    )


# --- Report -----------------------------------------------------------------------------------


def _machine(ref: str | None) -> dict[str, str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        postgres = cursor.fetchone()[0].split()[0]
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "?",
    )
    kib = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text())[1])
    wrk = subprocess.run([shutil.which("wrk"), "-v"], capture_output=True, text=True)  # noqa: S603
    import gunicorn

    if ref:
        code = f"{ref} ({_git('rev-parse', '--short', ref).strip()}), exported"
    else:
        dirty = _git("status", "--porcelain", "--untracked-files=no").split("\n")
        changed = sorted(
            line[3:]
            for line in dirty
            if line[3:].endswith(".py") and not line[3:].startswith("bench/")
        )
        code = _git("rev-parse", "--short", "HEAD").strip() + (
            f" + uncommitted changes to {', '.join(changed)}" if changed else ""
        )
    return {
        "cores": str(os.cpu_count()),
        "cpu": model,
        "ram": f"{kib / 1024 / 1024:.0f} GiB",
        "postgres": postgres,
        "python": platform.python_version(),
        "gunicorn": gunicorn.__version__,
        "wrk": (wrk.stdout or wrk.stderr).split()[1] if (wrk.stdout or wrk.stderr) else "?",
        "commit": code,
    }


def _report(args, worker_class, results, machine, load_before, load_after, seconds, beat) -> bool:
    trivial = [_rps(r) for key, *_, r in results if key == "trivial"]
    ceiling = sum(trivial) / len(trivial)
    threads = f" x {args.threads} threads" if worker_class == "gthread" else ""
    print()
    print(
        f"gunicorn {machine['gunicorn']}: {args.workers} {worker_class} workers{threads}; "
        f"wrk {machine['wrk']}: {args.connections} connections x {args.duration:g} s per URL "
        f"after {args.warmup:g} s warm-up; {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{seconds:.0f} s in all."
    )
    print(
        f"Machine: {machine['cores']} cores ({machine['cpu']}), {machine['ram']} RAM, "
        f"PostgreSQL {machine['postgres']}, Python {machine['python']}; "
        f"load average {_load(load_before)} before, {_load(load_after)} after. "
        f"Code: {machine['commit']}."
    )
    print()
    print(
        "| page | who | requests | requests/s | p50 ms | p95 ms | p99 ms "
        "| server p50 ms | server p95 ms | alone ms "
        "| empty cache ms | errors / unexpected | of ceiling | load | beat s |"
    )
    print("| --- | --- |" + " ---: |" * 13)
    ok = True
    verdicts = []
    for key, page, who, expected, result in results:
        problems = _problems(result, expected)
        ok = ok and problems == 0
        share = _rps(result) / ceiling
        row = [
            page,
            who or "anonymous",
            f"{result['requests']:,}",
            f"{_rps(result):,.1f}",
            f"{_ms(result, 'p50'):.1f}",
            f"{_ms(result, 'p95'):.1f}",
            f"{_ms(result, 'p99'):.1f}",
            f"{result['server_ms']['p50']:.1f}",
            f"{result['server_ms']['p95']:.1f}",
            f"{result['alone_ms']:.1f}",
            f"{result['empty_cache_ms']:.1f}",
            str(problems),
            f"{share:.1%}" if share >= 0.01 else f"{share:.2%}",
            f"{result['load']:.1f}",
            f"{result['beat_s']:.0f}" if result["beat_s"] else "-",
        ]
        print("| " + " | ".join(row) + " |")
        if key.startswith("trivial"):
            continue
        met = share >= CEILING_SHARE
        verdicts.append(
            f"{key}: throughput {share:.2%} of the ceiling "
            f"({'met' if met else 'MISSED'}, target {CEILING_SHARE:.0%})"
        )
        if key in P95_TARGETS:
            p95, target = _ms(result, "p95"), P95_TARGETS[key]
            server = result["server_ms"]["p95"]
            beat_s = result["beat_s"]
            beside = f"; beat warming for {beat_s:.0f} s of it" if beat_s else ""
            verdicts.append(
                f"{key}: p95 {p95:.1f} ms ({'met' if p95 <= target else 'MISSED'}, "
                f"target {target} ms; server side {server:.1f} ms, "
                f"{'met' if server <= target else 'MISSED'}{beside})"
            )
    print()
    print(f"Ceiling: {ceiling:,.1f} requests/s (mean of {len(trivial)} trivial-view runs).")
    slots = [f"{at} {s:.1f} s" for at, why, s in beat.runs if why == "start of a slot"]
    after_flush = [s for at, why, s in beat.runs if why != "start of a slot"]
    print(
        f"Beat's warming of HR's snapshots (dashboards.warm_snapshots): "
        f"{len(after_flush)} after emptying the cache "
        f"({', '.join(f'{s:.1f} s' for s in after_flush) or '-'}); at the start of a slot: "
        + (", ".join(slots) if slots else "none during the run")
        + "."
    )
    print("Targets (issue 9): " + "; ".join(verdicts) + ".")
    if load_before[0] > 2:
        print(f"Note: the machine was busy (load {load_before[0]:.2f} > 2 before the run).")
    if not ok:
        print("INVALID RUN: errors or unexpected statuses (see the table).", file=sys.stderr)
        for key, _page, _who, expected, result in results:
            if _problems(result, expected):
                print(f"  {key}: {result['statuses']} {result['errors']}", file=sys.stderr)
    return ok


def _git(*args: str) -> str:
    git = shutil.which("git")
    if not git:
        return "?"
    return subprocess.run(  # noqa: S603
        [git, *args], cwd=ROOT, capture_output=True, text=True
    ).stdout


def _load(triple) -> str:
    return " ".join(f"{x:.2f}" for x in triple)


if __name__ == "__main__":
    sys.exit(main())
