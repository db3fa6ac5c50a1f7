"""The import-linter contracts in pyproject.toml (run by `make test` as `lint-imports`)
check the layers between apps, models that never import selectors, services or tasks,
and no import cycles inside an app. What they cannot see for themselves is checked
here: an app left out of the contracts, or a `models_*`, `selectors_*` or `services_*`
module that import-linter's whole-module wildcards do not reach."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
CONTRACTS = {contract["id"]: contract for contract in CONFIG["contracts"]}
APPS = {path.parent.name for path in ROOT.glob("*/apps.py")}
# Every package at the top of the tree but the tests is product code (or devdata) and
# must be a root package: nothing outside the contracts can import devdata unseen.
PACKAGES = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests"}


def test_every_app_is_a_root_package_and_a_layer():
    layers = {
        name.strip().strip("()")
        for layer in CONTRACTS["layers"]["layers"]
        for name in layer.split("|")
    }
    assert set(CONFIG["root_packages"]) == APPS | PACKAGES
    assert APPS - layers == set()


def test_every_models_selectors_and_services_module_is_in_the_models_contract():
    contract = CONTRACTS["models"]

    def covered(module: str, listed: list[str]) -> bool:
        app, name = module.split(".", 1)
        return module in listed or f"*.{name}" in listed or f"{app}.*" in listed

    def modules(pattern: str) -> set[str]:
        return {
            f"{path.parent.name}.{path.stem}"
            for path in ROOT.glob(f"*/{pattern}")
            if path.parent.name in APPS
        }

    sources = {m for m in modules("models*.py") if re.fullmatch(r"\w+\.models(_\w+)?", m)}
    forbidden = modules("selectors*.py") | modules("services*.py") | modules("tasks.py")
    assert {m for m in sources if not covered(m, contract["source_modules"])} == set()
    assert {m for m in forbidden if not covered(m, contract["forbidden_modules"])} == set()
