"""Benchmark: every form of the app submitted at scale, as each role — to find the
slow writes.

    make seed-scale                      # once: the 10,000-person database tandem_scale
    make bench-writes                    # every role, median of 3
    .venv/bin/python bench/writes.py [--roles lead,rep,hr,admin,head] [--ids 2] \\
        [--repeat 3] [--match REGEX] [--top 40]

bench/routes.py reads every route; this one writes through every form those pages
offer. As each of the scale organisation's people (bench/routes.py's roles, in the
same rolled-back transaction each), it opens every page of the app it can reach
(routes with ids filled from that person's API lists, as bench/routes.py does), reads
each POST form on it and on the fragments htmx loads into it (tests/support/formwalk.py),
and submits each form once with what a careful person would type
(`formwalk.baseline`: the values shown, the first choice offered, plain words;
completed by `as_a_person_would`: a choice where none is made, two boxes of a
list, a link where one is asked for, someone found through each people search) —
an htmx form as htmx sends it. Every submission runs in a savepoint rolled back
after it, so each one meets the organisation as seeded and the sweep leaves
`tandem_scale` as it found it; a form already submitted by the role (the same target
and fields) is not submitted again.

Left out: sign-out forms (they would end the reader's session) and the admin site
and the API (their writes are Django's and DRF's own forms over the same services).
A submission that signs the reader out anyway (a password change) signs them in again.

Prints a Markdown table of the slowest `--top` submissions with their status and
query count, then every status seen, how many took over 100 ms, 300 ms and a second,
the submissions that ran a statement twice, and those refused. A 500 is printed with
its exception and makes the run exit non-zero; a 4xx is counted, not a failure (a
plausible value can still be refused: a date already taken, a choice that needs
another first). A measurement, never a test that fails on a slow machine."""

import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import pages, routes  # noqa: E402

ROLES = ("lead", "rep", "hr", "admin", "head")
# Addresses that are not the app's pages: their forms are not the app's (the admin
# site), or they answer JSON, CSV or a calendar.
NOT_PAGES = ("/admin/", "/api/", "/healthz", "/favicon.ico", "/calendar/")
# Forms whose submission would end the sweep's session rather than measure a write.
NOT_SUBMITTED = ("/accounts/logout/",)


def main() -> int:
    args, roles = routes.sweep_arguments(__doc__, ROLES, ids=2, unit="page", what="writes")
    with routes.at_scale(_logs()):
        started = time.monotonic()
        writes, pages_read = sweep(roles, ids=args.ids, repeat=args.repeat, match=args.match)
        print(report(args, roles, writes, pages_read, time.monotonic() - started))
    return 1 if any(write["status"] >= 500 for write in writes) else 0


def _logs() -> Path:
    folder = pages.ROOT / "var" / "bench" / "writes"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- The sweep ------------------------------------------------------------------------


def sweep(roles, *, ids: int, repeat: int, match: str | None = None):
    """Every role's submissions (dicts: role, route, form, status, ms, queries, error)
    and how many pages each role opened."""
    from tests.support.urlwalk import routes as every_route

    every = every_route()
    list_names = {route.name for route in every if (route.name or "").endswith("-list")}
    wanted = [
        route
        for route in every
        if not ("/" + route.route.lstrip("^")).startswith(NOT_PAGES)
        and not route.key.startswith(("admin:", "api:"))
        and (not match or re.search(match, f"{route.key} {route.route}"))
    ]
    writes, pages_read = [], Counter()
    for role in roles:
        with routes._as_role(role) as client:  # noqa: SLF001
            user = _signed_in(client)
            forms = _forms_as(client, wanted, routes._IdSource(client, ids), list_names)  # noqa: SLF001
            pages_read[role] = forms.pop("pages")
            for form in forms.values():
                writes.append({"role": role, **_submit_timed(client, user, form, repeat)})
        print(f"  {role}: {pages_read[role]} pages, {len(forms)} forms", file=sys.stderr)
    return writes, pages_read


def _signed_in(client):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def _forms_as(client, wanted, ids, list_names) -> dict:
    """The role's distinct forms, by target and fields, from every page it can open
    (and the fragments htmx loads into them); "pages": how many pages it opened."""
    from tests.support.formwalk import read_page

    found, opened = {}, 0
    for route in wanted:
        fills = routes._fills(route, ids, list_names)  # noqa: SLF001
        for values in fills or []:
            path = route.path(**values)
            html = _html(client, path)
            if html is None:
                continue
            opened += 1
            page = read_page(html, path)
            fragments = [
                read_page(fragment, path)
                for lazy, target in page.lazy
                if (fragment := _html(client, lazy, HTTP_HX_REQUEST="true", HTTP_HX_TARGET=target))
            ]
            for form in [*page.forms, *(f for fragment in fragments for f in fragment.forms)]:
                if form.action.startswith(NOT_SUBMITTED):
                    continue
                found.setdefault((_route_of(form.action), form.signature()), form)
    found["pages"] = opened
    return found


def _html(client, path: str, **headers) -> str | None:
    from django.db import transaction

    with transaction.atomic():  # a read that writes (an audit event) leaves nothing
        response = client.get(path, **headers)
        transaction.set_rollback(True)
    content_type = response.headers.get("Content-Type", "")
    if response.status_code != 200 or not content_type.startswith("text/html"):
        return None
    return response.content.decode()


def _route_of(action: str) -> str:
    from django.urls import Resolver404, resolve

    try:
        return resolve(action.split("?")[0]).view_name
    except Resolver404:
        return action


def _submit_timed(client, user, form, repeat: int) -> dict:
    """The form submitted once for its status, then `repeat` times for the median, each
    time in a savepoint rolled back: every submission meets the same database."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from tests.support.formwalk import baseline

    data = as_a_person_would(client, form, baseline(form))
    first, times, queries, repeated = None, [], 0, (0, 0.0)
    for attempt in range(1 + repeat):
        with transaction.atomic(), CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = _post(client, form, data)
            elapsed = (time.perf_counter() - started) * 1000
            transaction.set_rollback(True)
        if not response.wsgi_request.user.is_authenticated:
            client.force_login(user)  # the submission signed the reader out
        if attempt == 0:
            first = response
        else:
            times.append(elapsed)
            queries = len(captured.captured_queries)
            repeated = routes.repeated_statements(captured.captured_queries)
    error = ""
    if first.status_code >= 500:
        exc = getattr(first, "exc_info", None)
        error = f"{exc[0].__name__}: {exc[1]}" if exc else "server error"
    return {
        "route": _route_of(form.action),
        "page": form.page,
        "action": form.action,
        "htmx": form.htmx,
        "status": first.status_code,
        "ms": statistics.median(times),
        "queries": queries,
        "repeated": repeated[0],
        "repeated_ms": repeated[1],
        "error": error,
    }


# The choices a people picker's search offers (people/pickers.py): one input each.
_PICKED = re.compile(r'<input type="(radio|checkbox)" name="([^"]+)" value="(\d+)"')


def as_a_person_would(client, form, data: dict[str, list[str]]) -> dict[str, list[str]]:
    """`formwalk.baseline` completed as someone submitting the form for real would:
    the first real choice of a list or a set of options left on none, the first two
    of a list of boxes with none ticked, a link where a link is asked for, and
    someone found through each people search (its first match for "a", or first two
    where several may be chosen, as the search returns them to this reader) — so a
    session is booked, feedback given and a call logged, rather than
    each refused for what was left out."""
    data = dict(data)
    boxes = Counter(field.name for field in form.fields if field.kind == "checkbox")
    ticked = {field.name for field in form.fields if field.kind == "checkbox" and field.selected}
    for field in form.fields:
        if field.choice and not any(data.get(field.name, [""])):
            real = [option for option in field.options if option]
            data[field.name] = real[:1]
        elif boxes[field.name] > 1 and field.name not in ticked:
            if len(data.setdefault(field.name, [])) < 2:  # the first two of a list
                data[field.name].append(field.value)
        elif field.kind == "url" and not any(data.get(field.name, [""])):
            data[field.name] = ["https://calls.example.com/recordings/1"]
        elif field.kind == "search" and field.attrs.get("hx-get", "").startswith("/people/pick/"):
            search = field.attrs["hx-get"]
            search += ("&" if "?" in search else "?") + urlencode({field.name: "a"})
            found = client.get(search, HTTP_HX_REQUEST="true").content.decode()
            for kind, name, value in _PICKED.findall(found)[:2]:
                if kind == "checkbox":
                    data.setdefault(name, []).append(value)
                elif not any(data.get(name, [])):  # a radio: one person, if none yet
                    data[name] = [value]
    return {name: values for name, values in data.items() if values}


def _post(client, form, data):
    headers = {}
    if form.htmx:
        headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": form.page}
        if form.hx_target:
            headers["HTTP_HX_TARGET"] = form.hx_target.lstrip("#")
    return client.post(form.action, data, **headers)


# --- The report -----------------------------------------------------------------------


def report(args, roles, writes, pages_read, seconds: float) -> str:
    machine = pages._machine(None)  # noqa: SLF001
    slowest = sorted(writes, key=lambda write: write["ms"], reverse=True)[: args.top]
    lines = [
        f"Every form at scale, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"{len(writes):,} forms submitted as {', '.join(roles)} from "
        f"{sum(pages_read.values()):,} pages in {seconds:.0f} s, median of {args.repeat} "
        f"(test client, production settings, tandem_scale). Machine: {machine['cores']} "
        f"cores ({machine['cpu']}), {machine['ram']}, PostgreSQL {machine['postgres']}, "
        f"Python {machine['python']}, code {machine['commit']}.",
        "",
        "| # | who | route | form on | status | median ms | queries |",
        "| ---: | --- | --- | --- | ---: | ---: | ---: |",
    ]
    for rank, write in enumerate(slowest, 1):
        how = " (htmx)" if write["htmx"] else ""
        lines.append(
            f"| {rank} | {write['role']} | `{write['route']}`{how} | `{write['page']}` | "
            f"{write['status']} | {write['ms']:,.1f} | {write['queries']} |"
        )
    statuses = Counter(write["status"] for write in writes)
    over = {limit: sum(write["ms"] > limit for write in writes) for limit in (100, 300, 1000)}
    lines += [
        "",
        "Statuses: " + ", ".join(f"{status}: {n:,}" for status, n in sorted(statuses.items())),
        f"Over 100 ms: {over[100]:,}; over 300 ms: {over[300]:,}; over 1 s: {over[1000]:,}.",
    ]
    again = sorted(
        (write for write in writes if write["repeated"]), key=lambda w: -w["repeated_ms"]
    )
    if again:
        lines.append(
            f"Submissions that ran a statement again (same text, same values): {len(again):,}; "
            "the costliest: "
            + "; ".join(
                f"{w['role']} `{w['route']}` ({w['repeated']}, {w['repeated_ms']:,.1f} ms)"
                for w in again[:10]
            )
            + "."
        )
    refused: dict[str, list[str]] = {}
    for write in writes:
        if 400 <= write["status"] < 500:
            refused.setdefault(write["route"], []).append(f"{write['role']} {write['status']}")
    if refused:
        lines.append(
            "Refused, so measured on the refusal (the plausible values were not enough): "
            + "; ".join(f"`{route}` ({', '.join(who)})" for route, who in sorted(refused.items()))
            + "."
        )
    for write in writes:
        if write["status"] >= 500:
            lines.append(
                f"SERVER ERROR as {write['role']}: POST {write['action']} "
                f"(form on {write['page']}): {write['error']}"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
