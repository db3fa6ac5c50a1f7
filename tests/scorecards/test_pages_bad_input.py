"""Bad input on the scorecard pages is a 400 with the reason on the page, and nothing
is saved: a rating off the scale, criteria left unrated on submit, a retired
scorecard, a second round for the same call and scorecard in one team review, a
closed round, an unknown scorecard on the session panel. A rating posted for a
criterion of another template has no field on the form: it is ignored, never saved."""

import pytest
from django.utils import timezone

from coaching.services import session_cancel
from scorecards import services
from scorecards.models import RecordedCall, Score, Scorecard, ScoringRound
from tests.support.scorecards_pages import round_url, scorecard_body, team_review, text_of

from .conftest import DISCOVERY, criteria_of, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def coach_round(org, template, call):
    return services.coach_scoring_open(actor=org.manager, work=call, template=template)


def post_card(client, scoring, data, **headers):
    return client.post(round_url(scoring, "scorecard"), data, **headers)


def assert_refused(response, reason):
    assert response.status_code == 400
    assert reason in response.content.decode()


# --- A scorecard --------------------------------------------------------------------------


@pytest.mark.parametrize("rating", ["5", "0", "-1", "three", "99999999999"])
def test_a_rating_off_the_scale_is_refused(client, org, coach_round, rating):
    client.force_login(org.rep)
    first = criteria_of(coach_round)[0]
    data = {**scorecard_body(coach_round, [1, 2, 3]), f"rating_{first.pk}": rating}
    response = post_card(client, coach_round, data)
    assert_refused(response, "Rate “Open questions” from 1 to 4.")
    assert 'class="criterion has-error"' in response.content.decode()
    assert not Scorecard.objects.exists()


def test_submitting_with_criteria_unrated_is_refused_and_names_them(client, org, coach_round):
    client.force_login(org.rep)
    response = post_card(client, coach_round, scorecard_body(coach_round, [3, None, None]))
    assert_refused(response, "Rate every criterion before submitting: Next step, Listening.")
    assert not Scorecard.objects.exists()
    # The same ratings as a draft are fine.
    body = scorecard_body(coach_round, [3, None, None], action="draft")
    assert post_card(client, coach_round, body).status_code == 302
    card = Scorecard.objects.get()
    assert card.submitted_at is None and card.scores.count() == 1


@pytest.mark.parametrize("htmx", [False, True])
def test_an_action_other_than_draft_or_submit_is_refused(client, org, coach_round, htmx):
    """Anything but "draft" or "submit" from the buttons used to save a draft."""
    client.force_login(org.rep)
    body = scorecard_body(coach_round, [1, 2, 3], action="publish")
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = post_card(client, coach_round, body, **headers)
    assert_refused(response, "Save a draft or submit your scores.")
    assert not Scorecard.objects.exists()


def test_a_rating_for_a_criterion_of_another_template_is_ignored(client, org, coach_round):
    other = services.template_create(actor=org.admin, name="Demo call", criteria=DISCOVERY)
    foreign = services.current_version(other).criteria.first()
    client.force_login(org.rep)
    forged = {f"rating_{foreign.pk}": "2", f"evidence_{foreign.pk}": "FORGED"}
    body = {**scorecard_body(coach_round, [4, None, None], action="draft"), **forged}
    assert post_card(client, coach_round, body).status_code == 302
    assert list(Score.objects.values_list("criterion", flat=True)) == [
        criteria_of(coach_round)[0].pk
    ]
    # It does not stand in for a criterion of the round's own template either.
    body = {**scorecard_body(coach_round, [4, 2, None]), **forged}
    assert_refused(post_card(client, coach_round, body), "Rate every criterion before submitting")
    assert not Score.objects.filter(criterion=foreign).exists()
    assert Scorecard.objects.get().submitted_at is None


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("moment", "x" * 13, "at most 12 characters"),
        ("evidence", "x" * 501, "at most 500 characters"),
        ("keep", "x" * 2001, "at most 2000 characters"),
    ],
)
def test_overlong_notes_are_refused(client, org, coach_round, field, value, reason):
    client.force_login(org.rep)
    body = scorecard_body(coach_round, [1, 2, 3])
    first = criteria_of(coach_round)[0].pk
    body[f"{field}_{first}" if field != "keep" else "keep"] = value
    assert_refused(post_card(client, coach_round, body), reason)
    assert not Scorecard.objects.exists()


def test_a_submitted_scorecard_is_final(client, org, coach_round):
    submit(org.rep, coach_round, [1, 2, 3])
    client.force_login(org.rep)
    response = post_card(client, coach_round, scorecard_body(coach_round, [4, 4, 4]))
    assert_refused(response, "You already submitted your scores; they are final.")
    card = Scorecard.objects.get()
    assert [s.rating for s in card.scores.order_by("criterion__position")] == [1, 2, 3]


def test_a_rater_who_declined_cannot_score_after_all(client, org, coach_round):
    services.round_decline(actor=org.rep, scoring=coach_round)
    client.force_login(org.rep)
    response = post_card(client, coach_round, scorecard_body(coach_round, [4, 4, 4]))
    assert_refused(response, "You declined to score this call.")
    assert not Scorecard.objects.exists()


def test_a_closed_round_takes_no_more_scores(client, org, coach_round):
    services.round_close(actor=org.manager, scoring=coach_round)
    client.force_login(org.rep)
    page = text_of(client, round_url(coach_round))
    assert "Submit my scores" not in page and "Not scoring this one" not in page
    response = post_card(client, coach_round, scorecard_body(coach_round, [4, 4, 4]))
    assert_refused(response, "This scoring is closed.")
    assert_refused(client.post(round_url(coach_round, "decline")), "This scoring is closed.")
    client.force_login(org.manager)
    response = client.post(round_url(coach_round, "close"))
    assert_refused(response, "This scoring is already closed.")
    assert not Scorecard.objects.exists()
    assert not coach_round.raters.filter(declined_at__isnull=False).exists()


def test_with_htmx_a_refusal_comes_back_as_the_form_with_the_reason(client, org, coach_round):
    client.force_login(org.rep)
    response = post_card(
        client, coach_round, scorecard_body(coach_round, [3, None, None]), HTTP_HX_REQUEST="true"
    )
    assert_refused(response, "Rate every criterion before submitting")
    assert "<html" not in response.content.decode()
    assert not Scorecard.objects.exists()


# --- Starting to score ---------------------------------------------------------------------


def test_a_retired_scorecard_is_not_offered_and_not_accepted(client, org, template, call):
    services.template_retire(actor=org.admin, template=template)
    client.force_login(org.manager)
    page = text_of(client, f"/scorecards/calls/{call.pk}/")
    assert f'<option value="{template.pk}"' not in page
    response = client.post(
        f"/scorecards/calls/{call.pk}/score/", {"template": template.pk, "how": "coach"}
    )
    assert_refused(response, "Pick a scorecard from the list.")
    assert not ScoringRound.objects.exists()


@pytest.mark.parametrize(
    ("who", "data", "reason"),
    [
        ("manager", {"how": "self"}, "Select a valid choice."),  # not their call
        ("rep", {"how": "coach"}, "Select a valid choice."),  # their own: not as coach
        ("rep", {"how": "peer"}, "Pick at least one colleague to ask."),
        ("rep", {"how": "peer", "peers": ["999999"]}, "Select a valid choice."),
        ("rep", {"how": "self", "template": "999999"}, "Pick a scorecard from the list."),
        ("rep", {"how": "self", "template": ""}, "This field is required."),
    ],
)
def test_starting_to_score_with_bad_input_is_refused(
    client, org, template, call, who, data, reason
):
    client.force_login(getattr(org, who))
    body = {"template": template.pk, **data}
    response = client.post(f"/scorecards/calls/{call.pk}/score/", body)
    assert_refused(response, reason)
    assert not ScoringRound.objects.exists()


def test_a_rep_asks_a_colleague_to_score_their_call_too(client, org, template, call):
    client.force_login(org.rep)
    body = {"template": template.pk, "how": "peer", "peers": [org.peer.pk]}
    assert client.post(f"/scorecards/calls/{call.pk}/score/", body).status_code == 302
    scoring = ScoringRound.objects.get()
    assert set(scoring.raters.values_list("person__email", flat=True)) == {
        org.rep.email,
        org.peer.email,
    }


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"person": "OTHER_REP"}, "Pick yourself or someone below you."),
        ({"title": ""}, "This field is required."),
        ({"url": ""}, "Give the link to the recording."),
        ({"url": "not a link"}, "Enter a valid URL."),
        ({"call_date": "FUTURE"}, "The call took place within the last year."),
        ({"call_date": "LONG_AGO"}, "The call took place within the last year."),
        ({"kind": "podcast"}, "Select a valid choice."),
    ],
)
def test_adding_a_call_with_bad_input_is_refused(client, org, data, reason):
    today = timezone.localdate()
    values = {"OTHER_REP": org.other_rep.pk, "FUTURE": today.replace(year=today.year + 1),
              "LONG_AGO": today.replace(year=today.year - 2)}  # fmt: skip
    body = {
        "person": org.rep.pk,
        "kind": "call",
        "title": "Northwind discovery",
        "url": "https://calls.example.com/recordings/1",
        "call_date": today.isoformat(),
        **{k: values.get(v, v) for k, v in data.items()},
    }
    client.force_login(org.rep)
    assert_refused(client.post("/scorecards/calls/new/", body), reason)
    assert not RecordedCall.objects.exists()


def test_a_role_play_needs_no_recording_link(client, org):
    client.force_login(org.rep)
    body = {
        "person": org.rep.pk,
        "kind": "role_play",
        "title": "Pricing role-play",
        "url": "",
        "call_date": timezone.localdate().isoformat(),
    }
    assert client.post("/scorecards/calls/new/", body).status_code == 302
    assert RecordedCall.objects.get().url == ""


# --- The session panel -----------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["999999", "abc", "", "-1", "1.5"])
def test_an_unknown_scorecard_on_the_session_panel_is_refused(client, org, template, raw):
    review = team_review(org)
    client.force_login(org.manager)
    response = client.post(f"/sessions/{review.pk}/call-scoring/", {"template": raw})
    assert_refused(response, "Pick a scorecard from the list.")
    assert "Score the call" in response.content.decode()  # on the session page
    assert not ScoringRound.objects.exists()


def test_a_retired_scorecard_is_refused_on_the_session_panel(client, org, template):
    review = team_review(org)
    services.template_retire(actor=org.admin, template=template)
    client.force_login(org.manager)
    assert f'<option value="{template.pk}"' not in text_of(client, f"/sessions/{review.pk}/")
    response = client.post(f"/sessions/{review.pk}/call-scoring/", {"template": template.pk})
    assert_refused(response, "Pick a scorecard from the list.")
    assert not ScoringRound.objects.exists()


def test_a_second_round_for_the_same_call_and_scorecard_in_a_review_is_refused(
    client, org, template
):
    review = team_review(org)
    client.force_login(org.manager)
    path = f"/sessions/{review.pk}/call-scoring/"
    assert client.post(path, {"template": template.pk}).status_code == 302
    response = client.post(path, {"template": template.pk})
    assert_refused(response, "This call is already being scored with this template here.")
    assert ScoringRound.objects.count() == 1
    # Another scorecard on the same call is a new round.
    other = services.template_create(actor=org.admin, name="Demo call", criteria=DISCOVERY)
    assert client.post(path, {"template": other.pk}).status_code == 302
    assert ScoringRound.objects.count() == 2


def test_a_cancelled_review_is_not_scored_from_the_panel(client, org, template):
    review = team_review(org)
    session_cancel(session=review, actor=org.manager, reason="forecast_call")
    client.force_login(org.manager)
    page = text_of(client, f"/sessions/{review.pk}/")
    assert "Everyone scores it" not in page
    response = client.post(f"/sessions/{review.pk}/call-scoring/", {"template": template.pk})
    assert_refused(response, "This review was cancelled.")
    assert not ScoringRound.objects.exists()
