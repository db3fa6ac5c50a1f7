"""Browser tests: Playwright drives Debian's Chromium against pytest-django's live server.

Run them with `pytest tests/e2e` (or `-m e2e`; `-m "not e2e"` leaves them out). Every
test here is marked `e2e` by the hook below. Tests touch the ORM and the live server
thread must see their rows, so test modules use `django_db(transaction=True)`."""

from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from devdata.demo.people import (
    ADMIN,
    DEMO_PASSWORD,
    HEAD,
    HR,
    REPS,
    TEAMS,
    demo_email,
    demo_people,
    seed_people,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # Without these chromium keeps calling home, which the closed network refuses.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    """Mark every test under tests/e2e as `e2e` (hooks see the whole session's items,
    so this filters by path)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """One headless Debian Chromium for the session (never `playwright install`).
    Keeps pytest-playwright's own options, e.g. `--slowmo`; `--headed` still works
    where there is a display."""
    return {
        "headless": True,
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
    }


@dataclass(frozen=True)
class DemoOrg:
    """Sign-in emails of the demo organisation, one person per role."""

    password: str
    head: str  # head of sales: manages the managers
    manager: str  # a first-line manager (Enterprise East)
    hr: str
    admin: str  # programme admin
    rep: str  # a rep in the manager's team


@pytest.fixture
def demo_org(transactional_db) -> DemoOrg:
    """The demo organisation, built by the same command a demo install runs."""
    # The people only: journeys build the sessions they need (the coaching history
    # of the full demo takes seconds to write, and no journey depends on it).
    seed_people()
    manager = TEAMS["Enterprise East"]
    first_rep_name = REPS["Enterprise East"][0][0]
    rep = next(p for p in demo_people() if p.manager == manager.key and p.name == first_rep_name)
    return DemoOrg(
        password=DEMO_PASSWORD,
        head=demo_email(HEAD.key),
        manager=demo_email(manager.key),
        hr=demo_email(HR.key),
        admin=demo_email(ADMIN.key),
        rep=demo_email(rep.key),
    )


def sign_in(page: Page, live_server, email: str, password: str, *, go: bool = True) -> None:
    """Sign in through the real form. With `go=False` the sign-in page must already be
    open (e.g. after being redirected there with `?next=`)."""
    if go:
        page.goto(f"{live_server.url}/accounts/login/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()
