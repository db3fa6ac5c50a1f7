"""The audit trail through the API (`GET /api/v1/audit-events/`), for programme admins
alone (404 to everyone else, 401 without credentials): each event with what happened
in code and words, its area, who did it and to what; filtered by area, verb, person
(what they did and what was done to them, deactivated people too) and time (`since`
included, `until` not); paged newest first by cursor through everything once, ties in
time included, with no count. A cursor not ours is a 404 as DRF answers, bad
parameters a 400 naming the field; nothing can be written (405); a page costs the same
queries at two sizes. Answers match the published schema."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from people.models import AuditEvent
from people.services import account_deactivate
from tests.support.api_schema import assert_conforms
from tests.support.factories import TeamFactory, UserFactory
from tests.support.people_audit import T0, one_of_each, record

pytestmark = pytest.mark.django_db
URL = "/api/v1/audit-events/"


def api(user):
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def admin(org):
    """The programme admin's API client, with the trail the set-up wrote forgotten."""
    client = api(org.admin)
    AuditEvent.objects.all().delete()
    return client


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [event["id"] for event in response.json()["results"]]


# --- reading ----------------------------------------------------------------------


def test_an_event_shows_what_happened_by_whom_to_what_when_and_from_where(admin, org):
    done = record(
        T0,
        actor=org.admin,
        verb="person.deactivated",
        target=org.other_rep,
        data={"reason": "departed", "sessions_ended": 2, "feeds": [1, 2], "token": False},
        ip="10.0.0.1",
    )
    team = TeamFactory(name="East", lead=org.manager)
    AuditEvent.objects.exclude(pk=done.pk).delete()
    to_team = record(T0 + timedelta(minutes=1), actor=org.admin, verb="team.renamed", target=team)
    failed = record(T0 + timedelta(minutes=2), actor=None, verb="auth.sign_in_failed", ip="::1")
    old = record(T0 + timedelta(minutes=3), actor=None, verb="legacy.thing")

    response = admin.get(URL)

    assert response.status_code == 200
    assert_conforms(response, "get", URL)
    body = response.json()
    assert set(body) == {"next", "results"}  # no count, no previous
    assert body["next"] is None
    assert [e["id"] for e in body["results"]] == [old.pk, failed.pk, to_team.pk, done.pk]
    assert body["results"][3] == {
        "id": done.pk,
        "at": "2026-03-10T13:00:00+01:00",  # in the admin's time zone (Berlin)
        "verb": "person.deactivated",
        "happened": "Deactivated",
        "area": "people",
        "actor": {"id": org.admin.pk, "display_name": "Adam Admin"},
        "target": {"type": "people.user", "id": str(org.other_rep.pk), "name": "Olga Outsider"},
        "data": {"reason": "departed", "sessions_ended": 2, "feeds": [1, 2], "token": False},
        "ip": "10.0.0.1",
    }
    assert body["results"][2]["target"] == {
        "type": "people.team",
        "id": str(team.pk),
        "name": "East",
    }
    assert body["results"][1] | {"id": None, "at": None} == {
        "id": None,
        "at": None,
        "verb": "auth.sign_in_failed",
        "happened": "Sign-in failed",
        "area": "access",
        "actor": None,
        "target": None,
        "data": {},
        "ip": "::1",
    }
    # A verb no longer written: its code for words, and no area.
    assert (body["results"][0]["happened"], body["results"][0]["area"]) == ("legacy.thing", None)


# --- filters ----------------------------------------------------------------------


@pytest.fixture
def trail(admin, org):
    return one_of_each(org)


def newest_first(trail, *names) -> list[int]:
    return sorted((trail[name].pk for name in names), reverse=True)


def test_area_and_verb_filter_what_happened(admin, trail):
    assert ids(admin.get(URL, {"area": "access"})) == newest_first(trail, "access", "access 2")
    assert ids(admin.get(URL, {"area": "people"})) == newest_first(trail, "people", "people 2")
    assert ids(admin.get(URL, {"area": "reads"})) == newest_first(trail, "reads")
    assert ids(admin.get(URL, {"area": "programme"})) == newest_first(trail, "programme")
    assert ids(admin.get(URL, {"verb": "mfa.added"})) == newest_first(trail, "access 2")
    assert ids(admin.get(URL, {"verb": "team.created"})) == []
    assert ids(admin.get(URL, {"area": "access", "verb": "mfa.added"})) == newest_first(
        trail, "access 2"
    )
    assert ids(admin.get(URL, {"area": "reads", "verb": "mfa.added"})) == []
    assert ids(admin.get(URL, {"area": "", "verb": ""})) == newest_first(trail, *trail)


def test_a_person_filter_is_what_they_did_and_what_was_done_to_them(admin, org, trail):
    assert ids(admin.get(URL, {"person": org.rep.pk})) == newest_first(
        trail, "access", "people", "reads", "old"
    )
    assert ids(admin.get(URL, {"person": org.peer.pk})) == newest_first(trail, "people 2")
    account_deactivate(actor=org.admin, person=org.peer, reason="departed")
    gone = admin.get(URL, {"person": org.peer.pk, "area": "people"}).json()["results"]
    assert [e["verb"] for e in gone] == ["person.deactivated", "person.changed"]


def test_since_is_included_and_until_is_not(admin, org):
    moments = [T0 + timedelta(hours=h) for h in range(4)]
    events = [record(at, actor=org.rep, verb="auth.signed_in") for at in moments]

    def between(**params) -> list[int]:
        return ids(admin.get(URL, {k: v.isoformat() for k, v in params.items()}))

    assert between(since=moments[1], until=moments[3]) == [events[2].pk, events[1].pk]
    assert between(since=moments[3]) == [events[3].pk]
    assert between(until=moments[1]) == [events[0].pk]
    # Another offset, and a moment without one (in the reader's time zone, Berlin):
    # both 14:00 UTC.
    from_two = [events[3].pk, events[2].pk]
    assert ids(admin.get(URL, {"since": "2026-03-10T10:00:00-04:00"})) == from_two
    assert ids(admin.get(URL, {"since": "2026-03-10T15:00:00"})) == from_two


# --- paging -----------------------------------------------------------------------


def walk(client, url) -> tuple[list[int], list[int]]:
    """Every event's id, following `next` from `url`, and each page's size."""
    seen, sizes = [], []
    while url is not None:
        response = client.get(url)
        assert response.status_code == 200
        body = response.json()
        assert set(body) == {"next", "results"}
        seen += [event["id"] for event in body["results"]]
        sizes.append(len(body["results"]))
        url = body["next"]
    return seen, sizes


def test_older_pages_walk_everything_once_newest_first_ties_included(admin, org):
    # 120 events in runs of seven at the very same moment (as a bulk write dates them).
    AuditEvent.objects.bulk_create(
        AuditEvent(actor=org.rep, verb="auth.signed_in", at=T0 + timedelta(seconds=i // 7))
        for i in range(120)
    )
    expected = list(AuditEvent.objects.order_by("-at", "-id").values_list("pk", flat=True))

    seen, sizes = walk(admin, URL)

    assert sizes == [50, 50, 20]
    assert seen == expected and len(set(seen)) == 120


def test_more_than_a_thousand_events_of_one_moment_are_walked_once(admin, org):
    """One export writes every read it hands out at one time: DRF's cursor, which
    skips ties by an offset capped at 1,000, looped here for ever."""
    AuditEvent.objects.bulk_create(
        AuditEvent(actor=org.rep, verb="feedback.evaluative_read", at=T0) for _ in range(1060)
    )
    seen, sizes = walk(admin, URL)
    assert len(seen) == len(set(seen)) == 1060 and sizes[-1] == 10


def test_the_cursor_keeps_the_filters(admin, org):
    AuditEvent.objects.bulk_create(
        AuditEvent(
            actor=org.rep,
            verb="auth.signed_in" if i % 2 else "plan.created",
            at=T0 + timedelta(minutes=i),
        )
        for i in range(120)
    )
    first = admin.get(URL, {"area": "access"}).json()
    assert "area=access" in first["next"]
    second = admin.get(first["next"]).json()
    verbs = {e["verb"] for e in first["results"] + second["results"]}
    assert verbs == {"auth.signed_in"}
    assert (len(first["results"]), len(second["results"]), second["next"]) == (50, 10, None)


@pytest.mark.parametrize(
    "before", ["not-ours", "²-1", "1-²", "99999999999999999-1", "1-9999999999999999999", "-1"]
)
def test_a_position_we_did_not_give_is_a_400_saying_so(admin, org, before):
    record(T0, actor=org.rep, verb="auth.signed_in")
    response = admin.get(URL, {"before": before})
    assert response.status_code == 400
    assert response.json() == {
        "before": ["That link to older events is broken: start again from the newest."]
    }


# --- bad input --------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, field, message",
    [
        ({"area": "x"}, "area", '"x" is not a valid choice.'),
        ({"verb": "x"}, "verb", '"x" is not a valid choice.'),
        ({"verb": "legacy.thing"}, "verb", '"legacy.thing" is not a valid choice.'),
        ({"person": "abc"}, "person", None),
        ({"person": "0"}, "person", "No person with id 0."),
        ({"person": "999999999"}, "person", "No person with id 999999999."),
        ({"person": "99999999999999999999"}, "person", "No person with id 99999999999999999999."),
        ({"since": "not-a-date"}, "since", None),
        ({"since": "1900-01-01T00:00:00Z"}, "since", "Pick a date between 1970 and 2999."),
        ({"until": "3000-01-01T00:00:00Z"}, "until", "Pick a date between 1970 and 2999."),
        (
            {"since": "2026-03-10T12:00:00Z", "until": "2026-03-10T12:00:00Z"},
            "until",
            "Give a time after `since`.",
        ),
        (
            {"since": "2026-03-11T00:00:00Z", "until": "2026-03-10T00:00:00Z"},
            "until",
            "Give a time after `since`.",
        ),
    ],
)
def test_bad_parameters_are_a_400_naming_the_field(admin, org, params, field, message):
    record(T0, actor=org.rep, verb="auth.signed_in")
    response = admin.get(URL, params)
    assert response.status_code == 400
    assert_conforms(response, "get", URL)
    body = response.json()
    assert list(body) == [field]
    if message is not None:
        assert body[field] == [message]
    assert len(ids(admin.get(URL))) == 1  # and nothing else breaks


# --- who may ----------------------------------------------------------------------


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "head"])
def test_everyone_but_programme_admins_gets_404(org, who):
    client = api(getattr(org, who))
    assert client.get(URL).status_code == 404
    assert client.get(URL, {"area": "x", "cursor": "not-ours"}).status_code == 404
    assert client.post(URL, {}, format="json").status_code in (404, 405)


def test_without_credentials_it_is_a_401(org):
    client = APIClient()
    assert client.get(URL).status_code == 401
    assert client.get(URL, {"person": org.rep.pk}).status_code == 401


def test_nothing_can_be_written(admin, org):
    event = record(T0, actor=org.rep, verb="auth.signed_in")
    body = {"verb": "tampered"}
    assert admin.post(URL, body, format="json").status_code == 405
    assert admin.put(URL, body, format="json").status_code == 405
    assert admin.patch(URL, body, format="json").status_code == 405
    assert admin.delete(URL).status_code == 405
    assert admin.get(f"{URL}{event.pk}/").status_code == 404  # no detail route either
    event.refresh_from_db()
    assert event.verb == "auth.signed_in" and AuditEvent.objects.count() == 1


# --- cost -------------------------------------------------------------------------


def test_a_page_costs_the_same_at_two_sizes(admin, org):
    team = TeamFactory(lead=org.manager)

    def queries(n: int) -> tuple[int, int]:
        for i in range(n):
            record(
                T0 + timedelta(seconds=i),
                actor=UserFactory(),
                verb="team.created" if i % 2 else "person.changed",
                target=team if i % 2 else UserFactory(),
                data={"ids": [i]},
            )
        with CaptureQueriesContext(connection) as captured:
            response = admin.get(URL)
            assert response.status_code == 200
        return len(captured), len(response.json()["results"])

    small, big = queries(3), queries(117)
    assert (small[1], big[1]) == (3, 50)
    # Session, user, roles; the page with its actors and targets' types.
    assert small[0] == big[0] == 4
