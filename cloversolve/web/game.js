// game.js: positions and moves: the legal moves of a position, why a move is illegal, playing
// a move with the automatic moves that follow, a deal's start and the replay of a route.

import { isCardText } from "./cards.js";
import { jsonInteger } from "./deal-numbers.js";
import { deal } from "./dealing.js";
import { IllegalMoveError, isPlainObject, quoted, refuse } from "./errors.js";
import { rulesOf } from "./family-rules.js";
import { findPreset } from "./find-preset.js";
import { checkLayout } from "./layout.js";
import { asMove, formatMove, parseRoute } from "./notation.js";
import { pythonStrip } from "./python-text.js";

/** A deep copy of a position (a BigInt number in its JSON form). */
function copyPosition(position) {
  const number = typeof position.number === "bigint" ? jsonInteger(position.number) : position.number;
  const copy = { preset: position.preset, number };
  if (position.cells) {
    copy.cells = [...position.cells];
    copy.stock = [...position.stock];
  } else {
    copy.piles = position.piles.map((pile) => [...pile]);
    copy.foundations = {};
    for (const [key, cards] of Object.entries(position.foundations)) copy.foundations[key] = [...cards];
  }
  return copy;
}

/** The preset of a position, after checking its shape (a LayoutError, never a TypeError). */
export function specOf(position) {
  if (!isPlainObject(position)) {
    refuse("not-an-object", `not a position: ${quoted(position)} (expected a layout object)`);
  }
  let spec;
  try {
    spec = findPreset(position.preset);
  } catch (error) {
    refuse("unknown-preset", error.message);
  }
  const cards = (list, blanks = false) =>
    Array.isArray(list) && list.every((c) => isCardText(c) || (blanks && c === null));
  if (spec.grid) {
    const { cells, stock } = position;
    if (!(cards(cells, true) && cells.length === spec.piles && cards(stock))) {
      refuse(
        "bad-field",
        `a ${spec.name} position needs ${spec.piles} cells (cards or null) and a stock of cards`,
      );
    }
    return spec;
  }
  const { piles, foundations } = position;
  const names = spec.foundationNames;
  const fine = Array.isArray(piles) && piles.length === spec.piles && piles.every((p) => cards(p)) &&
    isPlainObject(foundations) && names.every((name) => cards(foundations[name]));
  if (!fine) {
    refuse(
      "bad-field",
      `a ${spec.name} position needs ${spec.piles} piles and the foundations ` +
        `${names.join(", ")}, each a list of cards`,
    );
  }
  return spec;
}

/** The legal player moves of a position, as strings, in the toolkit's order. */
export function legalMoves(position) {
  const spec = specOf(position);
  return rulesOf(spec).legalMoves(position, spec);
}

/**
 * Why `move` is illegal in `position`: null when it is legal, else {code, reason}; `reason`
 * is the toolkit's text, `code` a stable identifier for front ends that show their own words:
 * wrong-kind, no-such-pile, no-such-foundation, no-such-cell, same-pile, empty-source,
 * empty-target, no-return, foundation-refuses, target-refuses, cells-not-ascending,
 * group-too-small, group-mixed-suits, group-has-ten, group-total, group-court.
 */
export function whyIllegal(position, move) {
  const spec = specOf(position);
  const parsed = asMove(move);
  const found = rulesOf(spec).whyIllegal(position, spec, parsed);
  return found === null ? null : { code: found[0], reason: found[1] };
}

/** True when every card is home (removed, in the grid games). */
export function isWon(position) {
  if (specOf(position).grid) return position.stock.length === 0 && position.cells.every((c) => c === null);
  return position.piles.every((pile) => pile.length === 0);
}

/** True when the game is not won and no legal move exists. */
export function isBlocked(position) {
  return !isWon(position) && legalMoves(position).length === 0;
}

/**
 * Play `move` on `position` (a new position is returned; the argument is not changed).
 * Returns {position, steps}: the player's step, then any automatic moves, each with the cards
 * it moved, where from and where to. Throws IllegalMoveError (with code and reason).
 */
export function play(position, move) {
  const parsed = asMove(move);
  const why = whyIllegal(position, parsed);
  if (why !== null) throw new IllegalMoveError(formatMove(parsed), why.code, why.reason);
  const next = copyPosition(position);
  const spec = specOf(position);
  const steps = rulesOf(spec).play(next, spec, parsed);
  return { position: next, steps };
}

/** The layout of a deal number or of a layout (an object, or its JSON text), checked. */
function layoutOf(preset, layoutOrNumber) {
  const spec = findPreset(preset);
  if (typeof layoutOrNumber === "object" && layoutOrNumber !== null) {
    return checkLayout(layoutOrNumber, spec.name);
  }
  if (typeof layoutOrNumber === "string" && pythonStrip(layoutOrNumber).startsWith("{")) {
    let parsed;
    try {
      parsed = JSON.parse(layoutOrNumber);
    } catch (error) {
      refuse("not-json", `layout JSON text that is not JSON (${error.message})`);
    }
    return checkLayout(parsed, spec.name);
  }
  return deal(spec.name, layoutOrNumber);
}

/**
 * The starting position of a deal number or layout (an object, or its JSON text): the layout
 * itself, after the automatic moves of the games that have them. Returns {layout, position, steps} (steps: those automatic moves).
 */
export function start(preset, layoutOrNumber) {
  const layout = layoutOf(preset, layoutOrNumber);
  const position = copyPosition(layout);
  const steps = rulesOf(specOf(position)).afterDeal(position);
  return { layout, position, steps };
}

/**
 * Replay `route` (text or a list of moves) from a deal number or layout of `preset`.
 *
 * Returns {status, movesPlayed, illegalAt, reason, code, layout, positions, steps}:
 * status "won", "not-won" or "illegal"; illegalAt the 1-based number of the first illegal move
 * and reason the toolkit's text ("MOVE: why", as `cloversolve replay --json` prints it);
 * positions[0] the start (after the deal's automatic moves) and positions[k] the position
 * after player move k; steps every move in order, automatic moves as their own steps
 * ({kind: "auto" | "move", moveNumber, move, cards, from, to, position}; moveNumber 0 for
 * the automatic moves right after the deal). A malformed route throws MoveParseError.
 */
export function replay(preset, layoutOrNumber, route) {
  const moves = parseRoute(route);
  const begin = start(preset, layoutOrNumber);
  let position = begin.position;
  const positions = [position];
  const steps = [];
  let replayed = copyPosition(begin.layout);
  for (const step of begin.steps) {
    replayed = applyStep(replayed, step);
    steps.push({ ...step, moveNumber: 0, position: replayed });
  }
  const result = { layout: begin.layout, positions, steps, movesPlayed: 0, illegalAt: null, reason: null, code: null };
  for (const [index, move] of moves.entries()) {
    const why = whyIllegal(position, move);
    if (why !== null) {
      return { ...result, status: "illegal", illegalAt: index + 1, reason: `${formatMove(move)}: ${why.reason}`, code: why.code };
    }
    const played = play(position, move);
    let shown = position;
    for (const step of played.steps) {
      shown = applyStep(shown, step);
      steps.push({ ...step, moveNumber: index + 1, position: shown });
    }
    position = played.position;
    positions.push(position);
    result.movesPlayed = index + 1;
  }
  return { ...result, status: isWon(position) ? "won" : "not-won" };
}

/** The position after one recorded step (for showing each automatic move on its own). */
function applyStep(position, step) {
  const next = copyPosition(position);
  if (step.to === "removed") {
    for (const cell of step.from) next.cells[Number(cell) - 1] = null;
    for (const { cell, card } of step.refills) {
      next.cells[cell - 1] = card;
      next.stock.shift();
    }
    return next;
  }
  const take = (place) => (/^F/.test(place) ? next.foundations[place] : next.piles[Number(place) - 1]);
  take(step.from).pop();
  take(step.to).push(step.cards[0]);
  return next;
}
