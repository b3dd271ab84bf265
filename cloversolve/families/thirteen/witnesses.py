"""Witnesses of lost ``thirteen`` positions that plain Python finds and checks without a
search: no pile has the last rank at its bottom (FACTS.md, fact 1: the King-bottom condition),
or some rank can never be uncovered (fact 6: buried ranks)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ...core.cards import Card
from ...rules.base import Position
from ...rules.loss_witnesses import FALSE, LOST, Check, WitnessNotFound
from .rules import ThirteenPosition, rank_above, rank_below


def last_rank(position: ThirteenPosition) -> int:
    """The rank of the card that completes the foundation: the top rank for a full deck."""
    cards = len(position.foundation) + sum(len(pile) for pile in position.piles)
    return (cards - 1) % position.ranks + 1


def pile_bottoms(position: ThirteenPosition) -> list[Card | None]:
    """The bottom card of every pile in pile order (``None`` for an empty pile)."""
    return [pile[0] if pile else None for pile in position.piles]


def lacks_king_bottom(position: ThirteenPosition) -> bool:
    """True when the position is not won and no pile has a last-rank card at its bottom."""
    last = last_rank(position)
    bottoms = pile_bottoms(position)
    return any(bottoms) and all(card is None or card.rank != last for card in bottoms)


def _digging_rules(position: ThirteenPosition) -> Iterator[tuple[int, int, int, int]]:
    """``(target, free_from, free_count, extra)`` of every rank the buried-rank rule tests:
    the ranks ``free_from`` .. (``free_count`` of them) may go to the foundation before the
    target is uncovered, and ranks ``1 .. extra`` are foundation cards that may come back."""
    ranks, home = position.ranks, len(position.foundation)
    if position.allow_return:
        for target in range(home + 1, ranks + 1):
            yield target, 1, target - 1, home
        return
    need = home % ranks + 1
    for span in range(ranks):
        yield (need - 1 + span) % ranks + 1, need, span, 0


def _burying_cards(
    position: ThirteenPosition, target: int, free_from: int, free_count: int, extra: int
) -> tuple[Card, ...] | None:
    """The cards where FACTS.md fact 6's digging stops in the piles that hold rank ``target``,
    or ``None`` when the digging uncovers a card of that rank (or none is in the piles)."""
    ranks = position.ranks
    piles = [[card.rank for card in pile] for pile in position.piles]
    if not any(target in pile for pile in piles):
        return None
    exposed: Counter[int] = Counter(range(1, extra + 1))
    for pile in piles:
        if pile:
            if pile[-1] == target:
                return None
            exposed[pile[-1]] += 1
    dug = [0] * len(piles)
    changed = True
    while changed:
        changed = False
        for index, pile in enumerate(piles):
            height = len(pile) - 1 - dug[index]
            if height < 0:
                continue
            rank = pile[height]
            to_foundation = (rank - free_from) % ranks < free_count
            neighbour = exposed[rank_above(rank, ranks)] or exposed[rank_below(rank, ranks)]
            if to_foundation or neighbour:
                dug[index] += 1
                changed = True
                if height > 0:
                    if pile[height - 1] == target:
                        return None
                    exposed[pile[height - 1]] += 1
    return tuple(
        position.piles[index][len(pile) - 1 - dug[index]]
        for index, pile in enumerate(piles)
        if target in pile
    )


def buried_ranks(position: ThirteenPosition) -> dict[int, tuple[Card, ...]]:
    """Every rank the buried-rank rule proves can never be uncovered, with the cards that
    bury it (where the digging stops, one per pile holding the rank); empty when none is."""
    found = {}
    for target, free_from, free_count, extra in _digging_rules(position):
        cards = _burying_cards(position, target, free_from, free_count, extra)
        if cards is not None:
            found[target] = cards
    return found


def _cards(cards: Any) -> str:
    return " ".join("-" if card is None else str(card) for card in cards)


class ThirteenWitnesses:
    """The family's loss witnesses (:class:`~cloversolve.rules.loss_witnesses.LossWitnesses`):
    ``king-bottom`` (the pile bottoms) and ``buried-rank`` (each buried rank and its cards)."""

    kinds = ("king-bottom", "buried-rank")

    def fields(self, kind: str, position: Position, details: Mapping[str, Any]) -> dict[str, Any]:
        assert isinstance(position, ThirteenPosition) and kind in self.kinds
        if kind == "king-bottom":
            if not lacks_king_bottom(position):
                raise WitnessNotFound("internal error: a King lies at a pile bottom after all")
            return {"bottoms": [None if c is None else str(c) for c in pile_bottoms(position)]}
        found = buried_ranks(position)
        if not found:
            raise WitnessNotFound("internal error: no rank is buried after all")
        return {"buried": [{"rank": r, "under": [str(c) for c in cs]} for r, cs in found.items()]}

    def check(
        self,
        kind: str,
        position: Position,
        fields: Mapping[str, Any],
        exhaust: Callable[[Position], Check],
    ) -> Check:
        assert isinstance(position, ThirteenPosition) and kind in self.kinds
        if kind == "king-bottom":
            return _check_bottoms(position, fields["bottoms"])
        return _check_buried_ranks(position, fields["buried"])


def _check_bottoms(position: ThirteenPosition, bottoms: list[str | None]) -> Check:
    actual = [None if card is None else str(card) for card in pile_bottoms(position)]
    if bottoms != actual:
        return FALSE, f"the pile bottoms are {_cards(actual)}, not {_cards(bottoms)}"
    if not lacks_king_bottom(position):
        return FALSE, "a pile has a last-rank card at its bottom"
    return LOST, "no pile has a last-rank card at its bottom"


def _check_buried_ranks(position: ThirteenPosition, buried: list[dict[str, Any]]) -> Check:
    found = buried_ranks(position)
    for claimed in buried:
        rank, under = claimed["rank"], claimed["under"]
        actual = found.get(rank)
        if actual is None:
            return FALSE, f"rank {rank} can be uncovered"
        if [str(card) for card in actual] != under:
            return FALSE, f"rank {rank} is buried under {_cards(actual)}, not {_cards(under)}"
    ranks = ", ".join(str(claimed["rank"]) for claimed in buried)
    return LOST, f"rank {ranks} can never be uncovered"


#: The family's loss witnesses (its plug-in gives them).
WITNESSES = ThirteenWitnesses()
