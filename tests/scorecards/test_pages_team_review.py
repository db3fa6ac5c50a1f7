"""A team call review's call, scored through the pages: whoever leads the review opens
the scoring from the session page; each participant scores blind; the presenter sees
the spread per criterion; the lead's scorecard shows last — hidden from the others
until every rater but the lead has scored or declined."""

import pytest

from scorecards.models import RaterRole, RoundContext, Scorecard, ScoringRound
from tests.support.factories import UserFactory
from tests.support.scorecards_pages import round_url, scorecard_body, team_review, text_of

from .conftest import submit

pytestmark = pytest.mark.django_db

LEAD_WORDS = {"keep": "LEADKEEP your silence after the price"}
PEER_WORDS = {"keep": "PEERKEEP the recap before the demo"}
THIRD_WORDS = {"keep": "THIRDKEEP naming the next step"}


@pytest.fixture
def third(org):
    return UserFactory(display_name="Tina Third", email="third@example.com", manager=org.manager)


@pytest.fixture
def review(org, third):
    return team_review(org, extra_members=[third])


@pytest.fixture
def scoring(client, org, review, template):
    client.force_login(org.manager)
    client.post(f"/sessions/{review.pk}/call-scoring/", {"template": template.pk})
    return ScoringRound.objects.get()


def test_the_lead_opens_the_scoring_from_the_session_page(client, org, review, template, third):
    client.force_login(org.manager)
    page = text_of(client, f"/sessions/{review.pk}/")
    assert "Score the call" in page and "Everyone scores it" in page
    assert f'action="/sessions/{review.pk}/call-scoring/"' in page
    assert f'<option value="{template.pk}"' in page
    response = client.post(f"/sessions/{review.pk}/call-scoring/", {"template": template.pk})
    scoring = ScoringRound.objects.get()
    assert response.status_code == 302 and response["Location"] == round_url(scoring)
    assert scoring.context == RoundContext.TEAM_REVIEW and scoring.session_id == review.pk
    assert scoring.work == review.presented_call
    assert dict(scoring.raters.values_list("person", "role")) == {
        org.rep.pk: RaterRole.SUBJECT,
        org.manager.pk: RaterRole.MANAGER,
        org.peer.pk: RaterRole.PARTICIPANT,
        third.pk: RaterRole.PARTICIPANT,
    }
    page = text_of(client, f"/sessions/{review.pk}/")
    assert f'href="{round_url(scoring)}"' in page and "0 of 4 scored" in page
    assert "Score it against another scorecard" in page


def test_participants_see_the_round_on_the_session_page_but_do_not_open_one(
    client, org, review, scoring, template
):
    client.force_login(org.rep)  # the presenter
    page = text_of(client, f"/sessions/{review.pk}/")
    assert f'href="{round_url(scoring)}"' in page
    assert f'action="/sessions/{review.pk}/call-scoring/"' not in page
    response = client.post(f"/sessions/{review.pk}/call-scoring/", {"template": template.pk})
    assert response.status_code == 400
    assert "Only whoever runs the review opens the scoring." in response.content.decode()
    assert ScoringRound.objects.count() == 1


def test_each_participant_scores_blind_through_the_round_page(client, org, scoring, third):
    client.force_login(org.peer)
    page = text_of(client, round_url(scoring))
    assert "Submit my scores" in page and "Participant" in page
    response = client.post(
        round_url(scoring, "scorecard"), scorecard_body(scoring, [3, 3, 3], words=PEER_WORDS)
    )
    assert response.status_code == 302
    # Third has not scored yet: they see that the peer has, never what.
    client.force_login(third)
    page = text_of(client, round_url(scoring))
    assert "Score it yourself first." in page and "Others have scored." in page
    assert PEER_WORDS["keep"] not in page and 'class="side-by-side"' not in page
    client.post(
        round_url(scoring, "scorecard"), scorecard_body(scoring, [2, 3, 4], words=THIRD_WORDS)
    )
    page = text_of(client, round_url(scoring))
    assert PEER_WORDS["keep"] in page and THIRD_WORDS["keep"] in page
    assert Scorecard.objects.submitted().count() == 2


def test_the_presenter_sees_the_spread_per_criterion(client, org, scoring, third):
    submit(org.peer, scoring, [3, 3, 1])
    submit(third, scoring, [4, 3, 4])
    client.force_login(org.rep)
    assert "Score it yourself first." in text_of(client, round_url(scoring))
    response = client.post(round_url(scoring, "scorecard"), scorecard_body(scoring, [2, 3, 2]))
    assert response.status_code == 302
    page = text_of(client, round_url(scoring))
    table = page.split('class="side-by-side"', 1)[1].split("</table>", 1)[0]
    assert "Spread" in table and "Pavel Peer" in table and "Tina Third" in table
    rows = table.split("<tbody>", 1)[1].split("</tr>")[:3]
    assert "2–4" in rows[0] and "100% within one of the median" in rows[0]
    assert "3–3" in rows[1]
    assert "1–4" in rows[2] and "outlier" in rows[2]  # the median is 2: the 4 is far off
    assert "Krippendorff" in page


def test_the_leads_scorecard_shows_last(client, org, scoring, third):
    submit(org.manager, scoring, [4, 4, 4], keep=LEAD_WORDS["keep"])
    submit(org.peer, scoring, [3, 3, 3])
    submit(org.rep, scoring, [2, 2, 2])
    # Third has not scored: the lead's card stays hidden from everyone who has.
    for person in (org.rep, org.peer):
        client.force_login(person)
        page = text_of(client, round_url(scoring))
        assert LEAD_WORDS["keep"] not in page, person
        assert "Manager (revealed last)" in page and "Side by side" in page
        assert "scored — shows once everyone else has" in page  # not "once you have"
        table = page.split('class="side-by-side"', 1)[1].split("</table>", 1)[0]
        assert "Mia Manager" not in table
    client.force_login(third)
    client.post(round_url(scoring, "decline"))
    for person in (org.rep, org.peer, third):
        client.force_login(person)
        page = text_of(client, round_url(scoring))
        assert LEAD_WORDS["keep"] in page, person
        assert "Mia Manager" in page.split('class="side-by-side"', 1)[1].split("</table>")[0]


def test_closing_the_review_round_shows_the_leads_scorecard_to_everyone_done(
    client, org, scoring, third
):
    submit(org.manager, scoring, [4, 4, 4], keep=LEAD_WORDS["keep"])
    submit(org.peer, scoring, [3, 3, 3])
    client.force_login(org.peer)
    assert LEAD_WORDS["keep"] not in text_of(client, round_url(scoring))
    client.force_login(org.manager)
    assert client.post(round_url(scoring, "close")).status_code == 302
    for person in (org.peer, org.rep, third):
        client.force_login(person)
        page = text_of(client, round_url(scoring))
        assert LEAD_WORDS["keep"] in page and "Submit my scores" not in page, person
