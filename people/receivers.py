"""Sign-in and MFA changes go to the audit trail; a finished sign-in marks the browser
as one the person uses (people/sign_in_limits.py). Connected in `PeopleConfig.ready`."""

from allauth.account import signals as account_signals
from allauth.mfa.signals import authenticator_added, authenticator_removed
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver

from . import sign_in_limits
from .services_audit import audit_record


def _ip(request):
    return request.META.get("REMOTE_ADDR") if request is not None else None


@receiver(user_logged_in)
def audit_sign_in(sender, request, user, **kwargs):
    audit_record(actor=user, verb="auth.signed_in", ip=_ip(request))


@receiver(account_signals.user_logged_in)
def remember_the_browser(sender, request, response, user, **kwargs):
    # Only a finished sign-in (password, code or SSO, and MFA where the person has it)
    # gets here: this browser is then one the person uses (people/sign_in_limits.py).
    if response is not None and user.email:
        sign_in_limits.remember_device(request, response, user.email)


@receiver(account_signals.password_reset)
def forget_failed_sign_ins(sender, request, user, **kwargs):
    sign_in_limits.forget_failures(request, user.email)


@receiver(user_login_failed)
def audit_failed_sign_in(sender, credentials, request=None, **kwargs):
    # The attempted email is not stored: it may be a password typed in the wrong box.
    audit_record(actor=None, verb="auth.sign_in_failed", ip=_ip(request))


@receiver(authenticator_added)
def audit_mfa_added(sender, request, user, authenticator, **kwargs):
    audit_record(actor=user, verb="mfa.added", data={"type": authenticator.type}, ip=_ip(request))


@receiver(authenticator_removed)
def audit_mfa_removed(sender, request, user, authenticator, **kwargs):
    audit_record(actor=user, verb="mfa.removed", data={"type": authenticator.type}, ip=_ip(request))
