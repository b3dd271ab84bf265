// families/clover/rules.js: the rules of the clover family (cloverleaf, alexander) for
// cloversolve.js, which finds them through the generated table of families.js. It imports the
// parts of the module below the rules (cards, errors, notation), never cloversolve.js itself.

import { SUITS, makeCard, rankOf } from "../../web/cards.js";
import { LayoutError, pyRepr } from "../../web/errors.js";
import { FOUNDATION, SUIT_FOUNDATIONS, formatMove } from "../../web/notation.js";
import { depthOf, pilesNotFromDeal } from "../../web/rules-common.js";

const UP_SUITS = "DH";
const SUIT_NAMES = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };

function foundationCard(suit, height) {
  return UP_SUITS.includes(suit) ? makeCard(height, suit) : makeCard(14 - height, suit);
}

function foundationNext(position, suit) {
  const height = position.foundations["F" + suit].length;
  return height < 13 ? foundationCard(suit, height + 1) : null;
}

/** Each suit's foundation builds from its Ace up (red) or from its King down (black). */
function cloverFoundationOrder(spec, layout) {
  for (const key of SUIT_FOUNDATIONS) {
    const cards = layout.foundations[key];
    const expected = cards.map((_, h) => foundationCard(key[1], h + 1));
    if (cards.length > 13 || cards.join(" ") !== expected.join(" ")) {
      throw new LayoutError(
        `foundation ${key} is out of sequence: ${pyRepr(cards.join(" "))}`,
        "foundation-order",
      );
    }
  }
}

function cloverPlaceable(card, below) {
  if (below === null) return card[0] === "A" || card[0] === "K";
  return below[1] === card[1] && Math.abs(rankOf(below) - rankOf(card)) === 1;
}

function cloverNotFromDeal(spec, dealt, layout) {
  return pilesNotFromDeal(spec, dealt, layout, cloverPlaceable);
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

function cloverWhy(position, spec, move) {
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

function cloverPush(position, spec, move) {
  let card;
  if (typeof move.src === "string") card = position.foundations[move.src].pop();
  else card = position.piles[move.src - 1].pop();
  const to = move.dst === FOUNDATION ? "F" + card[1] : String(move.dst);
  if (move.dst === FOUNDATION) position.foundations[to].push(card);
  else position.piles[move.dst - 1].push(card);
  const step = { kind: "move", move: formatMove(move), cards: [card], from: String(move.src), to };
  return [step, ...cloverAutomatic(position, typeof move.src === "string" ? card : null)];
}

/** The dig player's ranking of a fan move (null for a return). */
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

/** The clover family's rules, in the shape every rule-family module exports. */
export const cloverRules = Object.freeze({
  checkPosition: cloverFoundationOrder,
  notFromDeal: cloverNotFromDeal,
  afterDeal: (position) => cloverAutomatic(position, null),
  legalMoves: cloverLegal,
  whyIllegal: cloverWhy,
  play: cloverPush,
  hintScore: cloverHintScore,
});
