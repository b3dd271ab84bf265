"""The front ends' generated files, written from the game registry.

``python -m cloversolve.web.generate`` writes them; with ``--check`` it writes nothing and
exits 1 naming every file that differs from what the registry gives (the test suite runs the
same check). The generated parts:

* ``cloversolve/web/presets.js``: the JS module's ``PRESETS`` table (the front-end presets'
  rule family, deck, shape and rule switches), read through ``find-preset.js`` and
  re-exported by ``cloversolve.js``;
* ``cloversolve/web/presets.d.ts``: the TypeScript declaration of ``presets.js``, with the
  names of the front-end presets and of their families as types (``cloversolve.d.ts``, the
  module's declarations, imports them);
* ``cloversolve/web/families.js``: the table ``FAMILY_RULES`` of the rules module of each
  front-end rule family (``rules.js`` in the family's folder, and the export its plug-in
  names: ``js_rules``), which ``family-rules.js`` reads for the modules of ``cloversolve.js``
  that need a family's rules;
* the preset list of the catalogue schema (``catalogues/catalogue.schema.json``: the
  presets a catalogue may be of, and the preset of grid layouts).

The viewer's preset list is read from the registry when it runs
(:data:`cloversolve.web.viewer.VIEWER_PRESETS`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..catalogue.files import SCHEMA_NAME, shipped_dir
from ..families.plugin import family_plugin
from ..games import FAMILIES, PRESETS, Family, Preset, front_end_presets
from . import asset_path

#: The names of the generated JS modules (beside ``cloversolve.js``).
JS_PRESETS_NAME = "presets.js"
JS_FAMILIES_NAME = "families.js"
TS_PRESETS_NAME = "presets.d.ts"

_JS_GENERATED = """\
//
// Generated from the toolkit's game registry (cloversolve/games/registry.py) by
// `python -m cloversolve.web.generate`: do not edit it by hand.
"""
_JS_PRESETS_HEADER = (
    "// presets.js: the front-end presets of cloversolve.js, their rule family, deck, shape and\n"
    "// rule switches.\n" + _JS_GENERATED
)
_TS_PRESETS_HEADER = (
    "// presets.d.ts: the types of presets.js, with the names of the front-end presets of\n"
    "// cloversolve.js and of their rule families.\n" + _JS_GENERATED
)
_JS_FAMILIES_HEADER = (
    "// families.js: the rules module of each front-end rule family of cloversolve.js, read by\n"
    "// family-rules.js.\n" + _JS_GENERATED
)

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


def _js_preset(preset: Preset) -> dict[str, Any]:
    """A preset's entry in the JS module's table (``piles``: the cells of a grid)."""
    family = preset.rule_family
    builds = family.foundation_builds
    return {
        "name": preset.name,
        "family": preset.family,
        "piles": preset.piles,
        "rows": preset.rows,
        "foundationReturn": preset.foundation_return,
        "grid": family.grid,
        "fans": family.fans,
        "deckSize": preset.deck_size,
        "droppedRanks": sorted(preset.dropped_ranks),
        "foundationNames": list(preset.foundation_names),
        "foundationCards": [str(card) for card in preset.foundation_cards],
        "foundationBuilds": (
            dict(zip(family.foundation_names, builds, strict=True)) if builds else {}
        ),
    }


def js_presets() -> str:
    """The text of ``presets.js``."""
    lines = [_JS_PRESETS_HEADER]
    lines.append("/** The front-end presets: rule family, deck, shape and rule switches. */")
    lines.append("export const PRESETS = Object.freeze({")
    for name in front_end_presets():
        lines.extend(_js_entry(name, _js_preset(PRESETS[name])))
    lines.append("});")
    return "\n".join(lines) + "\n"


def _ts_union(name: str, doc: str, values: Sequence[str]) -> list[str]:
    """``export type NAME = "a" | "b";``, one value a line when it does not fit on one."""
    line = f"export type {name} = {' | '.join(json.dumps(value) for value in values)};"
    if len(line) > _LINE_LENGTH:
        line = "\n".join([f"export type {name} =", *(f"  | {json.dumps(v)}" for v in values)])
        line += ";"
    return [f"/** {doc} */", line]


def ts_presets() -> str:
    """The text of ``presets.d.ts``."""
    names = front_end_presets()
    grids = [name for name in names if PRESETS[name].rule_family.grid]
    lines = [_TS_PRESETS_HEADER, 'import type { PresetSpec } from "./cloversolve.js";', ""]
    lines += _ts_union("PresetName", "The front-end presets (the keys of PRESETS).", names)
    lines += _ts_union("GridPresetName", "The presets played on a grid of cells.", grids)
    families = [family.name for family in front_end_families()]
    lines += _ts_union("FamilyName", "The rule families of the front-end presets.", families)
    lines.append("")
    lines.append("/** The front-end presets: rule family, deck, shape and rule switches. */")
    lines.append("export const PRESETS: { readonly [P in PresetName]: PresetSpec<P> };")
    return "\n".join(lines) + "\n"


def front_end_families() -> tuple[Family, ...]:
    """The rule families of the front-end presets, in registry order."""
    names = {PRESETS[name].family for name in front_end_presets()}
    return tuple(family for family in FAMILIES.values() if family.name in names)


def js_rules_module(family: Family) -> str:
    """The path from ``families.js`` to the family's JS rules module, ``rules.js`` in the
    folder of its package (``cloversolve/families/<family>/``)."""
    folder = family.module.removeprefix("cloversolve.").replace(".", "/")
    return f"../{folder}/rules.js"


def js_families() -> str:
    """The text of ``families.js``: each front-end family's rules module, imported."""
    lines = [_JS_FAMILIES_HEADER]
    entries = []
    for family in front_end_families():
        export = family_plugin(family.name).js_rules
        if export is None:
            raise ValueError(f"family {family.name!r} has front-end presets but no JS rules")
        lines.append(f'import {{ {export} }} from "{js_rules_module(family)}";')
        entries.append(f"{_js_key(family.name)}: {export}")
    lines.append("")
    lines.append("/** The rules module of each front-end rule family, by family name. */")
    table = f"export const FAMILY_RULES = Object.freeze({{ {', '.join(entries)} }});"
    if len(table) > _LINE_LENGTH:
        table = "\n".join(
            ["export const FAMILY_RULES = Object.freeze({", *(f"  {e}," for e in entries), "});"]
        )
    lines.append(table)
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
        asset_path(TS_PRESETS_NAME): ts_presets(),
        asset_path(JS_FAMILIES_NAME): js_families(),
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
        print(f"usage: python -m cloversolve.web.generate [--check], got {args!r}", file=sys.stderr)
        return 2
    stale = stale_files()
    if args:
        for path in stale:
            print(f"stale generated file: {path} (run python -m cloversolve.web.generate)")
        return 1 if stale else 0
    for path, text in generated_files().items():
        if path in stale:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
