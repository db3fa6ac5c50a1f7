"""The welcome email a programme admin sends someone they added: where to sign in, and
a link to set their password — allauth's own password-reset link, so it works once and
for `PASSWORD_RESET_TIMEOUT` (three days by default); after that, "Forgot your
password?" on the sign-in page sends another. Sent by a worker (`people.tasks
.send_welcome`): the request that asks for it never waits on the mail server."""

from datetime import datetime, timedelta

from allauth.account.forms import default_token_generator
from allauth.account.utils import user_pk_to_url_str
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from .models import User


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def welcome_link(person: User) -> str:
    """Where `person` sets their password (and so proves the address is theirs)."""
    path = reverse(
        "account_reset_password_from_key",
        kwargs={
            "uidb36": user_pk_to_url_str(person),
            "key": default_token_generator.make_token(person),
        },
    )
    return _absolute(path)


def link_lifetime() -> timedelta:
    return timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)


def link_works_until(person: User) -> datetime | None:
    """Until when the link of `person`'s latest welcome works (unless they used it)."""
    sent = person.welcome_sent_at
    return sent + link_lifetime() if sent else None


def link_expired(person: User, now: datetime | None = None) -> bool:
    """`person` was sent a welcome and its link no longer works (unless used before)."""
    until = link_works_until(person)
    return until is not None and until <= (now or timezone.now())


def without_working_link(now: datetime | None = None) -> Q:
    """People never sent a welcome, or whose latest one's link has expired."""
    since = (now or timezone.now()) - link_lifetime()
    return Q(welcome_sent_at__isnull=True) | Q(welcome_sent_at__lte=since)


def welcome_send(person: User, *, invited_by: User | None) -> bool:
    """Email `person` their welcome; False (nothing sent) once they are deactivated."""
    return welcomes_send([person], invited_by=invited_by) == 1


def welcomes_send(people, *, invited_by: User | None) -> int:
    """Email each of `people` still active their welcome, over one connection to the
    mail server, and note when (`User.welcome_sent_at`); how many were sent."""
    active = [person for person in people if person.is_active]
    if not active:
        return 0
    sent = get_connection().send_messages([_message(p, invited_by) for p in active]) or 0
    if sent == len(active):  # a backend that sent fewer does not say which
        User.objects.filter(pk__in=[p.pk for p in active]).update(welcome_sent_at=timezone.now())
    return sent


def _message(person: User, invited_by: User | None) -> EmailMultiAlternatives:
    days = settings.PASSWORD_RESET_TIMEOUT // 86400
    context = {
        "person": person,
        "invited_by": invited_by,
        "link": welcome_link(person),
        "days": days,
        "sign_in_url": _absolute(reverse("account_login")),
        "site_url": settings.SITE_URL.rstrip("/"),
    }
    subject, text, html = (
        render_to_string(f"emails/welcome-{part}", context)
        for part in ("subject.txt", "body.txt", "body.html")
    )
    message = EmailMultiAlternatives(
        subject=" ".join(subject.split()), body=text, to=[person.email]
    )
    message.attach_alternative(html, "text/html")
    return message
