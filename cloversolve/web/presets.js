// presets.js: the front-end presets of cloversolve.js, their rule family and deal parameters.
//
// Generated from the toolkit's game registry (cloversolve/games/registry.py) by
// `python -m cloversolve.games.generate`: do not edit it by hand.

/** The front-end presets: rule family and deal parameters. */
export const PRESETS = Object.freeze({
  thirteen: { name: "thirteen", family: "thirteen", piles: 13, rows: 4, foundationReturn: false },
  "thirteen-return": {
    name: "thirteen-return",
    family: "thirteen",
    piles: 13,
    rows: 4,
    foundationReturn: true,
  },
  fifteen: { name: "fifteen", family: "fifteen", piles: 16, rows: 1, foundationReturn: false },
  cloverleaf: { name: "cloverleaf", family: "clover", piles: 16, rows: 3, foundationReturn: true },
  alexander: { name: "alexander", family: "clover", piles: 12, rows: 4, foundationReturn: true },
});
