"""A dashboard about a few people reads only the focus areas that can apply to them —
every organisation-wide one and those scoped to one of their teams — and picks the
same active area for each person as from every area in force."""

import pytest
from django.utils import timezone

from dashboards.focus import active_areas, area_for
from scorecards import services as scorecards
from tests.support.dashboards_team import CRITERIA
from tests.support.factories import FocusAreaFactory, TeamFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def areas(org):
    template = scorecards.template_create(actor=org.admin, name="Calls", criteria=CRITERIA)
    criterion = template.versions.get().criteria.first().criterion
    east, west, north = TeamFactory(name="East"), TeamFactory(name="West"), TeamFactory()
    everyone = FocusAreaFactory(name="Discovery")
    east_own = FocusAreaFactory(name="East's multi-threading")
    east_own.teams.set([east])
    west_own = FocusAreaFactory(name="West's objections")
    west_own.teams.set([west, north])
    for area in (everyone, east_own, west_own):
        area.criteria.set([criterion])
    return east, west, north, everyone, east_own, west_own


def names(found):
    return sorted(area.name for area in found)


def test_only_the_areas_that_can_apply_to_these_teams_are_read(areas):
    east, west, north, *_ = areas
    today = timezone.localdate()
    assert names(active_areas(today=today, team_ids={east.pk})) == [
        "Discovery",
        "East's multi-threading",
    ]
    assert names(active_areas(today=today, team_ids={north.pk})) == [
        "Discovery",
        "West's objections",
    ]
    assert names(active_areas(today=today, team_ids=set())) == ["Discovery"]
    assert len(active_areas(today=today)) == 3


def test_each_person_gets_the_same_area_as_from_every_area_in_force(areas):
    east, west, north, *_ = areas
    today = timezone.localdate()
    every = active_areas(today=today)
    for teams in ({east.pk}, {west.pk}, {north.pk}, {east.pk, west.pk}, set()):
        narrowed = active_areas(today=today, team_ids=teams)
        assert area_for(teams, narrowed) == area_for(teams, every)
