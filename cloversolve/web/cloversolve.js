// cloversolve.js: the cloversolve toolkit's dealing, rules and notation for front ends.
//
// A dependency-free ES module for the front-end presets (PRESETS). It gives exactly what the
// Python toolkit gives (the toolkit's test suite cross-checks it): PySolFC-compatible numbered
// deals (1 .. 10**20 - 1), route replay with the automatic moves and the refills of the games
// that have them, the legal moves of a position, the reason a move is illegal, the daily-deal
// rule, the move notation, and the visible hint. Each preset's deck and shape come from its
// PRESETS entry (generated from the toolkit's game registry); the rules of its family come from
// the family's own module, found through the generated table FAMILY_RULES (families.js).
//
// Layouts and positions are plain objects in the toolkit's layout JSON shape:
//   pile games: {preset, number, piles: [[card, ...], ...], foundations: {F: [...]}} (or
//               foundations FC, FD, FH, FS), every list bottom to top;
//   grid games: {preset, number, cells: [16 cards or null], stock: [next drawn first, ...]}.
// Cards are strings: rank A23456789TJQK + suit CDHS, e.g. "TD". `number` is a Number up to
// 2**53 - 1 (Number.MAX_SAFE_INTEGER), its decimal string above that (as the toolkit's JSON
// writes it, so every object returned here survives JSON.stringify), and null for a hand-made
// position. Deal numbers are accepted as exact Numbers, BigInts or decimal strings.

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
export const RED_SUITS = "DH";
export const MAX_DEAL = 10n ** 20n - 1n;
export const LAST_MS_DEAL = 31999;
export const DAILY_EPOCH = "2000-01-01";
export const GRID_CELLS = 16;
export const FOUNDATION = "F";
export const SUIT_FOUNDATIONS = ["FC", "FD", "FH", "FS"];

const PYSOL_SUITS = "CSHD";

/** The front-end presets: rule family, deck and shape (generated from the registry). */
import { PRESETS } from "./presets.js";
export { PRESETS };
/** Each front-end rule family's rules module (generated from the registry). */
import { FAMILY_RULES } from "./families.js";
import { makeCard } from "./rules-common.js";

// -- errors ------------------------------------------------------------------------------------

/** Base class of every error this module throws about a value it was given. */
export class CloverSolveError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}
export class UnknownPresetError extends CloverSolveError {}
export class DealNumberError extends CloverSolveError {}
export class MoveParseError extends CloverSolveError {}
export class CardParseError extends CloverSolveError {}
/** The stable codes of LayoutError (the toolkit's LayoutError codes). */
export const LAYOUT_ERROR_CODES = Object.freeze([
  "not-json",
  "not-an-object",
  "unknown-preset",
  "wrong-preset",
  "unknown-key",
  "bad-field",
  "not-a-card",
  "bad-number",
  "number-out-of-range",
  "pile-count",
  "cell-count",
  "unknown-foundation",
  "duplicate-card",
  "foreign-card",
  "missing-card",
  "foundation-order",
  "empty-cell-with-stock",
  "removed-cards",
  "not-from-deal",
  "invalid-layout",
]);
/** A layout or position the toolkit refuses; `code` is one of LAYOUT_ERROR_CODES. */
export class LayoutError extends CloverSolveError {
  constructor(message, code = "invalid-layout") {
    super(message);
    this.code = code;
  }
}
export class DateError extends CloverSolveError {}
/** A well-formed move that the rules do not allow; `code` and `reason` say why. */
export class IllegalMoveError extends CloverSolveError {
  constructor(move, code, reason) {
    super(`illegal move '${move}': ${reason}`);
    this.code = code;
    this.reason = reason;
  }
}

/**
 * A value quoted as the toolkit's messages quote it, in JS spelling: strings as Python's
 * repr() writes them (quotes, escapes of unprintable characters), null, true, [a, b].
 */
export function pyRepr(value, depth = 0) {
  if (typeof value === "bigint" || typeof value === "number") return String(value);
  if (typeof value === "boolean" || value === null || value === undefined) return String(value);
  if (Array.isArray(value)) {
    return depth > 2 ? "[...]" : `[${value.map((v) => pyRepr(v, depth + 1)).join(", ")}]`;
  }
  if (typeof value === "object") {
    if (depth > 2) return "{...}";
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${pyRepr(v, depth + 1)}`);
    return `{${entries.join(", ")}}`;
  }
  if (typeof value !== "string") return String(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === " " || !UNPRINTABLE.test(ch)) out += ch;
    else if (code < 0x100) out += "\\x" + code.toString(16).padStart(2, "0");
    else if (code < 0x10000) out += "\\u" + code.toString(16).padStart(4, "0");
    else out += "\\U" + code.toString(16).padStart(8, "0");
  }
  return quote + out + quote;
}

// The characters Python's repr() escapes (str.isprintable() is false for them; space aside).
const UNPRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** pyRepr(value), cut in the middle when longer than `limit` characters (as the toolkit). */
function quoted(value, limit = 60) {
  const text = [...pyRepr(value)];
  if (text.length <= limit) return text.join("");
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half).join("")}...(${text.length} characters)...${text.slice(-half).join("")}`;
}

/** A value's kind in words, for messages ("array", "null", "string", ...). */
function typeName(value) {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** The preset called `name`, or an UnknownPresetError. */
export function findPreset(name) {
  if (typeof name === "string" && Object.hasOwn(PRESETS, name)) return PRESETS[name];
  throw new UnknownPresetError(
    `unknown preset: ${pyRepr(name)}; known: ${Object.keys(PRESETS).join(", ")}`,
  );
}

// -- cards -------------------------------------------------------------------------------------

/** A card's rank, 1 (Ace) .. 13 (King). */
export function rankOf(card) {
  return RANKS.indexOf(checkedCard(card)[0]) + 1;
}
/** A card's suit letter. */
export function suitOf(card) {
  return checkedCard(card)[1];
}
/** True for Diamonds and Hearts. */
export function isRed(card) {
  return RED_SUITS.includes(checkedCard(card)[1]);
}
/** The card with a suit symbol, e.g. "T\u2666". */
export function cardSymbol(card) {
  return checkedCard(card)[0] + SUIT_SYMBOLS[card[1]];
}
/** `card` if it is a card text, else a CardParseError in the toolkit's words. */
function checkedCard(card) {
  if (isCardText(card)) return card;
  throw new CardParseError(cardProblem(card));
}
/** Why `text` is not a card text such as "TD" (the toolkit's words), or null. */
function cardProblem(text) {
  const chars = typeof text === "string" ? [...text] : [];
  if (chars.length !== 2) return `not a card: ${pyRepr(text)} (expected rank+suit such as 'TD')`;
  if (!RANKS.includes(chars[0])) return `not a card: ${pyRepr(text)} (rank must be one of ${RANKS})`;
  if (!SUITS.includes(chars[1])) return `not a card: ${pyRepr(text)} (suit must be one of ${SUITS})`;
  return null;
}
function isCardText(text) {
  return typeof text === "string" && text.length === 2 && RANKS.includes(text[0]) &&
    SUITS.includes(text[1]);
}
/**
 * A preset's deck in PySolFC's unshuffled order: suits C S H D, each Ace up, without the
 * preset's dropped ranks.
 */
function presetDeck(spec) {
  const deck = [];
  for (const suit of PYSOL_SUITS) {
    for (let rank = 1; rank <= 13; rank++) {
      if (!spec.droppedRanks.includes(rank)) deck.push(makeCard(rank, suit));
    }
  }
  return deck;
}

// -- numbered deals ----------------------------------------------------------------------------

// Python's white space (str.isspace), which the toolkit strips and splits text on; JavaScript's
// own (trim, \s) differs: it lacks \x1c-\x1f and \x85 and adds \ufeff.
const PYTHON_SPACE =
  "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PYTHON_EDGES = new RegExp(`^${PYTHON_SPACE}+|${PYTHON_SPACE}+$`, "g");
const PYTHON_GAPS = new RegExp(`${PYTHON_SPACE}+`);

/** `text` without white space at either end, as Python's str.strip() leaves it. */
function pythonStrip(text) {
  return text.replace(PYTHON_EDGES, "");
}

/** `text`'s words, as Python's str.split() gives them. */
function pythonSplit(text) {
  return text.split(PYTHON_GAPS).filter((part) => part !== "");
}

/**
 * A deal number (an exact Number, a BigInt or decimal text) as a BigInt, or a DealNumberError.
 * A Number past 2**53 - 1 is refused: it may not be the number meant (2**53 + 1 is 2**53).
 */
/** Whether a value given as a deal number is a layout or a part of one (as the toolkit). */
function looksLikeLayout(value) {
  if (typeof value === "string") return /^[{[]/.test(pythonStrip(value));
  if (Array.isArray(value)) return value.some(Array.isArray);
  return typeof value === "object" && value !== null;
}

export function checkDealNumber(number) {
  const outOfRange = () =>
    new DealNumberError(`bad deal number: ${pyRepr(number)} (deals are 1 .. 10**20-1)`);
  let value = number;
  if (typeof value === "string") {
    const text = pythonStrip(value);
    if (/^-[0-9]+$/.test(text)) throw outOfRange();
    if (/^[0-9]+$/.test(text)) value = BigInt(text);
  } else if (typeof value === "number" && Number.isSafeInteger(value)) {
    value = BigInt(value);
  } else if (typeof value === "number" && Number.isInteger(value)) {
    if (value < 1 || value >= Number(MAX_DEAL)) throw outOfRange(); // (it is 1e20)
    throw new DealNumberError(
      `bad deal number: ${number} is not exact (a Number above 2**53-1); ` +
        "pass a BigInt or a decimal string",
    );
  }
  if (typeof value !== "bigint" && looksLikeLayout(value)) {
    throw new DealNumberError(
      `a layout was given where a deal number goes: ${quoted(number)} (deal numbers ` +
        "are 1 .. 10**20-1; give a layout as layout JSON, a Layout, or --layout FILE)",
    );
  }
  if (typeof value !== "bigint") {
    throw new DealNumberError(`bad deal number: ${pyRepr(number)} (expected a whole number)`);
  }
  if (value < 1n || value > MAX_DEAL) throw outOfRange();
  return value;
}

/**
 * A deal number (as checkDealNumber takes it) in the toolkit's JSON form: a Number up to
 * 2**53 - 1, its decimal string above that. JSON.stringify keeps it exact.
 */
export function jsonDealNumber(number) {
  return jsonInteger(checkDealNumber(number));
}

/** A BigInt as a Number when that is exact, else as its decimal string. */
function jsonInteger(big) {
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  return big <= safe && big >= -safe ? Number(big) : String(big);
}

/** PySolFC's ms_rearrange: rank-major with suits C D H S (52-card decks only). */
function microsoftOrder(cards) {
  if (cards.length !== 52) return cards;
  const out = [];
  for (let rank = 0; rank < 13; rank++) {
    for (const offset of [0, 39, 26, 13]) out.push(cards[rank + offset]);
  }
  return out;
}

/** Shuffle with the Microsoft-compatible LCG (deals 1..31999): randint(0, n) = rand() % (n+1). */
function shuffleMicrosoft(cards, seed) {
  let state = seed;
  for (let n = cards.length - 1; n > 0; n--) {
    state = (state * 214013 + 2531011) % 2147483648;
    const j = Math.floor(state / 65536) % 32768 % (n + 1);
    [cards[n], cards[j]] = [cards[j], cards[n]];
  }
}

/** Python's random.Random(seed): MT19937 seeded by init_by_array with the seed's 32-bit words. */
export class PythonRandom {
  constructor(seed) {
    const whole = typeof seed === "bigint" || Number.isSafeInteger(seed) ||
      (typeof seed === "string" && /^-?[0-9]+$/.test(seed));
    if (!whole) throw new CloverSolveError(`bad seed: ${quoted(seed)} (expected a whole number)`);
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const key = [];
    do {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    } while (n > 0n);
    this.mt = new Uint32Array(624);
    this.index = 624;
    this.initByArray(key);
  }

  initGenrand(seed) {
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = 624;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32-bit output of MT19937. */
  next32() {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** Python's random(): a double in [0, 1) with 53 random bits. */
  random() {
    const a = this.next32() >>> 5;
    const b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}

function shuffleMersenne(cards, seed) {
  const generator = new PythonRandom(seed);
  for (let n = cards.length - 1; n > 0; n--) {
    const j = Math.floor(generator.random() * (n + 1));
    [cards[n], cards[j]] = [cards[j], cards[n]];
  }
}

/** PySolFC's shuffled talon for deal `number`, in dealing order (first dealt first). */
export function shuffledTalon(number, deck) {
  const big = checkDealNumber(number);
  if (!Array.isArray(deck)) {
    throw new CloverSolveError(`not a deck: ${quoted(deck)} (expected a list of cards)`);
  }
  let cards;
  if (big <= BigInt(LAST_MS_DEAL)) {
    cards = microsoftOrder([...deck]);
    shuffleMicrosoft(cards, Number(big));
  } else {
    cards = [...deck];
    shuffleMersenne(cards, big);
  }
  return cards.reverse();
}

/** The layout of deal `number` of `preset` (PySolFC-compatible), as the toolkit deals it. */
export function deal(preset, number) {
  const spec = findPreset(preset);
  const big = checkDealNumber(number);
  const talon = shuffledTalon(big, presetDeck(spec));
  const shown = jsonDealNumber(big);
  if (spec.grid) {
    const cells = spec.piles;
    return { preset: spec.name, number: shown, cells: talon.slice(0, cells), stock: talon.slice(cells) };
  }
  // The foundations' starting cards are dealt first, each to its suit's foundation (or to
  // the single one); the rest go round-robin to the piles.
  const chosen = talon.filter((c) => spec.foundationCards.includes(c));
  const dealt = talon.filter((c) => !spec.foundationCards.includes(c));
  const names = spec.foundationNames;
  const foundations = {};
  for (const name of names) {
    foundations[name] = chosen.filter((c) => names.length === 1 || "F" + c[1] === name);
  }
  const piles = Array.from({ length: spec.piles }, () => []);
  dealt.forEach((card, i) => piles[i % spec.piles].push(card));
  return { preset: spec.name, number: shown, piles, foundations };
}

// -- notation ----------------------------------------------------------------------------------

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
function asMove(move) {
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

/** The parts of a route: text split at whitespace, or any iterable of moves. */
function routeParts(route) {
  if (typeof route === "string") return pythonSplit(route);
  if (typeof route !== "object" || route === null || typeof route[Symbol.iterator] !== "function") {
    throw new MoveParseError(`not a route: ${quoted(route)} (expected text or a list of moves)`);
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

// -- layouts -----------------------------------------------------------------------------------

// The keys of layout JSON; any other key is refused.
const PILE_KEYS = ["preset", "number", "piles", "foundations"];
const GRID_KEYS = ["preset", "number", "cells", "stock"];

/** Throw a LayoutError with its code (one of LAYOUT_ERROR_CODES). */
function refuse(code, message) {
  throw new LayoutError(message, code);
}

function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value that is not text as compact JSON, cut to `width` characters (as the toolkit). */
function shownJson(value, width = 40) {
  let text;
  try {
    text = typeof value === "bigint" ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return [...text].slice(0, width).join("");
}

/** A card text, or a LayoutError quoting the value as the toolkit does. */
function layoutCard(value) {
  if (typeof value !== "string") refuse("not-a-card", `not a card: ${shownJson(value)}`);
  const problem = cardProblem(value);
  if (problem !== null) refuse("not-a-card", problem);
  return value;
}

/**
 * Check a layout object exactly as the toolkit checks a layout given to solve, hint or replay
 * (with `preset`, the preset it must be for); return a normalised deep copy. A LayoutError
 * names the first problem found, in the toolkit's order, with the toolkit's `code`.
 */
export function checkLayout(layout, preset = undefined) {
  if (!isPlainObject(layout)) {
    refuse("not-an-object", `layout must be a JSON object, got ${typeName(layout)}`);
  }
  const name = Object.hasOwn(layout, "preset") ? layout.preset : preset;
  if (preset !== undefined && name !== preset) {
    refuse("wrong-preset", `layout is for preset ${pyRepr(name)}, not ${pyRepr(preset)}`);
  }
  let spec;
  try {
    spec = findPreset(name);
  } catch (error) {
    refuse("unknown-preset", error.message);
  }
  const grid = spec.grid;
  const keys = grid ? GRID_KEYS : PILE_KEYS;
  const unknown = Object.keys(layout).filter((key) => !keys.includes(key)).sort();
  if (unknown.length) {
    refuse(
      "unknown-key",
      `unknown layout key ${quoted(unknown[0])} (a ${spec.name} layout has ${keys.join(", ")})`,
    );
  }
  const number = layoutNumber(layout.number ?? null);
  const copy = { preset: spec.name, number, ...(grid ? gridFields(layout) : pileFields(spec, layout)) };
  checkLayoutNumberType(number);
  if (!grid) checkPilesAndNames(spec, copy);
  const deck = checkDeck(spec, copy);
  rulesOf(spec).checkPosition(spec, copy, deck);
  if (number !== null) checkFromDeal(spec, copy);
  return number === null ? copy : { ...copy, number: jsonDealNumber(number) };
}

/**
 * A layout's `number` as read: decimal text (the JSON form of a number past 2**53 - 1) as a
 * BigInt, or a LayoutError as the toolkit refuses it; any other value as it is, checked later.
 */
function layoutNumber(number) {
  if (typeof number !== "string") return number;
  try {
    return checkDealNumber(number);
  } catch (error) {
    if (!(error instanceof DealNumberError)) throw error;
    const code = /^-?[0-9]+$/.test(pythonStrip(number)) ? "number-out-of-range" : "bad-number";
    refuse(code, `${error.message} in the layout`);
  }
}

function gridFields(layout) {
  const cells = layout.cells;
  const stock = layout.stock === undefined ? [] : layout.stock;
  if (!Array.isArray(cells) || !Array.isArray(stock)) {
    refuse("bad-field", "layout 'cells' and 'stock' must be lists");
  }
  return {
    cells: cells.map((c) => (c === null ? null : layoutCard(c))),
    stock: stock.map(layoutCard),
  };
}

function pileFields(spec, layout) {
  const { piles } = layout;
  if (!Array.isArray(piles) || !piles.every(Array.isArray)) {
    refuse("bad-field", "layout 'piles' must be a list of lists of cards");
  }
  const foundations = layout.foundations === undefined ? {} : layout.foundations;
  if (!isPlainObject(foundations)) {
    refuse("bad-field", "layout 'foundations' must be an object of card lists");
  }
  const names = spec.foundationNames;
  const given = Object.keys(foundations).filter((key) => foundations[key] !== undefined);
  const found = [];
  for (const key of [...names, ...given.filter((key) => !names.includes(key))]) {
    const cards = foundations[key] === undefined ? [] : foundations[key];
    if (!Array.isArray(cards)) refuse("bad-field", `foundation ${pyRepr(key)} must be a list of cards`);
    found.push([key, cards.map(layoutCard)]);
  }
  const copy = piles.map((pile) => pile.map(layoutCard));
  return { piles: copy, foundations: Object.fromEntries(found) };
}

function checkPilesAndNames(spec, layout) {
  const count = layout.piles.length;
  if (count !== spec.piles) {
    refuse("pile-count", `a ${spec.name} layout needs ${spec.piles} piles, got ${count}`);
  }
  const names = spec.foundationNames;
  const extra = Object.keys(layout.foundations).find((key) => !names.includes(key));
  if (extra !== undefined) {
    refuse(
      "unknown-foundation",
      `unknown foundation ${pyRepr(extra)} for ${spec.name} (expected ${names.join(", ")})`,
    );
  }
}

function checkLayoutNumberType(number) {
  if (number === null || typeof number === "bigint" || Number.isSafeInteger(number)) return;
  if (Number.isInteger(number)) {
    refuse(
      "bad-number",
      `layout number ${number} is not exact (a Number above 2**53-1); ` +
        "give it as a BigInt or a decimal string",
    );
  }
  refuse("bad-number", `layout number must be an integer or null, got ${pyRepr(number)}`);
}

/**
 * The toolkit's deck check: cells count, then duplicate, foreign and missing cards. Returns
 * the preset's deck.
 */
function checkDeck(spec, layout) {
  if (layout.cells && layout.cells.length !== spec.piles) {
    refuse("cell-count", `a ${spec.name} layout needs ${spec.piles} cells, got ${layout.cells.length}`);
  }
  const cards = layout.cells
    ? [...layout.cells.filter((c) => c !== null), ...layout.stock]
    : [...layout.piles.flat(), ...Object.values(layout.foundations).flat()];
  const counts = new Map();
  for (const card of cards) counts.set(card, (counts.get(card) ?? 0) + 1);
  const duplicates = [...counts.keys()].filter((c) => counts.get(c) > 1).sort();
  if (duplicates.length) {
    refuse("duplicate-card", `duplicate card ${duplicates[0]} in ${spec.name} layout`);
  }
  const deck = presetDeck(spec);
  const foreign = [...counts.keys()].filter((c) => !deck.includes(c)).sort();
  if (foreign.length) refuse("foreign-card", `card ${foreign[0]} is not in the ${spec.name} deck`);
  if (layout.cells) return deck;
  const missing = deck.find((c) => !counts.has(c));
  if (missing !== undefined) {
    refuse("missing-card", `card ${missing} is missing from the ${spec.name} layout`);
  }
  return deck;
}

/** A numbered layout must be in range and agree with its deal, as the toolkit checks it. */
function checkFromDeal(spec, layout) {
  let number;
  try {
    number = checkDealNumber(layout.number);
  } catch (error) {
    refuse("number-out-of-range", `${error.message} in the layout`);
  }
  const dealt = deal(spec.name, number);
  const problem = rulesOf(spec).notFromDeal(spec, dealt, layout);
  if (problem !== null) {
    refuse("not-from-deal", `not a position of ${spec.name} deal ${number}: ${problem}`);
  }
}

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

// -- the rules, whatever the game --------------------------------------------------------------
//
// A rule family's module exports one frozen object (FAMILY_RULES names it for each family):
//   checkPosition(spec, layout, deck)  throws the LayoutError of what no position can hold
//                                       (after the deck check; deck: the preset's cards);
//   notFromDeal(spec, dealt, layout)   why a numbered layout cannot arise from its deal, or null;
//   afterDeal(position)                plays the automatic moves of a start, returns their steps;
//   legalMoves(position, spec)         the legal player moves, as strings, in the toolkit's order;
//   whyIllegal(position, spec, move)   [code, reason], or null for a legal move (a parsed move);
//   play(position, spec, move)         plays a legal move in place, returns its steps;
//   hintScore(position, move)          the visible hint's score of a legal move (higher first),
//                                       or null for a move the hint never gives.

/** The rules module of a preset's family. */
function rulesOf(spec) {
  return FAMILY_RULES[spec.family];
}

/** The preset of a position, after checking its shape (a LayoutError, never a TypeError). */
function specOf(position) {
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

// -- daily deal --------------------------------------------------------------------------------

function dayNumber(date) {
  let year, month, day;
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw new DateError("bad date: an invalid Date");
    [year, month, day] = [date.getFullYear(), date.getMonth() + 1, date.getDate()];
  } else {
    const match = typeof date === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
    if (!match) throw new DateError(`bad date: ${pyRepr(date)} (expected YYYY-MM-DD)`);
    [year, month, day] = match.slice(1).map(Number);
    const check = new Date(Date.UTC(year, month - 1, day));
    if (year < 1 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
      throw new DateError(`bad date: ${pyRepr(date)} (expected YYYY-MM-DD)`);
    }
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  return Math.round(utc.getTime() / 86400000);
}

/** Days from 2000-01-01 to `date` ("YYYY-MM-DD", or a Date: its local calendar day). */
export function daysSinceEpoch(date) {
  return dayNumber(date) - dayNumber(DAILY_EPOCH);
}

/** The daily-deal index: days since 2000-01-01 modulo `count`, always in 0 .. count-1. */
export function dailyIndex(date, count) {
  if (!Number.isSafeInteger(count)) {
    throw new CloverSolveError(`bad count: ${pyRepr(count)} (expected a whole number of deals)`);
  }
  if (count < 1) throw new CloverSolveError("no deals to choose from");
  const days = daysSinceEpoch(date);
  return ((days % count) + count) % count;
}

/** The catalogue entry of the daily deal of `difficulty` for `date`. */
export function daily(catalogue, date, difficulty) {
  if (!isPlainObject(catalogue) || !Array.isArray(catalogue.deals) ||
    !catalogue.deals.every(isPlainObject)) {
    throw new CloverSolveError(
      `not a catalogue: ${quoted(catalogue)} (expected an object with a list of deals)`,
    );
  }
  const entries = catalogue.deals
    .filter((entry) => entry.difficulty === difficulty)
    .map((entry) => [checkDealNumber(entry.number), entry])
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, entry]) => entry);
  if (!entries.length) {
    const what = typeof difficulty === "string" ? difficulty : pyRepr(difficulty);
    throw new CloverSolveError(`the catalogue has no ${what} deals`);
  }
  return entries[dailyIndex(date, entries.length)];
}

// -- hint --------------------------------------------------------------------------------------
//
// The toolkit's visible hint (cloversolve.visible_hint in Python: the same move, ties included),
// chosen from what a player sees without any search, and the catalogue route's next move when
// the position lies on a verified route.

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
