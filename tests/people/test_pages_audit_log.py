"""The Audit log page (`/programme/audit/`), for programme admins alone: every event
newest first, what happened in words (an unknown verb by its code), who did it and to
whom, people and teams linked to their pages, data of any shape in words; filtered by
area or one verb, by a person (what they did and what was done to them) and by days in
the reader's time zone, `until` included; "Older events" pages through the trail with
no duplicate and no gap, ties in time included. Bad filters and broken links are a 400
saying why, with the page still whole; everyone else gets 404 (sign-in first when
signed out); the page is read-only and costs the same queries at two sizes. And every
verb the code writes is in the catalogue, so none reaches the log unnamed."""

import html
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext

from people.audit_catalogue import AREA_OF, AREAS, VERBS
from people.forms_audit import FROM_AFTER_TO
from people.models import AuditEvent, User
from people.services import account_deactivate
from tests.support.factories import TeamFactory, UserFactory
from tests.support.people_audit import T0, one_of_each, record

pytestmark = pytest.mark.django_db
URL = "/programme/audit/"
BROKEN_LINK = "That link to older events is broken: start again from the newest."


@pytest.fixture
def admin(org, client_for):
    """The programme admin, signed in, with the trail the set-up wrote forgotten."""
    client = client_for(org.admin)
    AuditEvent.objects.all().delete()
    return client


def text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def rows(response) -> list[dict]:
    """The table's rows: the verb's code, and each cell's words and links."""
    body = response.content.decode()
    if "<tbody>" not in body:
        return []
    table = body[body.index("<tbody>") : body.index("</tbody>")]
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        when, what, who, target, details, ip = cells
        found.append(
            {
                "verb": html.unescape(re.search(r'title="([^"]*)"', what).group(1)),
                "when": text(when),
                "what": text(what),
                "who": text(who),
                "who_link": _link(who),
                "target": text(target),
                "target_link": _link(target),
                "details": text(details),
                "ip": text(ip),
            }
        )
    return found


def _link(cell: str) -> str | None:
    match = re.search(r'href="([^"]*)"', cell)
    return html.unescape(match.group(1)) if match else None


def verbs(response) -> list[str]:
    return [row["verb"] for row in rows(response)]


def problems(response) -> list[str]:
    body = response.content.decode()
    return [
        text(m)
        for m in re.findall(r'class="errors?" role="alert">(?:<p>)?(.*?)(?:</p>|<a )', body, re.S)
    ]


def older_link(response) -> str | None:
    match = re.search(r'<a href="([^"]*)">Older events</a>', response.content.decode())
    return html.unescape(match.group(1)) if match else None


# --- reading ----------------------------------------------------------------------


def test_events_are_listed_newest_first_in_words_with_who_and_to_what(admin, org):
    team = TeamFactory(name="East", lead=org.manager)
    AuditEvent.objects.all().delete()
    record(T0, actor=org.rep, verb="auth.signed_in", ip="10.0.0.1")
    record(T0 + timedelta(minutes=1), actor=org.admin, verb="team.created", target=team)
    record(
        T0 + timedelta(minutes=2),
        actor=org.admin,
        verb="person.deactivated",
        target=org.other_rep,
        data={"reason": "departed", "sessions_ended": 2},
    )
    record(T0 + timedelta(minutes=3), actor=None, verb="auth.sign_in_failed", ip="10.0.0.9")
    record(T0 + timedelta(minutes=4), actor=None, verb="outbox.retried", data={"sent": 3})

    response = admin.get(URL)

    assert response.status_code == 200
    assert rows(response) == [
        {
            "verb": "outbox.retried",
            "when": "10 Mar 2026, 13:04:00",  # Berlin, the admin's time zone
            "what": "Failed notifications sent again",
            "who": "The system",
            "who_link": None,
            "target": "—",
            "target_link": None,
            "details": "sent: 3",
            "ip": "—",
        },
        {
            "verb": "auth.sign_in_failed",
            "when": "10 Mar 2026, 13:03:00",
            "what": "Sign-in failed",
            "who": "Not signed in",
            "who_link": None,
            "target": "—",
            "target_link": None,
            "details": "—",
            "ip": "10.0.0.9",
        },
        {
            "verb": "person.deactivated",
            "when": "10 Mar 2026, 13:02:00",
            "what": "Deactivated",
            "who": "Adam Admin",
            "who_link": f"/programme/people/{org.admin.pk}/",
            "target": "Olga Outsider",
            "target_link": f"/programme/people/{org.other_rep.pk}/",
            "details": "reason: departed · sessions ended: 2",
            "ip": "—",
        },
        {
            "verb": "team.created",
            "when": "10 Mar 2026, 13:01:00",
            "what": "Team created",
            "who": "Adam Admin",
            "who_link": f"/programme/people/{org.admin.pk}/",
            "target": "East",
            "target_link": f"/programme/teams/{team.pk}/",
            "details": "—",
            "ip": "—",
        },
        {
            "verb": "auth.signed_in",
            "when": "10 Mar 2026, 13:00:00",
            "what": "Signed in",
            "who": "Rita Rep",
            "who_link": f"/programme/people/{org.rep.pk}/",
            "target": "—",
            "target_link": None,
            "details": "—",
            "ip": "10.0.0.1",
        },
    ]
    assert "No older events" not in response.content.decode()  # one page: no paging


def test_an_unknown_verb_is_shown_by_its_code(admin, org):
    record(T0, actor=org.rep, verb="legacy.thing")
    [row] = rows(admin.get(URL))
    assert (row["verb"], row["what"], row["who"]) == ("legacy.thing", "legacy.thing", "Rita Rep")


def test_data_of_any_shape_is_shown_in_words_and_breaks_nothing(admin, org):
    data = {
        "rotated": True,
        "first_time": False,
        "ids": [3, 5],
        "none_left": [],
        "entries": {"sessions": 11, "commitments": 9},
        "filters": {"person_id": None, "nested": [1, {"a": 2}]},
        "note": "<b>bold</b>",
    }
    record(T0, actor=org.rep, verb="calendar_feed.created", target=org.rep, data=data)
    # Data that is not an object at all, and targets that cannot be linked.
    for i, odd in enumerate([[1, 2], True, "text", 7]):
        AuditEvent.objects.create(verb="legacy.thing", data=odd, at=T0 - timedelta(minutes=i + 1))
    AuditEvent.objects.create(
        verb="person.changed",
        target_type=ContentType.objects.get_for_model(User),
        target_id="not-a-number",
        target_repr="Someone",
        at=T0 - timedelta(minutes=9),
    )

    response = admin.get(URL)

    assert response.status_code == 200
    first, *odd, unlinked = rows(response)
    # Keyed by name: PostgreSQL keeps an object's keys in its own order.
    details = dict(item.split(": ", 1) for item in first["details"].split(" · "))
    assert details == {
        "rotated": "yes",
        "first time": "no",
        "ids": "3, 5",
        "none left": "none",
        "entries": details["entries"],
        "filters": details["filters"],
        "note": "<b>bold</b>",
    }
    assert set(details["entries"].split(", ")) == {"sessions 11", "commitments 9"}
    assert "nested" in details["filters"]
    assert "<b>bold</b>" not in response.content.decode()  # escaped, not markup
    assert [row["details"] for row in odd] == ["—"] * 4
    assert (unlinked["target"], unlinked["target_link"]) == ("Someone", None)


def test_an_empty_trail_and_a_filter_matching_nothing_say_so(admin, org):
    assert "Nothing has been recorded yet." in admin.get(URL).content.decode()
    record(T0, actor=org.rep, verb="auth.signed_in")
    nothing = admin.get(URL, {"what": "reads"})
    assert nothing.status_code == 200 and rows(nothing) == []
    assert "Nothing matches" in nothing.content.decode()


# --- filters ----------------------------------------------------------------------


@pytest.fixture
def trail(admin, org):
    """One event of each area, one of an old verb, by and about different people."""
    return one_of_each(org)


@pytest.mark.parametrize(
    "what, expected",
    [
        ("", ["legacy.thing", "plan.created", "dashboards.export"] + ["person.changed"] * 2
         + ["mfa.added", "auth.signed_in"]),
        ("access", ["mfa.added", "auth.signed_in"]),
        ("people", ["person.changed", "person.changed"]),
        ("reads", ["dashboards.export"]),
        ("programme", ["plan.created"]),
        ("auth.signed_in", ["auth.signed_in"]),
        ("person.changed", ["person.changed", "person.changed"]),
        ("team.created", []),
    ],
)  # fmt: skip
def test_what_happened_filters_by_area_or_by_one_verb(admin, trail, what, expected):
    response = admin.get(URL, {"what": what})
    assert response.status_code == 200
    assert verbs(response) == expected


def test_a_person_filter_shows_what_they_did_and_what_was_done_to_them(admin, org, trail):
    response = admin.get(URL, {"person": org.rep.pk})
    assert response.status_code == 200
    assert verbs(response) == [
        "legacy.thing",
        "dashboards.export",
        "person.changed",
        "auth.signed_in",
    ]
    assert [row["who"] for row in rows(response)] == [
        "Rita Rep",
        "Mia Manager",
        "Adam Admin",
        "Rita Rep",
    ]
    both = admin.get(URL, {"person": org.rep.pk, "what": "people"})
    assert [row["target"] for row in rows(both)] == ["Rita Rep"]


def test_a_deactivated_person_can_still_be_chosen(admin, org, trail):
    account_deactivate(actor=org.admin, person=org.rep, reason="departed")
    response = admin.get(URL, {"person": org.rep.pk, "what": "people"})
    assert response.status_code == 200
    assert verbs(response) == ["person.deactivated", "person.changed"]


def test_days_are_the_readers_and_the_last_day_is_included(admin, org):
    org.admin.time_zone = "America/New_York"  # UTC-4 in these days (daylight saving)
    org.admin.save(update_fields=["time_zone"])
    at = {
        "9th late": datetime(2026, 3, 10, 2, 0, tzinfo=UTC),  # 22:00 on the 9th there
        "10th morning": datetime(2026, 3, 10, 12, 0, tzinfo=UTC),
        "10th late": datetime(2026, 3, 11, 3, 30, tzinfo=UTC),  # 23:30 on the 10th
        "11th early": datetime(2026, 3, 11, 5, 0, tzinfo=UTC),  # 01:00 on the 11th
    }
    for name, moment in at.items():
        record(moment, actor=org.rep, verb="auth.signed_in", data={"at": name})

    def shown(**days) -> list[str]:
        response = admin.get(URL, days)
        assert response.status_code == 200
        return [row["details"].removeprefix("at: ") for row in rows(response)]

    assert shown(since="2026-03-10", until="2026-03-10") == ["10th late", "10th morning"]
    assert shown(until="2026-03-09") == ["9th late"]
    assert shown(since="2026-03-11") == ["11th early"]
    assert shown(since="2026-03-09", until="2026-03-11") == list(reversed(at))
    assert shown(since="2026-03-12") == []
    [late] = rows(admin.get(URL, {"until": "2026-03-09"}))
    assert late["when"] == "9 Mar 2026, 22:00:00"  # and shown at the reader's time


# --- paging -----------------------------------------------------------------------


def test_older_events_page_through_everything_once_ties_included(admin, org):
    # 120 events, in runs of seven at the very same moment (as a bulk write dates them).
    AuditEvent.objects.bulk_create(
        AuditEvent(
            actor=org.rep,
            verb="auth.signed_in" if i % 3 else "person.changed",
            data={"n": i},
            at=T0 + timedelta(seconds=i // 7),
        )
        for i in range(120)
    )
    expected = list(AuditEvent.objects.order_by("-at", "-id").values_list("data__n", flat=True))

    seen, pages, query = [], [], {}
    while True:
        response = admin.get(URL, query)
        assert response.status_code == 200
        shown = [int(row["details"].removeprefix("n: ")) for row in rows(response)]
        pages.append(len(shown))
        seen += shown
        link = older_link(response)
        if link is None:
            break
        assert link.startswith("?before=")
        query = {"before": link.removeprefix("?before=")}
        assert ">Newest</a>" in admin.get(URL, query).content.decode()

    assert pages == [50, 50, 20]
    assert seen == expected and len(set(seen)) == 120
    assert "No older events." in response.content.decode()


def test_the_older_link_keeps_the_filters(admin, org):
    AuditEvent.objects.bulk_create(
        AuditEvent(
            actor=org.rep,
            verb="auth.signed_in" if i % 2 else "plan.created",
            at=T0 + timedelta(minutes=i),
        )
        for i in range(120)
    )
    first = admin.get(URL, {"what": "access", "person": org.rep.pk})
    link = older_link(first)
    assert "what=access" in link and f"person={org.rep.pk}" in link
    second = admin.get(URL + link)
    assert second.status_code == 200
    assert set(verbs(first) + verbs(second)) == {"auth.signed_in"}
    assert len(rows(first)) == 50 and len(rows(second)) == 10
    assert older_link(second) is None


# --- bad input --------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, message",
    [
        ({"what": "nonsense"}, "Choose what happened from the list."),
        ({"person": "abc"}, "Choose someone from the list."),
        ({"person": "999999999999999999999"}, "Choose someone from the list."),
        ({"person": "-1"}, "Choose someone from the list."),
        ({"since": "2026-13-45"}, "Give a date like 2026-03-31."),
        ({"since": "1900-01-01"}, "Pick a date between 1970 and 2999."),
        ({"until": "3000-01-01"}, "Pick a date between 1970 and 2999."),
        ({"since": "2026-03-02", "until": "2026-03-01"}, FROM_AFTER_TO),
        ({"before": "garbage"}, BROKEN_LINK),
        ({"before": "²-1"}, BROKEN_LINK),  # a digit to str.isdigit, not to int (was a 500)
        ({"before": "99999999999999999-1"}, BROKEN_LINK),
        ({"before": "1-9999999999999999999"}, BROKEN_LINK),
        ({"before": "-1"}, BROKEN_LINK),
        ({"before": "1773144000000000-"}, BROKEN_LINK),
    ],
)
def test_bad_input_is_a_400_saying_why_with_the_page_still_whole(admin, org, query, message):
    record(T0, actor=org.rep, verb="auth.signed_in")
    response = admin.get(URL, query)
    assert response.status_code == 400
    assert problems(response) == [message]
    body = response.content.decode()
    assert "<h1>Audit log</h1>" in body and 'role="search"' in body  # the form, to fix it
    assert rows(response) == []
    assert admin.get(URL).status_code == 200 and len(rows(admin.get(URL))) == 1


def test_a_broken_older_link_offers_the_newest_with_the_filters_kept(admin, org):
    response = admin.get(URL, {"what": "access", "before": "garbage"})
    assert response.status_code == 400
    assert '<a href="?what=access">The newest</a>' in response.content.decode()


# --- who may ----------------------------------------------------------------------


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "head"])
def test_everyone_but_programme_admins_gets_404(org, client_for, who):
    client = client_for(getattr(org, who))
    assert client.get(URL).status_code == 404
    assert client.get(URL, {"what": "nonsense", "before": "garbage"}).status_code == 404


def test_signed_out_it_is_the_sign_in_page_first(client, org):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={URL}"


def test_the_page_is_read_only(admin, org):
    record(T0, actor=org.rep, verb="auth.signed_in")
    for method in (admin.post, admin.put, admin.delete, admin.patch):
        assert method(URL).status_code == 405
    assert AuditEvent.objects.count() == 1


# --- cost -------------------------------------------------------------------------


def test_the_page_costs_the_same_at_two_sizes(admin, org):
    team = TeamFactory(lead=org.manager)
    # Enough people that the person filter searches (and offers the admin's own team
    # first) at both sizes, rather than listing everyone at the smaller one.
    UserFactory.create_batch(45, manager=org.admin)
    AuditEvent.objects.all().delete()

    def queries(n: int) -> int:
        for i in range(n):
            actor = UserFactory()
            target = team if i % 2 else UserFactory()
            record(
                T0 + timedelta(seconds=i),
                actor=actor,
                verb="team.created" if i % 2 else "person.changed",
                target=target,
                data={"ids": [i], "on": bool(i % 3)},
            )
        with CaptureQueriesContext(connection) as captured:
            response = admin.get(URL, {"what": "", "since": "2026-01-01"})
            assert response.status_code == 200
        return len(captured), len(rows(response))

    small, big = queries(3), queries(117)
    assert (small[1], big[1]) == (3, 50)
    # Session, user, roles, the header's unread count; the page of events; the people
    # offered to the person filter, the admin's own team first.
    assert small[0] == big[0] == 7


# --- the catalogue ----------------------------------------------------------------

ROOT = Path(settings.BASE_DIR)
CHANNEL_VERBS = ("connected", "changed", "switched_on", "switched_off", "tested", "removed")


def _app_sources():
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in {"tests", ".venv", "node_modules"} or "migrations" in parts:
            continue
        yield path, path.read_text(encoding="utf-8")


def written_verbs() -> dict[str, set[str]]:
    """Every verb the app's code writes, with the files writing it: `verb=` literals
    (also a choice between two), `VERB`/`*_VERB` constants, the demo's past trail
    (`_event(person, "verb", ...)`), the team channel's `channel.<verb>` and the admin
    site's `<audit_prefix>.created|changed|deleted`."""
    found: dict[str, set[str]] = {}

    def add(verb: str, where: str) -> None:
        found.setdefault(verb, set()).add(where)

    for path, source in _app_sources():
        where = str(path.relative_to(ROOT))
        for line in source.splitlines():
            if re.search(r'\bverb\s*=\s*"|\b(?:\w+_)?VERB\s*=\s*"', line):
                for verb in re.findall(r'"([a-z_]+\.[a-z_]+)"', line):
                    add(verb, where)
        for verb in re.findall(r'_event\(\s*\w+,\s*"([a-z_]+\.[a-z_]+)"', source):
            add(verb, where)
        if where.endswith("admin.py"):
            for prefix in re.findall(r'^\s*audit_prefix\s*=\s*"(\w+)"', source, re.M):
                for action in ("created", "changed", "deleted"):
                    add(f"{prefix}.{action}", where)
        if 'verb=f"channel.{verb}"' in source:  # `_audit("connected", ...)`
            channel = r'_audit\(\s*"(\w+)"(?:\s+if\s+\w+\s+else\s+"(\w+)")?'
            for verb in (v for choice in re.findall(channel, source) for v in choice if v):
                add(f"channel.{verb}", where)
    return found


def test_every_verb_the_code_writes_is_in_the_catalogue_under_one_area():
    written = written_verbs()
    # The search finds each way of writing one.
    assert {f"channel.{verb}" for verb in CHANNEL_VERBS} <= set(written)
    for prefix in ("focus_area", "prompt", "policy", "channel"):
        assert {f"{prefix}.created", f"{prefix}.changed", f"{prefix}.deleted"} <= set(written)
    assert "people/admin_audit.py" in written["role.granted"] & written["group.removed"]
    assert "feedback/evaluations.py" in written["feedback.evaluative_export"]
    assert "people/erasure.py" in written["privacy.person_erased"]
    assert "devdata/demo/audit.py" in written["mfa.added"] & written["auth.sign_in_failed"]
    assert len(written) > 50

    assert {verb: places for verb, places in written.items() if verb not in VERBS} == {}
    assert set(AREA_OF) == set(VERBS)
    assert sum(len(area.verbs) for area in AREAS.values()) == len(VERBS)  # one area each
