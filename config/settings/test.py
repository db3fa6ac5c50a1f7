"""Test settings: the base settings with fast hashing and captured mail.

DATABASE_URL, CELERY_BROKER_URL and CACHE_URL come from the environment exactly as in
production, so CI runs the suite against PostgreSQL and Redis."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-test-key")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("ACCOUNT_EMAIL_VERIFICATION", "none")
# Unit tests run tasks in-process; tests marked `worker` start a real worker instead.
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

from .base import *  # noqa: E402,F403

# The demo organisation and the data at scale, as in local settings (devdata/README.md).
INSTALLED_APPS = [*INSTALLED_APPS, "devdata"]  # noqa: F405

# Under pytest-xdist each process has its own test database (pytest-django adds the
# worker's name), and needs its own cache too: every test empties the cache, and with
# one Redis database shared, one process's test would empty another's mid-test.
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1" … or ""
if _XDIST_WORKER and CACHES["default"]["BACKEND"].endswith("RedisCache"):  # noqa: F405
    _redis, _, _db = CACHES["default"]["LOCATION"].rpartition("/")  # noqa: F405
    _db = int(_db) if _db.isdigit() else 0
    CACHES["default"]["LOCATION"] = f"{_redis}/{_db + 1 + int(_XDIST_WORKER[2:])}"  # noqa: F405

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES["staticfiles"]["BACKEND"] = (  # noqa: F405
    "django.contrib.staticfiles.storage.StaticFilesStorage"
)
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = []  # noqa: F405

# A real worker process (tests marked `worker`) must see the test database, so an
# SQLite test database lives in a file rather than in memory; and test messages go
# to their own broker folder, away from a running demo's. One file per test run, so
# two runs side by side do not share a database.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")  # noqa: F405
    }
if CELERY_BROKER_URL.startswith("filesystem://"):  # noqa: F405
    _test_broker = VAR_DIR / "test-broker"  # noqa: F405
    CELERY_BROKER_TRANSPORT_OPTIONS = {  # noqa: F405
        "data_folder_in": str(_test_broker),
        "data_folder_out": str(_test_broker),
        "control_folder": str(_test_broker / "control"),
        "store_processed": False,
    }
    (_test_broker / "control").mkdir(parents=True, exist_ok=True)  # as base.py's

# Every request a test makes (test client, live server) runs inside django-zeal's
# detector: a relation loaded once per row of a list — an N+1 — fails the test, with
# the model, the field and the line that did it (tests/support/n_plus_one.py).
INSTALLED_APPS = [*INSTALLED_APPS, "zeal"]  # noqa: F405
MIDDLEWARE = [*MIDDLEWARE, "tests.support.n_plus_one.detect_n_plus_one"]  # noqa: F405
ZEAL_RAISE = True
# A relation loaded three times from one line is a loop; twice is often a deliberate
# re-read (a page reloads the object it just changed to render it fresh).
ZEAL_NPLUSONE_THRESHOLD = 3

# Serve static files from the source folders (no collectstatic before tests).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
