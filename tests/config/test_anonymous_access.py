"""Every page needs sign-in and every API endpoint needs credentials.

Routes are discovered from the URL resolver, so a page is covered the day it is
added, and a route that opts out of sign-in must be listed here on purpose."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

# Route names that are public by design: sign-in, reset, verification, SSO callbacks,
# the health probe. API views are "public" to the sign-in middleware only because
# DRF authenticates them itself (and answers 401).
PUBLIC_PAGES = {
    "healthz",
    "favicon",
    "account_login",
    "account_logout",
    "account_inactive",
    "account_signup",
    "account_email_verification_sent",
    "account_confirm_email",
    "account_request_login_code",  # the way in when the account's sign-in limit holds
    "account_confirm_login_code",
    "account_reset_password",
    "account_reset_password_done",
    "account_reset_password_from_key",
    "account_reset_password_from_key_done",
    "mfa_authenticate",
    "socialaccount_login_cancelled",
    "socialaccount_signup",
    "openid_connect_login",
    "openid_connect_callback",
    "login",  # admin's login: wrapped to redirect to the allauth sign-in
    "calendar_feed",  # /calendar/<token>.ics: calendar apps cannot sign in; the token is the key
}


def walk(resolver=None, prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from walk(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry


def concrete_path(route: str) -> str:
    """A requestable path for a pattern: converters and groups become "1"."""
    route = route.replace("^", "").replace("$", "").replace("\\Z", "")
    route = re.sub(r"\(\?P<[^>]+>[^)]*\)", "1", route)  # regex groups first
    route = re.sub(r"<[^>]+>", "1", route)
    return "/" + route


def is_public(entry) -> bool:
    return getattr(entry.callback, "login_required", True) is False


ROUTES = list(walk())
API = [(concrete_path(r), e) for r, e in ROUTES if r.startswith("api/")]
PAGES = [
    (concrete_path(r), e)
    for r, e in ROUTES
    if not r.startswith(("api/", "admin/")) and not is_public(e)
]


def test_no_page_opts_out_of_sign_in_unless_listed_as_public():
    public = {e.name for r, e in ROUTES if is_public(e) and not r.startswith("api/")}
    assert public <= PUBLIC_PAGES, f"new public routes: {public - PUBLIC_PAGES}"


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted({p for p, _ in PAGES}))
def test_anonymous_visitors_are_sent_to_sign_in(client, path):
    response = client.get(path)
    assert response.status_code == 302, path
    assert response["Location"].startswith("/accounts/login/?next="), path


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted({p for p, _ in API}))
def test_anonymous_api_calls_are_refused_with_401(client, path):
    response = client.get(path)
    assert response.status_code == 401, path
    assert response["WWW-Authenticate"].startswith("Token")


@pytest.mark.django_db
def test_the_admin_sends_anonymous_visitors_to_the_rate_limited_sign_in(client):
    response = client.get("/admin/", follow=True)
    assert response.redirect_chain[-1][0].startswith("/accounts/login/")


def test_the_walk_sees_the_role_homes_and_the_api():
    assert {"/me/", "/team/", "/hr/", "/programme/", "/me/profile/"} <= {p for p, _ in PAGES}
    assert "/api/v1/me/" in {p for p, _ in API}
