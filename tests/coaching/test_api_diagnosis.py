"""Diagnoses through the API: anyone above a person records one (the gap worked out
from the answers), its author and the people above the author list and read it,
everyone else gets 404 and an empty list; bad input is a 400 naming the field,
nothing saved; the list costs the same queries whatever its length."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from coaching.models import Diagnosis, GapType
from coaching.services_diagnosis import diagnosis_record

URL = "/api/v1/diagnoses/"


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


def body(org, **extra):
    return {"coachee": org.rep.pk, "knows_how": True, "believes": False, **extra}


@pytest.mark.django_db
def test_a_manager_records_a_diagnosis_and_gets_the_gap_and_next_step(api, org):
    response = api(org.manager).post(URL, body(org, notes="Sees coaching as admin."), format="json")
    assert response.status_code == 201
    data = response.json()
    assert data["gap"] == "will" and data["gap_label"] == "Will gap"
    assert data["next_step"].startswith("Show the lift")
    assert (data["knows_how"], data["believes"]) == (True, False)
    assert data["has_framework"] is None and data["has_system"] is None  # not asked
    assert data["coachee"]["id"] == org.rep.pk and data["author"]["id"] == org.manager.pk
    assert data["notes"] == "Sees coaching as admin."
    assert Diagnosis.objects.get().gap == GapType.WILL


@pytest.mark.django_db
def test_list_filters_by_coachee_and_reads_one(api, org):
    one = diagnosis_record(
        author=org.manager,
        coachee=org.rep,
        knows_how=False,
        believes=None,
        has_framework=None,
        has_system=None,
    )
    other = diagnosis_record(
        author=org.manager,
        coachee=org.peer,
        knows_how=True,
        believes=True,
        has_framework=True,
        has_system=True,
    )
    client = api(org.head)
    assert [r["id"] for r in client.get(URL).json()["results"]] == [other.pk, one.pk]
    listed = client.get(URL, {"coachee": org.rep.pk}).json()["results"]
    assert [r["id"] for r in listed] == [one.pk]
    assert client.get(f"{URL}{other.pk}/").json()["gap"] == "none"
    assert client.get(URL, {"coachee": "x"}).status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"coachee": "OTHER"}, "coachee"),
        ({"coachee": "SELF"}, "coachee"),
        ({"coachee": 999999}, "coachee"),
        ({"knows_how": None, "believes": None}, "knows_how"),
        ({"believes": None, "has_framework": False}, "believes"),
        ({"knows_how": "perhaps"}, "knows_how"),
        ({"notes": "x" * 2_001}, "notes"),
        ({"gap": "none"}, "gap"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_nothing_is_saved(api, org, data, field):
    people = {"OTHER": org.other_rep.pk, "SELF": org.manager.pk}
    if data.get("coachee") in people:
        data = {**data, "coachee": people[data["coachee"]]}
    response = api(org.manager).post(URL, body(org, **data), format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert not Diagnosis.objects.exists()


@pytest.mark.django_db
def test_anonymous_callers_get_401(api, org):
    assert api().get(URL).status_code == 401
    assert api().post(URL, body(org), format="json").status_code == 401


def _count(client):
    client.get(URL)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(URL).status_code == 200
    return len(captured)


@pytest.mark.django_db
def test_the_list_costs_the_same_queries_whatever_its_length(api, org):
    client = api(org.head)
    answers = {"knows_how": True, "believes": True, "has_framework": False, "has_system": None}
    diagnosis_record(author=org.manager, coachee=org.rep, **answers)
    few = _count(client)
    for author, coachee in [(org.manager, org.peer), (org.other_manager, org.other_rep)] * 3:
        diagnosis_record(author=author, coachee=coachee, **answers)
    diagnosis_record(author=org.head, coachee=org.manager, **answers)
    assert len(client.get(URL).json()["results"]) == 8
    assert _count(client) == few
    # The session, the user; how many, the page's ids, those rows with their people
    # (`core.api.page_by_ids`: the people are joined to 50 rows, not to all).
    assert few == 5


@pytest.mark.django_db
def test_diagnoses_are_in_the_schema(api, org):
    schema = api(org.rep).get("/api/schema/", {"format": "json"}).json()
    for path in (URL, f"{URL}{{id}}/"):
        assert path in schema["paths"], path
    assert "post" in schema["paths"][URL]
