"""Scoring: who may open which round, and bad input refused with nothing saved."""

import pytest
from django.core.exceptions import ValidationError

from core.errors import Forbidden
from scorecards import services
from scorecards.models import Score, Scorecard, ScoringRound
from scorecards.selectors import round_view
from scorecards.services import ScoreInput

from .conftest import DISCOVERY, criteria_of, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def scoring(org, template, call):
    return services.coach_scoring_open(actor=org.manager, work=call, template=template)


def test_only_someone_above_the_subject_coach_scores(org, template, call):
    for outsider in (org.peer, org.other_manager, org.hr, org.admin, org.rep):
        with pytest.raises(Forbidden):
            services.coach_scoring_open(actor=outsider, work=call, template=template)
    assert services.coach_scoring_open(actor=org.head, work=call, template=template)


def test_only_the_subject_self_assesses_or_asks_peers(org, template, call):
    with pytest.raises(Forbidden):
        services.self_assessment_open(actor=org.manager, work=call, template=template)
    with pytest.raises(Forbidden):
        services.peer_scoring_open(actor=org.peer, work=call, template=template, peers=[org.peer])
    with pytest.raises(ValidationError, match="ask someone else"):
        services.peer_scoring_open(actor=org.rep, work=call, template=template, peers=[org.rep])
    peer_round = services.peer_scoring_open(
        actor=org.rep, work=call, template=template, peers=[org.peer]
    )
    assert set(peer_round.raters.values_list("person__email", "role")) == {
        ("rep@example.com", "subject"),
        ("peer@example.com", "peer"),
    }


def test_calibrations_are_for_programme_admins_and_managers_of_managers(org, template, call):
    with pytest.raises(Forbidden, match="Calibrations are run by"):
        services.calibration_open(
            actor=org.manager, work=call, template=template, raters=[org.peer, org.rep], title="x"
        )
    with pytest.raises(ValidationError, match="at least two raters"):
        services.calibration_open(
            actor=org.admin, work=call, template=template, raters=[org.manager], title="x"
        )
    assert services.calibration_open(
        actor=org.admin,
        work=call,
        template=template,
        raters=[org.manager, org.other_manager],
        title="Q3",
    )


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        (lambda c, other: [ScoreInput(c[0].pk, 5)], "rated from 1 to 4"),
        (lambda c, other: [ScoreInput(c[0].pk, 0)], "rated from 1 to 4"),
        (lambda c, other: [ScoreInput(other.pk, 2)], "another template"),
        (lambda c, other: [ScoreInput(c[0].pk, 2), ScoreInput(c[0].pk, 3)], "scored twice"),
        (lambda c, other: [ScoreInput(c[0].pk, 2)], "Rate every criterion"),
        (lambda c, other: [ScoreInput(c[0].pk, 2, evidence="x" * 501)], "under 500"),
    ],
)
def test_bad_scores_are_refused_and_nothing_is_saved(org, scoring, scores, message):
    other_template = services.template_create(actor=org.admin, name="Demo", criteria=DISCOVERY)
    other = services.current_version(other_template).criteria.first()
    with pytest.raises(ValidationError, match=message):
        services.scorecard_save(
            actor=org.manager,
            scoring=scoring,
            scores=scores(criteria_of(scoring), other),
            submit=True,
        )
    assert not Scorecard.objects.exists() and not Score.objects.exists()


def test_a_draft_is_saved_then_submitted_once_and_is_final(org, scoring):
    criteria = criteria_of(scoring)
    draft = services.scorecard_save(
        actor=org.manager,
        scoring=scoring,
        scores=[ScoreInput(criteria[0].pk, 2, "04:10", "Asked about budget first")],
        keep="Calm pace",
    )
    assert draft.submitted_at is None and draft.scores.count() == 1
    card = submit(org.manager, scoring, [3, 2, 3], keep="Calm pace", try_next="Summarise")
    assert card.pk == draft.pk and card.submitted_at is not None
    assert list(card.scores.values_list("rating", flat=True)) == [3, 2, 3]
    with pytest.raises(ValidationError, match="final"):
        submit(org.manager, scoring, [1, 1, 1])


def test_someone_not_invited_cannot_score(org, scoring):
    with pytest.raises(Forbidden, match="not one of the raters"):
        submit(org.peer, scoring, [1, 1, 1])


def test_a_closed_round_takes_no_more_scores(org, scoring):
    services.round_close(actor=org.manager, scoring=scoring)
    with pytest.raises(ValidationError, match="closed"):
        submit(org.rep, scoring, [1, 1, 1])
    with pytest.raises(Forbidden, match="Only whoever opened"):
        services.round_close(actor=org.rep, scoring=scoring)


def test_a_declined_rater_cannot_score_and_their_draft_is_dropped(org, scoring):
    services.scorecard_save(
        actor=org.rep, scoring=scoring, scores=[ScoreInput(criteria_of(scoring)[0].pk, 2)]
    )
    services.round_decline(actor=org.rep, scoring=scoring)
    assert not Scorecard.objects.filter(rater=org.rep).exists()
    with pytest.raises(ValidationError, match="declined"):
        submit(org.rep, scoring, [1, 1, 1])


def test_one_team_review_round_per_session_call_and_template(org, template, call):
    kwargs = dict(
        actor=org.manager,
        work=call,
        template=template,
        session_id=7,
        manager=org.manager,
        participants=[org.peer],
    )
    services.team_review_scoring_open(**kwargs)
    with pytest.raises(ValidationError, match="already being scored"):
        services.team_review_scoring_open(**kwargs)
    assert ScoringRound.objects.count() == 1


def test_the_same_person_is_not_invited_twice(org, template, call):
    with pytest.raises(ValidationError, match="rates once"):
        services.calibration_open(
            actor=org.admin,
            work=call,
            template=template,
            raters=[org.manager, org.manager],
            title="Q3",
        )
    assert not ScoringRound.objects.exists()


def test_the_same_rater_does_not_score_the_same_call_twice_at_once(org, template, call):
    """A second coach round on the same call and scorecard would ask the rep twice;
    a self-assessment is its own context; once closed, a later look is a new round."""
    coached = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    with pytest.raises(ValidationError, match="already being scored"):
        services.coach_scoring_open(actor=org.head, work=call, template=template)
    alone = services.self_assessment_open(actor=org.rep, work=call, template=template)
    with pytest.raises(ValidationError, match="already being scored"):
        services.self_assessment_open(actor=org.rep, work=call, template=template)
    services.round_close(actor=org.manager, scoring=coached)
    assert services.coach_scoring_open(actor=org.head, work=call, template=template)
    assert ScoringRound.objects.count() == 3 and alone.context == "self"


def test_the_gap_is_against_the_median_of_the_others(org, template, call):
    """Self 2 against others 1 and 3: no gap (the median is 2), not −1."""
    scoring = services.peer_scoring_open(
        actor=org.rep, work=call, template=template, peers=[org.peer, org.manager]
    )
    submit(org.peer, scoring, [1, 1, 1])
    submit(org.manager, scoring, [3, 4, 1])
    submit(org.rep, scoring, [2, 2, 1])
    rows = round_view(user=org.rep, scoring=scoring).rows
    assert [row.gap for row in rows] == [0, -0.5, 0]
