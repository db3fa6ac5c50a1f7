"""Undo Done, in the browser, on the demo organisation's people.

Last week Sofia and Aisha agreed two commitments. In this week's 1:1 Sofia marks one
done: it stays in its place with an Undo, and the agenda's count beside it says one is
carried forward now, not two. She undoes it (the count says two again), then marks
it done again and lets the minute pass: the Undo goes. On the commitments page she
marks the other done from her people's list: the page says so at the top, with an
Undo, and the count of open ones drops; Undo brings it back. Both pages fit a
desktop and a phone."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from coaching.models import Commitment
from coaching.services import commitment_create
from people.models import User
from tests.e2e.conftest import sign_in
from tests.e2e.journeys import AISHA, SOFIA, upcoming_one_on_one
from tests.e2e.screens import check_both_widths
from tests.support.factories import one_on_one

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

BUDGET = "Ask for the budget before the demo"
RECAP = "Send the recap the same day"


def test_done_can_be_undone_for_a_minute_and_the_counts_follow(page: Page, live_server, demo_org):
    sofia = User.objects.get(email=SOFIA)
    aisha = User.objects.get(email=AISHA)
    last = one_on_one(sofia, aisha, start=timezone.now() - dt.timedelta(days=7))
    for text in (BUDGET, RECAP):
        commitment_create(
            session=last,
            actor=sofia,
            text=text,
            evidence="A recorded call shows it",
            due_on=timezone.localdate() + dt.timedelta(days=3),
        )
    Commitment.objects.exclude(owner=aisha).delete()  # the demo's own, for a fixed count
    session = upcoming_one_on_one(sofia, aisha)

    page.clock.install()
    sign_in(page, live_server, SOFIA, demo_org.password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    agenda = page.get_by_role("region", name="Agenda")
    commitments = page.get_by_role("region", name="Commitments")
    expect(agenda).to_contain_text("2 open commitments carried forward")

    budget = commitments.get_by_role("listitem").filter(has_text=BUDGET)
    budget.get_by_role("button", name="Done").click()
    expect(commitments).to_contain_text(f"Marked done: {BUDGET}. Undo is offered for a minute.")
    expect(agenda).to_contain_text("1 open commitment carried forward")
    undo = commitments.get_by_role("button", name=f"Undo done: {BUDGET}")
    expect(undo).to_be_visible()
    check_both_widths(page, "commitment-undo-session")

    undo.click()
    expect(commitments).to_contain_text(f"Open again: {BUDGET}.")
    expect(agenda).to_contain_text("2 open commitments carried forward")

    # Done again, and the minute passes: the Undo hides itself.
    budget.get_by_role("button", name="Done").click()
    expect(agenda).to_contain_text("1 open commitment carried forward")
    expect(commitments.get_by_role("button", name=f"Undo done: {BUDGET}")).to_be_visible()
    page.clock.run_for(61_000)
    expect(commitments.get_by_role("button", name=f"Undo done: {BUDGET}")).to_have_count(0)
    expect(budget).to_contain_text("done")

    # The commitments page: the other one, from my people's list.
    page.goto(f"{live_server.url}/commitments/")
    team = page.get_by_role("region", name="My people's open commitments")
    expect(team).to_contain_text("1 open, soonest due first")
    team.get_by_role("row").filter(has_text=RECAP).get_by_role("button", name="Done").click()
    notice = page.get_by_role("status").filter(has_text="Marked done")
    expect(notice).to_contain_text(f"Marked done: {RECAP} (Aisha Bello).")
    expect(team).not_to_contain_text("1 open, soonest due first")
    check_both_widths(page, "commitment-undo-list")

    notice.get_by_role("button", name=f"Undo done: {RECAP}").click()
    expect(page.get_by_text(f"Open again: {RECAP}")).to_be_visible()
    expect(team).to_contain_text("1 open, soonest due first")
