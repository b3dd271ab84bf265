// families/fifteen/rules.js: the rules of the fifteen family (fifteen) for cloversolve.js, which
// finds them through the generated table of families.js. It imports the parts of the
// module below the rules (cards, errors, notation), never cloversolve.js itself.

import { SUITS, rankOf, suitOf } from "../../web/cards.js";
import { LayoutError } from "../../web/errors.js";
import { formatMove } from "../../web/notation.js";

const FIFTEEN_TARGET = 15;

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

/** Whether `values` (ascending) split into groups that each total 15. */
function splitsIntoFifteens(values) {
  if (!values.length) return true;
  const rest = values.slice(1).map((value, index) => [index, value]);
  for (const group of subsetsSumming(rest, FIFTEEN_TARGET - values[0])) {
    const chosen = new Set(group.split("+").map(Number));
    if (splitsIntoFifteens(rest.filter(([i]) => !chosen.has(i)).map(([, v]) => v))) return true;
  }
  return false;
}

/** No empty cell while the stock holds cards; the removed cards split into groups. */
function fifteenPosition(spec, layout, deck) {
  if (layout.stock.length && layout.cells.includes(null)) {
    throw new LayoutError(
      "an empty cell while the stock holds cards cannot arise",
      "empty-cell-with-stock",
    );
  }
  const present = new Set([...layout.cells, ...layout.stock]);
  const removed = deck.filter((c) => !present.has(c));
  for (const suit of [...SUITS].sort()) {
    const cards = removed.filter((c) => c[1] === suit);
    const courts = cards.filter((c) => rankOf(c) >= 11);
    if (courts.length && courts.length !== 3) {
      throw new LayoutError(
        `court cards leave only as a suit's Jack, Queen and King together: ${courts.join(" ")}`,
        "removed-cards",
      );
    }
    const numbers = cards.filter(isNumberCard);
    if (!splitsIntoFifteens(numbers.map(rankOf).sort((a, b) => a - b))) {
      throw new LayoutError(
        `the removed ${suit} number cards (${numbers.join(" ")}) do not split into groups of 15`,
        "removed-cards",
      );
    }
  }
}

/** The stock must be an end part of the dealt stock; grid cards dealt there or drawn since. */
function fifteenNotFromDeal(spec, dealt, layout) {
  const drawn = dealt.stock.length - layout.stock.length;
  if (drawn < 0 || dealt.stock.slice(drawn).join(" ") !== layout.stock.join(" ")) {
    return "the stock is not the end part of the deal's stock";
  }
  const fromStock = new Set(dealt.stock.slice(0, drawn));
  for (const [index, card] of layout.cells.entries()) {
    if (card !== null && card !== dealt.cells[index] && !fromStock.has(card)) {
      return `cell ${index + 1} holds ${card}, which was neither dealt there nor drawn from the stock`;
    }
  }
  return null;
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

function fifteenWhy(position, spec, move) {
  if (!move.cells) return ["wrong-kind", "only groups of grid cells are moves in this game"];
  const { cells } = move;
  const count = position.cells.length;
  if (cells.some((c) => typeof c !== "number" || !(c >= 1 && c <= count))) {
    return ["no-such-cell", `grid cells are 1..${count}`];
  }
  if (cells.some((c, i) => i > 0 && cells[i - 1] >= c)) {
    return ["cells-not-ascending", "cells must be distinct and ascending"];
  }
  const empty = cells.find((c) => position.cells[c - 1] === null);
  if (empty !== undefined) return ["empty-source", `cell ${empty} is empty`];
  return groupReason(cells.map((c) => position.cells[c - 1]));
}

function fifteenPush(position, spec, move) {
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

/** A court trio first; then the number group in the most splits, then the largest. */
function fifteenHintScore(position, move) {
  const ranks = move.split("+").map((cell) => rankOf(position.cells[Number(cell) - 1]));
  ranks.sort((a, b) => a - b);
  if (ranks.join(",") === "11,12,13") return [1, 0, 0];
  return [0, SPLITS_CONTAINING.get(ranks.join(",")) ?? 0, ranks.length];
}

/** The fifteen family's rules, in the shape every rule-family module exports. */
export const fifteenRules = Object.freeze({
  checkPosition: fifteenPosition,
  notFromDeal: fifteenNotFromDeal,
  afterDeal: () => [],
  legalMoves: fifteenLegal,
  whyIllegal: fifteenWhy,
  play: fifteenPush,
  hintScore: fifteenHintScore,
});
