"""`people.services_teams.team_update`: one service renames a team and changes its lead for
the Teams page, the API and the admin site — all that is asked, or nothing."""

import pytest
from django.core.exceptions import ValidationError

from people.models import AuditEvent, Team
from people.services_teams import team_update
from tests.support.factories import TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def verbs() -> list[str]:
    return list(AuditEvent.objects.order_by("pk").values_list("verb", flat=True))


def test_it_renames_and_changes_the_lead_together():
    team, lead = TeamFactory(name="North", lead=None), UserFactory()
    assert team_update(team=team, name="North-East", lead=lead) is True
    team.refresh_from_db()
    assert (team.name, team.lead) == ("North-East", lead)
    assert verbs() == ["team.renamed", "team.lead_changed"]


def test_it_leaves_what_is_not_passed():
    lead = UserFactory()
    team = TeamFactory(name="North", lead=lead)
    assert team_update(team=team, name="South") is True
    team.refresh_from_db()
    assert team.lead == lead
    assert team_update(team=team, lead=None) is True
    team.refresh_from_db()
    assert (team.name, team.lead) == ("South", None)


def test_it_says_when_nothing_changed():
    lead = UserFactory()
    team = TeamFactory(name="North", lead=lead)
    assert team_update(team=team, name="North", lead=lead) is False
    assert verbs() == []


def test_a_refused_name_keeps_the_lead_unchanged_too():
    TeamFactory(name="Taken")
    team = TeamFactory(name="North", lead=None)
    with pytest.raises(ValidationError):
        team_update(team=team, name="taken", lead=UserFactory())
    assert Team.objects.get(pk=team.pk).lead is None
    assert verbs() == []
