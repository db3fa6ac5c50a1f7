"""The scorecard and skill pages cost a fixed number of queries: the same with one
scorecard, round or template as with many. Each test lists the queries it expects,
so a new one shows up as a diff in review."""

from datetime import timedelta

import pytest
from django.utils import timezone

from people.services_teams import team_member_add
from scorecards import services
from scorecards.models import Scorecard
from scorecards.services import CriterionSpec
from tests.support.factories import FocusAreaFactory, RecordedCallFactory, UserFactory
from tests.support.scorecards_pages import queries_for, round_url, team_review

from .conftest import DISCOVERY, submit

pytestmark = pytest.mark.django_db

MORE_CRITERIA = [
    *DISCOVERY,
    CriterionSpec("Agenda", "Agrees an agenda first.", anchors={1: "None", 4: "Written"}),
    CriterionSpec("Pain", "Gets the buyer to name the cost of the problem.", scale_max=5),
]


def count(client, user, path) -> tuple[int, list[str]]:
    client.force_login(user)
    sql = queries_for(client, path)
    return len(sql), sql


def coach_round(org, template, *, person=None, months_ago=0, rate=True):
    """A coach round on a call of `person` (the rep), both scorecards submitted."""
    person = person or org.rep
    call = RecordedCallFactory(person=person, title=f"Call of {person.display_name}")
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    if rate:
        n = scoring.version.criteria.count()
        submit(org.manager, scoring, [3] * n, keep="Keep it")
        submit(person, scoring, [2] * n)
        if months_ago:
            Scorecard.objects.filter(round=scoring).update(
                submitted_at=timezone.now() - timedelta(days=31 * months_ago)
            )
    return scoring


def focus_on(template, team=None):
    area = FocusAreaFactory(name=f"Focus on {template.name}")
    area.criteria.set(template.criteria.all())
    if team is not None:
        area.teams.add(team)
    return area


def more_templates(org, n=3):
    return [
        services.template_create(actor=org.admin, name=f"Scorecard {i}", criteria=MORE_CRITERIA)
        for i in range(n)
    ]


# --- /scorecards/ ----------------------------------------------------------------------------


def test_the_scorecards_home_costs_the_same_whatever_the_number_of_calls_and_rounds(
    client, org, template
):
    # 1 session, 2 user, 3 roles (is a manager?), 4 who is below me (walked once for
    # both lists that need it), 5 rounds waiting for me, 6 my calls with their round
    # counts, 7 my people's calls with theirs (calls_for_lists), 8 recent rounds with
    # rater and scorecard counts (each list with its call, person and template joined;
    # visible_for_lists), 9 the header's unread count
    coach_round(org, template)
    few, sql = count(client, org.manager, "/scorecards/")
    assert few == 9, sql
    for extra in more_templates(org):
        for person in (org.rep, org.peer):
            coach_round(org, extra, person=person)
        coach_round(org, extra, rate=False)  # waiting for the manager's scores
        RecordedCallFactory(person=org.manager, title="My own call")
    assert count(client, org.manager, "/scorecards/")[0] == few


def test_a_reps_scorecards_home_costs_the_same_too(client, org, template):
    # As above without "my people's calls": 8.
    coach_round(org, template)
    few, sql = count(client, org.rep, "/scorecards/")
    assert few == 8, sql
    for extra in more_templates(org):
        coach_round(org, extra)
        coach_round(org, extra, rate=False)
    assert count(client, org.rep, "/scorecards/")[0] == few


# --- A round -------------------------------------------------------------------------------------


def _team_round(org, template, members):
    review = team_review(org, extra_members=members, team_name=f"Team of {len(members)}")
    scoring = services.team_review_scoring_open(
        actor=org.manager,
        work=review.presented_call,
        template=template,
        session_id=review.pk,
        manager=org.manager,
        participants=[org.peer, *members],
    )
    return scoring


@pytest.mark.parametrize("viewer_done", [True, False], ids=["revealed", "scoring"])
def test_a_round_page_costs_the_same_whatever_the_number_of_raters_and_criteria(
    client, org, template, viewer_done
):
    # 1 session, 2 user, 3 the round (access: call, person, template joined),
    # 4 the version with its template, 5 its criteria, 6 their anchors, 7 the raters
    # with their people, 8 every scorecard (who has scored), 9 the scorecards I may
    # see with their raters, 10 their scores, 11 roles (the site navigation), 12 the
    # header's unread count. While I still score, I see no scorecard: no 10 (the form
    # is built from 4-6).
    expected = 12 if viewer_done else 11

    def build(template, members):
        scoring = _team_round(org, template, members)
        n = scoring.version.criteria.count()
        for person in [org.manager, org.peer, *members]:
            submit(person, scoring, [n % 4 + 1] * n, keep=f"{person.display_name} keeps")
        if viewer_done:
            submit(org.rep, scoring, [2] * n)
        return scoring

    few_round = build(template, [])
    few, sql = count(client, org.rep, round_url(few_round))
    assert few == expected, sql
    many_members = [UserFactory(manager=org.manager) for _ in range(5)]
    (bigger,) = more_templates(org, 1)
    many_round = build(bigger, many_members)
    many, sql = count(client, org.rep, round_url(many_round))
    assert many == few, sql


def test_a_call_page_costs_the_same_whatever_the_number_of_rounds(client, org, template):
    # 1 session, 2 user, 3 the call (access), 4 its rounds with their counts, 5 am I
    # above the caller? (how I may start scoring it), 6 roles (the site navigation),
    # 7 the offered scorecards for the select, 8 the same again (Django's Select looks
    # at its first option to decide on `required`), 9 how many people are below me
    # (the rounds list's shape: visible_for_lists), 10 the header's unread count
    scoring = coach_round(org, template)
    path = f"/scorecards/calls/{scoring.work_id}/"
    few, sql = count(client, org.manager, path)
    assert few == 10, sql
    for extra in more_templates(org):
        services.coach_scoring_open(actor=org.manager, work=scoring.work, template=extra)
    assert count(client, org.manager, path)[0] == few


def test_the_calibration_list_costs_the_same_whatever_the_number_of_calibrations(
    client, org, template, call
):
    # 1 session, 2 user, 3 calibrations I run or rate in with their counts, 4 roles
    def calibrate(template):
        services.calibration_open(
            actor=org.head,
            work=call,
            template=template,
            raters=[org.manager, org.other_manager],
            title=f"Calibration on {template.name}",
        )

    calibrate(template)
    # two more than session, user and the list: how many people are below me, the
    # header's unread count
    few, sql = count(client, org.manager, "/scorecards/calibrations/")
    assert few == 6, sql
    for extra in more_templates(org):
        calibrate(extra)
    assert count(client, org.manager, "/scorecards/calibrations/")[0] == few


# --- The library ---------------------------------------------------------------------------------


def test_the_library_costs_the_same_whatever_the_number_of_templates(client, org, template):
    # 1 session, 2 user, 3 roles (admin?), 4 templates, 5 their versions, 6 the
    # versions' criteria, 7 the header's unread count
    few, sql = count(client, org.rep, "/scorecards/templates/")
    assert few == 7, sql
    for extra in more_templates(org, 4):
        call = RecordedCallFactory(person=org.rep)
        services.self_assessment_open(actor=org.rep, work=call, template=extra)
        services.template_update(actor=org.admin, template=extra, criteria=DISCOVERY)  # v2
    assert count(client, org.rep, "/scorecards/templates/")[0] == few
    assert count(client, org.admin, "/scorecards/templates/?retired=1")[0] == few


# --- Skills --------------------------------------------------------------------------------------


def _skills_world(org, template, *, many: bool):
    """One focus area on one scored template; or three, scored over several months,
    plus a template outside any focus area."""
    focus_on(template)
    coach_round(org, template)
    if many:
        extras = more_templates(org, 3)
        for n, extra in enumerate(extras):
            if n < 2:
                focus_on(extra)
            for months_ago in range(3):
                coach_round(org, extra, months_ago=months_ago)
        coach_round(org, template, months_ago=2)


@pytest.mark.parametrize(
    ("who", "path", "expected"),
    [
        # 1 session, 2 user, 3 my focus areas, 4 their criteria, 5 monthly means per
        # criterion, 6 the criteria's titles, 7 the change since each focus area
        # started (all areas in one), 8 the scales, 9 roles (the site navigation),
        # 10 the header's unread count
        ("rep", "/skills/", 10),
        # As above, plus the person (someone below me?) after the user, and before
        # each of 5 and 7 the walk up from the person (below me: no reveal rule): 13
        ("manager", "/people/REP/skills/", 13),
    ],
)
def test_skill_trends_cost_the_same_whatever_the_number_of_scores_and_focus_areas(
    client, org, template, who, path, expected
):
    path = path.replace("REP", str(org.rep.pk))
    _skills_world(org, template, many=False)
    few, sql = count(client, getattr(org, who), path)
    assert few == expected, sql
    _skills_world(org, template, many=True)
    many, sql = count(client, getattr(org, who), path)
    assert many == few, sql


def _team_world(org, template):
    review = team_review(org)
    team = review.team
    focus_on(template, team)
    coach_round(org, template)
    return team


def _more_focus_areas(org, team):
    """Three more focus areas on the team, each scored for two people."""
    for extra in more_templates(org, 3):
        focus_on(extra, team)
        for person in (org.rep, org.peer):
            coach_round(org, extra, person=person)


def _more_members(team, org, n=3):
    for _ in range(n):
        team_member_add(team=team, person=UserFactory(manager=org.manager))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        # 1 session, 2 user, 3 roles, 4 the team with its lead, 5 its members, 6 its
        # focus areas, 7 their criteria, 8 the spread per area and level (all areas in
        # one), 9 the criteria's titles, 10 the scales, 11 the header's unread count
        ("manager", 11),
        # HR: as above, with "am I above the lead?" (no: anonymised) after the team: 12
        ("hr", 12),
    ],
)
def test_team_skills_cost_the_same_whatever_the_number_of_scores_and_focus_areas(
    client, org, template, who, expected
):
    team = _team_world(org, template)
    _more_members(team, org)  # five, so HR sees the spread too
    path = f"/teams/{team.pk}/skills/"
    few, sql = count(client, getattr(org, who), path)
    assert few == expected, sql
    _more_focus_areas(org, team)
    _more_members(team, org)
    assert count(client, getattr(org, who), path)[0] == few


def test_a_small_teams_skills_cost_hr_no_aggregate_queries(client, org, template):
    # 1 session, 2 user, 3 roles, 4 the team, 5 am I above the lead?, 6 its members,
    # 7 its focus areas, 8 their criteria, 9 the header's unread count — under five
    # people nothing is aggregated
    team = _team_world(org, template)
    few, sql = count(client, org.hr, f"/teams/{team.pk}/skills/")
    assert few == 9, sql
    _more_focus_areas(org, team)
    assert count(client, org.hr, f"/teams/{team.pk}/skills/")[0] == few
