"""Celery tasks of coaching: thin wrappers."""

from celery import shared_task

from . import ratings


@shared_task(name="coaching.release_usefulness")
def release_usefulness() -> int:
    return ratings.release_usefulness()
