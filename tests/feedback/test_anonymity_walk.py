"""Anonymous answers cannot be traced to their authors by a determined reader (issue 56).

Proved as non-interference: the same organisation is built twice, differing only in
what must stay secret, and every page and endpoint of the project answers the
requester — and the requester's manager and HR — exactly the same in both: the same
status, headers and bytes (less CSRF tokens and nonces), the same rows written, the
same number of queries. The secrets, one pair of worlds each:

- *who wrote which answer*: two reports answer at the same moments, in the same
  order, but each wrote the other's words (one pair of answers per stream);
- *who answered so far, and how many*: on a request still below the threshold,
  one report answered in one world, two others in the other;
- *who answered late*: on a request of four, three answer the day it is asked and
  the fourth two days later — a different fourth in each world, each writing their
  own words — and the walk comes once the request closed. Released at the third
  answer, or dated the day each came, the late one would stand out.

Routes come from the resolver (tests/support/urlwalk.py, the firewall walk's fills): every
route without parameters, every object of every route the firewall walk fills. Every
route that takes a feedback item (`<feedback_ref:…>`) is also posted to, page and
API, with every person as the target — each asked report (the author among them),
someone not asked, someone gone — and with no target. A new route that takes an item
is posted to the day it appears; one that is neither filled nor skipped fails the
firewall walk's own check.

Time stands still (time-machine), so "today" and "3 days ago" read alike; where a
world moves it on, the other moves it the same."""

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
import time_machine
from django.contrib.contenttypes.models import ContentType
from django.core.cache import caches
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from feedback.converters import FEEDBACK_REF
from feedback.models import Feedback, FeedbackShare, RequestedResponder, Stream
from feedback.services import (
    ANONYMITY_THRESHOLD,
    feedback_request_answer,
    feedback_request_create,
    feedback_share,
)
from notifications.models import Notification
from people.models import AuditEvent
from tests.support.factories import UserFactory
from tests.support.urlwalk import Route, concrete_paths, routes
from tests.support.world import FILLS, SKIP

NOW = "2026-12-07 11:00 +00:00"
READERS = ("manager", "head", "hr")  # the requester, their manager, HR


@dataclass
class Org:
    people: dict
    released: dict  # stream → the anonymous request whose answers are shown
    held: object  # an anonymous request still below the threshold
    late: object  # an anonymous request of four, open while the worlds are built
    clock: object


def _build(org, clock) -> Org:
    p = {name: getattr(org, name) for name in ("head", "manager", "rep", "peer", "other_rep", "hr")}
    p["r3"] = UserFactory(display_name="Rami Three", email="r3@example.com", manager=org.manager)
    p["r4"] = UserFactory(display_name="Rosa Four", email="r4@example.com", manager=org.manager)
    p["gone"] = UserFactory(display_name="Gil Gone", email="gone@example.com", manager=org.head)
    p["gone"].is_active = False
    p["gone"].save(update_fields=["is_active"])
    asked = [p["rep"], p["peer"], p["r3"]]
    assert len(asked) == ANONYMITY_THRESHOLD
    released = {}
    for stream in (Stream.DEVELOPMENTAL, Stream.EVALUATIVE):
        request = _ask(p["manager"], asked, stream)
        for n, author in enumerate(asked):
            clock.shift(timedelta(minutes=7))  # the answers come one by one
            feedback_request_answer(
                request=request,
                responder=author,
                observation=f"ANONWORDS {stream} answer number {n}",
            )
        released[stream] = request
    # A share the requester can take back, with someone nobody asked.
    shown = Feedback.objects.filter(request=released[Stream.DEVELOPMENTAL], author=p["r3"]).get()
    feedback_share(feedback=shown, actor=p["manager"], person=p["head"])
    held = _ask(p["manager"], [p["rep"], p["peer"], p["r3"], p["r4"]], Stream.DEVELOPMENTAL)
    late = _ask(p["manager"], [p["rep"], p["peer"], p["r3"], p["r4"]], Stream.DEVELOPMENTAL)
    return Org(p, released, held, late, clock)


def _ask(requester, responders, stream):
    return feedback_request_create(
        requester=requester,
        responders=responders,
        due_on=timezone.localdate() + timedelta(days=5),
        stream=stream,
        anonymous=True,
    )


# --- The secrets: each pair of worlds differs in one ---------------------------------


def _swap_answers(world: Org) -> None:
    """The rep and the peer answered the same moments, in the same order, but each
    wrote what the other wrote in the first world (in both streams). The random public
    id goes with the words, as a fresh draw would; the number, the time and the
    author's row stay with the author: if anything of those reached the reader along
    with the words, the worlds would differ."""
    p = world.people
    for request in world.released.values():
        first = Feedback.objects.get(request=request, author=p["rep"])
        second = Feedback.objects.get(request=request, author=p["peer"])
        Feedback.objects.filter(pk=first.pk).update(public_id=uuid.uuid4())
        for item, other in ((second, first), (first, second)):
            Feedback.objects.filter(pk=item.pk).update(
                observation=other.observation, public_id=other.public_id
            )


def _as_written(world: Org) -> None:
    pass


def _one_answered(world: Org) -> None:
    _answer_held(world, ["rep"])


def _two_others_answered(world: Org) -> None:
    _answer_held(world, ["peer", "r4"])


def _answer_held(world: Org, who: list[str]) -> None:
    for name in who:
        feedback_request_answer(
            request=world.held, responder=world.people[name], observation="HELDWORDS go slower"
        )


# A fresh random draw each, independent of when the answer came: fixed per author so
# both worlds drew alike (and the walk can open them, below).
LATE_REFS = {
    name: str(uuid.UUID(int=n, version=4)) for n, name in enumerate(("rep", "peer", "r3", "r4"), 1)
}


def _answer_late(world: Org, *, early: list[str], late: str) -> None:
    """Three answer the day the request was asked, `late` two days on; then the walk
    comes the day after it closed (its due date, in the last zone on Earth)."""
    for name in [*early, late]:
        if name == late:
            world.clock.shift(timedelta(days=2))
        answer = feedback_request_answer(
            request=world.late,
            responder=world.people[name],
            observation=f"LATEWORDS as {name} wrote them",
        )
        Feedback.objects.filter(pk=answer.pk).update(public_id=LATE_REFS[name])
    world.late.refresh_from_db()
    world.clock.move_to(f"{world.late.due_on + timedelta(days=2)} 11:00 +00:00")


def _r4_late(world: Org) -> None:
    _answer_late(world, early=["rep", "peer", "r3"], late="r4")


def _r3_late(world: Org) -> None:
    _answer_late(world, early=["rep", "peer", "r4"], late="r3")


SECRETS: dict[str, tuple[Callable, Callable]] = {
    "who wrote which answer": (_as_written, _swap_answers),
    "who answered, and how many, below the threshold": (_one_answered, _two_others_answered),
    "who answered late": (_r4_late, _r3_late),
}


# --- What a reader observes -----------------------------------------------------------

# Per response, not per world: the CSRF token, a CSP nonce, a session cookie.
VOLATILE = [
    re.compile(r'(csrfmiddlewaretoken" value=")[^"]+'),
    re.compile(r'("X-CSRFToken": ")[^"]+'),
    re.compile(r'(nonce=")[^"]+'),
    re.compile(r'(name="csrf-token" content=")[^"]+'),
]


def _normal(text: str) -> str:
    for pattern in VOLATILE:
        text = pattern.sub(r"\1…", text)
    return text


def _body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return _normal(content.decode("utf-8", errors="replace"))


def _headers(response) -> tuple:
    kept = ("Content-Type", "Location", "Content-Disposition", "HX-Redirect", "HX-Trigger")
    return tuple((name, response.get(name)) for name in kept)


def _rows_written() -> tuple:
    """What an action leaves behind that anyone could come to see."""
    return (
        FeedbackShare.objects.count(),
        FeedbackShare.objects.filter(revoked_at__isnull=False).count(),
        Notification.objects.count(),
        AuditEvent.objects.count(),
    )


@dataclass(frozen=True)
class Seen:
    status: int
    headers: tuple
    body: str
    queries: int
    written: tuple = ()


def _takes_an_item(route: Route) -> bool:
    return any(f"<{FEEDBACK_REF}:" in str(pattern) for pattern in route.patterns)


# Built once per process and kept (drf-spectacular): the same bytes, fewer queries
# the second time. They hold no one's data.
NO_DATA = {"api_schema", "api_docs"}


def _gets() -> list[str]:
    visits, _unfilled = concrete_paths(FILLS, SKIP)
    # The admin site's pages of every object would list rows by number: feedback is
    # not on it (tests/feedback/test_firewall.py), and the readers here are not staff.
    paths = [v.path for v in visits if v.route.namespace != "admin" and v.route.key not in NO_DATA]
    # The late answers come after the fills were taken: their pages by their ids.
    for ref in LATE_REFS.values():
        paths += [
            reverse("feedback:feedback_detail", args=[ref]),
            reverse("api:feedback-detail", args=[ref]),
        ]
    return paths


# No item has it: what an answer still held back must look like.
UNKNOWN_REF = "00000000-0000-4000-8000-000000000000"


def _posts(world: Org) -> list[tuple[str, dict]]:
    """Every route that takes an item, for every released answer the requester
    received (as the worlds were built, before either variant) and an unknown id,
    with every target: (path, request kwargs)."""
    p = world.people
    targets = [p[n].pk for n in ("rep", "peer", "r3", "other_rep", "gone")]
    bodies = [{}, *({"person": pk} for pk in targets), {"person": 10**9}]
    refs = [item.ref for item in Feedback.objects.filter(request__in=world.released.values())]
    refs += LATE_REFS.values()
    posts = []
    for route in routes():
        if not _takes_an_item(route):
            continue
        api = route.namespace == "api"
        for ref in sorted(refs) + [UNKNOWN_REF]:
            path = route.path(pk=ref)
            for body in bodies:
                if api:
                    posts.append((path, {"data": body, "content_type": "application/json"}))
                else:
                    posts.append((path, {"data": body}))
                    posts.append((path, {"data": body, "HTTP_HX_REQUEST": "true"}))
    return posts


def _counted(send):
    """(response, how many queries it took), from cold caches — the first world would
    warm them for the second — and an emptied query log (it holds 9,000)."""
    for cache in caches.all():
        cache.clear()
    ContentType.objects.clear_cache()
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        response = send()
    return response, len(queries)


def _observe(client, world: Org, gets: list[str], posts: list) -> dict:
    seen = {}
    for reader in READERS:
        client.force_login(world.people[reader])
        for path in gets:
            response, queries = _counted(lambda path=path: client.get(path))
            seen[(reader, "GET", path)] = Seen(
                response.status_code, _headers(response), _body(response), queries
            )
    client.force_login(world.people["manager"])
    for path, kwargs in posts:
        with transaction.atomic():  # each action from the same state, then undone
            before = _rows_written()
            response, queries = _counted(
                lambda path=path, kwargs=kwargs: client.post(path, **kwargs)
            )
            written = tuple(b - a for a, b in zip(before, _rows_written(), strict=True))
            transaction.set_rollback(True)
        key = ("manager", "POST", path, repr(sorted(kwargs.items())))
        seen[key] = Seen(
            response.status_code, _headers(response), _body(response), queries, written
        )
    return seen


def _in_world(client, base: Org, variant: Callable, gets: list[str], posts: list) -> dict:
    built = timezone.now()  # a world may move the clock on: the next starts from here
    with transaction.atomic():
        variant(base)
        seen = _observe(client, base, gets, posts)
        transaction.set_rollback(True)
    base.clock.move_to(built)
    return seen


def _differences(one: dict, other: dict) -> list[str]:
    found = []
    for key in sorted(set(one) | set(other), key=repr):
        a, b = one.get(key), other.get(key)
        if a == b:
            continue
        if a is None or b is None:
            found.append(f"{key}: only in one world")
            continue
        what = [
            name
            for name in ("status", "headers", "queries", "written", "body")
            if getattr(a, name) != getattr(b, name)
        ]
        detail = f"{a.status}/{b.status}"
        if "body" in what:
            at = (
                next(i for i, (x, y) in enumerate(zip(a.body, b.body, strict=False)) if x != y)
                if (a.body[: len(b.body)] != b.body[: len(a.body)])
                else min(len(a.body), len(b.body))
            )
            detail += (
                f" …{a.body[max(0, at - 80) : at + 80]!r} ≠ …{b.body[max(0, at - 80) : at + 80]!r}"
            )
        found.append(f"{key}: {', '.join(what)} differ ({detail})")
    return found


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.mark.django_db
@pytest.mark.parametrize("secret", SECRETS)
def test_no_page_or_endpoint_tells_the_worlds_apart(client, org, frozen, secret):
    base = _build(org, frozen)
    gets, posts = _gets(), _posts(base)
    first, second = SECRETS[secret]
    one = _in_world(client, base, first, gets, posts)
    other = _in_world(client, base, second, gets, posts)
    differences = _differences(one, other)
    assert not differences, f"{len(differences)} differ:\n  " + "\n  ".join(differences[:30])
    # The walk reached what it guards: the answers themselves, item pages by their
    # random ids, a share that went through and one refused.
    assert any("ANONWORDS" in s.body for s in one.values())
    if secret == "who answered late":
        assert any("LATEWORDS as r4" in s.body for s in one.values())  # released
    posted = [(k, s) for k, s in one.items() if k[1] == "POST"]
    assert {s.status for _, s in posted} >= {200, 400}
    assert any(s.written[:1] == (1,) for _, s in posted)  # a new share
    assert len(one) > 500


@pytest.mark.django_db
def test_an_answer_held_back_looks_like_no_answer_at_all(org, frozen):
    world = _build(org, frozen)
    _answer_held(world, ["rep"])
    held = Feedback.objects.get(request=world.held)
    client = APIClient()
    client.force_login(world.people["manager"])
    for path in ("/api/v1/feedback/{}/", "/feedback/{}/"):
        answers = [client.get(path.format(ref)) for ref in (held.ref, UNKNOWN_REF, held.pk)]
        assert {(r.status_code, r.content) for r in answers} == {
            (answers[1].status_code, answers[1].content)
        }


@pytest.mark.django_db
def test_sharing_an_anonymous_answer_is_refused_alike_for_everyone_asked(org, frozen):
    """The probe of issue 56, directly: the API refused the author alone."""
    world = _build(org, frozen)
    p = world.people
    request = world.released[Stream.DEVELOPMENTAL]
    client = APIClient()
    client.force_login(p["manager"])
    asked = RequestedResponder.objects.filter(request=request).values_list("responder", flat=True)
    for item in Feedback.objects.filter(request=request):
        answers = {
            person: client.post(
                f"/api/v1/feedback/{item.ref}/share/", {"person": person}, format="json"
            )
            for person in asked
        }
        assert {r.status_code for r in answers.values()} == {400}
        assert len({r.content for r in answers.values()}) == 1
    assert not FeedbackShare.objects.filter(feedback__request=request, person__in=asked).exists()
