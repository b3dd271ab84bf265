"""The solution viewer: one self-contained HTML page that draws a deal and steps through a route.

The page inlines ``cloversolve.js`` (with every module it imports, directly or not: its parts,
the generated ``presets.js`` and ``families.js``, and the rule families' modules) and the
viewer script (no network, no other files): the module replays the route in the browser,
automatic moves included, so what the page shows is what a front end using the module would
show.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalogue.build import entry_problem
from ..catalogue.daily import lookup
from ..catalogue.files import CatalogueError, open_catalogue
from ..core.jsonio import dumps
from ..core.verdicts import Status
from ..games.layout import Layout
from ..games.registry import find_preset, front_end_presets
from ..runs.output import check_replaceable_output
from ..search.common import DEFAULT_LIMITS, Limits
from ..solving.solver import solve
from . import MODULE_NAME, asset_text, module_path

#: The presets the viewer (and cloversolve.js) draws: the registry's front-end presets.
VIEWER_PRESETS = front_end_presets()

_EXPORT = re.compile(r"^export (?:async )?(?:function\*?|class|const|let) ([A-Za-z_$][\w$]*)", re.M)
_IMPORT_MODULE = f'import * as cs from "./{MODULE_NAME}";'
# An import of named bindings, or a re-export of them, from a module given by relative path.
_FROM_MODULE = re.compile(r'^(import|export) \{([\w$,\s]+)\} from "(\.\.?/[\w./-]+\.js)";\n', re.M)
_DECLARATION = re.compile(
    r"^(?:export )?(?:async )?(?:function\*?|class|const|let|var) ([A-Za-z_$][\w$]*)", re.M
)


#: What every page the toolkit writes carries near its start (``view``: "cloversolve view",
#: ``play``: "cloversolve play"), by which a page may replace one written before.
PAGE_MARKER = b'<meta name="generator" content="cloversolve '


def is_toolkit_page(start: bytes) -> bool:
    """Whether ``start``, the first bytes of a file, is a page the toolkit wrote: an HTML
    document carrying :data:`PAGE_MARKER` in its head."""
    return start.lstrip().lower().startswith(b"<!doctype html>") and PAGE_MARKER in start


def check_page_output(path: str | os.PathLike[str], what: str = "page") -> Path:
    """The page file to write for ``path``, checked as any output is, and refused, quoting
    it, when it exists and is neither empty nor a page the toolkit wrote: a page replaces
    only a page, never a catalogue, a script or someone's notes."""
    return check_replaceable_output(path, what, "a page cloversolve wrote", is_toolkit_page)


class ViewerError(ValueError):
    """A deal the viewer cannot show: a preset it does not draw, or no route to show."""


class NoRoute(ViewerError):
    """No route to show: the solver proved the deal unsolvable or reached a limit first
    (``status``)."""

    def __init__(self, message: str, status: Status) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class RouteChoice:
    """The route a page shows and where it came from (``given``, ``catalogue``, ``solver``)."""

    route: tuple[str, ...]
    source: str
    difficulty: str | None = None


def check_viewer_preset(preset: str) -> str:
    """The preset's name if the viewer draws it, else a :class:`ViewerError`."""
    spec = find_preset(preset)
    if spec.name not in VIEWER_PRESETS:
        raise ViewerError(
            f"the viewer draws the front-end presets ({', '.join(VIEWER_PRESETS)}), not {preset!r}"
        )
    return spec.name


def default_route(
    preset: str,
    number: int,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> RouteChoice:
    """The catalogue entry's route for a deal the preset's catalogue lists, otherwise the
    solver's route within ``limits``. A catalogue that cannot be found or read, or an entry
    whose route does not win, is a :class:`CatalogueError` (as ``lookup`` and ``play`` say),
    never passed over."""
    entry = lookup(open_catalogue(preset), number)
    if entry is not None:
        problem = entry_problem(preset, entry)
        if problem is not None:
            raise CatalogueError(f"{preset} deal {number} is not verified: {problem}")
        return RouteChoice(tuple(entry["route"]), "catalogue", entry.get("difficulty"))
    result = solve(preset, number, limits=limits)
    if result.status is Status.UNSOLVABLE:
        raise NoRoute(
            f"{preset} deal {number} is unsolvable: there is no route to show", result.status
        )
    if result.status is not Status.SOLVED:
        raise NoRoute(
            f"the solver reached its limit on {preset} deal {number} before finding a route; "
            "give --route or --route-file, or raise --max-nodes / --time-limit",
            result.status,
        )
    return RouteChoice(tuple(result.route_strings), "solver")


def _add_module(path: Path, parts: dict[Path, str], above: tuple[Path, ...] = ()) -> None:
    """Add to ``parts`` the modules that the module at ``path`` imports or re-exports from
    (their own first), then that module itself, each without those import and re-export lines.
    ``above``: the modules whose imports lead here. An import cycle is refused (the modules'
    order would then decide what runs first)."""
    text = path.read_text(encoding="utf-8")
    for _, _, file in _FROM_MODULE.findall(text):
        target = (path.parent / file).resolve()
        if target in (*above, path):
            raise RuntimeError(f"an import cycle: {path.name} imports {target.name}")
        if target not in parts:
            _add_module(target, parts, (*above, path))
    parts[path] = _FROM_MODULE.sub("", text)


def _names(listed: str) -> list[str]:
    return [name.strip() for name in listed.split(",") if name.strip()]


def module_exports() -> list[str]:
    """The names ``cloversolve.js`` exports: those it re-exports from the modules beside it
    (in the order of its lines), then its own."""
    module = asset_text(MODULE_NAME)
    again = [
        name
        for kind, names, _ in _FROM_MODULE.findall(module)
        if kind == "export"
        for name in _names(names)
    ]
    return again + _EXPORT.findall(module)


def inlined_module() -> str:
    """``cloversolve.js`` as one script: the modules it imports, directly or not, each once
    and before the modules that import it, without their import and re-export lines."""
    parts: dict[Path, str] = {}
    _add_module(module_path().resolve(), parts)
    return "\n".join(parts.values())


def inline_script(page_script: str = "viewer.js") -> str:
    """``cloversolve.js`` (:func:`inlined_module`) followed by a page's script (``viewer.js``,
    ``play.js``), as one module script: the page's import of the module becomes an object of
    its exports."""
    module = inlined_module()
    viewer = asset_text(page_script)
    if _IMPORT_MODULE not in viewer:
        raise RuntimeError(f"{page_script} does not import the module as expected")
    namespace = f"const cs = Object.freeze({{ {', '.join(module_exports())} }});"
    script = module + "\n" + viewer.replace(_IMPORT_MODULE, namespace)
    if "</script" in script.lower():
        raise RuntimeError("a script contains '</script' and cannot be inlined")
    declared = _DECLARATION.findall(script)
    twice = sorted({name for name in declared if declared.count(name) > 1})
    if twice:
        raise RuntimeError(f"the inlined scripts declare {', '.join(twice)} more than once")
    return script


def page(layout: Layout, choice: RouteChoice) -> str:
    """The viewer page for ``layout`` and the route of ``choice``, as HTML text."""
    preset = check_viewer_preset(layout.preset)
    data: dict[str, Any] = {
        "preset": preset,
        "number": layout.number,
        "layout": {**layout.to_json(), "number": None},
        "route": list(choice.route),
        "source": choice.source,
        "difficulty": choice.difficulty,
    }
    name = "a hand-made position" if layout.number is None else f"deal {layout.number}"
    return self_contained_page("viewer", f"{preset} \u00b7 {name}", data)


def self_contained_page(
    name: str, title: str, data: Mapping[str, Any], styles: Sequence[str] = ("viewer.css",)
) -> str:
    """The page ``NAME.html`` filled in: ``styles`` and the script ``NAME.js`` with the module
    (:func:`inline_script`) inlined, ``data`` as its JSON data element, and ``title``."""
    # JSON inside <script>: "<" escaped so no "</script>" or "<!--" can end the element.
    payload = dumps(data).decode().replace("<", "\\u003c")
    template = asset_text(f"{name}.html")
    parts = {
        "__STYLE__": "\n".join(asset_text(style) for style in styles),
        "__DATA__": payload,
        "__SCRIPT__": inline_script(f"{name}.js"),
        "__TITLE__": html.escape(title),
    }
    return re.sub("|".join(parts), lambda match: parts[match[0]], template)
