"""Where the package names a game (a preset or a rule family) outside the game registry, the
generated files and the families' own folders (``families/<family>/``): the check of
``tests/test_games.py``, and a count on the command line (``python tests/game_names.py
[PACKAGE_DIR]`` lists every place).

A Python module names a game in a string constant equal to a preset's or family's name
(docstrings aside) or in an identifier with such a name as one of its words (``thirteen_dig``,
``rules.clover``); a JS module in a string literal equal to a name or in an identifier with it
as a word (``cloverLegal``), comments aside; the viewer's page and style sheet in any word
outside comments. The project's own name is not a game's.
"""

from __future__ import annotations

import ast
import bisect
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from cloversolve.games import FAMILIES, PRESETS

PACKAGE = Path(__file__).resolve().parent.parent / "cloversolve"

#: Every preset's and family's name.
GAME_NAMES = frozenset(PRESETS) | frozenset(FAMILIES)

#: The registry: the one Python module that names every game.
REGISTRY = frozenset({"games/registry.py"})

#: The JS tables generated from the registry: they may name every game.
GENERATED_JS = frozenset({"web/presets.js", "web/families.js"})

_PROJECT = re.compile("cloversolve", re.IGNORECASE)
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def games_in(identifier: str) -> frozenset[str]:
    """The games' names among the words of ``identifier`` (camelCase, snake_case, a dotted
    path or a style sheet's class name)."""
    words = {word.lower() for word in _WORD.findall(_PROJECT.sub(" ", identifier))}
    return GAME_NAMES.intersection(words)


def identifier_names_a_game(identifier: str) -> bool:
    """Whether a game's name is one of the words of ``identifier``."""
    return bool(games_in(identifier))


def family_games(family: str) -> frozenset[str]:
    """The names a family's own files may use: the family's and its presets'."""
    return frozenset({family, *(name for name, p in PRESETS.items() if p.family == family)})


def family_modules(family: str, package: Path = PACKAGE) -> set[str]:
    """A family's own modules, Python and JS: every file of its folder ``families/<family>/``."""
    return {
        path.relative_to(package).as_posix()
        for path in (package / "families" / family).rglob("*")
        if path.suffix in (".py", ".js")
    }


# -- Python ----------------------------------------------------------------------------------


def _python_identifiers(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.keyword | ast.arg):
        return [node.arg or ""]
    return []


def python_names(path: Path) -> list[tuple[int, str]]:
    """The lines of a Python module that name a game, with the name or identifier."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    found = [
        (node.lineno, repr(node.value))
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and node.value in GAME_NAMES
        and id(node) not in docstrings
    ]
    found += [
        (getattr(node, "lineno", 0), name)
        for node in ast.walk(tree)
        for name in _python_identifiers(node)
        if identifier_names_a_game(name)
    ]
    return sorted(found)


# -- JavaScript ------------------------------------------------------------------------------

#: The tokens after which a ``/`` starts a regular expression rather than a division.
_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^") | {
    "",
    "return",
    "typeof",
    "case",
    "of",
    "in",
    "yield",
    "await",
    "else",
    "do",
    "void",
    "delete",
    "new",
    "instanceof",
}


def _skip_quoted(text: str, start: int, end_chars: str) -> int:
    """The index of the first of ``end_chars`` from ``start`` that no backslash escapes."""
    index = start
    while text[index] not in end_chars:
        index += 2 if text[index] == "\\" else 1
    return index


def _skip_regex(text: str, start: int) -> int:
    """The index just past a regular expression literal that opens at ``start``."""
    index, in_class = start + 1, False
    while in_class or text[index] != "/":
        if text[index] == "\\":
            index += 1
        elif text[index] == "[":
            in_class = True
        elif text[index] == "]":
            in_class = False
        index += 1
    index += 1
    while index < len(text) and text[index].isalpha():
        index += 1
    return index


def js_tokens(text: str) -> Iterator[tuple[str, str, int]]:
    """The string literals (template parts included) and identifiers of a JS module, comments
    left out, as ``(kind, text, line)`` with kind ``string`` or ``identifier``."""
    newlines = [match.start() for match in re.finditer("\n", text)]
    index, previous, depth = 0, "", 0
    substitutions: list[int] = []  # the brace depth at each open ${ of a template
    while index < len(text):
        char = text[index]
        line = bisect.bisect_right(newlines, index) + 1
        if text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
        elif text.startswith("/*", index):
            index = text.index("*/", index) + 2
        elif char in "\"'":
            end = _skip_quoted(text, index + 1, char)
            yield "string", text[index + 1 : end], line
            index, previous = end + 1, "string"
        elif char == "`" or (char == "}" and substitutions and substitutions[-1] == depth):
            if char == "}":
                substitutions.pop()
            end = _skip_quoted(text, index + 1, "`$")
            while text[end] == "$" and not text.startswith("${", end):
                end = _skip_quoted(text, end + 1, "`$")
            yield "string", text[index + 1 : end], line
            if text[end] == "`":
                index = end + 1
            else:
                substitutions.append(depth)
                index = end + 2
            previous = "string"
        elif char == "/" and previous in _BEFORE_REGEX:
            index, previous = _skip_regex(text, index), "regex"
        elif match := _IDENTIFIER.match(text, index):
            yield "identifier", match[0], line
            index, previous = match.end(), match[0]
        else:
            depth += {"{": 1, "}": -1}.get(char, 0)
            index += 1
            previous = previous if char.isspace() else char


def js_names(path: Path) -> list[tuple[int, str]]:
    """The lines of a JS module that name a game, with the name or identifier."""
    return [
        (line, repr(token) if kind == "string" else token)
        for kind, token, line in js_tokens(path.read_text(encoding="utf-8"))
        if (token in GAME_NAMES if kind == "string" else identifier_names_a_game(token))
    ]


def page_names(path: Path) -> list[tuple[int, str]]:
    """The lines of a style sheet or HTML page whose words (comments aside) name a game."""
    text = re.sub(
        r"/\*.*?\*/|<!--.*?-->",
        lambda comment: "\n" * comment[0].count("\n"),
        path.read_text(encoding="utf-8"),
        flags=re.S,
    )
    return [
        (text.count("\n", 0, match.start()) + 1, match[0])
        for match in re.finditer(r"[A-Za-z][A-Za-z0-9-]*", text)
        if games_in(match[0].replace("-", "_"))
    ]


# -- the package -----------------------------------------------------------------------------


def owners(package: Path = PACKAGE) -> dict[str, frozenset[str]]:
    """The files that may name games, with the names each may use: the registry and the
    generated JS tables every name, a family's own modules its own."""
    allowed = dict.fromkeys(REGISTRY | GENERATED_JS, GAME_NAMES)
    for family in FAMILIES:
        allowed.update(dict.fromkeys(family_modules(family, package), family_games(family)))
    return allowed


def _games_shown(shown: str) -> frozenset[str]:
    """The games a reader's hit names (a quoted string constant, or an identifier)."""
    if shown[0] in "'\"":
        return frozenset({ast.literal_eval(shown)})
    return games_in(shown.replace("-", "_"))


def game_names_outside_owners(package: Path = PACKAGE) -> list[str]:
    """Every place in the package that names a game outside the files allowed to name it
    (:func:`owners`), as ``path:line: name``."""
    allowed = owners(package)
    readers = {".py": python_names, ".js": js_names, ".css": page_names, ".html": page_names}
    found = []
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package).as_posix()
        reader = readers.get(path.suffix)
        if reader is None or not path.is_file():
            continue
        own = allowed.get(relative, frozenset())
        found.extend(
            f"{relative}:{line}: {shown}"
            for line, shown in reader(path)
            if not _games_shown(shown) <= own
        )
    return found


def main(argv: list[str]) -> int:
    """Print every place that names a game outside its owners, then their count."""
    places = game_names_outside_owners(Path(argv[0]) if argv else PACKAGE)
    print(*places, sep="\n")
    print(f"{len(places)} places name a preset or a rule family outside their owners")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
