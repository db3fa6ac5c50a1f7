"""Self-assessment first, through the pages: a manager adds a call for their rep,
opens coach scoring and submits; the rep is told to score it themselves first and
finds none of the coach's ratings or words anywhere — the round, the call, the
scorecards home, their skills (the trend does not move) — until they submit or
decline; then both scorecards stand side by side with the gap."""

import pytest
from django.utils import timezone

from scorecards import services
from scorecards.models import RecordedCall, RoundContext, Scorecard, ScoringRound
from tests.support.scorecards_pages import (
    COACH_WORDS,
    REP_WORDS,
    assert_no_words,
    round_url,
    scorecard_body,
    text_of,
)

from .conftest import submit

pytestmark = pytest.mark.django_db

COACH_RATINGS = [3, 2, 3]
REP_RATINGS = [4, 2, 1]  # gaps (self − coach): +1, 0, −2


def side_by_side(page: str) -> str:
    return page.split('class="side-by-side"', 1)[1].split("</table>", 1)[0]


def rep_pages(scoring) -> list[str]:
    return [
        round_url(scoring),
        f"/scorecards/calls/{scoring.work_id}/",
        "/scorecards/",
        "/skills/",
        "/me/",
    ]


@pytest.fixture
def coached(org, template, call):
    """A coach round on the rep's call with the coach's scorecard submitted."""
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    criteria = scoring.version.criteria.order_by("position")
    services.scorecard_save(
        actor=org.manager,
        scoring=scoring,
        scores=[
            services.ScoreInput(
                criterion=c.pk,
                rating=r,
                evidence_at="04:10" if n == 0 else "",
                evidence=COACH_WORDS["evidence"] if n == 0 else "",
            )
            for n, (c, r) in enumerate(zip(criteria, COACH_RATINGS, strict=True))
        ],
        keep=COACH_WORDS["keep"],
        try_next=COACH_WORDS["try_next"],
        submit=True,
    )
    return scoring


def test_a_manager_adds_a_call_for_their_rep_and_scores_it_as_coach(client, org, template):
    client.force_login(org.manager)
    assert "Add a call" in text_of(client, "/scorecards/calls/new/")
    response = client.post(
        "/scorecards/calls/new/",
        {
            "person": org.rep.pk,
            "kind": "call",
            "title": "Northwind discovery",
            "url": "https://calls.example.com/recordings/1",
            "call_date": timezone.localdate().isoformat(),
            "timestamps": "04:10 first pricing question",
        },
    )
    call = RecordedCall.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/scorecards/calls/{call.pk}/"
    assert (call.person, call.created_by, call.title) == (
        org.rep,
        org.manager,
        "Northwind discovery",
    )

    page = text_of(client, f"/scorecards/calls/{call.pk}/")
    assert "Score it as their coach" in page and "Score it myself" not in page
    assert "Your scores stay hidden from them until they have" in page
    assert "04:10 first pricing question" in page

    response = client.post(
        f"/scorecards/calls/{call.pk}/score/", {"template": template.pk, "how": "coach"}
    )
    scoring = ScoringRound.objects.get()
    assert response.status_code == 302 and response["Location"] == round_url(scoring)
    assert scoring.context == RoundContext.COACH and scoring.created_by == org.manager
    assert dict(scoring.raters.values_list("person", "role")) == {
        org.manager.pk: "coach",
        org.rep.pk: "subject",
    }

    page = text_of(client, round_url(scoring))
    assert "Your scores" in page and "Submit my scores" in page
    response = client.post(
        round_url(scoring, "scorecard"),
        scorecard_body(scoring, COACH_RATINGS, words=COACH_WORDS),
        follow=True,
    )
    assert response.status_code == 200 and "Submitted." in response.content.decode()
    card = Scorecard.objects.get(rater=org.manager)
    assert card.submitted_at is not None and card.keep == COACH_WORDS["keep"]
    assert [s.rating for s in card.scores.order_by("criterion__position")] == COACH_RATINGS
    # The coach sees their own scorecard, and that the rep has not scored yet.
    page = response.content.decode()
    assert COACH_WORDS["evidence"] in page and "Submit my scores" not in page
    assert "Who scores" in page and "not yet" in page


def test_the_rep_is_told_to_score_first_and_finds_nothing_of_the_coach_anywhere(
    client, org, coached
):
    client.force_login(org.rep)
    page = text_of(client, round_url(coached))
    assert "Score it yourself first." in page and "Your coach has scored this call." in page
    assert "scored — shows once you have" in page
    assert 'class="side-by-side"' not in page and "Scores</h2>" not in page
    assert "Submit my scores" in page and "Not scoring this one" in page
    # The form starts empty: nothing of the coach's ratings is pre-filled.
    assert "checked" not in page.split('id="scorecard-form"', 1)[1].split("</form>", 1)[0]
    for path in rep_pages(coached):
        assert_no_words(text_of(client, path), COACH_WORDS, path)
    home = text_of(client, "/scorecards/")
    assert "score it yourself first" in home and "1 of 2 scored" in home
    skills = text_of(client, "/skills/")
    assert "Nothing scored yet" in skills and "Open questions" not in skills


def test_the_trend_does_not_move_until_the_rep_has_scored(client, org, coached):
    client.force_login(org.rep)
    before = text_of(client, "/skills/")
    assert "Open questions" not in before and "trend-table" not in before
    client.post(round_url(coached, "scorecard"), scorecard_body(coached, REP_RATINGS))
    after = text_of(client, "/skills/")
    assert "Open questions" in after and "Listening" in after
    table = after.split("Open questions", 1)[1].split("</table>", 1)[0]
    # Coaches and peers 3.0, self 4.0, gap +1.0, two scores.
    assert "<td>3.0</td><td>4.0</td><td>+1.0</td><td>2</td>" in table


def test_submitting_reveals_both_scorecards_side_by_side_with_the_gap(client, org, coached):
    client.force_login(org.rep)
    response = client.post(
        round_url(coached, "scorecard"),
        scorecard_body(coached, REP_RATINGS, words=REP_WORDS),
        follow=True,
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Submitted." in page
    assert "Score it yourself first." not in page and "Submit my scores" not in page
    assert "Side by side" in page
    table = side_by_side(page)
    assert "Mia Manager" in table and "Rita Rep (you)" in table
    assert "Gap" in table and "Spread" in table
    rows = table.split("<tbody>", 1)[1].split("</tr>")[:3]
    assert "+1" in rows[0] and "gap-big" in rows[0]
    assert ">0<" in rows[1] and "gap-big" not in rows[1]
    assert "-2" in rows[2] and "gap-big" in rows[2]
    for words in (COACH_WORDS, REP_WORDS):
        for text in words.values():
            assert text in page
    # The coach, too, now sees the rep's scorecard beside theirs.
    client.force_login(org.manager)
    coach_page = text_of(client, round_url(coached))
    assert REP_WORDS["keep"] in coach_page and "Side by side" in coach_page


def test_declining_to_score_also_reveals_the_coachs_scorecard(client, org, coached):
    client.force_login(org.rep)
    response = client.post(round_url(coached, "decline"), follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and "You will not score this one." in page
    assert "Score it yourself first." not in page and "Submit my scores" not in page
    for text in COACH_WORDS.values():
        assert text in page
    assert "declined" in page and "Gap" not in page  # no self-assessment to compare
    skills = text_of(client, "/skills/")
    assert "Open questions" in skills
    home = text_of(client, "/scorecards/")
    assert "Nothing to score right now." in home


def test_the_reps_draft_is_theirs_alone_and_keeps_the_coach_hidden(client, org, coached):
    client.force_login(org.rep)
    body = scorecard_body(coached, [4, None, None], action="draft", words=REP_WORDS)
    response = client.post(round_url(coached, "scorecard"), body, follow=True)
    page = response.content.decode()
    assert "Draft saved: only you see it." in page
    assert "Score it yourself first." in page and "your draft" in page
    assert REP_WORDS["keep"] in page  # the form carries on where they left off
    assert_no_words(page, COACH_WORDS, "after a draft")
    client.force_login(org.manager)
    assert_no_words(text_of(client, round_url(coached)), REP_WORDS, "the coach")


def test_a_chain_manager_above_sees_the_submitted_scorecards_but_cannot_score(client, org, coached):
    submit(org.rep, coached, REP_RATINGS)
    client.force_login(org.head)
    page = text_of(client, round_url(coached))
    assert COACH_WORDS["keep"] in page and "Side by side" in page
    assert "Submit my scores" not in page and "Score it yourself first." not in page
    body = scorecard_body(coached, [1, 1, 1])
    assert client.post(round_url(coached, "scorecard"), body).status_code == 404
    assert not Scorecard.objects.filter(rater=org.head).exists()
