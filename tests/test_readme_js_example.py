"""The JavaScript example of the front-ends page (``docs/front-ends.md``), run by node as the
page writes it (the module installed as ``npm install path/to/cloversolve/web`` installs it),
gives the values its comments state; and each stable ``code`` of an illegal move that the page
names is the one its move gets."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from external_tools import node

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "cloversolve" / "web"
#: The JS package: the folder of its ``package.json`` (its modules are in ``web/`` and in the
#: families' folders).
JS_PACKAGE = ROOT / "cloversolve"


def front_ends_page() -> str:
    return (ROOT / "docs" / "front-ends.md").read_text(encoding="utf-8")


def js_example(text: str) -> list[tuple[str, str]]:
    """The page's ``js`` block as (statement, comment) pairs: a line's ``//`` comment and the
    comment-only lines after it belong to its statement."""
    (block,) = re.findall(r"^```js\n(.*?)^```", text, flags=re.S | re.M)
    statements: list[tuple[str, str]] = []
    for line in block.splitlines():
        code, _, comment = line.partition("//")
        if not code.strip() and statements:
            statement, said = statements[-1]
            statements[-1] = (statement, f"{said} {comment.strip()}".strip())
        elif code.strip():
            statements.append((code.strip(), comment.strip()))
    return statements


def is_shown(statement: str) -> bool:
    """An expression statement, whose value the example shows in its comment."""
    return not statement.startswith(("import ", "const ", "let "))


def script(statements: list[tuple[str, str]]) -> str:
    """The example as written, each shown value collected and printed as JSON (BigInts as
    text)."""
    lines = ["const shown = [];"]
    for statement, _ in statements:
        shown = is_shown(statement)
        lines.append(f"shown.push({statement.rstrip(';')});" if shown else statement)
    replacer = '(_, v) => (typeof v === "bigint" ? v.toString() : v)'
    lines.append(f"console.log(JSON.stringify(shown, {replacer}));")
    return "\n".join(lines) + "\n"


def check_claim(value: Any, comment: str) -> None:
    """Assert what ``comment`` says of ``value``: a list (``...`` for elided items), an object
    literal (``...`` for other fields), ``N things`` (a length), a JSON string or number, or a
    ``field: "value"`` pair."""
    if comment.startswith("["):
        listed = comment[: comment.index("]") + 1]
        head, _, tail = listed.partition("...")
        first = json.loads(head.rstrip(", ") + "]") if tail else json.loads(listed)
        last = json.loads("[" + tail.lstrip(", ")) if tail else []
        assert value[: len(first)] == first, (value, comment)
        assert not last or value[-len(last) :] == last, (value, comment)
        assert tail or value == first, (value, comment)
    elif comment.startswith("{"):
        literal = comment[: comment.rindex("}") + 1].replace(", ...", "")
        quoted = re.sub(r'("[^"]*")|(\w+)(?=:)', lambda m: m[1] or f'"{m[2]}"', literal)
        fields = json.loads(quoted)
        assert {key: value.get(key) for key in fields} == fields, (value, comment)
    elif match := re.match(r"(\d+) [a-z]", comment):
        assert len(value) == int(match[1]), (value, comment)
    elif match := re.match(r'("[^"]*"|\d+)(\s|$)', comment):
        assert value == json.loads(match[1]), (value, comment)
    else:
        match = re.search(r'(\w+): ("[^"]*")', comment)
        assert match, f"no value understood in the comment {comment!r}"
        assert value[match[1]] == json.loads(match[2]), (value, comment)


def test_the_example_is_read_whole() -> None:
    statements = js_example(front_ends_page())
    assert statements[0][0].startswith("import {") and statements[0][0].endswith('"cloversolve";')
    shown = [(statement, said) for statement, said in statements if is_shown(statement)]
    assert len(shown) >= 8 and all(said for _, said in shown)
    assert any("number:" in said for _, said in shown)  # a continued comment is joined


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[tuple[str, str]], list]:
    """The example's statements and the values node shows for its expression statements."""
    program = node()
    folder = tmp_path_factory.mktemp("js")
    (folder / "node_modules").mkdir()
    (folder / "node_modules" / "cloversolve").symlink_to(JS_PACKAGE, target_is_directory=True)
    statements = js_example(front_ends_page())
    (folder / "example.mjs").write_text(script(statements), encoding="utf-8")
    done = subprocess.run(
        [program, "example.mjs"], cwd=folder, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return statements, json.loads(done.stdout)


def test_the_example_gives_the_values_its_comments_state(
    example: tuple[list[tuple[str, str]], list],
) -> None:
    statements, values = example
    shown = [(statement, said) for statement, said in statements if is_shown(statement)]
    assert len(values) == len(shown)
    for (statement, said), value in zip(shown, values, strict=True):
        try:
            check_claim(value, said)
        except AssertionError as error:
            raise AssertionError(f"{statement} gives {value!r}, not {said!r}") from error


def test_a_claim_the_value_breaks_fails() -> None:
    for value, said in [
        (["JD", "QC"], '["JD", "QD"]'),
        (["3>8", "4>5", "FD>11"], '["3>8", "4>5", ..., "FD>12"], in order'),
        ({"status": "illegal", "illegalAt": 3}, '{status: "illegal", illegalAt: 2, ...}'),
        ([1, 2, 3], "4 positions"),
        ("won", '"not-won" ("won" or "not-won")'),
        (347, "348"),
        ({"number": "1"}, 'numbers: text; number: "2" (JSON-safe)'),
        (1, "some prose"),
    ]:
        with pytest.raises(AssertionError):
            check_claim(value, said)


#: An illegal move (preset, a route from deal 1 whose last move is illegal) for each stable
#: ``code`` the page names.
CODE_ROUTES = {
    "foundation-refuses": ("thirteen", "1>F"),
    "target-refuses": ("cloverleaf", "1>2"),
    "empty-target": ("thirteen", "4>1 4>F 12>F 7>F 3>11 3>F 12>3 12>7 12>F 1>12"),
    "group-total": ("fifteen", "1+2"),
}

CODE_SCRIPT = """
import { replay } from %(module)s;
console.log(JSON.stringify(%(routes)s.map(([preset, route]) => {
  const x = replay(preset, 1, route);
  return [x.status, x.illegalAt, x.code];
})));
"""


def named_codes(text: str) -> list[str]:
    """The codes of the page's sentence "a stable `code` (`...`, ...)"."""
    match = re.search(r"a stable `code` \(([^)]*)\)", " ".join(text.split()))
    assert match, "the page no longer names the stable codes"
    return re.findall(r"`([a-z-]+)`", match[1])


def test_each_named_code_is_given_by_its_illegal_move(tmp_path: Path) -> None:
    codes = named_codes(front_ends_page())
    assert codes and set(codes) <= set(CODE_ROUTES), codes
    routes = [list(CODE_ROUTES[code]) for code in codes]
    file = tmp_path / "codes.mjs"
    file.write_text(
        CODE_SCRIPT
        % {"module": json.dumps((WEB / "cloversolve.js").as_uri()), "routes": json.dumps(routes)},
        encoding="utf-8",
    )
    done = subprocess.run([node(), str(file)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got == [["illegal", len(CODE_ROUTES[code][1].split()), code] for code in codes]
