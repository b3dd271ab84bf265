"""The rule families of the game registry (:mod:`cloversolve.games`), under their first
import path: one :class:`Family` record per family names its reference engine, search
kernel, hint policy, players and grading panel."""

from __future__ import annotations

from .records import Family, HintPolicy, UnknownFamilyError
from .registry import FAMILIES, find_family

__all__ = ["FAMILIES", "Family", "HintPolicy", "UnknownFamilyError", "find_family"]
