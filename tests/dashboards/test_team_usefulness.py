"""Session usefulness on the team dashboards (coaching/ratings.py decides what may
show): a manager reads their own average, spread and comments once five ratings
from three people are counted; the people above them read the numbers only — on the
manager's page from above, in the managers-below table, in the API — never a
comment; below the threshold everyone reads "too few ratings to show". What counts
are released ratings: closed ones (14 days after their session, when they can no
longer change), up to a coach's count, which moves on at a Monday (00:00 UTC) once
the ratings of at least three people have closed since it last moved — whoever reads
and in whatever time zone, and always over eight weeks."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.utils import timezone

from coaching.ratings import counted_until, release_usefulness
from coaching.services import session_rating_delete
from tests.support.coaching_ratings import held, rate
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
COMMENT = "ZQUSEFULCOMMENT the role-play clicked"


def once_closed(hours=9):
    """`hours` past the first Monday 00:00 UTC by which the ratings of sessions held
    this week or last have all closed (RATING_DAYS after each)."""
    return counted_until() + timedelta(weeks=3, hours=hours)


@pytest.fixture
def rated(org):
    """Mia's 1:1s of the last nine days rated 5, 4, 4, 3, 2 by Rita, Pavel and Rosa
    (five from three); the test then reads on the Monday after they closed, once beat
    has counted them."""
    rosa = UserFactory(display_name="Rosa Three", manager=org.manager)
    for days, person, score, comment in [
        (1, org.rep, 5, COMMENT),
        (8, org.rep, 4, ""),
        (2, org.peer, 4, "Clear next steps"),
        (9, org.peer, 3, ""),
        (3, rosa, 2, "Felt rushed"),
    ]:
        rate(held(org.manager, person, ago=timedelta(days=days)), person, score, comment)
    with time_machine.travel(once_closed(), tick=False):
        release_usefulness()
        yield org


def test_the_manager_reads_her_average_spread_and_comments(client, rated):
    client.force_login(rated.manager)
    body = client.get("/team/").content.decode()
    assert "3.6</strong>" in body and "from 5 ratings by 3 people" in body
    assert COMMENT in body and "Clear next steps" in body and "Felt rushed" in body
    assert 'role="img" aria-label="How 5 ratings spread' in body
    data = client.get("/api/v1/dashboards/team/", **JSON).json()["coaching"]["usefulness"]
    assert datetime.fromisoformat(data.pop("counted_until")) == counted_until()
    assert data == {
        "weeks": 8,
        "ratings": 5,
        "raters": 3,
        "shown": True,
        "average": 3.6,
        "distribution": {"1": 0, "2": 1, "3": 1, "4": 2, "5": 1},
        "comments": ["Clear next steps", "Felt rushed", COMMENT],
    }


def test_the_people_above_read_the_numbers_never_a_comment(client, rated):
    client.force_login(rated.head)
    for path in (
        "/team/",
        f"/team/managers/{rated.manager.pk}/",
        "/api/v1/dashboards/team/",
        f"/api/v1/dashboards/team/{rated.manager.pk}/",
        "/api/v1/dashboards/managers/",
    ):
        body = client.get(path, **JSON).content.decode()
        assert "3.6" in body, path
        for words in (COMMENT, "Clear next steps", "Felt rushed"):
            assert words not in body, (path, words)
    row = client.get("/api/v1/dashboards/managers/", **JSON).json()["managers"][0]
    assert (row["manager"]["id"], row["usefulness"]["average"]) == (rated.manager.pk, 3.6)
    assert row["usefulness"]["comments"] == []
    monday = counted_until()  # the managers-below table says which Monday each row is to
    assert f"of 5, 5 ratings to {monday.day} {monday:%b}" in client.get("/team/").content.decode()


def test_below_the_threshold_nobody_reads_an_average(client, org):
    """Four ratings from three people: counted, but too few to show."""
    rosa = UserFactory(display_name="Rosa Three", manager=org.manager)
    for days, person in [(1, org.rep), (2, org.rep), (3, org.peer), (4, rosa)]:
        rate(held(org.manager, person, ago=timedelta(days=days)), person, 5, COMMENT)
    with time_machine.travel(once_closed(), tick=False):
        release_usefulness()
        client.force_login(org.manager)
        body = client.get("/team/").content.decode()
        data = client.get("/api/v1/dashboards/team/", **JSON).json()["coaching"]["usefulness"]
        client.force_login(org.head)
        above = client.get("/team/").content.decode()
    assert "Too few ratings to show" in body and COMMENT not in body
    assert (data["ratings"], data["shown"], data["average"], data["comments"]) == (
        4,
        False,
        None,
        [],
    )
    assert "too few ratings to show" in above


def test_one_persons_ratings_alone_are_never_counted(client, org):
    """Five ratings, all from Rita: her count never starts, so nothing shows — not
    even the counts."""
    for days in (1, 2, 3, 4, 5):
        rate(held(org.manager, org.rep, ago=timedelta(days=days)), org.rep, 5, COMMENT)
    with time_machine.travel(once_closed(), tick=False):
        release_usefulness()
        client.force_login(org.manager)
        body = client.get("/team/").content.decode()
        data = client.get("/api/v1/dashboards/team/", **JSON).json()["coaching"]["usefulness"]
    assert "Nothing counted yet" in body and COMMENT not in body
    assert (data["counted_until"], data["ratings"], data["shown"]) == (None, 0, False)


def test_the_count_moves_only_once_three_peoples_ratings_have_closed_since(client, org):
    """Week of 9 Nov: Rita, Pavel and Rosa rate five 1:1s — closed by 27 Nov, counted
    on Monday 30 Nov, shown; not before. Week of 30 Nov: Rita alone rates a 1, then
    changes it to a 2 — on Monday 21 Dec (closed by then) the count stays at 30 Nov, so
    the summary does not move (it would have by Rita's rating alone). Week of 7 Dec:
    Pavel and Rosa rate too, and Rosa takes another rating back — on Monday 28 Dec,
    once theirs have closed, three people's ratings have closed since 30 Nov and the
    count moves on with them (the one taken back never counted). Read right after each
    rating or change, nothing moves; a counted rating can no longer be changed."""
    rosa = UserFactory(display_name="Rosa Three", manager=org.manager)
    monday = datetime(2026, 11, 16, tzinfo=UTC)

    def usefulness():
        client.force_login(org.manager)  # signed in afresh: the weeks outlast a session
        return client.get("/api/v1/dashboards/team/", **JSON).json()["coaching"]["usefulness"]

    def rate_on(day, person, score, comment="", session=None):
        with time_machine.travel(day, tick=False):
            session = session or held(org.manager, person, ago=timedelta(hours=2))
            rate(session, person, score, comment)
            return session

    week1 = monday - timedelta(days=4)  # Thursday 12 Nov
    for hours, person, score in [(0, org.rep, 5), (2, org.rep, 4), (4, org.peer, 4)]:
        rate_on(week1 + timedelta(hours=10 + hours), person, score)
    rate_on(week1 + timedelta(days=1, hours=10), org.peer, 3)
    rate_on(week1 + timedelta(days=1, hours=12), rosa, 2, "Felt rushed")
    with time_machine.travel(monday + timedelta(weeks=1, hours=1), tick=False):
        assert release_usefulness() == 0  # Monday 23 Nov: rated, but still open
        assert usefulness()["counted_until"] is None
    with time_machine.travel(monday + timedelta(weeks=2, hours=1), tick=False):
        assert release_usefulness() == 1
        first = usefulness()
    assert datetime.fromisoformat(first["counted_until"]) == monday + timedelta(weeks=2)
    assert (first["ratings"], first["raters"], first["average"]) == (5, 3, 3.6)

    ritas = rate_on(monday + timedelta(weeks=2, days=2, hours=10), org.rep, 1, "Not useful")
    with time_machine.travel(monday + timedelta(weeks=2, days=2, hours=13), tick=False):
        assert usefulness() == first  # right after Rita's rating
    rate_on(monday + timedelta(weeks=2, days=3), org.rep, 2, "Not useful this time", ritas)
    with time_machine.travel(monday + timedelta(weeks=2, days=3, hours=1), tick=False):
        assert usefulness() == first  # right after she changed it
    with time_machine.travel(monday + timedelta(weeks=5, hours=1), tick=False):
        assert release_usefulness() == 0
        assert usefulness() == first  # Rita's alone closed since 30 Nov: nothing moves
        assert "Not useful this time" not in client.get("/team/").content.decode()

    rate_on(monday + timedelta(weeks=3, days=2, hours=10), org.peer, 4)
    rate_on(monday + timedelta(weeks=3, days=3, hours=10), rosa, 4)
    taken_back = rate_on(monday + timedelta(weeks=3, days=2, hours=12), rosa, 1, "Taken back")
    with time_machine.travel(monday + timedelta(weeks=3, days=3, hours=11), tick=False):
        session_rating_delete(session=taken_back, rater=rosa)
        assert usefulness() == first
    with time_machine.travel(monday + timedelta(weeks=6, seconds=-1), tick=False):
        assert release_usefulness() == 0  # Sunday 27 Dec 23:59:59 UTC: still 30 Nov
        assert usefulness() == first
    with time_machine.travel(monday + timedelta(weeks=6, minutes=2), tick=False):
        assert release_usefulness() == 1
        now = usefulness()
        body = client.get("/team/").content.decode()
        with pytest.raises(ValidationError, match="can no longer be rated or changed"):
            rate(ritas, org.rep, 5)  # counted, so closed: it stays a 2
    assert datetime.fromisoformat(now["counted_until"]) == monday + timedelta(weeks=6)
    assert (now["ratings"], now["raters"]) == (8, 3)
    assert now["average"] == pytest.approx((18 + 2 + 4 + 4) / 8)
    assert "Not useful this time" in body and "Taken back" not in body
    assert "in the 8 weeks to Monday 28 Dec" in body


def test_the_count_stops_at_the_same_moment_for_every_reader(client, rated):
    """Monday 00:00 UTC, whatever the reader's time zone: Mia in Auckland (already
    Monday afternoon) and her manager in Los Angeles (still Sunday evening) read the
    same five ratings."""
    rated.manager.time_zone, rated.head.time_zone = "Pacific/Auckland", "America/Los_Angeles"
    rated.manager.save(update_fields=["time_zone"])
    rated.head.save(update_fields=["time_zone"])
    path = f"/api/v1/dashboards/team/{rated.manager.pk}/"
    seen = {}
    for reader, url in ((rated.manager, "/api/v1/dashboards/team/"), (rated.head, path)):
        client.force_login(reader)
        seen[reader.time_zone] = client.get(url, **JSON).json()["coaching"]["usefulness"]
    assert {(u["ratings"], datetime.fromisoformat(u["counted_until"])) for u in seen.values()} == {
        (5, counted_until())
    }


@pytest.mark.parametrize(
    ("moment", "monday"),
    [
        ("2026-11-16T00:00:00+00:00", "2026-11-16T00:00:00+00:00"),  # Monday 00:00 itself
        ("2026-11-22T23:59:59+00:00", "2026-11-16T00:00:00+00:00"),  # Sunday, last second
        ("2026-11-23T00:30:00+01:00", "2026-11-16T00:00:00+00:00"),  # Monday in Berlin only
        ("2026-11-22T20:00:00-05:00", "2026-11-23T00:00:00+00:00"),  # Sunday in New York
        ("2027-01-01T12:00:00+00:00", "2026-12-28T00:00:00+00:00"),  # across the year
    ],
)
def test_counted_until_is_the_monday_at_midnight_utc_on_or_before(moment, monday):
    assert counted_until(datetime.fromisoformat(moment)) == datetime.fromisoformat(monday)
    assert counted_until(datetime.fromisoformat(moment)).tzinfo == UTC
    assert timezone.is_aware(counted_until())


def test_every_window_reads_the_same_eight_weeks(client, rated):
    """The window chosen on the page does not change usefulness: two summaries ending
    at the same Monday over 4 and 8 weeks could be subtracted, and the weeks between
    — shown with no threshold of their own — be one person's ratings. Two 1:1s of
    five weeks ago, rated 1: a four-week summary would leave them out."""
    with time_machine.travel(timezone.now() - timedelta(weeks=5), tick=False):
        for person in (rated.rep, rated.peer):
            rate(held(rated.manager, person, ago=timedelta(days=1)), person, 1)
    client.force_login(rated.manager)
    seen = set()
    for weeks in (4, 8, 13, 26):
        data = client.get(f"/api/v1/dashboards/team/?weeks={weeks}", **JSON).json()
        assert data["window"]["weeks"] == weeks
        u = data["coaching"]["usefulness"]
        seen.add((u["weeks"], u["ratings"], u["raters"], u["average"]))
        body = client.get(f"/team/?weeks={weeks}").content.decode()
        assert "from 7 ratings by 3 people" in body and "in the 8 weeks to Monday" in body
    assert seen == {(8, 7, 3, 20 / 7)}
