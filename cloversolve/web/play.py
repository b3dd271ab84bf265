"""The reference play page: one self-contained HTML page to play a deal in the browser.

The page inlines ``cloversolve.js`` and the play script (as the viewer does,
:func:`cloversolve.web.viewer.self_contained_page`) and the preset's catalogue, cut to what
the page reads: each verified deal's number, difficulty and route. The script deals, checks
every move and gives hints with the module alone; the catalogue tells it which deals are
verified solvable, gives the route hints and the daily deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .viewer import check_viewer_preset, self_contained_page

#: The entry fields the page reads.
PAGE_ENTRY_FIELDS = ("number", "difficulty", "route")


def page_catalogue(catalogue: Mapping[str, Any]) -> dict[str, Any]:
    """``catalogue`` with only what the page reads (its entries' :data:`PAGE_ENTRY_FIELDS`)."""
    deals = [{key: entry[key] for key in PAGE_ENTRY_FIELDS} for entry in catalogue["deals"]]
    return {"format": catalogue["format"], "preset": catalogue["preset"], "deals": deals}


def play_page(
    preset: str,
    catalogue: Mapping[str, Any],
    *,
    number: int | None = None,
    date: str | None = None,
    difficulty: str = "normal",
) -> str:
    """The play page of deal ``number`` of ``preset``, or (``number`` None) of the daily deal
    of ``difficulty`` on ``date`` (None: the day the page is opened), as HTML text."""
    name = check_viewer_preset(preset)
    data = {
        "preset": name,
        "number": number,
        "date": date,
        "difficulty": difficulty,
        "catalogue": page_catalogue(catalogue),
    }
    what = f"deal {number}" if number is not None else f"daily {difficulty} deal"
    return self_contained_page("play", f"{name} \u00b7 {what}", data, ("viewer.css", "play.css"))
