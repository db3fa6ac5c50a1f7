"""Celery tasks of the dashboards: thin wrappers."""

from celery import shared_task

from . import snapshots


@shared_task(name="dashboards.warm_snapshots")
def warm_snapshots() -> list[str]:
    return snapshots.warm()
