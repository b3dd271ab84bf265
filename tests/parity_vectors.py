"""Test vectors of the JS module's parity with the toolkit: layouts and move texts, each with
the toolkit's verdict, generated from real deals and from positions reached along catalogue
routes (seeded, so every run writes the same vectors)."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from cloversolve.core.notation import Group, MoveParseError, parse_move, parse_route
from cloversolve.games.dealing import deal
from cloversolve.games.layout import Layout, LayoutError
from cloversolve.rules import Position, position_from_layout
from cloversolve.rules.layout_check import check_layout
from cloversolve.solving.replay import load_layout
from cloversolve.web.viewer import VIEWER_PRESETS

ROOT = Path(__file__).resolve().parent.parent
FRONT_END = tuple(VIEWER_PRESETS)
#: Deal numbers of the base layouts: small, the last Microsoft-style deal, big ones.
BASE_NUMBERS = (1, 2, 617, 31999, 32000, 2**53 + 3, 10**20 - 1)
#: Values that are not cards, in the places cards go.
NOT_CARDS: tuple[Any, ...] = (
    "10H", "ah", "AX", "", "AHH", "A", 5, None, True, 1.5, ["AH"], "A\u2665", "\u00c5H", " AH",
)  # fmt: skip
#: Values of ``number`` that are not whole numbers, or not deal numbers.
ODD_NUMBERS: tuple[Any, ...] = ("1", True, False, 1.5, [1], "abc", -1, 0, 10**20, "", 2.5)
SAFE = 2**53 - 1

Data = dict[str, Any]


def layout_verdict(preset: str | None, data: Any) -> dict[str, str | None] | None:
    """``None`` if the toolkit accepts ``data`` as a layout of ``preset`` (the check of
    ``solve``, ``hint`` and ``replay``; any preset when ``None``), else the error's code and
    message (``None`` where the languages' words differ: the type names of non-objects, the
    suggestions for an unknown preset, JSON parsers' messages)."""
    try:
        if is_layout_text(data) and preset is not None:
            load_layout(preset, data)
        else:
            check_layout(Layout.from_json(data, preset=preset))
    except LayoutError as error:
        same = isinstance(data, dict) and error.code != "unknown-preset"
        return {"code": error.code, "message": js_wording(str(error)) if same else None}
    return None


def is_layout_text(data: Any) -> bool:
    """Whether ``replay`` reads ``data`` as layout JSON text (else as a deal number)."""
    return isinstance(data, str) and data.lstrip().startswith("{")


_QUOTED_OR_WORD = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\b(None|True|False)\b")
_JS_WORDS = {"None": "null", "True": "true", "False": "false"}


def js_wording(message: str) -> str:
    """A toolkit message as the JS module words it: null, true and false outside quotes."""
    return _QUOTED_OR_WORD.sub(lambda m: _JS_WORDS.get(m[1], m[0]) if m[1] else m[0], message)


@cache
def base_layouts(preset: str) -> tuple[Data, ...]:
    """Layout JSON of real deals and of positions partway along catalogue routes (numbered
    and hand-made), for ``preset``."""
    found = [deal(preset, n).to_json() for n in BASE_NUMBERS]
    catalogue = json.loads((ROOT / "catalogues" / f"{preset}.json").read_text(encoding="utf-8"))
    for entry in catalogue["deals"][:: max(1, len(catalogue["deals"]) // 8)][:8]:
        route = parse_route(entry["route"])
        for fraction in (0.25, 0.5, 0.9):
            position = position_from_layout(deal(preset, entry["number"]))
            for move in route[: int(len(route) * fraction)]:
                position.push(move)
            found.append(position.to_layout(preset, entry["number"]).to_json())
    found.append({k: v for k, v in found[-1].items() if k != "number"})
    return tuple(json.loads(json.dumps(data)) for data in found)  # (plain str keys, as JSON has)


def _places(data: Data) -> list[tuple[list, int]]:
    """Every (list, index) holding a card of a layout (cells: non-empty ones only)."""
    if "cells" in data:
        cells = [(data["cells"], i) for i, c in enumerate(data["cells"]) if c is not None]
        return cells + [(data["stock"], i) for i in range(len(data["stock"]))]
    places = [(pile, i) for pile in data["piles"] for i in range(len(pile))]
    return places + [(f, i) for f in data["foundations"].values() for i in range(len(f))]


def _swap_cards(data: Data, rng: random.Random) -> None:
    places = _places(data)
    (a, i), (b, j) = rng.sample(places, 2)
    a[i], b[j] = b[j], a[i]


def _swap_bottoms(data: Data, rng: random.Random) -> None:
    lists = [p for p in data.get("piles", [data.get("cells", [])]) if p]
    if "cells" in data:
        cells = data["cells"]
        i, j = rng.sample(range(len(cells)), 2)
        cells[i], cells[j] = cells[j], cells[i]
    elif len(lists) >= 2:
        a, b = rng.sample(lists, 2)
        a[0], b[0] = b[0], a[0]


def _relabel(data: Data, rng: random.Random) -> None:
    number = data.get("number") or 1
    data["number"] = rng.choice(
        [number + 1, max(1, number - 1), rng.randint(1, 40000), rng.randint(SAFE, 10**20 - 1)]
    )


def _odd_number(data: Data, rng: random.Random) -> None:
    choice = rng.randrange(len(ODD_NUMBERS) + 2)
    if choice == len(ODD_NUMBERS):
        data.pop("number", None)
    elif choice == len(ODD_NUMBERS) + 1:
        data["number"] = str(data.get("number"))
    else:
        data["number"] = copy.deepcopy(ODD_NUMBERS[choice])


def _drop_card(data: Data, rng: random.Random) -> None:
    places = _places(data)
    if places:
        where, i = rng.choice(places)
        del where[i]


def _duplicate_card(data: Data, rng: random.Random) -> None:
    where, i = rng.choice(_places(data))
    target = data["stock"] if "cells" in data else rng.choice(data["piles"])
    target.insert(rng.randint(0, len(target)), where[i])


def _not_a_card(data: Data, rng: random.Random) -> None:
    value = copy.deepcopy(rng.choice(NOT_CARDS))
    places = _places(data)
    if rng.random() < 0.3 or not places:
        target = data["stock"] if "cells" in data else rng.choice(data["piles"])
        target.append(value)
    else:
        where, i = rng.choice(places)
        where[i] = value


def _foreign_card(data: Data, rng: random.Random) -> None:
    """A Ten in fifteen; elsewhere a card moved onto another pile."""
    if "cells" in data:
        where, i = rng.choice(_places(data))
        where[i] = rng.choice(["TC", "TD", "TH", "TS"])
    else:
        _move_card(data, rng)


def _move_card(data: Data, rng: random.Random) -> None:
    if "cells" in data:
        stock, cells = data["stock"], data["cells"]
        if stock:
            cell = rng.randrange(len(cells))
            cells[cell], stock[0] = stock[0], cells[cell]
        return
    piles = data["piles"]
    sources = [p for p in piles if p]
    if sources:
        source = rng.choice(sources)
        rng.choice(piles).append(source.pop())


def _pile_count(data: Data, rng: random.Random) -> None:
    lists = data["cells"] if "cells" in data else data["piles"]
    kind = rng.randrange(3)
    if kind == 0:
        lists.append(None if "cells" in data else [])
    elif kind == 1 and lists:
        lists.pop(rng.randrange(len(lists)))
    elif lists:
        lists.pop(next((i for i, p in enumerate(lists) if not p), len(lists) - 1))


def _foundation_order(data: Data, rng: random.Random) -> None:
    if "cells" in data:
        _remove_group(data, rng)
        return
    foundations = data["foundations"]
    name = rng.choice(sorted(foundations))
    cards = foundations[name]
    if len(cards) >= 2 and rng.random() < 0.4:
        i, j = rng.sample(range(len(cards)), 2)
        cards[i], cards[j] = cards[j], cards[i]
    elif cards and rng.random() < 0.3:
        rng.choice(data["piles"]).append(cards.pop(0))
    else:
        sources = [p for p in data["piles"] if p]
        if sources:
            cards.append(rng.choice(sources).pop())


def _remove_group(data: Data, rng: random.Random) -> None:
    """fifteen: take out cards as a legal group would (refilled or not), or any cards."""
    position = position_from_layout(Layout.from_json({**data, "number": None}))
    groups = [move.cells for move in position.legal_moves() if isinstance(move, Group)]
    if groups and rng.random() < 0.6:
        cells = rng.choice(groups)
    else:
        full = [i + 1 for i, c in enumerate(data["cells"]) if c is not None]
        cells = tuple(rng.sample(full, min(len(full), rng.randint(1, 3))))
    for cell in cells:
        data["cells"][cell - 1] = None
    if rng.random() < 0.7:
        for cell in cells:
            if data["stock"]:
                data["cells"][cell - 1] = data["stock"].pop(0)


def _foundation_key(data: Data, rng: random.Random) -> None:
    if "cells" in data:
        data["cells"][rng.randrange(len(data["cells"]))] = None
        return
    foundations = data["foundations"]
    kind = rng.randrange(4)
    if kind == 0:
        foundations[rng.choice(["FX", "F", "FC", "f", "G"])] = []
    elif kind == 1:
        name = rng.choice(sorted(foundations))
        foundations[rng.choice(["FH", "F", "FS", "Fc"])] = foundations.pop(name)
    elif kind == 2:
        foundations[rng.choice(sorted(foundations))] = rng.choice([None, "AH", 3, {}])
    else:
        del foundations[rng.choice(sorted(foundations))]


def _unknown_key(data: Data, rng: random.Random) -> None:
    key = rng.choice(["cells", "piles", "stock", "foundations", "Number", "extra", "moves", ""])
    if key not in data:
        data[key] = rng.choice([[], None, 1, "x"])
    else:
        data.pop(key)


def _wrong_preset(data: Data, rng: random.Random) -> None:
    choice = rng.choice([*FRONT_END, None, "thirten", "", 13, "delete"])
    if choice == "delete":
        data.pop("preset")
    else:
        data["preset"] = choice


def _bad_field(data: Data, rng: random.Random) -> None:
    key = rng.choice(["cells", "stock"] if "cells" in data else ["piles", "foundations"])
    values: list[Any] = [None, "AH", 5, {}, [], [["AH"], "AH"], [None], {"F": []}]
    value = rng.choice(values)
    data[key] = copy.deepcopy(value)


def _shuffle_stock(data: Data, rng: random.Random) -> None:
    lists = [data["stock"]] if "cells" in data else [p for p in data["piles"] if len(p) > 1]
    if lists:
        target = rng.choice(lists)
        tail = target[1:]
        rng.shuffle(tail)
        target[1:] = tail


MUTATIONS: dict[str, Callable[[Data, random.Random], None]] = {
    "same": lambda data, rng: None,
    "swap-cards": _swap_cards,
    "swap-bottoms": _swap_bottoms,
    "relabel": _relabel,
    "odd-number": _odd_number,
    "drop-card": _drop_card,
    "duplicate-card": _duplicate_card,
    "not-a-card": _not_a_card,
    "foreign-card": _foreign_card,
    "move-card": _move_card,
    "pile-count": _pile_count,
    "foundation-order": _foundation_order,
    "foundation-key": _foundation_key,
    "unknown-key": _unknown_key,
    "wrong-preset": _wrong_preset,
    "bad-field": _bad_field,
    "shuffle": _shuffle_stock,
}


def mutated(base: Data, kinds: list[str], seed: int) -> Data:
    """``base`` (not changed) after the mutations ``kinds``, seeded by ``seed``."""
    rng = random.Random(seed)
    data = copy.deepcopy(base)
    for kind in kinds:
        # (an earlier mutation may have broken the shape this one needs: keep what there is)
        with contextlib.suppress(KeyError, TypeError, ValueError, IndexError, AttributeError):
            MUTATIONS[kind](data, rng)
    return data


def layout_vector(preset: str, data: Any) -> Data:
    """One layout vector: the layout as JSON the node side reads, the toolkit's verdict for
    ``preset`` and its verdict when no preset is asked for (``bare``)."""
    return {
        "preset": preset,
        "layout": to_wire(data),
        "verdict": layout_verdict(preset, data),
        "bare": None if is_layout_text(data) else layout_verdict(None, data),
    }


def layout_vectors(per_preset: int = 460, seed: int = 7) -> list[Data]:
    """Seeded layout vectors: every base layout of every front-end preset unchanged, then
    each mutation kind alone on random bases, then two or three kinds together."""
    rng = random.Random(seed)
    vectors = []
    kinds = sorted(MUTATIONS)
    for preset in FRONT_END:
        bases = base_layouts(preset)
        vectors += [layout_vector(preset, base) for base in bases]
        for index in range(per_preset):
            chosen = [kinds[index % len(kinds)]]
            if index >= 6 * len(kinds):
                chosen += rng.sample(kinds, rng.randint(1, 2))
            data = mutated(rng.choice(bases), chosen, rng.randrange(2**32))
            vectors.append(layout_vector(preset, data))
        not_objects: tuple[Any, ...] = (None, [], "AH", 5)
        vectors += [layout_vector(preset, value) for value in not_objects]
        vectors += [layout_vector(preset, text) for text in layout_texts(bases, rng)]
    return vectors


def layout_texts(bases: tuple[Data, ...], rng: random.Random) -> list[str]:
    """Layout JSON texts (numbers of at most 2**53-1): whole, cut short, or mutated."""
    small = [b for b in bases if b.get("number") is None or b["number"] <= SAFE]
    texts = []
    for base in small[:6]:
        data = mutated(base, [rng.choice(sorted(MUTATIONS))], rng.randrange(2**32))
        number = data.get("number")
        text = json.dumps(base if type(number) is int and abs(number) > SAFE else data)
        texts += [json.dumps(base), text, text[: rng.randrange(1, len(text))], " " + text]
    return texts


def to_wire(value: Any) -> Any:
    """``value`` for JSON read by node: integers beyond 2**53-1 as {"$bigint": text}."""
    if isinstance(value, dict):
        return {k: to_wire(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_wire(v) for v in value]
    if type(value) is int and abs(value) > SAFE:
        return {"$bigint": str(value)}
    return value


# -- move texts ------------------------------------------------------------------------------

MOVE_PIECES = (
    "1", "4", "9", "12", "13", "16", "17", "99", "0", "01", "-1", "F", "FC", "FD", "FH", "FS",
    "FX", "f", "fh", ">", "+", " ", "\t", "\n", "\u00a0", "\u200b", "\uff14", "\u0664", "\u2665",
    "x", "'", '"', "\\", "99999999999999999999", "\U0001f0a1", ">>", "++", "\u00e9", "\x7f",
)  # fmt: skip


def move_verdict(preset: str, text: str) -> Data:
    """What the toolkit makes of ``text`` as a move in deal 1 of ``preset``: malformed (the
    parse error), illegal (the reason) or legal (the move's text)."""
    try:
        move = parse_move(text)
    except MoveParseError as error:
        return {"kind": "malformed", "text": str(error)}
    reason = start_position(preset).why_illegal(move)
    if reason is not None:
        return {"kind": "illegal", "text": reason}
    return {"kind": "legal", "text": str(move)}


@cache
def start_position(preset: str) -> Position:
    """The start of deal 1 of ``preset`` (after the clover games' automatic moves)."""
    return position_from_layout(deal(preset, 1))


def move_texts(count: int = 2200, seed: int = 11) -> list[str]:
    """Seeded move texts: legal moves of deal 1, well-formed and malformed ones, texts around
    the 64-character limit, odd whitespace and other characters."""
    rng = random.Random(seed)
    texts = {str(m) for preset in FRONT_END for m in start_position(preset).legal_moves()}
    for n in (60, 63, 64, 65, 66, 100, 300):
        texts |= {"9" * (n - 2) + ">F", "1" + "+1" * ((n - 1) // 2), "x" * n}
    texts |= {"9" * 62 + ">F", "9" * 61 + ">1", "\u00e9" * 65, "\U0001f0a1" * 40}
    while len(texts) < count:
        kind = rng.randrange(4)
        if kind == 0:
            src = rng.choice(["F", "FC", "FH", str(rng.randint(1, 20))])
            text = f"{src}>{rng.choice(['F', str(rng.randint(1, 20))])}"
        elif kind == 1:
            cells = sorted(rng.sample(range(1, 20), rng.randint(1, 5)))
            text = "+".join(map(str, cells if rng.random() < 0.8 else cells[::-1]))
        else:
            text = "".join(rng.choice(MOVE_PIECES) for _ in range(rng.randint(0, 6)))
        if rng.random() < 0.1:
            text = rng.choice([" ", "\t", "\u3000"]) + text
        texts.add(text)
    return sorted(texts)


def move_vectors(texts: list[str]) -> list[Data]:
    """Every text in every front-end preset, with the toolkit's verdict."""
    return [
        {"preset": preset, "text": text, "verdict": move_verdict(preset, text)}
        for text in texts
        for preset in FRONT_END
    ]
