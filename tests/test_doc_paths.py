"""Every repository path and every module a page or a docstring names exists: the pages
(README.md, RULES.md, FACTS.md, the catalogue guide, docs/*.md) and the text of every module
of the package (docstrings and comments; code names nothing that does not import)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / name for name in ("README.md", "RULES.md", "FACTS.md", "catalogues/README.md")
] + sorted((ROOT / "docs").glob("*.md"))
MODULES = sorted((ROOT / "cloversolve").rglob("*.py"))

#: A repository path: a top-level folder of the repository and what follows, up to a space,
#: a quote or a closing bracket (``<family>`` and ``*`` mark patterns, not paths).
_PATH = re.compile(
    r"(?<![\w/.-])((?:cloversolve|tests|benchmarks|docs|catalogues|\.ci)/[\w./<>*-]*[\w*>])"
)
#: A dotted name of the package (``cloversolve.core.notation``), and a role's relative one.
_DOTTED = re.compile(r"(?<![\w/.-])cloversolve(?:\.\w+)+")
_RELATIVE_ROLE = re.compile(r":(?:mod|func|class|data|meth|attr|exc):`[~!]?(\.+\w+(?:\.\w+)*)`")
#: Names that end like a file of the web module (``cloversolve.js``), not a module's.
_FILE_ENDINGS = {"js", "mjs", "ts", "css", "html", "json", "md", "py", "test"}

#: Paths named for what they are outside the repository's files, each with why.
NOT_REPOSITORY_FILES = {
    "cloversolve/catalogues": "the installed package's copy of catalogues/",
    "catalogues/thirteen.json.checkpoint": "the checkpoint a catalogue build writes",
    "docs/_build": "the site a build writes",
}


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def named_paths(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    found = []
    for match in _PATH.finditer(text):
        named = match.group(1).rstrip(".")
        if not any(mark in named for mark in "<>*"):
            found.append((line_of(text, match.start()), named))
    return found


def resolves(name: str) -> bool:
    """Whether ``name`` is a module of the package, or an attribute of one."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def named_modules(path: Path) -> list[tuple[int, str]]:
    """The package's dotted names in ``path``, relative ones made absolute."""
    text = path.read_text(encoding="utf-8")
    found = [
        (line_of(text, m.start()), m.group(0))
        for m in _DOTTED.finditer(text)
        if m.group(0).rsplit(".", 1)[-1] not in _FILE_ENDINGS
    ]
    if path.suffix == ".py":
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
        for match in _RELATIVE_ROLE.finditer(text):
            relative = match.group(1)
            dots = len(relative) - len(relative.lstrip("."))
            base = package.rsplit(".", dots - 1)[0] if dots > 1 else package
            found.append((line_of(text, match.start()), f"{base}.{relative.lstrip('.')}"))
    return found


def shown(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", PAGES + MODULES, ids=shown)
def test_every_repository_path_named_exists(path: Path) -> None:
    missing = [
        f"{shown(path)}:{line}: {named}"
        for line, named in named_paths(path)
        if named not in NOT_REPOSITORY_FILES and not (ROOT / named).exists()
    ]
    assert not missing, "paths that are not in the repository:\n" + "\n".join(missing)


@pytest.mark.parametrize("path", PAGES + MODULES, ids=shown)
def test_every_module_named_exists(path: Path) -> None:
    missing = [
        f"{shown(path)}:{line}: {named}"
        for line, named in named_modules(path)
        if not resolves(named)
    ]
    assert not missing, "names that are no module or attribute of one:\n" + "\n".join(missing)


def test_the_checks_find_a_missing_path_and_module(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "See `cloversolve/validation_players.py`, `tests/<x>.py` and cloversolve.search.compiling."
    )
    assert named_paths(page) == [(1, "cloversolve/validation_players.py")]
    assert [name for _, name in named_modules(page)] == ["cloversolve.search.compiling"]
    assert not resolves("cloversolve.search.compiling")
    assert resolves("cloversolve.core.compiling") and resolves("cloversolve.games.PRESETS")
