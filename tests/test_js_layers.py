"""The JS module's layers: every import between the package's JS files goes down, none returns.

:data:`JS_LAYERS` is the one statement of the order (``docs/code-layout.md`` explains it), as
:data:`test_layers.LAYERS` is the Python package's, whose layers it follows. A layer lists its
files by path under ``cloversolve/``; the rule families' own modules are in the ``rules`` layer
wherever the registry puts them (each family's folder). An import (``import ... from``,
``export ... from``, ``import "..."`` or ``import("...")`` of a relative path, comments aside)
may name a file of the same layer or of a layer before it, never one after it, and no chain of
imports may come back to where it started.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from game_names import js_tokens
from test_layers import cycles

from cloversolve.web.generate import front_end_families, js_rules_module

PACKAGE = Path(__file__).resolve().parent.parent / "cloversolve"

#: The stand-in, in :data:`JS_LAYERS`, for every rule family's own module.
FAMILY_RULES = "<each family's rules module>"

#: The layers, lowest first: each one's name (the Python layer it matches) and its files.
JS_LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "core",  # the errors and how they quote values, Python's white space, cards, deal
        # numbers, Python's random generator, the move notation
        (
            "web/errors.js",
            "web/python-text.js",
            "web/cards.js",
            "web/deal-numbers.js",
            "web/python-random.js",
            "web/notation.js",
        ),
    ),
    ("games", ("web/presets.js", "web/find-preset.js", "web/dealing.js")),
    (
        "rules",  # the families' rules, their generated table, the one reader of the table,
        # and the layout check that uses them
        (
            "web/rules-common.js",
            FAMILY_RULES,
            "web/families.js",
            "web/family-rules.js",
            "web/layout.js",
        ),
    ),
    ("solving", ("web/game.js", "web/hint.js")),  # positions, moves, replay; the hint
    ("catalogue", ("web/daily.js",)),  # the daily deal
    ("entry", ("web/cloversolve.js",)),  # the public face: it only re-exports
    ("pages", ("web/viewer.js", "web/play.js")),  # the viewer's and the play page's scripts
)


def family_rules_modules(package: Path = PACKAGE) -> set[str]:
    """The rule families' own JS modules, by path under the package (``families.js`` imports
    each, as :func:`~cloversolve.web.generate.js_rules_module` names it)."""
    web, top = package / "web", package.resolve()
    return {
        (web / js_rules_module(family)).resolve().relative_to(top).as_posix()
        for family in front_end_families()
    }


def layer_table(
    layers: tuple[tuple[str, tuple[str, ...]], ...] = JS_LAYERS,
    family_modules: Iterable[str] = (),
) -> dict[str, int]:
    """Each declared file and the index of its layer (:data:`FAMILY_RULES`: each of
    ``family_modules``)."""
    table: dict[str, int] = {}
    for index, (_, files) in enumerate(layers):
        for file in files:
            for name in family_modules if file == FAMILY_RULES else [file]:
                assert name not in table, f"{name} is declared in two layers"
                table[name] = index
    return table


def imports_of(path: Path, package: Path = PACKAGE) -> set[str]:
    """The files (by path under ``package``) that the JS file at ``path`` imports by relative
    path: the string after ``from`` or ``import``, comments aside."""
    found: set[str] = set()
    previous = ""
    for kind, text, _ in js_tokens(path.read_text(encoding="utf-8")):
        if kind == "string" and previous in ("from", "import") and text.startswith((".", "/")):
            target = (path.parent / text).resolve()
            assert target.is_file(), f"{path.name} imports {text!r}, which is no file"
            found.add(target.relative_to(package.resolve()).as_posix())
        previous = text if kind == "identifier" else ""
    return found


def js_import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each JS file of the package and the package's JS files it imports."""
    return {
        path.relative_to(package).as_posix(): imports_of(path, package)
        for path in sorted(package.rglob("*.js"))
    }


def upward_imports(graph: Mapping[str, set[str]], table: Mapping[str, int]) -> list[str]:
    """Each import of a file from a later layer, as ``importer -> imported``."""
    return sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        for target in targets
        if table[target] > table[name]
    )


def test_every_js_file_is_in_one_layer() -> None:
    table = layer_table(family_modules=family_rules_modules())
    assert sorted(js_import_graph()) == sorted(table)


def test_every_js_import_goes_down_a_layer_or_stays_in_its_own() -> None:
    table = layer_table(family_modules=family_rules_modules())
    assert upward_imports(js_import_graph(), table) == []


def test_no_js_import_cycle() -> None:
    assert cycles(js_import_graph()) == []


def test_the_entry_only_re_exports_and_only_the_pages_import_it() -> None:
    """``cloversolve.js`` declares nothing of its own; no module imports it but the pages."""
    entry = PACKAGE / "web" / "cloversolve.js"
    tokens = [text for kind, text, _ in js_tokens(entry.read_text()) if kind == "identifier"]
    assert {"function", "class", "const", "let", "var", "import"}.isdisjoint(tokens)
    importers = sorted(
        n for n, targets in js_import_graph().items() if "web/cloversolve.js" in targets
    )
    assert importers == ["web/play.js", "web/viewer.js"]


def test_the_checks_see_every_form_of_import_an_upward_one_and_a_cycle(tmp_path: Path) -> None:
    """Imports and re-exports over several lines, dynamic imports and imports from another
    folder are read, an import in a comment is not; an upward import and a cycle are found."""
    (tmp_path / "web").mkdir()
    (tmp_path / "other").mkdir()
    files = {
        "web/low.js": 'import {\n  a,\n} from "./high.js";\n// import { c } from "./mid.js";\n',
        "web/mid.js": 'export { a } from "../other/rules.js";\nconst m = import("./low.js");\n',
        "web/high.js": 'import "./mid.js";\nexport const a = 1;\n',
        "other/rules.js": "export const a = 1;\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    graph = js_import_graph(tmp_path)
    assert graph == {
        "other/rules.js": set(),
        "web/high.js": {"web/mid.js"},
        "web/low.js": {"web/high.js"},
        "web/mid.js": {"other/rules.js", "web/low.js"},
    }
    layers = (
        ("low", ("web/low.js", FAMILY_RULES)),
        ("mid", ("web/mid.js",)),
        ("high", ("web/high.js",)),
    )
    table = layer_table(layers, ["other/rules.js"])
    assert upward_imports(graph, table) == ["web/low.js -> web/high.js"]
    assert cycles(graph) == [["web/high.js", "web/low.js", "web/mid.js"]]
