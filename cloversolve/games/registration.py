"""Registering a game at run time: a rule family and its presets, added to the registry
(:mod:`.registry`) by :func:`register` and taken out again by :func:`unregister`.

A registered game is a game like the shipped ones for everything that reads the registry
(``solve``, ``hint``, ``replay``, ``study``, grading, ``catalogue build``, the command line
run in the same process). Front ends get only the shipped presets: their files are generated
from the package's own records (:mod:`cloversolve.web.generate`), so a registered preset is
never for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.inputs import quoted
from .records import Family, HintPolicy, Preset
from .registry import FAMILIES, PRESETS, registry_problems

#: What a game's name may be: lowercase words of letters and digits joined by hyphens (it is
#: typed on command lines and becomes part of file names).
_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_NAME_RULE = "lowercase letters and digits, words joined by hyphens"
#: A dotted module path.
_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")

#: The names of the presets added by :func:`register` (the others are the package's own).
_ADDED: set[str] = set()


@dataclass(frozen=True)
class Registration:
    """A family and its presets added by :func:`register`; a context manager that takes
    them out of the registry on leaving its block (:func:`unregister`)."""

    family: Family
    presets: tuple[Preset, ...]

    def __enter__(self) -> Registration:
        return self

    def __exit__(self, *exc: object) -> None:
        unregister(self)


def register(family: Family, *presets: Preset) -> Registration:
    """Add a rule family and its presets to the registry, after checking them.

    Raises ``TypeError`` when a record is not a :class:`Family` or :class:`Preset`, and one
    ``ValueError`` naming the first problem otherwise: a name already taken or not a plain
    name, no preset, a preset of another family or for front ends, a module that is not a
    dotted path or has no plug-in ``FAMILY`` (it is imported), a visible hint policy without
    the plug-in's visible hint, or anything :func:`registry_problems` finds in them.
    """
    if not isinstance(family, Family):
        raise TypeError(f"register() takes a Family first, got {type(family).__name__}")
    strangers = [type(p).__name__ for p in presets if not isinstance(p, Preset)]
    if strangers:
        raise TypeError(f"register() takes Preset records after the family, got {strangers[0]}")
    problems = _record_problems(family, presets)
    if not problems:
        problems = _registry_problems_with(family, presets)
    if problems:
        raise ValueError(f"cannot register family {quoted(family.name)}: {problems[0]}")
    FAMILIES[family.name] = family
    for preset in presets:
        PRESETS[preset.name] = preset
        _ADDED.add(preset.name)
    return Registration(family, presets)


def unregister(registration: Registration) -> None:
    """Take the family and presets of ``registration`` out of the registry (those no longer
    there are skipped)."""
    for preset in registration.presets:
        if PRESETS.get(preset.name) is preset:
            del PRESETS[preset.name]
            _ADDED.discard(preset.name)
    if FAMILIES.get(registration.family.name) is registration.family:
        del FAMILIES[registration.family.name]


def shipped_presets() -> tuple[Preset, ...]:
    """The package's own presets, in registry order (none added by :func:`register`)."""
    return tuple(preset for name, preset in PRESETS.items() if name not in _ADDED)


def _record_problems(family: Family, presets: tuple[Preset, ...]) -> list[str]:
    """What keeps the records from joining the registry, before their consistency."""
    problems = []
    if not _is_name(family.name):
        problems.append(f"a game's name is {_NAME_RULE}, got {quoted(family.name)}")
    if not presets:
        problems.append("no preset given")
    if family.name in FAMILIES:
        problems.append(f"family name {quoted(family.name)} is taken")
    problems += _plugin_problems(family)
    seen: set[str] = set()
    for preset in presets:
        if not _is_name(preset.name):
            problems.append(f"a game's name is {_NAME_RULE}, got {quoted(preset.name)}")
        elif preset.name in PRESETS or preset.name in seen:
            problems.append(f"preset name {quoted(preset.name)} is taken")
        seen.add(preset.name)
        if preset.family != family.name:
            problems.append(f"preset {quoted(preset.name)} is of family {quoted(preset.family)}")
        if preset.front_end:
            problems.append(
                f"preset {quoted(preset.name)} is for front ends, which get the shipped "
                "presets only"
            )
    return problems


def _plugin_problems(family: Family) -> list[str]:
    """What is wrong with the family's plug-in: its module's path, its import, its ``FAMILY``
    object, and the visible hint its hint policy needs."""
    if not (isinstance(family.module, str) and _MODULE.fullmatch(family.module)):
        return [f"{quoted(family.module)} is not a dotted module path"]
    try:
        plugin = family.plugin
    except (ImportError, AttributeError) as error:
        return [f"module {quoted(family.module)} gives no plug-in FAMILY ({error})"]
    if family.hint_policy is HintPolicy.VISIBLE and getattr(plugin, "visible_hint", None) is None:
        return ["its hint policy is visible, and its plug-in gives no visible hint"]
    return []


def _is_name(name: object) -> bool:
    return isinstance(name, str) and _NAME.fullmatch(name) is not None


def _registry_problems_with(family: Family, presets: tuple[Preset, ...]) -> list[str]:
    """The problems :func:`registry_problems` finds with the records added (and none of
    those it finds without them); the registry is left as it was."""
    before = set(registry_problems())
    FAMILIES[family.name] = family
    PRESETS.update((preset.name, preset) for preset in presets)
    try:
        return [problem for problem in registry_problems() if problem not in before]
    finally:
        del FAMILIES[family.name]
        for preset in presets:
            del PRESETS[preset.name]
