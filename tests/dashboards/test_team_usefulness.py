"""Session usefulness on the team dashboards (coaching/ratings.py decides what may
show): a manager reads their own average, spread and comments once five ratings
from three people are in the window; the people above them read the numbers only —
on the manager's page from above, in the managers-below table, in the API — never a
comment; below the threshold everyone reads "too few ratings to show"."""

from datetime import timedelta

import pytest

from tests.coaching.ratings_support import held, rate
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
COMMENT = "ZQUSEFULCOMMENT the role-play clicked"


@pytest.fixture
def rated(org):
    """Mia's 1:1s rated 5, 4, 4, 3, 2 by Rita, Pavel and Rosa (five from three)."""
    rosa = UserFactory(display_name="Rosa Three", manager=org.manager)
    for days, person, score, comment in [
        (1, org.rep, 5, COMMENT),
        (8, org.rep, 4, ""),
        (2, org.peer, 4, "Clear next steps"),
        (9, org.peer, 3, ""),
        (3, rosa, 2, "Felt rushed"),
    ]:
        rate(held(org.manager, person, ago=timedelta(days=days)), person, score, comment)
    return org


def test_the_manager_reads_her_average_spread_and_comments(client, rated):
    client.force_login(rated.manager)
    body = client.get("/team/").content.decode()
    assert "3.6</strong>" in body and "from 5 ratings by 3 people" in body
    assert COMMENT in body and "Clear next steps" in body and "Felt rushed" in body
    assert 'role="img" aria-label="How 5 ratings spread' in body
    data = client.get("/api/v1/dashboards/team/", **JSON).json()["coaching"]["usefulness"]
    assert data == {
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
    client.force_login(org.manager)
    body = client.get("/team/").content.decode()
    assert "Too few ratings to show" in body and COMMENT not in body
    usefulness = client.get("/api/v1/dashboards/team/", **JSON).json()["coaching"]["usefulness"]
    assert (usefulness["shown"], usefulness["average"], usefulness["comments"]) == (
        False,
        None,
        [],
    )
    client.force_login(org.head)
    assert "too few ratings to show" in client.get("/team/").content.decode()
