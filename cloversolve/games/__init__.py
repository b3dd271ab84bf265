"""The game registry: one record per rule family and per preset (:mod:`.registry`), their
record types (:mod:`.records`) and the generator of the front ends' preset tables
(:mod:`.generate`)."""

from __future__ import annotations

from .records import (
    Family,
    FirstGrading,
    Grading,
    HintPolicy,
    Preset,
    SearchEntry,
    UnknownFamilyError,
    UnknownPresetError,
)
from .registry import (
    FAMILIES,
    PRESETS,
    family_preset,
    find_family,
    find_preset,
    front_end_presets,
    registry_problems,
)

__all__ = [
    "FAMILIES",
    "PRESETS",
    "Family",
    "FirstGrading",
    "Grading",
    "HintPolicy",
    "Preset",
    "SearchEntry",
    "UnknownFamilyError",
    "UnknownPresetError",
    "family_preset",
    "find_family",
    "find_preset",
    "front_end_presets",
    "registry_problems",
]
