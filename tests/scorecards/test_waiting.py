"""“Waiting on me”: open rounds where I am a rater and have neither submitted nor
declined — a draft of mine keeps the round waiting, whoever else submitted."""

import pytest

from scorecards import selectors, services
from scorecards.services import ScoreInput

from .conftest import criteria_of, submit

pytestmark = pytest.mark.django_db


def waiting(person):
    return set(selectors.waiting_on(user=person))


def test_a_round_waits_on_me_until_i_submit_or_decline(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    assert waiting(org.rep) == {scoring} and waiting(org.manager) == {scoring}
    submit(org.manager, scoring, [3, 2, 3])
    assert waiting(org.manager) == set()
    services.round_decline(actor=org.rep, scoring=scoring)
    assert waiting(org.rep) == set()


def test_my_draft_next_to_someone_elses_submitted_scorecard_still_waits_on_me(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    services.scorecard_save(
        actor=org.rep, scoring=scoring, scores=[ScoreInput(criteria_of(scoring)[0].pk, 2)]
    )
    submit(org.manager, scoring, [3, 2, 3])
    assert waiting(org.rep) == {scoring}


def test_a_closed_round_waits_on_nobody(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    services.round_close(actor=org.manager, scoring=scoring)
    assert waiting(org.rep) == set() and waiting(org.manager) == set()
