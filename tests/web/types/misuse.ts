// Misuses of cloversolve.js that the types must refuse: each line below `@ts-expect-error` must
// be a type error, or tsc fails ("Unused '@ts-expect-error' directive").

import {
  checkDealNumber,
  daily,
  deal,
  findPreset,
  formatMove,
  hint,
  IllegalMoveError,
  LayoutError,
  legalMoves,
  play,
  rankOf,
  replay,
  start,
  whyIllegal,
} from "cloversolve";
import type { Catalogue, Card, PileLayout } from "cloversolve";

const position = deal("thirteen", 1);
const catalogue: Catalogue = { deals: [] };

// @ts-expect-error: the preset is a name, not a number
deal(1, 2);
// @ts-expect-error: an unknown preset name
deal("thirteen-returns", 1);
// @ts-expect-error: a deal number is not a boolean
deal("thirteen", true);
// @ts-expect-error: a deal number is not an object
deal("thirteen", { number: 1 });
// @ts-expect-error: a position, not a text
legalMoves("x");
// @ts-expect-error: a position, not a preset's name
legalMoves({ preset: "thirteen" });
// @ts-expect-error: a pile game's layout has no cells
deal("thirteen", 1).cells;
// @ts-expect-error: a grid game's layout has no piles
deal("fifteen", 1).piles;
// @ts-expect-error: a thirteen layout is not a fifteen one
const wrong: PileLayout<"cloverleaf"> = deal("thirteen", 1);
// @ts-expect-error: not a card
rankOf("1Z");
// @ts-expect-error: a move is text or a move object, not a number
whyIllegal(position, 4);
// @ts-expect-error: a card move needs a destination
formatMove({ src: 4 });
// @ts-expect-error: a route is text or a list of moves
replay("thirteen", 1, 42);
// @ts-expect-error: replay needs a route
replay("thirteen", 1);
// @ts-expect-error: the layout or number comes first
start("thirteen");
// @ts-expect-error: play takes a position, then a move
play("4>F", position);
// @ts-expect-error: a difficulty is easy, normal or hard
daily(catalogue, "2025-01-01", "medium");
// @ts-expect-error: the catalogue comes first
daily("2025-01-01", catalogue, "easy");
// @ts-expect-error: a hint's entry needs a route
hint(position, { number: 1 });
// @ts-expect-error: a hint's entry needs a number or a layout
hint(position, { route: "4>F" });
// @ts-expect-error: an unknown layout error code
new LayoutError("bad", "bad-thing");
// @ts-expect-error: an unknown illegal-move code
new IllegalMoveError("4>4", "nope", "why");
// @ts-expect-error: deal numbers are not arrays
checkDealNumber([1]);
// @ts-expect-error: an unknown preset name
findPreset("freecell");

const result = replay("thirteen", 1, "4>1");
if (result.status === "won") {
  // @ts-expect-error: only an illegal replay has a move number
  const at: number = result.illegalAt;
  void at;
}
const advice = hint(position);
if (advice.kind === "visible") {
  // @ts-expect-error: a visible hint has no route index
  advice.routeIndex;
}
// @ts-expect-error: a card is not any text
const card: Card = "10D";

void [wrong, card];
