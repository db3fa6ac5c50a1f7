"""With the keyboard alone, past what axe-core reads from a page: a part of the page
saved in place by htmx keeps focus where the person works (the control they used, or
the first field refused) and says what it did through a live region that stays."""

import re

import pytest
from playwright.sync_api import Page, expect

from people.models import User
from tests.e2e.conftest import sign_in
from tests.support.factories import one_on_one

# Marked `e2e` by tests/e2e/conftest.py. The live server thread must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

# The live regions (by id, else tag) whose text holds the words given.
LIVE_REGIONS_SAYING = """(words) => [...document.querySelectorAll(
  '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]'
)].filter((e) => e.textContent.includes(words)).map((e) => e.id || e.tagName)"""
CLEAR_ANNOUNCER = "() => { document.getElementById('announcer').textContent = ''; }"
SUBMIT_UNFOCUSED = """(form) => {
  document.activeElement.blur();
  document.querySelector(form).requestSubmit();
}"""


def test_saving_on_the_session_page_keeps_the_keyboard_in_place(page: Page, live_server, demo_org):
    manager = User.objects.get(email=demo_org.manager)
    session = one_on_one(manager, User.objects.get(email=demo_org.rep))
    sign_in(page, live_server, demo_org.manager, demo_org.password)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")

    page.locator("#notes_reality").fill("Sent a recap after two calls.")
    save = page.get_by_role("button", name="Save notes")
    save.focus()
    page.keyboard.press("Enter")
    saved = re.compile(r"^Saved \d\d:\d\d$")
    expect(page.locator("#announcer")).to_have_text(saved)
    expect(save).to_be_focused()  # saved in place: nothing swapped, focus stays
    # Said once: the words beside the button are seen but are no live region.
    expect(page.locator("#notes [data-autosave-status]")).to_have_text(saved)
    assert page.evaluate(LIVE_REGIONS_SAYING, "Saved ") == ["announcer"]

    # Sent with no control focused (a click in Safari focuses no button): still said.
    page.evaluate(CLEAR_ANNOUNCER)
    page.locator("#private textarea").fill("Ask how the CFO took it.")
    page.evaluate(SUBMIT_UNFOCUSED, "#private form")
    expect(page.locator("#announcer")).to_have_text(saved)
    assert page.evaluate(LIVE_REGIONS_SAYING, "Saved ") == ["announcer"]

    # Nothing filled in: focus on the first field refused, which names its error.
    page.get_by_role("button", name="Add commitment").focus()
    page.keyboard.press("Enter")
    what = page.locator("#commitment_text")
    expect(what).to_be_focused()
    expect(what).to_have_accessible_description("This field is required.")

    # A link that opens a form in its place (the guided diagnosis): focus moves into
    # it, to the first answer, and from each answer to the next question's.
    rep = User.objects.get(email=demo_org.rep)
    page.goto(f"{live_server.url}/people/{rep.pk}/")
    page.get_by_role("link", name="Diagnose before you coach").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("group", name="Question 2")).to_be_visible()
    expect(page.get_by_role("button", name="Yes")).to_be_focused()

    # A whole page back with errors (no htmx): focus on the first field refused.
    page.goto(f"{live_server.url}/feedback/requests/new/")
    page.get_by_role("button", name="Ask for feedback").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator(":focus")).to_have_attribute("aria-invalid", "true")


# The contrast (WCAG) of the focused element's outline with what is painted next to
# it, the lowest of: just outside the ring on each side, and inside it (the gap of
# outline-offset, or the element itself without one). What is painted is found by
# hit-testing, not by walking up the ancestors: the skip link is placed over the dark
# header but is a child of the light page.
OUTLINE_CONTRAST = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b]
    .map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [x, y] = [lum(rgb(a)), lum(rgb(b))];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  const clear = (e) => (rgb(getComputedStyle(e).backgroundColor)[3] ?? 1) === 0;
  const focused = document.activeElement;
  const style = getComputedStyle(focused);
  const ring = style.outlineColor;
  const offset = parseFloat(style.outlineOffset) || 0;
  const outside = offset + parseFloat(style.outlineWidth) + 1;
  // The first background painted at (x, y), the focused element left out.
  const groundAt = (x, y) => {
    const under = document.elementsFromPoint(x, y).find(
      (e) => !focused.contains(e) && !clear(e),
    );
    return under ? getComputedStyle(under).backgroundColor : "rgb(255, 255, 255)";
  };
  const r = focused.getBoundingClientRect();
  const [midX, midY] = [r.left + r.width / 2, r.top + r.height / 2];
  const points = [
    [r.left - outside, midY], [r.right + outside, midY],
    [midX, r.top - outside], [midX, r.bottom + outside],
  ];
  const inView = ([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
  const grounds = points.filter(inView).map(([x, y]) => groundAt(x, y));
  if (offset >= 1) {
    grounds.push(...points.map(([x, y]) => [
      x + Math.sign(midX - x) * (outside - offset / 2),
      y + Math.sign(midY - y) * (outside - offset / 2),
    ]).filter(inView).map(([x, y]) => groundAt(x, y)));
  } else if (!clear(focused)) {
    grounds.push(style.backgroundColor);
  }
  return Math.min(...grounds.map((ground) => ratio(ring, ground)));
}"""


def test_the_focus_outline_stands_out_on_light_and_dark_ground(page: Page, live_server):
    """At least 3:1 (WCAG 1.4.11), on a white panel, in the dark page header, and
    around the skip link, which shows over the header, at both widths."""
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"{live_server.url}/accounts/login/")
        page.keyboard.press("Tab")
        expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
        assert page.evaluate(OUTLINE_CONTRAST) >= 3, f"the skip link at {width} px"
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Tandem")).to_be_focused()
    assert page.evaluate(OUTLINE_CONTRAST) >= 3
    page.get_by_label("Email").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focused from the keyboard, so :focus-visible
    assert page.evaluate(OUTLINE_CONTRAST) >= 3
