"""Programme admins keep the focus areas in the app (`/programme/focus-areas/`): now,
coming and ended; add one, change one, end one today — through
`services_focus_areas`, audited, as the API now saves them too. Bad input is a 400
with the reason and saves nothing. Everyone else gets 404 (the authorization matrix)."""

import re
from datetime import date

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.models import FocusArea
from people.models import AuditEvent
from scorecards import services as scorecards
from scorecards.models import Criterion
from tests.support.dashboards_team import CRITERIA
from tests.support.factories import FocusAreaFactory, TeamFactory

pytestmark = pytest.mark.django_db
TODAY = date(2026, 3, 18)
LIST = "/programme/focus-areas/"
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def today():
    with time_machine.travel("2026-03-18 12:00Z", tick=False):
        yield


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


@pytest.fixture
def criteria(org):
    template = scorecards.template_create(
        actor=org.admin, name="Focus-area test calls", criteria=CRITERIA
    )
    return list(Criterion.objects.filter(template=template).order_by("pk"))


def areas():
    now = FocusAreaFactory(name="Discovery", starts_on=date(2026, 1, 5), ends_on=None)
    coming = FocusAreaFactory(name="Pricing", starts_on=date(2026, 4, 1), ends_on=None)
    ended = FocusAreaFactory(
        name="Objections", starts_on=date(2025, 9, 1), ends_on=date(2025, 12, 31)
    )
    return now, coming, ended


def test_the_list_shows_now_coming_and_ended(admin):
    now, coming, ended = areas()
    body = admin.get(LIST).content.decode()
    assert body.index("Discovery") < body.index("Pricing") < body.index("Objections")
    assert body.count("End it today") == 1  # only what is the focus now
    assert "the whole organisation" in body


def test_the_list_costs_the_same_for_few_or_many(admin, criteria):
    areas()
    with CaptureQueriesContext(connection) as few:
        assert admin.get(LIST).status_code == 200
    for n in range(6):
        area = FocusAreaFactory(name=f"Area {n}", starts_on=date(2026, 1, n + 1))
        area.teams.set([TeamFactory(), TeamFactory()])
        area.criteria.set(criteria)
    with CaptureQueriesContext(connection) as many:
        assert admin.get(LIST).status_code == 200
    assert len(few) == len(many)


def test_an_admin_adds_one_for_two_teams_measured_by_two_criteria(admin, org, criteria):
    teams = [TeamFactory(name="East"), TeamFactory(name="West")]
    response = admin.post(
        "/programme/focus-areas/new/",
        {
            "name": "  Discovery: ask before you pitch ",
            "behaviours": "Ask three open questions\nSummarise their problem\n",
            "starts_on": "2026-03-23",
            "ends_on": "2026-06-30",
            "teams": [t.pk for t in teams],
            "criteria": [c.pk for c in criteria[:2]],
        },
    )
    assert response.status_code == 302 and response["Location"] == LIST
    area = FocusArea.objects.get()
    assert area.name == "Discovery: ask before you pitch"
    assert area.behaviour_list == ["Ask three open questions", "Summarise their problem"]
    assert (area.starts_on, area.ends_on) == (date(2026, 3, 23), date(2026, 6, 30))
    assert set(area.teams.all()) == set(teams)
    assert set(area.criteria.all()) == set(criteria[:2])
    event = AuditEvent.objects.get(verb="focus_area.created")
    assert event.actor == org.admin and event.target_id == str(area.pk)
    assert event.data["teams"] == sorted(t.pk for t in teams)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"name": "  "}, "name", "This field is required."),
        ({"behaviours": ""}, "behaviours", "This field is required."),
        ({"ends_on": "2026-03-01"}, "ends_on", "ends on or after the day it starts"),
        ({"starts_on": "2026-02-30"}, "starts_on", "Enter a valid date."),
        ({"teams": ["999999"]}, "teams", "Pick teams from the list."),
        ({"criteria": ["999999"]}, "criteria", "Pick criteria from the scorecard library."),
        ({"name": "x" * 121}, "name", "at most 120 characters"),
        ({"starts_on": "0001-01-01"}, "starts_on", "within five years of today"),
        ({"starts_on": "9999-12-31"}, "starts_on", "within five years of today"),
        ({"ends_on": "9999-12-31"}, "ends_on", "within five years of the start"),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_saves_nothing(admin, change, field, message):
    data = {"name": "Discovery", "behaviours": "Ask first", "starts_on": "2026-03-18"}
    response = admin.post("/programme/focus-areas/new/", {**data, **change})
    assert response.status_code == 400
    assert message in response.context["form"].errors[field][0]
    assert not FocusArea.objects.exists()
    assert not AuditEvent.objects.filter(verb__startswith="focus_area.").exists()


def test_the_edit_form_shows_what_is_saved_and_saves_a_change(admin, criteria):
    area = FocusAreaFactory(name="Discovery", starts_on=date(2026, 1, 5))
    east = TeamFactory(name="East")
    TeamFactory(name="West")
    area.teams.set([east])
    area.criteria.set(criteria[:1])
    page = admin.get(f"/programme/focus-areas/{area.pk}/").content.decode()
    assert 'value="2026-01-05"' in page  # ISO, as a browser's date picker needs it
    assert re.findall(r'name="teams" value="(\d+)"[^>]*checked', page) == [str(east.pk)]
    assert re.findall(r'name="criteria" value="(\d+)"[^>]*checked', page) == [str(criteria[0].pk)]
    response = admin.post(
        f"/programme/focus-areas/{area.pk}/",
        {"name": "Discovery", "behaviours": "Ask first", "starts_on": "2026-01-05"},
    )
    assert response.status_code == 302
    area.refresh_from_db()
    assert not area.teams.exists() and not area.criteria.exists()  # the whole organisation now
    assert AuditEvent.objects.filter(verb="focus_area.changed", target_id=str(area.pk)).exists()


def test_ending_one_today_keeps_it_where_it_was_used(admin, org):
    now, coming, ended = areas()
    response = admin.post(f"/programme/focus-areas/{now.pk}/end/")
    assert response.status_code == 302
    now.refresh_from_db()
    assert now.ends_on == TODAY
    assert not FocusArea.objects.active_on(date(2026, 3, 19)).filter(pk=now.pk).exists()
    assert AuditEvent.objects.get(verb="focus_area.ended").data == {"ends_on": "2026-03-18"}


@pytest.mark.parametrize(
    ("which", "message"), [(1, "starts on 1 Apr 2026: change its dates"), (2, "ended on")]
)
def test_one_coming_or_ended_cannot_end_today(admin, which, message):
    area = areas()[which]
    before = (area.starts_on, area.ends_on)
    response = admin.post(f"/programme/focus-areas/{area.pk}/end/")
    assert response.status_code == 400
    assert message in response.content.decode()
    area.refresh_from_db()
    assert (area.starts_on, area.ends_on) == before


def test_an_unknown_focus_area_is_a_404(admin):
    assert admin.get("/programme/focus-areas/999999/").status_code == 404
    assert admin.post("/programme/focus-areas/999999/end/").status_code == 404


def test_the_api_saves_through_the_same_service_and_a_patch_keeps_the_rest(admin, org):
    team = TeamFactory()
    created = admin.post(
        "/api/v1/focus-areas/",
        {"name": "Pricing", "behaviours": "State the price", "starts_on": "2026-04-01",
         "teams": [team.pk]},
        content_type="application/json",
        **JSON,
    )  # fmt: skip
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    patched = admin.patch(
        f"/api/v1/focus-areas/{pk}/", {"name": "Pricing: hold value"},
        content_type="application/json", **JSON,
    )  # fmt: skip
    assert patched.status_code == 200
    assert patched.json()["teams"] == [team.pk]
    bad = admin.patch(
        f"/api/v1/focus-areas/{pk}/", {"behaviours": "   "}, content_type="application/json",
        **JSON,
    )  # fmt: skip
    assert bad.status_code == 400
    assert FocusArea.objects.get(pk=pk).behaviours == "State the price"
    verbs = list(
        AuditEvent.objects.filter(target_id=str(pk)).order_by("pk").values_list("verb", flat=True)
    )
    assert verbs == ["focus_area.created", "focus_area.changed"]


def test_the_programme_page_links_to_it(admin):
    assert f'href="{LIST}"' in admin.get("/programme/").content.decode()
