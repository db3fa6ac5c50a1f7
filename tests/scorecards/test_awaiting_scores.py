"""A round's `awaiting_scores` — what `scoring_over` reads for the reveal rule and the
aggregates — is kept by the services that change it: opening a round, a scorecard
submitted (a draft changes nothing), a rater declining, the round closed. At every
step it is what the raters and scorecards decide (`awaiting_scores_now`). And on
PostgreSQL the rule reads the rounds still being scored from their partial index,
rather than every round's raters and scorecards (the head's scorecards list at
10,000 people: 0.9 s with those, 0.4 s before the rule)."""

import pytest

from scorecards import services
from scorecards.models import Score, Scorecard, ScoringRound, awaiting_scores_now, scoring_over
from tests.support.factories import RecordedCallFactory
from tests.support.query_plans import explain_sent

from .conftest import submit

pytestmark = pytest.mark.django_db


def kept(scoring) -> bool:
    """The round's stored flag, after checking every round's matches the rule."""
    decided = set(ScoringRound.objects.filter(awaiting_scores_now()).values_list("pk", flat=True))
    stored = set(ScoringRound.objects.filter(awaiting_scores=True).values_list("pk", flat=True))
    assert stored == decided
    return scoring.pk in stored


def test_a_coach_round_awaits_scores_until_both_have_scored(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    assert kept(scoring)
    services.scorecard_save(
        actor=org.manager, scoring=scoring, scores=[], keep="Draft", submit=False
    )
    assert kept(scoring)  # a draft is no score
    submit(org.rep, scoring, [3, 3, 3])
    assert kept(scoring)
    submit(org.manager, scoring, [2, 3, 4])
    assert not kept(scoring)


def test_a_decline_or_the_close_ends_the_wait(org, template, call):
    declined = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, declined, [2, 3, 4])
    assert kept(declined)
    services.round_decline(actor=org.rep, scoring=declined)
    assert not kept(declined)

    other = RecordedCallFactory(person=org.rep, title="Another call")
    closed = services.coach_scoring_open(actor=org.manager, work=other, template=template)
    assert kept(closed)
    services.round_close(actor=org.manager, scoring=closed)
    assert not kept(closed)


def test_peers_one_declining_one_scoring(org, template, call):
    scoring = services.peer_scoring_open(
        actor=org.rep, work=call, template=template, peers=[org.peer, org.other_rep]
    )
    assert kept(scoring)
    services.round_decline(actor=org.rep, scoring=scoring)
    services.round_decline(actor=org.peer, scoring=scoring)
    assert kept(scoring)
    submit(org.other_rep, scoring, [1, 2, 3])
    assert not kept(scoring)


# --- The rule reads the partial index (PostgreSQL) -----------------------------------


def _reads_the_index(plans: list[str]) -> bool:
    return any("round_awaiting_scores" in plan for plan in plans)


@pytest.mark.postgres
def test_the_chain_s_list_and_the_aggregates_read_the_rounds_being_scored_from_their_index(
    org, template, call
):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.rep, scoring, [3, 3, 3])
    listed = explain_sent(
        lambda: list(Scorecard.objects.visible_to(org.head).values_list("pk", flat=True)),
        touching="scorecards_scoringround",
    )
    assert listed and _reads_the_index(listed)
    scores = explain_sent(
        lambda: list(Score.objects.filter(scoring_over("scorecard__round")).values("pk")),
        touching="scorecards_score",
    )
    assert scores and _reads_the_index(scores)
