"""The main pages, audited with axe-core and measured at a desktop (1280 px) and a phone
(390 px) width: no serious or critical accessibility violation, no sideways scrolling,
no console error (a script or style the content security policy blocks would log one).

On the full demo organisation (what `make run` shows), so the pages carry real amounts
of data: long tables, charts, lists. It is written once; every role signs in once, in
its own context of the one browser; each page is checked at both widths and every
problem is collected, so one run reports them all. Screenshots of every page at both
widths land in var/screenshots/ for people to look at (the tests do not compare them).

A journey checks its own pages the same way, one assertion at a time:

    at_width(page, PHONE)
    assert_accessible(page)
    assert_fits(page)
    screenshot(page, "team")
"""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from cadence.models import CadencePlan
from coaching.models import CoachingSession, ParticipantRole, SessionKind, SessionStatus
from people.models import Team, User
from scorecards.models import ScoringRound
from tests.e2e.a11y import assert_accessible, audit, report
from tests.e2e.conftest import sign_in
from tests.e2e.screens import DESKTOP, PHONE, assert_fits, at_width, overflow, screenshot

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

AISHA = "aisha.bello@example.com"  # rep, Enterprise East: a pair invitation, rounds to score
SOFIA = "sofia.alvarez@example.com"  # her manager
DANIEL = "daniel.mensah@example.com"  # head of sales: manages the managers
HELEN = "helen.park@example.com"  # HR
ADA = "ada.okafor@example.com"  # programme admin


class Walk:
    """One browser context (one person's sign-in) that visits pages and collects
    what is wrong with each, at both widths."""

    def __init__(self, browser: Browser, base_url: str):
        self.context = browser.new_context(base_url=base_url)
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self._errors: list[str] = []
        self.page.on(
            "console", lambda msg: self._errors.append(msg.text) if msg.type == "error" else None
        )
        self.page.on("pageerror", lambda exc: self._errors.append(str(exc)))

    def check(self, name: str, path: str) -> None:
        """Open `path`, audit it and measure it at each width; screenshots are saved as
        var/screenshots/<name>-<width>.png."""
        page = self.page
        at_width(page, DESKTOP)
        response = page.goto(path)
        if response is None or not response.ok:
            self.problems.append(f"{name} ({path}): HTTP {response.status if response else '?'}")
            return
        for width in (DESKTOP, PHONE):
            at_width(page, width)
            where = f"{name} ({path}) at {width}px"
            violations = audit(page)
            if violations:
                self.problems.append(report(violations, where=where))
            sideways = overflow(page)
            if sideways:
                self.problems.append(f"{where} scrolls sideways: " + "\n  ".join(sideways))
            screenshot(page, name)
        if self._errors:
            self.problems.append(f"{name} ({path}) logged console errors: {self._errors}")
            self._errors.clear()


@pytest.fixture
def walk(browser: Browser, live_server):
    """Opens walks (browser contexts) on the live server; closes them afterwards."""
    opened = []

    def open_walk() -> Walk:
        opened.append(Walk(browser, live_server.url))
        return opened[-1]

    yield open_walk
    for w in opened:
        w.context.close()


def latest_held_one_on_one(coachee: str) -> CoachingSession | None:
    return (
        CoachingSession.objects.filter(
            kind=SessionKind.ONE_ON_ONE,
            status=SessionStatus.HELD,
            participants__person__email=coachee,
            participants__role=ParticipantRole.COACHEE,
        )
        .order_by("-scheduled_start")
        .first()
    )


def latest_closed_round(subject: str) -> ScoringRound | None:
    return (
        ScoringRound.objects.filter(work__person__email=subject, closed_at__isnull=False)
        .order_by("-closed_at")
        .first()
    )


def test_the_sign_in_page(page: Page, live_server):
    """The harness one assertion at a time, as a journey would use it."""
    page.goto(f"{live_server.url}/accounts/login/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    for width in (DESKTOP, PHONE):
        at_width(page, width)
        assert_accessible(page)
        assert_fits(page)
        screenshot(page, "sign-in")


def test_the_main_pages_for_every_role(walk, live_server, demo_org):
    call_command("seed_demo", stdout=StringIO())
    session = latest_held_one_on_one(AISHA)
    scoring = latest_closed_round(AISHA)
    assert session is not None and scoring is not None, "the demo writes both"
    marcus = User.objects.get(email="marcus.chen@example.com")
    central = Team.objects.get(name="Mid-Market Central")
    pages_by_person = {
        AISHA: [
            ("my-coaching", "/me/"),
            ("session-coachee", f"/sessions/{session.pk}/"),
            ("feedback", "/feedback/"),
            ("scorecards", "/scorecards/"),
            ("scoring-round", f"/scorecards/rounds/{scoring.pk}/"),
            ("library", "/library/"),
            ("peers", "/peers/"),
            ("notifications", "/me/notifications/"),
        ],
        SOFIA: [
            ("my-team", "/team/"),
            ("session-coach", f"/sessions/{session.pk}/"),
            ("commitments", "/commitments/"),
            ("peoples-calls", "/scorecards/calls/?whose=people"),
            ("feedback-given", "/feedback/given/?stream=evaluative"),
            ("form-a-pair", "/peers/new/"),
        ],
        DANIEL: [
            ("my-team-head", "/team/"),
            ("manager-team", f"/team/managers/{marcus.pk}/"),
            ("skills-below", "/team/skills/"),
        ],
        HELEN: [
            ("cadence-health", "/hr/"),
            ("team-health", f"/hr/teams/{central.pk}/"),
            ("skills-across", "/hr/skills/"),
            ("peers-across", "/hr/peers/"),
            ("feedback-across", "/hr/feedback/"),
            ("install-plans", "/rollout/"),
            ("install-plans-not-started", "/rollout/?show=not_started"),
        ],
        ADA: [
            ("programme", "/programme/"),
            ("focus-areas", "/programme/focus-areas/"),
            ("focus-area-new", "/programme/focus-areas/new/"),
            ("team-cadence", "/programme/cadence/"),
            ("policy-new", "/programme/cadence/policies/new/"),
            ("team-channels", "/programme/channels/"),
            ("delivery", "/programme/delivery/"),
            ("audit-log", "/programme/audit/"),
            ("plans", "/programme/plans/"),
            ("closed-days", "/programme/closed-days/"),
            ("plan", f"/programme/plans/{CadencePlan.objects.filter(team=central).first().pk}/"),
            ("teams", "/programme/teams/"),
            ("team", f"/programme/teams/{central.pk}/"),
            ("people", "/programme/people/"),
            ("people-everyone", "/programme/people/?show=all&page=2"),
            ("person", f"/programme/people/{User.objects.get(email=SOFIA).pk}/"),
            ("person-me", f"/programme/people/{User.objects.get(email=ADA).pk}/"),
            ("question-bank", "/programme/questions/"),
            ("peers-overview", "/peers/overview/"),
            ("cadence-health-26-weeks", "/hr/?weeks=26"),
        ],
    }
    problems: list[str] = []
    for email, pages in pages_by_person.items():
        w = walk()
        sign_in(w.page, live_server, email, demo_org.password)
        for name, path in pages:
            w.check(name, path)
        problems += w.problems
    assert not problems, "\n\n".join(problems)
