"""The game registry: one record per rule family and per preset (:mod:`.registry`), their
record types (:mod:`.records`) and the registration of a game at run time
(:mod:`.registration`), all under one import path here; a deal's layout (:mod:`.layout`) and
the dealing of numbered deals (:mod:`.dealing`)."""

from __future__ import annotations

from .records import (
    Family,
    FirstGrading,
    Grading,
    HintPolicy,
    Preset,
    UnknownFamilyError,
    UnknownPresetError,
)
from .registration import Registration, register, shipped_presets, unregister
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
    "Registration",
    "UnknownFamilyError",
    "UnknownPresetError",
    "family_preset",
    "find_family",
    "find_preset",
    "front_end_presets",
    "register",
    "registry_problems",
    "shipped_presets",
    "unregister",
]
