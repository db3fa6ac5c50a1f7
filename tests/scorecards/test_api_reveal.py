"""The reveal rule through every route that could show scores — the round detail,
the scorecards list and detail, skill trends: self-assessment first (the subject sees
nothing of a coach's scores until they submit or decline, then both side by side with
the gap), a calibration blind until closed, the manager last in a team review, HR and
programme admins never."""

import pytest

from scorecards import services
from tests.support.factories import UserFactory
from tests.support.scorecards_api import client_for, ids, scores_body, team_review

from .conftest import submit

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/scoring-rounds/"
CARDS = "/api/v1/scorecards/"
TRENDS = "/api/v1/skill-trends/"


def round_detail(person, scoring) -> dict:
    pk = getattr(scoring, "pk", scoring)
    response = client_for(person).get(f"{ROUNDS}{pk}/")
    assert response.status_code == 200, response.content
    return response.json()


def cards_seen(person, scoring=None) -> set[int]:
    params = {"round": scoring.pk} if scoring else {}
    return set(ids(client_for(person).get(CARDS, params)))


def card_status(person, card) -> int:
    return client_for(person).get(f"{CARDS}{card.pk}/").status_code


def trend_points(viewer, subject) -> dict[str, list[tuple]]:
    """Criterion title → [(others, self_assessment, gap)] per month."""
    response = client_for(viewer).get(TRENDS, {"person": subject.pk})
    assert response.status_code == 200, response.content
    return {
        t["title"]: [(p["others"], p["self_assessment"], p["gap"]) for p in t["points"]]
        for t in response.json()["trends"]
    }


def ratings(detail) -> list[dict]:
    """Per criterion: rater id → rating, as shown."""
    return [{r["rater"]: r["rating"] for r in row["ratings"]} for row in detail["rows"]]


@pytest.fixture
def coach_round(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    scoring.coach_card = submit(org.manager, scoring, [3, 2, 3], keep="Your pause at 04:10")
    return scoring


# --- Self-assessment first ------------------------------------------------------------------


def test_the_subject_sees_nothing_of_the_coach_scores_on_any_route_before_scoring(org, coach_round):
    coach_card = coach_round.coach_card
    detail = round_detail(org.rep, coach_round)
    assert detail["scorecards"] == [] and detail["alpha"] is None
    assert ratings(detail) == [{}, {}, {}]
    assert [row["agreement"] for row in detail["rows"]] == [None, None, None]
    assert [row["gap"] for row in detail["rows"]] == [None, None, None]
    assert [(r["role"], r["state"], r["scorecard"]) for r in detail["raters"]] == [
        ("coach", "hidden", None),
        ("subject", "waiting", None),
    ]
    assert detail["hidden_until_i_score"] and detail["waiting_on_me"]
    assert "Your pause" not in str(detail)
    assert cards_seen(org.rep) == set()
    assert card_status(org.rep, coach_card) == 404
    assert trend_points(org.rep, org.rep) == {}


def test_a_draft_of_the_subject_reveals_nothing_either(org, coach_round):
    client_for(org.rep).put(
        f"{ROUNDS}{coach_round.pk}/scorecard/",
        scores_body(coach_round, [4, 2, None]),
        format="json",
    )
    detail = round_detail(org.rep, coach_round)
    assert detail["scorecards"] == [] and detail["mine"]["submitted_at"] is None
    assert detail["raters"][0]["state"] == "hidden"
    assert cards_seen(org.rep) == {detail["mine"]["id"]}  # only the draft
    assert card_status(org.rep, coach_round.coach_card) == 404
    assert trend_points(org.rep, org.rep) == {}


def test_once_the_subject_submits_both_are_side_by_side_with_the_gap(org, coach_round):
    submitted = client_for(org.rep).put(
        f"{ROUNDS}{coach_round.pk}/scorecard/",
        scores_body(coach_round, [4, 2, 2], submit=True),
        format="json",
    )
    assert submitted.status_code == 200
    detail = submitted.json()
    assert ratings(detail) == [
        {org.manager.pk: 3, org.rep.pk: 4},
        {org.manager.pk: 2, org.rep.pk: 2},
        {org.manager.pk: 3, org.rep.pk: 2},
    ]
    assert [row["gap"] for row in detail["rows"]] == [1, 0, -1]  # self minus coach
    assert detail["rows"][0]["agreement"] == {
        "median": 3.5,
        "low": 3,
        "high": 4,
        "spread": 1,
        "within_one": 1.0,
        "outliers": [],
    }
    assert detail["alpha"] is not None and not detail["hidden_until_i_score"]
    assert {c["rater"]["id"] for c in detail["scorecards"]} == {org.manager.pk, org.rep.pk}
    coach = next(c for c in detail["scorecards"] if c["rater"]["id"] == org.manager.pk)
    assert coach["keep"] == "Your pause at 04:10"
    assert [r["state"] for r in detail["raters"]] == ["submitted", "submitted"]
    assert cards_seen(org.rep) == {coach_round.coach_card.pk, detail["mine"]["id"]}
    assert card_status(org.rep, coach_round.coach_card) == 200
    points = trend_points(org.rep, org.rep)
    assert points["Open questions"] == [(3.0, 4.0, 1.0)]
    assert points["Listening"] == [(3.0, 2.0, -1.0)]


def test_declining_shows_the_subject_the_coach_scores_without_a_gap(org, coach_round):
    declined = client_for(org.rep).post(f"{ROUNDS}{coach_round.pk}/decline/")
    assert declined.status_code == 200
    detail = declined.json()
    assert ratings(detail) == [{org.manager.pk: 3}, {org.manager.pk: 2}, {org.manager.pk: 3}]
    assert [row["gap"] for row in detail["rows"]] == [None, None, None]
    assert card_status(org.rep, coach_round.coach_card) == 200
    assert trend_points(org.rep, org.rep)["Open questions"] == [(3.0, None, None)]


def test_the_chain_sees_the_coach_scores_once_the_scoring_is_over_outsiders_never(org, coach_round):
    # The rep has not scored yet: the head above the coach waits too.
    detail = round_detail(org.head, coach_round)
    assert cards_seen(org.head) == set() and ratings(detail)[0] == {}
    assert detail["hidden_until_everyone_scored"] and not detail["hidden_until_i_score"]
    assert "Your pause" not in str(detail)
    assert trend_points(org.head, org.rep) == {}
    submit(org.rep, coach_round, [4, 2, 2])
    assert coach_round.coach_card.pk in cards_seen(org.head)
    detail = round_detail(org.head, coach_round)
    assert ratings(detail)[0] == {org.manager.pk: 3, org.rep.pk: 4}
    assert not detail["hidden_until_everyone_scored"]
    assert trend_points(org.head, org.rep)["Open questions"] == [(3.0, 4.0, 1.0)]
    for who in ("hr", "admin", "other_manager", "other_rep", "peer"):
        person = getattr(org, who)
        assert cards_seen(person) == set(), who
        assert card_status(person, coach_round.coach_card) == 404, who
        assert client_for(person).get(TRENDS, {"person": org.rep.pk}).status_code == 404


# --- Team review: the manager last ----------------------------------------------------------


def test_a_team_review_reveals_the_manager_last_on_every_route(org, template, call):
    scoring = team_review(org, template, call, participants=[org.peer])
    manager_card = submit(org.manager, scoring, [1, 1, 1])
    peer_card = submit(org.peer, scoring, [3, 3, 3])
    # The peer scored, but the presenter has not: the manager's card waits.
    detail = round_detail(org.peer, scoring)
    assert {c["rater"]["id"] for c in detail["scorecards"]} == {org.peer.pk}
    assert [(r["role"], r["state"]) for r in detail["raters"]] == [
        ("subject", "waiting"),
        ("manager", "hidden"),
        ("participant", "submitted"),
    ]
    assert cards_seen(org.peer) == {peer_card.pk}
    assert card_status(org.peer, manager_card) == 404
    # The presenter sees nothing before scoring …
    assert cards_seen(org.rep) == set() and trend_points(org.rep, org.rep) == {}
    rep_card = submit(org.rep, scoring, [2, 2, 2])
    # … and then everything, the manager's scores included: nobody else is pending.
    for person in (org.peer, org.rep):
        detail = round_detail(person, scoring)
        assert ratings(detail)[0] == {org.rep.pk: 2, org.manager.pk: 1, org.peer.pk: 3}
        assert cards_seen(person) == {manager_card.pk, peer_card.pk, rep_card.pk}
        assert card_status(person, manager_card) == 200
    assert trend_points(org.rep, org.rep)["Open questions"] == [(2.0, 2.0, 0.0)]


def test_the_manager_stays_hidden_from_a_done_rater_while_someone_is_pending(org, template, call):
    late = UserFactory(display_name="Lee Late", manager=org.manager)
    scoring = team_review(org, template, call, participants=[org.peer, late])
    manager_card = submit(org.manager, scoring, [1, 1, 1])
    submit(org.peer, scoring, [3, 3, 3])
    submit(org.rep, scoring, [2, 2, 2])
    assert card_status(org.rep, manager_card) == 404
    assert org.manager.pk not in ratings(round_detail(org.rep, scoring))[0]
    # The rep's own trend: the peer's scores count, the manager's do not yet.
    assert trend_points(org.rep, org.rep)["Open questions"] == [(3.0, 2.0, -1.0)]
    closed = client_for(org.manager).post(f"{ROUNDS}{scoring.pk}/close/")
    assert closed.status_code == 200
    assert card_status(org.rep, manager_card) == 200
    assert trend_points(org.rep, org.rep)["Open questions"] == [(2.0, 2.0, 0.0)]


# --- Calibration: blind until closed --------------------------------------------------------


def test_a_calibration_is_blind_until_closed_and_never_shown_to_the_subject(org, template, call):
    third = UserFactory(display_name="Tia Third", manager=org.head)
    opened = client_for(org.head).post(
        ROUNDS,
        {
            "context": "calibration",
            "work": call.pk,
            "template": template.pk,
            "raters": [org.manager.pk, org.other_manager.pk, third.pk],
            "title": "Q3 discovery calibration",
        },
        format="json",
    )
    assert opened.status_code == 201, opened.json()
    pk = opened.json()["id"]
    for person, ratings_given in ((org.manager, [3, 3, 3]), (org.other_manager, [2, 3, 4])):
        saved = client_for(person).put(
            f"{ROUNDS}{pk}/scorecard/",
            {"scores": _scores(opened.json(), ratings_given), "submit": True},
            format="json",
        )
        assert saved.status_code == 200, saved.json()
        # Scored, and still blind: only their own.
        assert [c["rater"]["id"] for c in saved.json()["scorecards"]] == [person.pk]
    assert len(cards_seen(org.other_manager)) == 1
    assert round_detail(org.head, pk)["scorecards"] == []
    assert cards_seen(org.head) == set()  # the organiser waits for the close too
    closed = client_for(org.head).post(f"{ROUNDS}{pk}/close/")
    assert closed.status_code == 200
    raters = {org.manager.pk, org.other_manager.pk}
    assert {c["rater"]["id"] for c in closed.json()["scorecards"]} == raters
    assert closed.json()["rows"][2]["agreement"]["spread"] == 1
    for person in (org.other_manager, third):  # third never scored, learns all the same
        shown = round_detail(person, pk)["scorecards"]
        assert {c["rater"]["id"] for c in shown} == raters
        assert len(cards_seen(person)) == 2
    # The rep whose call it is sees no calibration; their trend leaves it out, even
    # for the organiser (who may see it, and is the rep's skip-level manager).
    assert client_for(org.rep).get(f"{ROUNDS}{pk}/").status_code == 404
    assert cards_seen(org.rep) == set()
    assert trend_points(org.rep, org.rep) == {}
    assert trend_points(org.head, org.rep) == {}


def _scores(detail, ratings_given):
    return [
        {"criterion": c["id"], "rating": r}
        for c, r in zip(detail["version"]["criteria"], ratings_given, strict=True)
    ]
