"""The ``cloversolve warm-up`` command: compile the search kernels ahead of time.

numba keeps compiled kernels in its cache, so this is needed once per install (useful when
building images and in CI); the group adds it with :func:`register`.
"""

from __future__ import annotations

import time

import click

from ..core.compiling import warming_up
from ..games.records import Preset, UnknownPresetError
from ..games.registry import PRESETS, find_preset
from ..solving.solver import warm_up
from .common import CliError, MinusDigitArguments


def _families(names: tuple[str, ...]) -> list[Preset]:
    """One preset per rule family among ``names`` (every preset when empty), in order."""
    chosen: dict[str, Preset] = {}
    for name in names or tuple(PRESETS):
        try:
            spec = find_preset(name)
        except UnknownPresetError as error:
            raise CliError(str(error)) from None
        chosen.setdefault(spec.family, spec)
    return list(chosen.values())


@click.command("warm-up", cls=MinusDigitArguments)
@click.argument("presets", nargs=-1, metavar="[PRESET]...")
def warm_up_command(presets: tuple[str, ...]) -> None:
    """Compile the search kernels of PRESETs (default: all) so later runs start at once."""
    for spec in _families(presets):
        started = time.perf_counter()
        with warming_up():
            warm_up(spec.name)
        click.echo(f"{spec.family}: ready ({time.perf_counter() - started:.1f} s)")


def register(group: click.Group) -> None:
    group.add_command(warm_up_command)
