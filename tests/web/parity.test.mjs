// Parity of cloversolve.js's checks with the Python toolkit, run by node's own test runner.
// tests/test_web_parity.py writes layouts and move texts with the toolkit's verdict on each to
// a JSON file and runs `node --test` on this file with CLOVERSOLVE_PARITY naming it.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const vectors = JSON.parse(readFileSync(process.env.CLOVERSOLVE_PARITY, "utf8"));
const cs = await import(pathToFileURL(vectors.module).href);

/** A value read from the vectors' JSON, with {"$bigint": text} as a BigInt. */
function revive(value) {
  if (Array.isArray(value)) return value.map(revive);
  if (typeof value !== "object" || value === null) return value;
  if (Object.keys(value).join() === "$bigint") return BigInt(value.$bigint);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
}

/** Whether replay reads `value` as layout JSON text (else as a deal number). */
function isLayoutText(value) {
  return typeof value === "string" && value.trimStart().startsWith("{");
}

/**
 * The module's verdict on a layout (layout JSON text: as replay reads it) for `preset` (any
 * preset when undefined): null when accepted, else the LayoutError's code and text.
 */
function layoutVerdict(preset, layout) {
  try {
    if (isLayoutText(layout)) cs.start(preset, layout);
    else cs.checkLayout(layout, preset);
    return null;
  } catch (error) {
    if (error.name !== "LayoutError") throw error;
    return { code: error.code, message: error.message };
  }
}

/** What replay(preset, layout, "") does: null when it replays, else the error's code. */
function replayVerdict(preset, layout) {
  try {
    cs.replay(preset, layout, "");
    return null;
  } catch (error) {
    if (error.name !== "LayoutError") throw error;
    return error.code;
  }
}

/** The module's verdict on a move text in deal 1 of `preset`, as the toolkit words it. */
function moveVerdict(preset, text) {
  try {
    cs.parseMove(text);
  } catch (error) {
    if (error.name !== "MoveParseError") throw error;
    return { kind: "malformed", text: error.message };
  }
  const why = cs.whyIllegal(cs.start(preset, 1).position, text);
  if (why !== null) return { kind: "illegal", text: why.reason };
  return { kind: "legal", text: cs.formatMove(cs.parseMove(text)) };
}

/** Whether the module's verdict is the toolkit's (a null message: the words are not compared). */
function agree(mine, python) {
  if (python === null || mine === null) return python === mine;
  return mine.code === python.code && (python.message === null || mine.message === python.message);
}

/** Assert that no case failed, showing the first few failures. */
function assertAll(failures, what) {
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} ${what} differ`);
}

test("every layout gets the toolkit's verdict: accepted, or the same code and message", () => {
  const failures = [];
  for (const item of vectors.layouts) {
    const layout = revive(item.layout);
    const mine = layoutVerdict(item.preset, layout);
    const bare = isLayoutText(layout) ? item.bare : layoutVerdict(undefined, layout);
    const replayed = typeof layout === "object" && layout !== null
      ? replayVerdict(item.preset, layout)
      : (mine?.code ?? null);
    if (!agree(mine, item.verdict) || !agree(bare, item.bare) || replayed !== (item.verdict?.code ?? null)) {
      failures.push({ preset: item.preset, layout: item.layout, mine, python: item.verdict, bare, replayed });
    }
  }
  assertAll(failures, "layout verdicts");
  assert.ok(vectors.layouts.length >= vectors.minimum.layouts);
});

test("every move text is legal, illegal or malformed exactly as in the toolkit", () => {
  const failures = [];
  for (const item of vectors.moves) {
    const mine = moveVerdict(item.preset, item.text);
    try {
      assert.deepEqual(mine, item.verdict);
    } catch {
      failures.push({ preset: item.preset, text: item.text, mine, python: item.verdict });
    }
  }
  assertAll(failures, "move verdicts");
  assert.ok(vectors.moves.length >= vectors.minimum.moves);
});

test("the layouts the user reported are refused as the toolkit refuses them", { skip: !vectors.reported }, () => {
  const deal1 = cs.deal("thirteen", 1);
  const swapped = structuredClone(deal1);
  [swapped.piles[0][0], swapped.piles[1][0]] = [swapped.piles[1][0], swapped.piles[0][0]];
  const fifteen = cs.deal("fifteen", 1);
  const reported = {
    "bottom cards of piles 1 and 2 swapped": ["thirteen", swapped],
    '"number": 2': ["thirteen", { ...deal1, number: 2 }],
    '"number": "one"': ["thirteen", { ...deal1, number: "one" }],
    '"number": true': ["thirteen", { ...deal1, number: true }],
    "fifteen with one stock card removed": ["fifteen", { ...fifteen, stock: fifteen.stock.slice(0, -1) }],
  };
  for (const [what, [preset, layout]] of Object.entries(reported)) {
    const python = vectors.reported[what];
    assert.ok(python, what);
    assert.throws(() => cs.replay(preset, layout, ""), { name: "LayoutError", ...python }, what);
  }
});

test("move text and move objects: the user's cases get the module's own errors", () => {
  const start = cs.start("thirteen", 1).position;
  assert.throws(() => cs.replay("thirteen", 1, "9".repeat(100) + ">F"), {
    name: "MoveParseError",
    message: "move 1 of the route: not a move: '99999999999999999999'... (102 characters; a move has at most 64)",
  });
  assert.throws(() => cs.whyIllegal(start, { src: 4.5, dst: "F" }), { name: "MoveParseError" });
  assert.throws(() => cs.play(start, { src: 4.5, dst: "F" }), { name: "MoveParseError" });
  // BigInt pile numbers are whole numbers: the move is judged as its text "4>1" is.
  assert.deepEqual(cs.whyIllegal(start, { src: 4n, dst: 1n }), cs.whyIllegal(start, "4>1"));
  assert.equal(cs.formatMove({ src: 4n, dst: 1n }), "4>1");
  for (const bad of [{ src: 4, dst: "F", cells: [1, 2] }, { cells: [1.5, 2] }, { src: "G", dst: 1 }, {}, []]) {
    assert.throws(() => cs.whyIllegal(start, bad), { name: "MoveParseError" }, JSON.stringify(bad));
  }
  assert.throws(() => cs.legalMoves(null), { name: "LayoutError", code: "not-an-object" });
  assert.throws(() => cs.daily(null, "2024-01-01", "easy"), {
    name: "CloverSolveError",
    message: "not a catalogue: null (expected an object with a list of deals)",
  });
  const entry = { number: 5, difficulty: "easy" };
  assert.throws(() => cs.daily({ deals: [entry, , entry] }, "2024-01-01", "easy"), {
    name: "CloverSolveError",
    message: "not a valid catalogue: deals/1: no entry (a hole in the list)",
  });
});

test("no exported function throws a raw TypeError on bad arguments", () => {
  const start = cs.start("cloverleaf", 1).position;
  const odd = [
    null, undefined, 1.5, -1, "", "x", true, {}, [], [null], 4n, { piles: null }, Symbol("s"),
    { preset: "thirteen", piles: [[5]], foundations: { F: [] } },
    { preset: "cloverleaf", piles: [], foundations: null },
    { preset: "fifteen", cells: null, stock: [] },
    { src: 1, dst: null }, { cells: "1+2" }, ["4>F", null],
  ];
  const calls = {
    findPreset: (v) => cs.findPreset(v),
    rankOf: (v) => cs.rankOf(v),
    suitOf: (v) => cs.suitOf(v),
    isRed: (v) => cs.isRed(v),
    cardSymbol: (v) => cs.cardSymbol(v),
    checkDealNumber: (v) => cs.checkDealNumber(v),
    PythonRandom: (v) => new cs.PythonRandom(v),
    shuffledTalon: (v) => cs.shuffledTalon(1, v),
    "shuffledTalon number": (v) => cs.shuffledTalon(v, []),
    deal: (v) => cs.deal("thirteen", v),
    "deal preset": (v) => cs.deal(v, 1),
    parseMove: (v) => cs.parseMove(v),
    formatMove: (v) => cs.formatMove(v),
    parseRoute: (v) => cs.parseRoute(v),
    "parseRoute list": (v) => cs.parseRoute([v]),
    formatRoute: (v) => cs.formatRoute(v),
    checkLayout: (v) => cs.checkLayout(v),
    "checkLayout preset": (v) => cs.checkLayout(cs.deal("thirteen", 1), v),
    legalMoves: (v) => cs.legalMoves(v),
    whyIllegal: (v) => cs.whyIllegal(v, "1>F"),
    "whyIllegal move": (v) => cs.whyIllegal(start, v),
    isWon: (v) => cs.isWon(v),
    isBlocked: (v) => cs.isBlocked(v),
    play: (v) => cs.play(v, "1>F"),
    "play move": (v) => cs.play(start, v),
    start: (v) => cs.start("thirteen", v),
    replay: (v) => cs.replay("thirteen", v, ""),
    "replay route": (v) => cs.replay("thirteen", 1, v),
    daysSinceEpoch: (v) => cs.daysSinceEpoch(v),
    dailyIndex: (v) => cs.dailyIndex("2024-01-01", v),
    "dailyIndex date": (v) => cs.dailyIndex(v, 3),
    daily: (v) => cs.daily(v, "2024-01-01", "easy"),
    "daily entries": (v) => cs.daily({ deals: [v] }, "2024-01-01", "easy"),
    "daily difficulty": (v) => cs.daily({ deals: [] }, "2024-01-01", v),
    "start preset": (v) => cs.start(v, 1),
  };
  const failures = [];
  for (const [name, call] of Object.entries(calls)) {
    for (const value of odd) {
      try {
        call(value);
      } catch (error) {
        if (!(error instanceof cs.CloverSolveError)) {
          failures.push(`${name}(${typeof value === "symbol" ? "Symbol" : cs.pyRepr(value)}): ${error}`);
        }
      }
    }
  }
  assertAll(failures, "calls");
});

test("a Date has the years a date text has, 1 .. 9999", () => {
  const inYear = (year, month, day) => {
    const date = new Date(2000, month - 1, day, 12);
    date.setFullYear(year, month - 1, day);
    return date;
  };
  assert.equal(cs.daysSinceEpoch(inYear(1, 1, 1)), cs.daysSinceEpoch("0001-01-01"));
  assert.equal(cs.daysSinceEpoch(inYear(9999, 12, 31)), cs.daysSinceEpoch("9999-12-31"));
  assert.throws(() => cs.daysSinceEpoch("0000-12-31"), { name: "DateError" });
  for (const [year, month, day] of [[0, 12, 31], [-5, 1, 1], [10000, 1, 1], [275760, 9, 12]]) {
    assert.throws(() => cs.daysSinceEpoch(inYear(year, month, day)), {
      name: "DateError",
      message: `bad date: a Date in year ${year} (expected years 1 .. 9999)`,
    });
  }
});

test("messages use JS spelling and say what is wrong", () => {
  const deal1 = cs.deal("thirteen", 1);
  assert.throws(() => cs.checkLayout({ ...deal1, number: true }), {
    message: "layout number must be an integer or null, got true",
  });
  assert.throws(() => cs.checkLayout({ ...deal1, preset: null }, "thirteen"), {
    message: "layout is for preset null, not 'thirteen'",
  });
  assert.throws(() => cs.checkLayout({ ...deal1, piles: [[null], ...deal1.piles.slice(1)] }), {
    message: "not a card: null",
  });
  assert.throws(() => cs.deal("thirteen", 2 ** 53 + 1), {
    name: "DealNumberError",
    message: /is not exact .*pass a BigInt or a decimal string/,
  });
  assert.throws(() => cs.dailyIndex("2024-01-01", 1.5), {
    name: "CloverSolveError",
    message: "bad count: 1.5 (expected a whole number of deals)",
  });
  assert.throws(() => cs.dailyIndex("2024-01-01", 0), { message: "no deals to choose from" });
  assert.throws(() => cs.dailyIndex("2024-01-01", 366n), {
    name: "CloverSolveError",
    message: "bad count: 366n (expected a whole number of deals)",
  });
  assert.deepEqual([...cs.LAYOUT_ERROR_CODES], vectors.codes);
});
