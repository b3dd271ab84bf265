// Cross-checks of cloversolve.js's hint against the Python toolkit's visible hint, run by
// node's own test runner. tests/test_web_hint.py writes positions of real games with Python's
// hints to a JSON file and runs `node --test` on this file with CLOVERSOLVE_EXPECTED naming it.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const expected = JSON.parse(readFileSync(process.env.CLOVERSOLVE_EXPECTED, "utf8"));
const cs = await import(pathToFileURL(expected.module).href);
const allCases = Object.entries(expected.cases).flatMap(([preset, cases]) =>
  cases.map((c) => ({ preset, ...c })),
);

/** Assert that no case failed, showing the first few failures. */
function assertAll(failures, what) {
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} ${what} differ`);
}

test("every visible hint equals Python's", () => {
  const failures = [];
  for (const c of allCases) {
    const mine = cs.hint(c.position);
    const wanted = { kind: "visible", move: c.visible, promise: false };
    if (JSON.stringify(mine) !== JSON.stringify(wanted) || cs.visibleHint(c.position) !== c.visible) {
      failures.push({ preset: c.preset, position: c.position, mine, python: c.visible });
    }
  }
  assertAll(failures, "visible hints");
  // (the Python side names how many it wrote: a share of its sample, or the full sample)
  assert.ok(allCases.length >= expected.minimum, `only ${allCases.length} positions compared`);
});

test("a position on the catalogue route gets the route's move, others the visible hint", () => {
  const failures = [];
  for (const c of allCases) {
    const mine = cs.hint(c.position, c.entry);
    const wanted = c.withEntry.kind === "route"
      ? { kind: "route", move: c.withEntry.move, promise: true, routeIndex: c.withEntry.routeIndex }
      : { kind: "visible", move: c.visible, promise: false };
    if (JSON.stringify(mine) !== JSON.stringify(wanted)) {
      failures.push({ preset: c.preset, mine, wanted });
    }
  }
  assertAll(failures, "hints with a catalogue entry");
});

test("hints are JSON data and leave the position as it was", () => {
  for (const c of allCases.slice(0, 50)) {
    const before = JSON.stringify(c.position);
    const given = cs.hint(c.position, c.entry);
    assert.deepEqual(JSON.parse(JSON.stringify(given)), given);
    assert.equal(JSON.stringify(c.position), before);
  }
});

test("bad arguments throw the module's errors, never a TypeError", () => {
  const position = allCases.find((c) => c.preset === "thirteen").position;
  const entry = allCases.find((c) => c.preset === "thirteen").entry;
  const bad = [
    [undefined],
    [null],
    [42],
    ["4>F"],
    [[]],
    [{ preset: "nine", piles: [] }],
    [{ preset: "thirteen", piles: 3 }],
    [{ preset: "thirteen", piles: [[1, 2]] }],
    [{ ...position, foundations: null }],
    [position, 5],
    [position, "4>F"],
    [position, []],
    [position, { route: entry.route }],
    [position, { number: entry.number, route: 7 }],
    [position, { number: entry.number, route: [null] }],
    [position, { number: "x", route: entry.route }],
    [position, { number: entry.number, route: entry.route.slice(0, -1) }],
    [position, { number: entry.number, route: ["1>1"] }],
    [position, { layout: { preset: "alexander" }, route: entry.route }],
  ];
  for (const args of bad) {
    assert.throws(
      () => cs.hint(...args),
      (error) => error instanceof cs.CloverSolveError,
      `hint(${args.map((a) => JSON.stringify(a)).join(", ")})`,
    );
  }
});
