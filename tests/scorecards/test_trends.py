"""Trends follow the reveal rule: only the scorecards the viewer may see count, so a
subject's own trend does not move with a coach's scores until they submitted or
declined, nor their management chain's until the scoring is over; calibrations never
count; a fixed number of queries."""

import pytest

from scorecards import selectors, services

from .conftest import submit

pytestmark = pytest.mark.django_db


def means(viewer, person):
    """Criterion title → [(others, self)] per month, as `viewer` sees `person`."""
    return {
        t.title: [(p.others, p.self) for p in t.points]
        for t in selectors.person_trends(viewer=viewer, person=person)
    }


def test_the_subject_trend_does_not_move_until_they_submitted(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, scoring, [3, 2, 3])
    assert means(org.rep, org.rep) == {}
    assert means(org.manager, org.rep)["Open questions"] == [(3.0, None)]  # the coach's own
    assert means(org.head, org.rep) == {}  # the chain waits for the rep too
    submit(org.rep, scoring, [4, 2, 2])
    assert means(org.rep, org.rep)["Open questions"] == [(3.0, 4.0)]
    assert means(org.head, org.rep)["Open questions"] == [(3.0, 4.0)]


def test_the_subject_trend_does_not_move_until_they_declined(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, scoring, [3, 2, 3])
    assert means(org.rep, org.rep) == {}
    services.round_decline(actor=org.rep, scoring=scoring)
    assert means(org.rep, org.rep)["Listening"] == [(3.0, None)]


def test_outsiders_and_calibrations_add_nothing(org, template, call):
    calibration = services.calibration_open(
        actor=org.head,
        work=call,
        template=template,
        raters=[org.manager, org.other_manager],
        title="Q3",
    )
    submit(org.manager, calibration, [1, 1, 1])
    submit(org.other_manager, calibration, [1, 1, 1])
    services.round_close(actor=org.head, scoring=calibration)
    coach = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.manager, coach, [3, 3, 3])
    services.round_decline(actor=org.rep, scoring=coach)
    assert means(org.head, org.rep)["Open questions"] == [(3.0, None)]  # no calibration
    for outsider in (org.hr, org.admin, org.other_manager, org.peer):
        assert means(outsider, org.rep) == {}


def test_trends_cost_three_queries_whatever_the_number_of_scores(
    org, template, call, django_assert_num_queries
):
    from tests.support.factories import RecordedCallFactory

    for _ in range(3):
        work = RecordedCallFactory(person=org.rep)
        scoring = services.coach_scoring_open(actor=org.manager, work=work, template=template)
        submit(org.rep, scoring, [1, 2, 3])
        submit(org.manager, scoring, [4, 3, 2])
    # the monthly means (the reveal rule as a subquery), the titles, the moves
    with django_assert_num_queries(3):
        selectors.person_trends(viewer=org.rep, person=org.rep, since=scoring.created_at)
