"""A small game added through the public registration path alone: the rule family ``sprig``
(its reference engine :mod:`.rules` and its search :mod:`.search`) and its one preset, the
records :func:`cloversolve.games.register` takes (:mod:`.records`)."""
