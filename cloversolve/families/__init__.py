"""The rule families, one folder each: a family's reference engine, loss witnesses, search,
kernels, players and front-end rules."""
