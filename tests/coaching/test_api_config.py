"""Programme configuration through the API: focus areas and the prompt bank are read
by everyone signed in and written by programme admins only. And the API's OpenAPI
description builds without a single warning."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from coaching.models import FocusArea, Prompt
from people.services_teams import team_create
from tests.support.factories import FocusAreaFactory, PromptFactory, one_on_one

EVERYONE = ["rep", "manager", "head", "other_manager", "peer", "other_rep", "hr", "admin"]
NOT_ADMINS = ["rep", "manager", "head", "hr"]


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


def day(offset):
    return timezone.localdate() + timedelta(days=offset)


def names(response):
    return [row["name"] for row in response.json()["results"]]


# --- Focus areas ----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", EVERYONE)
def test_everyone_signed_in_reads_the_current_focus_areas(api, org, who):
    FocusAreaFactory(name="Discovery", starts_on=day(-10), ends_on=None)
    FocusAreaFactory(name="Old news", starts_on=day(-90), ends_on=day(-1))
    FocusAreaFactory(name="Next quarter", starts_on=day(30), ends_on=day(120))
    client = api(getattr(org, who))
    assert names(client.get("/api/v1/focus-areas/")) == ["Discovery"]
    assert sorted(names(client.get("/api/v1/focus-areas/?all=1"))) == [
        "Discovery",
        "Next quarter",
        "Old news",
    ]


@pytest.mark.django_db
def test_a_focus_area_reads_with_its_behaviours_and_teams(api, org):
    team = team_create(name="Enterprise East", lead=org.manager)
    focus = FocusAreaFactory(name="Discovery", behaviours="Ask why\n\nConfirm next steps\n")
    focus.teams.add(team)
    body = api(org.rep).get(f"/api/v1/focus-areas/{focus.pk}/").json()
    assert body["behaviour_list"] == ["Ask why", "Confirm next steps"]
    assert body["teams"] == [team.pk]


@pytest.mark.django_db
def test_anonymous_callers_get_401_on_configuration(api, org):
    focus = FocusAreaFactory()
    for url in ("/api/v1/focus-areas/", f"/api/v1/focus-areas/{focus.pk}/", "/api/v1/prompts/"):
        assert api().get(url).status_code == 401
    assert api().post("/api/v1/focus-areas/", {}, format="json").status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_ADMINS)
def test_only_programme_admins_write_focus_areas(api, org, who):
    focus = FocusAreaFactory(name="Discovery")
    client = api(getattr(org, who))
    new = {"name": "Mine", "behaviours": "x", "starts_on": day(0).isoformat()}
    for response in (
        client.post("/api/v1/focus-areas/", new, format="json"),
        client.patch(f"/api/v1/focus-areas/{focus.pk}/", {"name": "Renamed"}, format="json"),
        client.put(f"/api/v1/focus-areas/{focus.pk}/", new, format="json"),
        client.delete(f"/api/v1/focus-areas/{focus.pk}/"),
    ):
        assert response.status_code == 403
        assert response.json() == {"detail": "Only programme admins can change this."}
    assert list(FocusArea.objects.values_list("name", flat=True)) == ["Discovery"]


@pytest.mark.django_db
def test_a_programme_admin_creates_edits_and_deletes_a_focus_area(api, org):
    team = team_create(name="Enterprise East", lead=org.manager)
    client = api(org.admin)
    created = client.post(
        "/api/v1/focus-areas/",
        {
            "name": "Discovery",
            "behaviours": "Ask why\nConfirm next steps",
            "starts_on": day(0).isoformat(),
            "ends_on": day(90).isoformat(),
            "teams": [team.pk],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    assert created.json()["teams"] == [team.pk]

    renamed = client.patch(f"/api/v1/focus-areas/{pk}/", {"name": "Deep discovery"}, format="json")
    assert renamed.status_code == 200
    assert FocusArea.objects.get(pk=pk).name == "Deep discovery"

    assert client.delete(f"/api/v1/focus-areas/{pk}/").status_code == 204
    assert not FocusArea.objects.filter(pk=pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"ends_on": day(-1).isoformat()}, "ends_on"),
        ({"name": ""}, "name"),
        ({"behaviours": "x" * 10_001}, "behaviours"),
        ({"teams": [987_654]}, "teams"),
        ({"starts_on": "Monday"}, "starts_on"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_focus_areas_are_refused(api, org, body, field):
    valid = {"name": "Discovery", "behaviours": "Ask why", "starts_on": day(0).isoformat()}
    response = api(org.admin).post("/api/v1/focus-areas/", valid | body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not FocusArea.objects.exists()


@pytest.mark.django_db
def test_a_focus_area_in_use_cannot_be_deleted_only_ended(api, org):
    focus = FocusAreaFactory()
    one_on_one(org.manager, org.rep, focus_area=focus)
    client = api(org.admin)
    response = client.delete(f"/api/v1/focus-areas/{focus.pk}/")
    assert response.status_code == 409
    assert "Set an end date instead" in response.json()["detail"]
    assert FocusArea.objects.filter(pk=focus.pk).exists()
    ended = client.patch(
        f"/api/v1/focus-areas/{focus.pk}/", {"ends_on": day(0).isoformat()}, format="json"
    )
    assert ended.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_focus_area_list_takes_the_same_number_of_queries(api, org, how_many):
    team = team_create(name="Enterprise East", lead=org.manager)
    for _ in range(how_many):
        FocusAreaFactory().teams.add(team)
    client = api(org.rep)
    client.get("/api/v1/focus-areas/")
    # 1 session row, 2 user, 3 count, 4 focus areas, 5 their teams, 6 their criteria
    # (prefetches)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/focus-areas/")
    assert response.json()["count"] == how_many
    assert len(queries) == 6, [q["sql"] for q in queries]


# --- Prompts --------------------------------------------------------------------------


@pytest.fixture
def empty_bank(db):
    """A migration seeds the bank; these tests start from an empty one."""
    Prompt.objects.all().delete()


@pytest.mark.django_db
def test_everyone_reads_the_active_prompts_filtered_by_kind_and_step(api, org, empty_bank):
    anywhere = PromptFactory(step="goal", kind="", text="What would make this useful?")
    role_play = PromptFactory(step="options", kind="role_play", text="What else could you say?")
    one_on_one_will = PromptFactory(step="will", kind="one_on_one", text="What will you do?")
    PromptFactory(step="goal", kind="", text="Retired question", is_active=False)
    client = api(org.peer)

    def listed(query=""):
        return [row["id"] for row in client.get(f"/api/v1/prompts/{query}").json()["results"]]

    assert listed() == [anywhere.pk, role_play.pk, one_on_one_will.pk]
    assert listed("?kind=role_play") == [anywhere.pk, role_play.pk]
    assert listed("?step=will") == [one_on_one_will.pk]
    assert listed("?kind=one_on_one&step=goal") == [anywhere.pk]
    assert len(listed("?all=1")) == 4
    assert client.get("/api/v1/prompts/?step=why").status_code == 400
    assert client.get("/api/v1/prompts/?kind=party").status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_ADMINS)
def test_only_programme_admins_write_prompts(api, org, empty_bank, who):
    prompt = PromptFactory(text="Original?")
    client = api(getattr(org, who))
    created = client.post("/api/v1/prompts/", {"step": "goal", "text": "Mine?"}, format="json")
    assert created.status_code == 403
    edited = client.patch(f"/api/v1/prompts/{prompt.pk}/", {"text": "Changed?"}, format="json")
    assert edited.status_code == 403
    assert client.delete(f"/api/v1/prompts/{prompt.pk}/").status_code == 403
    assert list(Prompt.objects.values_list("text", flat=True)) == ["Original?"]


@pytest.mark.django_db
def test_a_programme_admin_manages_the_prompt_bank(api, org, empty_bank):
    client = api(org.admin)
    created = client.post(
        "/api/v1/prompts/",
        {"step": "reality", "kind": "one_on_one", "text": "What did the customer say?"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    retired = client.patch(f"/api/v1/prompts/{pk}/", {"is_active": False}, format="json")
    assert retired.json()["is_active"] is False
    bad = client.post("/api/v1/prompts/", {"step": "why", "text": "x" * 301}, format="json")
    assert bad.status_code == 400
    assert set(bad.json()) == {"step", "text"}
    assert client.delete(f"/api/v1/prompts/{pk}/").status_code == 204
    assert not Prompt.objects.exists()


@pytest.mark.django_db
def test_the_seeded_bank_is_served(api, org):
    body = api(org.rep).get("/api/v1/prompts/?kind=one_on_one&step=goal").json()
    assert body["count"] > 0
    assert {row["step"] for row in body["results"]} == {"goal"}


@pytest.mark.django_db
@pytest.mark.parametrize("how_many", [3, 30])
def test_the_prompt_list_takes_the_same_number_of_queries(api, org, empty_bank, how_many):
    PromptFactory.create_batch(how_many)
    client = api(org.rep)
    client.get("/api/v1/prompts/")
    # 1 session row, 2 user, 3 count, 4 prompts
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/prompts/")
    assert response.json()["count"] == how_many
    assert len(queries) == 4, [q["sql"] for q in queries]


# --- The schema -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_openapi_schema_validates_without_warnings(tmp_path):
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    schema = (tmp_path / "schema.yml").read_text()
    for path in (
        "/api/v1/sessions/",
        "/api/v1/sessions/{id}/notes/",
        "/api/v1/sessions/{id}/private-note/",
        "/api/v1/agenda-items/",
        "/api/v1/commitments/{id}/close/",
        "/api/v1/focus-areas/",
        "/api/v1/prompts/",
    ):
        assert f"  {path}:" in schema, path
