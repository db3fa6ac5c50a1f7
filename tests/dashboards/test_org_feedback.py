"""Feedback across the organisation (dashboards/org_feedback.py, `/hr/feedback/`, the
API and the CSV): per calendar month in the reader's time zone, the people who asked
for feedback and their requests, the people who gave feedback (and gave some unasked),
feedback given down, up and between peers, wins shared — worked out by hand below;
the shares of the organisation that asked and gave unasked in the last 90 days. A
month with fewer than five people asking and fewer than five giving shows no number;
so does a share under five people. Counts only: no word anyone wrote. Six queries
whatever the size. HR and programme admins only (the authorization matrix holds the
404s)."""

import csv
import io
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dashboards.org_feedback import organisation_feedback
from feedback.models import Stream
from feedback.services import (
    feedback_give,
    feedback_request_answer,
    feedback_request_create,
    win_share,
)
from people.models import AuditEvent
from tests.support.factories import TeamFactory, UserFactory

pytestmark = pytest.mark.django_db
TODAY = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)  # Berlin is UTC+1
BERLIN = ZoneInfo("Europe/Berlin")
JSON = {"HTTP_ACCEPT": "application/json"}
SECRET = "planted-feedback-words"
DEV, EVAL = Stream.DEVELOPMENTAL, Stream.EVALUATIVE


def at(when, do, *args, **kwargs):
    with time_machine.travel(when, tick=False):
        return do(*args, **kwargs)


def utc(month, day, hour=9, minute=0):
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


def give(when, author, recipient, stream=DEV):
    return at(
        when,
        feedback_give,
        author=author,
        recipient=recipient,
        stream=stream,
        observation=f"{SECRET}: you paused before answering on the pricing call",
    )


def ask(when, requester, *responders):
    return at(
        when,
        feedback_request_create,
        requester=requester,
        responders=list(responders),
        due_on=when.date() + timedelta(days=14),
        question=f"{SECRET}: what should I do differently?",
    )


def answer(when, request, responder):
    return at(
        when,
        feedback_request_answer,
        request=request,
        responder=responder,
        observation=f"{SECRET}: you let them finish",
    )


@pytest.fixture
def world(org):
    """Nine reps under Mia (0–8), 17 people in all.

    January: reps 0, 1, 2 give peer feedback unasked → 3 givers, nobody asked: too few.
    February (UTC): reps 0–4 ask (rep 0 twice: 6 requests); Mia answers rep 0 (down),
    rep 5 answers rep 1 (peer); unasked: rep 6 → rep 7 (peer), Mia → rep 8 (down,
    evaluative), rep 2 → Mia (up), rep 3 a note to self (not given), and rep 7 → rep 6
    on 28 Feb 23:30 UTC (1 March in Berlin); Mia shares a win.
      → asked 5, requests 6, givers 5 (Mia, reps 5, 6, 2, 7), unasked givers 4,
        given 6 (down 2, up 1, peer 3), unasked 4, wins 1.
    March: rep 8 asks, rep 3 gives rep 4 feedback unasked → too few.
    Last 90 days: asked reps 0–4 and 8 → 6 of 17; gave unasked reps 0, 1, 2, 6, 7, 3
    and Mia → 7 of 17."""
    reps = [UserFactory(display_name=f"Rep {n}", manager=org.manager) for n in range(9)]
    team = TeamFactory(lead=org.manager)
    for n, (author, recipient) in enumerate(((0, 1), (1, 2), (2, 0))):
        give(utc(1, 10 + n), reps[author], reps[recipient])
    first = ask(utc(2, 2), reps[0], org.manager, reps[5])
    second = ask(utc(2, 3), reps[1], reps[5])
    for n in (2, 3, 4):
        ask(utc(2, 4), reps[n], org.manager)
    ask(utc(2, 5), reps[0], reps[6])
    answer(utc(2, 9), first, org.manager)
    answer(utc(2, 10), second, reps[5])
    give(utc(2, 11), reps[6], reps[7])
    give(utc(2, 12), org.manager, reps[8], EVAL)
    give(utc(2, 13), reps[2], org.manager)
    give(utc(2, 14), reps[3], reps[3])
    give(utc(2, 28, 23, 30), reps[7], reps[6])
    at(utc(2, 16), win_share, author=org.manager, team=team, title="The pricing pause")
    ask(utc(3, 3), reps[8], reps[0])
    give(utc(3, 5), reps[3], reps[4])
    return type("World", (), {"reps": reps})


def read(tz=UTC):
    return organisation_feedback(today=TODAY.astimezone(tz).date(), tz=tz, until=TODAY)


def numbers(month):
    return (
        month.asked, month.requests, month.givers, month.unasked_givers, month.given,
        month.down, month.up, month.peer, month.unasked, month.wins,
    )  # fmt: skip


def test_it_counts_asking_and_giving_month_by_month(world):
    found = read()
    assert [m.month for m in found.months] == [
        date(2025, 10, 1), date(2025, 11, 1), date(2025, 12, 1),
        date(2026, 1, 1), date(2026, 2, 1), date(2026, 3, 1),
    ]  # fmt: skip
    february = {m.month: m for m in found.months}[date(2026, 2, 1)]
    assert numbers(february) == (5, 6, 5, 4, 6, 2, 1, 3, 4, 1)
    assert not february.suppressed


def test_a_month_with_fewer_than_five_asking_or_giving_is_suppressed(world):
    by_month = {m.month: m for m in read().months}
    assert numbers(by_month[date(2026, 1, 1)]) == (0, 0, 3, 3, 3, 0, 0, 3, 3, 0)
    assert by_month[date(2026, 1, 1)].suppressed
    assert numbers(by_month[date(2026, 3, 1)])[:3] == (1, 1, 1)
    assert by_month[date(2026, 3, 1)].suppressed
    assert by_month[date(2025, 10, 1)].suppressed  # nothing at all


def test_months_are_the_readers_calendar_months(world):
    by_month = {m.month: m for m in read(BERLIN).months}
    assert numbers(by_month[date(2026, 2, 1)]) == (5, 6, 4, 3, 5, 2, 1, 2, 3, 1)
    assert numbers(by_month[date(2026, 3, 1)])[:4] == (1, 1, 2, 2)


def test_the_last_90_days_are_shares_of_everyone_active(world):
    found = read()
    assert (found.asked_recently.count, found.asked_recently.people) == (6, 17)
    assert found.asked_recently.share == pytest.approx(6 / 17)
    assert found.gave_unasked_recently.count == 7
    world.reps[6].is_active = False
    world.reps[6].save(update_fields=["is_active"])
    found = read()
    assert (found.gave_unasked_recently.count, found.gave_unasked_recently.people) == (6, 16)
    assert found.asked_recently.count == 6


def test_a_share_under_five_people_is_not_shown(org):
    reps = [UserFactory(manager=org.manager) for _ in range(4)]
    for n, rep in enumerate(reps):
        ask(utc(3, 1 + n), rep, org.manager)
    found = read()
    assert found.asked_recently.count == 4
    assert found.asked_recently.suppressed
    assert found.asked_recently.shown is None and found.asked_recently.share is None


def test_it_costs_six_queries_whatever_the_size(world, org):
    with CaptureQueriesContext(connection) as small:
        read()
    more = [UserFactory(manager=org.manager) for _ in range(6)]
    for n, rep in enumerate(more):
        request = ask(utc(1, 5 + n), rep, org.manager, more[n - 1])
        answer(utc(1, 20 + n), request, more[n - 1])
        give(utc(3, 1 + n), rep, org.manager)
    with CaptureQueriesContext(connection) as large:
        read()
    assert len(small) == len(large) == 6


def test_it_reads_no_word_anyone_wrote_only_counts(world):
    """Both streams are counted, so the queries must never select a text column: the
    page can say how much feedback moves, never what it says."""
    with CaptureQueriesContext(connection) as queries:
        read()
    sql = " ".join(q["sql"] for q in queries).lower()
    for column in ("observation", "impact", "suggestion", "reflection", "question", "topic",
                   "title", '"text"'):  # fmt: skip
        assert column not in sql, column
    assert "stream" not in sql  # never split by stream either


@pytest.fixture
def at_today():
    cache.clear()  # a slot's snapshot is kept in the cache
    with time_machine.travel(TODAY, tick=False):
        yield
    cache.clear()


def test_the_page_shows_the_months_and_the_shares(world, org, client_for, at_today):
    response = client_for(org.hr).get("/hr/feedback/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Feedback across the organisation" in body
    assert "35%" in body and "6 of 17 people asked" in body
    assert "41%" in body and "7 of 17 people gave someone feedback" in body
    assert "too few to show" in body  # January
    # February shows: five asked, though only four gave — as the intro says it may.
    assert "<td>5</td><td>6</td><td>4</td>" in body and "never for fewer than" not in body
    assert (
        "A month shows its numbers only when 5 people or more asked for feedback or gave "
        "some in it, so one column can then count fewer; a share of the last 90 days shows "
        "only when it counts 5 people or more."
    ) in body
    assert "<svg" in body and "People who asked for feedback" in body
    assert SECRET not in body
    for person in (*world.reps, org.manager):
        assert person.display_name not in body


def test_the_api_gives_the_same_with_nulls_where_suppressed(world, org, client_for, at_today):
    response = client_for(org.admin).get("/api/v1/health/feedback/", **JSON)
    assert response.status_code == 200
    data = response.json()
    assert data["recent"]["days"] == 90
    assert data["recent"]["asked"] == {"suppressed": False, "people": 17, "count": 6,
                                       "share": pytest.approx(6 / 17)}  # fmt: skip
    january, february = data["months"][3], data["months"][4]
    assert january["suppressed"] and set(january.values()) == {"2026-01-01", True, None}
    assert february == {"month": "2026-02-01", "suppressed": False, "asked": 5, "requests": 6,
                        "givers": 4, "unasked_givers": 3, "given": 5, "down": 2, "up": 1,
                        "peer": 2, "unasked": 3, "wins": 1}  # fmt: skip
    assert SECRET not in response.content.decode()


def test_the_csv_is_an_audited_download(world, org, client_for, at_today):
    response = client_for(org.hr).get("/hr/feedback/export.csv")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="feedback-organisation-2026-03-18-1300.csv"'
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["month", "people who asked for feedback", "requests"]
    assert rows[4] == ["2026-01", "too few to show", *[""] * 11]
    assert rows[5] == ["2026-02", "5", "6", "4", "3", "5", "2", "1", "2", "3", "1", "", ""]
    assert rows[-1] == ["last 90 days", "6", "", "", "7", *[""] * 6, "35%", "41%"]
    assert SECRET not in response.content.decode()
    event = AuditEvent.objects.get(verb="dashboards.export")
    assert (event.actor, event.data) == (org.hr, {"table": "feedback", "rows": 7})


@pytest.mark.parametrize("path", ["/hr/feedback/", "/api/v1/health/feedback/"])
def test_the_page_and_the_api_cost_the_same_at_any_size(org, client_for, at_today, path):
    """Worked out once a slot (six queries) and then read from the cache: the reader's
    session, person and roles only."""
    client = client_for(org.hr)

    def cost():
        with CaptureQueriesContext(connection) as computed:
            assert client.get(path, **JSON).status_code == 200
        with CaptureQueriesContext(connection) as kept:
            assert client.get(path, **JSON).status_code == 200
        cache.clear()
        return len(computed), len(kept)

    small = cost()
    reps = [UserFactory(manager=org.manager) for _ in range(8)]
    for n, rep in enumerate(reps):
        answer(utc(2, 10 + n), ask(utc(2, 1 + n), rep, org.manager), org.manager)
        give(utc(3, 1 + n), rep, reps[n - 1])
    assert cost() == small
    assert small[0] - small[1] == 6


def test_an_empty_organisation_shows_nothing_to_count(org, client_for, at_today):
    body = client_for(org.hr).get("/hr/feedback/").content.decode()
    assert "Too few to show: fewer than 5 people." in body
    assert "No month in the last 6 had 5 people or more asking for or giving feedback" in body


def test_cadence_health_and_the_programme_page_link_to_it(org, client_for):
    client = client_for(org.admin)
    for page in ("/hr/", "/programme/"):
        assert 'href="/hr/feedback/"' in client.get(page).content.decode(), page
