"""Every number on Rita's "My coaching" — the page and the API — equals a count made
by hand from the fixed data set in tests/support/dashboards_team.py: her goal and open commitments,
her skill trend on the focus area as she may see it, the themes of the developmental
feedback she received, what waits on her, her next session with its prepare link,
and the sessions she can still rate."""

import pytest

from tests.support.dashboards_team import api, page, squash, world  # noqa: F401 - `world` is a fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def html(client, world):  # noqa: F811
    client.force_login(world.org.rep)
    return page(client, "/me/")


@pytest.fixture
def data(client, world):  # noqa: F811
    client.force_login(world.org.rep)
    return api(client, "/api/v1/dashboards/growth/")


def test_her_goal_and_open_commitments(html, data, world):  # noqa: F811
    text = squash(html)
    assert "Ask before telling" in text
    assert "My open commitments 2 " in text  # c2 (overdue) and c4; c1 is done
    assert [g["title"] for g in data["goals"]] == ["Ask before telling"]
    assert [(c["id"], c["overdue"]) for c in data["commitments"]] == [
        (world.c2.pk, True),
        (world.c4.pk, False),
    ]


def test_her_skill_trend_counts_only_the_scores_she_may_see(html, data):
    # Rita has not scored the February call herself, so Mia's February scores stay
    # hidden from her (the reveal rule): January 1.5 / 3, March 3 / 3.5.
    skill = data["skill"]
    assert skill["focus_area"]["name"] == "Ask first"
    assert [(m["month"], m["others"], m["self"], m["gap"]) for m in skill["months"]][3:] == [
        ("2026-01-01", 1.5, 3.0, 1.5),
        ("2026-02-01", None, None, None),
        ("2026-03-01", 3.0, 3.5, 0.5),
    ]
    assert (skill["latest"], skill["gap"]) == (3.0, 0.5)
    text = squash(html)
    assert (
        "latest from coaches and peers 3 of 4; in March your own average was 0.5 higher "
        "than theirs." in text
    )
    assert "Jan 2026 1.5 3 +1.5" in text and "Mar 2026 3 3.5 +0.5" in text
    assert "1 call waiting for your scores" in text  # the February call
    assert 'role="img"' in html and "<title>Ask first: monthly average" in html


def test_themes_count_her_developmental_feedback_recent_and_earlier(html, data):
    # 8 March (listening, discovery) is recent; 8 December (listening) is earlier;
    # the evaluative item's "pricing" and Pavel's "closing" are not hers to count here.
    assert data["recent_days"] == 90
    assert data["themes"] == [
        {"theme": "listening", "recent": 1, "earlier": 1, "total": 2},
        {"theme": "discovery", "recent": 1, "earlier": 0, "total": 1},
    ]
    text = squash(html)
    assert "listening 1 1 2" in text and "discovery 1 0 1" in text
    assert "pricing" not in text and "closing" not in text


def test_requests_waiting_on_her(html, data):
    assert data["inbox"]["count"] == 1
    assert [w["requester"]["display_name"] for w in data["inbox"]["waiting"]] == ["Pavel Peer"]
    assert "Requests waiting on me 1 " in squash(html)


def test_her_next_session_comes_with_its_prepare_link(html, data, world):  # noqa: F811
    assert data["next_session"]["id"] == world.s8.pk
    assert data["next_to_prepare"]["id"] == world.s8.pk
    assert f'href="/sessions/{world.s8.pk}/prepare/"' in html
    assert "Thursday 19 Mar, 11:00" in squash(html)  # 10:00 UTC in Berlin


def test_she_is_asked_to_rate_her_last_1_1(html, data, world):  # noqa: F811
    # s4 (16 March) and s3 (10 March) were held in the last 14 days and not rated.
    assert [s["id"] for s in data["to_rate"]] == [world.s4.pk, world.s3.pk]
    assert data["to_rate"][0]["coach_name"] == "Mia Manager"
    text = squash(html)
    assert "How useful was your 1:1 with Mia Manager on 16 Mar?" in text
    assert f'href="/sessions/{world.s4.pk}/#rating">Rate your last 1:1</a>' in html
    assert "(2 sessions to rate)" in text
