// cloversolve.d.ts: the types of cloversolve.js's exports, for TypeScript and for editors.
//
// Written to match cloversolve.js (the toolkit's tests type-check a consumer of every export
// and a list of misuses that must fail). Layouts and positions are the toolkit's layout JSON;
// the preset name of a call decides their shape (piles and foundations, or grid cells and a
// stock), so `deal("fifteen", 1).cells` is typed and `deal("thirteen", 1).cells` is an error.

// -- names and cards ---------------------------------------------------------------------------

import type { FamilyName, GridPresetName, PresetName } from "./presets.js";
/** The front-end presets' names (generated from the toolkit's registry, in presets.d.ts). */
export type { FamilyName, GridPresetName, PresetName };
/** The presets played on piles (or fans) and foundations. */
export type PilePresetName = Exclude<PresetName, GridPresetName>;

export type Rank = "A" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "T" | "J" | "Q" | "K";
export type Suit = "C" | "D" | "H" | "S";
/** A card: rank then suit, e.g. "TD". */
export type Card = `${Rank}${Suit}`;
/** A foundation: "F" (one for all suits) or one suit's. */
export type FoundationName = "F" | "FC" | "FD" | "FH" | "FS";

/**
 * A deal number as the module accepts it: a BigInt, an exact Number (up to 2**53 - 1; a larger
 * one throws DealNumberError) or its decimal text. Deals are 1 .. 10**20 - 1.
 */
export type DealNumber = bigint | number | string;
/** A deal number as the module writes it (JSON-safe): a Number up to 2**53 - 1, else decimal text. */
export type JsonDealNumber = number | string;
/** A catalogue's difficulty classes. */
export type Difficulty = "easy" | "normal" | "hard";

// -- layouts and positions ---------------------------------------------------------------------

/** A layout or position of a pile game; every list bottom to top. */
export interface PileLayout<P extends PilePresetName = PilePresetName> {
  preset: P;
  /** The deal's number, or null for a hand-made position. */
  number: JsonDealNumber | null;
  piles: Card[][];
  /** "F" alone, or "FC", "FD", "FH" and "FS" (the preset's foundationNames). */
  foundations: { [name in FoundationName]?: Card[] };
}

/** A layout or position of a grid game. */
export interface GridLayout {
  preset: GridPresetName;
  number: JsonDealNumber | null;
  /** The 16 cells, null where a cell is empty. */
  cells: (Card | null)[];
  /** The stock, the next card drawn first. */
  stock: Card[];
}

/** The layout (or position) of preset P: GridLayout or PileLayout (a union for a union of names). */
export type Layout<P extends PresetName = PresetName> = P extends GridPresetName
  ? GridLayout
  : P extends PilePresetName
    ? PileLayout<P>
    : never;
/** A position during play: the same shape as a layout. */
export type Position<P extends PresetName = PresetName> = Layout<P>;

/** A layout as checkLayout, start and replay read it (missing keys take their defaults). */
export type LayoutInput<P extends PresetName = PresetName> = P extends GridPresetName
  ? {
      preset?: P;
      number?: DealNumber | null;
      cells: readonly (Card | null)[];
      stock?: readonly Card[];
    }
  : {
      preset?: P;
      number?: DealNumber | null;
      piles: readonly (readonly Card[])[];
      foundations?: { readonly [name in FoundationName]?: readonly Card[] };
    };

// -- presets -----------------------------------------------------------------------------------

/** A front-end preset's rule family, deck, shape and rule switches. */
export interface PresetSpec<P extends PresetName = PresetName> {
  readonly name: P;
  readonly family: FamilyName;
  /** Piles (fans), or grid cells in a grid game. */
  readonly piles: number;
  readonly rows: number;
  readonly foundationReturn: boolean;
  readonly grid: P extends GridPresetName ? true : false;
  readonly fans: boolean;
  readonly deckSize: number;
  readonly droppedRanks: readonly number[];
  readonly foundationNames: readonly FoundationName[];
  readonly foundationCards: readonly Card[];
  readonly foundationBuilds: { readonly [name in FoundationName]?: "up" | "down" };
}

export { PRESETS } from "./presets.js";
/** The preset called `name`; UnknownPresetError for any other name. */
export function findPreset<P extends PresetName>(name: P): PresetSpec<P>;

// -- constants ---------------------------------------------------------------------------------

export const RANKS: "A23456789TJQK";
export const SUITS: "CDHS";
export const SUIT_SYMBOLS: {
  readonly C: "\u2663";
  readonly D: "\u2666";
  readonly H: "\u2665";
  readonly S: "\u2660";
};
export const RED_SUITS: "DH";
/** 10**20 - 1, the last deal number. */
export const MAX_DEAL: bigint;
/** The last deal shuffled by the Microsoft-compatible generator. */
export const LAST_MS_DEAL: 31999;
/** Day 0 of the daily-deal rule. */
export const DAILY_EPOCH: "2000-01-01";
export const GRID_CELLS: 16;
export const FOUNDATION: "F";
export const SUIT_FOUNDATIONS: readonly ["FC", "FD", "FH", "FS"];

// -- errors ------------------------------------------------------------------------------------

/** The stable codes of LayoutError (the toolkit's LayoutError codes). */
export const LAYOUT_ERROR_CODES: readonly [
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
];
export type LayoutErrorCode = (typeof LAYOUT_ERROR_CODES)[number];

/** Why a move is illegal, as a stable identifier (whyIllegal, replay, IllegalMoveError). */
export type IllegalMoveCode =
  | "wrong-kind"
  | "no-such-pile"
  | "no-such-foundation"
  | "no-such-cell"
  | "same-pile"
  | "empty-source"
  | "empty-target"
  | "no-return"
  | "foundation-refuses"
  | "target-refuses"
  | "cells-not-ascending"
  | "group-too-small"
  | "group-mixed-suits"
  | "group-has-ten"
  | "group-total"
  | "group-court";

/** Base class of every error the module throws about a value it was given. */
export class CloverSolveError extends Error {
  constructor(message: string);
}
export class UnknownPresetError extends CloverSolveError {}
export class DealNumberError extends CloverSolveError {}
export class MoveParseError extends CloverSolveError {}
export class CardParseError extends CloverSolveError {}
export class DateError extends CloverSolveError {}
/** A layout or position the toolkit refuses. */
export class LayoutError extends CloverSolveError {
  constructor(message: string, code?: LayoutErrorCode);
  readonly code: LayoutErrorCode;
}
/** A well-formed move that the rules do not allow. */
export class IllegalMoveError extends CloverSolveError {
  constructor(move: string, code: IllegalMoveCode, reason: string);
  readonly code: IllegalMoveCode;
  /** The toolkit's reason text. */
  readonly reason: string;
}

// -- moves and routes --------------------------------------------------------------------------

/** A pile (fan) number, from 1. */
export type PlaceNumber = number | bigint;
/** A card move: from a pile or a foundation, to a pile or "F" (the card's foundation). */
export interface CardMove {
  src: PlaceNumber | FoundationName;
  dst: PlaceNumber | typeof FOUNDATION;
}
/** A group of grid cells removed together (ascending cell numbers). */
export interface GroupMove {
  cells: PlaceNumber[];
}
/** A parsed move. Pile numbers of more than 15 digits come back as BigInts. */
export type ParsedMove = CardMove | GroupMove;
/** A move as the functions take it: its text ("4>F", "FH>7", "3+7+12") or a parsed move. */
export type Move = string | ParsedMove;
/** A route: space-separated text, or any iterable of moves. */
export type Route = string | Iterable<Move>;

export function parseMove(text: string): ParsedMove;
/** A move's text; a string passes through unchanged. */
export function formatMove(move: Move): string;
export function parseRoute(route: Route): ParsedMove[];
export function formatRoute(moves: Route): string;

// -- cards and deals ---------------------------------------------------------------------------

/** A card's rank, 1 (Ace) .. 13 (King). */
export function rankOf(card: Card): number;
export function suitOf(card: Card): Suit;
export function isRed(card: Card): boolean;
/** The card with a suit symbol, e.g. "T\u2666". */
export function cardSymbol(card: Card): string;
/** Python's repr() of a value, in JS spelling (how the module's messages quote values). */
export function pyRepr(value: unknown, depth?: number): string;

/** A deal number as a BigInt; DealNumberError when it is not a deal number. */
export function checkDealNumber(number: DealNumber): bigint;
/** A deal number in the toolkit's JSON form. */
export function jsonDealNumber(number: DealNumber): JsonDealNumber;
/** PySolFC's shuffled talon of `deck` for deal `number`, first dealt first. */
export function shuffledTalon<C extends string>(number: DealNumber, deck: readonly C[]): C[];
/** Python's random.Random(seed) (MT19937). */
export class PythonRandom {
  constructor(seed: bigint | number | string);
  mt: Uint32Array;
  index: number;
  initGenrand(seed: number): void;
  initByArray(key: readonly number[]): void;
  /** The next 32-bit output. */
  next32(): number;
  /** A double in [0, 1), as Python's random(). */
  random(): number;
}

/** The layout of deal `number` of `preset`. */
export function deal<P extends PresetName>(preset: P, number: DealNumber): Layout<P>;
/** Check a layout exactly as the toolkit does; a normalised copy, or a LayoutError. */
export function checkLayout<P extends PresetName>(layout: unknown, preset: P): Layout<P>;
export function checkLayout(layout: unknown): Layout;

// -- rules and replay --------------------------------------------------------------------------

/** A pile (fan) number as text, or a foundation's name. */
export type PlaceText = `${number}` | FoundationName;
/** One card moved: by the player ("move") or automatically ("auto"). */
export interface CardStep {
  kind: "move" | "auto";
  move: string;
  cards: [Card];
  from: PlaceText;
  to: PlaceText;
}
/** A group of grid cells removed, and the cells refilled from the stock. */
export interface GroupStep {
  kind: "move";
  move: string;
  cards: Card[];
  /** The cells emptied, as text. */
  from: `${number}`[];
  to: "removed";
  refills: { cell: number; card: Card }[];
}
export type Step = CardStep | GroupStep;
/** A step of a replay, with the player move it belongs to (0: after the deal) and the position after it. */
export type ReplayStep<P extends PresetName = PresetName> = Step & {
  moveNumber: number;
  position: Position<P>;
};

/** The reason a move is illegal. */
export interface Illegal {
  code: IllegalMoveCode;
  reason: string;
}

/** The legal player moves, in the toolkit's order. */
export function legalMoves(position: Position): string[];
/** null for a legal move, else why not. */
export function whyIllegal(position: Position, move: Move): Illegal | null;
export function isWon(position: Position): boolean;
export function isBlocked(position: Position): boolean;
/** Play a legal move (IllegalMoveError otherwise): the new position and the steps made. */
export function play<P extends PresetName>(
  position: Position<P>,
  move: Move,
): { position: Position<P>; steps: Step[] };

/** A deal number, a layout object or its JSON text. */
export type LayoutOrNumber<P extends PresetName = PresetName> = DealNumber | LayoutInput<P>;

/** The start of a deal: the layout, the position after the automatic moves, and those moves. */
export function start<P extends PresetName>(
  preset: P,
  layoutOrNumber: LayoutOrNumber<P>,
): { layout: Layout<P>; position: Position<P>; steps: Step[] };

/** What every replay result holds. */
export interface ReplayCommon<P extends PresetName = PresetName> {
  layout: Layout<P>;
  /** The start, then the position after each legal player move. */
  positions: Position<P>[];
  steps: ReplayStep<P>[];
  movesPlayed: number;
}
/** A replay that played every move. */
export interface ReplayFinished<P extends PresetName = PresetName> extends ReplayCommon<P> {
  status: "won" | "not-won";
  illegalAt: null;
  reason: null;
  code: null;
}
/** A replay stopped by an illegal move. */
export interface ReplayIllegal<P extends PresetName = PresetName> extends ReplayCommon<P> {
  status: "illegal";
  /** The 1-based number of the illegal move. */
  illegalAt: number;
  /** "MOVE: why", as `cloversolve replay --json` prints it. */
  reason: string;
  code: IllegalMoveCode;
}
export type ReplayResult<P extends PresetName = PresetName> = ReplayFinished<P> | ReplayIllegal<P>;

export function replay<P extends PresetName>(
  preset: P,
  layoutOrNumber: LayoutOrNumber<P>,
  route: Route,
): ReplayResult<P>;

// -- catalogues, daily deals and hints ---------------------------------------------------------

/** A deal of a catalogue file (catalogues/PRESET.json), as far as the module reads it. */
export interface CatalogueEntry {
  number: JsonDealNumber;
  difficulty: Difficulty;
  /** The verified winning route. */
  route: string[];
  layout?: Layout;
  route_length?: number;
  metrics?: { [name: string]: unknown };
}
/** A catalogue file, as far as the module reads it. */
export interface Catalogue<E extends CatalogueEntry = CatalogueEntry> {
  format?: "cloversolve-catalogue";
  preset?: PresetName;
  deals: readonly E[];
  [key: string]: unknown;
}

/**
 * Days from 2000-01-01 to `date` ("YYYY-MM-DD", or a Date: its local calendar day); a date
 * outside the years 1 .. 9999 (text or Date) throws a DateError.
 */
export function daysSinceEpoch(date: string | Date): number;
/**
 * Days since 2000-01-01 modulo `count` (a whole Number of deals, at least 1; anything else
 * throws a CloverSolveError that quotes it).
 */
export function dailyIndex(date: string | Date, count: number): number;
/**
 * The catalogue entry of the daily deal of `difficulty` for `date`; a difficulty other than
 * "easy", "normal" or "hard" (spelt exactly so) throws a CloverSolveError that quotes it, and
 * so does a catalogue the toolkit would not read: `deals` not an array (or one with holes), an
 * entry that is not an object with a deal number in its JSON form (`JsonDealNumber`) and one of
 * those difficulties, or a deal listed twice.
 */
export function daily<E extends CatalogueEntry>(
  catalogue: Catalogue<E>,
  date: string | Date,
  difficulty: Difficulty,
): E;

/** What hint needs of a catalogue entry: its route, and its number or its layout. */
export type RouteSource =
  | { route: Route; number: DealNumber; layout?: LayoutInput }
  | { route: Route; layout: LayoutInput; number?: DealNumber };

/** A move chosen from what a player sees: no promise of a win (null when there is none). */
export interface VisibleHint {
  kind: "visible";
  move: string | null;
  promise: false;
}
/** The next move of a verified winning route: the game can still be won. */
export interface RouteHint {
  kind: "route";
  move: string;
  promise: true;
  /** The move's 0-based index in the route. */
  routeIndex: number;
}
export type Hint = VisibleHint | RouteHint;

/** The toolkit's visible hint, or null when the game is won or there is none. */
export function visibleHint(position: Position): string | null;
/** A route hint while `position` lies on the entry's route, else the visible hint. */
export function hint(position: Position, entry?: RouteSource | null): Hint;
