"""The registry records of the ``sprig`` game: one family and its one preset."""

from __future__ import annotations

from cloversolve.games import Family, Grading, Preset

#: Ranks 5 .. King are left out: the deck is the 16 cards Ace to 4.
DROPPED_RANKS = frozenset(range(5, 14))

SPRIG = Family("sprig", "tiny_game", grading_panel=("home",))

SPRIG_RULES = """\
16 cards (Aces to 4s) in 4 piles of 4, all face up; one foundation; no stock.
The foundation starts with an Ace of any suit, then takes the next rank up, suits ignored;
after a 4 comes an Ace again. Win with all 16 cards on it.
A pile's exposed card may go to the foundation; there is no other move."""

#: The ``home`` player (every move sends a card home: a legal move at random) plays 8 games of
#: a deal: 4 wins or more is easy, 1 or none is hard (thresholds chosen for this game, so
#: that its first deals hold every grade; not calibrated).
SPRIG_PRESET = Preset(
    "sprig",
    "sprig",
    "Sprig: 16 cards in 4 piles, played in rank order to one wrapping foundation",
    SPRIG_RULES,
    piles=4,
    dropped_ranks=DROPPED_RANKS,
    grading=Grading(
        games=8,
        max_steps=100,
        depth=1,
        patience=50,
        easy_threshold=0.5,
        hard_threshold=0.125,
        solve_nodes=200_000,
        check_nodes=20_000,
    ),
)
