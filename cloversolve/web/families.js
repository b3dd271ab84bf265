// families.js: the rules module of each front-end rule family of cloversolve.js, read by
// family-rules.js.
//
// Generated from the toolkit's game registry (cloversolve/games/registry.py) by
// `python -m cloversolve.web.generate`: do not edit it by hand.

import { thirteenRules } from "../families/thirteen/rules.js";
import { fifteenRules } from "../families/fifteen/rules.js";
import { cloverRules } from "../families/clover/rules.js";

/** The rules module of each front-end rule family, by family name. */
export const FAMILY_RULES = Object.freeze({
  thirteen: thirteenRules,
  fifteen: fifteenRules,
  clover: cloverRules,
});
