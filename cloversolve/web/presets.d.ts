// presets.d.ts: the types of presets.js, with the names of the front-end presets of
// cloversolve.js and of their rule families.
//
// Generated from the toolkit's game registry (cloversolve/games/registry.py) by
// `python -m cloversolve.web.generate`: do not edit it by hand.

import type { PresetSpec } from "./cloversolve.js";

/** The front-end presets (the keys of PRESETS). */
export type PresetName = "thirteen" | "thirteen-return" | "fifteen" | "cloverleaf" | "alexander";
/** The presets played on a grid of cells. */
export type GridPresetName = "fifteen";
/** The rule families of the front-end presets. */
export type FamilyName = "thirteen" | "fifteen" | "clover";

/** The front-end presets: rule family, deck, shape and rule switches. */
export const PRESETS: { readonly [P in PresetName]: PresetSpec<P> };
