"""The feedback firewall, walked: every page and endpoint of the project — the apps,
the API, the admin site, allauth, the schema, calendar feeds, exports — requested
as HR, as a programme admin and as a skip-level manager (and the admin site as a
superuser) in a world full of developmental feedback in every direction, and not one
developmental word in any response body, header, email or notification; nor a
server error. The same walk as the recipient finds every word they may read.

Words are planted as markers: `DV…` in every developmental field (observation,
impact, suggestion) and in the recipient's private reflection and themes; `RQ…` in
the question and topic of developmental requests; `EP…` in the recipient's
reflection and themes on evaluative items; `PN…` in a coach's private note, a
diagnosis's notes, what a peer pair writes (notes, habits, check-ins; a leave
reason is the admins') and a coachee's comment rating a session (its rater's only:
not even the coach reads one rating); `SN…` in shared 1:1 notes, agenda and commitments (HR and
admins see counts only); `EV…` in evaluative words, which HR and the chain may read
— the positive control that the walk reaches content. Each marker knows who may
read it; any other reader seeing it fails the walk, naming the URL.

The world and its markers are tests/support/world.py's; routes come from the resolver
(tests/support/urlwalk.py); a new route with parameters must be filled in FILLS or
skipped in SKIP with a reason, or `test_every_route_is_walked_or_skipped_on_purpose`
fails."""

import logging
import time
from dataclasses import dataclass

import pytest
from django.core import mail
from django.template.base import Template

from notifications.models import Notification, NotificationStatus
from tests.support import world as shared_world
from tests.support.urlwalk import concrete_paths, routes
from tests.support.world import (
    DEVELOPMENTAL,
    FILLS,
    READERS,
    SEEDED,
    SKIP,
)

world = shared_world.world  # the fixture, for this module's tests


def _ours(model, page) -> bool:
    """The admin opens every object of the project's own models (they hold people's
    data); of seeded configuration and third-party ones (schedules, SSO apps,
    groups) the first."""
    ours = {"people", "coaching", "cadence", "feedback", "scorecards"}
    return model._meta.app_label in ours and model not in SEEDED


def _deletes_of_ours(model, page) -> bool:
    """The superuser's walk: the programme admin's walk has read every object's change
    page; what only a superuser opens is every delete page (what would go with a
    person), and the first of everything."""
    return page == "delete" and _ours(model, page)


# Query strings tried on every page and endpoint without parameters (outside the
# admin site and allauth): the stream switch, exports, and the filters pages and the
# API read, several at once — each view reads its own and ignores the others.
def _queries(world) -> list[str]:
    rep, team = world.people["rep"].pk, world.team.pk
    person = "&".join(f"{name}={rep}" for name in ("person", "owner", "recipient", "with"))
    return [
        f"stream=developmental&{person}&team={team}&received=1&all=1",
        # `to` is a person on /feedback/give/ and a date elsewhere (a 400 there).
        f"stream=evaluative&given=1&to={rep}",
        "format=csv",
    ]


# Routes whose output depends on no one's data get one variant, not all (the
# OpenAPI schema takes a quarter of a second to build).
FEW_VARIANTS = {"api_schema": ["format=json"], "api_docs": []}


# A first answer that says "nothing for you here" whatever the headers or filters:
# redirects (to sign-in, or to another page that is walked itself), not found or
# not allowed for this reader, no GET at all.
NOTHING_HERE = {301, 302, 403, 404, 405}


@dataclass(frozen=True)
class Plan:
    """One path of the walk: the request to make, and the variants to try after it
    unless that first answer says there is nothing here for this reader."""

    path: str
    headers: dict
    variants: list[tuple[str, dict]]


def _plan(world, visits) -> list[Plan]:
    """API endpoints as JSON and through the browsable API (which renders forms from
    the data); pages and endpoints without parameters (outside the admin site and
    allauth) also as htmx fragments and with the query strings."""
    queries = _queries(world)
    plans = []
    for visit in visits:
        route, path = visit.route, visit.path
        plain = route.namespace != "admin" and not path.startswith("/accounts/")
        api = route.namespace == "api" or path.startswith("/api/")
        if api:
            first = {"HTTP_ACCEPT": "application/json"}  # also DRF's default
            variants = [(path, {"HTTP_ACCEPT": "text/html"})]
        else:
            first, variants = {}, []
        if plain and not route.params:
            if not api:
                # What pages answer htmx with on a GET: a fragment, or the stream
                # banner (elsewhere htmx only changes the answer to a POST).
                variants.append(
                    (path, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "stream-banner"})
                )
            variants += [(f"{path}?{q}", first) for q in FEW_VARIANTS.get(route.key, queries)]
        plans.append(Plan(path, first, variants))
    return plans


def _body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode("utf-8", errors="replace")


@dataclass
class Walked:
    count: int
    statuses: dict[int, int]
    leaks: list[str]
    errors: list[str]
    seen: set[str]  # every marker seen anywhere


def walk(client, world, reader: str, only=None, admin_every_object=_ours) -> Walked:
    """GET every path (or those whose path starts with one of `only`) as `reader`."""
    visits, unfilled = concrete_paths(FILLS, SKIP, admin_every_object=admin_every_object)
    assert not unfilled, [r.key for r in unfilled]
    if only:
        visits = [v for v in visits if v.path.startswith(only)]
    user = world.people[reader]
    client.force_login(user)
    result = Walked(0, {}, [], [], set())

    def get(path, headers):
        try:
            response = client.get(path, **headers)
        except Exception as exc:  # noqa: BLE001 - every crash is a finding, keep walking
            result.errors.append(f"{path} {headers}: raised {type(exc).__name__}: {exc}")
            return None
        result.count += 1
        result.statuses[response.status_code] = result.statuses.get(response.status_code, 0) + 1
        if response.status_code >= 500:
            result.errors.append(f"{path} {headers}: {response.status_code}")
        head = "\n".join(f"{k}: {v}" for k, v in response.items())
        for where, text in (("body", _body(response)), ("headers", head)):
            result.seen |= world.garden.found_in(text)
            for plant in world.garden.forbidden_for(reader, text):
                result.leaks.append(f"{path} {headers} ({where}): {plant.marker} — {plant.what}")
        # Some pages sign the visitor out (a reset link for another account): back in.
        if not response.wsgi_request.user.is_authenticated:
            client.force_login(user)
        return response

    request_log = logging.getLogger("django.request")
    level = request_log.level
    request_log.setLevel(logging.ERROR)  # thousands of expected 404/405 warnings
    # The test client keeps a copy of every template context it renders; the walk
    # reads only bodies, and without the copies it runs a good deal faster.
    instrumented = Template._render
    Template._render = _plain_render
    try:
        for plan in _plan(world, visits):
            first = get(plan.path, plan.headers)
            if first is None or first.status_code in NOTHING_HERE:
                continue  # no variant of the same request can show more
            for path, headers in plan.variants:
                get(path, headers)
    finally:
        request_log.setLevel(level)
        Template._render = instrumented
    return result


def _plain_render(self, context):
    return self.nodelist.render(context)  # django.template.base.Template._render


def _report(reader, walked):
    shown = "\n  ".join(sorted(set(walked.leaks))[:60])
    return f"{reader} saw {len(walked.leaks)} forbidden marker(s):\n  {shown}"


# --- The walk ---------------------------------------------------------------------------

# Where the recipient reads their own feedback: the positive control walks these.
FEEDBACK_PAGES = ("/feedback/", "/api/v1/feedback")


def test_every_route_is_walked_or_skipped_on_purpose(world):
    """A new page or endpoint with parameters must be filled in FILLS (with at least
    one value from the world) or skipped in SKIP with a reason; stale entries in
    either fail too."""
    visits, unfilled = concrete_paths(FILLS, SKIP, admin_every_object=_ours)
    assert not unfilled, f"routes the walk cannot reach: {[r.key for r in unfilled]}"
    keys = {r.key for r in routes()}
    assert set(FILLS) <= keys, f"fills for routes that no longer exist: {set(FILLS) - keys}"
    assert set(SKIP) <= keys, f"skips for routes that no longer exist: {set(SKIP) - keys}"
    walked = {v.route.key for v in visits}
    assert walked | set(SKIP) == keys, keys - walked - set(SKIP)
    print(f"\n{len(keys)} routes, {len(visits)} paths, {len(SKIP)} skipped")


@pytest.mark.django_db
@pytest.mark.parametrize("reader", READERS)
def test_no_developmental_word_reaches_hr_an_admin_or_the_chain(client, world, reader):
    """Every page and endpoint, as HR, the programme admin (staff: the admin site too)
    and the rep's skip-level manager: no developmental word, no one's private
    reflection, theme or note, and no server error."""
    started = time.monotonic()
    walked = walk(client, world, reader)
    print(
        f"\n{reader}: {walked.count} requests in {time.monotonic() - started:.1f}s, "
        f"statuses {dict(sorted(walked.statuses.items()))}"
    )
    assert not walked.leaks, _report(reader, walked)
    assert not walked.errors, "\n".join(walked.errors)
    assert walked.count > 700
    assert walked.statuses.get(200, 0) > 100
    if reader in ("hr", "head"):
        # The walk reads content: evaluative words reach those allowed to read them.
        assert any(m.startswith("EV") for m in walked.seen), walked.seen


@pytest.mark.django_db
def test_the_admin_site_shows_no_developmental_word_even_to_a_superuser(client, world):
    """The programme admin may not open every admin page (deleting people, say); a
    superuser opens them all — a model registered later, a delete page listing what
    would go with a person — and finds no developmental word either."""
    walked = walk(client, world, "root", only=("/admin/",), admin_every_object=_deletes_of_ours)
    print(f"\nroot: {walked.count} requests, statuses {dict(sorted(walked.statuses.items()))}")
    assert not walked.leaks, _report("root", walked)
    assert not walked.errors, "\n".join(walked.errors)
    assert walked.statuses.get(200, 0) > 100


@pytest.mark.django_db
def test_the_recipient_walking_the_same_pages_sees_their_own_developmental_words(client, world):
    """The positive control: the same walk, as the rep, finds every developmental
    word the rep may read (their own received items, reflections and themes, what
    they wrote, their requests) — so the checks above cannot pass by seeing nothing —
    and nothing the rep may not read."""
    walked = walk(client, world, "rep", only=FEEDBACK_PAGES)
    print(f"\nrep: {walked.count} requests")
    theirs = {
        m for m, p in world.garden.plants.items() if "rep" in p.readers and p.kind in DEVELOPMENTAL
    }
    assert theirs - walked.seen == set(), sorted(theirs - walked.seen)
    assert len(theirs) > 40
    assert not walked.leaks, _report("rep", walked)
    assert not walked.errors, "\n".join(walked.errors)


@pytest.mark.django_db
def test_pair_members_and_admins_walking_the_peer_pages_read_what_they_may(client, world):
    """The positive control for peer pairs: the rep, walking the peer pages and
    endpoints, reads every word of the pairs they are in (so the walks above cannot
    pass by seeing nothing); the programme admin reads the reasons people gave for
    leaving, and neither reads anything else."""
    peer_pages = ("/peers/", "/api/v1/peer-pairs", "/api/v1/pair-habits")
    words = {
        "rep": {"pair note", "pair habit", "pair check-in"},
        "admin": {"pair leave reason", "pair decline reason"},
    }
    for reader, what in words.items():
        walked = walk(client, world, reader, only=peer_pages)
        plants = world.garden.plants.items()
        theirs = {m for m, p in plants if p.what in what and reader in p.readers}
        assert theirs and theirs - walked.seen == set(), sorted(theirs - walked.seen)
        assert not walked.leaks, _report(reader, walked)
        assert not walked.errors, "\n".join(walked.errors)


@pytest.mark.django_db
def test_the_learning_loop_walked_by_those_who_may_read_it(client, world):
    """The positive control for experiments and the library: a teammate reads the
    team's learning and the experiment shared with the pair; the skip-level reads the
    rep's experiment (on the experiment's and the rep's pages) — and neither anything
    else."""
    pages = ("/library/", "/experiments/", "/api/v1/learnings", "/api/v1/experiments", "/people/")
    words = {
        "peer": {"team learning, title", "team learning, body", "rep experiment, result"},
        "head": {"rep experiment, hypothesis", "rep experiment, result", "manager experiment"},
    }
    for reader, what in words.items():
        walked = walk(client, world, reader, only=pages)
        plants = world.garden.plants.items()
        theirs = {m for m, p in plants if p.what in what and reader in p.readers}
        assert theirs and theirs - walked.seen == set(), sorted(theirs - walked.seen)
        assert not walked.leaks, _report(reader, walked)
        assert not walked.errors, "\n".join(walked.errors)


@pytest.mark.django_db
def test_every_notification_of_the_world_was_rendered_so_its_words_were_checked(world):
    """An email that fails to render is never read by the check below: every row of
    the outbox was sent, or skipped on purpose (answered meanwhile)."""
    unsent = list(
        Notification.objects.exclude(
            status__in=[NotificationStatus.SENT, NotificationStatus.SKIPPED]
        ).values_list("pk", "kind", "status", "last_error")
    )
    assert not unsent, unsent


@pytest.mark.django_db
def test_no_email_or_notification_carries_words_to_anyone_not_allowed(client, world):
    """Emails sent by the outbox drain (asked, due, reminders, escalation, digests),
    and everyone's in-app notification list."""
    by_email = {u.email: name for name, u in world.people.items()}
    assert len(mail.outbox) >= 5
    leaks, seen = [], set()
    for message in mail.outbox:
        text = "\n".join([message.subject, message.body, *(c for c, _ in message.alternatives)])
        seen |= world.garden.found_in(text)
        for address in message.to:
            for plant in world.garden.forbidden_for(by_email[address], text):
                leaks.append(f"email {message.subject!r} to {address}: {plant.marker} {plant.what}")
    # The check reads content: a request's topic reaches the people asked.
    assert any(m.startswith("RQ") for m in seen), seen
    for name, person in world.people.items():
        client.force_login(person)
        page = _body(client.get("/me/notifications/"))
        leaks += [
            f"/me/notifications/ as {name}: {p.marker} {p.what}"
            for p in world.garden.forbidden_for(name, page)
        ]
    assert not leaks, "\n".join(leaks)


@pytest.mark.django_db
def test_the_rater_walking_the_session_pages_reads_their_rating_comment(client, world):
    """The positive control for session usefulness: the rep, walking the session pages
    and endpoints, reads the comment they gave (so the walks above cannot pass by
    seeing nothing) — and nothing they may not read."""
    walked = walk(client, world, "rep", only=("/sessions/", "/api/v1/sessions"))
    plants = world.garden.plants.items()
    theirs = {m for m, p in plants if p.what.startswith("rating comment") and "rep" in p.readers}
    assert theirs and theirs - walked.seen == set(), sorted(theirs - walked.seen)
    assert not walked.leaks, _report("rep", walked)
    assert not walked.errors, "\n".join(walked.errors)
