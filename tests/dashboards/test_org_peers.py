"""Peer coaching across the organisation (dashboards/org_peers.py, `/hr/peers/`, the API
and the CSV): per calendar month in the reader's time zone, the people in a started
pair or trio, the people who met a peer, peer sessions held, pairs started and ended —
worked out by hand below; today's share of the organisation. A month with fewer than
five people taking part shows no number; so does today. Four queries whatever the
size. HR and programme admins only (the authorization matrix holds the 404s)."""

import csv
import io
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.models import ParticipantRole, SessionKind
from coaching.services import session_create, session_mark_held
from dashboards.org_peers import organisation_peers
from peers.services import pair_accept, pair_decline, pair_end, pair_leave
from people.models import AuditEvent
from tests.support.factories import UserFactory
from tests.support.peers_pairs import SECRET, active_pair, form_pair, with_notes

pytestmark = pytest.mark.django_db
TODAY = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)  # Berlin is UTC+1
BERLIN = ZoneInfo("Europe/Berlin")
JSON = {"HTTP_ACCEPT": "application/json"}


def at(when, do, *args, **kwargs):
    with time_machine.travel(when, tick=False):
        return do(*args, **kwargs)


def met(when, *people):
    """A peer session of `people` at `when`, logged held an hour later."""
    session = at(
        when,
        session_create,
        kind=SessionKind.PEER,
        start=when,
        participants=[(p, ParticipantRole.PEER) for p in people],
        created_by=people[0],
    )
    return at(when + timedelta(hours=1), session_mark_held, session=session, actor=people[0])


@pytest.fixture
def world(org):
    """Eleven reps under Mia (0–10), pairs formed by her.

    A (0, 1) started 10 Jan, live.     C (5, 6) started 20 Jan, ended 20 Feb.
    B (2, 3, 4) started 5 Feb; 4 left 2 Mar; live.    E (9, 10) started 10 Mar, live.
    D (7, 8) formed in February, 8 declined: ended before it started — never counted.
    Held peer sessions: A 3 Feb, B 12 Feb (three people), Rita and Pavel ad hoc 25 Feb,
    A again 28 Feb 23:30 UTC (1 March in Berlin); one of E's on 12 Mar was not held.

    January: A, C → 4 in pairs, nobody met: too few to show.
    February (UTC): A, B, C → 7 in pairs; 7 met (A, B, Rita, Pavel) in 4 sessions;
    B started, C ended. In Berlin A's second session is March's: 3 sessions.
    March: A, B (4 until 2 Mar), E → 7 in pairs. Today: A, B without 4, E → 6 of 19."""
    reps = [UserFactory(display_name=f"Rep {n}", manager=org.manager) for n in range(11)]
    a = at(datetime(2026, 1, 10, 9, tzinfo=UTC), active_pair, org.manager, reps[0], reps[1])
    c = at(datetime(2026, 1, 20, 9, tzinfo=UTC), active_pair, org.manager, reps[5], reps[6])
    b = at(datetime(2026, 2, 5, 9, tzinfo=UTC), active_pair, org.manager, *reps[2:5])
    d = at(datetime(2026, 2, 6, 9, tzinfo=UTC), form_pair, org.manager, reps[7], reps[8])
    at(datetime(2026, 2, 6, 10, tzinfo=UTC), pair_accept, pair=d, actor=reps[7])
    at(datetime(2026, 2, 7, 10, tzinfo=UTC), pair_decline, pair=d, actor=reps[8])
    at(datetime(2026, 2, 20, 9, tzinfo=UTC), pair_end, pair=c, actor=org.manager)
    at(datetime(2026, 3, 2, 9, tzinfo=UTC), pair_leave, pair=b, actor=reps[4], reason="busy")
    e = at(datetime(2026, 3, 10, 9, tzinfo=UTC), active_pair, org.manager, reps[9], reps[10])
    met(datetime(2026, 2, 3, 9, tzinfo=UTC), reps[0], reps[1])
    met(datetime(2026, 2, 12, 9, tzinfo=UTC), *reps[2:5])
    met(datetime(2026, 2, 25, 9, tzinfo=UTC), org.rep, org.peer)
    met(datetime(2026, 2, 28, 23, 30, tzinfo=UTC), reps[0], reps[1])
    at(
        datetime(2026, 3, 12, 9, tzinfo=UTC),
        session_create,
        kind=SessionKind.PEER,
        start=datetime(2026, 3, 12, 9, tzinfo=UTC),
        participants=[(reps[9], ParticipantRole.PEER), (reps[10], ParticipantRole.PEER)],
        created_by=reps[9],
    )
    with_notes(a, reps[0])
    return type("World", (), {"reps": reps, "pairs": (a, b, c, d, e)})


def read(tz=UTC):
    return organisation_peers(today=TODAY.astimezone(tz).date(), tz=tz, until=TODAY)


def numbers(month):
    return (month.in_pairs, month.met, month.sessions, month.started, month.ended)


def test_it_counts_people_in_pairs_and_who_met_month_by_month(world):
    peers = read()
    by_month = {m.month: m for m in peers.months}
    assert [m.month for m in peers.months] == [
        date(2025, 10, 1), date(2025, 11, 1), date(2025, 12, 1),
        date(2026, 1, 1), date(2026, 2, 1), date(2026, 3, 1),
    ]  # fmt: skip
    assert numbers(by_month[date(2026, 2, 1)]) == (7, 7, 4, 1, 1)
    assert numbers(by_month[date(2026, 3, 1)]) == (7, 0, 0, 1, 0)
    assert not by_month[date(2026, 3, 1)].suppressed


def test_a_month_with_fewer_than_five_taking_part_is_suppressed(world):
    january = {m.month: m for m in read().months}[date(2026, 1, 1)]
    assert numbers(january) == (4, 0, 0, 2, 0)
    assert january.suppressed
    assert all(m.suppressed for m in read().months[:3])  # nothing yet


def test_months_are_the_readers_calendar_months(world):
    by_month = {m.month: m for m in read(BERLIN).months}
    assert numbers(by_month[date(2026, 2, 1)]) == (7, 7, 3, 1, 1)
    assert numbers(by_month[date(2026, 3, 1)]) == (7, 2, 1, 1, 0)


def test_today_is_the_share_of_everyone_in_a_live_pair(world, org):
    peers = read()
    assert (peers.in_pairs_now, peers.people) == (6, 19)
    assert peers.share_now == pytest.approx(6 / 19)
    a, b, *_ = world.pairs
    at(TODAY, pair_leave, pair=b, actor=world.reps[3])  # B ends: two left, then one
    peers = read()
    assert peers.in_pairs_now == 4
    assert peers.suppressed_now and peers.share_now is None and peers.in_pairs_shown is None


def test_a_deactivated_member_is_no_longer_counted_today(world):
    world.reps[9].is_active = False
    world.reps[9].save(update_fields=["is_active"])
    assert (read().in_pairs_now, read().people) == (5, 18)


def test_it_costs_four_queries_whatever_the_size(world, org):
    with CaptureQueriesContext(connection) as small:
        read()
    more = [UserFactory(manager=org.manager) for _ in range(6)]
    for n in range(0, 6, 2):
        pair = at(datetime(2026, 2, 1, 9, tzinfo=UTC), active_pair, org.manager, *more[n : n + 2])
        met(datetime(2026, 2, 9 + n, 9, tzinfo=UTC), *more[n : n + 2])
        at(datetime(2026, 3, 1, 9, tzinfo=UTC), pair_end, pair=pair, actor=org.manager)
    with CaptureQueriesContext(connection) as large:
        read()
    assert len(small) == len(large) == 4


@pytest.fixture
def at_today():
    with time_machine.travel(TODAY, tick=False):
        yield


def test_the_page_shows_the_months_and_today(world, org, client_for, at_today):
    response = client_for(org.hr).get("/hr/peers/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Peer coaching across the organisation" in body
    assert "32%</strong> of the organisation" in body  # 6 of 19
    assert "6 of 19 people" in body
    assert "too few to show" in body  # January
    # March shows: seven in pairs, though only two met — as the intro says it may.
    assert "<td>7</td><td>2</td>" in body and "never for fewer than" not in body
    assert (
        "A month shows its numbers only when 5 people or more were in a pair or trio or met "
        "a peer in it, so one column can then count fewer; today's share shows only when 5 "
        "people or more are in a pair or trio."
    ) in body
    assert "<svg" in body and "People who met a peer" in body
    assert SECRET not in body
    for rep in world.reps:
        assert rep.display_name not in body


def test_the_api_gives_the_same_with_nulls_where_suppressed(world, org, client_for, at_today):
    response = client_for(org.admin).get("/api/v1/health/peers/", **JSON)
    assert response.status_code == 200
    data = response.json()
    assert data["today"] == {"suppressed": False, "people": 19, "in_pairs": 6,
                             "share": pytest.approx(6 / 19)}  # fmt: skip
    january, february = data["months"][3], data["months"][4]
    assert january == {"month": "2026-01-01", "suppressed": True, "in_pairs": None, "met": None,
                       "sessions": None, "started": None, "ended": None}  # fmt: skip
    assert february == {"month": "2026-02-01", "suppressed": False, "in_pairs": 7, "met": 7,
                        "sessions": 3, "started": 1, "ended": 1}  # fmt: skip


def test_the_csv_is_an_audited_download(world, org, client_for, at_today):
    response = client_for(org.hr).get("/hr/peers/export.csv")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="peer-coaching-organisation-2026-03-18-1300.csv"'
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["month", "people in a pair or trio", "share of everyone"]
    assert rows[4] == ["2026-01", "too few to show", "", "", "", "", ""]
    assert rows[5] == ["2026-02", "7", "", "7", "3", "1", "1"]  # read in Berlin
    assert rows[-1] == ["today", "6", "32%", "", "", "", ""]
    event = AuditEvent.objects.get(verb="dashboards.export")
    assert (event.actor, event.data) == (org.hr, {"table": "peers", "rows": 7})


def test_an_empty_organisation_shows_nothing_to_count(org, client_for, at_today):
    body = client_for(org.hr).get("/hr/peers/").content.decode()
    assert "fewer than 5 people are in a peer pair or trio today" in body
    assert "No month in the last 6 had 5 people or more taking part yet." in body


def test_cadence_health_and_the_programme_page_link_to_it(org, client_for):
    client = client_for(org.admin)
    for page in ("/hr/", "/programme/"):
        assert 'href="/hr/peers/"' in client.get(page).content.decode(), page
