"""The solution viewer: one self-contained HTML page that draws a deal and steps through a route.

The page inlines ``cloversolve.js`` (with the modules it imports: the generated ``presets.js``
and ``families.js``, and the rule families' modules, ``rules.js`` in each family's folder)
and the viewer script (no
network, no other files): the module replays the route in the browser, automatic moves
included, so what the page shows is what a front end using the module would show.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..catalogue.build import entry_problem
from ..catalogue.daily import lookup
from ..catalogue.files import CatalogueError, open_catalogue
from ..core.jsonio import dumps
from ..games.layout import Layout
from ..games.registry import find_preset, front_end_presets
from ..search.common import DEFAULT_MAX_MEMORY, Status
from ..solving.solver import solve
from . import MODULE_NAME, asset_text

#: The presets the viewer (and cloversolve.js) draws: the registry's front-end presets.
VIEWER_PRESETS = front_end_presets()

_EXPORT = re.compile(r"^export (?:async )?(?:function\*?|class|const|let) ([A-Za-z_$][\w$]*)", re.M)
_IMPORT_MODULE = f'import * as cs from "./{MODULE_NAME}";'
_IMPORT_SIBLING = re.compile(r'^import \{([\w$,\s]+)\} from "(\.\.?/[\w/.-]+\.js)";\n', re.M)
_DECLARATION = re.compile(
    r"^(?:export )?(?:async )?(?:function\*?|class|const|let|var) ([A-Za-z_$][\w$]*)", re.M
)
_RE_EXPORT = re.compile(r"^export \{ ([\w$, ]+) \};\n", re.M)


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
    max_nodes: int | None = None,
    time_limit: float | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
) -> RouteChoice:
    """The catalogue entry's route for a verified deal (once it replays to a win), otherwise
    the solver's route."""
    try:
        entry = lookup(open_catalogue(preset), number)
    except CatalogueError:
        entry = None
    if entry is not None and entry_problem(preset, entry) is None:
        return RouteChoice(tuple(entry["route"]), "catalogue", entry.get("difficulty"))
    result = solve(
        preset, number, max_nodes=max_nodes, time_limit=time_limit, max_memory=max_memory
    )
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


def _imported(name: str, specifier: str) -> str:
    """The path (from ``cloversolve/web/``) of the module that the module ``name`` imports
    as ``specifier`` (a relative path)."""
    importer = posixpath.join("web", name)  # (paths from the package's folder)
    imported = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
    return posixpath.relpath(imported, "web")


def _add_module(name: str, parts: dict[str, str]) -> None:
    """Add to ``parts`` the modules ``name`` (a path from ``cloversolve/web/``) imports (their
    own imports first), then ``name`` itself, each without its import lines (an import cycle
    stops at a module already on the way)."""
    parts[name] = ""
    text = asset_text(name)
    for _, specifier in _IMPORT_SIBLING.findall(text):
        file = _imported(name, specifier)
        if file not in parts:
            _add_module(file, parts)
    del parts[name]
    parts[name] = _IMPORT_SIBLING.sub("", text)


def _names(listed: str) -> set[str]:
    return {name.strip() for name in listed.split(",")} - {""}


def module_exports() -> list[str]:
    """The names ``cloversolve.js`` exports: those it re-exports from its siblings (in the
    order of its imports), then its own."""
    module = asset_text(MODULE_NAME)
    again = set().union(*(_names(names) for names in _RE_EXPORT.findall(module)))
    siblings = [_imported(MODULE_NAME, file) for _, file in _IMPORT_SIBLING.findall(module)]
    from_siblings = [
        name for file in siblings for name in _EXPORT.findall(asset_text(file)) if name in again
    ]
    return from_siblings + _EXPORT.findall(module)


def inlined_module() -> str:
    """``cloversolve.js`` as one script: the sibling modules it imports, and theirs, come first
    in place of the imports, and it no longer re-exports what they export."""
    parts: dict[str, str] = {}
    _add_module(MODULE_NAME, parts)
    body = parts.pop(MODULE_NAME)
    imported = set().union(
        *(_names(names) for names, _ in _IMPORT_SIBLING.findall(asset_text(MODULE_NAME)))
    )

    def drop_re_export(match: re.Match[str]) -> str:
        return "" if _names(match[1]) <= imported else match[0]

    return "\n".join([*parts.values(), _RE_EXPORT.sub(drop_re_export, body)])


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
