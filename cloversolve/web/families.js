// families.js: the rules module of each front-end rule family of cloversolve.js, read by
// family-rules.js.
//
// Generated from the toolkit's game registry (cloversolve/games/registry.py) by
// `python -m cloversolve.games.generate`: do not edit it by hand.

import { thirteenRules } from "./thirteen.js";
import { fifteenRules } from "./fifteen.js";
import { cloverRules } from "./clover.js";

/** The rules module of each front-end rule family, by family name. */
export const FAMILY_RULES = Object.freeze({
  thirteen: thirteenRules,
  fifteen: fifteenRules,
  clover: cloverRules,
});
