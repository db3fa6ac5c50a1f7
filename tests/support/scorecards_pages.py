"""Helpers for the scorecard page tests (tests/scorecards/test_pages_*.py): the body a
scorecard form posts, a team call review, reading a page, counting its queries."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.services import team_call_review_create
from people.services_teams import team_create, team_member_add
from tests.scorecards.conftest import criteria_of

# Words a rater writes; a page that must not show someone's scorecard must not show these.
COACH_WORDS = {
    "keep": "COACHKEEP the agenda slide at the start",
    "try_next": "COACHTRY a pause after naming the price",
    "evidence": "COACHEVIDENCE pitched at minute four",
}
REP_WORDS = {
    "keep": "REPKEEP my three open questions",
    "try_next": "REPTRY asking for the next meeting",
    "evidence": "REPEVIDENCE asked about the budget",
}


def round_url(scoring, action: str = "") -> str:
    return f"/scorecards/rounds/{scoring.pk}/" + (f"{action}/" if action else "")


def scorecard_body(scoring, ratings, *, action: str = "submit", words=None, moment="04:10"):
    """What the round page's form posts: one rating per criterion in order (None or
    "" leaves it unrated); `words` fill keep/try_next and the first criterion's
    evidence."""
    words = words or {}
    data = {"action": action, "keep": words.get("keep", ""), "try_next": words.get("try_next", "")}
    for n, (criterion, rating) in enumerate(zip(criteria_of(scoring), ratings, strict=True)):
        data[f"rating_{criterion.pk}"] = "" if rating is None else str(rating)
        data[f"moment_{criterion.pk}"] = moment if n == 0 and words else ""
        data[f"evidence_{criterion.pk}"] = words.get("evidence", "") if n == 0 else ""
    return data


def text_of(client, path: str, status: int = 200) -> str:
    response = client.get(path)
    assert response.status_code == status, (path, response.status_code)
    return response.content.decode()


def assert_no_words(page: str, words: dict, where: str = "") -> None:
    for text in words.values():
        assert text not in page, (where, text)


def queries_for(client, path: str) -> list[str]:
    """The SQL one GET of `path` runs (after a warm-up request, so session and
    per-process caches do not count)."""
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200, path
    return [q["sql"] for q in captured]


def team_review(org, *, extra_members=(), presenter=None, team_name="Enterprise East"):
    """A team call review of the manager's team (rep presents; peer and any
    `extra_members` take part; the manager leads), planned for tomorrow."""
    team = team_create(name=team_name, lead=org.manager)
    for person in (org.rep, org.peer, *extra_members):
        team_member_add(team=team, person=person)
    return team_call_review_create(
        actor=org.manager,
        team=team,
        start=timezone.now() + timedelta(days=1),
        presenter=presenter or org.rep,
        call_url="https://calls.example.com/recordings/9",
        call_title="Discovery with Northwind",
        call_date=timezone.localdate() - timedelta(days=1),
        call_timestamps="04:10 first pricing question",
    )
