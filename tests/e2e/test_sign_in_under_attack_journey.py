"""A rep's account is guessed at from many addresses until its sign-in limit holds: the
sign-in page says so and how to get in, the emailed code signs the rep in, and from
then on this browser is the rep's own, which nobody else's failures hold."""

import re

import pytest
from django.core import mail
from django.test import Client
from playwright.sync_api import Page, expect

from tests.e2e.conftest import sign_in
from tests.e2e.screens import check_both_widths

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

FOR_ACCOUNT = "Too many failed sign-in attempts for this email address."


def guessed_from_many_addresses(email: str, times: int = 20) -> None:
    """Wrong passwords, 5 from each address (the limit per account from one address)."""
    for n in range(times):
        Client(REMOTE_ADDR=f"203.0.113.{n // 5 + 1}").post(
            "/accounts/login/", {"login": email, "password": "a wrong guess"}
        )


def test_the_person_gets_in_by_emailed_code_and_their_browser_is_not_held(
    page: Page, live_server, demo_org
):
    rep = demo_org.rep
    guessed_from_many_addresses(rep)

    sign_in(page, live_server, rep, demo_org.password)

    expect(page.get_by_text(FOR_ACCOUNT)).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_have_count(0)
    check_both_widths(page, "sign-in-held")

    page.get_by_role("link", name="Email me a sign-in code").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Email me a sign-in code")
    check_both_widths(page, "sign-in-code-request")
    page.get_by_label("Email").fill(rep)
    with page.expect_navigation():
        page.get_by_role("button", name="Email me a code").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Enter your sign-in code")
    check_both_widths(page, "sign-in-code-confirm")
    [message] = [m for m in mail.outbox if m.to == [rep]]
    code = re.search(r"\b[A-Z]{4}-[A-Z]{4}\b", message.body).group(0)
    page.get_by_label("Code").fill(code)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()

    expect(page).to_have_url(f"{live_server.url}/me/")
    expect(page.get_by_role("heading", level=1)).to_have_text("My coaching")

    # Signed out, this browser signs in with the password although the limit still holds.
    with page.expect_navigation():
        page.get_by_role("navigation", name="Account").get_by_role(
            "button", name="Sign out"
        ).click()
    guessed_from_many_addresses(rep, times=5)
    sign_in(page, live_server, rep, demo_org.password)
    expect(page).to_have_url(f"{live_server.url}/me/")
