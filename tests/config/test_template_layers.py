"""Templates keep the apps' layers too: a page of one app includes or extends only its
own templates, a lower app's, or the shared ones at the top of templates/ — the same
one-way order import-linter checks for the code (pyproject.toml, docs/architecture.md)."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
USES = re.compile(r"""\{%\s*(?:include|extends)\s+["']([\w-]+)/""")


def _rank() -> dict[str, int]:
    """App → its layer's height (0 the bottom); apps side by side share a height."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    [layers] = [c["layers"] for c in contracts if c["id"] == "layers"]
    return {
        app.strip(" ()"): height
        for height, layer in enumerate(reversed(layers))
        for app in layer.split("|")
    }


def _upward_uses(templates: Path, rank: dict[str, int]) -> list[str]:
    found = []
    for path in sorted(templates.glob("*/**/*.html")):
        app = path.relative_to(templates).parts[0]
        if app not in rank:
            continue  # allauth's, the admin's, emails: not an app's pages
        for used in USES.findall(path.read_text()):
            if used in rank and used != app and rank[used] >= rank[app]:
                found.append(f"{path.relative_to(templates)} uses {used}/")
    return found


def test_no_template_uses_a_template_of_an_app_above_or_beside_it():
    assert _upward_uses(TEMPLATES, _rank()) == []


def test_the_check_sees_a_template_reaching_up(tmp_path):
    (tmp_path / "scorecards").mkdir()
    (tmp_path / "scorecards" / "page.html").write_text('{% include "feedback/_x.html" %}')
    (tmp_path / "feedback").mkdir()
    (tmp_path / "feedback" / "page.html").write_text('{% include "scorecards/_x.html" %}')
    assert _upward_uses(tmp_path, _rank()) == ["scorecards/page.html uses feedback/"]
