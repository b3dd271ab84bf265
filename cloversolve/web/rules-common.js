// rules-common.js: helpers that the rule families' modules share (not part of the module's
// public API).

/** How many cards lie above the topmost card of `cards` (bottom to top) that `wanted` accepts. */
export function depthOf(cards, wanted) {
  for (let depth = 0; depth < cards.length; depth++) {
    if (wanted(cards[cards.length - 1 - depth])) return depth;
  }
  return null;
}

/**
 * Above the undisturbed bottom of each pile, every card must be placeable on the one below
 * (`placeable(card, below)`, `below` null at the bottom); the reason a layout fails, or null.
 */
export function pilesNotFromDeal(spec, dealt, layout, placeable) {
  for (const [index, pile] of layout.piles.entries()) {
    const dealtPile = dealt.piles[index];
    let kept = 0;
    while (kept < Math.min(pile.length, dealtPile.length) && pile[kept] === dealtPile[kept]) kept++;
    for (let height = kept; height < pile.length; height++) {
      const below = height ? pile[height - 1] : null;
      if (!placeable(pile[height], below)) {
        const where = below !== null ? `on ${below}` : "at the bottom";
        const what = `${spec.fans ? "fan" : "pile"} ${index + 1}`;
        return `${what} holds ${pile[height]} ${where}, where the deal did not put it and no move can place it`;
      }
    }
  }
  return null;
}
