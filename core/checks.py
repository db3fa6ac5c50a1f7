"""System checks of Tandem's own. Django runs them on `manage.py check` (and
`check --deploy`), `migrate` and `runserver`, so the distributed shape's one-shot
migration refuses before any web or worker process starts."""

import os

from django.conf import settings
from django.core.checks import Error, Warning, register

# The backends that take a message and deliver it to nobody: what each does instead.
SENDS_NOTHING = {
    "django.core.mail.backends.console.EmailBackend": "prints every message to the log",
    "django.core.mail.backends.dummy.EmailBackend": "drops every message",
    "django.core.mail.backends.filebased.EmailBackend": "writes every message to a file",
    "django.core.mail.backends.locmem.EmailBackend": "keeps every message in memory",
}


@register()
def email_is_delivered(app_configs, **kwargs):
    """Under production settings, mail must reach people: invitations, password resets,
    email verification and reminders are how they arrive and come back. EMAIL_URL's
    default (consolemail://) is for trying Tandem out."""
    if not settings.EMAIL_MUST_BE_DELIVERED:
        return []
    instead = SENDS_NOTHING.get(settings.EMAIL_BACKEND)
    if instead is None:
        return []
    return [
        Error(
            f"Production sends no email: EMAIL_URL is not set, or names a backend that "
            f"{instead} ({settings.EMAIL_BACKEND}).",
            hint="Set EMAIL_URL to your mail server, e.g. "
            "smtp+tls://user:password@smtp.example.com:587 (docs/operations.md, Email).",
            id="tandem.E001",
        )
    ]


# Environment variables Tandem no longer reads, and what took their place.
RETIRED_SETTINGS = {
    "CADENCE_STALE_CLAIM_MINUTES": "CADENCE_CLAIM_LEASE_SECONDS (claims are leased and "
    "renewed while sending; an expired lease returns in under two minutes)",
}


@register()
def no_retired_settings(app_configs, **kwargs):
    """A deployment that still sets a retired variable is told, not silently ignored."""
    return [
        Warning(
            f"{name} is set but no longer read.",
            hint=f"Remove it; see {instead}.",
            id="tandem.W001",
        )
        for name, instead in RETIRED_SETTINGS.items()
        if name in os.environ
    ]
