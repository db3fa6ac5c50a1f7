import datetime as dt

import pytest

from scorecards import services
from scorecards.services import CriterionSpec
from tests.factories import RecordedCallFactory

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
