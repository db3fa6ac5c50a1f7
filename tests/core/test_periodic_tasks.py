import pytest
from django.core.management import call_command
from django_celery_beat.models import CrontabSchedule, PeriodicTask

from core.periodic import PERIODIC_TASKS, ensure_periodic_tasks


@pytest.mark.django_db
def test_every_periodic_task_is_registered_after_migrate():
    # post_migrate ran when the test database was built
    names = set(PeriodicTask.objects.values_list("name", flat=True))
    assert {spec.name for spec in PERIODIC_TASKS} <= names


@pytest.mark.django_db
def test_registering_twice_creates_nothing_twice():
    PeriodicTask.objects.all().delete()
    assert ensure_periodic_tasks() == [spec.name for spec in PERIODIC_TASKS]
    assert ensure_periodic_tasks() == []
    assert PeriodicTask.objects.count() == len(PERIODIC_TASKS)


@pytest.mark.django_db
def test_a_schedule_edited_in_the_admin_is_never_overwritten(capsys):
    task = PeriodicTask.objects.get(name=PERIODIC_TASKS[0].name)
    edited = CrontabSchedule.objects.create(minute="45", hour="1", timezone="UTC")
    task.crontab, task.enabled = edited, False
    task.save()

    call_command("ensure_periodic_tasks")
    call_command("migrate", verbosity=0)

    task.refresh_from_db()
    assert (task.crontab_id, task.enabled) == (edited.pk, False)
    assert "already registered" in capsys.readouterr().out


@pytest.mark.django_db
def test_every_registered_task_name_exists_in_the_celery_app():
    from config.celery import app

    app.loader.import_default_modules()
    assert {spec.task for spec in PERIODIC_TASKS} <= set(app.tasks)
