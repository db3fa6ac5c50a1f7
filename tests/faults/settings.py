"""Settings for the processes the fault tests start (gunicorn, Celery worker and beat):
the base settings with debug off — so failures reach the error handlers a production
site runs — fast password hashing for the demo logins, and mail written to files the
test can count (tests/support/worker.py)."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-fault-test-key")
os.environ["DEBUG"] = "false"
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("ACCOUNT_EMAIL_VERIFICATION", "none")

from config.settings.base import *  # noqa: E402,F403

# The fault tests seed the demo organisation (`seed_demo`).
INSTALLED_APPS = [*INSTALLED_APPS, "devdata"]  # noqa: F405

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = (  # noqa: F405
    "django.contrib.staticfiles.storage.StaticFilesStorage"
)
EMAIL_BACKEND = "tests.support.worker.FileMailBackend"
TANDEM_TEST_MAIL_DIR = os.environ.get("TANDEM_TEST_MAIL_DIR", "/nonexistent")
TANDEM_TEST_MAIL_DELAY = float(os.environ.get("TANDEM_TEST_MAIL_DELAY", "0"))
TANDEM_TEST_MAIL_DELAY_AFTER = float(os.environ.get("TANDEM_TEST_MAIL_DELAY_AFTER", "0"))
