// Cross-checks of cloversolve.js against the Python toolkit, run by node's own test runner.
// tests/test_web_module.py writes the Python side's answers to a JSON file and runs
// `node --test` on this file with CLOVERSOLVE_EXPECTED naming it.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const expected = JSON.parse(readFileSync(process.env.CLOVERSOLVE_EXPECTED, "utf8"));
const cs = await import(pathToFileURL(expected.module).href);

/** A layout or position with its number as text, for comparison with the Python side. */
function plain(layout) {
  return { ...layout, number: layout.number === null ? null : String(layout.number) };
}

/** Assert that no case failed, showing the first few failures. */
function assertAll(failures, what) {
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} ${what} differ`);
}

test("layouts equal the Python layouts", () => {
  const failures = [];
  let count = 0;
  for (const [preset, layouts] of Object.entries(expected.layouts)) {
    for (const layout of layouts) {
      count++;
      const mine = plain(cs.deal(preset, layout.number));
      try {
        assert.deepEqual(mine, layout);
      } catch {
        failures.push({ preset, number: layout.number, mine, python: layout });
      }
    }
  }
  assertAll(failures, "layouts");
  assert.ok(count >= 5 * 1201, `only ${count} layouts compared`);
});

test("a layout key the layout JSON does not have is refused as in Python", () => {
  for (const { layout, message } of expected.layout_errors) {
    assert.throws(() => cs.checkLayout(layout), { name: "LayoutError", message });
  }
});

test("deal numbers: Number, BigInt and text give the same deal; bad numbers are refused", () => {
  assert.deepEqual(cs.deal("thirteen", 42), cs.deal("thirteen", 42n));
  assert.deepEqual(cs.deal("thirteen", 42), cs.deal("thirteen", "42"));
  for (const { number, message } of expected.bad_numbers) {
    assert.throws(() => cs.deal("thirteen", number), { name: "DealNumberError", message });
  }
  assert.throws(() => cs.deal("thirten", 1), { name: "UnknownPresetError" });
});

test("every catalogue route replays to a win", () => {
  const failures = [];
  let count = 0;
  for (const path of expected.catalogues) {
    const catalogue = JSON.parse(readFileSync(path, "utf8"));
    for (const entry of catalogue.deals) {
      count++;
      const fromNumber = cs.replay(catalogue.preset, entry.number, entry.route);
      const fromLayout = cs.replay(catalogue.preset, entry.layout, entry.route);
      const same = JSON.stringify(plain(cs.deal(catalogue.preset, entry.number))) ===
        JSON.stringify(plain(entry.layout));
      if (fromNumber.status !== "won" || fromLayout.status !== "won" || !same) {
        failures.push({ path, number: entry.number, status: fromNumber.status, reason: fromNumber.reason });
      }
      const last = fromNumber.steps.at(-1);
      if (!cs.isWon(last.position) || fromNumber.positions.length !== entry.route.length + 1) {
        failures.push({ path, number: entry.number, problem: "steps do not end won" });
      }
    }
  }
  assertAll(failures, "catalogue routes");
  assert.ok(count >= 5 * 1098, `only ${count} catalogue routes replayed`);
});

test("corrupted routes stop at the same move, for the same reason, as in Python", () => {
  const failures = [];
  for (const item of expected.corrupted) {
    const result = cs.replay(item.preset, item.number, item.route);
    const mine = {
      status: result.status,
      moves_played: result.movesPlayed,
      illegal_at: result.illegalAt,
      reason: result.reason,
      position: plain(result.positions.at(-1)),
    };
    try {
      assert.deepEqual(mine, item.expected);
    } catch {
      failures.push({ route: item.route, mine, python: item.expected });
    }
  }
  assertAll(failures, "corrupted-route results");
  assert.ok(expected.corrupted.filter((i) => i.expected.status === "illegal").length >= 250);
});

test("legal moves equal the Python legal moves along routes", () => {
  const failures = [];
  for (const item of expected.legal) {
    const result = cs.replay(item.preset, item.number, item.route);
    const mine = result.positions.map(cs.legalMoves);
    if (JSON.stringify(mine) !== JSON.stringify(item.legal)) failures.push({ number: item.number, preset: item.preset });
  }
  assertAll(failures, "legal-move lists");
});

test("the reason for every probed move equals the Python reason", () => {
  const failures = [];
  for (const probe of expected.probes) {
    const position = cs.replay(probe.preset, probe.number, probe.route).positions.at(-1);
    probe.moves.forEach((move, i) => {
      const why = cs.whyIllegal(position, move);
      const mine = why === null ? null : why.reason;
      if (mine !== probe.reasons[i]) failures.push({ preset: probe.preset, move, mine, python: probe.reasons[i] });
    });
  }
  assertAll(failures, "reasons");
});

test("move parsing and formatting match the Python notation", () => {
  for (const { text, message } of expected.parse_errors) {
    assert.throws(() => cs.parseMove(text), { name: "MoveParseError", message });
  }
  for (const { route, message } of expected.route_errors) {
    assert.throws(() => cs.replay("thirteen", 1, route), { name: "MoveParseError", message });
  }
  const unordered = expected.unordered_route_error;
  assert.match(unordered, /^not a route: a set has no order/);
  const route = new Set(["4>1", "4>F"]);
  assert.throws(() => cs.formatRoute(route), { name: "MoveParseError", message: unordered });
  assert.throws(() => cs.parseRoute(route), { name: "MoveParseError", message: unordered });
  assert.throws(() => cs.replay("thirteen", 1, route), { name: "MoveParseError", message: unordered });
  const map = unordered.replace("a set", "a map");
  assert.throws(() => cs.formatRoute(new Map()), { name: "MoveParseError", message: map });
  for (const text of expected.good_moves) {
    assert.equal(cs.formatMove(cs.parseMove(text)), text);
  }
  assert.equal(cs.formatRoute(cs.parseRoute(" 4>F\t3>11  FH>7 3+7+12 ")), "4>F 3>11 FH>7 3+7+12");
  assert.deepEqual(cs.parseMove("FH>7"), { src: "FH", dst: 7 });
  assert.deepEqual(cs.parseMove("3+7+12"), { cells: [3, 7, 12] });
});

test("dailyIndex and daily match the guide's vectors and the daily command", () => {
  for (const { date, count, index } of expected.daily_index) {
    assert.equal(cs.dailyIndex(date, count), index, `${date} ${count}`);
  }
  const catalogues = {};
  for (const path of expected.catalogues) {
    const data = JSON.parse(readFileSync(path, "utf8"));
    catalogues[data.preset] = data;
  }
  for (const item of expected.daily) {
    const entry = cs.daily(catalogues[item.preset], item.date, item.difficulty);
    assert.equal(entry.number, item.number, JSON.stringify(item));
    if (item.count !== undefined) assert.equal(cs.dailyIndex(item.date, item.count), item.index);
  }
  assert.equal(cs.dailyIndex(new Date(2024, 1, 29, 23, 59), 366), 41);
  assert.throws(() => cs.dailyIndex("2025-02-30", 366), { name: "DateError" });
  assert.throws(() => cs.dailyIndex(new Date("not a date"), 366), { name: "DateError" });
  assert.throws(() => cs.dailyIndex("2025-01-01", 0), { name: "CloverSolveError" });
  const catalogue = Object.values(catalogues)[0];
  for (const { difficulty, message } of expected.difficulty_errors) {
    assert.throws(() => cs.daily(catalogue, "2025-01-01", difficulty), {
      name: "CloverSolveError",
      message,
    });
  }
  for (const { catalogue: refused, message } of expected.catalogue_errors) {
    assert.throws(() => cs.daily(refused, "2025-01-01", "easy"), {
      name: "CloverSolveError",
      message,
    });
  }
});
