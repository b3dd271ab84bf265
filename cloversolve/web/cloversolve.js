// cloversolve.js: the cloversolve toolkit's dealing, rules and notation for front ends.
//
// A dependency-free ES module for the five front-end presets: thirteen, thirteen-return,
// fifteen, cloverleaf and alexander. It gives exactly what the Python toolkit gives (the
// toolkit's test suite cross-checks it): PySolFC-compatible numbered deals (1 .. 10**20 - 1),
// route replay with the automatic moves of the clover games and the refills of fifteen,
// the legal moves of a position, the reason a move is illegal, the daily-deal rule, the
// move notation, and the visible hint.
//
// Layouts and positions are plain objects in the toolkit's layout JSON shape:
//   pile games: {preset, number, piles: [[card, ...], ...], foundations: {F: [...]}} (or
//               foundations FC, FD, FH, FS), every list bottom to top;
//   fifteen:    {preset, number, cells: [16 cards or null], stock: [next drawn first, ...]}.
// Cards are strings: rank A23456789TJQK + suit CDHS, e.g. "TD". `number` is a Number when it
// is a safe integer, a BigInt above that, and null for a hand-made position.

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
const CLOVER_FOUNDATION_CARDS = ["AH", "AD", "KS", "KC"];
const UP_SUITS = "DH";
const SUIT_NAMES = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
const FIFTEEN_TARGET = 15;

/** The front-end presets: rule family and deal parameters (generated from the registry). */
import { PRESETS } from "./presets.js";
export { PRESETS };

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
export class LayoutError extends CloverSolveError {}
export class DateError extends CloverSolveError {}
/** A well-formed move that the rules do not allow; `code` and `reason` say why. */
export class IllegalMoveError extends CloverSolveError {
  constructor(move, code, reason) {
    super(`illegal move '${move}': ${reason}`);
    this.code = code;
    this.reason = reason;
  }
}

/** Python's repr() of a string or number, so messages quote input as the toolkit does. */
export function pyRepr(value) {
  if (typeof value === "bigint" || typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null || value === undefined) return "None";
  if (typeof value !== "string") return String(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
    else out += ch;
  }
  return quote + out + quote;
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
  return RANKS.indexOf(card[0]) + 1;
}
/** A card's suit letter. */
export function suitOf(card) {
  return card[1];
}
/** True for Diamonds and Hearts. */
export function isRed(card) {
  return RED_SUITS.includes(card[1]);
}
/** The card with a suit symbol, e.g. "T\u2666". */
export function cardSymbol(card) {
  return card[0] + SUIT_SYMBOLS[card[1]];
}
function makeCard(rank, suit) {
  return RANKS[rank - 1] + suit;
}
function isCardText(text) {
  return typeof text === "string" && text.length === 2 && RANKS.includes(text[0]) &&
    SUITS.includes(text[1]);
}
/** PySolFC's unshuffled deck: suits C S H D, each Ace up (fifteen drops the Tens). */
function pysolDeck(withoutTens) {
  const deck = [];
  for (const suit of PYSOL_SUITS) {
    for (let rank = 1; rank <= 13; rank++) {
      if (!(withoutTens && rank === 10)) deck.push(makeCard(rank, suit));
    }
  }
  return deck;
}

// -- numbered deals ----------------------------------------------------------------------------

/** A deal number (Number, BigInt or decimal text) as a BigInt, or a DealNumberError. */
export function checkDealNumber(number) {
  let value = number;
  if (typeof value === "string") {
    const text = value.trim();
    if (/^-[0-9]+$/.test(text)) {
      throw new DealNumberError(`bad deal number: ${pyRepr(number)} (deals are 1 .. 10**20-1)`);
    }
    if (/^[0-9]+$/.test(text)) value = BigInt(text);
  } else if (typeof value === "number" && Number.isSafeInteger(value)) {
    value = BigInt(value);
  }
  if (typeof value !== "bigint") {
    throw new DealNumberError(`bad deal number: ${pyRepr(number)} (expected a whole number)`);
  }
  if (value < 1n || value > MAX_DEAL) {
    throw new DealNumberError(`bad deal number: ${pyRepr(number)} (deals are 1 .. 10**20-1)`);
  }
  return value;
}

function plainNumber(big) {
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
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
  const talon = shuffledTalon(big, pysolDeck(spec.family === "fifteen"));
  const shown = plainNumber(big);
  if (spec.family === "fifteen") {
    return { preset: spec.name, number: shown, cells: talon.slice(0, 16), stock: talon.slice(16) };
  }
  let dealt = talon;
  const foundations = {};
  if (spec.family === "clover") {
    const chosen = talon.filter((c) => CLOVER_FOUNDATION_CARDS.includes(c));
    dealt = talon.filter((c) => !CLOVER_FOUNDATION_CARDS.includes(c));
    for (const name of SUIT_FOUNDATIONS) foundations[name] = chosen.filter((c) => "F" + c[1] === name);
  } else {
    foundations[FOUNDATION] = [];
  }
  const piles = Array.from({ length: spec.piles }, () => []);
  dealt.forEach((card, i) => piles[i % spec.piles].push(card));
  return { preset: spec.name, number: shown, piles, foundations };
}

// -- notation ----------------------------------------------------------------------------------

const NUMBER = "[1-9][0-9]*";
const TRANSFER = new RegExp(`^(${NUMBER}|F[CDHS]?)>(${NUMBER}|F)$`);
const GROUP = new RegExp(`^${NUMBER}(\\+${NUMBER})+$`);
// A move's shape with any digits for its numbers ("0>F", "04>1", "-1>F", "0+3").
const LOOSE_NUMBERS = /^(?:(-?[0-9]+|F[CDHS]?)>(-?[0-9]+|F)|-?[0-9]+(\+-?[0-9]+)+)$/;

function placeNumber(text) {
  return text.length > 15 ? BigInt(text) : Number(text);
}

/**
 * Parse one move: {src, dst} for a card move (pile numbers or foundation names), {cells} for a
 * fifteen group. A MoveParseError quotes the input, with the toolkit's wording.
 */
export function parseMove(text) {
  if (typeof text !== "string") throw new MoveParseError(`not a move: ${pyRepr(text)}`);
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
  if (move.cells) return move.cells.join("+");
  return `${move.src}>${move.dst}`;
}

/** Parse a route given as space-separated text or as a list of move strings. */
export function parseRoute(route) {
  const parts = typeof route === "string" ? route.split(/\s+/).filter((p) => p !== "") : [...route];
  return parts.map((part, i) => {
    if (typeof part === "object" && part !== null) return part;
    try {
      return parseMove(part);
    } catch (error) {
      throw new MoveParseError(`move ${i + 1} of the route: ${error.message}`);
    }
  });
}

/** The route as space-separated text. */
export function formatRoute(moves) {
  return [...moves].map(formatMove).join(" ");
}

// -- layouts -----------------------------------------------------------------------------------

// The keys of layout JSON; any other key is refused.
const PILE_KEYS = ["preset", "number", "piles", "foundations"];
const GRID_KEYS = ["preset", "number", "cells", "stock"];

function checkCard(card) {
  if (!isCardText(card)) throw new LayoutError(`not a card: ${pyRepr(card)}`);
  return card;
}

/** Check a layout object's shape and cards; return a normalised deep copy. */
export function checkLayout(layout, preset = undefined) {
  if (typeof layout !== "object" || layout === null || Array.isArray(layout)) {
    throw new LayoutError("layout must be a JSON object");
  }
  const name = layout.preset ?? preset;
  if (preset !== undefined && name !== preset) {
    throw new LayoutError(`layout is for preset ${pyRepr(name)}, not ${pyRepr(preset)}`);
  }
  let spec;
  try {
    spec = findPreset(name);
  } catch (error) {
    throw new LayoutError(error.message);
  }
  const keys = spec.family === "fifteen" ? GRID_KEYS : PILE_KEYS;
  const unknown = Object.keys(layout).filter((key) => !keys.includes(key)).sort();
  if (unknown.length) {
    throw new LayoutError(
      `unknown layout key ${pyRepr(unknown[0])} (a ${spec.name} layout has ${keys.join(", ")})`,
    );
  }
  const number = layout.number ?? null;
  const seen = new Set();
  const note = (card) => {
    checkCard(card);
    if (seen.has(card)) throw new LayoutError(`duplicate card ${card} in ${spec.name} layout`);
    seen.add(card);
    if (spec.family === "fifteen" && card[0] === "T") {
      throw new LayoutError(`card ${card} is not in the ${spec.name} deck`);
    }
    return card;
  };
  if (spec.family === "fifteen") {
    const { cells, stock = [] } = layout;
    if (!Array.isArray(cells) || !Array.isArray(stock)) {
      throw new LayoutError("layout 'cells' and 'stock' must be lists");
    }
    if (cells.length !== GRID_CELLS) {
      throw new LayoutError(`a fifteen layout needs 16 cells, got ${cells.length}`);
    }
    const copy = cells.map((c) => (c === null ? null : note(c)));
    if (stock.length && copy.includes(null)) {
      throw new LayoutError("an empty cell while the stock holds cards cannot arise");
    }
    return { preset: spec.name, number, cells: copy, stock: stock.map(note) };
  }
  const { piles, foundations = {} } = layout;
  if (typeof foundations !== "object" || foundations === null || Array.isArray(foundations)) {
    throw new LayoutError("layout 'foundations' must be an object of lists of cards");
  }
  if (!Array.isArray(piles) || !piles.every(Array.isArray)) {
    throw new LayoutError("layout 'piles' must be a list of lists of cards");
  }
  if (piles.length !== spec.piles) {
    throw new LayoutError(`a ${spec.name} layout needs ${spec.piles} piles, got ${piles.length}`);
  }
  const names = spec.family === "clover" ? SUIT_FOUNDATIONS : [FOUNDATION];
  for (const key of Object.keys(foundations)) {
    if (!names.includes(key)) {
      throw new LayoutError(
        `unknown foundation ${pyRepr(key)} for ${spec.name} (expected ${names.join(", ")})`,
      );
    }
  }
  const found = {};
  for (const key of names) {
    const cards = foundations[key] ?? [];
    if (!Array.isArray(cards)) throw new LayoutError(`foundation ${pyRepr(key)} must be a list of cards`);
    found[key] = cards.map(note);
  }
  const copy = piles.map((pile) => pile.map(note));
  for (const card of pysolDeck(false)) {
    if (!seen.has(card)) throw new LayoutError(`card ${card} is missing from the ${spec.name} layout`);
  }
  if (spec.family === "clover") {
    for (const key of names) {
      const suit = key[1];
      const expected = found[key].map((_, h) => foundationCard(suit, h + 1));
      if (found[key].join(" ") !== expected.join(" ")) {
        throw new LayoutError(`foundation ${key} is out of sequence: ${pyRepr(found[key].join(" "))}`);
      }
    }
  } else {
    found[FOUNDATION].forEach((card, i) => {
      if (rankOf(card) !== (i % 13) + 1) {
        throw new LayoutError(`foundation card ${i + 1} (${card}) breaks the A, 2, 3 ... build`);
      }
    });
  }
  return { preset: spec.name, number, piles: copy, foundations: found };
}

function copyPosition(position) {
  const copy = { preset: position.preset, number: position.number };
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

// -- rules: thirteen, thirteen-return ----------------------------------------------------------

function areNeighbours(a, b) {
  return b === (a % 13) + 1 || b === ((a + 11) % 13) + 1;
}

function thirteenNeed(position) {
  return (position.foundations.F.length % 13) + 1;
}

function thirteenLegal(position, spec) {
  const moves = [];
  const { piles } = position;
  const need = thirteenNeed(position);
  piles.forEach((pile, i) => {
    if (pile.length && rankOf(pile.at(-1)) === need) moves.push(`${i + 1}>F`);
  });
  piles.forEach((pile, i) => {
    if (!pile.length) return;
    const rank = rankOf(pile.at(-1));
    piles.forEach((target, t) => {
      if (t !== i && target.length && areNeighbours(rank, rankOf(target.at(-1)))) {
        moves.push(`${i + 1}>${t + 1}`);
      }
    });
  });
  const foundation = position.foundations.F;
  if (spec.foundationReturn && foundation.length) {
    const rank = rankOf(foundation.at(-1));
    piles.forEach((target, t) => {
      if (target.length && areNeighbours(rank, rankOf(target.at(-1)))) moves.push(`F>${t + 1}`);
    });
  }
  return moves;
}

function thirteenOnto(position, card, dst) {
  const target = position.piles[Number(dst) - 1];
  if (!target.length) {
    return ["empty-target", `pile ${dst} is empty, and nothing may be placed on an empty pile`];
  }
  const top = target.at(-1);
  if (!areNeighbours(rankOf(card), rankOf(top))) {
    return ["target-refuses", `${card} is not one rank above or below ${top}`];
  }
  return null;
}

function thirteenWhy(position, spec, move) {
  if (move.cells) {
    return ["wrong-kind", "only single-card moves (such as 4>F or 4>11) exist in this game"];
  }
  const { src, dst } = move;
  const count = position.piles.length;
  for (const place of [src, dst]) {
    if (typeof place === "string" && place !== FOUNDATION) {
      return ["no-such-foundation", `this game has one foundation, called F, not ${place}`];
    }
    if (typeof place !== "string" && !(place >= 1 && place <= count)) {
      return ["no-such-pile", `there is no pile ${place} (piles are 1..${count})`];
    }
  }
  if (src === dst) return ["same-pile", "a card cannot move onto its own pile"];
  const foundation = position.foundations.F;
  if (src === FOUNDATION) {
    if (!spec.foundationReturn) {
      return ["no-return", "foundation cards never return to the piles in this preset"];
    }
    if (!foundation.length) return ["empty-source", "the foundation is empty"];
    return thirteenOnto(position, foundation.at(-1), dst);
  }
  const pile = position.piles[Number(src) - 1];
  if (!pile.length) return ["empty-source", `pile ${src} is empty`];
  const card = pile.at(-1);
  if (dst === FOUNDATION) {
    const need = thirteenNeed(position);
    if (rankOf(card) !== need) {
      return ["foundation-refuses", `the foundation needs rank ${need}, not ${card}`];
    }
    return null;
  }
  return thirteenOnto(position, card, dst);
}

function thirteenPush(position, move) {
  const source = move.src === FOUNDATION ? position.foundations.F : position.piles[move.src - 1];
  const target = move.dst === FOUNDATION ? position.foundations.F : position.piles[move.dst - 1];
  const card = source.pop();
  target.push(card);
  return [{ kind: "move", move: formatMove(move), cards: [card], from: String(move.src), to: String(move.dst) }];
}

// -- rules: cloverleaf, alexander --------------------------------------------------------------

function foundationCard(suit, height) {
  return UP_SUITS.includes(suit) ? makeCard(height, suit) : makeCard(14 - height, suit);
}

function foundationNext(position, suit) {
  const height = position.foundations["F" + suit].length;
  return height < 13 ? foundationCard(suit, height + 1) : null;
}

function fanAccepts(position, fan, card) {
  const cards = position.piles[fan];
  if (!cards.length) return card[0] === "A" || card[0] === "K";
  const top = cards.at(-1);
  return top[1] === card[1] && Math.abs(rankOf(top) - rankOf(card)) === 1;
}

/** The automatic moves: accepted fan top cards go home until none is; returns the steps. */
function cloverAutomatic(position, exempt) {
  const steps = [];
  let progress = true;
  while (progress) {
    progress = false;
    position.piles.forEach((fan, index) => {
      const top = fan.at(-1);
      if (top !== undefined && top !== exempt && top === foundationNext(position, top[1])) {
        fan.pop();
        position.foundations["F" + top[1]].push(top);
        steps.push({
          kind: "auto",
          move: `${index + 1}>F`,
          cards: [top],
          from: String(index + 1),
          to: "F" + top[1],
        });
        progress = true;
      }
    });
  }
  return steps;
}

function cloverLegal(position) {
  const moves = [];
  const count = position.piles.length;
  position.piles.forEach((fan, source) => {
    if (!fan.length) return;
    const card = fan.at(-1);
    if (card === foundationNext(position, card[1])) moves.push(`${source + 1}>F`);
    for (let target = 0; target < count; target++) {
      if (target !== source && fanAccepts(position, target, card)) moves.push(`${source + 1}>${target + 1}`);
    }
  });
  for (const name of SUIT_FOUNDATIONS) {
    const card = position.foundations[name].at(-1);
    if (card === undefined) continue;
    for (let target = 0; target < count; target++) {
      if (fanAccepts(position, target, card)) moves.push(`${name}>${target + 1}`);
    }
  }
  return moves;
}

function cloverSourceCard(position, source) {
  const count = position.piles.length;
  if (typeof source !== "string") {
    if (!(source >= 1 && source <= count)) {
      return ["no-such-pile", `there is no fan ${source} (fans are 1..${count})`];
    }
    const fan = position.piles[Number(source) - 1];
    return fan.length ? fan.at(-1) : ["empty-source", `fan ${source} is empty`];
  }
  if (!SUIT_FOUNDATIONS.includes(source)) {
    return ["no-such-foundation", `name the foundation: ${SUIT_FOUNDATIONS.join(", ")}, not ${pyRepr(source)}`];
  }
  const top = position.foundations[source].at(-1);
  return top !== undefined ? top : ["empty-source", `foundation ${source} is empty`];
}

function cloverWhy(position, move) {
  if (move.cells) return ["wrong-kind", "only single-card moves exist in this game"];
  const card = cloverSourceCard(position, move.src);
  if (typeof card !== "string") return card;
  const count = position.piles.length;
  if (move.dst === FOUNDATION) {
    const expected = foundationNext(position, card[1]);
    if (card === expected) return null;
    const name = SUIT_NAMES[card[1]];
    if (expected === null) return ["foundation-refuses", `the ${name} foundation is complete`];
    return ["foundation-refuses", `the ${name} foundation needs ${expected}, not ${card}`];
  }
  if (typeof move.dst === "string" || !(move.dst >= 1 && move.dst <= count)) {
    return ["no-such-pile", `there is no fan ${move.dst} (fans are 1..${count})`];
  }
  if (move.dst === move.src) return ["same-pile", "a card cannot move onto its own fan"];
  if (fanAccepts(position, Number(move.dst) - 1, card)) return null;
  const target = position.piles[Number(move.dst) - 1];
  if (!target.length) return ["empty-target", "only an Ace or a K may go on an empty fan"];
  return ["target-refuses", `${card} does not go on ${target.at(-1)} (same suit, one rank apart)`];
}

function cloverPush(position, move) {
  let card;
  if (typeof move.src === "string") card = position.foundations[move.src].pop();
  else card = position.piles[move.src - 1].pop();
  const to = move.dst === FOUNDATION ? "F" + card[1] : String(move.dst);
  if (move.dst === FOUNDATION) position.foundations[to].push(card);
  else position.piles[move.dst - 1].push(card);
  const step = { kind: "move", move: formatMove(move), cards: [card], from: String(move.src), to };
  return [step, ...cloverAutomatic(position, typeof move.src === "string" ? card : null)];
}

// -- rules: fifteen ----------------------------------------------------------------------------

function isNumberCard(card) {
  const rank = rankOf(card);
  return rank >= 1 && rank <= 9;
}

function* subsetsSumming(items, target) {
  const chosen = [];
  function* walk(start, remaining) {
    for (let index = start; index < items.length; index++) {
      const [cell, value] = items[index];
      if (value > remaining) continue;
      chosen.push(cell);
      if (value === remaining) yield chosen.join("+");
      else yield* walk(index + 1, remaining - value);
      chosen.pop();
    }
  }
  yield* walk(0, target);
}

function fifteenLegal(position) {
  const moves = [];
  for (const suit of SUITS) {
    const numbers = [];
    const court = [];
    position.cells.forEach((card, i) => {
      if (card === null || card[1] !== suit) return;
      if (isNumberCard(card)) numbers.push([i + 1, rankOf(card)]);
      else if (rankOf(card) >= 11) court.push(i + 1);
    });
    moves.push(...subsetsSumming(numbers, FIFTEEN_TARGET));
    if (court.length === 3) moves.push(court.join("+"));
  }
  return moves;
}

function groupReason(cards) {
  if (cards.length < 2) return ["group-too-small", "a group needs at least two cards"];
  if (new Set(cards.map(suitOf)).size !== 1) {
    return ["group-mixed-suits", "a group's cards must all be of one suit"];
  }
  if (cards.some((c) => c[0] === "T")) return ["group-has-ten", "Tens are not in this game"];
  if (cards.every(isNumberCard)) {
    const total = cards.reduce((sum, c) => sum + rankOf(c), 0);
    return total === FIFTEEN_TARGET ? null : ["group-total", `the numbers total ${total}, not 15`];
  }
  const ranks = cards.map(rankOf).sort((a, b) => a - b);
  if (ranks.join(",") === "11,12,13") return null;
  return ["group-court", "court cards go only as one suit's Jack, Queen and King together"];
}

function fifteenWhy(position, move) {
  if (!move.cells) return ["wrong-kind", "only groups of grid cells are moves in this game"];
  const { cells } = move;
  if (cells.some((c) => typeof c !== "number" || !(c >= 1 && c <= GRID_CELLS))) {
    return ["no-such-cell", "grid cells are 1..16"];
  }
  if (cells.some((c, i) => i > 0 && cells[i - 1] >= c)) {
    return ["cells-not-ascending", "cells must be distinct and ascending"];
  }
  const empty = cells.find((c) => position.cells[c - 1] === null);
  if (empty !== undefined) return ["empty-source", `cell ${empty} is empty`];
  return groupReason(cells.map((c) => position.cells[c - 1]));
}

function fifteenPush(position, move) {
  const cards = move.cells.map((c) => position.cells[c - 1]);
  for (const c of move.cells) position.cells[c - 1] = null;
  const refills = [];
  for (const c of move.cells) {
    if (position.stock.length) {
      position.cells[c - 1] = position.stock.shift();
      refills.push({ cell: c, card: position.cells[c - 1] });
    }
  }
  return [{ kind: "move", move: formatMove(move), cards, from: move.cells.map(String), to: "removed", refills }];
}

// -- the rules, whatever the game --------------------------------------------------------------

function specOf(position) {
  return findPreset(position.preset);
}

function asMove(move) {
  return typeof move === "string" ? parseMove(move) : move;
}

/** The legal player moves of a position, as strings, in the toolkit's order. */
export function legalMoves(position) {
  const spec = specOf(position);
  if (spec.family === "thirteen") return thirteenLegal(position, spec);
  if (spec.family === "clover") return cloverLegal(position);
  return fifteenLegal(position);
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
  let found;
  if (spec.family === "thirteen") found = thirteenWhy(position, spec, parsed);
  else if (spec.family === "clover") found = cloverWhy(position, parsed);
  else found = fifteenWhy(position, parsed);
  return found === null ? null : { code: found[0], reason: found[1] };
}

/** True when every card is home (removed, in fifteen). */
export function isWon(position) {
  if (position.cells) return position.stock.length === 0 && position.cells.every((c) => c === null);
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
  const family = specOf(position).family;
  let steps;
  if (family === "thirteen") steps = thirteenPush(next, parsed);
  else if (family === "clover") steps = cloverPush(next, parsed);
  else steps = fifteenPush(next, parsed);
  return { position: next, steps };
}

function layoutOf(preset, layoutOrNumber) {
  const spec = findPreset(preset);
  if (typeof layoutOrNumber === "object" && layoutOrNumber !== null) {
    return checkLayout(layoutOrNumber, spec.name);
  }
  return deal(spec.name, layoutOrNumber);
}

/**
 * The starting position of a deal number or layout: the layout itself, after the automatic
 * moves of the clover games. Returns {layout, position, steps} (steps: those automatic moves).
 */
export function start(preset, layoutOrNumber) {
  const layout = layoutOf(preset, layoutOrNumber);
  const position = copyPosition(layout);
  const steps = specOf(position).family === "clover" ? cloverAutomatic(position, null) : [];
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
  if (!Number.isInteger(count) || count < 1) throw new CloverSolveError("no deals to choose from");
  const days = daysSinceEpoch(date);
  return ((days % count) + count) % count;
}

/** The catalogue entry of the daily deal of `difficulty` for `date`. */
export function daily(catalogue, date, difficulty) {
  const entries = catalogue.deals
    .filter((entry) => entry.difficulty === difficulty)
    .sort((a, b) => (BigInt(a.number) < BigInt(b.number) ? -1 : 1));
  if (!entries.length) throw new CloverSolveError(`the catalogue has no ${difficulty} deals`);
  return entries[dailyIndex(date, entries.length)];
}

// -- hint --------------------------------------------------------------------------------------
//
// The toolkit's visible hint (cloversolve.visible_hint in Python: the same move, ties included),
// chosen from what a player sees without any search, and the catalogue route's next move when
// the position lies on a verified route.

/** Every set of number ranks (A..9) totalling 15, as text "r1,r2,..": 17 of them. */
function fifteenNumberGroups() {
  const groups = [];
  for (let mask = 1; mask < 1 << 9; mask++) {
    const ranks = [];
    for (let rank = 1; rank <= 9; rank++) if (mask & (1 << (rank - 1))) ranks.push(rank);
    const total = ranks.reduce((sum, rank) => sum + rank, 0);
    if (ranks.length >= 2 && total === FIFTEEN_TARGET) groups.push({ mask, key: ranks.join(",") });
  }
  return groups;
}

/** How many of the 9 splits of A..9 into three groups of 15 contain each number group. */
const SPLITS_CONTAINING = (() => {
  const groups = fifteenNumberGroups();
  const counts = new Map(groups.map((group) => [group.key, 0]));
  for (let a = 0; a < groups.length; a++) {
    for (let b = a + 1; b < groups.length; b++) {
      for (let c = b + 1; c < groups.length; c++) {
        const [x, y, z] = [groups[a], groups[b], groups[c]];
        if ((x.mask | y.mask | z.mask) === 0x1ff && !(x.mask & y.mask) && !(x.mask & z.mask) &&
          !(y.mask & z.mask)) {
          for (const group of [x, y, z]) counts.set(group.key, counts.get(group.key) + 1);
        }
      }
    }
  }
  return counts;
})();

/** fifteen: a court trio first; then the number group in the most splits, then the largest. */
function fifteenHintScore(position, move) {
  const ranks = move.split("+").map((cell) => rankOf(position.cells[Number(cell) - 1]));
  ranks.sort((a, b) => a - b);
  if (ranks.join(",") === "11,12,13") return [1, 0, 0];
  return [0, SPLITS_CONTAINING.get(ranks.join(",")) ?? 0, ranks.length];
}

/** How many cards lie above the topmost card of `cards` (bottom to top) that `wanted` accepts. */
function depthOf(cards, wanted) {
  for (let depth = 0; depth < cards.length; depth++) {
    if (wanted(cards[cards.length - 1 - depth])) return depth;
  }
  return null;
}

/** thirteen: the dig player's ranking of a pile move (null for a foundation return). */
function thirteenHintScore(position, move) {
  const [src, dst] = move.split(">");
  if (src === FOUNDATION) return null;
  const { piles } = position;
  const need = thirteenNeed(position);
  const after = (need % 13) + 1;
  const pile = piles[Number(src) - 1];
  const kingBottoms = piles.filter((p) => p.length && rankOf(p[0]) === 13).length;
  const cardsLeft = piles.reduce((sum, p) => sum + p.length, 0);
  const empties = pile.length === 1;
  const keepsKing = !(empties && rankOf(pile[0]) === 13 && kingBottoms === 1) || cardsLeft === 1;
  if (dst === FOUNDATION) {
    const exposes = pile.length > 1 && rankOf(pile.at(-2)) === after;
    return [keepsKing, 2, exposes, !empties, 0].map(Number);
  }
  const depth = depthOf(pile.slice(0, -1), (card) => rankOf(card) === need);
  const buries = piles[Number(dst) - 1].some((card) => rankOf(card) === need);
  return [keepsKing, depth === null ? 0 : 1, !buries, !empties, -(depth ?? 0)].map(Number);
}

/** cloverleaf, alexander: the dig player's ranking of a fan move (null for a return). */
function cloverHintScore(position, move) {
  const [src, dst] = move.split(">");
  if (src.startsWith("F")) return null;
  const wanted = new Set(
    [...SUITS].map((suit) => foundationNext(position, suit)).filter((card) => card !== null),
  );
  const fan = position.piles[Number(src) - 1];
  const uncovers = fan.length > 1 && wanted.has(fan.at(-2));
  const depth = depthOf(fan.slice(0, -1), (card) => wanted.has(card));
  const home = dst === FOUNDATION;
  const buries = !home && position.piles[Number(dst) - 1].some((card) => wanted.has(card));
  return [home || uncovers, depth !== null, !buries, -(depth ?? 0)].map(Number);
}

const HINT_SCORES = { thirteen: thirteenHintScore, clover: cloverHintScore, fifteen: fifteenHintScore };

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
  const score = HINT_SCORES[specOf(checked).family];
  let best = null;
  let bestScore = null;
  for (const move of legalMoves(checked)) {
    const mine = score(checked, move);
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
