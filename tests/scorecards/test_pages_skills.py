"""The skill pages: a person's trends led by their focus areas (with how far the
coaches' and peers' average moved since each area started), the rest below; a
team's spread of scores over the levels on its focus areas. Self-assessments are
drawn beside the others' line on a person's trend and left out of a team's spread;
calibrations count nowhere."""

from datetime import timedelta

import pytest
from django.utils import timezone

from people.services_teams import team_create, team_member_add
from scorecards import services
from scorecards.models import Scorecard
from tests.support.factories import FocusAreaFactory, RecordedCallFactory
from tests.support.scorecards_pages import text_of

from .conftest import submit

pytestmark = pytest.mark.django_db


def coach_scored(org, template, ratings, *, days_ago=0, person=None, self_ratings=None):
    """A coach round on `person`'s call (the rep's), the coach's scorecard submitted
    `days_ago`; the subject scores too (`self_ratings`) or declines."""
    person = person or org.rep
    call = RecordedCallFactory(person=person)
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, scoring, ratings)
    if self_ratings:
        submit(person, scoring, self_ratings)
    else:
        services.round_decline(actor=person, scoring=scoring)
    Scorecard.objects.filter(round=scoring).update(
        submitted_at=timezone.now() - timedelta(days=days_ago)
    )
    return scoring


def lineage(template, title):
    return services.current_version(template).criteria.get(title=title).criterion


def section(page, heading):
    return page.split(heading, 1)[1].split("</section>", 1)[0]


def test_focus_areas_lead_with_the_change_since_each_started(client, org, template):
    today = timezone.localdate()
    opened = lineage(template, "Open questions")
    early = FocusAreaFactory(name="Ask first", starts_on=today - timedelta(days=30))
    early.criteria.set([opened])
    late = FocusAreaFactory(name="Close with a step", starts_on=today - timedelta(days=10))
    late.criteria.set([opened, lineage(template, "Next step")])
    # Open questions: 1 (40 days ago), 3 (20 days ago), 3 (now).
    # Next step:      2,                2,                4.
    coach_scored(org, template, [1, 2, 1], days_ago=40)
    coach_scored(org, template, [3, 2, 1], days_ago=20)
    coach_scored(org, template, [3, 4, 2], days_ago=0)
    client.force_login(org.rep)
    page = text_of(client, "/skills/")
    ask_first = section(page, "Focus: Ask first")
    assert "Open questions" in ask_first and "Next step" not in ask_first
    assert "Since the focus started: <strong>+2.0</strong>" in ask_first  # 3 vs 1
    close = section(page, "Focus: Close with a step")
    # Open questions: 3 vs (1+3)/2 → +1.0; Next step: 4 vs 2 → +2.0
    assert close.index("Next step") < close.index("Open questions")  # by title
    changes = [part.split("</strong>")[0] for part in close.split("focus started: <strong>")[1:]]
    assert changes == ["+2.0", "+1.0"]
    others = section(page, "Other criteria")
    assert "Listening" in others and "Open questions" not in others
    assert "Since the focus started" not in others


def test_a_trend_shows_the_others_and_the_self_assessment_with_the_gap(client, org, template):
    area = FocusAreaFactory(name="Ask first")
    area.criteria.set([lineage(template, "Open questions")])
    coach_scored(org, template, [2, 2, 2], self_ratings=[4, 2, 2])
    for viewer, path in [(org.rep, "/skills/"), (org.manager, f"/people/{org.rep.pk}/skills/")]:
        client.force_login(viewer)
        page = text_of(client, path)
        focus = section(page, "Focus: Ask first")
        assert "<td>2.0</td><td>4.0</td><td>+2.0</td><td>2</td>" in focus
        assert 'role="img"' in focus and "Open questions: monthly average, 1 to 4" in focus
    assert "Skills of Rita Rep" in page and "Rita&#x27;s own" in page


def test_a_focus_area_without_criteria_says_so(client, org, template):
    FocusAreaFactory(name="Listen more")
    client.force_login(org.rep)
    page = text_of(client, "/skills/")
    assert "The focus area “Listen more” names no scorecard criteria yet" in page
    assert "All criteria" in page and "Nothing scored yet" in page


def test_a_teams_spread_counts_the_others_scores_since_the_focus_started(client, org, template):
    team = team_create(name="Enterprise East", lead=org.manager)
    for person in (org.rep, org.peer):
        team_member_add(team=team, person=person)
    area = FocusAreaFactory(name="Ask first", starts_on=timezone.localdate() - timedelta(days=30))
    area.criteria.set([lineage(template, "Open questions")])
    area.teams.add(team)
    coach_scored(org, template, [3, 1, 1], self_ratings=[1, 1, 1])  # self: left out
    coach_scored(org, template, [4, 1, 1], person=org.peer)
    coach_scored(org, template, [1, 1, 1], days_ago=40)  # before the focus started
    calibration = services.calibration_open(
        actor=org.head,
        work=RecordedCallFactory(person=org.rep),
        template=template,
        raters=[org.manager, org.other_manager],
        title="Q3",
    )
    submit(org.manager, calibration, [2, 2, 2])  # calibrations measure raters
    client.force_login(org.manager)
    page = text_of(client, f"/teams/{team.pk}/skills/")
    assert "Skills of Enterprise East" in page and "2 people" in page
    spread = section(page, "Focus: Ask first")
    assert "Open questions" in spread and "· 2 scores" in spread
    row = spread.split('<th scope="row">Scores</th>', 1)[1].split("</tr>", 1)[0]
    assert row == "<td>0</td><td>0</td><td>1</td><td>1</td>"


def test_a_team_without_a_focus_area_says_so(client, org):
    team = team_create(name="Enterprise East", lead=org.manager)
    client.force_login(org.manager)
    page = text_of(client, f"/teams/{team.pk}/skills/")
    assert "No current focus area with scorecard criteria for this team." in page
