"""Layouts: a position as plain data, and RULES.md's layout JSON (a front-end contract).

Pile games: ``{"preset", "number", "piles": [[card, ...], ...], "foundations": {name: [...]}}``,
piles and foundations listed bottom to top. ``fifteen``: ``{"preset", "number", "cells":
[16 cards or null], "stock": [cards, next drawn first]}``. ``number`` is omitted or null for a
hand-made position; it is read as a JSON integer or as decimal text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.cards import Card, CardParseError, card_problem, full_deck
from ..core.deal_numbers import DealNumberError, check_deal_number
from ..core.inputs import quoted
from ..core.jsonio import shown
from ..core.notation import GRID_CELLS
from .records import Preset, UnknownPresetError
from .registry import find_preset

#: The keys of layout JSON (RULES.md, "Layout JSON"); any other key is refused.
_PILE_KEYS = ("preset", "number", "piles", "foundations")
_GRID_KEYS = ("preset", "number", "cells", "stock")


#: The stable codes of :class:`LayoutError` (the JS module's ``LayoutError.code`` has
#: the same ones), each with what it means.
LAYOUT_ERROR_CODES: dict[str, str] = {
    "not-json": "layout text that is not JSON",
    "not-an-object": "the layout is not a JSON object",
    "unknown-preset": "the layout names no known preset",
    "wrong-preset": "the layout is for another preset than the one asked for",
    "unknown-key": "a key that layout JSON does not have",
    "bad-field": "piles, foundations, cells or stock of the wrong type",
    "not-a-card": "a card that is not a card text such as 'TD'",
    "bad-number": "a number that is not a whole number (nor null)",
    "number-out-of-range": "a number outside the deal numbers 1 .. 10**20-1",
    "pile-count": "the wrong number of piles",
    "cell-count": "the wrong number of grid cells",
    "unknown-foundation": "a foundation the preset does not have",
    "duplicate-card": "a card that appears twice",
    "foreign-card": "a card that is not in the preset's deck",
    "missing-card": "a card of the deck that the layout lacks (pile games)",
    "foundation-order": "a foundation not built in the order play builds it",
    "empty-cell-with-stock": "an empty grid cell while the stock holds cards",
    "removed-cards": "removed cards that do not split into groups the rules remove",
    "not-from-deal": "a numbered layout that no legal moves lead to from its deal",
    "invalid-layout": "any other problem",
}


class LayoutError(ValueError):
    """A layout that is malformed or is not a legal position of its preset; ``code`` names
    the problem stably (a key of :data:`~cloversolve.games.layout.LAYOUT_ERROR_CODES`)."""

    def __init__(self, message: str, code: str = "invalid-layout") -> None:
        super().__init__(message)
        if code not in LAYOUT_ERROR_CODES:
            raise ValueError(f"unknown layout error code {code!r}")
        self.code = code

    def __reduce__(self) -> tuple[type[LayoutError], tuple[str, str]]:
        return (type(self), (str(self), self.code))


@dataclass(frozen=True)
class Layout:
    """A position of a preset as plain data (cards bottom to top in every pile)."""

    preset: str
    number: int | None = None
    piles: tuple[tuple[Card, ...], ...] = ()
    foundations: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    cells: tuple[Card | None, ...] = ()
    stock: tuple[Card, ...] = ()

    @property
    def foundation_map(self) -> dict[str, tuple[Card, ...]]:
        return dict(self.foundations)

    @property
    def is_grid(self) -> bool:
        return find_preset(self.preset).rule_family.grid

    def to_json(self) -> dict[str, Any]:
        """The layout as RULES.md's JSON object (card strings, key order fixed; written with
        :func:`!cloversolve.core.jsonio.dumps`, a number past 2**53 - 1 becomes decimal text)."""
        data: dict[str, Any] = {"preset": self.preset}
        if self.number is not None:
            data["number"] = self.number
        if self.is_grid:
            data["cells"] = [None if c is None else str(c) for c in self.cells]
            data["stock"] = [str(c) for c in self.stock]
        else:
            data["piles"] = [[str(c) for c in pile] for pile in self.piles]
            data["foundations"] = {
                name: [str(c) for c in cards] for name, cards in self.foundations
            }
        return data

    @classmethod
    def from_json(cls, data: Any, preset: str | None = None) -> Layout:
        """Parse and validate layout JSON; raise :class:`LayoutError` saying what is wrong."""
        if not isinstance(data, Mapping):
            raise LayoutError(
                f"layout must be a JSON object, got {type(data).__name__}", "not-an-object"
            )
        name = data.get("preset", preset)
        if preset is not None and name != preset:
            raise LayoutError(
                f"layout is for preset {_json_word(name)}, not {preset!r}", "wrong-preset"
            )
        try:
            spec = find_preset(name)
        except UnknownPresetError as error:
            raise LayoutError(str(error), "unknown-preset") from None
        keys = _GRID_KEYS if spec.rule_family.grid else _PILE_KEYS
        unknown = sorted(str(key) for key in data if key not in keys)
        if unknown:
            raise LayoutError(
                f"unknown layout key {quoted(unknown[0])} (a {spec.name} layout "
                f"has {', '.join(keys)})",
                "unknown-key",
            )
        number = _number(data.get("number"))
        try:
            if spec.rule_family.grid:
                layout = cls._grid_from_json(spec, number, data)
            else:
                layout = cls._piles_from_json(spec, number, data)
        except CardParseError as error:
            raise LayoutError(str(error), "not-a-card") from None
        layout.validate()
        return layout

    @classmethod
    def _piles_from_json(cls, spec: Preset, number: Any, data: Mapping) -> Layout:
        piles = data.get("piles")
        if not isinstance(piles, list) or not all(isinstance(p, list) for p in piles):
            raise LayoutError("layout 'piles' must be a list of lists of cards", "bad-field")
        foundations = data.get("foundations", {})
        if not isinstance(foundations, Mapping):
            raise LayoutError("layout 'foundations' must be an object of card lists", "bad-field")
        unknown = [name for name in foundations if name not in spec.foundation_names]
        found = []
        for name in (*spec.foundation_names, *unknown):  # validate() names an unknown one
            cards = foundations.get(name, [])
            if not isinstance(cards, list):
                raise LayoutError(f"foundation {name!r} must be a list of cards", "bad-field")
            found.append((name, tuple(_card(c) for c in cards)))
        return cls(
            spec.name,
            number,
            piles=tuple(tuple(_card(c) for c in pile) for pile in piles),
            foundations=tuple(found),
        )

    @classmethod
    def _grid_from_json(cls, spec: Preset, number: Any, data: Mapping) -> Layout:
        cells, stock = data.get("cells"), data.get("stock", [])
        if not isinstance(cells, list) or not isinstance(stock, list):
            raise LayoutError("layout 'cells' and 'stock' must be lists", "bad-field")
        return cls(
            spec.name,
            number,
            cells=tuple(None if c is None else _card(c) for c in cells),
            stock=tuple(_card(c) for c in stock),
        )

    def all_cards(self) -> list[Card]:
        """Every card the layout shows, wherever it lies."""
        cards = [c for c in self.cells if c is not None] + list(self.stock)
        for pile in self.piles:
            cards.extend(pile)
        for _, foundation in self.foundations:
            cards.extend(foundation)
        return cards

    def validate(self) -> None:
        """Check what the preset's record says about every layout of it; raise
        :class:`LayoutError` naming the first problem.

        Checked: the preset exists; every field has its type (sequences of :class:`Card`
        values, ``None`` only in grid cells); the pile count (the 16 cells of ``fifteen``) and
        the foundation names; every card is a card of the preset's deck (no dropped rank) and
        appears once; in pile games every card of the deck is present (in ``fifteen`` the
        missing ones are the removed ones). The rule family's own conditions (foundation order,
        ...) are checked by its reference engine: see
        :func:`!cloversolve.rules.layout_check.check_layout`, the check every entry point runs.
        """
        try:
            spec = find_preset(self.preset)
        except UnknownPresetError as error:
            raise LayoutError(str(error), "unknown-preset") from None
        if self.number is not None and (
            not isinstance(self.number, int) or isinstance(self.number, bool)
        ):
            raise LayoutError(
                f"layout number must be an integer or null, got {_json_word(self.number)}",
                "bad-number",
            )
        if spec.rule_family.grid:
            self._check_grid_fields()
        else:
            self._check_pile_fields(spec)
        deck = full_deck(without_ranks=spec.dropped_ranks)
        counts = Counter(self.all_cards())
        duplicates = sorted(str(c) for c, n in counts.items() if n > 1)
        if duplicates:
            raise LayoutError(
                f"duplicate card {duplicates[0]} in {self.preset} layout", "duplicate-card"
            )
        foreign = sorted(str(c) for c in counts if c not in deck)
        if foreign:
            raise LayoutError(f"card {foreign[0]} is not in the {self.preset} deck", "foreign-card")
        if spec.rule_family.grid:
            return
        missing = [str(c) for c in deck if c not in counts]
        if missing:
            raise LayoutError(
                f"card {missing[0]} is missing from the {self.preset} layout", "missing-card"
            )

    def _check_pile_fields(self, spec: Preset) -> None:
        if _sequence(self.cells, "cells") or _sequence(self.stock, "stock"):
            raise LayoutError(
                f"a {self.preset} layout has piles, not grid cells or a stock", "bad-field"
            )
        piles = _sequence(self.piles, "piles")
        if len(piles) != spec.piles:
            raise LayoutError(
                f"a {self.preset} layout needs {spec.piles} piles, got {len(piles)}", "pile-count"
            )
        for number, pile in enumerate(piles, start=1):
            _cards(pile, f"pile {number}")
        names = []
        for entry in _sequence(self.foundations, "foundations"):
            if not isinstance(entry, tuple | list) or len(entry) != 2:
                raise LayoutError(
                    f"a foundation must be a (name, cards) pair, got {entry!r}", "bad-field"
                )
            name, cards = entry
            if name not in spec.foundation_names:
                raise LayoutError(
                    f"unknown foundation {name!r} for {spec.name} "
                    f"(expected {', '.join(spec.foundation_names)})",
                    "unknown-foundation",
                )
            if name in names:
                raise LayoutError(f"foundation {name!r} is listed twice", "bad-field")
            names.append(name)
            _cards(cards, f"foundation {name}")

    def _check_grid_fields(self) -> None:
        if _sequence(self.piles, "piles") or _sequence(self.foundations, "foundations"):
            raise LayoutError(
                f"a {self.preset} layout has grid cells and a stock, not piles", "bad-field"
            )
        cells = _sequence(self.cells, "cells")
        if len(cells) != GRID_CELLS:
            raise LayoutError(
                f"a {self.preset} layout needs {GRID_CELLS} cells, got {len(cells)}", "cell-count"
            )
        for number, cell in enumerate(cells, start=1):
            if cell is not None and (problem := card_problem(cell)) is not None:
                raise LayoutError(f"cell {number}: {problem}", "not-a-card")
        _cards(self.stock, "the stock")


def _sequence(value: object, what: str) -> tuple | list:
    """``value`` if it is a tuple or list, else a :class:`LayoutError` naming ``what``."""
    if not isinstance(value, tuple | list):
        raise LayoutError(f"layout {what} must be a tuple or list, got {value!r}", "bad-field")
    return value


def _cards(value: object, what: str) -> None:
    """Check that ``value`` is a tuple or list of valid cards."""
    for card in _sequence(value, what):
        problem = card_problem(card)
        if problem is not None:
            raise LayoutError(f"{what}: {problem}", "not-a-card")


def _number(value: Any) -> Any:
    """A layout's ``number`` as read: a deal number's decimal text (the JSON form of one past
    2**53 - 1) as an int; anything else as it is, for :func:`check_layout` to judge."""
    if not isinstance(value, str):
        return value
    try:
        return check_deal_number(value)
    except DealNumberError as error:
        digits = value.strip().removeprefix("-")
        code = "number-out-of-range" if digits.isascii() and digits.isdigit() else "bad-number"
        raise LayoutError(f"{error} in the layout", code) from None


def _card(text: Any) -> Card:
    if not isinstance(text, str):
        raise LayoutError(f"not a card: {shown(text)}", "not-a-card")  # (a JSON value: true, ...)
    return Card.parse(text)


def _json_word(value: object) -> str:
    """A value read from layout JSON as a message shows it: text quoted as Python quotes it,
    anything else as JSON (``null``, ``true``, ``[1, 2]``)."""
    return quoted(value) if isinstance(value, str) else shown(value)
