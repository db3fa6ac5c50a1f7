"""Blind both ways, whoever you are (issue 56): in a coach round neither the rep nor
the coach sees the other's scores or words before scoring, and nobody else in the
management chain — the coach's manager, the head above, someone there with the HR or
programme admin role — sees any while the round is open and someone still scores:
they see who has scored, not what. Once every rater has submitted or declined, or
the round is closed, the chain sees it all as before. HR and programme admins outside
the chain never see it. Checked on every route: the round page and the API's round,
scorecards list and detail, the skill trends (API and person page), the team
distribution and the data download."""

import json

import pytest

from people.services_teams import team_create, team_member_add
from scorecards import selectors, services
from scorecards.models import Scorecard
from tests.support.factories import FocusAreaFactory, UserFactory
from tests.support.scorecards_api import client_for, queries
from tests.support.scorecards_pages import COACH_WORDS, REP_WORDS, round_url, scorecard_body

from .conftest import submit

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/scoring-rounds/"
CARDS = "/api/v1/scorecards/"
TRENDS = "/api/v1/skill-trends/"


def scored(person, scoring, ratings, words):
    """Submit through the round page, words and evidence included."""
    client = client_for(person)
    response = client.post(
        round_url(scoring, "scorecard"), scorecard_body(scoring, ratings, words=words)
    )
    assert response.status_code in (200, 302), response.status_code
    return Scorecard.objects.get(round=scoring, rater=person, submitted_at__isnull=False)


def seen(person, scoring) -> dict:
    """What `person` can learn of the round's scores, route by route: whose scorecards
    (by role: "coach", "rep"), whether either one's words show, the flags."""
    client = client_for(person)
    roles = {scoring.created_by_id: "coach", scoring.work.person_id: "rep"}
    found = {}
    detail = client.get(f"{ROUNDS}{scoring.pk}/")
    page = client.get(round_url(scoring))
    found["status"] = (detail.status_code, page.status_code)
    body = json.dumps(detail.json()) + page.content.decode()
    if detail.status_code == 200:
        data = detail.json()
        found["api_round"] = {roles[c["rater"]["id"]] for c in data["scorecards"]}
        found["ratings"] = {roles[r["rater"]] for row in data["rows"] for r in row["ratings"]}
        found["flags"] = (data["hidden_until_i_score"], data["hidden_until_everyone_scored"])
        found["states"] = [line["state"] for line in data["raters"]]
    listed = client.get(CARDS).json()["results"]
    found["api_list"] = {roles[c["rater"]["id"]] for c in listed if c["round"] == scoring.pk}
    found["api_detail"] = {
        role
        for card in Scorecard.objects.filter(round=scoring)
        for role in [roles[card.rater_id]]
        if client.get(f"{CARDS}{card.pk}/").status_code == 200
    }
    found["words"] = {
        who for who, words in (("coach", COACH_WORDS), ("rep", REP_WORDS))
        if any(w in body for w in words.values())
    }  # fmt: skip
    trend = client.get(TRENDS, {"person": scoring.work.person_id})
    found["trend"] = (
        None
        if trend.status_code == 404
        else {
            ("others" if p["others"] is not None else "")
            + ("self" if p["self_assessment"] is not None else "")
            for t in trend.json()["trends"]
            for p in t["points"]
        }
    )
    skills = client.get(f"/people/{scoring.work.person_id}/skills/", follow=True)
    found["skills_page"] = (
        None if skills.status_code == 404 else "Open questions" in skills.content.decode()
    )
    return found


def sees_nothing(found) -> bool:
    return (
        found.get("api_round", set()) | found.get("ratings", set()) | found["api_list"]
        | found["api_detail"] | found["words"]
    ) <= set() and not found["trend"] and not found["skills_page"]  # fmt: skip


def sees(found, *who) -> bool:
    who = set(who)
    return (
        found["api_round"] == found["ratings"] == found["api_list"] == found["api_detail"]
        == found["words"] == who
    ) and found["skills_page"]  # fmt: skip


@pytest.fixture
def chain(org, template, call):
    """The coach round on the rep's call: Mia (manager) coaches Rita (rep); Hana (head)
    is the coach's manager."""
    org.scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    return org


def test_the_rep_scores_first_the_coach_is_blind_and_so_is_everyone_above(chain):
    org, scoring = chain, chain.scoring
    for person in (org.rep, org.manager, org.head):
        assert sees_nothing(seen(person, scoring)), person
    scored(org.rep, scoring, [4, 2, 2], REP_WORDS)

    rep = seen(org.rep, scoring)
    assert sees(rep, "rep") and rep["trend"] == {"self"}
    coach = seen(org.manager, scoring)
    assert sees_nothing(coach) and coach["flags"] == (True, False)
    assert coach["states"] == ["waiting", "hidden"]  # who has scored, not what
    assert (
        "Rita Rep has scored this call."
        in client_for(org.manager).get(round_url(scoring)).content.decode()
    )
    head = seen(org.head, scoring)
    assert sees_nothing(head) and head["flags"] == (False, True)
    assert head["states"] == ["waiting", "hidden"]
    assert (
        "Blind until everyone has scored."
        in client_for(org.head).get(round_url(scoring)).content.decode()
    )
    for outsider in (org.hr, org.admin, org.other_manager, org.peer):
        found = seen(outsider, scoring)
        assert found["status"] == (404, 404) and sees_nothing(found), outsider

    scored(org.manager, scoring, [3, 2, 3], COACH_WORDS)
    for person in (org.rep, org.manager, org.head):
        found = seen(person, scoring)
        assert sees(found, "coach", "rep") and found["flags"] == (False, False), person
        assert found["trend"] == {"othersself"}, person
    for outsider in (org.hr, org.admin, org.other_manager, org.peer):
        assert sees_nothing(seen(outsider, scoring)), outsider


def test_the_coach_scores_first_the_rep_and_the_chain_wait_then_closing_shows_the_chain(
    chain,
):
    org, scoring = chain, chain.scoring
    scored(org.manager, scoring, [3, 2, 3], COACH_WORDS)
    coach = seen(org.manager, scoring)
    assert sees(coach, "coach") and coach["trend"] == {"others"}  # their own, only
    rep = seen(org.rep, scoring)
    assert sees_nothing(rep) and rep["flags"] == (True, False)
    head = seen(org.head, scoring)
    assert sees_nothing(head) and head["flags"] == (False, True)

    # The coach closes it without the rep's scores: the chain sees the coach's.
    assert client_for(org.manager).post(f"{ROUNDS}{scoring.pk}/close/").status_code == 200
    for person in (org.rep, org.manager, org.head):
        found = seen(person, scoring)
        assert sees(found, "coach") and found["flags"] == (False, False), person
        assert found["trend"] == {"others"}, person
    for outsider in (org.hr, org.admin):
        assert sees_nothing(seen(outsider, scoring)), outsider


def test_declining_ends_the_blind_for_the_chain_too(chain):
    org, scoring = chain, chain.scoring
    scored(org.manager, scoring, [3, 2, 3], COACH_WORDS)
    assert sees_nothing(seen(org.head, scoring))
    assert client_for(org.rep).post(f"{ROUNDS}{scoring.pk}/decline/").status_code == 200
    assert sees(seen(org.head, scoring), "coach")


@pytest.mark.parametrize("role", ["hr", "programme_admin"])
def test_a_role_lifts_no_blind_for_someone_in_the_chain(org, template, call, role):
    """A head of function who is also HR, or a programme admin, is the chain like
    anyone: blind while the round is open."""
    from people.roles import Role
    from people.services_roles import role_grant

    role_grant(actor=org.admin, person=org.head, role=Role(role))
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    scored(org.rep, scoring, [4, 2, 2], REP_WORDS)
    assert sees_nothing(seen(org.head, scoring))
    scored(org.manager, scoring, [3, 2, 3], COACH_WORDS)
    assert sees(seen(org.head, scoring), "coach", "rep")


def test_a_skip_level_coach_leaves_the_reps_own_manager_blind(org, template, call):
    """The head coaches the rep: the rep's manager, between them and no rater, sees
    who scored and nothing of what until both have."""
    scoring = services.coach_scoring_open(actor=org.head, work=call, template=template)
    scored(org.head, scoring, [3, 2, 3], COACH_WORDS)
    manager = seen(org.manager, scoring)
    assert sees_nothing(manager) and manager["flags"] == (False, True)
    scored(org.rep, scoring, [4, 2, 2], REP_WORDS)
    assert sees(seen(org.manager, scoring), "coach", "rep")


def test_a_peer_round_is_blind_to_the_subjects_manager_until_every_peer_scored(org, template, call):
    colleague = UserFactory(display_name="Cleo Colleague", manager=org.other_manager)
    scoring = services.peer_scoring_open(
        actor=org.rep, work=call, template=template, peers=[org.peer, colleague]
    )
    submit(org.rep, scoring, [4, 4, 4])
    submit(org.peer, scoring, [3, 3, 3])
    assert not Scorecard.objects.visible_to(org.manager).filter(round=scoring).exists()
    assert not Scorecard.objects.visible_to(org.head).filter(round=scoring).exists()
    # The peer, done, sees the rep's; Cleo, not yet, sees nothing.
    assert Scorecard.objects.visible_to(org.peer).filter(round=scoring).count() == 2
    assert not Scorecard.objects.visible_to(colleague).filter(round=scoring).exists()
    submit(colleague, scoring, [2, 2, 2])
    assert Scorecard.objects.visible_to(org.manager).filter(round=scoring).count() == 3


def test_the_team_distribution_counts_a_round_only_once_its_scoring_is_over(org, template, call):
    team = team_create(name="Enterprise East", lead=org.manager)
    team_member_add(team=team, person=org.rep)
    opened = services.current_version(template).criteria.get(title="Open questions").criterion
    FocusAreaFactory(name="Ask first").criteria.set([opened])
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, scoring, [3, 2, 3])

    def spread():
        (found,) = selectors.team_distribution(people=[org.rep.pk], criteria=[opened.pk])
        return found.counts

    assert spread() == {}  # the rep has not scored: not a bar moves
    services.round_decline(actor=org.rep, scoring=scoring)
    assert spread() == {3: 1}


def test_the_data_download_holds_nothing_revealed_early(chain):
    """The download (people.privacy) reads through the rule: the rep's holds nothing
    of the coach's scores before the rep scored."""
    from scorecards.personal_data import scorecards as download

    org, scoring = chain, chain.scoring
    submit(org.manager, scoring, [3, 2, 3], keep="COACHKEEP")
    assert download(org.rep) == []
    submit(org.rep, scoring, [4, 2, 2])
    assert {c["rater_role"] for c in download(org.rep)} == {"coach", "subject"}


def test_the_lists_cost_the_same_for_the_chain_with_open_and_finished_rounds(org, template):
    """The head reads the scorecards and rounds lists: open rounds (hidden) and
    finished ones (shown) cost no more queries than one round."""
    from tests.support.factories import RecordedCallFactory

    client = client_for(org.head)
    first = services.coach_scoring_open(
        actor=org.manager, work=RecordedCallFactory(person=org.rep), template=template
    )
    submit(org.rep, first, [1, 2, 3])
    submit(org.manager, first, [2, 2, 2])
    cards, rounds = queries(client, CARDS), queries(client, ROUNDS)
    detail = queries(client, f"{ROUNDS}{first.pk}/")
    assert (cards, rounds) == (7, 5)
    for n in range(4):
        work = RecordedCallFactory(person=org.peer if n % 2 else org.rep)
        scoring = services.coach_scoring_open(actor=org.manager, work=work, template=template)
        submit(work.person, scoring, [2, 2, 2])
        if n % 2:
            submit(org.manager, scoring, [3, 3, 3])
    assert (queries(client, CARDS), queries(client, ROUNDS)) == (cards, rounds)
    assert queries(client, f"{ROUNDS}{scoring.pk}/") == detail
