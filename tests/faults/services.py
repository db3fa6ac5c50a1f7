"""Real services for fault tests, each private to the test run so it can be stopped
and started without touching the machine's own: a PostgreSQL cluster of its own
(initdb in a temporary folder, its own port), a Redis server of its own, gunicorn,
Celery workers and beat — all as subprocesses in their own process groups."""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)), None)
SETTINGS = "tests.faults.settings"
DEMO_PASSWORD = "tandem-demo-2026"


def missing() -> str | None:
    """Why fault tests cannot run here, or None."""
    if not PG_BIN:
        return "PostgreSQL server binaries (initdb, pg_ctl) not installed"
    if not shutil.which("redis-server"):
        return "redis-server not installed"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition, *, timeout: float, what: str, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(every)


def _run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs)  # noqa: S603


class Process:
    """A subprocess in its own session, its output in a log file."""

    def __init__(self, args: list[str], *, env: dict, log: Path):
        self.args, self.env, self.log = args, env, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> Process:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                self.args,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self, timeout: float = 20) -> None:
        if self.alive():
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=timeout)
        self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class PrivatePostgres:
    """A throwaway cluster: trust auth, no fsync, listening on 127.0.0.1:<port>."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="tandem-faults-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_postgres:  # the server refuses to run as root
            shutil.chown(self.root, "postgres", "postgres")
        _run([*self.as_postgres, f"{PG_BIN}/initdb", "-D", str(self.data), "-U", "postgres",
              "--auth=trust", "-E", "UTF8", "--no-sync"])  # fmt: skip

    def url(self, database: str = "tandem") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        _run([*self.as_postgres, f"{PG_BIN}/pg_ctl", "-D", str(self.data), "-o", options,
              "-l", str(self.root / "server.log"), "-w", "start"])  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        _run([*self.as_postgres, f"{PG_BIN}/pg_ctl", "-D", str(self.data), "-m", mode,
              "-w", "stop"])  # fmt: skip

    def create_database(self, name: str = "tandem") -> None:
        self.sql(f'CREATE DATABASE "{name}"', database="postgres", autocommit=True)

    def sql(self, query: str, params=(), *, database: str = "tandem", autocommit=False):
        import psycopg2

        conn = psycopg2.connect(self.url(database))
        try:
            conn.autocommit = autocommit
            with conn.cursor() as cursor:
                cursor.execute(query, params)
                rows = cursor.fetchall() if cursor.description else []
            if not autocommit:
                conn.commit()
            return rows
        finally:
            conn.close()

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


class PrivateRedis:
    def __init__(self, folder: Path):
        self.port = free_port()
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--maxmemory-policy", "noeviction"]  # fmt: skip
        self.process = Process(args, env=dict(os.environ), log=folder / "redis.log")

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.process.start()
        wait_until(self.answers, timeout=10, what="redis-server answering")

    def stop(self) -> None:
        self.process.kill()

    def answers(self) -> bool:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s,
        ):
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
        return False


def app_env(*, database_url: str, redis: PrivateRedis, mail_dir: Path, **extra) -> dict:
    return dict(
        os.environ,
        DJANGO_SETTINGS_MODULE=SETTINGS,
        DATABASE_URL=database_url,
        CACHE_URL=redis.url(1),
        CELERY_BROKER_URL=redis.url(0),
        CELERY_TASK_ALWAYS_EAGER="false",
        TANDEM_TEST_MAIL_DIR=str(mail_dir),
        PYTHONUNBUFFERED="1",
        **extra,
    )


def manage(env: dict, *args: str) -> str:
    return _run([sys.executable, "manage.py", *args], cwd=ROOT, env=env).stdout


def gunicorn(env: dict, folder: Path, *, workers: int = 2, threads: int = 1) -> tuple[Process, str]:
    port = free_port()
    web = Process(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--threads", str(threads), "--timeout", "60"],
        env=env, log=folder / "gunicorn.log",
    ).start()  # fmt: skip
    base = f"http://127.0.0.1:{port}"

    def up():
        with contextlib.suppress(requests.RequestException):
            return requests.get(f"{base}/healthz", timeout=2).status_code in (200, 503)
        return False

    wait_until(up, timeout=60, what="gunicorn answering /healthz")
    return web, base


def celery(env: dict, folder: Path, name: str, *args: str) -> Process:
    return Process(
        [sys.executable, "-m", "celery", "-A", "config", *args],
        env=env,
        log=folder / f"{name}.log",
    ).start()


_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def signed_in(base: str, email: str, password: str = DEMO_PASSWORD) -> requests.Session:
    """A browser-like session signed in through the real sign-in form."""
    session = requests.Session()
    form = session.get(f"{base}/accounts/login/", timeout=10)
    token = _CSRF.search(form.text).group(1)
    answer = session.post(
        f"{base}/accounts/login/",
        data={"login": email, "password": password, "csrfmiddlewaretoken": token},
        headers={"Referer": f"{base}/accounts/login/"},
        allow_redirects=False,
        timeout=10,
    )
    assert answer.status_code == 302, f"sign-in as {email}: {answer.status_code}"
    return session


def worker(env: dict, folder: Path, name: str = "worker", *, concurrency: int = 1) -> Process:
    return celery(
        env, folder, name, "worker", "--pool=prefork", f"--concurrency={concurrency}",
        "--without-heartbeat", "--without-gossip", "--without-mingle", "--loglevel=INFO",
        "--hostname", f"{name}@%h",
    )  # fmt: skip


def beat(env: dict, folder: Path, name: str = "beat") -> Process:
    return celery(
        env, folder, name, "beat", "--loglevel=INFO", "--pidfile", str(folder / f"{name}.pid"),
        "--schedule", str(folder / f"{name}-schedule"),
    )  # fmt: skip


def csrf(session: requests.Session) -> dict:
    return {"X-CSRFToken": session.cookies["csrftoken"]}


def report(name: str, data: dict) -> None:
    """Numbers for bin/trust-report, when the run collects them (TRUST_REPORT_DIR)."""
    import json

    folder = os.environ.get("TRUST_REPORT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"faults-{name}.json").write_text(json.dumps(data, indent=2))


def sent_mail(folder: Path):
    import email

    return [email.message_from_bytes(p.read_bytes()) for p in sorted(folder.glob("*.eml"))]
