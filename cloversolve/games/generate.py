"""The front ends' generated files, written from the game registry.

``python -m cloversolve.games.generate`` writes them; with ``--check`` it writes nothing and
exits 1 naming every file that differs from what the registry gives (the test suite runs the
same check). The generated parts:

* ``cloversolve/web/presets.js``: the JS module's ``PRESETS`` table (the front-end presets'
  rule family and deal parameters), imported by ``cloversolve.js``;
* the preset list of the catalogue schema (``catalogues/catalogue.schema.json``: the
  presets a catalogue may be of, and the preset of grid layouts).

The viewer's preset list is read from the registry when it runs
(:data:`cloversolve.viewer.VIEWER_PRESETS`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..catalogue import SCHEMA_NAME, shipped_dir
from ..web import asset_path
from .registry import PRESETS, front_end_presets

#: The name of the generated JS module (beside ``cloversolve.js``).
JS_PRESETS_NAME = "presets.js"

_JS_HEADER = """\
// presets.js: the front-end presets of cloversolve.js, their rule family and deal parameters.
//
// Generated from the toolkit's game registry (cloversolve/games/registry.py) by
// `python -m cloversolve.games.generate`: do not edit it by hand.
"""

_LINE_LENGTH = 100


def _js_key(name: str) -> str:
    return name if name.isidentifier() else json.dumps(name)


def _js_entry(name: str, fields: dict[str, Any]) -> list[str]:
    """One table entry: on one line when it fits, else one field per line."""
    values = [f"{key}: {json.dumps(value)}" for key, value in fields.items()]
    line = f"  {_js_key(name)}: {{ {', '.join(values)} }},"
    if len(line) <= _LINE_LENGTH:
        return [line]
    return [f"  {_js_key(name)}: {{", *(f"    {value}," for value in values), "  },"]


def js_presets() -> str:
    """The text of ``presets.js``."""
    lines = [_JS_HEADER]
    lines.append("/** The front-end presets: rule family and deal parameters. */")
    lines.append("export const PRESETS = Object.freeze({")
    for name in front_end_presets():
        preset = PRESETS[name]
        fields = {
            "name": preset.name,
            "family": preset.family,
            "piles": preset.piles,
            "rows": preset.rows,
            "foundationReturn": preset.foundation_return,
        }
        lines.extend(_js_entry(name, fields))
    lines.append("});")
    return "\n".join(lines) + "\n"


def _preset_choice(names: Sequence[str]) -> dict[str, Any]:
    return {"const": names[0]} if len(names) == 1 else {"enum": list(names)}


def catalogue_schema(current: str) -> str:
    """The catalogue schema's text ``current`` with the registry's preset lists."""
    schema = json.loads(current)
    names = front_end_presets()
    grids = [name for name in names if PRESETS[name].rule_family.grid]
    schema["properties"]["preset"] = {"enum": list(names)}
    schema["$defs"]["grid_layout"]["properties"]["preset"] = _preset_choice(grids)
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def generated_files() -> dict[Path, str]:
    """Every generated file's path and the text the registry gives it."""
    schema = shipped_dir() / SCHEMA_NAME
    return {
        asset_path(JS_PRESETS_NAME): js_presets(),
        schema: catalogue_schema(schema.read_text(encoding="utf-8")),
    }


def stale_files() -> list[Path]:
    """The generated files whose text is not what the registry gives."""
    stale = []
    for path, text in generated_files().items():
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            stale.append(path)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """Write the generated files (``--check``: only say which are stale)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["--check"]):
        print(
            f"usage: python -m cloversolve.games.generate [--check], got {args!r}", file=sys.stderr
        )
        return 2
    stale = stale_files()
    if args:
        for path in stale:
            print(f"stale generated file: {path} (run python -m cloversolve.games.generate)")
        return 1 if stale else 0
    for path, text in generated_files().items():
        if path in stale:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
