"""Importing people from the browser (/programme/imports/): programme admins upload a
CSV file, read what it would change, then apply or discard it. Everyone else gets 404;
a wrong file is a 400 listing its problems with nothing kept."""

import csv
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from people import services_imports
from people.models import ImportStatus, PeopleImport, Team, User
from people.selectors_imports import IMPORTS_PER_PAGE
from people.views_imports import EXAMPLE_CSV, PROBLEMS_SHOWN

pytestmark = pytest.mark.django_db

HEADER = "email,name,manager_email,team,time_zone,role\n"
FILE = HEADER + (
    "ada@example.com,Ada Lovelace,,Leadership,Europe/London,manager\n"
    "ben@example.com,Ben Okoro,ada@example.com,Sales,Europe/Berlin,\n"
)


def csv_file(text=FILE, name="people.csv"):
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


@pytest.fixture
def as_admin(client, org):
    client.force_login(org.admin)
    return client


@pytest.fixture
def post(as_admin, django_capture_on_commit_callbacks):
    """POST as the admin; the worker's task runs after the commit, as in production,
    before a redirect is followed."""

    def post(url, data=None, *, follow=False):
        with django_capture_on_commit_callbacks(execute=True):
            response = as_admin.post(url, data or {})
        if follow and response.status_code == 302:
            return as_admin.get(response.url)
        return response

    return post


def html_of(response) -> str:
    return response.content.decode()


def test_the_programme_page_links_to_the_import(as_admin):
    assert 'href="/programme/imports/"' in html_of(as_admin.get("/programme/"))


def test_the_import_page_leads_to_adding_people_one_by_one(as_admin):
    page = html_of(as_admin.get("/programme/imports/"))
    assert '<a href="/programme/people/#new-heading">Add them one by one</a>' in page
    assert 'id="new-heading">Add a person<' in html_of(as_admin.get("/programme/people/"))


def test_uploading_a_right_file_shows_what_it_would_change(post, as_admin):
    response = post("/programme/imports/", {"file": csv_file()})

    job = PeopleImport.objects.get()
    assert response.url == f"/programme/imports/{job.pk}/"
    html = html_of(as_admin.get(response.url))
    assert "people.csv: every row is valid." in html
    assert "Ready to import" in html
    assert re.search(r"<dt>New people</dt><dd>2</dd>", html)
    assert re.search(r"<dt>New teams</dt><dd>2</dd>", html)
    assert "Import 2 people</button>" in html
    assert not User.objects.filter(email="ada@example.com").exists()


def test_applying_imports_them_and_says_so(post, org):
    job = PeopleImport.objects.get(pk=_uploaded(post))

    response = post(f"/programme/imports/{job.pk}/apply/", follow=True)

    html = html_of(response)
    assert "Importing people.csv…" in html
    assert f"Imported by {org.admin.display_name}" in html
    assert User.objects.get(email="ben@example.com").reports_to.email == "ada@example.com"
    assert PeopleImport.objects.get().status == ImportStatus.APPLIED


def test_discarding_keeps_nothing(post):
    pk = _uploaded(post)

    html = html_of(post(f"/programme/imports/{pk}/discard/", follow=True))

    assert "Discarded people.csv; nothing was imported." in html
    assert PeopleImport.objects.get().csv_text == ""
    assert not User.objects.filter(email="ada@example.com").exists()


def _uploaded(post) -> int:
    post("/programme/imports/", {"file": csv_file()})
    return PeopleImport.objects.get().pk


def test_a_wrong_file_is_a_400_listing_its_problems_and_nothing_is_kept(post):
    text = HEADER + "not-an-email,No Email,,,,\nok@example.com,,,,,\n"

    response = post("/programme/imports/", {"file": csv_file(text)})

    assert response.status_code == 400
    html = html_of(response)
    assert "Nothing was kept: fix these 2 problems and upload the file again." in html
    assert "<li>line 2: not-an-email is not a valid email address</li>" in html
    assert "<li>line 3: name is missing</li>" in html
    assert not PeopleImport.objects.exists()


def test_a_long_list_of_problems_is_cut_and_counted(post):
    text = HEADER + "".join(f"bad{n},Name,,,,\n" for n in range(PROBLEMS_SHOWN + 7))

    html = html_of(post("/programme/imports/", {"file": csv_file(text)}))

    assert html.count("is not a valid email address</li>") == PROBLEMS_SHOWN
    assert "And 7 more." in html


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({}, "Choose a CSV file to upload."),
        ({"file": csv_file("")}, "The file is empty."),
        ({"file": csv_file("\xff", name="x.csv")}, "line 1: missing required column(s)"),
    ],
    ids=["no-file", "empty", "not-people"],
)
def test_no_file_or_an_empty_one_is_a_400_saying_so(post, data, error):
    response = post("/programme/imports/", data)

    assert response.status_code == 400
    assert error in html_of(response)
    assert not PeopleImport.objects.exists()


def test_a_file_over_the_limit_is_refused_by_the_form(post, monkeypatch):
    monkeypatch.setattr("people.forms.MAX_UPLOAD_BYTES", 10)

    response = post("/programme/imports/", {"file": csv_file()})

    assert response.status_code == 400
    assert services_imports.TOO_LARGE in html_of(response)


def test_applying_what_is_not_ready_is_a_400_saying_why(post):
    pk = _uploaded(post)
    post(f"/programme/imports/{pk}/apply/")

    response = post(f"/programme/imports/{pk}/apply/")

    assert response.status_code == 400
    assert "This import was applied already." in html_of(response)


def test_while_a_worker_runs_the_status_polls_itself_with_htmx(as_admin, org):
    job = services_imports.import_upload(actor=org.admin, file_name="p.csv", raw=FILE.encode())
    # Not committed in this test, so the worker never ran: still checking.

    page = html_of(as_admin.get(f"/programme/imports/{job.pk}/"))
    fragment = as_admin.get(f"/programme/imports/{job.pk}/", headers={"HX-Request": "true"})

    assert 'hx-trigger="every 2s"' in page and "A worker is now running" in page
    assert f'action="/programme/imports/{job.pk}/discard/"' in page  # a mistaken upload
    assert html_of(fragment).strip().startswith('<section id="import-status"')
    assert "<html" not in html_of(fragment)


def test_a_finished_import_stops_polling(post, as_admin):
    pk = _uploaded(post)

    assert 'hx-trigger="every 2s"' not in html_of(as_admin.get(f"/programme/imports/{pk}/"))


def test_the_example_file_is_offered_and_imports_cleanly(as_admin, post):
    response = as_admin.get("/programme/imports/example.csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body == EXAMPLE_CSV.read_bytes()
    post("/programme/imports/", {"file": csv_file(body.decode(), name="example.csv")})
    job = PeopleImport.objects.get()
    assert job.checked_counts["created"] == 9
    post(f"/programme/imports/{job.pk}/apply/")
    assert PeopleImport.objects.get().status == ImportStatus.APPLIED


def test_every_team_in_the_example_file_has_a_lead_once_imported(post):
    """A team without a lead cannot keep a cadence: whoever starts from the example
    meets no such team (a `manager` row names the teams its person leads)."""
    text = EXAMPLE_CSV.read_text()
    post("/programme/imports/", {"file": csv_file(text, name="example.csv")})
    post(f"/programme/imports/{PeopleImport.objects.get().pk}/apply/")
    named = {
        team.strip() for row in csv.DictReader(io.StringIO(text)) for team in row["team"].split(";")
    }
    named.discard("")
    teams = Team.objects.filter(name__in=named).select_related("lead")
    assert {team.name for team in teams} == named
    assert [team.name for team in teams if team.lead is None] == []


def test_the_list_pages_imports_newest_first_in_a_fixed_number_of_queries(as_admin, org):
    def make(n):
        PeopleImport.objects.bulk_create(
            PeopleImport(file_name=f"file-{i}.csv", uploaded_by=org.admin, row_count=i)
            for i in range(n)
        )

    def queries(url):
        with CaptureQueriesContext(connection) as ctx:
            response = as_admin.get(url)
        assert response.status_code == 200
        return len(ctx)

    make(3)
    few = queries("/programme/imports/")
    make(IMPORTS_PER_PAGE * 2)
    many = queries("/programme/imports/")
    assert few == many == 6  # with the header's unread count
    first = [
        int(pk)
        for pk in re.findall(
            r'href="/programme/imports/(\d+)/"', html_of(as_admin.get("/programme/imports/"))
        )
    ]
    newest = PeopleImport.objects.order_by("-uploaded_at", "-pk").values_list("pk", flat=True)
    assert first == list(newest[:IMPORTS_PER_PAGE])
    html = html_of(as_admin.get("/programme/imports/?page=2"))
    assert "Page 2 of 3" in html
    assert len(re.findall(r'href="/programme/imports/\d+/"', html)) == IMPORTS_PER_PAGE


def test_a_bad_page_number_is_a_400_over_the_first_page(as_admin):
    response = as_admin.get("/programme/imports/?page=two")

    assert response.status_code == 400
    assert "Give a page number: a whole number from 1." in html_of(response)


@pytest.mark.parametrize("who", ["rep", "manager", "head", "hr"])
def test_only_programme_admins_reach_imports(client, org, post, who):
    pk = _uploaded(post)
    client.force_login(getattr(org, who))

    for url in (
        "/programme/imports/",
        f"/programme/imports/{pk}/",
        "/programme/imports/example.csv",
    ):
        assert client.get(url).status_code == 404
    for url in (
        "/programme/imports/",
        f"/programme/imports/{pk}/apply/",
        f"/programme/imports/{pk}/discard/",
    ):
        assert client.post(url, {"file": csv_file()}).status_code == 404
    assert PeopleImport.objects.get().status == ImportStatus.READY
    assert PeopleImport.objects.count() == 1


def test_an_unknown_import_is_a_404(as_admin):
    assert as_admin.get("/programme/imports/999999/").status_code == 404
    assert as_admin.post("/programme/imports/999999/apply/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_with_real_commits_the_worker_s_task_runs_as_in_a_worker(client, org):
    """Here the upload's commit queues the task inside the request (tasks are eager in
    tests), where the N+1 detector watches; a worker runs it on its own, row by row."""
    client.force_login(org.admin)
    team_of_four = HEADER + "".join(
        f"p{n}@example.com,Person {n},{org.manager.email},,,\n" for n in range(4)
    )

    client.post("/programme/imports/", {"file": csv_file(team_of_four)})

    job = PeopleImport.objects.get()
    assert (job.status, job.checked_counts["created"]) == (ImportStatus.READY, 4)
