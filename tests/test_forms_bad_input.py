"""Bad input, every form: each role — anonymous, rep, manager, manager of managers,
HR, programme admin — opens every page it can reach, finds every POST form on it
(htmx's hx-post too, and the fragments htmx loads by itself) and submits it with
hostile input: text of 100,000 characters, script in text, a NUL character in text,
unknown ids and ids of objects the role may not pick, unknown choices and button
values, words and huge numbers in number fields, impossible and out-of-range dates
and times, a time zone that does not exist, required fields left out. One submission
per hostile kind per form (a form already sent by another role gets again only what
depends on the role); an htmx form gets its first kind again without JavaScript.

Every answer: never a 5xx; a refusal is a 4xx or the form again with an error shown,
and nothing at all saved (rows and characters of text of every table, before and
after, in one query); script in text is either refused or saved and shown escaped,
never raw — in the answer, on the page the form is on, and on those pages as every
role opens them at the end; HTML pages carry a CSP whose script-src has no
'unsafe-inline', and no select offers Django's wordless blank choice.

Pages and forms are discovered (tests/support/urlwalk.py, tests/support/formwalk.py)
in the world the walks share (tests/support/world.py), so a form is covered the day
it is added. The admin site (Django's own forms) and the API (Schemathesis,
tests/config/test_api_fuzz.py) are left out. With TRUST_REPORT_DIR set, the numbers
go to forms.json for bin/trust-report."""

import json
import logging
import os
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import time as clock
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from allauth.socialaccount.models import SocialAccount
from django.apps import apps
from django.db import connection
from django.template.base import Template
from django.test import Client
from django.urls import Resolver404, resolve
from django.utils import timezone

from cadence.models import CadencePlan, CadencePolicy
from coaching.models import AgendaItem, CoachingSession, Commitment, FocusArea, Goal
from coaching.services import team_call_review_create
from feedback.models import Feedback, FeedbackRequest
from feedback.services import feedback_request_create
from learning.models import Experiment, Learning, PlaybookModule
from peers import services as pairs
from peers.models import Habit, PeerPair
from people.models import Team, User
from scorecards import services as scorecard_services
from scorecards.models import Criterion, RecordedCall, ScoringRound
from scorecards.models import Template as ScorecardTemplate
from tests.support.formwalk import KINDS, MAY_BE_ACCEPTED, UNESCAPED, Form, payloads, read_page
from tests.support.urlwalk import concrete_paths, routes
from tests.support.world import FILLS, SKIP, world  # noqa: F401 (fixture)

ROLES = ("anonymous", "rep", "manager", "head", "hr", "admin")
REFUSED = set(KINDS) - MAY_BE_ACCEPTED
# A form another role has already been sent (the same route and fields) gets again
# only what depends on who sends it: ids outside the choices this role is offered.
# The rest would run the same validation a second time.
ROLE_DEPENDENT = {"forbidden_id", "unknown_id", "unknown_hidden_id"}

# Pages not opened: not HTML pages of the app (the admin site, the API and its
# schema and docs, calendar feeds, CSV exports, the health check).
NOT_PAGES = ("/admin/", "/api/", "/healthz", "/favicon.ico")
NOT_PAGE_PREFIXES = ("admin:", "api:", "api_", "account_reset_password_from_key")
NOT_PAGE_ROUTES = {
    "cadence:calendar_feed",
    "dashboards:hr_export",
    "dashboards:hr_team_export",
    # A reset link signs the visitor out; its form is for people signed out.
    "account_reset_password_from_key",
}
# Pages of one route opened per role: once this many in a row answered 200 without a
# form not seen before, the others of the same route are taken to show the same.
PAGES_PER_ROUTE = 3
# Pages of one route that answer "not for you" (403, 404) before the route is given up
# for this role: the people of the world, and more than the objects each role may open.
MISSES_PER_ROUTE = 12

# Which objects a select of ids names, by its field name: an id of that model that is
# not among the options offered is an object this person may not pick.
FIELD_MODELS = {
    User: {
        "coachee",
        "presenter",
        "participants",
        "person",
        "recipient",
        "responders",
        "members",
        "member",
        "partner",
        "to",
        "raters",
        "lead",
        "manager",
        "owner",
        "peer",
        "peers",
    },
    SocialAccount: {"account"},
    Team: {"team", "teams"},
    Goal: {"goal"},
    FocusArea: {"focus_area", "focus_areas"},
    CoachingSession: {"session"},
    PeerPair: {"pair"},
    ScorecardTemplate: {"template"},
    RecordedCall: {"call", "work"},
    Experiment: {"experiment"},
    Habit: {"habit"},
    Feedback: {"feedback"},
    FeedbackRequest: {"request"},
    Learning: {"learning"},
    PlaybookModule: {"module", "modules"},
    Commitment: {"commitment"},
    AgendaItem: {"item"},
    ScoringRound: {"round", "scoring"},
    Criterion: {"criterion", "criteria"},
    CadencePlan: {"plan"},
    CadencePolicy: {"policy"},
}
MODEL_OF = {name: model for model, names in FIELD_MODELS.items() for name in names}
# Selects of numbers that are no ids (the unknown value is still tried).
NUMBER_CHOICES = {"weekday", "week_of_month", "score", "rating"}

# Tables whose rows may change when a submission is refused, and why.
MAY_CHANGE = {
    # Signing each role in (and back in, after a page that signs out) adds sessions.
    "django_session",
}
# Rows of a table that may be added by a refused submission, and why (the others of
# the table are counted).
MAY_ADD = {
    # A wrong password (re-authenticating, changing it) is audited as a failed sign-in.
    "people_auditevent": "verb NOT IN ('auth.sign_in_failed')",
}

# How a page shows an error: the app's forms (role="alert"), allauth's (Django's
# error list, the field marked invalid).
ERROR_SHOWN = (b'role="alert"', b'class="errorlist"', b'aria-invalid="true"')
# What a screen reader reads with a field (its hint, its error) is named by id: every id
# named must be on the page, or the error is shown but never read with its field.
DESCRIBED_BY = re.compile(r'aria-(?:describedby|labelledby)="([^"]*)"')
# Third-party forms that answer bad input without saying so; nothing may change
# still (counted), and never a 5xx. (route, hostile kind) → why.
SILENT = {
    ("accounts/email/", "unknown_choice"): "allauth redirects back to the list when the "
    "address chosen is not the person's own, changing nothing",
    ("accounts/3rdparty/", "unknown_id"): "allauth's connections page does not show the "
    "error of its account field; nothing is disconnected",
}
# Hidden fields that are no reference to an object, so any number is fine.
NOT_REFERENCES = {
    ("me/notifications/read/", "up_to"): "a watermark: the person's own notifications up to "
    "the newest the page showed are marked read",
    ("people/<int:pk>/diagnosis/", "step"): "a flag: any value asks for the next question "
    "of the guided diagnosis, and nothing is saved",
}


# --- Row counts of every table --------------------------------------------------------


def _tables() -> dict[str, list[str]]:
    """Every table of an installed model → its text columns."""
    existing = set(connection.introspection.table_names())
    tables: dict[str, list[str]] = {}
    for model in apps.get_models(include_auto_created=True):
        opts = model._meta
        if not opts.managed or opts.proxy or opts.db_table not in existing:
            continue
        tables[opts.db_table] = [
            f.column
            for f in opts.concrete_fields
            if f.get_internal_type() in ("CharField", "TextField", "EmailField", "URLField")
        ]
    return {t: tables[t] for t in sorted(set(tables) - MAY_CHANGE)}


def _counter():
    """A function returning {table: (rows, characters of text)} for every table, in one
    query: a refused submission may neither add nor remove a row, nor write a word."""
    qn = connection.ops.quote_name
    selects = []
    for table, columns in _tables().items():
        text = " + ".join(f"COALESCE(SUM(LENGTH({qn(c)})), 0)" for c in columns) or "0"
        where = f" WHERE {MAY_ADD[table]}" if table in MAY_ADD else ""
        selects.append(f"SELECT '{table}', COUNT(*), {text} FROM {qn(table)}{where}")
    sql = " UNION ALL ".join(selects)

    def counts() -> dict[str, tuple[int, int]]:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return {table: (rows, text) for table, rows, text in cursor.fetchall()}

    return counts


# --- The walk ---------------------------------------------------------------------------


@dataclass
class Tally:
    pages: int = 0
    forms: set = field(default_factory=set)  # (route, signature) exercised, all roles
    submissions: int = 0
    kinds: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    unmapped: set[str] = field(default_factory=set)  # id selects FIELD_MODELS lacks
    shown_on: set[str] = field(default_factory=set)  # pages where script was saved
    sent: dict = field(default_factory=dict)  # form → the hostile kinds it was sent


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _is_html(response) -> bool:
    return response.get("Content-Type", "").startswith("text/html")


# Django's blank choice says nothing: a select names what choosing nothing means
# ("Choose a team", "None in particular").
BLANK_CHOICE = ">---------</option>"


def _check_answer(tally, what, response, body):
    if response.status_code >= 500:
        tally.failures.append(f"{what}: {response.status_code}")
    if not _is_html(response):
        return  # CSV, calendars, JSON: not read as HTML (and nosniff says so)
    text = body.decode("utf-8", errors="replace")
    if BLANK_CHOICE in text:
        tally.failures.append(f"{what}: a select offers Django's blank choice, not words")
    for raw in UNESCAPED:
        if raw in text:
            tally.failures.append(f"{what}: script shown unescaped ({raw!r})")
    ids = set(re.findall(r'\bid="([^"]+)"', text))
    for named in DESCRIBED_BY.findall(text):
        missing = [i for i in named.split() if i not in ids]
        if missing:
            tally.failures.append(f"{what}: aria names ids not on the page: {missing}")
    if response.status_code != 204:
        policy = response.get("Content-Security-Policy", "")
        directives = {d.strip().split(" ", 1)[0]: d for d in policy.split(";") if d.strip()}
        script = directives.get("script-src") or directives.get("default-src")
        if not script or "'unsafe-inline'" in script:
            tally.failures.append(f"{what}: CSP allows inline script or is missing: {policy!r}")


def _key_of(path: str) -> str | None:
    """The name of the route a path resolves to (or its pattern), None if none."""
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return match.view_name or match.route


def _route_of(path: str) -> str:
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return path
    return match.route


def _pages() -> list:
    """Paths of every page, grouped by route, in resolution order."""
    candidates = [
        r
        for r in routes()
        if r.namespace not in ("admin", "api")
        and r.key not in NOT_PAGE_ROUTES
        and not ("/" + r.route.lstrip("^")).startswith(NOT_PAGES)
    ]
    visits, unfilled = concrete_paths(FILLS, SKIP, all_routes=candidates)
    assert not unfilled, f"pages the walk cannot reach: {[r.key for r in unfilled]}"
    return visits


def _forbidden_for(tally, w):
    # People of the other team first: the ones a rep or manager here may not even see.
    outsiders = [w.people[name].pk for name in ("other_rep", "other_manager")]

    def forbidden_id(f) -> int | None:
        # Without a formset's prefix (plan-1-weekday) or a row's suffix (rating_12).
        name = re.sub(r"_\d+$", "", f.name.rsplit("-", 1)[-1])
        if name in NUMBER_CHOICES:
            return None
        model = MODEL_OF.get(name)
        if model is None:
            tally.unmapped.add(f.name)
            return None
        offered = {int(o) for o in f.options if o.isdigit()}
        pks = list(model._default_manager.order_by("pk").values_list("pk", flat=True))
        if model is User:
            pks = outsiders + pks
        return next((pk for pk in pks if pk not in offered), None)

    return forbidden_id


def _submit(client, form: Form, data, user, *, htmx=True):
    headers = {}
    if form.htmx and htmx:
        headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": form.page}
        if form.hx_target:
            headers["HTTP_HX_TARGET"] = form.hx_target.lstrip("#")
    data = {**data, "csrfmiddlewaretoken": [form.csrf]} if form.csrf else data
    return client.post(form.action if headers else form.fallback or form.action, data, **headers)


class RoleWalk:
    """One role's walk: `discover()` opens its pages and keeps its forms; `submit(kinds)`
    posts the hostile submissions of those kinds to each."""

    def __init__(self, w, name: str, tally: Tally, counts):
        self.name, self.tally, self.counts = name, tally, counts
        self.user = w.people.get(name)  # None: anonymous
        self.client = Client(enforce_csrf_checks=True)  # the token comes from the form
        self.sign_in()
        self.forbidden_id = _forbidden_for(tally, w)
        self.found: dict[tuple, Form] = {}

    def sign_in(self, response=None):
        """Sign in (again, after `response` if it signed the visitor out)."""
        signed_out = response is None or not response.wsgi_request.user.is_authenticated
        if self.user is not None and signed_out:
            self.client.force_login(self.user)

    def get(self, path, **headers):
        try:
            response = self.client.get(path, **headers)
        except Exception as exc:  # noqa: BLE001 - every crash is a finding
            self.tally.failures.append(
                f"{self.name} GET {path}: raised {type(exc).__name__}: {exc}"
            )
            return None, b""
        body = _body(response)
        _check_answer(self.tally, f"{self.name} GET {path}", response, body)
        self.sign_in(response)  # a page that signs out (someone's reset link)
        self.tally.pages += 1
        return response, body

    def discover(self, visits) -> None:
        """Open every page of `visits` (and the same pages in other states their links
        lead to), keeping every form not seen before. Signed out, only the pages of
        sign-in (everything else redirects there)."""
        get, found = self.get, self.found
        if self.user is None:
            visits = [v for v in visits if v.path.startswith("/accounts/")]
        answered: Counter = Counter()  # pages answered 200 in a row without a new form
        missed: Counter = Counter()
        no_pages: set[str] = set()  # routes that answer no GET with HTML (POST only, CSV…)
        seen: set[str] = set()
        queue = [(visit.route.key, visit.path) for visit in visits]
        while queue:
            key, path = queue.pop(0)
            if (
                path in seen
                or answered[key] >= PAGES_PER_ROUTE
                or missed[key] >= MISSES_PER_ROUTE
                or key in no_pages
            ):
                continue
            seen.add(path)
            response, body = get(path)
            if response is None:
                continue
            status = response.status_code
            if status == 405 or (status == 200 and not _is_html(response)):
                no_pages.add(key)
            if status in (403, 404):
                missed[key] += 1
            if status != 200 or not _is_html(response):
                continue
            page = read_page(body.decode("utf-8", errors="replace"), path)
            for lazy, target in page.lazy:  # what htmx loads into the page by itself
                fragment, text = get(lazy, HTTP_HX_REQUEST="true", HTTP_HX_TARGET=target)
                if fragment is not None and fragment.status_code == 200:
                    more = read_page(text.decode("utf-8", errors="replace"), lazy).forms
                    for form in more:
                        form.page = path
                    page.forms += more
            new = 0
            for form in page.forms:
                form_key = (_route_of(form.action), form.signature())
                if form_key not in found:
                    found[form_key] = form
                    new += 1
            answered[key] = 0 if new else answered[key] + 1
            # The same page in another state (a kind of session, a person to write to).
            for link in page.links:
                link_key = _key_of(link)
                if (
                    link_key
                    and link_key not in NOT_PAGE_ROUTES
                    and not link_key.startswith(NOT_PAGE_PREFIXES)
                ):
                    queue.append((f"{link_key}?", link))

    def submit(self, kinds) -> None:
        """Every form found, once per hostile kind among `kinds` it has a field for."""
        tally, counts, client, user, name = (
            self.tally,
            self.counts,
            self.client,
            self.user,
            self.name,
        )
        for key, form in self.found.items():
            not_refs = {n for (route, n) in NOT_REFERENCES if route == key[0]}
            subs = [
                s
                for s in payloads(form, self.forbidden_id, not_refs)
                if s.kind in kinds
                and (s.kind in ROLE_DEPENDENT or s.kind not in tally.sent.get(key, ()))
            ]
            if subs:
                tally.forms.add(key)
                tally.sent.setdefault(key, set()).update(s.kind for s in subs)
            # An htmx form without JavaScript: the first kind again, as a plain post
            # (the whole page comes back, not a fragment).
            plain = [(subs[0], False)] if subs and form.fallback and kinds is REFUSED else []
            for sub, htmx in [(sub, True) for sub in subs] + plain:
                how = "" if htmx or not form.htmx else ", no htmx"
                action = form.action if htmx else form.fallback
                what = f"{name} POST {action} [{sub.kind}{how}: {', '.join(sub.fields)}]"
                before = counts()
                try:
                    response = _submit(client, form, sub.data, user, htmx=htmx)
                except Exception as exc:  # noqa: BLE001 - every crash is a finding
                    tally.failures.append(f"{what}: raised {type(exc).__name__}: {exc}")
                    continue
                tally.submissions += 1
                tally.kinds[sub.kind] += 1
                body = _body(response)
                _check_answer(tally, what, response, body)
                after = counts()
                changed = sorted(t for t in before if before[t] != after[t])
                status = response.status_code
                if status == 403 and b"CSRF" in body:
                    tally.failures.append(f"{what}: refused for its CSRF token (a walk bug)")
                    continue
                refused_4xx = 400 <= status < 500
                shown = status == 200 and any(marker in body for marker in ERROR_SHOWN)
                if sub.kind in MAY_BE_ACCEPTED and not (refused_4xx or shown):
                    tally.outcomes["accepted"] += 1
                    # Saved: shown escaped where it was typed, and wherever it leads
                    # (and, at the end, wherever anyone else opens these pages).
                    tally.shown_on.add(form.page)
                    self.get(form.page)
                    if 300 <= status < 400:
                        tally.shown_on.add(response["Location"])
                        self.get(response["Location"])
                    continue
                if refused_4xx:
                    tally.outcomes[f"{status}"] += 1
                elif shown:
                    tally.outcomes["200 with errors"] += 1
                elif (key[0], sub.kind) in SILENT:
                    tally.outcomes["silent (third party)"] += 1
                elif status < 500:
                    tally.failures.append(f"{what}: accepted ({status}), no error shown")
                if changed and sub.kind not in MAY_BE_ACCEPTED:
                    diff = {t: f"{before[t]} -> {after[t]}" for t in changed}
                    tally.failures.append(f"{what}: saved (rows, characters) {diff}")
                self.sign_in(response)


def _report(tally: Tally, seconds: float) -> str:
    lines = [
        f"{len(tally.forms)} forms (route × fields), {tally.submissions} hostile submissions "
        f"as {', '.join(ROLES)}, {tally.pages} pages opened, {seconds:.1f}s",
        f"  kinds: {dict(sorted(tally.kinds.items()))}",
        f"  outcomes: {dict(sorted(tally.outcomes.items()))}",
    ]
    return "\n".join(lines)


@pytest.fixture
def forms_world(world):  # noqa: F811
    """The firewall walk's world, and what is still open there for the roles walked, so
    the forms that only show then show: a round both the manager and the rep are yet
    to score, a habit of the rep's partner for the rep to check in, a request the rep
    is asked to answer, a pair the rep is invited to, a team call review to score."""
    p = world.people
    today = timezone.localdate()
    template = ScorecardTemplate.objects.get(name="Walk discovery call")
    call = scorecard_services.recorded_call_create(
        actor=p["manager"],
        person=p["rep"],
        title="Contoso renewal",
        call_date=today,
        url="https://calls.example.com/2",
    )
    scorecard_services.coach_scoring_open(actor=p["manager"], work=call, template=template)
    pair = PeerPair.objects.filter(members__person=p["rep"]).get(members__person=p["peer"])
    pairs.habit_add(pair=pair, actor=p["peer"], text="Name the next step before hanging up")
    feedback_request_create(
        requester=p["peer"],
        responders=[p["rep"], p["manager"]],
        due_on=today + timedelta(days=3),
        question="How did my demo land?",
    )
    pairs.pair_create(
        actor=p["manager"],
        members=[p["rep"], p["r3"]],
        rationale="complementary",
        weekday=4,
        local_time=clock(14, 0),
    )
    team_call_review_create(
        actor=p["manager"],
        team=world.team,
        start=timezone.now() + timedelta(days=2),
        presenter=p["rep"],
        call_url="https://calls.example.com/3",
        call_title="Fabrikam pricing call",
        call_date=today,
    )
    return world


@pytest.mark.django_db
def test_every_form_refuses_bad_input_cleanly_and_saves_nothing(forms_world):
    started = time.monotonic()
    counts = _counter()
    tally = Tally()
    visits = _pages()
    request_log = logging.getLogger("django.request")
    level = request_log.level
    request_log.setLevel(logging.CRITICAL)  # thousands of expected 4xx, logged as errors
    # The test client keeps a copy of every template context it renders; the walk
    # reads only bodies, and without the copies it runs a good deal faster.
    instrumented = Template._render
    Template._render = lambda self, context: self.nodelist.render(context)
    try:
        walks = [RoleWalk(forms_world, name, tally, counts) for name in ROLES]
        # Every role finds its forms in the world as it is; then each form gets what
        # must be refused (which changes nothing); then script, which may be saved and
        # change the world; then everyone opens the pages where it was saved.
        for walk in walks:
            walk.discover(visits)
        for walk in walks:
            walk.submit(REFUSED)
        for walk in walks:
            walk.submit(MAY_BE_ACCEPTED)
        for walk in walks:
            for path in sorted(tally.shown_on):
                walk.get(path)
    finally:
        request_log.setLevel(level)
        Template._render = instrumented
    seconds = time.monotonic() - started
    print("\n" + _report(tally, seconds))
    print("  routes posted to: " + ", ".join(sorted({route for route, _ in tally.forms})))
    folder = os.environ.get("TRUST_REPORT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / "forms.json").write_text(
            json.dumps(
                {
                    "forms": len(tally.forms),
                    "submissions": tally.submissions,
                    "failures": len(tally.failures),
                    "roles": list(ROLES),
                    "kinds": dict(sorted(tally.kinds.items())),
                },
                indent=2,
            )
        )
    failures = sorted(set(tally.failures))
    assert not failures, f"{len(failures)} failure(s):\n" + "\n".join(failures[:80])
    assert not tally.unmapped, f"selects of ids FIELD_MODELS does not know: {tally.unmapped}"
    # The walk reaches the forms: enough of them, and every hostile kind.
    assert len(tally.forms) > 40, _report(tally, seconds)
    assert {"oversized", "script", "unknown_id", "forbidden_id", "missing_required"} <= set(
        tally.kinds
    )


def test_the_form_reader_sends_what_a_browser_would_and_one_hostile_kind_at_a_time():
    """The parts the walk relies on, on a page of known forms: a GET form ignored, an
    htmx form posting where hx-post says, a button posting by itself, a fragment htmx
    loads; plausible values in every field, and each hostile kind only in its own."""
    html = """
    <form method="get" action="/search/"><input name="q"></form>
    <form method="post" action="/plain/" hx-post="/sessions/7/notes/" hx-target="#notes">
      <input type="hidden" name="csrfmiddlewaretoken" value="tok">
      <input type="hidden" name="session" value="7">
      <input name="title" required>
      <textarea name="body">kept</textarea>
      <select name="coachee" required><option value="">—</option><option value="3">A</option>
      </select>
      <input type="radio" name="mood" value="good" checked><input type="radio" name="mood"
      value="bad">
      <input type="number" name="minutes"><input type="date" name="due_on">
      <select name="time_zone"><option value="Europe/Berlin" selected>Berlin</option></select>
      <button type="submit" name="action" value="submit">Go</button>
    </form>
    <button hx-post="/agenda/4/toggle/" name="done" value="1">Done</button>
    <div id="later" hx-get="/people/3/diagnosis/" hx-trigger="load"></div>
    <a href="/sessions/new/?kind=role_play">Role-play</a>
    """
    page = read_page(html, "/sessions/7/")
    assert [f.action for f in page.forms] == ["/sessions/7/notes/", "/agenda/4/toggle/"]
    assert page.lazy == [("/people/3/diagnosis/", "later")]
    assert page.links == ["/sessions/new/?kind=role_play"]
    form = page.forms[0]
    assert (form.csrf, form.htmx, form.hx_target, form.submit) == (
        "tok",
        True,
        "#notes",
        ("action", "submit"),
    )
    subs = {s.kind: s for s in payloads(form, lambda f: 5 if f.name == "coachee" else None)}
    assert set(subs) == {
        "oversized",
        "script",
        "nul_text",
        "unknown_id",
        "unknown_hidden_id",
        "forbidden_id",
        "unknown_choice",
        "number_words",
        "number_huge",
        "date_impossible",
        "date_ancient",
        "date_far",
        "time_zone",
        "unknown_button_value",
        "missing_required",
    }
    plain = subs["date_far"].data
    assert plain["title"] == ["Plain words"] and plain["body"] == ["kept"]
    assert plain["coachee"] == ["3"] and plain["mood"] == ["good"]
    assert plain["due_on"] == ["9999-12-31"] and plain["action"] == ["submit"]
    assert subs["oversized"].fields == ["title", "body"]
    assert subs["forbidden_id"].data["coachee"] == ["5"]
    assert subs["unknown_choice"].data["mood"] == ["no-such-choice"]
    assert subs["unknown_hidden_id"].data["session"] == ["999999999"]
    assert "title" not in subs["missing_required"].data
    assert "coachee" not in subs["missing_required"].data
