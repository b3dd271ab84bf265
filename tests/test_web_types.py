"""The type declarations of cloversolve.js (``cloversolve.d.ts``): a consumer of every export
type-checks, and every misuse in ``tests/web/types/misuse.ts`` is a type error.

The pinned TypeScript compiler runs on ``tests/web/tsconfig.json`` (strict): the misuses are
each marked ``@ts-expect-error``, so a misuse the types accept fails the check. The module is
imported as the package ``cloversolve`` (``npm ci --prefix tests/web`` links the package folder),
so the check also reads the ``types`` condition of its ``package.json``.
"""

from __future__ import annotations

import json
import re
import subprocess

from external_tools import WEB_TESTS, typescript_compiler

from cloversolve.games.layout import LAYOUT_ERROR_CODES
from cloversolve.web import asset_path, asset_text
from cloversolve.web.generate import front_end_families, js_rules_module
from cloversolve.web.viewer import module_exports

DECLARATIONS = "cloversolve.d.ts"


def declared_union(name: str) -> list[str]:
    """The string literals of ``export type NAME = ...`` (or of an exported tuple constant)."""
    text = asset_text(DECLARATIONS)
    found = re.search(rf"^export (?:type {name} =|const {name}:)(.*?);$", text, re.M | re.S)
    assert found, f"{DECLARATIONS} declares no {name}"
    return re.findall(r'"([^"]+)"', found[1])


def test_the_declarations_type_check_a_consumer_and_refuse_every_misuse() -> None:
    tsc = typescript_compiler()
    linked = WEB_TESTS / "node_modules" / "cloversolve"
    assert linked.resolve() == asset_path(DECLARATIONS).parent.parent.resolve(), (
        f"{linked} is not this checkout's package folder: run `npm ci --prefix tests/web`"
    )
    run = subprocess.run(
        [tsc, "--project", str(WEB_TESTS / "tsconfig.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_the_play_page_script_uses_the_module_as_its_declarations_say() -> None:
    """``play.js`` checked against the declarations (JavaScript: its own values untyped)."""
    tsc = typescript_compiler()
    run = subprocess.run(
        [tsc, "--project", str(WEB_TESTS / "tsconfig.play.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_the_consumer_imports_every_export_of_the_module() -> None:
    consumer = (WEB_TESTS / "types" / "consumer.ts").read_text(encoding="utf-8")
    imported = re.search(r'^import \{(.*?)\} from "cloversolve";', consumer, re.M | re.S)
    assert imported
    names = {name.strip() for name in imported[1].split(",")} - {""}
    assert sorted(set(module_exports()) - names) == []


def test_the_declared_names_are_the_module_s() -> None:
    """The codes: the layout check's, and the refusals of the rule families' modules (the
    preset names are generated: ``presets.d.ts``)."""
    assert declared_union("LAYOUT_ERROR_CODES") == list(LAYOUT_ERROR_CODES)
    family_modules = [asset_path(js_rules_module(family)) for family in front_end_families()]
    codes = {
        code
        for path in family_modules
        for code in re.findall(r'\["([a-z]+(?:-[a-z]+)+)", ', path.read_text(encoding="utf-8"))
    }
    assert sorted(declared_union("IllegalMoveCode")) == sorted(codes)


def test_the_package_names_its_declarations() -> None:
    """The manifest at the top of the Python package names the declarations in ``web/``."""
    manifest = asset_path(DECLARATIONS).parent.parent / "package.json"
    package = json.loads(manifest.read_text(encoding="utf-8"))
    declarations = f"web/{DECLARATIONS}"
    assert package["types"] == f"./{declarations}"
    assert package["exports"]["."]["types"] == f"./{declarations}"
    assert list(package["exports"]["."])[0] == "types"  # (the first condition that matches wins)
    assert declarations in package["files"]
