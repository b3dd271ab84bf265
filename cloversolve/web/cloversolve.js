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
//
// This file is the module's public entry and only re-exports: each part lives in its own
// module beside it, lowest first (no module imports one of a later line, nor this entry):
//   errors.js, python-text.js, cards.js, deal-numbers.js, python-random.js, notation.js;
//   presets.js (generated), find-preset.js, dealing.js;
//   rules-common.js and each family's rules module, families.js (generated), family-rules.js,
//   layout.js;
//   game.js (positions, moves, replay), hint.js;
//   daily.js.

export {
  CloverSolveError, UnknownPresetError, DealNumberError, MoveParseError, CardParseError,
  LAYOUT_ERROR_CODES, LayoutError, DateError, IllegalMoveError, pyRepr,
} from "./errors.js";
export {
  RANKS, SUITS, SUIT_SYMBOLS, RED_SUITS, rankOf, suitOf, isRed, cardSymbol,
} from "./cards.js";
export { MAX_DEAL, checkDealNumber, jsonDealNumber } from "./deal-numbers.js";
export { PythonRandom } from "./python-random.js";
export {
  GRID_CELLS, FOUNDATION, SUIT_FOUNDATIONS, parseMove, formatMove, parseRoute, formatRoute,
} from "./notation.js";
export { PRESETS } from "./presets.js";
export { findPreset } from "./find-preset.js";
export { LAST_MS_DEAL, shuffledTalon, deal } from "./dealing.js";
export { checkLayout } from "./layout.js";
export { legalMoves, whyIllegal, isWon, isBlocked, play, start, replay } from "./game.js";
export { visibleHint, hint } from "./hint.js";
export { DAILY_EPOCH, daysSinceEpoch, dailyIndex, daily } from "./daily.js";
