"""The package's layers: every import, at module level or inside a function, goes down.

:data:`LAYERS` is the one statement of the order (``docs/code-layout.md`` explains it). A
module belongs to the longest entry its dotted path (without ``cloversolve.``) starts with;
the package's own ``__init__`` is ``"__init__"``. A module of a rule family's folder
(``families.<family>.<module>``) belongs to the layer of its role (:data:`FAMILY_ROLES`), so
the layers hold inside a family too: its engine never imports its search. An import may name
a module of the same layer or of a layer before it, never one after it, and no chain of
imports may come back to where it started. Imports under ``if TYPE_CHECKING:`` count like the
others: an annotation that names a module of a higher layer ties the two as much as a call."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "cloversolve"

#: The layers, lowest first.
LAYERS = (
    "core",  # cards, notation, inputs, JSON, wording, version, the compiling notice
    "games",  # the registry (data), presets, families, a deal's layout and the dealing
    "rules",  # the reference engines, their players and witnesses, the layout check
    "search",  # the numba kernels and their drivers
    "solving",  # solve, hint, replay, certificates
    "grading",  # the grading panel, validation players, visible hints
    "families",  # each rule family's plug-in object (its modules: FAMILY_ROLES)
    "runs",  # worker pools, checkpoints, output files, studies, calibration, benchmarks
    "catalogue",  # catalogue files, building, checking, daily deal and lookup
    "audit",  # re-checking claims
    "web",  # the front-end assets and the viewer
    "cli",  # the command line
    "__init__",  # the public face: ``from cloversolve import ...``
    "__main__",  # the ``cloversolve`` program
)


#: The layer of each module of a family's folder, by the module's name (its role).
FAMILY_ROLES = {
    "rules": "rules",  # the reference engine
    "witnesses": "rules",  # loss witnesses
    "proof": "rules",  # the plain-Python loss prover
    "walks": "rules",  # the hole games' rank-walk test, the prover's
    "search": "search",  # the search entry and its encoding
    "kernels": "search",  # numba kernels
    "dead_ends": "search",  # the search's reductions and parts
    "moves": "search",
    "order": "search",
    "projection": "search",
    "runs": "search",
    "players": "grading",  # the grading players' preferences, validation players, hints
    "tips": "grading",
    "hint": "grading",
}


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """The dotted name of the module at ``path``, without the package's own name."""
    parts = path.relative_to(package).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(name: str, layers: tuple[str, ...] = LAYERS) -> int:
    """The index in ``layers`` of the longest entry that ``name`` is or lies under; for a
    module of a family's folder, that of its role."""
    parts = name.split(".")
    if len(parts) == 3 and parts[0] == "families":
        assert parts[2] in FAMILY_ROLES, f"module {name!r} has no role in FAMILY_ROLES"
        name = FAMILY_ROLES[parts[2]]
    matches = [i for i, layer in enumerate(layers) if name == layer or name.startswith(layer + ".")]
    assert matches, f"module {name!r} is in no layer of LAYERS"
    return max(matches, key=lambda i: len(layers[i]))


def imports_of(name: str, source: str, modules: set[str]) -> set[str]:
    """The package's modules that the module ``name`` (source ``source``) imports."""
    is_package = name == "__init__" or f"{name}.__init__" in modules
    here = [] if name == "__init__" else name.split(".")
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here if is_package else here[:-1]
                base = base[: len(base) - node.level + 1]
            elif (node.module or "").split(".")[0] == "cloversolve":
                base = []
                node = ast.ImportFrom(node.module.partition(".")[2], node.names, 1)
            else:
                continue
            target = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                whole = f"{target}.{alias.name}" if target else alias.name
                found.add(whole if whole in modules else target or "__init__")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "cloversolve":
                    found.add(alias.name.partition(".")[2] or "__init__")
    return {_known(target, modules) for target in found} - {name}


def _known(name: str, modules: set[str]) -> str:
    while name not in modules and "." in name:
        name = name.rpartition(".")[0]
    return name


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports."""
    paths = {module_name(path, package): path for path in package.rglob("*.py")}
    modules = set(paths) | {f"{name}.__init__" for name, p in paths.items() if p.stem == "__init__"}
    return {name: imports_of(name, path.read_text(), modules) for name, path in paths.items()}


def upward_imports(graph: Mapping[str, set[str]], layers: tuple[str, ...] = LAYERS) -> list[str]:
    """Each import of a module from a later layer, as ``importer -> imported``."""
    return sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        for target in targets
        if layer_of(target, layers) > layer_of(name, layers)
    )


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected set of two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for target in graph.get(name, ()):
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            part = stack[stack.index(name) :]
            del stack[stack.index(name) :]
            if len(part) > 1:
                found.append(sorted(part))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_every_import_goes_down_a_layer_or_stays_in_its_own() -> None:
    assert upward_imports(import_graph()) == []


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_every_module_is_in_a_layer() -> None:
    assert all(layer_of(name) >= 0 for name in import_graph())


def test_the_checks_see_an_upward_import_and_a_cycle_inside_a_function(tmp_path: Path) -> None:
    """A lazy import of a higher layer is found, and so is the cycle it closes."""
    package = tmp_path / "cloversolve"
    (package / "core").mkdir(parents=True)
    (package / "cli").mkdir()
    for init in ("__init__.py", "core/__init__.py", "cli/__init__.py"):
        (package / init).write_text("")
    (package / "core" / "cards.py").write_text(
        "def parse():\n    from ..cli.main import main\n    return main\n"
    )
    (package / "cli" / "main.py").write_text("from cloversolve.core import cards\n")
    graph = import_graph(package)
    assert upward_imports(graph) == ["core.cards -> cli.main"]
    assert cycles(graph) == [["cli.main", "core.cards"]]


def test_the_checks_count_an_import_for_annotations_only(tmp_path: Path) -> None:
    """An import under ``if TYPE_CHECKING:`` is an import: upward, it is found."""
    package = tmp_path / "cloversolve"
    (package / "core").mkdir(parents=True)
    (package / "cli").mkdir()
    for init in ("__init__.py", "core/__init__.py", "cli/__init__.py"):
        (package / init).write_text("")
    (package / "core" / "cards.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from ..cli.main import main\n"
    )
    (package / "cli" / "main.py").write_text("from ..core import cards\n")
    graph = import_graph(package)
    assert upward_imports(graph) == ["core.cards -> cli.main"]
    assert cycles(graph) == [["cli.main", "core.cards"]]


def test_a_family_module_is_in_the_layer_of_its_role() -> None:
    """Inside a family's folder the layers hold: its engine may not import its search."""
    graph = {"families.x.rules": {"families.x.search"}, "families.x.search": set()}
    assert upward_imports(graph) == ["families.x.rules -> families.x.search"]
    assert layer_of("families.x.players") == LAYERS.index("grading")
    assert layer_of("families.x") == LAYERS.index("families")
