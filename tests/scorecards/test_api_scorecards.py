"""Scorecards through the API, read only: each person sees exactly what the reveal
rule shows them (the subject, the raters of the round once done, the subject's chain),
everyone else nothing — HR and programme admins included; filters by subject and
round; the list costs the same queries whatever its length."""

import pytest

from scorecards import services
from tests.support.factories import RecordedCallFactory, UserFactory
from tests.support.scorecards_api import client_for, ids, queries, team_review

from .conftest import submit

pytestmark = pytest.mark.django_db

URL = "/api/v1/scorecards/"


@pytest.fixture
def world(org, template, call):
    """Both rounds on the rep's call, every rater done: a coach round and a team review
    the peer joined. `outside_peer` is a colleague of the rep in neither."""
    org.outside_peer = UserFactory(display_name="Ola Outside", manager=org.manager)
    org.team_peer = org.peer
    coach = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    review = team_review(org, template, call, participants=[org.peer])
    cards = {
        "coach/manager": submit(org.manager, coach, [3, 2, 3], keep="Pause after the price"),
        "coach/rep": submit(org.rep, coach, [4, 2, 2]),
        "review/manager": submit(org.manager, review, [2, 2, 2]),
        "review/peer": submit(org.peer, review, [3, 3, 3]),
        "review/rep": submit(org.rep, review, [4, 3, 2]),
    }
    org.cards = cards
    return org


EVERY_CARD = {"coach/manager", "coach/rep", "review/manager", "review/peer", "review/rep"}
# who → the scorecards they see
MATRIX = [
    ("rep", EVERY_CARD),  # the subject, done in both rounds
    ("manager", EVERY_CARD),  # the coach, and the rep's manager
    ("head", EVERY_CARD),  # the coach's manager: the subject's chain
    ("team_peer", {"review/manager", "review/peer", "review/rep"}),
    ("outside_peer", set()),
    ("other_manager", set()),
    ("other_rep", set()),
    ("hr", set()),
    ("admin", set()),
]


@pytest.mark.parametrize(("who", "sees"), MATRIX)
def test_each_person_sees_exactly_the_scorecards_the_reveal_rule_shows_them(world, who, sees):
    client = client_for(getattr(world, who))
    expected = {world.cards[name].pk for name in sees}
    assert set(ids(client.get(URL))) == expected
    for name, card in world.cards.items():
        assert client.get(f"{URL}{card.pk}/").status_code == (200 if name in sees else 404)


def test_anonymous_callers_get_401(world):
    assert client_for().get(URL).status_code == 401
    assert client_for().get(f"{URL}{world.cards['coach/rep'].pk}/").status_code == 401


def test_a_scorecard_carries_its_scores_and_what_it_was_scored_against(world):
    card = world.cards["coach/manager"]
    body = client_for(world.rep).get(f"{URL}{card.pk}/").json()
    assert body["rater"]["id"] == world.manager.pk and body["rater_role"] == "coach"
    assert body["subject"]["id"] == world.rep.pk and body["context"] == "coach"
    assert body["template"]["name"] == "Discovery call" and body["version"] == 1
    assert body["keep"] == "Pause after the price" and body["submitted_at"]
    assert [(s["title"], s["rating"]) for s in body["scores"]] == [
        ("Open questions", 3),
        ("Next step", 2),
        ("Listening", 3),
    ]
    assert body["scores"][0]["lineage"] != body["scores"][1]["lineage"]


def test_scorecards_are_only_read_here(world):
    client = client_for(world.manager)
    card = world.cards["coach/manager"]
    assert client.post(URL, {}, format="json").status_code == 405
    assert client.patch(f"{URL}{card.pk}/", {"keep": "x"}, format="json").status_code == 405
    assert client.delete(f"{URL}{card.pk}/").status_code == 405


def test_the_list_filters_by_subject_and_round(world, template):
    client = client_for(world.head)
    coach_round = world.cards["coach/rep"].round_id
    assert set(ids(client.get(URL, {"round": coach_round}))) == {
        world.cards["coach/manager"].pk,
        world.cards["coach/rep"].pk,
    }
    peer_call = RecordedCallFactory(person=world.peer)
    own = services.self_assessment_open(actor=world.peer, work=peer_call, template=template)
    peer_card = submit(world.peer, own, [1, 1, 1])
    assert ids(client.get(URL, {"subject": world.peer.pk})) == [peer_card.pk]
    assert len(ids(client.get(URL, {"subject": world.rep.pk}))) == 5
    for bad in ({"round": "abc"}, {"subject": 0}, {"round": 10**30}):
        response = client.get(URL, bad)
        assert response.status_code == 400 and set(bad) <= set(response.json())


def test_the_list_costs_the_same_queries_whatever_its_length(world, template):
    client = client_for(world.head)
    # session, user, how many people are below (the list's shape: visible_for_lists),
    # count, the page's ids, its rows (rater, subject, version, template joined), scores
    few = queries(client, URL)
    assert few == 7
    for person in (world.rep, world.peer, world.outside_peer):
        for _ in range(3):
            work = RecordedCallFactory(person=person)
            scoring = services.coach_scoring_open(actor=world.head, work=work, template=template)
            submit(world.head, scoring, [1, 2, 3])
    assert queries(client, URL) == few
