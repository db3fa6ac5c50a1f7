"""Accessibility audits in browser tests, with axe-core vendored under tests/e2e/vendor
(never served by the app).

    from tests.e2e.a11y import assert_accessible
    assert_accessible(page)  # fails listing every serious or critical violation

The rules are axe's WCAG 2.0 and 2.1 A and AA rules plus its best practices; only
violations axe rates serious or critical fail a test (moderate and minor ones, such as
a skipped heading level, are worth fixing but are judgement calls). An id used twice
on a page fails too."""

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
AXE_JS = Path(__file__).parent / "vendor" / f"axe-core-{AXE_VERSION}" / "axe.min.js"

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
FAILING_IMPACTS = ("serious", "critical")
SHOWN_NODES = 3  # per rule in a report


def _inject(page: Page) -> None:
    """Put axe into the page unless it is already there (a page keeps it until the
    next navigation).

    The page runs under the app's content security policy (`script-src 'self'`).
    `page.add_script_tag(path=...)` inlines the file in a <script> element, which that
    policy blocks, so the source is evaluated through the DevTools protocol instead
    (`page.evaluate`), which the policy does not govern. This keeps the policy on while
    auditing: with `bypass_csp=True` a page would also apply inline styles and scripts
    that real browsers refuse, and axe would judge a page nobody sees."""
    if page.evaluate("() => typeof window.axe === 'object'"):
        return
    page.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;undefined")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        raise RuntimeError(f"axe-core did not load from {AXE_JS}")


def audit(
    page: Page, *, context: Any = None, impacts: tuple[str, ...] = FAILING_IMPACTS
) -> list[dict]:
    """Run axe on the page as it is now and return its violations of the given impacts
    (serious and critical by default), as axe reports them: `id`, `impact`, `help`,
    `helpUrl`, `nodes` (each with `target` selectors, `html` and `failureSummary`).

    `context` is axe's: a selector, or `{"include": [...], "exclude": [...]}`; the whole
    document when None."""
    _inject(page)
    results = page.evaluate(
        """async ([context, tags]) => {
            const options = {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]};
            return await window.axe.run(context ?? document, options);
        }""",
        [context, TAGS],
    )
    return [v for v in results["violations"] if v.get("impact") in impacts]


def report(violations: list[dict], *, where: str = "") -> str:
    """A readable account of axe violations: rule, impact, what it asks, and the first
    few offending elements with their HTML."""
    lines = [f"{len(violations)} accessibility violation(s){f' on {where}' if where else ''}:"]
    for v in violations:
        nodes = v.get("nodes", [])
        lines.append(f"- {v['id']} ({v.get('impact')}): {v['help']} [{len(nodes)} element(s)]")
        lines.append(f"  {v.get('helpUrl', '')}")
        for node in nodes[:SHOWN_NODES]:
            target = " ".join(str(t) for t in node.get("target", []))
            html = " ".join(node.get("html", "").split())
            if len(html) > 160:
                html = html[:157] + "..."
            lines.append(f"    {target}")
            lines.append(f"      {html}")
            summary = node.get("failureSummary") or ""
            detail = " ".join(summary.split("\n")[1:2]).strip()
            if detail:
                lines.append(f"      -> {detail}")
        if len(nodes) > SHOWN_NODES:
            lines.append(f"    … and {len(nodes) - SHOWN_NODES} more")
    return "\n".join(lines)


# axe rates a repeated id "needs review", not a violation; but a label, an
# aria-labelledby or a link to `#id` then finds the first element of that id, and the
# one it was meant for goes unnamed. So it is looked for here, on the whole page.
DUPLICATE_IDS_JS = """() => {
    const seen = {};
    for (const el of document.querySelectorAll("[id]")) seen[el.id] = (seen[el.id] || 0) + 1;
    return Object.keys(seen).filter((id) => seen[id] > 1).sort();
}"""


def assert_accessible(page: Page, *, context: Any = None) -> None:
    """Fail with a readable report when axe finds serious or critical violations, or
    when an id is on the page twice."""
    violations = audit(page, context=context)
    assert not violations, report(violations, where=page.url)
    repeated = page.evaluate(DUPLICATE_IDS_JS)
    assert not repeated, f"ids used more than once on {page.url}: {repeated}"
