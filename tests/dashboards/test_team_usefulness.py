"""Session usefulness on the team dashboards (coaching/ratings.py decides what may
show): a manager reads their own average, spread and comments once five ratings
from three people are counted; the people above them read the numbers only — on the
manager's page from above, in the managers-below table, in the API — never a
comment; below the threshold everyone reads "too few ratings to show". Ratings are
counted a week at a time: what was given this week shows from next Monday, 00:00
UTC, whoever reads and in whatever time zone."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from coaching.ratings import counted_until
from tests.coaching.ratings_support import held, rate
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
COMMENT = "ZQUSEFULCOMMENT the role-play clicked"


def next_monday(hours=9):
    """`hours` past the coming Monday's 00:00 UTC, when this week's ratings count."""
    return counted_until() + timedelta(weeks=1, hours=hours)


@pytest.fixture
def rated(org):
    """Mia's 1:1s rated 5, 4, 4, 3, 2 by Rita, Pavel and Rosa (five from three); the
    test then reads on the Monday after, when they count."""
    rosa = UserFactory(display_name="Rosa Three", manager=org.manager)
    for days, person, score, comment in [
        (1, org.rep, 5, COMMENT),
        (8, org.rep, 4, ""),
        (2, org.peer, 4, "Clear next steps"),
        (9, org.peer, 3, ""),
        (3, rosa, 2, "Felt rushed"),
    ]:
        rate(held(org.manager, person, ago=timedelta(days=days)), person, score, comment)
    with time_machine.travel(next_monday(), tick=False):
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


def test_below_the_threshold_nobody_reads_an_average(client, org):
    for days in (1, 2, 3, 4, 5):  # five ratings, but all from Rita
        rate(held(org.manager, org.rep, ago=timedelta(days=days)), org.rep, 5, COMMENT)
    with time_machine.travel(next_monday(), tick=False):
        client.force_login(org.manager)
        body = client.get("/team/").content.decode()
        data = client.get("/api/v1/dashboards/team/", **JSON).json()["coaching"]["usefulness"]
        client.force_login(org.head)
        above = client.get("/team/").content.decode()
    assert "Too few ratings to show" in body and COMMENT not in body
    assert (data["ratings"], data["shown"], data["average"], data["comments"]) == (
        5,
        False,
        None,
        [],
    )
    assert "too few ratings to show" in above


def test_a_rating_given_this_week_counts_from_next_monday_with_the_weeks_others(client, org):
    """Four ratings counted last week (too few); Rosa's 1:1 on the Friday before, and
    her rating of it, the fifth from a third person, given on Tuesday: the summary
    does not move that week — read again after she rated it is still "too few" — and
    shows all five on Monday at 00:00 UTC, not before. (A session of this week is not
    counted this week either: it started after the Monday.)"""
    rosa = UserFactory(display_name="Rosa Three", manager=org.manager)
    monday = counted_until(datetime(2026, 11, 9, 12, tzinfo=UTC))
    with time_machine.travel(monday - timedelta(days=2, hours=6), tick=False):  # Friday
        for days, person, score in [(1, org.rep, 5), (2, org.rep, 4), (3, org.peer, 4)]:
            rate(held(org.manager, person, ago=timedelta(days=days)), person, score)
        rate(held(org.manager, org.peer, ago=timedelta(days=4)), org.peer, 3)
        rosas = held(org.manager, rosa, ago=timedelta(hours=2))
    client.force_login(org.manager)

    def usefulness():
        return client.get("/api/v1/dashboards/team/", **JSON).json()["coaching"]["usefulness"]

    with time_machine.travel(monday + timedelta(days=1, hours=10), tick=False):  # Tuesday
        assert (usefulness()["ratings"], usefulness()["shown"]) == (4, False)
        rate(rosas, rosa, 2, "Felt rushed")
        after = usefulness()
        assert (after["ratings"], after["raters"], after["shown"]) == (4, 2, False)
        assert "Felt rushed" not in client.get("/team/").content.decode()
    with time_machine.travel(monday + timedelta(weeks=1, seconds=-1), tick=False):
        assert usefulness()["ratings"] == 4  # Sunday 23:59:59 UTC
    with time_machine.travel(monday + timedelta(weeks=1), tick=False):
        now = usefulness()
        assert (now["ratings"], now["raters"], now["shown"], now["average"]) == (5, 3, True, 3.6)
        assert datetime.fromisoformat(now["counted_until"]) == datetime(2026, 11, 16, tzinfo=UTC)
        body = client.get("/team/").content.decode()
        assert "Felt rushed" in body and "in the 8 weeks to Monday 16 Nov" in body


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
