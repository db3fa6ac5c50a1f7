import datetime as dt

import pytest

from scorecards import services
from scorecards.models import Criterion, CriterionVersion, Template
from scorecards.services import CriterionSpec
from tests.support.factories import RecordedCallFactory, UserFactory


def clear_starter_library():
    """A migration seeds the starter library (scorecards 0003); tests that build their
    own templates start without it."""
    CriterionVersion.objects.all().delete()  # their lineages are protected until then
    Criterion.objects.all().delete()
    Template.objects.all().delete()


@pytest.fixture(autouse=True)
def no_starter_library(request):
    if request.node.get_closest_marker("django_db") or "db" in request.fixturenames:
        request.getfixturevalue("db")
        clear_starter_library()


DISCOVERY = [
    CriterionSpec(
        "Open questions",
        "Asks open questions before presenting anything.",
        anchors={1: "Pitches straight away", 3: "Three open questions before the demo"},
    ),
    CriterionSpec("Next step", "Ends with a dated next step the buyer agreed to."),
    CriterionSpec("Listening", "Summarises the buyer's words back before answering."),
]


@pytest.fixture
def template(org):
    return services.template_create(actor=org.admin, name="Discovery call", criteria=DISCOVERY)


@pytest.fixture
def call(org):
    return RecordedCallFactory(
        person=org.rep, title="Northwind discovery", call_date=dt.date.today()
    )


def criteria_of(scoring):
    return list(scoring.version.criteria.order_by("position"))


def submit(person, scoring, ratings, **kwargs):
    """Submit `person`'s scorecard with one rating per criterion, in order."""
    scores = [
        services.ScoreInput(criterion=c.pk, rating=r)
        for c, r in zip(criteria_of(scoring), ratings, strict=True)
    ]
    return services.scorecard_save(
        actor=person, scoring=scoring, scores=scores, submit=True, **kwargs
    )


@pytest.fixture
def people(org):
    """`org`, plus a colleague of the rep who is asked to score nothing."""
    org.outside_peer = UserFactory(display_name="Ola Outside", manager=org.manager)
    org.team_peer = org.peer
    return org
