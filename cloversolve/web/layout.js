// layout.js: the check of a layout or position given to the module (checkLayout), exactly as
// the toolkit checks a layout given to solve, hint or replay.

import { cardProblem } from "./cards.js";
import { checkDealNumber, jsonDealNumber } from "./deal-numbers.js";
import { deal, presetDeck } from "./dealing.js";
import { DealNumberError, isPlainObject, pyRepr, quoted, refuse, typeName } from "./errors.js";
import { rulesOf } from "./family-rules.js";
import { findPreset } from "./find-preset.js";
import { pythonStrip } from "./python-text.js";

// The keys of layout JSON; any other key is refused.
const PILE_KEYS = ["preset", "number", "piles", "foundations"];
const GRID_KEYS = ["preset", "number", "cells", "stock"];

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
