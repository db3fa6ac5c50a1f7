"""Who gets into which scorecard page. A coach round is seen by the subject, the
coach and the people above the subject; a team review round also by everyone in the
review. Everyone else gets 404 on every GET and POST and changes nothing; anonymous
visitors are sent to sign in; HR and programme admins never see a scorecard's words,
only aggregates (teams of at least five)."""

import pytest

from people.services_teams import team_member_add
from scorecards import services
from scorecards.models import RoundRater, Scorecard, ScoringRound
from tests.support.factories import FocusAreaFactory, UserFactory
from tests.support.scorecards_pages import (
    COACH_WORDS,
    REP_WORDS,
    assert_no_words,
    round_url,
    scorecard_body,
    team_review,
    text_of,
)

from .conftest import submit

pytestmark = pytest.mark.django_db

PEER_WORDS = {"keep": "PEERWORDS kept quiet while the buyer thought"}
ALL_WORDS = {**COACH_WORDS, **{f"rep_{k}": v for k, v in REP_WORDS.items()}, **PEER_WORDS}

# Who sees which round (the rest of the org gets 404).
COACH_ROUND_SEES = ["rep", "manager", "head"]  # subject, coach, the coach's manager
COACH_ROUND_OUTSIDERS = ["peer", "other_manager", "other_rep", "hr", "admin"]
REVIEW_ROUND_SEES = ["rep", "manager", "head", "peer"]  # + a peer in the same review
REVIEW_ROUND_OUTSIDERS = ["other_manager", "other_rep", "hr", "admin"]
SIGNED_IN_PAGES = [
    "ROUND",
    "CALL",
    "/scorecards/",
    "/scorecards/calls/new/",
    "/scorecards/calibrations/",
    "/scorecards/calibrations/new/",
    "/scorecards/templates/",
    "TEMPLATE",
    "/scorecards/templates/new/",
    "TEMPLATE_EDIT",
    "/skills/",
    "PERSON_SKILLS",
    "TEAM_SKILLS",
]


class World:
    def __init__(self, org, template, call):
        self.coach_round = services.coach_scoring_open(
            actor=org.manager, work=call, template=template
        )
        submit(org.manager, self.coach_round, [3, 2, 3], **_words(COACH_WORDS))
        self.review = team_review(org)
        self.review_round = services.team_review_scoring_open(
            actor=org.manager,
            work=self.review.presented_call,
            template=template,
            session_id=self.review.pk,
            manager=org.manager,
            participants=[org.peer],
        )
        submit(org.peer, self.review_round, [2, 2, 2], **_words(PEER_WORDS))
        self.template = template

    def rounds(self):
        return [self.coach_round, self.review_round]

    def snapshot(self):
        return (
            sorted(Scorecard.objects.values_list("pk", "submitted_at", "keep")),
            sorted(RoundRater.objects.values_list("pk", "declined_at")),
            sorted(ScoringRound.objects.values_list("pk", "closed_at")),
        )


def _words(words):
    return {"keep": words.get("keep", ""), "try_next": words.get("try_next", "")}


@pytest.fixture
def world(org, template, call):
    return World(org, template, call)


def pages_of(scoring):
    return [round_url(scoring), f"/scorecards/calls/{scoring.work_id}/"]


def posts_of(scoring, template):
    return {
        round_url(scoring, "scorecard"): scorecard_body(scoring, [1, 1, 1]),
        round_url(scoring, "decline"): {},
        round_url(scoring, "close"): {},
        f"/scorecards/calls/{scoring.work_id}/score/": {"template": template.pk, "how": "coach"},
    }


@pytest.mark.parametrize("who", COACH_ROUND_SEES)
def test_the_subject_the_coach_and_the_chain_open_a_coach_round(client, org, world, who):
    client.force_login(getattr(org, who))
    for path in pages_of(world.coach_round):
        text_of(client, path)


@pytest.mark.parametrize("who", REVIEW_ROUND_SEES)
def test_everyone_in_a_team_review_and_the_chain_open_its_round(client, org, world, who):
    client.force_login(getattr(org, who))
    for path in pages_of(world.review_round):
        text_of(client, path)


@pytest.mark.parametrize(
    ("which", "who"),
    [("coach_round", who) for who in COACH_ROUND_OUTSIDERS]
    + [("review_round", who) for who in REVIEW_ROUND_OUTSIDERS],
)
def test_outsiders_get_404_on_every_get_and_post_and_change_nothing(client, org, world, which, who):
    scoring = getattr(world, which)
    before = world.snapshot()
    client.force_login(getattr(org, who))
    for path in pages_of(scoring):
        assert client.get(path).status_code == 404, path
    for path, data in posts_of(scoring, world.template).items():
        assert client.post(path, data).status_code == 404, path
    assert world.snapshot() == before
    assert ScoringRound.objects.count() == 2


@pytest.mark.parametrize("who", REVIEW_ROUND_OUTSIDERS)
def test_outsiders_of_a_review_get_404_on_its_scoring_panel(client, org, world, who):
    client.force_login(getattr(org, who))
    review = world.review
    assert client.get(f"/sessions/{review.pk}/").status_code == 404
    response = client.post(f"/sessions/{review.pk}/call-scoring/", {"template": world.template.pk})
    assert response.status_code == 404
    assert ScoringRound.objects.count() == 2


@pytest.mark.parametrize("who", ["hr", "admin"])
def test_hr_and_programme_admins_never_see_a_scorecards_words(client, org, world, who):
    client.force_login(getattr(org, who))
    team = world.review.team
    for path in [
        "/",
        "/me/",
        "/scorecards/",
        "/scorecards/calibrations/",
        "/scorecards/templates/",
        f"/scorecards/templates/{world.template.pk}/",
        "/skills/",
        f"/teams/{team.pk}/skills/",
    ]:
        response = client.get(path, follow=True)
        assert response.status_code == 200, path
        page = response.content.decode()
        assert_no_words(page, ALL_WORDS, path)
        assert 'class="side-by-side"' not in page and "Rita Rep" not in page.split("<main", 1)[1]
    for path in [
        *pages_of(world.coach_round),
        *pages_of(world.review_round),
        f"/people/{org.rep.pk}/skills/",
    ]:
        assert client.get(path).status_code == 404, path


def test_a_chain_manager_who_is_not_a_rater_may_look_but_not_act(client, org, world):
    before = world.snapshot()
    client.force_login(org.head)
    scoring = world.coach_round
    body = scorecard_body(scoring, [1, 1, 1])
    assert client.post(round_url(scoring, "scorecard"), body).status_code == 404
    response = client.post(round_url(scoring, "decline"))
    assert response.status_code == 400
    assert "You are not one of the raters of this call." in response.content.decode()
    response = client.post(round_url(scoring, "close"))
    assert response.status_code == 400
    assert "Only whoever opened the scoring can close it." in response.content.decode()
    assert world.snapshot() == before


def test_a_peer_in_the_review_does_not_see_the_other_rounds_on_the_presenters_calls(
    client, org, world
):
    client.force_login(org.peer)
    for path in pages_of(world.coach_round):
        assert client.get(path).status_code == 404
    home = text_of(client, "/scorecards/")
    assert "Northwind discovery" not in home and "Discovery with Northwind" in home
    assert_no_words(home, COACH_WORDS, "peer home")


def test_a_peer_who_may_see_a_call_is_not_offered_to_coach_score_it(client, org, world):
    client.force_login(org.peer)
    call_page = f"/scorecards/calls/{world.review_round.work_id}/"
    page = text_of(client, call_page)
    assert "Score this call" not in page and "Score it as their coach" not in page
    response = client.post(f"{call_page}score/", {"template": world.template.pk, "how": "coach"})
    assert response.status_code == 400
    assert "Only the person whose call it is, or someone they report to" in (
        response.content.decode()
    )
    assert ScoringRound.objects.count() == 2


@pytest.mark.parametrize("path", SIGNED_IN_PAGES)
def test_anonymous_visitors_are_sent_to_sign_in(client, org, world, path):
    path = {
        "ROUND": round_url(world.coach_round),
        "CALL": f"/scorecards/calls/{world.coach_round.work_id}/",
        "TEMPLATE": f"/scorecards/templates/{world.template.pk}/",
        "TEMPLATE_EDIT": f"/scorecards/templates/{world.template.pk}/edit/",
        "PERSON_SKILLS": f"/people/{org.rep.pk}/skills/",
        "TEAM_SKILLS": f"/teams/{world.review.team_id}/skills/",
    }.get(path, path)
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_anonymous_posts_change_nothing(client, world):
    before = world.snapshot()
    scoring = world.coach_round
    for path, data in posts_of(scoring, world.template).items():
        response = client.post(path, data)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for path in [
        f"/scorecards/templates/{world.template.pk}/retire/",
        f"/sessions/{world.review.pk}/call-scoring/",
    ]:
        assert client.post(path, {"template": world.template.pk}).status_code == 302
    assert world.snapshot() == before
    world.template.refresh_from_db()
    assert world.template.retired_at is None


# --- Skills -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"),
    [("manager", 200), ("head", 200), ("rep", 200)]  # the rep: their own, as on /skills/
    + [(who, 404) for who in ["peer", "other_manager", "other_rep", "hr", "admin"]],
)
def test_a_persons_skills_are_for_the_people_above_them(client, org, world, who, status):
    client.force_login(getattr(org, who))
    assert client.get(f"/people/{org.rep.pk}/skills/").status_code == status


@pytest.mark.parametrize(
    ("who", "status"),
    [("manager", 200), ("head", 200), ("hr", 200), ("admin", 200)]
    + [(who, 404) for who in ["rep", "peer", "other_manager", "other_rep"]],
)
def test_a_teams_skills_are_for_its_lead_the_people_above_and_hr(client, org, world, who, status):
    client.force_login(getattr(org, who))
    assert client.get(f"/teams/{world.review.team_id}/skills/").status_code == status
    assert client.get("/teams/999999/skills/").status_code == 404


@pytest.mark.parametrize("who", ["hr", "admin"])
def test_hr_and_admins_see_a_small_teams_skills_suppressed(client, org, world, who):
    focus = _focus_on(world)
    client.force_login(getattr(org, who))
    page = text_of(client, f"/teams/{world.review.team_id}/skills/")
    assert f"Focus: {focus.name}" in page
    assert "Too few people to show" in page and "Open questions" not in page
    client.force_login(org.manager)  # the lead sees the spread itself
    page = text_of(client, f"/teams/{world.review.team_id}/skills/")
    assert "Too few people to show" not in page and "Open questions" in page


@pytest.mark.parametrize("who", ["hr", "admin"])
def test_hr_and_admins_see_a_team_of_five_anonymised(client, org, world, who):
    _focus_on(world)
    for n in range(3):
        person = UserFactory(display_name=f"Member {n}", manager=org.manager)
        team_member_add(team=world.review.team, person=person)
    client.force_login(getattr(org, who))
    page = text_of(client, f"/teams/{world.review.team_id}/skills/")
    assert "Too few people to show" not in page and "Open questions" in page
    assert "5 people" in page
    assert_no_words(page, ALL_WORDS, "team skills")
    assert "Rita Rep" not in page and "Pavel Peer" not in page


def _focus_on(world):
    focus = FocusAreaFactory(name="Discovery questions")
    focus.criteria.set(world.template.criteria.all())
    focus.teams.add(world.review.team)
    return focus
