"""The reveal rule: self-assessment first, everyone blind until they scored, the
manager's scorecard last in a team review, a calibration only once closed, the
subject's management chain sees what is about them once the scoring is over, HR and
admins see nothing."""

import pytest

from scorecards import selectors, services
from scorecards.models import Scorecard
from tests.support.factories import UserFactory

from .conftest import submit

pytestmark = pytest.mark.django_db


def seen_by(person, scoring):
    return set(
        Scorecard.objects.visible_to(person)
        .filter(round=scoring)
        .values_list("rater__email", flat=True)
    )


def test_the_subject_cannot_see_the_coach_scores_before_scoring_themselves(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, scoring, [3, 2, 3])
    assert seen_by(org.rep, scoring) == set()
    view = selectors.round_view(user=org.rep, scoring=scoring)
    assert view.hidden_until_i_score and view.waiting_on_me
    assert [line.state for line in view.lines] == ["hidden", "waiting"]
    submit(org.rep, scoring, [4, 2, 2])
    assert seen_by(org.rep, scoring) == {"manager@example.com", "rep@example.com"}
    view = selectors.round_view(user=org.rep, scoring=scoring)
    assert [row.gap for row in view.rows] == [1, 0, -1]  # self minus coach


def test_declining_self_assessment_reveals_the_coach_scores(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, scoring, [3, 2, 3])
    services.round_decline(actor=org.rep, scoring=scoring)
    assert seen_by(org.rep, scoring) == {"manager@example.com"}


def test_the_coach_sees_the_self_assessment_only_after_scoring_too(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.rep, scoring, [4, 4, 4])
    # The coach is also the rep's manager, and the head above both: being in the
    # chain does not lift the blind while someone is still scoring.
    assert seen_by(org.manager, scoring) == set()
    assert seen_by(org.head, scoring) == set()
    view = selectors.round_view(user=org.manager, scoring=scoring)
    assert view.hidden_until_i_score and view.waiting_on_me
    view = selectors.round_view(user=org.head, scoring=scoring)
    assert view.hidden_until_everyone_scored and not view.hidden_until_i_score
    assert [line.state for line in view.lines] == ["waiting", "hidden"]
    submit(org.manager, scoring, [3, 3, 3])
    both = {"manager@example.com", "rep@example.com"}
    assert seen_by(org.manager, scoring) == both
    assert seen_by(org.head, scoring) == both
    assert not selectors.round_view(user=org.head, scoring=scoring).hidden_until_everyone_scored


def test_drafts_are_their_raters_alone(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    criteria = list(scoring.version.criteria.all())
    services.scorecard_save(
        actor=org.manager,
        scoring=scoring,
        scores=[services.ScoreInput(criterion=criteria[0].pk, rating=2)],
    )
    assert seen_by(org.manager, scoring) == {"manager@example.com"}
    services.round_decline(actor=org.rep, scoring=scoring)
    assert seen_by(org.rep, scoring) == set()
    assert seen_by(org.head, scoring) == set()


@pytest.mark.parametrize("who", ["hr", "admin", "other_manager", "other_rep", "peer"])
def test_hr_admins_and_outsiders_see_no_scorecard(org, template, call, who):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, scoring, [3, 2, 3])
    submit(org.rep, scoring, [4, 2, 2])
    assert seen_by(getattr(org, who), scoring) == set()


def test_a_team_review_reveals_the_manager_last(org, template, call):
    scoring = services.team_review_scoring_open(
        actor=org.manager,
        work=call,
        template=template,
        session_id=1,
        manager=org.manager,
        participants=[org.rep, org.peer, org.manager],
    )
    submit(org.manager, scoring, [2, 2, 2])
    submit(org.peer, scoring, [3, 3, 3])
    # The peer scored: sees their own only, the manager's waits for the presenter.
    assert seen_by(org.peer, scoring) == {"peer@example.com"}
    submit(org.rep, scoring, [4, 3, 2])
    assert seen_by(org.peer, scoring) == {
        "peer@example.com",
        "rep@example.com",
        "manager@example.com",
    }


def test_closing_a_team_review_reveals_the_manager_even_if_someone_never_scored(
    org, template, call
):
    scoring = services.team_review_scoring_open(
        actor=org.manager,
        work=call,
        template=template,
        session_id=1,
        manager=org.manager,
        participants=[org.peer],
    )
    submit(org.manager, scoring, [2, 2, 2])
    submit(org.peer, scoring, [3, 3, 3])
    assert "manager@example.com" not in seen_by(org.peer, scoring)
    services.round_close(actor=org.manager, scoring=scoring)
    assert "manager@example.com" in seen_by(org.peer, scoring)


def test_a_calibration_is_blind_until_closed_and_never_shown_to_the_chain(org, template, call):
    third = UserFactory(manager=org.head, email="third.manager@example.com")
    scoring = services.calibration_open(
        actor=org.head,
        work=call,
        template=template,
        raters=[org.manager, org.other_manager, third],
        title="Q3 discovery calibration",
    )
    submit(org.manager, scoring, [3, 3, 3])
    submit(org.other_manager, scoring, [2, 3, 4])
    assert seen_by(org.other_manager, scoring) == {"other.manager@example.com"}
    assert seen_by(org.head, scoring) == set()  # the organiser waits for the close too
    services.round_close(actor=org.head, scoring=scoring)
    everyone = {"manager@example.com", "other.manager@example.com"}
    assert seen_by(org.other_manager, scoring) == everyone
    assert seen_by(third, scoring) == everyone  # did not score, learns all the same
    assert seen_by(org.head, scoring) == everyone  # the organiser
    # The rep whose call it is, and their manager as the chain, see no calibration.
    assert seen_by(org.rep, scoring) == set()


def test_the_reveal_rule_is_one_query(org, template, call, django_assert_num_queries):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, scoring, [3, 2, 3])
    with django_assert_num_queries(1):
        list(Scorecard.objects.visible_to(org.rep).filter(round=scoring))
