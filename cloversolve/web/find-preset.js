// find-preset.js: a front-end preset's entry of the generated table PRESETS (presets.js).

import { UnknownPresetError, pyRepr } from "./errors.js";
import { PRESETS } from "./presets.js";

/** The preset called `name`, or an UnknownPresetError. */
export function findPreset(name) {
  if (typeof name === "string" && Object.hasOwn(PRESETS, name)) return PRESETS[name];
  throw new UnknownPresetError(
    `unknown preset: ${pyRepr(name)}; known: ${Object.keys(PRESETS).join(", ")}`,
  );
}
