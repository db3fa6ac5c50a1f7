"""The ways in besides a password: API tokens, second factors, sign-in sessions."""

from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from .models import (
    SignInSession,
    User,
)
from .services_audit import audit_record, audit_record_each


def api_token_exists(*, person: User) -> bool:
    return Token.objects.filter(user=person).exists()


@transaction.atomic
def api_token_rotate(*, person: User) -> str:
    """Replace the person's API token; returns the new key (shown once)."""
    Token.objects.filter(user=person).delete()
    token = Token.objects.create(user=person)
    audit_record(actor=person, verb="api_token.created", target=person)
    return token.key


@transaction.atomic
def authenticators_remove(*, actor: User, authenticators, ip: str | None = None) -> int:
    """A superuser removes second factors (`authenticators`, a queryset): the way back
    in for someone who lost their phone. Each is audited as `mfa.removed`, as removing
    one oneself is, with whose it was. Returns how many went."""
    removed = list(authenticators.select_related("user"))
    audit_record_each(
        actor=actor,
        verb="mfa.removed",
        events=[(a.user, {"type": a.type, "via": "admin"}) for a in removed],
        ip=ip,
    )
    authenticators.model.objects.filter(pk__in=[a.pk for a in removed]).delete()
    return len(removed)


@transaction.atomic
def api_token_revoke(*, person: User) -> None:
    deleted, _ = Token.objects.filter(user=person).delete()
    if deleted:
        audit_record(actor=person, verb="api_token.revoked", target=person)


def sign_in_sessions_clear_expired() -> int:
    """Delete expired sign-in sessions (the database session store never does)."""
    deleted, _ = SignInSession.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted
