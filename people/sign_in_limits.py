"""Limits on failed password sign-ins that an attacker cannot turn into a lock-out.

A limit keyed by the account alone lets anyone who knows a colleague's email address
keep them out with a few wrong passwords. So the limits are counted by allauth's rate
limiter (settings ACCOUNT_RATE_LIMITS) under keys an attacker does not share with the
person:

- `login_failed`: per address (10 a minute) and per account *from one address*
  (5 in 5 minutes). A guesser is slowed at once; the person elsewhere is not.
- `login_failed_account`: per account from every address (20 an hour), so a guess
  spread over many addresses is still capped. When it holds, the way in is a one-time
  code sent by email (allauth's sign-in by code), which it does not touch.
- `login_failed_known_device`: a browser that has signed in to the account before
  carries a signed cookie naming that account and the browser. It is counted on its
  own (5 in 5 minutes per account and browser) and is held by neither limit above, so
  nobody else's failures, on the same network or anywhere, keep the person out of
  their usual browser.

Every key is built from the email address as typed, known or not, so the answers are
the same for an address that has no account (nothing says whether one exists).
"""

import secrets

# allauth's adapter counts sign-ins with this module too; tests/people/test_sign_in_limits.py
# catches an upgrade that moves it.
from allauth.core.internal import ratelimit
from allauth.core.internal.ratelimit import get_ip
from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

KNOWN_DEVICE_COOKIE = "tandem_known_device"
KNOWN_DEVICE_SALT = "people.sign_in_limits.known_device"
KNOWN_DEVICE_MAX_AGE = 180 * 24 * 60 * 60  # renewed on every sign-in

FROM_HERE = "too_many_failed_sign_ins_from_here"
FOR_ACCOUNT = "too_many_failed_sign_ins_for_account"
ERROR_MESSAGES = {
    FROM_HERE: (
        "Too many failed sign-in attempts from here. Wait a few minutes and try again, "
        "or choose “Email me a sign-in code” below to get in now."
    ),
    FOR_ACCOUNT: (
        "Too many failed sign-in attempts for this email address. To sign in now, "
        "choose “Email me a sign-in code” below: we send a one-time code to the address."
    ),
}


class SignInRefused(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


def _account(login):
    # Not per site, as allauth's own key is: without SITE_ID the "site" is the Host
    # header, and each allowed host name would be a fresh count.
    return f"sign-in:{login.strip().lower()}"


def _account_digest(login):
    return salted_hmac(KNOWN_DEVICE_SALT, login.strip().lower()).hexdigest()


def known_device(request, login):
    """The id of this browser if it has signed in to `login`'s account before, else None."""
    value = request.get_signed_cookie(
        KNOWN_DEVICE_COOKIE, default=None, salt=KNOWN_DEVICE_SALT, max_age=KNOWN_DEVICE_MAX_AGE
    )
    device, _, digest = (value or "").partition(":")
    if device and constant_time_compare(digest, _account_digest(login)):
        return device
    return None


def remember_device(request, response, email):
    """Mark this browser as one `email`'s account signs in from (its id kept if it had one)."""
    value = request.get_signed_cookie(
        KNOWN_DEVICE_COOKIE, default=None, salt=KNOWN_DEVICE_SALT, max_age=KNOWN_DEVICE_MAX_AGE
    )
    device = (value or "").partition(":")[0] or secrets.token_urlsafe(16)
    response.set_signed_cookie(
        KNOWN_DEVICE_COOKIE,
        f"{device}:{_account_digest(email)}",
        salt=KNOWN_DEVICE_SALT,
        max_age=KNOWN_DEVICE_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def _consume(request, action, key):
    return ratelimit.consume(request, app="allauth.account", action=action, key=key)


def count_attempt(request, login):
    """Count one password attempt for `login` before it is checked, or raise SignInRefused
    with the limit that holds. The answer's `rollback()` takes the attempt back (allauth
    does so when the password was right)."""
    account = _account(login)
    device = known_device(request, login)
    if device:
        usage = _consume(request, "login_failed_known_device", f"{account}:device:{device}")
        if usage is None:
            raise SignInRefused(FROM_HERE)
        return usage
    here = _consume(request, "login_failed", f"{account}:ip:{get_ip(request)}")
    if here is None:
        raise SignInRefused(FROM_HERE)
    everywhere = _consume(request, "login_failed_account", account)
    if everywhere is None:
        here.rollback()  # not checked, so not counted against this address
        raise SignInRefused(FOR_ACCOUNT)
    return ratelimit.RateLimitUsage(usage=here.usage + everywhere.usage)


def forget_failures(request, email):
    """After the password is set from an emailed link (itself rate-limited), the
    account's count starts again."""
    ratelimit.clear(
        request, app="allauth.account", action="login_failed_account", key=_account(email)
    )
