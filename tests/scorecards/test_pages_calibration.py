"""Calibrations through the pages: a manager of managers (or a programme admin) picks
a call and invites raters; everyone scores blind until whoever opened it closes it;
then the page shows each criterion's spread, the share within one point of the
median, the outliers and Krippendorff's alpha. Anyone else's close is a 400 with
the reason; the page to start one is 404 to everyone who may not run one."""

import re
from datetime import date, timedelta

import pytest

from scorecards.agreement import krippendorff_alpha_interval
from scorecards.forms import CallChoiceField
from scorecards.models import RaterRole, RoundContext, ScoringRound
from tests.support.factories import RecordedCallFactory, UserFactory
from tests.support.scorecards_pages import round_url, scorecard_body, text_of

from .conftest import submit

pytestmark = pytest.mark.django_db

# Per rater, per criterion. "Open questions": 1, 3, 4 → median 3, the 1 is an outlier.
RATINGS = {"manager": [1, 2, 3], "other_manager": [3, 2, 4], "head": [4, 2, 3]}
WORDS = {who: f"CALIBWORDS {who} heard the budget question" for who in RATINGS}
RATERS = list(RATINGS)


@pytest.fixture
def calibration(client, org, template, call):
    client.force_login(org.head)
    response = client.post(
        "/scorecards/calibrations/new/",
        {
            "title": "Q3 discovery calibration",
            "work": call.pk,
            "template": template.pk,
            "raters": [getattr(org, who).pk for who in RATERS],
        },
    )
    scoring = ScoringRound.objects.get()
    assert response.status_code == 302 and response["Location"] == round_url(scoring)
    return scoring


def score_all(org, scoring):
    for who, ratings in RATINGS.items():
        submit(getattr(org, who), scoring, ratings, keep=WORDS[who])


def test_a_manager_of_managers_opens_a_calibration_from_the_page(client, org, calibration):
    assert calibration.context == RoundContext.CALIBRATION
    assert calibration.title == "Q3 discovery calibration" and calibration.created_by == org.head
    roles = dict(calibration.raters.values_list("person__email", "role"))
    assert roles == {getattr(org, who).email: RaterRole.CALIBRATOR for who in RATERS}
    page = text_of(client, "/scorecards/calibrations/")
    assert "Run a calibration" in page and "Q3 discovery calibration" in page
    assert "0 of 3 scored" in page and "open" in page


def test_a_programme_admin_calibrates_on_a_recording_they_add(client, org, template, call):
    """An admin has nobody below them: the calls they may pick are their own (a
    training recording), never a rep's."""
    client.force_login(org.admin)
    page = text_of(client, "/scorecards/calibrations/new/")
    assert "There is no call to calibrate on yet." in page and "Add a call" in page
    assert "Northwind discovery" not in page and "Open the calibration" not in page
    body = {
        "title": "Admin calibration",
        "work": call.pk,
        "template": template.pk,
        "raters": [org.manager.pk, org.other_manager.pk],
    }
    response = client.post("/scorecards/calibrations/new/", body)
    assert response.status_code == 400 and "Pick a call from the list." in response.content.decode()
    own = RecordedCallFactory(person=org.admin, title="Training recording: pricing")
    page = text_of(client, "/scorecards/calibrations/new/")
    assert "Training recording: pricing" in page and "Mia Manager" in page
    response = client.post("/scorecards/calibrations/new/", {**body, "work": own.pk})
    assert response.status_code == 302
    assert ScoringRound.objects.get().created_by == org.admin


def test_one_rater_is_not_a_calibration(client, org, template, call):
    client.force_login(org.head)
    response = client.post(
        "/scorecards/calibrations/new/",
        {"title": "Lonely", "work": call.pk, "template": template.pk, "raters": [org.manager.pk]},
    )
    assert response.status_code == 400
    assert "Invite at least two raters" in response.content.decode()
    assert not ScoringRound.objects.exists()


def test_everyone_scores_blind_until_it_is_closed(client, org, calibration):
    score_all(org, calibration)
    for who in RATERS:
        client.force_login(getattr(org, who))
        page = text_of(client, round_url(calibration))
        assert "Each rater scores blind." in page, who
        assert WORDS[who] in page  # their own
        others = [text for other, text in WORDS.items() if other != who]
        assert not any(text in page for text in others), who
        assert "Krippendorff" not in page and "Side by side" not in page
        assert page.count("scored — shows when it is closed") == 2  # the two others
    # The rep whose call it is, and the raters' managers, see nothing of it.
    client.force_login(org.rep)
    assert client.get(round_url(calibration)).status_code == 404


def test_only_whoever_opened_it_closes_it(client, org, calibration):
    score_all(org, calibration)
    client.force_login(org.manager)
    page = text_of(client, round_url(calibration))
    assert "Close and reveal" not in page
    response = client.post(round_url(calibration, "close"))
    assert response.status_code == 400
    assert "Only whoever opened the scoring can close it." in response.content.decode()
    calibration.refresh_from_db()
    assert calibration.closed_at is None
    client.force_login(org.head)
    assert "Close and reveal" in text_of(client, round_url(calibration))


def test_closing_shows_the_spread_the_share_within_one_the_outliers_and_alpha(
    client, org, calibration
):
    score_all(org, calibration)
    client.force_login(org.head)
    response = client.post(round_url(calibration, "close"), follow=True)
    page = response.content.decode()
    assert "Closed: everyone&#x27;s scores show now." in page
    calibration.refresh_from_db()
    assert calibration.closed_at is not None
    alpha = krippendorff_alpha_interval(list(zip(*RATINGS.values(), strict=True)))
    for who in RATERS:
        client.force_login(getattr(org, who))
        page = text_of(client, round_url(calibration))
        assert "Each rater scores blind." not in page and "Close and reveal" not in page
        assert all(text in page for text in WORDS.values()), who
        assert f"Krippendorff's alpha): <strong>{alpha:.2f}</strong>" in page.replace("&#x27;", "'")
        table = page.split('class="side-by-side"', 1)[1].split("</table>", 1)[0]
        rows = table.split("<tbody>", 1)[1].split("</tr>")[:3]
        assert "1–4" in rows[0] and "67% within one of the median" in rows[0]
        assert rows[0].count("outlier</span>") == 1
        assert "1: Pitches straight away" in rows[0]  # the anchors beside the spread
        assert "2–2" in rows[1] and "100% within one" in rows[1] and "outlier<" not in rows[1]
        assert "3–4" in rows[2]


def test_a_closed_calibration_does_not_move_anyones_skill_trend(client, org, calibration):
    score_all(org, calibration)
    client.force_login(org.head)
    client.post(round_url(calibration, "close"))
    for viewer, path in [(org.rep, "/skills/"), (org.manager, f"/people/{org.rep.pk}/skills/")]:
        client.force_login(viewer)
        assert "Open questions" not in text_of(client, path)


@pytest.mark.parametrize("who", ["manager", "other_manager", "rep", "peer", "hr"])
def test_people_who_may_not_calibrate_get_404_on_the_new_page(client, org, template, call, who):
    client.force_login(getattr(org, who))
    assert client.get("/scorecards/calibrations/new/").status_code == 404
    body = {
        "title": "Sneaky",
        "work": call.pk,
        "template": template.pk,
        "raters": [org.manager.pk, org.other_manager.pk],
    }
    assert client.post("/scorecards/calibrations/new/", body).status_code == 404
    assert not ScoringRound.objects.exists()
    page = text_of(client, "/scorecards/calibrations/")
    assert "Run a calibration" not in page


def test_the_calibration_list_shows_only_what_you_run_or_rate_in(client, org, calibration):
    for who, sees in [("manager", True), ("rep", False), ("peer", False), ("hr", False)]:
        client.force_login(getattr(org, who))
        page = text_of(client, "/scorecards/calibrations/")
        assert ("Q3 discovery calibration" in page) is sees, who


def test_a_raters_scorecard_is_saved_from_the_round_page(client, org, calibration):
    client.force_login(org.other_manager)
    body = scorecard_body(calibration, RATINGS["other_manager"])
    assert client.post(round_url(calibration, "scorecard"), body).status_code == 302
    page = text_of(client, "/scorecards/calibrations/")
    assert "1 of 3 scored" in page


def test_the_call_list_offers_the_latest_and_still_accepts_an_older_one(
    client, org, template, monkeypatch
):
    """Above a large organisation hundreds of thousands of calls are visible: the list
    offers the latest few, and any visible call is still accepted by id."""
    monkeypatch.setattr(CallChoiceField, "shown", 2)
    calls = [
        RecordedCallFactory(
            person=org.rep, title=f"Call {n}", call_date=date(2026, 3, 1) + timedelta(days=n)
        )
        for n in range(4)
    ]
    client.force_login(org.head)
    page = text_of(client, "/scorecards/calibrations/new/")
    assert "Call 3" in page and "Call 2" in page
    assert "Call 1" not in page and "Call 0" not in page
    response = client.post(
        "/scorecards/calibrations/new/",
        {
            "title": "An older call",
            "work": calls[0].pk,
            "template": template.pk,
            "raters": [org.manager.pk, org.other_manager.pk],
        },
    )
    assert response.status_code == 302
    assert ScoringRound.objects.get().work == calls[0]


def test_every_manager_is_ticked_when_few_and_searched_for_when_many(
    client, org, call, template, settings
):
    """Usually every manager rates: the form ticks them all while it lists them. Above
    a thousand managers it is a search box, with those reporting to whoever runs the
    calibration ticked — not a thousand boxes."""
    client.force_login(org.head)
    page = client.get("/scorecards/calibrations/new/").content.decode()
    ticked = re.findall(r'name="raters" value="(\d+)"[^>]*checked', page)
    assert sorted(map(int, ticked)) == sorted([org.head.pk, org.manager.pk, org.other_manager.pk])
    settings.PEOPLE_PICKER_LIST_UP_TO = 2
    page = client.get("/scorecards/calibrations/new/").content.decode()
    assert 'hx-get="/people/pick/raters/?name=raters&amp;id=id_raters&amp;multiple=1"' in page
    ticked = re.findall(r'name="raters" value="(\d+)"[^>]*checked', page)
    assert sorted(map(int, ticked)) == sorted([org.manager.pk, org.other_manager.pk])
    assert page.count('name="raters" value=') == 2  # nobody else drawn

    def open_with(*raters):
        body = {"title": "Searched", "work": call.pk, "template": template.pk}
        return client.post("/scorecards/calibrations/new/", {**body, "raters": raters})

    assert open_with(org.head.pk, org.manager.pk).status_code == 302
    refused = open_with(org.rep.pk, org.manager.pk)
    assert refused.status_code == 400
    assert "not one of the available choices" in refused.content.decode()
    assert ScoringRound.objects.count() == 1


@pytest.mark.parametrize("extra", [0, 30])
def test_the_form_costs_the_same_whatever_the_number_of_managers(
    client, org, call, template, settings, extra, django_assert_num_queries
):
    settings.PEOPLE_PICKER_LIST_UP_TO = 2
    for n in range(extra):
        UserFactory(manager=UserFactory(display_name=f"Manager {n}"))
    client.force_login(org.head)
    # session, user, roles, the head's below, calls (read once), templates (twice:
    # Django's Select reads its first choice to decide on `required`), up to 3 raters,
    # the ticked, then the ticked drawn, the head's own team offered before a search;
    # the header's unread count
    with django_assert_num_queries(12):
        assert client.get("/scorecards/calibrations/new/").status_code == 200
