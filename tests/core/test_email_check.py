"""Production refuses mail that goes nowhere (core/checks.py): the check itself, for
each backend django-environ's EMAIL_URL can name. Under the production settings as a
whole (a subprocess): tests/config/test_production_settings.py."""

import pytest
from django.test import override_settings

from core.checks import email_is_delivered

NOWHERE = [
    "django.core.mail.backends.console.EmailBackend",  # consolemail://, the default
    "django.core.mail.backends.dummy.EmailBackend",  # dummymail://
    "django.core.mail.backends.filebased.EmailBackend",  # filemail://
    "django.core.mail.backends.locmem.EmailBackend",  # memorymail://
]


@pytest.mark.parametrize("backend", NOWHERE)
def test_under_production_a_backend_that_sends_nothing_is_an_error(backend):
    with override_settings(EMAIL_MUST_BE_DELIVERED=True, EMAIL_BACKEND=backend):
        (error,) = email_is_delivered(None)
    assert error.id == "tandem.E001"
    assert error.is_serious()
    assert "EMAIL_URL" in error.msg and backend in error.msg


def test_under_production_an_smtp_server_passes():
    with override_settings(
        EMAIL_MUST_BE_DELIVERED=True, EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend"
    ):
        assert email_is_delivered(None) == []


@pytest.mark.parametrize("backend", NOWHERE)
def test_elsewhere_mail_may_go_to_the_log_or_memory(backend):
    with override_settings(EMAIL_MUST_BE_DELIVERED=False, EMAIL_BACKEND=backend):
        assert email_is_delivered(None) == []
