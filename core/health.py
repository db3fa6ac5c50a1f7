"""Liveness of what the app needs: the database and the Celery broker."""

import time
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.db import connection


def check_database() -> str | None:
    """None when healthy, else a short reason (never a stack trace or a DSN)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return type(exc).__name__
    return None


def check_broker() -> str | None:
    url = settings.CELERY_BROKER_URL
    if url.startswith("filesystem://"):
        folder = Path(str(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"]))
        folder.mkdir(parents=True, exist_ok=True)
        return None if folder.is_dir() and _writable(folder) else "broker folder not writable"
    try:
        # The project's Celery app (config/celery.py): Celery's Django fixup makes it
        # the default in every thread, so the bottom layer need not import config.
        with current_app.connection_for_write(url=url, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__
    return None


def _writable(folder: Path) -> bool:
    probe = folder / f".healthz-{time.monotonic_ns()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return False
    return True
