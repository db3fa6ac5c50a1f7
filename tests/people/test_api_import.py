"""People imports through the API (/api/v1/people-imports/), for programme admins:
upload a CSV file (multipart), read the import, apply or discard it. Everyone else
gets 404 and writes nothing; a wrong file is a 400 listing its problems, nothing
kept; the list costs the same queries for 3 imports as for 60."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from people.models import ImportStatus, PeopleImport, User

pytestmark = pytest.mark.django_db
URL = "/api/v1/people-imports/"
HEADER = "email,name,manager_email,team,time_zone,role\n"
FILE = HEADER + (
    "ada@example.com,Ada Lovelace,,Leadership,Europe/London,manager\n"
    "ben@example.com,Ben Okoro,ada@example.com,Sales,Europe/Berlin,\n"
)
COUNTS = {"created": 2, "updated": 0, "unchanged": 0, "teams_created": 2}


def csv_file(text=FILE, name="people.csv"):
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


@pytest.fixture
def api(org):
    client = APIClient()
    client.force_login(org.admin)
    return client


@pytest.fixture
def send(api, django_capture_on_commit_callbacks):
    """POST as the admin; the worker's task runs after the commit."""

    def send(url, data=None, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return api.post(url, data, **kwargs)

    return send


def uploaded(send) -> int:
    response = send(URL, {"file": csv_file()}, format="multipart")
    assert response.status_code == 202, response.content
    return response.json()["id"]


def test_an_upload_is_accepted_and_checked(send, api, org):
    response = send(URL, {"file": csv_file()}, format="multipart")

    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "checking"  # as answered, before the worker ran
    assert body["row_count"] == 2
    assert body["uploaded_by"] == {"id": org.admin.pk, "display_name": org.admin.display_name}
    checked = api.get(f"{URL}{body['id']}/").json()
    assert checked["status"] == "ready"
    assert checked["checked_counts"] == COUNTS
    assert checked["problems"] == []


def test_apply_then_read_what_it_did(send, api):
    pk = uploaded(send)

    response = send(f"{URL}{pk}/apply/")

    assert response.status_code == 202
    assert response.json()["status"] == "applying"
    done = api.get(f"{URL}{pk}/").json()
    assert done["status"] == "applied"
    assert done["applied_counts"] == COUNTS
    assert User.objects.filter(email="ben@example.com").exists()


def test_discard(send):
    pk = uploaded(send)

    response = send(f"{URL}{pk}/discard/")

    assert response.status_code == 200
    assert response.json()["status"] == "discarded"
    assert send(f"{URL}{pk}/apply/").json() == ["This import was discarded; upload the file again."]


def test_a_wrong_file_is_a_400_listing_every_problem(send):
    text = HEADER + "not-an-email,No Email,,,,\nok@example.com,,,,,\n"

    response = send(URL, {"file": csv_file(text)}, format="multipart")

    assert response.status_code == 400
    assert response.json() == {
        "file": [
            "line 2: not-an-email is not a valid email address",
            "line 3: name is missing",
        ]
    }
    assert not PeopleImport.objects.exists()


@pytest.mark.parametrize(
    ("data", "kwargs", "error"),
    [
        ({}, {"format": "multipart"}, {"file": ["No file was submitted."]}),
        ({"file": "text"}, {"format": "json"}, None),
        (
            {"file": csv_file(), "extra": "1"},
            {"format": "multipart"},
            {"extra": ["Unknown field."]},
        ),
        (
            {"file": csv_file("")},
            {"format": "multipart"},
            {"file": ["The submitted file is empty."]},
        ),
    ],
    ids=["no-file", "json", "unknown-field", "empty"],
)
def test_bad_uploads_are_400s(send, data, kwargs, error):
    response = send(URL, data, **kwargs)

    assert response.status_code == 400
    if error is not None:
        assert response.json() == error
    assert not PeopleImport.objects.exists()


def test_applying_twice_is_a_400_saying_why(send):
    pk = uploaded(send)
    send(f"{URL}{pk}/apply/")

    response = send(f"{URL}{pk}/apply/")

    assert response.status_code == 400
    assert response.json() == ["This import was applied already."]


def test_the_list_is_newest_first_in_a_fixed_number_of_queries(api, org):
    def make(n):
        PeopleImport.objects.bulk_create(
            PeopleImport(file_name=f"file-{i}.csv", uploaded_by=org.admin, applied_by=org.hr)
            for i in range(n)
        )

    def queries():
        with CaptureQueriesContext(connection) as ctx:
            response = api.get(URL)
        assert response.status_code == 200
        return len(ctx), response.json()

    make(3)
    few, _ = queries()
    make(57)
    many, body = queries()
    assert few == many
    assert body["count"] == 60
    ids = [row["id"] for row in body["results"]]
    assert ids == sorted(ids, reverse=True) and len(ids) == 50
    assert "problems" not in body["results"][0]


@pytest.mark.parametrize("who", ["rep", "manager", "head", "hr"])
def test_only_programme_admins_reach_imports(send, org, who):
    pk = uploaded(send)
    client = APIClient()
    client.force_login(getattr(org, who))

    assert client.get(URL).status_code == 404
    assert client.get(f"{URL}{pk}/").status_code == 404
    assert client.post(URL, {"file": csv_file()}, format="multipart").status_code == 404
    assert client.post(f"{URL}{pk}/apply/").status_code == 404
    assert client.post(f"{URL}{pk}/discard/").status_code == 404
    assert PeopleImport.objects.get().status == ImportStatus.READY


def test_signed_out_is_a_401(send):
    assert APIClient().get(URL).status_code == 401
