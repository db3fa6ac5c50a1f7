"""Benchmark: every page and API read at scale, as each role — to find the slow ones.

    make seed-scale                      # once: the 10,000-person database tandem_scale
    make bench-routes                    # every role, 3 ids a route, median of 3
    .venv/bin/python bench/routes.py [--roles lead,rep,hr,admin,head,superuser] [--ids 3] \\
        [--repeat 3] [--match REGEX] [--top 40]

bench/pages.py loads a dozen chosen pages hard; this one reads every route once per
role, so a page nobody thought to load (a rep's page seen from the head, the slowest
read until stop 43) shows up. It walks the URL resolver (tests/support/urlwalk.py: the apps' pages,
the API, allauth) and requests each route as each of the scale organisation's people
with the Django test client, in this process, with the production settings of
bench/pages.py (DEBUG off, `tandem_scale`, Redis db 11 as the cache):

- routes without parameters as they are;
- routes with an id: ids the person can see, read from the API list of the same
  objects as that person (the first, middle and last of its first page, `--ids`) —
  so visibility comes from the app's own rules, never from the benchmark;
- routes it does not know how to fill are named at the end, so a new one is noticed.

Each path is requested once (its status; the "first" time, the cache as it was),
then `--repeat` times; the median is reported with that request's query count. Each
role's reads run in a transaction rolled back at the end, each path's in a savepoint
rolled back after it: reads write too (an audit event per evaluative item read, 46,000
for an export), so no read sees what an earlier one wrote and the sweep leaves
`tandem_scale` as it found it.
Only reads: GET, and a route answering 405 to GET (a form's POST target) is counted
and left out. The admin site is swept too (its pages, and each model's pages for the
model's first object): for the people it lets in, the rest get its sign-in redirect.

Prints a Markdown table of the slowest `--top` reads, then every status seen, how
many reads took over 100 ms, 300 ms and a second, and the reads that ran a statement
twice (the same text with the same values: work the request could have kept). A 500
is printed with its exception and makes the run exit non-zero; nothing else does: a
measurement, never a test that fails on a slow machine."""

import argparse
import contextlib
import json
import logging
import re
import statistics
import sys
import time
from collections import Counter
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import pages  # noqa: E402

ROLES = {
    "lead": pages.LEAD,
    "rep": pages.REP,
    "hr": pages.HR,
    "admin": pages.ADMIN,
    "head": pages.HEAD,
    # The programme admin made a superuser for the sweep (rolled back after it, as
    # every role's reads are): the scale organisation has none, and only a superuser
    # sees all of the admin site.
    "superuser": pages.ADMIN,
}
# Where a page's `pk` comes from, by the start of its address (the longest wins): the
# API list of the same objects. Other API routes find theirs by name: the longest
# "api:<prefix>-list" that exists.
PK_BY_PREFIX = {
    "agenda/": "api:agenda-item-list",
    "api/v1/dashboards/team/": "api:person-list",
    "api/v1/health/teams/": "api:team-list",
    "cadence/plans/": "api:plan-list",
    "commitments/": "api:commitment-list",
    "experiments/": "api:experiment-list",
    "feedback/": "api:feedback-list",
    "feedback/requests/": "api:feedback-request-list",
    "goals/": "api:goal-list",
    "hr/teams/": "api:team-list",
    "library/": "api:learning-list",
    "peers/": "api:peer-pair-list",
    "peers/habits/": "api:pair-habit-list",
    "people/": "api:person-list",
    "programme/cadence/policies/": "api:cadence-policy-list",
    "programme/cadence/teams/": "api:team-list",
    "programme/channels/": "api:team-channel-list",
    "programme/closed-days/": "api:closed-day-list",
    "programme/focus-areas/": "api:focus-area-list",
    "programme/imports/": "api:people-import-list",
    "programme/people/": "api:person-list",
    "programme/plans/": "api:plan-list",
    "programme/questions/": "api:prompt-list",
    "programme/teams/": "api:team-list",
    "scorecards/calls/": "api:recorded-call-list",
    "scorecards/rounds/": "api:scoring-round-list",
    "scorecards/templates/": "api:scorecard-template-list",
    "sessions/": "api:session-list",
    "team/managers/": "api:person-list",
    "teams/": "api:team-list",
}
# Routes with parameters no read can fill: tokens sent by email, a provider's name, a
# secret address (the scale organisation has no calendar feeds), a write-only address.
NOT_FILLABLE = {
    "account_confirm_email",
    "account_reset_password_from_key",
    "openid_connect_login",
    "openid_connect_callback",
    "cadence:calendar_feed",
    "api:team-member",
    "people:team_member_remove",
}
# A search typed into a people picker (people/pickers.py), for `people_pick`.
PICKER_QUERY = "?name=person&id=person&person_search=an"


def main() -> int:
    args, roles = sweep_arguments(__doc__, ROLES, ids=3, unit="route", what="reads")
    with at_scale(_logs()):
        started = time.monotonic()
        reads, skipped, unfilled = _sweep(args, roles)
        print(_report(args, roles, reads, skipped, unfilled, time.monotonic() - started))
    return 1 if any(read["status"] >= 500 for read in reads) else 0


def sweep_arguments(doc: str, known: tuple[str, ...], *, ids: int, unit: str, what: str):
    """The options of a sweep over the app as each role (this one, bench/writes.py),
    and the roles asked for."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--roles", default=",".join(known), help="comma-separated roles")
    parser.add_argument("--ids", type=int, default=ids, help=f"ids per {unit} with an id")
    parser.add_argument("--repeat", type=int, default=3, help=f"timed runs of each of the {what}")
    parser.add_argument("--match", help=f"only {unit}s whose name or pattern matches")
    parser.add_argument("--top", type=int, default=40, help=f"rows of the slowest {what}")
    args = parser.parse_args()
    roles = [role.strip() for role in args.roles.split(",") if role.strip()]
    unknown = set(roles) - set(known)
    if unknown:
        parser.error(f"unknown roles: {', '.join(sorted(unknown))} (known: {', '.join(known)})")
    return args, roles


@contextlib.contextmanager
def at_scale(logs: Path):
    """Django set up on `tandem_scale` with production settings (bench/pages.py's) as
    the server sets it up (`config.wsgi`: what is loaded then is frozen out of the
    garbage collector's sight, so a read pays for its own garbage only), its static
    files collected, the shared cache emptied before and after."""
    redis_url = pages._environment()  # noqa: SLF001
    import config.wsgi  # noqa: F401

    # Every 404, 405 and refused submission of a sweep would be logged as a warning.
    logging.disable(logging.WARNING)
    pages._require_migrated()  # noqa: SLF001
    pages._collectstatic(pages.ROOT, pages.ROOT / "var" / "bench" / "pages-static", logs)  # noqa: SLF001
    pages._flush(redis_url)  # noqa: SLF001
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            pages._flush(redis_url)  # noqa: SLF001


def _logs() -> Path:
    folder = pages.ROOT / "var" / "bench" / "routes"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- The sweep ------------------------------------------------------------------------


def _sweep(args, roles: list[str]):
    from tests.support.urlwalk import routes

    every = routes()
    wanted = [
        route
        for route in every
        if not args.match or re.search(args.match, f"{route.key} {route.route}")
    ]
    list_names = {route.name for route in every if (route.name or "").endswith("-list")}
    reads, skipped, unfilled = [], Counter(), set()
    for role in roles:
        with _as_role(role) as client:
            _sweep_as(role, client, args, wanted, list_names, reads, skipped, unfilled)
        print(f"  {role}: {sum(r['role'] == role for r in reads)} reads", file=sys.stderr)
    return reads, skipped, unfilled


def _sweep_as(role, client, args, wanted, list_names, reads, skipped, unfilled) -> None:
    from django.db import transaction

    ids = _IdSource(client, args.ids)
    for route in wanted:
        fills = _fills(route, ids, list_names)
        if fills is None:
            unfilled.add(route.key)
            continue
        for values in fills:
            path = route.path(**values)
            if route.key == "people:people_pick":
                path += PICKER_QUERY
            with transaction.atomic():  # what this path wrote, the next one never sees
                read = _read(client, path, args.repeat)
                transaction.set_rollback(True)
            if read is None:
                skipped["not a read (405 to GET)"] += 1
                continue
            reads.append({"role": role, "route": route.key, **read})


@contextlib.contextmanager
def _as_role(role: str):
    """A test client signed in as the role's person, inside a transaction rolled back
    afterwards: reads write too (each evaluative item read is an audit event, 46,000
    for one export), and the sweep leaves the database as it found it. For
    "superuser", the transaction also makes them one."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections, transaction
    from django.test import Client

    from people.models import User

    user = User.objects.get(email=f"{ROLES[role]}@{pages.DOMAIN}")
    client = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1")
    # Django closes a connection found inside a transaction at a request's start and
    # end, which would end this one: not while it lasts.
    signals = (request_started, request_finished)
    for signal in signals:
        signal.disconnect(close_old_connections)
    try:
        with transaction.atomic():
            if role == "superuser":
                User.objects.filter(pk=user.pk).update(is_staff=True, is_superuser=True)
            client.force_login(user)
            yield client
            transaction.set_rollback(True)
    finally:
        for signal in signals:
            signal.connect(close_old_connections)


class _IdSource:
    """Ids of one API list as the signed-in person reads it, read once each."""

    def __init__(self, client, how_many: int):
        self.client, self.how_many, self.known = client, how_many, {}

    def __call__(self, list_name: str) -> list[int]:
        if list_name not in self.known:
            self.known[list_name] = self._read(list_name)
        return self.known[list_name]

    def _read(self, list_name: str) -> list[int]:
        from django.urls import reverse

        response = self.client.get(reverse(list_name))
        if response.status_code != 200:
            return []
        body = json.loads(response.content)
        rows = body["results"] if isinstance(body, dict) else body
        found = [row["id"] for row in rows if isinstance(row, dict) and "id" in row]
        if len(found) <= self.how_many:
            return found
        # Spread over the page: the first, the last and evenly between.
        step = (len(found) - 1) / (self.how_many - 1) if self.how_many > 1 else 0
        return [found[round(i * step)] for i in range(self.how_many)]


def _fills(route, ids: _IdSource, list_names: set[str]) -> list[dict] | None:
    """Values for each path of `route` (one empty mapping if it has no parameters), or
    None when the benchmark does not know where its values come from."""
    from tests.support.urlwalk import admin_fill

    admin = admin_fill(route, every_object=lambda model, page: False)
    if admin is not None:  # the admin site's own registry: the first object of each model
        return admin
    if route.key in NOT_FILLABLE:
        return None
    choices = {}
    for param in route.params:
        values = _values(route, param, ids, list_names)
        if values is None:
            return None
        choices[param] = values
    combinations = product(*choices.values())
    return [dict(zip(choices, combination, strict=True)) for combination in combinations]


def _values(route, param: str, ids: _IdSource, list_names: set[str]) -> list | None:
    from dashboards.exports import ORGANISATION_TABLES, TEAM_TABLES
    from people.pickers import _SOURCES

    if param in ("pk", "manager_id"):
        source = _list_for(route, list_names)
        return None if source is None else ids(source)
    if param == "table":
        return list(
            TEAM_TABLES if route.key == "dashboards:hr_team_export" else ORGANISATION_TABLES
        )
    if param == "source":
        return sorted(_SOURCES)
    if param == "period":  # a weekly digest: this week's, for whoever was sent one
        from django.utils import timezone

        from cadence.engine import iso_week

        return [iso_week(timezone.now())]
    return None


def _list_for(route, list_names: set[str]) -> str | None:
    prefixes = [prefix for prefix in PK_BY_PREFIX if route.route.startswith(prefix)]
    if prefixes:
        return PK_BY_PREFIX[max(prefixes, key=len)]
    if not route.key.startswith("api:"):
        return None
    words = route.key.split("-")
    for end in range(len(words) - 1, 0, -1):
        candidate = "-".join(words[:end]) + "-list"
        if candidate in list_names:
            return candidate
    return None


def _read(client, path: str, repeat: int) -> dict | None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    started = time.perf_counter()
    response = client.get(path)
    first_ms = (time.perf_counter() - started) * 1000
    if response.status_code == 405:
        return None
    times, queries, repeated = [], 0, (0, 0.0)
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            client.get(path)
            times.append((time.perf_counter() - started) * 1000)
        queries = len(captured.captured_queries)
        repeated = repeated_statements(captured.captured_queries)
    error = ""
    if response.status_code >= 500:
        exc = getattr(response, "exc_info", None)
        error = f"{exc[0].__name__}: {exc[1]}" if exc else "server error"
    return {
        "path": path,
        "status": response.status_code,
        "first_ms": first_ms,
        "ms": statistics.median(times) if times else first_ms,
        "queries": queries,
        "repeated": repeated[0],
        "repeated_ms": repeated[1],
        "error": error,
    }


# A server-side cursor's and a savepoint's names differ each time the same statement runs.
_NAMES = re.compile(r'DECLARE "_django_curs_\d+_sync_\d+" NO SCROLL CURSOR WITH(OUT)? HOLD FOR ')
_SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def repeated_statements(captured: list[dict]) -> tuple[int, float]:
    """How many statements of one request ran again, the same text with the same
    values, and the milliseconds those second runs took: work a request could have
    kept (Django's Select reading its first choice in a query of its own, a walk down
    the reporting lines done twice)."""
    seen, again, ms = set(), 0, 0.0
    for query in captured:
        sql = query["sql"]
        if sql.startswith(_SAVEPOINTS):
            continue
        text = _NAMES.sub("", sql)
        if text in seen:
            again += 1
            ms += float(query["time"]) * 1000
        seen.add(text)
    return again, ms


# --- The report -----------------------------------------------------------------------


def _report(args, roles, reads, skipped, unfilled, seconds: float) -> str:
    machine = pages._machine(None)  # noqa: SLF001
    slowest = sorted(reads, key=lambda read: read["ms"], reverse=True)[: args.top]
    lines = [
        f"Every read at scale, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"{len(reads):,} reads as {', '.join(roles)} in {seconds:.0f} s, "
        f"median of {args.repeat} (test client, production settings, tandem_scale). "
        f"Machine: {machine['cores']} cores ({machine['cpu']}), {machine['ram']}, "
        f"PostgreSQL {machine['postgres']}, Python {machine['python']}, code {machine['commit']}.",
        "",
        "| # | who | route | path | status | median ms | first ms | queries |",
        "| ---: | --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for rank, read in enumerate(slowest, 1):
        lines.append(
            f"| {rank} | {read['role']} | `{read['route']}` | `{read['path']}` | "
            f"{read['status']} | {read['ms']:,.1f} | {read['first_ms']:,.1f} | {read['queries']} |"
        )
    statuses = Counter(read["status"] for read in reads)
    over = {limit: sum(read["ms"] > limit for read in reads) for limit in (100, 300, 1000)}
    lines += [
        "",
        "Statuses: " + ", ".join(f"{status}: {n:,}" for status, n in sorted(statuses.items())),
        f"Over 100 ms: {over[100]:,}; over 300 ms: {over[300]:,}; over 1 s: {over[1000]:,}.",
    ]
    again = sorted(
        (read for read in reads if read.get("repeated")), key=lambda r: -r["repeated_ms"]
    )
    if again:
        lines.append(
            f"Reads that ran a statement again (same text, same values): {len(again):,}; "
            "the costliest: "
            + "; ".join(
                f"{r['role']} `{r['path']}` ({r['repeated']}, {r['repeated_ms']:,.1f} ms)"
                for r in again[:10]
            )
            + "."
        )
    lines += [f"Left out: {what}: {n:,}." for what, n in skipped.items()]
    if unfilled:
        names = ", ".join(sorted(unfilled))
        lines.append(f"Routes with parameters not swept (no fill known): {names}.")
    for read in reads:
        if read["status"] >= 500:
            lines.append(f"SERVER ERROR as {read['role']}: {read['path']}: {read['error']}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
