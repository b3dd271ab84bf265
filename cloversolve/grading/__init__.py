"""Grading a deal's difficulty: the players of the grading panel, the validation players,
the grading rules and the visible-hint rule."""
