// hint.js: the toolkit's visible hint (cloversolve.visible_hint in Python: the same move, ties
// included), chosen from what a player sees without any search, and the catalogue route's next
// move when the position lies on a verified route.

import { CloverSolveError } from "./errors.js";
import { rulesOf } from "./family-rules.js";
import { isWon, legalMoves, replay, specOf } from "./game.js";
import { checkLayout } from "./layout.js";
import { formatMove, parseRoute } from "./notation.js";

function scoreAbove(score, best) {
  for (let i = 0; i < score.length; i++) {
    if (score[i] !== best[i]) return score[i] > best[i];
  }
  return false;
}

/**
 * The toolkit's visible hint for `position`: the first legal move (in legalMoves order) with
 * the best score of the preset's rule, or null when the game is won or the rule has no move.
 */
export function visibleHint(position) {
  const checked = checkLayout(position);
  if (isWon(checked)) return null;
  const rules = rulesOf(specOf(checked));
  let best = null;
  let bestScore = null;
  for (const move of legalMoves(checked)) {
    const mine = rules.hintScore(checked, move);
    if (mine !== null && (bestScore === null || scoreAbove(mine, bestScore))) {
      best = move;
      bestScore = mine;
    }
  }
  return best;
}

function samePosition(a, b) {
  const cards = (p) => JSON.stringify(p.cells ? [p.cells, p.stock] : [p.piles, p.foundations]);
  return cards(a) === cards(b);
}

/** Where `position` lies on the winning route of `entry` (the last time): the move index or -1. */
function routeIndex(position, entry) {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    throw new CloverSolveError("a hint's route must be a catalogue entry: {number or layout, route}");
  }
  const { route } = entry;
  if (!(typeof route === "string" || Array.isArray(route)) ||
    (entry.layout === undefined && entry.number === undefined)) {
    throw new CloverSolveError("a catalogue entry needs a route (text or a list of moves) and a number or a layout");
  }
  const replayed = replay(position.preset, entry.layout ?? entry.number, entry.route);
  if (replayed.status !== "won") {
    const why = replayed.status === "illegal" ? `is illegal at move ${replayed.illegalAt}` : "does not win";
    throw new CloverSolveError(`the entry's route ${why}; only a winning route gives route hints`);
  }
  for (let k = replayed.movesPlayed - 1; k >= 0; k--) {
    if (samePosition(replayed.positions[k], position)) return k;
  }
  return -1;
}

/**
 * A hint for `position`: {kind, move, promise}. kind "visible": the toolkit's visible hint
 * (move null when the game is won or the rule has none), a sensible move chosen from what a
 * player sees, not a promise of a win. With a catalogue `entry` ({number or layout, route})
 * whose route wins, and a position on that route, kind "route": the route's next move (from
 * the route's last visit of the position), a promise that the game can still be won, with
 * `routeIndex` its 0-based index in the route. Bad arguments throw LayoutError or
 * CloverSolveError.
 */
export function hint(position, entry = undefined) {
  const checked = checkLayout(position);
  if (entry !== undefined && entry !== null) {
    const k = routeIndex(checked, entry);
    if (k >= 0) {
      const move = formatMove(parseRoute(entry.route)[k]);
      return { kind: "route", move, promise: true, routeIndex: k };
    }
  }
  return { kind: "visible", move: visibleHint(checked), promise: false };
}
