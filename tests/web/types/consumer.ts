// A correct consumer of every export of cloversolve.js: it must type-check (tsc --strict).
// tests/test_web_types.py checks that it imports every name the module exports.

import {
  CardParseError,
  CloverSolveError,
  DAILY_EPOCH,
  DateError,
  DealNumberError,
  FOUNDATION,
  GRID_CELLS,
  IllegalMoveError,
  LAST_MS_DEAL,
  LAYOUT_ERROR_CODES,
  LayoutError,
  MAX_DEAL,
  MoveParseError,
  PRESETS,
  PythonRandom,
  RANKS,
  RED_SUITS,
  SUITS,
  SUIT_FOUNDATIONS,
  SUIT_SYMBOLS,
  UnknownPresetError,
  cardSymbol,
  checkDealNumber,
  checkLayout,
  daily,
  dailyIndex,
  daysSinceEpoch,
  deal,
  findPreset,
  formatMove,
  formatRoute,
  hint,
  isBlocked,
  isRed,
  isWon,
  jsonDealNumber,
  legalMoves,
  parseMove,
  parseRoute,
  play,
  pyRepr,
  rankOf,
  replay,
  shuffledTalon,
  start,
  suitOf,
  visibleHint,
  whyIllegal,
} from "cloversolve";
import type {
  Card,
  Catalogue,
  CatalogueEntry,
  GridLayout,
  Hint,
  IllegalMoveCode,
  LayoutErrorCode,
  PileLayout,
  Position,
  PresetName,
  ReplayResult,
  Step,
} from "cloversolve";

// Deals: the preset's name decides the layout's shape.
const thirteen: PileLayout<"thirteen"> = deal("thirteen", 1);
const fifteen: GridLayout = deal("fifteen", 99999999999999999999n);
const fromText = deal("cloverleaf", "12345");
const firstPile: Card[] = thirteen.piles[0];
const cells: (Card | null)[] = fifteen.cells;
const stockLeft: number = fifteen.stock.length;
const foundation: Card[] | undefined = fromText.foundations.FC;
const anyPreset = (name: PresetName): Position => deal(name, 7);

// Presets and constants.
const spec = findPreset("alexander");
const fans: boolean = spec.fans;
const gridFlag: true = findPreset("fifteen").grid;
const presetNames: PresetName[] = Object.keys(PRESETS) as PresetName[];
const ranks: string = RANKS + SUITS + RED_SUITS + DAILY_EPOCH + FOUNDATION + SUIT_SYMBOLS.H;
const limits: bigint = MAX_DEAL + BigInt(LAST_MS_DEAL + GRID_CELLS);
const suitFoundation: "FC" | "FD" | "FH" | "FS" = SUIT_FOUNDATIONS[0];
const layoutCode: LayoutErrorCode = LAYOUT_ERROR_CODES[0];

// Cards and numbers.
const card: Card = "TD";
const facts: [number, string, boolean, string] = [rankOf(card), suitOf(card), isRed(card), cardSymbol(card)];
const quoted: string = pyRepr({ a: [1, "b"] });
const exact: bigint = checkDealNumber(2n ** 60n);
const shown: number | string = jsonDealNumber("99999999999999999999");
const talon: Card[] = shuffledTalon(5, thirteen.piles.flat());
const generator = new PythonRandom(42n);
const draw: number = generator.random() + generator.next32();

// Moves, rules and replay.
const move = parseMove("4>F");
const text: string = formatMove(move) + formatMove({ src: 4, dst: "F" }) + formatMove({ cells: [1, 2] });
const route = parseRoute(["4>1", { src: 4, dst: FOUNDATION }]);
const routeText: string = formatRoute(route) + formatRoute("4>1 4>F");
const begin = start("thirteen", 1);
const afterDeal: Step[] = begin.steps;
const moves: string[] = legalMoves(begin.position);
const why = whyIllegal(begin.position, "4>4");
const whyCode: IllegalMoveCode | undefined = why?.code;
const played = play(begin.position, moves[0]);
const next: Position = played.position;
const over: boolean = isWon(next) || isBlocked(next);
const checked = checkLayout(JSON.parse("{}") as unknown, "fifteen");
const checkedCells: (Card | null)[] = checked.cells;
const anyChecked: Position = checkLayout({ preset: "thirteen", piles: [] });

const result: ReplayResult<"cloverleaf"> = replay("cloverleaf", 1, "14>11 12>11 12>13");
if (result.status === "illegal") {
  const at: number = result.illegalAt;
  const reason: string = result.reason;
  void [at, reason];
} else {
  const none: null = result.code;
  void none;
}
const lastPosition = result.positions[result.positions.length - 1];
const stepNumbers: number[] = result.steps.map((step) => step.moveNumber);
for (const step of result.steps) {
  if (step.to === "removed") {
    const refilled: number[] = step.refills.map((r) => r.cell);
    void refilled;
  } else {
    const moved: Card = step.cards[0];
    void moved;
  }
}
const fromLayout = replay("fifteen", { cells: fifteen.cells, stock: fifteen.stock }, ["1+2"]);
const fromJsonText = start("thirteen", JSON.stringify(thirteen));

// Daily deals and hints.
const catalogue: Catalogue = {
  preset: "thirteen",
  deals: [{ number: 1, difficulty: "hard", route: ["4>1", "4>F"] }],
};
const days: number = daysSinceEpoch("2025-01-01") + daysSinceEpoch(new Date());
const index: number = dailyIndex("2025-01-01", 366);
const entry: CatalogueEntry = daily(catalogue, "2025-01-01", "hard");
const advice: Hint = hint(begin.position, entry);
if (advice.kind === "route") {
  const k: number = advice.routeIndex;
  const sure: true = advice.promise;
  void [k, sure];
} else {
  const maybe: string | null = advice.move;
  void maybe;
}
const plain: Hint = hint(lastPosition);
const fromLayoutEntry: Hint = hint(begin.position, { layout: thirteen, route: "4>1" });
const visible: string | null = visibleHint(next);

// Errors.
function describeError(error: unknown): string {
  if (error instanceof LayoutError) return `${error.code}: ${error.message}`;
  if (error instanceof IllegalMoveError) return `${error.code}: ${error.reason}`;
  const kinds = [UnknownPresetError, DealNumberError, MoveParseError, CardParseError, DateError];
  if (kinds.some((kind) => error instanceof kind)) return (error as CloverSolveError).message;
  return error instanceof CloverSolveError ? error.name : String(error);
}
const made = [new LayoutError("bad", "bad-field"), new IllegalMoveError("4>4", "same-pile", "why")];

void [
  firstPile, cells, stockLeft, foundation, anyPreset, fans, gridFlag, presetNames, ranks, limits,
  suitFoundation, layoutCode, facts, quoted, exact, shown, talon, draw, text, routeText, afterDeal,
  whyCode, over, checkedCells, anyChecked, stepNumbers, fromLayout, fromJsonText, days, index,
  plain, fromLayoutEntry, visible, describeError, made, spec,
];
