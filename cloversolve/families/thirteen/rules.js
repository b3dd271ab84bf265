// families/thirteen/rules.js: the rules of the thirteen family (thirteen, thirteen-return) for
// cloversolve.js, which finds them through the generated table of families.js. It imports the
// parts of the module below the rules (cards, errors, notation), never cloversolve.js itself.

import { rankOf } from "../../web/cards.js";
import { LayoutError } from "../../web/errors.js";
import { FOUNDATION, formatMove } from "../../web/notation.js";
import { depthOf, pilesNotFromDeal } from "../../web/rules-common.js";

function areNeighbours(a, b) {
  return b === (a % 13) + 1 || b === ((a + 11) % 13) + 1;
}

function thirteenNeed(position) {
  return (position.foundations.F.length % 13) + 1;
}

/** The foundation builds A, 2, 3 ... K, A, 2 ... from its bottom card. */
function thirteenFoundationOrder(spec, layout) {
  layout.foundations[FOUNDATION].forEach((card, i) => {
    if (rankOf(card) !== (i % 13) + 1) {
      throw new LayoutError(
        `foundation card ${i + 1} (${card}) breaks the A, 2, 3 ... build`,
        "foundation-order",
      );
    }
  });
}

function thirteenNotFromDeal(spec, dealt, layout) {
  return pilesNotFromDeal(
    spec,
    dealt,
    layout,
    (card, below) => below !== null && areNeighbours(rankOf(card), rankOf(below)),
  );
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

function thirteenPush(position, spec, move) {
  const source = move.src === FOUNDATION ? position.foundations.F : position.piles[move.src - 1];
  const target = move.dst === FOUNDATION ? position.foundations.F : position.piles[move.dst - 1];
  const card = source.pop();
  target.push(card);
  return [{ kind: "move", move: formatMove(move), cards: [card], from: String(move.src), to: String(move.dst) }];
}

/** The dig player's ranking of a pile move (null for a foundation return). */
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

/** The thirteen family's rules, in the shape every rule-family module exports. */
export const thirteenRules = Object.freeze({
  checkPosition: thirteenFoundationOrder,
  notFromDeal: thirteenNotFromDeal,
  afterDeal: () => [],
  legalMoves: thirteenLegal,
  whyIllegal: thirteenWhy,
  play: thirteenPush,
  hintScore: thirteenHintScore,
});
