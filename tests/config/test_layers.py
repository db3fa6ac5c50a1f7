"""Dependencies between apps point one way (docs/architecture.md): an app never
imports from an app to its right, so the firewall and the layers cannot be bypassed
by a convenient import. `devdata` (the demo and scale data, installed only by the
local and test settings) sits above them all: it may import every app, and nothing
in the product imports it."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {
    "people": set(),
    "scorecards": {"people"},
    "coaching": {"people", "scorecards"},
    "feedback": {"people", "scorecards", "coaching"},
    "cadence": {"people", "scorecards", "coaching", "feedback"},
    "dashboards": {"people", "scorecards", "coaching", "feedback", "cadence"},
}
APPS = set(ALLOWED) | {"config", "devdata"}


def imported_apps(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & APPS


@pytest.mark.parametrize("app", sorted(ALLOWED))
def test_an_app_imports_only_the_apps_to_its_left(app):
    # config.api is shared API plumbing every app may use, config.slots the shared
    # keeping of what is worked out once per refresh slot; the rest of config is glue
    # above all apps.
    wrong = {}
    for path in sorted((ROOT / app).rglob("*.py")):
        others = imported_apps(path) - {app} - ALLOWED[app]
        if others - {"config"} or ("config" in others and _uses_glue(path)):
            wrong[str(path.relative_to(ROOT))] = sorted(others)
    assert wrong == {}


def _uses_glue(path: Path) -> bool:
    tree = ast.parse(path.read_text())
    modules = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("config")
    }
    return bool(modules - {"config.api", "config.celery", "config.slots"})


def test_nothing_in_the_product_imports_devdata():
    # Every package at the top of the tree is product code, except the dev-only app
    # and the tests and benchmarks (which may use it); apps added later count too.
    product = [
        path.parent
        for path in sorted(ROOT.glob("*/__init__.py"))
        if path.parent.name not in {"devdata", "tests", "bench"}
    ]
    assert {"people", "config", "dashboards"} <= {package.name for package in product}
    wrong = sorted(
        str(path.relative_to(ROOT))
        for package in product
        for path in package.rglob("*.py")
        if "devdata" in imported_apps(path)
    )
    assert wrong == []
