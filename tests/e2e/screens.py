"""Screen widths in browser tests: a desktop and a phone, whether a page fits the width
without scrolling sideways, and full-page screenshots for people to look at.

    at_width(page, PHONE)
    assert_fits(page)          # fails naming the widest elements that stick out
    screenshot(page, "team")   # var/screenshots/team-390.png

Tests assert behaviour (fits, accessible); the PNGs are only for humans."""

import os
from pathlib import Path

from playwright.sync_api import Page

from .a11y import assert_accessible

DESKTOP = 1280
PHONE = 390
HEIGHTS = {DESKTOP: 800, PHONE: 844}  # a laptop; an iPhone 12-15's CSS pixels

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"  # git-ignored
SHOWN = 5

# The document's width against the viewport's, and the widest elements whose right
# edge passes the viewport. An element inside a box that clips or scrolls sideways
# (e.g. a table in `.table-scroll`) does not make the page scroll, so it is left out,
# as are elements inside one already listed; but an absolutely positioned element
# escapes every box between it and its containing block (the nearest positioned
# ancestor), so a visually hidden label in a scrolling table can still widen the page.
_OVERFLOW_JS = """() => {
    const limit = window.innerWidth + 1;
    const clips = (el) => {
        let position = getComputedStyle(el).position;
        if (position === "fixed") return true;  // never scrolls the document
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
            const style = getComputedStyle(a);
            const contains = position !== "absolute" || style.position !== "static"
                || style.transform !== "none";
            if (!contains) continue;
            if (style.overflowX !== "visible") return true;
            if (style.position === "fixed") return true;
            position = style.position;
        }
        return false;
    };
    const describe = (el) => {
        let s = el.tagName.toLowerCase();
        if (el.id) s += "#" + el.id;
        for (const c of el.classList) s += "." + c;
        const text = (el.innerText || el.value || "").trim().replace(/\\s+/g, " ");
        return text ? `${s} "${text.slice(0, 50)}"` : s;
    };
    const out = [];
    for (const el of document.body.querySelectorAll("*")) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= limit) continue;
        if (out.some((o) => o.el.contains(el)) || clips(el)) continue;
        out.push({el, width: Math.round(r.width), right: Math.round(r.right + window.scrollX)});
    }
    out.sort((a, b) => b.width - a.width || b.right - a.right);
    return {
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        offenders: out.map(
            (o) => `${describe(o.el)}: ${o.width}px wide, right edge at ${o.right}px`
        ),
    };
}"""


def at_width(page: Page, width: int) -> None:
    """Size the viewport as a desktop (1280×800) or a phone (390×844); any other width
    gets 800 px of height."""
    page.set_viewport_size({"width": width, "height": HEIGHTS.get(width, 800)})


def overflow(page: Page) -> list[str]:
    """Why the page scrolls sideways at the current width (empty when it fits): the
    widest elements sticking out past the viewport's right edge."""
    found = page.evaluate(_OVERFLOW_JS)
    if found["scrollWidth"] <= found["innerWidth"] + 1:
        return []
    head = f"the page is {found['scrollWidth']}px wide in a {found['innerWidth']}px viewport"
    return [head, *found["offenders"][:SHOWN]]


def assert_fits(page: Page) -> None:
    """Fail when the page scrolls sideways at the current width, naming the widest
    elements that stick out."""
    problems = overflow(page)
    assert not problems, f"{page.url} does not fit: " + "\n  ".join(problems)


def screenshot(page: Page, name: str) -> Path | None:
    """Save a full-page PNG as var/screenshots/<name>-<width>.png and return its path;
    nothing with E2E_SCREENSHOTS=0 (CI: nobody looks at them there, and they cost a
    second or two a page)."""
    if os.environ.get("E2E_SCREENSHOTS", "1") == "0":
        return None
    width = page.viewport_size["width"] if page.viewport_size else "default"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def check_both_widths(page: Page, name: str) -> None:
    """A journey's page at a desktop's width and a phone's: accessible, fitting, and
    photographed (`var/screenshots/<name>-<width>.png`); back at the desktop's after."""
    for width in (DESKTOP, PHONE):
        at_width(page, width)
        assert_accessible(page)
        assert_fits(page)
        screenshot(page, name)
    at_width(page, DESKTOP)
