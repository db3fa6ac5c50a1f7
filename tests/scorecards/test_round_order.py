"""Lists of rounds are newest first, in the selector, the page and the API (a query
with aggregates does not get the model's default ordering by itself)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scorecards import services
from scorecards.models import ScoringRound
from scorecards.selectors import rounds_for
from tests.factories import RecordedCallFactory

from .api_support import client_for


@pytest.mark.django_db
def test_rounds_are_listed_newest_first_everywhere(client, org, template):
    opened = []
    for days_ago in (3, 30, 10):  # opened in an order that is not their age
        call = RecordedCallFactory(person=org.rep, title=f"Call {days_ago} days ago")
        scoring = services.self_assessment_open(actor=org.rep, work=call, template=template)
        ScoringRound.objects.filter(pk=scoring.pk).update(
            created_at=timezone.now() - timedelta(days=days_ago)
        )
        opened.append(scoring.pk)
    newest_first = [opened[0], opened[2], opened[1]]
    assert [r.pk for r in rounds_for(user=org.rep)] == newest_first
    api = client_for(org.rep).get("/api/v1/scoring-rounds/").json()["results"]
    assert [row["id"] for row in api] == newest_first
    client.force_login(org.rep)
    page = client.get("/scorecards/").content.decode()
    recent = page[page.index("Recent scoring") :]
    positions = [recent.index(f"/scorecards/rounds/{pk}/") for pk in newest_first]
    assert positions == sorted(positions)
