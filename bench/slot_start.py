"""HR's readers at the start of a slot, while beat warms it.

HR's cadence health is a rollup computed once per DASHBOARD_REFRESH_MINUTES slot;
beat warms the default window as each slot starts (`dashboards.warm_snapshots`),
seconds of a worker at 10,000 people. This benchmark loads `/hr/?weeks=8` as the HR
person of `tandem_scale` with N readers — threads, one connection each, no think
time — from two seconds before a slot starts until S seconds after it, through
gunicorn (2 sync workers) and PostgreSQL, and runs beat's task in this process 0.3 s
into the slot, as beat would. It reports every request of that span: p50, p99 and
the slowest, how many took more than a second, and which slot each page said it was
"as of" — what readers get while the slot is being computed.

It waits for the next slot (up to DASHBOARD_REFRESH_MINUTES) after warming the
current one. Same settings, database and Redis database as bench/pages.py (whose
helpers it uses); `--ref COMMIT` measures one commit, exported with git archive, as
there. A measurement, never a test that fails on a slow machine.

    .venv/bin/python bench/slot_start.py --readers 8 --seconds 15 [--ref COMMIT]
"""

import argparse
import contextlib
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import pages  # noqa: E402

PATH = "/hr/?weeks=8"
AS_OF = re.compile(rb"As of (\d\d:\d\d)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readers", type=int, default=8, help="connections, one thread each")
    parser.add_argument("--seconds", type=float, default=15, help="loaded after the slot starts")
    parser.add_argument("--ref", help="measure this commit (git archive) instead of the tree")
    args = parser.parse_args()

    redis_url = pages._environment()  # noqa: SLF001
    logs = Path(tempfile.mkdtemp(prefix="tandem-bench-slot-"))
    try:
        code = pages._export(args.ref, logs / "code") if args.ref else pages.ROOT  # noqa: SLF001
        os.environ["PYTHONPATH"] = str(code)  # gunicorn's
        sys.path.insert(0, str(code))  # beat's warming here runs the measured code too
        import django

        django.setup()
        pages._collectstatic(code, pages.ROOT / "var" / "bench" / "pages-static", logs)  # noqa: SLF001
        pages._flush(redis_url)  # noqa: SLF001
        print(_measure(args, code, logs))
    finally:
        pages._stop_all()  # noqa: SLF001
        with contextlib.suppress(Exception):
            pages._flush(redis_url)  # noqa: SLF001
        shutil.rmtree(logs, ignore_errors=True)
    return 0


def _measure(args, code: Path, logs: Path) -> str:
    from django.conf import settings
    from django.db import connection

    from dashboards.tasks import warm_snapshots

    port = pages._free_port()  # noqa: SLF001
    server_args = SimpleNamespace(workers=2, timeout=300, threads=1, code=code)
    server = pages._start_gunicorn(server_args, "sync", port, logs / "gunicorn")  # noqa: SLF001
    pages._wait_healthy(server, port, logs / "gunicorn")  # noqa: SLF001
    cookie = pages._sign_in(port, f"{pages.HR}@{pages.DOMAIN}")  # noqa: SLF001
    warm_snapshots()  # this slot's, as beat did at its start
    pages._probe(port, PATH, cookie, 200)  # noqa: SLF001

    slot = settings.DASHBOARD_REFRESH_MINUTES * 60
    wait = slot - time.time() % slot
    print(f"Waiting {wait:.0f} s for the next slot.", file=sys.stderr, flush=True)
    time.sleep(max(0.0, wait - 2))
    stop = time.time() + 2 + args.seconds
    done: list[tuple[float, int, str]] = []  # seconds, status, as of

    def read() -> None:
        while time.time() < stop:
            started = time.monotonic()
            status, _, body = pages._get(port, PATH, cookie, timeout=300)  # noqa: SLF001
            as_of = AS_OF.search(body)
            done.append((time.monotonic() - started, status, as_of[1].decode() if as_of else "?"))

    readers = [threading.Thread(target=read) for _ in range(args.readers)]
    for reader in readers:
        reader.start()
    while time.time() % slot > 1:  # until the slot has started
        time.sleep(0.01)
    time.sleep(0.3)
    started = time.monotonic()
    warm_snapshots()
    beat = time.monotonic() - started
    connection.close()
    for reader in readers:
        reader.join()
    pages._stop(server)  # noqa: SLF001

    ms = sorted(seconds * 1000 for seconds, _, _ in done)
    statuses = sorted({status for _, status, _ in done})
    slots = {as_of: sum(a == as_of for _, _, a in done) for as_of in sorted({a for *_, a in done})}
    return (
        "| code | readers | requests | statuses | p50 ms | p99 ms | slowest ms | over 1 s "
        "| pages as of (count) | beat's warming s |\n"
        "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: |\n"
        f"| {args.ref or 'working tree'} | {args.readers} | {len(ms):,} "
        f"| {', '.join(map(str, statuses))} | {statistics.median(ms):.0f} "
        f"| {ms[max(0, int(len(ms) * 0.99) - 1)]:.0f} | {ms[-1]:,.0f} "
        f"| {sum(m > 1000 for m in ms)} "
        f"| {', '.join(f'{k} ({v:,})' for k, v in slots.items())} | {beat:.1f} |"
    )


if __name__ == "__main__":
    sys.exit(main())
