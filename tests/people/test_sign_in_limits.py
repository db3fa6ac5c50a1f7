"""Failed sign-ins are limited without handing an attacker a way to lock someone out
(people/sign_in_limits.py): per account from one address, per account from everywhere
(with an emailed code as the way in), and a browser that signed in before counted on
its own."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from allauth.core import context
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import (
    format_hotp_value,
    hotp_value,
    yield_hotp_counters_from_time,
)
from allauth.socialaccount.adapter import get_adapter
from allauth.socialaccount.helpers import complete_social_login
from allauth.socialaccount.models import SocialAccount, SocialLogin
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.core import mail
from django.test import Client

from people import sign_in_limits
from people.models import User

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
ATTACKER = "203.0.113.66"
PERSON = "198.51.100.20"
FROM_HERE = "Too many failed sign-in attempts from here."
FOR_ACCOUNT = "Too many failed sign-in attempts for this email address."
CODE_LINK = "Email me a sign-in code"
TOTP_SECRET = "JBSWY3DPEHPK3PXP"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def browser(ip):
    return Client(REMOTE_ADDR=ip)


def sign_in(client, email, password):
    return client.post("/accounts/login/", {"login": email, "password": password})


def signed_in(client):
    return client.get("/api/v1/me/").status_code == 200


def text(response):
    return response.content.decode()


def guess(email, times, ip=ATTACKER):
    attacker = browser(ip)
    return [sign_in(attacker, email, "a wrong guess") for _ in range(times)]


def spread_guesses(email, times):
    """`times` wrong passwords from as many addresses as it takes (5 each)."""
    for n in range(times):
        sign_in(browser(f"203.0.113.{n // 5 + 1}"), email, "a wrong guess")


CODE = re.compile(r"\b[A-Z]{4}-[A-Z]{4}\b")  # allauth's: 8 of 20 letters


def emailed_code():
    return CODE.search(mail.outbox[-1].body).group(0)


def test_an_attacker_elsewhere_does_not_lock_the_person_out(org, password):
    *_, last = guess("rep@example.com", 8)
    assert FROM_HERE in text(last)

    person = browser(PERSON)
    response = sign_in(person, "rep@example.com", password)

    assert response.status_code == 302
    assert signed_in(person)


def test_the_same_address_is_held_for_that_account_even_with_the_right_password(
    org, password, clock
):
    guess("rep@example.com", 5)
    attacker = browser(ATTACKER)

    response = sign_in(attacker, "rep@example.com", password)

    assert response.status_code == 400
    assert FROM_HERE in text(response) and CODE_LINK in text(response)
    assert not signed_in(attacker)
    # another account from the same address is not held by it
    assert sign_in(attacker, "peer@example.com", password).status_code == 302

    clock.shift(timedelta(minutes=5, seconds=1))
    assert sign_in(browser(ATTACKER), "rep@example.com", password).status_code == 302


def test_a_guess_spread_over_many_addresses_is_capped_and_the_emailed_code_gets_in(
    org, password, clock
):
    spread_guesses("rep@example.com", 20)
    person = browser(PERSON)

    refused = sign_in(person, "rep@example.com", password)

    assert refused.status_code == 400
    assert FOR_ACCOUNT in text(refused) and CODE_LINK in text(refused)
    assert not signed_in(person)

    asked = person.post("/accounts/login/code/", {"email": "rep@example.com"})
    assert asked.status_code == 302 and asked["Location"] == "/accounts/login/code/confirm/"
    assert mail.outbox[-1].to == ["rep@example.com"]
    confirmed = person.post("/accounts/login/code/confirm/", {"code": emailed_code()})
    assert confirmed.status_code == 302
    assert signed_in(person)

    # the limit is an hour long: then the password works again from a new browser
    clock.shift(timedelta(minutes=59))
    assert sign_in(browser("192.0.2.9"), "rep@example.com", password).status_code == 400
    clock.shift(timedelta(minutes=1, seconds=1))
    assert sign_in(browser("192.0.2.9"), "rep@example.com", password).status_code == 302


def test_the_code_link_keeps_where_the_person_was_going(org):
    page = browser(PERSON).get("/accounts/login/?next=/team/")

    assert 'href="/accounts/login/code/?next=/team/"' in text(page)


def test_another_host_name_is_no_fresh_count(org, password):
    for n in range(20):
        Client(REMOTE_ADDR=f"203.0.113.{n // 5 + 1}", HTTP_HOST="localhost").post(
            "/accounts/login/", {"login": "rep@example.com", "password": "a wrong guess"}
        )

    response = sign_in(browser(PERSON), "rep@example.com", password)

    assert FOR_ACCOUNT in text(response)


def test_a_browser_that_signed_in_before_is_held_by_nobody_elses_failures(org, password):
    """The colleague on the same office network, and a spread guess, both at once."""
    person = browser(PERSON)
    assert sign_in(person, "rep@example.com", password).status_code == 302
    person.post("/accounts/logout/")
    spread_guesses("rep@example.com", 20)
    guess("rep@example.com", 5, ip=PERSON)

    response = sign_in(person, "rep@example.com", password)

    assert response.status_code == 302
    assert signed_in(person)


def test_a_known_browser_still_has_its_own_limit(org, password):
    person = browser(PERSON)
    sign_in(person, "rep@example.com", password)
    person.post("/accounts/logout/")
    for _ in range(5):
        sign_in(person, "rep@example.com", "a wrong guess")

    response = sign_in(person, "rep@example.com", password)

    assert response.status_code == 400
    assert FROM_HERE in text(response)
    # …and its failures are not the account's: another browser elsewhere gets in
    assert sign_in(browser("192.0.2.9"), "rep@example.com", password).status_code == 302


def test_a_browser_known_to_another_account_or_a_forged_cookie_is_not_exempt(org, password):
    other = browser(PERSON)
    sign_in(other, "peer@example.com", password)
    other.post("/accounts/logout/")
    forged = browser(PERSON)
    forged.cookies[sign_in_limits.KNOWN_DEVICE_COOKIE] = "device:not-signed"
    spread_guesses("rep@example.com", 20)

    for client in (other, forged):
        response = sign_in(client, "rep@example.com", password)
        assert response.status_code == 400
        assert FOR_ACCOUNT in text(response)


def test_the_known_browser_cookie_names_nobody(org, password):
    person = browser(PERSON)
    sign_in(person, "rep@example.com", password)
    cookie = person.cookies[sign_in_limits.KNOWN_DEVICE_COOKIE]
    assert "rep" not in cookie.value and cookie["httponly"]


def unknown_and_known(response_for):
    """Each answer for an email address without an account, and for one with."""
    pages = []
    for email in ("nobody@example.com", "rep@example.com"):
        response = response_for(email)
        pages.append(
            (response.status_code, response.get("Location"), text(response).replace(email, "@"))
        )
    return pages


def without_tokens(page):
    status, location, body = page
    body = re.sub(r'value="[^"]{20,}"|"X-CSRFToken": "[^"]+"', "", body)
    return status, location, body


def test_nothing_says_whether_an_account_exists(org, clock):
    for times in (1, 5, 6):
        clock.shift(timedelta(hours=2))
        unknown, known = unknown_and_known(lambda email, times=times: guess(email, times)[-1])
        assert without_tokens(unknown) == without_tokens(known)
    clock.shift(timedelta(hours=2))
    unknown, known = unknown_and_known(
        lambda email: (spread_guesses(email, 20), guess(email, 1, ip="192.0.2.9")[-1])[1]
    )
    assert FOR_ACCOUNT in known[2]
    assert without_tokens(unknown) == without_tokens(known)


def test_asking_for_a_code_says_the_same_for_an_unknown_address(org):
    def ask(email):
        client = browser(PERSON)
        client.post("/accounts/login/code/", {"email": email})
        return client.get("/accounts/login/code/confirm/")

    unknown, known = unknown_and_known(ask)

    assert known[0] == 200
    assert without_tokens(unknown) == without_tokens(known)
    sent = {message.to[0]: message.body for message in mail.outbox}
    assert CODE.search(sent["rep@example.com"])
    assert not CODE.search(sent.get("nobody@example.com", ""))


def test_a_deactivated_person_gets_no_code(org):
    org.rep.is_active = False
    org.rep.save()
    person = browser(PERSON)
    person.post("/accounts/login/code/", {"email": "rep@example.com"})

    assert not any(CODE.search(message.body) for message in mail.outbox)
    person.post("/accounts/login/code/confirm/", {"code": "BCDF-GHJK"})
    assert not signed_in(person)


def current_totp():
    return format_hotp_value(hotp_value(TOTP_SECRET, next(yield_hotp_counters_from_time())))


def test_the_emailed_code_still_asks_for_the_second_factor(org):
    Authenticator.objects.create(
        user=org.rep, type=Authenticator.Type.TOTP, data={"secret": TOTP_SECRET}
    )
    person = browser(PERSON)
    person.post("/accounts/login/code/", {"email": "rep@example.com"})

    confirmed = person.post("/accounts/login/code/confirm/", {"code": emailed_code()})

    assert confirmed["Location"] == "/accounts/2fa/authenticate/"
    assert not signed_in(person)
    assert person.post("/accounts/2fa/authenticate/", {"code": current_totp()}).status_code == 302
    assert signed_in(person)


def test_setting_the_password_from_the_emailed_link_lifts_the_accounts_limit(org):
    spread_guesses("rep@example.com", 20)
    person = browser(PERSON)
    person.post("/accounts/password/reset/", {"email": "rep@example.com"})
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mail.outbox[-1].body)
    form = person.get(link.group(1), follow=True)
    new = "a brand new passphrase 42"
    done = person.post(form.redirect_chain[-1][0], {"password1": new, "password2": new})
    assert done.status_code == 302

    assert sign_in(browser("192.0.2.9"), "rep@example.com", new).status_code == 302


def test_confirming_the_password_while_signed_in_offers_no_code(org, password):
    person = browser(PERSON)
    person.force_login(org.rep)
    for _ in range(5):
        person.post("/accounts/reauthenticate/", {"password": "a wrong guess"})

    response = person.post("/accounts/reauthenticate/", {"password": password})

    assert "Too many failed login attempts" in text(response)
    assert CODE_LINK not in text(response)


SSO_APP = {
    "provider_id": "sso",
    "name": "Single sign-on",
    "client_id": "tandem",
    "secret": "not-a-secret",
    "settings": {"server_url": "https://id.example.com"},
}


def test_single_sign_on_is_not_held_and_makes_the_browser_known(org, rf, settings):
    """The identity provider limits its own sign-ins; ours do not stand in its way."""
    settings.SOCIALACCOUNT_PROVIDERS = {
        "openid_connect": {"APPS": [SSO_APP], "EMAIL_AUTHENTICATION": True, "VERIFIED_EMAIL": True}
    }
    spread_guesses("rep@example.com", 20)
    request = rf.get("/accounts/oidc/sso/login/callback/", REMOTE_ADDR=PERSON)
    SessionMiddleware(lambda r: None).process_request(request)
    MessageMiddleware(lambda r: None).process_request(request)
    request.user = AnonymousUser()
    sociallogin = SocialLogin(
        user=User(email="rep@example.com"),
        account=SocialAccount(provider="sso", uid="rita", extra_data={}),
        email_addresses=[EmailAddress(email="rep@example.com", verified=True, primary=True)],
    )

    with context.request_context(request):
        sociallogin.provider = get_adapter().get_provider(request, "sso")
        response = complete_social_login(request, sociallogin)

    assert response.status_code == 302
    assert request.user == org.rep
    assert sign_in_limits.KNOWN_DEVICE_COOKIE in response.cookies
