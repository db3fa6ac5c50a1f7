"""Skill trends through the API: for yourself or someone below you (anyone else gets
404 — HR and programme admins too, whose views are aggregates elsewhere); per
criterion and month, the others' mean and the self-assessment mean, moved since a day,
filtered by criterion; bad parameters are a 400 naming them; a fixed number of
queries whatever the number of scores."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from scorecards import services
from tests.support.factories import RecordedCallFactory
from tests.support.scorecards_api import client_for, queries

from .conftest import submit

pytestmark = pytest.mark.django_db

URL = "/api/v1/skill-trends/"


@pytest.fixture
def scored(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    submit(org.rep, scoring, [4, 2, 2])
    submit(org.manager, scoring, [3, 2, 3])
    return scoring


@pytest.mark.parametrize("who", ["rep", "manager", "head"])
def test_the_person_and_their_chain_read_the_trends(org, scored, who):
    response = client_for(getattr(org, who)).get(URL, {"person": org.rep.pk})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["person"] == {"id": org.rep.pk, "display_name": "Rita Rep"}
    assert body["since"] is None
    first = next(t for t in body["trends"] if t["title"] == "Open questions")
    assert first["template"] == "Discovery call" and first["change_since"] is None
    # Months are the reader's own (Berlin): on a month's last evening UTC is a month behind.
    viewer_today = timezone.localdate(timezone=getattr(org, who).tzinfo)
    month = viewer_today.replace(day=1).isoformat()
    assert first["points"] == [
        {"month": month, "others": 3.0, "self_assessment": 4.0, "gap": 1.0, "count": 2}
    ]


@pytest.mark.parametrize("who", ["peer", "other_manager", "other_rep", "hr", "admin"])
def test_everyone_else_gets_404(org, scored, who):
    response = client_for(getattr(org, who)).get(URL, {"person": org.rep.pk})
    assert response.status_code == 404


def test_anonymous_callers_get_401(org):
    assert client_for().get(URL, {"person": org.rep.pk}).status_code == 401


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({}, "person"),
        ({"person": "rita"}, "person"),
        ({"person": 10**30}, "person"),
        ({"person": "REP", "since": "last week"}, "since"),
        ({"person": "REP", "criterion": "first"}, "criterion"),
        ({"person": "REP", "criterion": 10**30}, "criterion"),
    ],
)
def test_bad_parameters_are_a_400_naming_them(org, params, field):
    if params.get("person") == "REP":
        params = {**params, "person": org.rep.pk}
    response = client_for(org.manager).get(URL, params)
    assert response.status_code == 400
    assert field in response.json()


def test_an_unknown_person_is_404(org):
    assert client_for(org.manager).get(URL, {"person": 987_654}).status_code == 404


def test_trends_move_since_a_day_and_filter_by_criterion(org, template):
    lineages = list(
        services.current_version(template)
        .criteria.order_by("position")
        .values_list("criterion_id", flat=True)
    )
    with time_machine.travel(dt.datetime(2026, 1, 15, 10, tzinfo=dt.UTC), tick=False):
        early = RecordedCallFactory(person=org.rep, call_date=dt.date(2026, 1, 14))
        scoring = services.coach_scoring_open(actor=org.manager, work=early, template=template)
        services.round_decline(actor=org.rep, scoring=scoring)
        submit(org.manager, scoring, [1, 1, 1])
    with time_machine.travel(dt.datetime(2026, 3, 10, 10, tzinfo=dt.UTC), tick=False):
        late = RecordedCallFactory(person=org.rep, call_date=dt.date(2026, 3, 9))
        scoring = services.coach_scoring_open(actor=org.manager, work=late, template=template)
        services.round_decline(actor=org.rep, scoring=scoring)
        submit(org.manager, scoring, [3, 2, 4])
        response = client_for(org.rep).get(
            URL,
            {"person": org.rep.pk, "since": "2026-02-01", "criterion": lineages[:2]},
        )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["since"] == "2026-02-01"
    assert [(t["title"], t["change_since"]) for t in body["trends"]] == [
        ("Next step", 1.0),
        ("Open questions", 2.0),
    ]
    assert [p["month"] for p in body["trends"][1]["points"]] == ["2026-01-01", "2026-03-01"]


def test_the_trends_cost_the_same_queries_whatever_the_number_of_scores(org, template, scored):
    client = client_for(org.manager)
    params = {"person": org.rep.pk, "since": timezone.localdate().isoformat()}
    # session, user, the person (below me?), the walk up from them (below me: no
    # reveal rule), the monthly means, the titles, the moves
    few = queries(client, URL, params)
    assert few == 7
    for _ in range(4):
        work = RecordedCallFactory(person=org.rep)
        scoring = services.coach_scoring_open(actor=org.manager, work=work, template=template)
        submit(org.rep, scoring, [1, 2, 3])
        submit(org.manager, scoring, [4, 3, 2])
    assert queries(client, URL, params) == few
