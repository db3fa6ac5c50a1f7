"""People imports as jobs (people.services_imports): the upload checks every row at
once and keeps nothing when one is wrong; a worker counts what a right file would
change (a dry run), then applies it in one transaction once an admin confirms; the
beat task hands back an import whose worker died and discards stale ones."""

import logging
import threading
from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from people import import_worker, tasks
from people import services_imports as services
from people.importing import PeopleImportError
from people.models import AuditEvent, ImportStatus, PeopleImport, Team, User
from people.roles import Role
from people.selectors import roles_of
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

HEADER = "email,name,manager_email,team,time_zone,role\n"
FILE = HEADER + (
    "ada@example.com,Ada Lovelace,,Leadership,Europe/London,manager\n"
    "ben@example.com,Ben Okoro,ada@example.com,Sales,Europe/Berlin,manager\n"
    "cam@example.com,Cam Silva,ben@example.com,Sales,America/Sao_Paulo,\n"
    "eve@example.com,Eve Adams,ada@example.com,,America/New_York,hr\n"
)
COUNTS = {"created": 4, "updated": 0, "unchanged": 0, "teams_created": 2}


@pytest.fixture
def admin():
    return UserFactory(email="admin@example.com", roles=["programme_admin"])


@pytest.fixture
def upload(admin, django_capture_on_commit_callbacks):
    """Upload `text` as `by`; with `run`, the worker's check runs as it would after the
    commit (the tests run tasks eagerly)."""

    def upload(text=FILE, *, by=None, run=True, name="people.csv"):
        with django_capture_on_commit_callbacks(execute=run):
            job = services.import_upload(actor=by or admin, file_name=name, raw=text.encode())
        job.refresh_from_db()
        return job

    return upload


@pytest.fixture
def apply(admin, django_capture_on_commit_callbacks):
    def apply(job, *, by=None, run=True):
        with django_capture_on_commit_callbacks(execute=run):
            job = services.import_apply(actor=by or admin, job=job)
        job.refresh_from_db()
        return job

    return apply


def refused(call, *args, **kwargs) -> list[str]:
    with pytest.raises(PeopleImportError) as caught:
        call(*args, **kwargs)
    return caught.value.errors


def test_a_right_file_is_checked_by_a_dry_run_that_writes_nobody(upload, admin):
    people_before = User.objects.count()

    job = upload()

    assert job.status == ImportStatus.READY
    assert job.row_count == 4
    assert job.checked_counts == COUNTS
    assert job.applied_counts is None
    assert job.uploaded_by == admin
    assert job.csv_text == FILE  # kept while it may still be applied
    assert User.objects.count() == people_before
    assert not Team.objects.exists()
    event = AuditEvent.objects.get(verb="people.import_uploaded")
    assert (event.actor, event.data) == (admin, {"rows": 4})
    assert not AuditEvent.objects.filter(verb="people.imported").exists()  # a dry run


def test_until_its_worker_runs_an_upload_is_checking(upload):
    job = upload(run=False)

    assert job.status == ImportStatus.CHECKING
    assert job.is_running
    assert job.checked_counts is None


def test_applying_imports_everyone_and_keeps_the_counts_not_the_file(upload, apply):
    job = upload()
    other_admin = UserFactory(roles=["programme_admin"])

    job = apply(job, by=other_admin)

    assert job.status == ImportStatus.APPLIED
    assert job.applied_by == other_admin
    assert job.applied_counts == COUNTS
    assert job.csv_text == ""
    assert User.objects.get(email="cam@example.com").reports_to.email == "ben@example.com"
    assert Team.objects.get(name="Sales").lead.email == "ben@example.com"
    assert Role.HR in roles_of(User.objects.get(email="eve@example.com"))
    assert AuditEvent.objects.get(verb="people.imported").actor == other_admin


def test_until_its_worker_runs_an_applied_import_is_applying(upload, apply):
    job = apply(upload(), run=False)

    assert job.status == ImportStatus.APPLYING
    assert not User.objects.filter(email="ada@example.com").exists()


def test_a_wrong_file_is_refused_with_every_problem_and_nothing_is_kept(upload):
    UserFactory(email="gone@example.com", is_active=False)
    text = HEADER + (
        "ok@example.com,Olu Kay,,,Europe/Paris,\n"
        "not-an-email,No Email,,,,\n"
        "dead@example.com,Dee Ad,gone@example.com,,,\n"
    )

    errors = refused(upload, text)

    assert errors == [
        "line 3: not-an-email is not a valid email address",
        "line 4: manager gone@example.com is deactivated",
    ]
    assert not PeopleImport.objects.exists()
    assert not AuditEvent.objects.filter(verb__startswith="people.import").exists()


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        (b"email,name\n", "line 1: missing required column(s): manager_email, team,"),
        (b"", "line 1: the file is empty; the header needs: email, name,"),
        (HEADER.encode(), "line 2: the file has a header but nobody under it."),
        (HEADER.encode() + b"\n\n", "line 2: the file has a header but nobody under it."),
        (HEADER.encode() + "zoë@example.com,Zoë\n".encode("latin-1"), "line 2: not UTF-8"),
        (HEADER.encode() + b'a@example.com,"' + b"x" * 200_000, "line 2: cannot be read as CSV"),
    ],
    ids=["header", "empty", "nobody", "blank-lines", "latin-1", "unclosed-quote"],
)
def test_a_file_that_is_no_people_csv_is_refused_saying_why(upload, raw, error):
    with pytest.raises(PeopleImportError) as caught:
        services.import_upload(actor=UserFactory(), file_name="x.csv", raw=raw)

    assert caught.value.errors[0].startswith(error)
    assert not PeopleImport.objects.exists()


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(admin):
    raw = b"x" * (services.MAX_UPLOAD_BYTES + 1)

    assert refused(services.import_upload, actor=admin, file_name="big.csv", raw=raw) == [
        services.TOO_LARGE
    ]


def test_a_byte_order_mark_and_windows_line_ends_are_fine(upload):
    job = upload("\ufeff" + FILE.replace("\n", "\r\n"))

    assert job.checked_counts == COUNTS


def test_the_file_name_is_kept_short_and_never_blank(upload):
    assert upload(name="").file_name == "people.csv"
    assert len(upload(name="n" * 300 + ".csv").file_name) == 255


def test_a_change_between_upload_and_check_makes_the_import_invalid(upload):
    UserFactory(email="boss@example.com")
    job = upload(HEADER + "new@example.com,New Person,boss@example.com,,,\n", run=False)
    User.objects.filter(email="boss@example.com").update(is_active=False)

    assert import_worker.import_run(job.pk) == ImportStatus.INVALID

    job.refresh_from_db()
    assert job.problem_lines() == ["line 2: manager boss@example.com is deactivated"]
    assert job.problem_count == 1
    assert job.csv_text == ""
    assert refused(services.import_apply, actor=job.uploaded_by, job=job) == [
        "This file has problems; fix them and upload it again."
    ]


def test_a_change_between_check_and_apply_fails_the_import_and_writes_nothing(upload, apply):
    UserFactory(email="boss@example.com")
    job = upload(HEADER + "new@example.com,New Person,boss@example.com,Sales,,\n")
    User.objects.filter(email="boss@example.com").update(is_active=False)

    job = apply(job)

    assert job.status == ImportStatus.FAILED
    assert job.problem_lines() == ["line 2: manager boss@example.com is deactivated"]
    assert job.applied_counts is None
    assert job.csv_text == ""
    assert not User.objects.filter(email="new@example.com").exists()
    assert not Team.objects.exists()
    assert not AuditEvent.objects.filter(verb="people.imported").exists()


def test_only_a_checked_import_is_applied_and_only_once(upload, apply, admin):
    checking = upload(run=False)
    assert refused(services.import_apply, actor=admin, job=checking) == [
        "The file is still being checked; wait for its counts."
    ]
    job = apply(upload())
    assert refused(services.import_apply, actor=admin, job=job) == [
        "This import was applied already."
    ]
    assert refused(services.import_discard, actor=admin, job=job) == [
        "This import was applied already."
    ]


def test_two_admins_applying_at_once_apply_it_once(upload, admin):
    job = upload()
    read_by_the_second = PeopleImport.objects.get(pk=job.pk)  # still "ready" to them
    services.import_apply(actor=admin, job=job)

    errors = refused(services.import_apply, actor=UserFactory(), job=read_by_the_second)

    assert errors == ["This import is being applied already."]
    assert PeopleImport.objects.get(pk=job.pk).applied_by == admin


def test_one_import_is_applied_at_a_time(upload, apply, admin):
    first = apply(upload(name="first.csv"), run=False)
    second = upload(HEADER + "zed@example.com,Zed Ito,,,,\n", name="second.csv")

    assert refused(services.import_apply, actor=admin, job=second) == [
        "first.csv is being imported; apply this one when it has finished."
    ]
    import_worker.import_run(first.pk)
    assert apply(second).status == ImportStatus.APPLIED


def test_a_checked_import_may_be_discarded_with_its_file(upload, admin):
    job = services.import_discard(actor=admin, job=upload())

    assert job.status == ImportStatus.DISCARDED
    assert job.csv_text == ""
    assert AuditEvent.objects.filter(verb="people.import_discarded", actor=admin).exists()
    assert refused(services.import_discard, actor=admin, job=job) == [
        "This import was discarded; upload the file again."
    ]
    assert refused(services.import_apply, actor=admin, job=job) == [
        "This import was discarded; upload the file again."
    ]


def test_an_import_still_being_checked_may_be_discarded_and_its_worker_then_stops(upload, admin):
    job = services.import_discard(actor=admin, job=upload(run=False))

    assert job.status == ImportStatus.DISCARDED
    assert import_worker.import_run(job.pk) is None


def test_the_worker_leaves_an_import_that_is_not_waiting_alone(upload, apply):
    job = apply(upload())

    assert import_worker.import_run(job.pk) is None
    assert import_worker.import_run(10**9) is None
    assert User.objects.filter(email="ada@example.com").count() == 1


def test_a_database_refusal_fails_the_import_without_the_rows_in_the_log(upload, apply, caplog):
    job = apply(upload(), run=False)
    refusal = IntegrityError("duplicate key (lower(email))=(ada@example.com)")

    with (
        caplog.at_level(logging.INFO),
        mock.patch("people.import_worker.people_import", side_effect=refusal),
    ):
        assert import_worker.import_run(job.pk) == ImportStatus.FAILED

    job.refresh_from_db()
    assert job.problem_lines() == [import_worker.DATABASE_REFUSED]
    assert "ada@example.com" not in caplog.text
    assert f"people import {job.pk}: database refused (IntegrityError)" in caplog.text


def test_an_unexpected_error_fails_the_import_instead_of_retrying_forever(upload, apply):
    job = apply(upload(), run=False)

    with mock.patch("people.import_worker.people_import", side_effect=KeyError("x")):
        assert import_worker.import_run(job.pk) == ImportStatus.FAILED

    job.refresh_from_db()
    assert job.problem_lines() == [import_worker.UNEXPECTED]
    assert not User.objects.filter(email="ada@example.com").exists()


def test_a_long_list_of_problems_is_kept_short_and_counted(upload):
    job = upload(run=False)
    errors = [f"line {n}: problem" for n in range(2, 1002)]

    with mock.patch("people.import_worker.people_import", side_effect=PeopleImportError(errors)):
        import_worker.import_run(job.pk)

    job.refresh_from_db()
    assert job.problem_count == 1000
    assert len(job.problem_lines()) == import_worker.PROBLEMS_KEPT
    assert job.problem_lines()[0] == "line 2: problem"


def test_beat_hands_back_an_import_whose_worker_stopped_after_ten_minutes(upload, apply):
    started = timezone.now()
    with time_machine.travel(started, tick=False):
        checking = upload(run=False)
        applying = apply(upload(HEADER + "zed@example.com,Zed Ito,,,,\n"), run=False)

    with time_machine.travel(started + timedelta(minutes=9), tick=False):
        assert tasks.resume_imports() == 0
    with time_machine.travel(started + timedelta(minutes=11), tick=False):
        assert tasks.resume_imports() == 2  # run at once here: tasks are eager

    checking.refresh_from_db()
    applying.refresh_from_db()
    assert checking.status == ImportStatus.READY
    assert applying.status == ImportStatus.APPLIED
    assert User.objects.filter(email="zed@example.com").exists()


def test_beat_discards_a_checked_import_nobody_applied_within_a_week(upload):
    started = timezone.now()
    with time_machine.travel(started, tick=False):
        job = upload()

    with time_machine.travel(started + timedelta(days=6, hours=23), tick=False):
        tasks.resume_imports()
    job.refresh_from_db()
    assert job.status == ImportStatus.READY

    with time_machine.travel(started + timedelta(days=7, minutes=1), tick=False):
        tasks.resume_imports()
    job.refresh_from_db()
    assert job.status == ImportStatus.DISCARDED
    assert job.csv_text == ""


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_an_import_a_worker_is_checking_right_now_is_not_waited_for_but_refused(admin):
    job = PeopleImport.objects.create(file_name="p.csv", csv_text=FILE, row_count=4)
    held, release = threading.Event(), threading.Event()

    def worker():  # holds the row as import_run does, on a connection of its own
        with transaction.atomic():
            PeopleImport.objects.select_for_update().get(pk=job.pk)
            held.set()
            release.wait(timeout=30)
        connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert held.wait(timeout=30)
        assert refused(services.import_discard, actor=admin, job=job) == [services.BEING_CHECKED]
    finally:
        release.set()
        thread.join()
    assert services.import_discard(actor=admin, job=job).status == ImportStatus.DISCARDED
