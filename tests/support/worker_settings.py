"""Settings for worker processes started by tests (see tests/support/worker.py): the test
settings, with mail written to files the test process can count.

config.settings.test sets EMAIL_BACKEND to locmem after reading EMAIL_URL, so the
backend cannot be chosen through EMAIL_URL; hence this module."""

import os

from config.settings.test import *  # noqa: F403

EMAIL_BACKEND = "tests.support.worker.FileMailBackend"
TANDEM_TEST_MAIL_DIR = os.environ["TANDEM_TEST_MAIL_DIR"]
TANDEM_TEST_MAIL_DELAY = float(os.environ.get("TANDEM_TEST_MAIL_DELAY", "0"))
TANDEM_TEST_MAIL_DELAY_AFTER = float(os.environ.get("TANDEM_TEST_MAIL_DELAY_AFTER", "0"))
