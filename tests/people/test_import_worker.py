"""People imports with real Celery worker processes on the configured broker and
database (people.services_imports): a worker checks and applies an upload; a worker
killed with `kill -9` in the middle of an import leaves nothing half-written, and
beat's resume hands the import to the next worker; a worker never runs an import
another one holds."""

import re
from contextlib import contextmanager
from datetime import timedelta

import psycopg2
import pytest
from django.db import OperationalError, connection, transaction
from django.db.models import F

from people import import_worker, tasks
from people import services_imports as services
from people.models import ImportStatus, PeopleImport, Team, User
from people.tasks import run_import
from tests.support.celery_workers import workers  # noqa: F401 - the fixture
from tests.support.factories import UserFactory
from tests.support.worker import database_url_of_test_db, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

HEADER = "email,name,manager_email,team,time_zone,role\n"
LEFT_ALONE = re.compile(r"Task people\.run_import\[[^\]]+\] succeeded in [\d.]+s: None")


@pytest.fixture
def queued_to_test_workers(workers, monkeypatch):  # noqa: F811 - the fixture
    """What the services queue goes to this test's own queue, where its workers listen."""
    monkeypatch.setattr(
        run_import, "delay", lambda pk: run_import.apply_async(args=[pk], queue=workers.queue)
    )
    return workers


def status_of(job) -> str:
    return PeopleImport.objects.values_list("status", flat=True).get(pk=job.pk)


def lock_free(job) -> bool:
    try:
        with transaction.atomic():
            PeopleImport.objects.select_for_update(nowait=True).get(pk=job.pk)
    except OperationalError:
        return False
    return True


def people_file(n: int) -> str:
    rows = ["lead@example.com,Lee Lead,,Imported,Europe/Berlin,manager\n"]
    rows += [f"p{i}@example.com,Person {i},lead@example.com,Imported,,\n" for i in range(n)]
    return HEADER + "".join(rows)


def test_a_worker_checks_an_upload_then_applies_it(queued_to_test_workers):
    admin = UserFactory(roles=["programme_admin"])
    worker = queued_to_test_workers.start(pool="solo")

    job = services.import_upload(actor=admin, file_name="p.csv", raw=people_file(3).encode())
    wait_until(lambda: status_of(job) == ImportStatus.READY, timeout=60, what="checked")
    assert not User.objects.filter(email="lead@example.com").exists()

    services.import_apply(actor=admin, job=PeopleImport.objects.get(pk=job.pk))
    wait_until(
        lambda: status_of(job) == ImportStatus.APPLIED, timeout=60, what="applied", worker=worker
    )
    job.refresh_from_db()
    assert job.applied_counts == {"created": 4, "updated": 0, "unchanged": 0, "teams_created": 1}
    assert User.objects.get(email="p2@example.com").reports_to.email == "lead@example.com"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
def test_a_worker_killed_mid_import_leaves_nothing_and_the_next_one_finishes_it(
    queued_to_test_workers,
):
    """The import is one transaction: a worker killed inside it writes nobody, and its
    row lock dies with its connection. Beat's resume, once the import has been running
    longer than RESUME_AFTER, queues it again and a fresh worker imports everyone.

    The kill lands inside the transaction by design, not by timing: the file's last
    row leads a team that exists, and the test holds that team's row locked, so the
    worker waits at that row having written everyone before it."""
    pool = queued_to_test_workers
    admin = UserFactory(roles=["programme_admin"])
    held = Team.objects.create(name="Held")
    text = people_file(500) + "last@example.com,Lars Last,lead@example.com,Held,,manager\n"
    job = PeopleImport.objects.create(
        file_name="big.csv", csv_text=text, row_count=502, status=ImportStatus.READY
    )
    doomed = pool.start(pool="solo")
    with row_locked_elsewhere("people_team", held.pk):
        services.import_apply(actor=admin, job=job)
        wait_until(
            waiting_with_people_written,
            timeout=60,
            what="the worker, people written, waits for the held team",
            worker=doomed,
        )
        doomed.kill()

    assert status_of(job) == ImportStatus.APPLYING
    assert not User.objects.filter(display_name__startswith="Person ").exists()
    # The lock dies with the worker's connection — once its server process, let past
    # the held team, next speaks to the dead client: moments, longer on a busy machine.
    wait_until(lambda: lock_free(job), timeout=30, what="the killed worker's lock to go")

    assert tasks.resume_imports() == 0  # not yet: it may still be running somewhere
    PeopleImport.objects.filter(pk=job.pk).update(
        status_changed_at=F("status_changed_at") - import_worker.RESUME_AFTER - timedelta(minutes=1)
    )
    fresh = pool.start(pool="solo")
    assert tasks.resume_imports() == 1
    wait_until(
        lambda: status_of(job) == ImportStatus.APPLIED,
        timeout=60,
        what="the next worker imports it",
        worker=fresh,
    )
    assert User.objects.filter(display_name__startswith="Person ").count() == 500
    assert Team.objects.get(pk=held.pk).lead.email == "last@example.com"


@contextmanager
def row_locked_elsewhere(table: str, pk: int):
    """The row locked by a connection of its own (the test's commits what it queues)."""
    other = psycopg2.connect(database_url_of_test_db())
    try:
        with other.cursor() as cursor:
            cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR UPDATE", [pk])  # noqa: S608
        yield
    finally:
        other.rollback()
        other.close()


def waiting_with_people_written() -> bool:
    """A backend of this database waits for a lock inside a transaction that has
    written to the people table (holds its RowExclusiveLock): the worker, mid-import."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid"
            " WHERE a.datname = current_database() AND a.wait_event_type = 'Lock'"
            " AND l.relation = 'people_user'::regclass AND l.mode = 'RowExclusiveLock'"
            " AND l.granted)"
        )
        return cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
def test_a_worker_leaves_an_import_another_one_holds(queued_to_test_workers):
    job = PeopleImport.objects.create(
        file_name="p.csv", csv_text=people_file(2), row_count=3, status=ImportStatus.CHECKING
    )
    worker = queued_to_test_workers.start(pool="solo")

    with transaction.atomic():
        PeopleImport.objects.select_for_update().get(pk=job.pk)  # as a running worker does
        run_import.delay(job.pk)
        wait_until(
            lambda: LEFT_ALONE.search(worker.output()),
            timeout=60,
            what="the worker finds the import taken and leaves it",
            worker=worker,
        )

    assert status_of(job) == ImportStatus.CHECKING
    assert PeopleImport.objects.get(pk=job.pk).checked_counts is None
