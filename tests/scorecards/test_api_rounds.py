"""Scoring rounds through the API: who sees which round (404 for everyone else, HR
and programme admins included), opening each kind, saving, submitting and declining
a scorecard, closing; visible-but-not-yours is a 403 with the reason; bad input a 400
naming the field with nothing saved; the list and the detail cost the same queries
whatever their size."""

import pytest

from scorecards import services
from scorecards.models import RoundRater, Score, Scorecard, ScoringRound
from tests.support.factories import RecordedCallFactory, UserFactory
from tests.support.scorecards_api import client_for, ids, queries, scores_body, team_review

from .conftest import DISCOVERY, criteria_of, submit

pytestmark = pytest.mark.django_db

URL = "/api/v1/scoring-rounds/"


@pytest.fixture
def coach_round(people, template, call):
    return services.coach_scoring_open(actor=people.manager, work=call, template=template)


@pytest.fixture
def review_round(people, template, call):
    return team_review(people, template, call, participants=[people.peer])


def body(call, template, **extra):
    return {"context": "self", "work": call.pk, "template": template.pk, **extra}


# --- Who sees which round --------------------------------------------------------------------

# (who, sees the coach round, sees the team review)
MATRIX = [
    ("rep", True, True),  # the subject
    ("manager", True, True),  # the coach, the team's manager
    ("head", True, True),  # the coach's manager: the subject's chain
    ("team_peer", False, True),  # a participant of the team review
    ("outside_peer", False, False),
    ("other_manager", False, False),
    ("other_rep", False, False),
    ("hr", False, False),
    ("admin", False, False),
]


@pytest.mark.parametrize(("who", "sees_coach", "sees_review"), MATRIX)
def test_who_sees_which_round_in_the_list_and_the_detail(
    people, coach_round, review_round, who, sees_coach, sees_review
):
    client = client_for(getattr(people, who))
    expected = {
        s.pk for s, sees in ((coach_round, sees_coach), (review_round, sees_review)) if sees
    }
    assert set(ids(client.get(URL))) == expected
    for scoring, sees in ((coach_round, sees_coach), (review_round, sees_review)):
        response = client.get(f"{URL}{scoring.pk}/")
        assert response.status_code == (200 if sees else 404)


@pytest.mark.parametrize("who", ["outside_peer", "other_manager", "hr", "admin"])
def test_outsiders_get_404_from_every_action_and_nothing_changes(
    people, coach_round, review_round, who
):
    client = client_for(getattr(people, who))
    for scoring in (coach_round, review_round):
        put = client.put(f"{URL}{scoring.pk}/scorecard/", scores_body(scoring, [1, 1, 1]))
        assert put.status_code == 404
        assert client.post(f"{URL}{scoring.pk}/decline/").status_code == 404
        assert client.post(f"{URL}{scoring.pk}/close/").status_code == 404
    assert not Scorecard.objects.exists()
    assert not RoundRater.objects.filter(declined_at__isnull=False).exists()
    assert not ScoringRound.objects.filter(closed_at__isnull=False).exists()


def test_anonymous_callers_get_401(coach_round):
    client = client_for()
    assert client.get(URL).status_code == 401
    assert client.get(f"{URL}{coach_round.pk}/").status_code == 401
    assert client.post(f"{URL}{coach_round.pk}/decline/").status_code == 401


def test_an_unknown_round_is_404(people):
    assert client_for(people.rep).get(f"{URL}987654/").status_code == 404
    assert client_for(people.rep).get(f"{URL}{10**30}/").status_code == 404


# --- The detail ------------------------------------------------------------------------------


def test_the_detail_shows_the_round_its_version_and_its_raters(people, coach_round):
    detail = client_for(people.manager).get(f"{URL}{coach_round.pk}/").json()
    assert detail["context"] == "coach" and detail["closed_at"] is None
    assert detail["work"]["title"] == "Northwind discovery"
    assert detail["work"]["person"]["id"] == people.rep.pk
    assert detail["opened_by"]["id"] == people.manager.pk
    assert detail["template"]["name"] == "Discovery call"
    assert detail["version"]["number"] == 1
    first = detail["version"]["criteria"][0]
    assert first["title"] == "Open questions" and first["scale_max"] == 4
    assert first["anchors"][0] == {"level": 1, "description": "Pitches straight away"}
    assert [(r["person"]["id"], r["role"], r["state"]) for r in detail["raters"]] == [
        (people.manager.pk, "coach", "waiting"),
        (people.rep.pk, "subject", "waiting"),
    ]
    assert detail["waiting_on_me"] and detail["can_close"] and detail["mine"] is None
    assert detail["scorecards"] == [] and detail["alpha"] is None


def test_a_draft_is_mine_alone_and_submitting_makes_it_final(people, coach_round):
    client = client_for(people.manager)
    first = criteria_of(coach_round)[0]
    draft = {
        "scores": [
            {"criterion": first.pk, "rating": 3, "evidence_at": "04:10", "evidence": "Asked why"}
        ],
        "keep": "The pause after the price",
    }
    saved = client.put(f"{URL}{coach_round.pk}/scorecard/", draft, format="json")
    assert saved.status_code == 200, saved.json()
    mine = saved.json()["mine"]
    assert mine["submitted_at"] is None and mine["keep"] == "The pause after the price"
    assert mine["scores"] == [
        {"criterion": first.pk, "rating": 3, "evidence_at": "04:10", "evidence": "Asked why"}
    ]
    assert saved.json()["raters"][0]["state"] == "draft"
    # Nobody else sees a draft, not even as a draft.
    other_view = client_for(people.rep).get(f"{URL}{coach_round.pk}/").json()
    assert other_view["raters"][0]["state"] == "waiting" and other_view["scorecards"] == []
    incomplete = client.put(
        f"{URL}{coach_round.pk}/scorecard/", {**draft, "submit": True}, format="json"
    )
    assert incomplete.status_code == 400
    assert "Rate every criterion" in incomplete.json()["scores"][0]
    done = client.put(
        f"{URL}{coach_round.pk}/scorecard/",
        scores_body(coach_round, [3, 2, 3], submit=True, try_next="Summarise back"),
        format="json",
    )
    assert done.status_code == 200
    assert done.json()["mine"]["submitted_at"] is not None
    assert done.json()["waiting_on_me"] is False
    again = client.put(
        f"{URL}{coach_round.pk}/scorecard/", scores_body(coach_round, [1, 1, 1]), format="json"
    )
    assert again.status_code == 400 and "final" in str(again.json())
    assert [s.rating for s in Score.objects.order_by("criterion__position")] == [3, 2, 3]


@pytest.mark.parametrize("who", ["head"])
def test_someone_who_sees_the_round_but_does_not_rate_it_gets_403(people, coach_round, who):
    client = client_for(getattr(people, who))
    put = client.put(
        f"{URL}{coach_round.pk}/scorecard/", scores_body(coach_round, [1, 1, 1]), format="json"
    )
    assert put.status_code == 403
    assert put.json() == {"detail": "You are not one of the raters of this call."}
    assert client.post(f"{URL}{coach_round.pk}/decline/").status_code == 403
    assert not Scorecard.objects.exists()


def test_only_whoever_opened_a_round_closes_it(people, review_round):
    for who in ("rep", "peer", "head"):
        response = client_for(getattr(people, who)).post(f"{URL}{review_round.pk}/close/")
        assert response.status_code == 403
        assert response.json() == {"detail": "Only whoever opened the scoring can close it."}
    assert not client_for(people.rep).get(f"{URL}{review_round.pk}/").json()["can_close"]
    closed = client_for(people.manager).post(f"{URL}{review_round.pk}/close/")
    assert closed.status_code == 200 and closed.json()["closed_at"] is not None
    assert closed.json()["can_close"] is False
    again = client_for(people.manager).post(f"{URL}{review_round.pk}/close/")
    assert again.status_code == 400 and "already closed" in str(again.json())
    late = client_for(people.rep).put(
        f"{URL}{review_round.pk}/scorecard/", scores_body(review_round, [1, 1, 1]), format="json"
    )
    assert late.status_code == 400 and "closed" in str(late.json())


def test_declining_drops_my_draft_and_says_so(people, coach_round):
    client = client_for(people.rep)
    client.put(
        f"{URL}{coach_round.pk}/scorecard/", scores_body(coach_round, [2, 2, None]), format="json"
    )
    declined = client.post(f"{URL}{coach_round.pk}/decline/")
    assert declined.status_code == 200
    body = declined.json()
    assert body["mine"] is None and body["waiting_on_me"] is False
    assert body["raters"][1]["state"] == "declined"
    assert not Scorecard.objects.filter(rater=people.rep).exists()
    late = client.put(
        f"{URL}{coach_round.pk}/scorecard/", scores_body(coach_round, [1, 1, 1]), format="json"
    )
    assert late.status_code == 400 and "declined" in str(late.json())


# --- Bad scores ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "field"),
    [
        (lambda c, other: [{"criterion": c[0].pk, "rating": 5}], "scores"),  # scale is 1–4
        (lambda c, other: [{"criterion": c[0].pk, "rating": 0}], "scores"),
        (lambda c, other: [{"criterion": c[0].pk, "rating": 10**30}], "scores"),
        (lambda c, other: [{"criterion": c[0].pk, "rating": "four"}], "scores"),
        (lambda c, other: [{"criterion": other.pk, "rating": 2}], "scores"),
        (lambda c, other: [{"criterion": 10**30, "rating": 2}], "scores"),
        (lambda c, other: [{"criterion": "first", "rating": 2}], "scores"),
        (lambda c, other: [{"criterion": c[0].pk, "rating": 2}] * 2, "scores"),
        (lambda c, other: [{"criterion": c[0].pk, "rating": 2, "weight": 3}], "scores"),
        (lambda c, other: [{"criterion": c[0].pk, "rating": 2, "evidence": "x" * 501}], "scores"),
        (lambda c, other: "all fours", "scores"),
    ],
)
def test_bad_scores_are_a_400_naming_the_field_and_nothing_is_saved(
    people, coach_round, scores, field
):
    other_template = services.template_create(actor=people.admin, name="Demo", criteria=DISCOVERY)
    other = services.current_version(other_template).criteria.first()
    response = client_for(people.manager).put(
        f"{URL}{coach_round.pk}/scorecard/",
        {"scores": scores(criteria_of(coach_round), other), "submit": False},
        format="json",
    )
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not Scorecard.objects.exists() and not Score.objects.exists()


@pytest.mark.parametrize(
    "extra", [{"colour": "red"}, {"keep": "x" * 2001}, {"submit": "perhaps"}, {"keep": ["a"]}]
)
def test_a_bad_scorecard_body_is_a_400_and_nothing_is_saved(people, coach_round, extra):
    response = client_for(people.manager).put(
        f"{URL}{coach_round.pk}/scorecard/",
        scores_body(coach_round, [2, 2, 2], **extra),
        format="json",
    )
    assert response.status_code == 400
    assert set(extra) & set(response.json()), response.json()
    assert not Scorecard.objects.exists()


# --- Opening rounds --------------------------------------------------------------------------


def test_the_subject_opens_a_self_assessment(people, template, call):
    response = client_for(people.rep).post(URL, body(call, template), format="json")
    assert response.status_code == 201, response.json()
    opened = response.json()
    assert opened["context"] == "self" and opened["waiting_on_me"]
    assert [(r["person"]["id"], r["role"]) for r in opened["raters"]] == [
        (people.rep.pk, "subject")
    ]


def test_the_browsable_apis_form_opens_a_round_too(people, template, call):
    # An HTML form sends every field, the ones this kind of round does not take blank.
    response = client_for(people.rep).post(
        URL, {"context": "self", "work": call.pk, "template": template.pk, "title": ""}
    )
    assert response.status_code == 201, response.json()


def test_a_manager_opens_a_coach_round_and_the_subject_is_asked_to_score_first(
    people, template, call
):
    response = client_for(people.head).post(
        URL, body(call, template, context="coach"), format="json"
    )
    assert response.status_code == 201, response.json()
    assert [(r["person"]["id"], r["role"]) for r in response.json()["raters"]] == [
        (people.head.pk, "coach"),
        (people.rep.pk, "subject"),
    ]
    assert ScoringRound.objects.get().context == "coach"


def test_the_subject_asks_peers(people, template, call):
    response = client_for(people.rep).post(
        URL, body(call, template, context="peer", peers=[people.peer.pk]), format="json"
    )
    assert response.status_code == 201, response.json()
    assert {(r["person"]["id"], r["role"]) for r in response.json()["raters"]} == {
        (people.rep.pk, "subject"),
        (people.peer.pk, "peer"),
    }
    # The peer now sees the round and the call, not the rep's other work.
    peer = client_for(people.peer)
    assert peer.get(f"{URL}{response.json()['id']}/").status_code == 200
    assert peer.get(f"/api/v1/recorded-calls/{call.pk}/").status_code == 200


def test_a_manager_of_managers_opens_a_calibration(people, template, call):
    response = client_for(people.head).post(
        URL,
        body(
            call,
            template,
            context="calibration",
            raters=[people.manager.pk, people.other_manager.pk],
            title="Q3 discovery calibration",
        ),
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["title"] == "Q3 discovery calibration"
    # Its raters see it; the subject and their chain do not (calibrations measure raters).
    assert client_for(people.other_manager).get(f"{URL}{response.json()['id']}/").status_code == 200
    assert client_for(people.rep).get(f"{URL}{response.json()['id']}/").status_code == 404


@pytest.mark.parametrize(
    ("who", "context", "message"),
    [
        ("manager", "self", "Score your own calls here"),
        ("manager", "peer", "Ask for peer scores on your own calls."),
        ("rep", "coach", "Only someone the subject reports to"),
        ("peer", "coach", "Only someone the subject reports to"),  # sees it via the review
        ("manager", "calibration", "Calibrations are run by"),
    ],
)
def test_a_round_not_yours_to_open_on_a_call_you_see_is_a_403_with_the_reason(
    people, template, call, review_round, who, context, message
):
    extra = {"peers": [people.peer.pk]} if context == "peer" else {}
    if context == "calibration":
        extra = {"raters": [people.peer.pk, people.rep.pk], "title": "Q3"}
    response = client_for(getattr(people, who)).post(
        URL, body(call, template, context=context, **extra), format="json"
    )
    assert response.status_code == 403
    assert message in response.json()["detail"]
    assert ScoringRound.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"work": "OUTSIDE"}, "work"),  # a call the rep cannot see
        ({"work": 987_654}, "work"),
        ({"work": "abc"}, "work"),
        ({"work": 10**30}, "work"),
        ({"template": 987_654}, "template"),
        ({"template": "RETIRED"}, "template"),
        ({"template": None}, "template"),
        ({"context": "team_review"}, "context"),
        ({"context": "evaluation"}, "context"),
        ({"peers": [1]}, "peers"),  # not part of a self-assessment
        ({"title": "Q3"}, "title"),
        ({"context": "peer"}, "peers"),
        ({"context": "peer", "peers": ["SELF"]}, "peers"),
        ({"context": "peer", "peers": ["PEER", "PEER"]}, "peers"),
        ({"context": "peer", "peers": [987_654]}, "peers"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_rounds_are_a_400_naming_the_field_and_nothing_is_saved(
    people, template, call, change, field
):
    if change.get("work") == "OUTSIDE":
        change["work"] = RecordedCallFactory(person=people.other_rep).pk
    if change.get("template") == "RETIRED":
        retired = services.template_create(actor=people.admin, name="Old", criteria=DISCOVERY)
        services.template_retire(actor=people.admin, template=retired)
        change["template"] = retired.pk
    if "peers" in change:
        names = {"SELF": people.rep.pk, "PEER": people.peer.pk}
        change["peers"] = [names.get(p, p) for p in change["peers"]]
    response = client_for(people.rep).post(URL, {**body(call, template), **change}, format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not ScoringRound.objects.exists() and not RoundRater.objects.exists()


def test_the_work_message_does_not_tell_unknown_from_someone_elses(people, template):
    other = RecordedCallFactory(person=people.other_rep)
    client = client_for(people.rep)
    for pk in (other.pk, 987_654):
        response = client.post(URL, body(other, template, work=pk), format="json")
        assert response.json() == {"work": [f"No call with id {pk} among the calls you can see."]}


def test_a_second_team_review_round_for_the_same_call_template_and_session_is_refused(
    people, template, call, review_round
):
    # Team reviews open their rounds from the session (coaching), not here …
    response = client_for(people.manager).post(
        URL, body(call, template, context="team_review"), format="json"
    )
    assert response.status_code == 400 and "context" in response.json()
    # … and the service refuses a second one for the same call, template and session.
    with pytest.raises(Exception, match="already being scored"):
        team_review(people, template, call, participants=[people.peer])
    assert ScoringRound.objects.count() == 1


# --- Filters ---------------------------------------------------------------------------------


def test_the_list_filters_by_context_open_and_waiting_on_me(people, template, call):
    coach = services.coach_scoring_open(actor=people.manager, work=call, template=template)
    own = services.self_assessment_open(actor=people.rep, work=call, template=template)
    review = team_review(people, template, call, participants=[people.peer])
    submit(people.rep, own, [3, 3, 3])
    services.round_close(actor=people.rep, scoring=own)
    # A draft is not done: the round still waits on me, whoever else submitted.
    services.scorecard_save(
        actor=people.rep,
        scoring=review,
        scores=[services.ScoreInput(criteria_of(review)[0].pk, 2)],
    )
    submit(people.manager, review, [2, 2, 2])
    client = client_for(people.rep)
    assert ids(client.get(URL, {"context": "coach"})) == [coach.pk]
    assert set(ids(client.get(URL, {"open": 1}))) == {coach.pk, review.pk}
    assert set(ids(client.get(URL, {"waiting": 1}))) == {coach.pk, review.pk}
    submit(people.rep, coach, [1, 1, 1])
    assert ids(client.get(URL, {"waiting": 1})) == [review.pk]
    assert client.get(URL, {"context": "evaluation"}).status_code == 400
    listed = client.get(URL, {"context": "team_review"}).json()["results"][0]
    assert (listed["raters_count"], listed["submitted_count"]) == (3, 1)
    assert listed["template"]["name"] == "Discovery call" and listed["version"] == 1


# --- Costs -----------------------------------------------------------------------------------


def test_the_list_and_the_detail_cost_the_same_queries_whatever_their_size(people, template, call):
    client = client_for(people.manager)
    few_round = services.coach_scoring_open(actor=people.manager, work=call, template=template)
    submit(people.manager, few_round, [2, 2, 2])
    # session, user, how many people are below me (visible_for_lists), count, the page
    # (rounds with their counts, the call, its person, the template and whoever opened
    # it in one)
    few = queries(client, URL)
    # session, user, the round, its version, criteria, anchors, raters, every
    # scorecard (states), the visible scorecards and their scores
    detail = queries(client, f"{URL}{few_round.pk}/")
    assert (few, detail) == (5, 10)
    extra = [UserFactory(manager=people.manager) for _ in range(4)]
    busy = team_review(people, template, call, participants=[people.peer, *extra])
    for person in (people.rep, people.peer, people.manager, *extra):
        submit(person, busy, [1, 2, 3])
    for person in (people.rep, people.peer, *extra):
        work = RecordedCallFactory(person=person)
        services.coach_scoring_open(actor=people.manager, work=work, template=template)
    assert queries(client, URL) == few
    assert queries(client, f"{URL}{busy.pk}/", {"waiting": 1}) == detail
    assert queries(client, URL, {"waiting": 1, "open": 1, "context": "coach"}) == few


def test_the_browsable_api_renders_every_form(people, coach_round):
    # It fills each form through the view's serializer for that action.
    client = client_for(people.rep)
    for path, status_code, method in (
        (URL, 200, "POST"),
        (f"{URL}{coach_round.pk}/", 200, None),
        (f"{URL}{coach_round.pk}/scorecard/", 405, "PUT"),
        (f"{URL}{coach_round.pk}/decline/", 405, "POST"),
        (f"{URL}{coach_round.pk}/close/", 405, "POST"),
        ("/api/v1/recorded-calls/", 200, "POST"),
        ("/api/v1/scorecards/", 200, None),
        (f"/api/v1/skill-trends/?person={people.rep.pk}", 200, None),
    ):
        page = client.get(path, HTTP_ACCEPT="text/html")
        assert page.status_code == status_code, path
        if method:
            assert f'method="{method}"' in page.content.decode(), path
