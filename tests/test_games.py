"""The game registry: its records hold together, the files generated from it are current, and
no module outside it and the families' own modules names a game."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path

import pytest
from game_names import (
    GENERATED_JS,
    game_names_outside_owners,
    identifier_names_a_game,
    js_tokens,
    owners,
)

from cloversolve.catalogue.files import SCHEMA_NAME, shipped_dir
from cloversolve.families.fifteen.rules import FifteenPosition
from cloversolve.families.plugin import family_plugin
from cloversolve.families.thirteen.rules import ThirteenPosition
from cloversolve.games import (
    FAMILIES,
    PRESETS,
    UnknownPresetError,
    family_preset,
    front_end_presets,
    registry_problems,
)
from cloversolve.games.dealing import deal
from cloversolve.grading.grading import GRADING_RULES, PREVIOUS_GRADING_RULES
from cloversolve.web import asset_text
from cloversolve.web.generate import generated_files, js_presets, main, stale_files
from cloversolve.web.viewer import VIEWER_PRESETS

PACKAGE = Path(__file__).resolve().parent.parent / "cloversolve"


def test_the_registry_holds_together() -> None:
    assert registry_problems() == []


def test_the_families_witnesses_and_validation_players_are_theirs() -> None:
    """The loss witnesses a family names know certificate kinds, each kind one family's; its
    validation players carry the names it gives them and play its presets."""
    plugins = [family_plugin(name) for name in FAMILIES]
    kinds = [k for p in plugins if p.loss_witnesses for k in p.loss_witnesses.kinds]
    assert set(kinds) == {"king-bottom", "buried-rank", "suit-projection"}
    assert len(kinds) == len(set(kinds))
    for name in FAMILIES:
        players = family_plugin(name).validation_players
        assert all(p.name == key and p.plays(name) for key, p in players.items())
    assert tuple(family_plugin("thirteen").validation_players) == ("tips", "tips-undo")


def test_each_family_is_one_folder() -> None:
    """Each shipped family's record names its folder's package, whose plug-in plays it: the
    engine of the family, and a search module that offers a search and its kernels."""
    for name, family in FAMILIES.items():
        assert family.module == f"cloversolve.families.{name}"
        assert (PACKAGE / "families" / name / "__init__.py").is_file()
        plugin = family_plugin(name)
        assert plugin.engine.family == name
        assert plugin.engine.__module__.startswith(family.module + ".")


def test_registry_problems_are_found(monkeypatch: pytest.MonkeyPatch) -> None:
    clover = FAMILIES["clover"]
    broken = replace(clover, foundation_builds=("up",))
    monkeypatch.setitem(FAMILIES, "clover", broken)
    assert registry_problems() == ["family 'clover' gives a direction to some foundations only"]


def test_generated_files_are_current() -> None:
    """Fails when the registry changed and ``python -m cloversolve.web.generate`` was not
    run (or a generated file was edited by hand)."""
    assert stale_files() == [], "run python -m cloversolve.web.generate"


def test_generator_check_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check"]) == 0
    assert main(["--frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'--frobnicate'" in err


def test_stale_files_are_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PRESETS, "thirteen", PRESETS["alexander"])
    assert {path.name for path in stale_files()} == {"presets.js"}


def test_front_ends_get_the_registry_presets() -> None:
    names = front_end_presets()
    assert names == VIEWER_PRESETS
    schema = json.loads((shipped_dir() / SCHEMA_NAME).read_text(encoding="utf-8"))
    assert tuple(schema["properties"]["preset"]["enum"]) == names
    assert asset_text("presets.js") == js_presets()
    for name in names:
        preset = PRESETS[name]
        layout = deal(name, 1)
        if preset.rule_family.grid:
            assert len(layout.cells) == preset.piles
        else:
            assert {len(pile) for pile in layout.piles} == {preset.rows}


def test_every_generated_file_is_package_data() -> None:
    for path in generated_files():
        assert path.is_file() and (PACKAGE in path.parents or path.parent.name == "catalogues")


def test_grading_rules_are_registry_data() -> None:
    graded = {name for name, preset in PRESETS.items() if preset.grading is not None}
    assert set(GRADING_RULES) == graded == set(PREVIOUS_GRADING_RULES)
    for name, rule in GRADING_RULES.items():
        assert rule.panel == PRESETS[name].rule_family.grading_panel
        assert rule.easy_threshold == PRESETS[name].grading.easy_threshold  # type: ignore[union-attr]


def test_switches_default_to_the_family() -> None:
    assert [p.name for p in PRESETS.values() if p.foundation_return] == [
        "thirteen-return",
        "cloverleaf",
        "alexander",
    ]
    assert all(not p.switches for p in PRESETS.values() if p.family == "clover")
    assert family_preset("thirteen", foundation_return=True).name == "thirteen-return"
    assert family_preset("thirteen").name == "thirteen"
    with pytest.raises(UnknownPresetError, match="'hole'"):
        family_preset("hole", foundation_return=True)


def test_engines_pick_their_preset_from_the_registry() -> None:
    layout = deal("thirteen-return", 3)
    position = ThirteenPosition(layout.piles, allow_return=True)
    assert position.to_layout().preset == "thirteen-return"
    assert ThirteenPosition(layout.piles).to_layout().preset == "thirteen"
    grid = deal("fifteen", 3)
    assert FifteenPosition(grid.cells, grid.stock).to_layout().preset == "fifteen"


def test_the_js_package_lists_every_module() -> None:
    """``package.json`` ships every module ``cloversolve.js`` needs, those of ``web/`` and
    each family's rules, and their type declarations (the scripts of the viewer and the play
    page are inlined into their pages, not shipped)."""
    manifest = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))
    web = PACKAGE / "web"
    modules = [*web.glob("*.js"), *web.glob("*.d.ts"), *(PACKAGE / "families").glob("*/rules.js")]
    pages = ("viewer.js", "play.js")
    assert sorted(manifest["files"]) == sorted(
        path.relative_to(PACKAGE).as_posix() for path in modules if path.name not in pages
    )


# -- where games are named -------------------------------------------------------------------


def test_no_file_outside_the_registry_and_the_families_names_a_game() -> None:
    """Every Python module, JS module, style sheet and page of the package, except the
    registry, the generated JS tables and each family's own modules (``game_names``)."""
    assert game_names_outside_owners() == []


def test_the_owners_of_game_names_are_the_registry_s() -> None:
    """The generated JS tables are the allow-list's, and each family whose plug-in names JS
    rules has them in its folder (``rules.js``, which its folder's allow-list covers)."""
    generated = {f"web/{path.name}" for path in generated_files() if path.suffix == ".js"}
    assert generated == GENERATED_JS
    assert all((PACKAGE / name).is_file() for name in GENERATED_JS)
    for name in FAMILIES:
        if family_plugin(name).js_rules is not None:
            assert f"families/{name}/rules.js" in owners()
    for name in front_end_presets():
        assert family_plugin(PRESETS[name].family).js_rules is not None, name


def test_js_tokens_skip_comments_and_regular_expressions() -> None:
    text = (
        'const a = `x ${b ? "thirteen" : `y${c}`} z`; // fifteen\n'
        "const r = /\"clover'[/]/g; /* hole */ const d = e / f / g;\n"
        "thirteenRules.legal('alexander', CloverSolveError);\n"
    )
    tokens = list(js_tokens(text))
    strings = [token for kind, token, _ in tokens if kind == "string"]
    assert strings == ["x ", "thirteen", "y", "", " z", "alexander"]
    identifiers = [token for kind, token, _ in tokens if kind == "identifier"]
    assert identifiers == [
        *("const", "a", "b", "c", "const", "r", "const", "d", "e", "f", "g"),
        *("thirteenRules", "legal", "CloverSolveError"),
    ]
    assert [(line, token) for kind, token, line in tokens if token in ("d", "legal")] == [
        (2, "d"),
        (3, "legal"),
    ]
    assert [token for token in identifiers if identifier_names_a_game(token)] == ["thirteenRules"]


def test_a_game_named_outside_its_owners_is_found(tmp_path: Path) -> None:
    """A family's own folder may name the family and its presets only; a module outside the
    families' folders (``rules/hole.py``) may name none."""
    (tmp_path / "web").mkdir()
    (tmp_path / "rules").mkdir()
    (tmp_path / "families" / "clover").mkdir(parents=True)
    (tmp_path / "plain.py").write_text(
        '"""Deals thirteen."""\n\ndef f(spec):\n    return spec.family == "hole"\n',
        encoding="utf-8",
    )
    (tmp_path / "players.py").write_text("from .rules.clover_players import dig\n")
    (tmp_path / "families" / "clover" / "rules.py").write_text('A = "clover"\nB = "fifteen"\n')
    (tmp_path / "web" / "module.js").write_text(
        '// clover\nexport const x = (s) => s.family === "fifteen" || fifteenLegal(s);\n',
        encoding="utf-8",
    )
    (tmp_path / "families" / "clover" / "rules.js").write_text(
        'export const c = "alexander" + "hole";\n'
    )
    (tmp_path / "rules" / "hole.py").write_text('NAME = "hole"\n', encoding="utf-8")
    (tmp_path / "web" / "viewer.css").write_text("/* alexander */\n.tableau.thirteen-return {}\n")
    assert game_names_outside_owners(tmp_path) == [
        "families/clover/rules.js:1: 'hole'",
        "families/clover/rules.py:2: 'fifteen'",
        "plain.py:4: 'hole'",
        "players.py:1: rules.clover_players",
        "rules/hole.py:1: 'hole'",
        "web/module.js:2: 'fifteen'",
        "web/module.js:2: fifteenLegal",
        "web/viewer.css:2: thirteen-return",
    ]


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(
        ".__init__"
    )


def _module_imports(path: Path) -> set[str]:
    """The ``cloversolve`` modules a module imports when it is loaded (imports inside
    functions and under ``TYPE_CHECKING`` are left out)."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else None
            target = target or node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("cloversolve.")}


def test_the_engines_and_the_registry_import_no_search() -> None:
    """The registry's data sits below the reference engines, which sit below the search (in
    a family's folder too: its engine and witnesses import nothing of its search)."""
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    engines = [name for name in paths if name.endswith((".rules", ".witnesses"))]
    start = [name for name in paths if name.startswith(("cloversolve.rules", "cloversolve.games"))]
    start += [name for name in engines if name.startswith("cloversolve.families.")]
    seen, todo = set(start), list(start)
    while todo:
        for imported in _module_imports(paths[todo.pop()]):
            if imported in paths and imported not in seen and imported != "cloversolve":
                seen.add(imported)
                todo.append(imported)
    assert {
        "cloversolve.games.registry",
        "cloversolve.games.records",
        "cloversolve.games.layout",
    } <= seen
    assert "cloversolve.families.clover.rules" in seen
    searches = [name for name in seen if name.startswith("cloversolve.search")]
    searches += [name for name in seen if name.endswith((".search", ".kernels"))]
    assert sorted(searches) == []
