"""Session set-up: compile every family's kernels first, so that a notice about compiling
(printed on a fresh install) never lands inside the output a test reads."""

from __future__ import annotations

import pytest

from cloversolve.presets import PRESETS
from cloversolve.solver import warm_up


@pytest.fixture(scope="session", autouse=True)
def _compiled_kernels() -> None:
    families = {}
    for preset in PRESETS.values():
        families.setdefault(preset.family, preset.name)
    for name in families.values():
        warm_up(name)
