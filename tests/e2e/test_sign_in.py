"""Signing in and out through the real sign-in page, as each demo role."""

from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import sign_in

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

WRONG_CREDENTIALS = "The email address and/or password you specified are not correct."
NAV_LINKS = ("My coaching", "My team", "Cadence health", "Programme")


def main_nav(page: Page):
    return page.get_by_role("navigation", name="Main")


def expect_sign_in_page(page: Page, live_server, next_path: str | None = None) -> None:
    url = f"{live_server.url}/accounts/login/"
    if next_path is not None:
        url += f"?next={quote(next_path, safe='/')}"
    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")


@pytest.mark.parametrize(
    ("role", "path", "heading", "links"),
    [
        pytest.param("head", "/team/", "My team", {"My coaching", "My team"}, id="head-of-sales"),
        pytest.param("manager", "/team/", "My team", {"My coaching", "My team"}, id="manager"),
        pytest.param("hr", "/hr/", "Cadence health", {"My coaching", "Cadence health"}, id="hr"),
        pytest.param(
            "admin", "/programme/", "Programme", {"My coaching", "Programme"}, id="programme-admin"
        ),
        pytest.param("rep", "/me/", "My coaching", {"My coaching"}, id="rep"),
    ],
)
def test_each_role_lands_on_its_home(page: Page, live_server, demo_org, role, path, heading, links):
    sign_in(page, live_server, getattr(demo_org, role), demo_org.password)

    expect(page).to_have_url(f"{live_server.url}{path}")
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    nav = main_nav(page)
    for name in NAV_LINKS:
        link = nav.get_by_role("link", name=name, exact=True)
        expect(link).to_have_count(1 if name in links else 0)
    expect(nav.get_by_role("link", name=heading, exact=True)).to_have_attribute(
        "aria-current", "page"
    )
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def test_wrong_password_shows_an_error_and_does_not_sign_in(page: Page, live_server, demo_org):
    sign_in(page, live_server, demo_org.rep, "not-the-password")

    expect_sign_in_page(page, live_server)
    expect(page.get_by_text(WRONG_CREDENTIALS)).to_be_visible()
    expect(page.get_by_label("Email")).to_have_value(demo_org.rep)
    expect(page.get_by_role("navigation", name="Main")).to_have_count(0)

    page.goto(f"{live_server.url}/me/")
    expect_sign_in_page(page, live_server, next_path="/me/")


def test_anonymous_visit_returns_to_the_page_after_sign_in(page: Page, live_server, demo_org):
    page.goto(f"{live_server.url}/team/")
    expect_sign_in_page(page, live_server, next_path="/team/")

    sign_in(page, live_server, demo_org.manager, demo_org.password, go=False)

    expect(page).to_have_url(f"{live_server.url}/team/")
    expect(page.get_by_role("heading", level=1)).to_have_text("My team")


def test_sign_out_returns_to_the_sign_in_page(page: Page, live_server, demo_org):
    sign_in(page, live_server, demo_org.rep, demo_org.password)
    expect(page.get_by_role("heading", level=1)).to_have_text("My coaching")

    with page.expect_navigation():
        page.get_by_role("navigation", name="Account").get_by_role(
            "button", name="Sign out"
        ).click()

    expect_sign_in_page(page, live_server)
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)

    page.goto(f"{live_server.url}/me/")
    expect_sign_in_page(page, live_server, next_path="/me/")
