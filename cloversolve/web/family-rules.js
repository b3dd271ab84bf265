// family-rules.js: the rules of a preset's family, whatever the game: the one module that
// reads the generated table FAMILY_RULES (families.js) of each family's rules module.

import { FAMILY_RULES } from "./families.js";

// A rule family's module exports one frozen object (FAMILY_RULES names it for each family):
//   checkPosition(spec, layout, deck)  throws the LayoutError of what no position can hold
//                                       (after the deck check; deck: the preset's cards);
//   notFromDeal(spec, dealt, layout)   why a numbered layout cannot arise from its deal, or null;
//   afterDeal(position)                plays the automatic moves of a start, returns their steps;
//   legalMoves(position, spec)         the legal player moves, as strings, in the toolkit's order;
//   whyIllegal(position, spec, move)   [code, reason], or null for a legal move (a parsed move);
//   play(position, spec, move)         plays a legal move in place, returns its steps;
//   hintScore(position, move)          the visible hint's score of a legal move (higher first),
//                                       or null for a move the hint never gives.

/** The rules module of a preset's family. */
export function rulesOf(spec) {
  return FAMILY_RULES[spec.family];
}
