// notation.js: the toolkit's move notation ("4>F", "4>11", "F>7", "FH>7", "3+7+12") and routes.

import { MoveParseError, pyRepr, quoted } from "./errors.js";
import { pythonSplit } from "./python-text.js";

/** The cells of a grid game. */
export const GRID_CELLS = 16;
/** The one foundation of the games that have one; SUIT_FOUNDATIONS: one per suit. */
export const FOUNDATION = "F";
export const SUIT_FOUNDATIONS = ["FC", "FD", "FH", "FS"];

const NUMBER = "[1-9][0-9]*";
// The longest text parseMove reads (as the toolkit: a longer text is malformed, unread).
const MAX_MOVE_LENGTH = 64;
const TRANSFER = new RegExp(`^(${NUMBER}|F[CDHS]?)>(${NUMBER}|F)$`);
const GROUP = new RegExp(`^${NUMBER}(\\+${NUMBER})+$`);
// A move's shape with any digits for its numbers ("0>F", "04>1", "-1>F", "0+3").
const LOOSE_NUMBERS = /^(?:(-?[0-9]+|F[CDHS]?)>(-?[0-9]+|F)|-?[0-9]+(\+-?[0-9]+)+)$/;

function placeNumber(text) {
  return text.length > 15 ? BigInt(text) : Number(text);
}

/**
 * Parse one move: {src, dst} for a card move (pile numbers or foundation names), {cells} for a
 * group of grid cells. A MoveParseError quotes the input, with the toolkit's wording.
 */
export function parseMove(text) {
  if (typeof text !== "string") throw new MoveParseError(`not a move: ${pyRepr(text)}`);
  const chars = [...text];
  if (chars.length > MAX_MOVE_LENGTH) {
    throw new MoveParseError(
      `not a move: ${pyRepr(chars.slice(0, 20).join(""))}... (${chars.length} characters; ` +
        `a move has at most ${MAX_MOVE_LENGTH})`,
    );
  }
  const match = TRANSFER.exec(text);
  if (match) {
    const src = match[1].startsWith("F") ? match[1] : placeNumber(match[1]);
    const dst = match[2] === FOUNDATION ? FOUNDATION : placeNumber(match[2]);
    if (typeof src === "string" && typeof dst === "string") {
      throw new MoveParseError(`not a move: ${pyRepr(text)} (foundation to foundation)`);
    }
    return { src, dst };
  }
  if (GROUP.test(text)) {
    const cells = text.split("+").map(placeNumber);
    if (cells.some((c, i) => i > 0 && cells[i - 1] >= c)) {
      throw new MoveParseError(`not a move: ${pyRepr(text)} (cells must be distinct and ascending)`);
    }
    return { cells };
  }
  if (LOOSE_NUMBERS.test(text)) {
    throw new MoveParseError(
      `not a move: ${pyRepr(text)} (piles and cells are numbered from 1, without leading zeros)`,
    );
  }
  throw new MoveParseError(
    `not a move: ${pyRepr(text)} (expected e.g. '4>F', '4>11', 'F>7', 'FH>7' or '3+7+12')`,
  );
}

/** A move's text: parseMove(formatMove(m)) equals m. Strings pass through unchanged. */
export function formatMove(move) {
  if (typeof move === "string") return move;
  const checked = asMove(move);
  if (checked.cells) return checked.cells.join("+");
  return `${checked.src}>${checked.dst}`;
}

/**
 * A move given as text or as an object ({src, dst}: pile numbers as Numbers or BigInts,
 * foundation names; {cells}), parsed as its text is: a MoveParseError for anything else.
 */
export function asMove(move) {
  if (typeof move !== "object" || move === null) return parseMove(move);
  const keys = Object.keys(move).sort().join(" ");
  const whole = (n) => typeof n === "bigint" || Number.isSafeInteger(n);
  const place = (p) => whole(p) || (typeof p === "string" && /^F[CDHS]?$/.test(p));
  let text = null;
  if (keys === "dst src" && place(move.src) && place(move.dst)) text = `${move.src}>${move.dst}`;
  if (keys === "cells" && Array.isArray(move.cells) && move.cells.every(whole)) {
    text = move.cells.join("+");
  }
  if (text === null) {
    throw new MoveParseError(
      `not a move: ${quoted(move)} (expected {src, dst} with pile numbers or foundation names, ` +
        "or {cells} with cell numbers)",
    );
  }
  return parseMove(text);
}

/** The parts of a route: text split at whitespace, or any ordered iterable of moves (a Set or a
 * Map, which has no order, is refused as the Python toolkit refuses a set or a mapping). */
function routeParts(route) {
  if (typeof route === "string") return pythonSplit(route);
  if (typeof route !== "object" || route === null || typeof route[Symbol.iterator] !== "function") {
    throw new MoveParseError(`not a route: ${quoted(route)} (expected text or a list of moves)`);
  }
  if (route instanceof Set || route instanceof Map) {
    const kind = route.constructor.name.toLowerCase();
    throw new MoveParseError(
      `not a route: a ${kind} has no order (give the moves as text or a list)`,
    );
  }
  return [...route];
}

/** Parse a route given as space-separated text or as a list of moves (text or objects). */
export function parseRoute(route) {
  return routeParts(route).map((part, i) => {
    try {
      return asMove(part);
    } catch (error) {
      throw new MoveParseError(`move ${i + 1} of the route: ${error.message}`);
    }
  });
}

/** The route as space-separated text. */
export function formatRoute(moves) {
  return parseRoute(moves).map(formatMove).join(" ");
}
