"""Session set-up: compile every family's kernels first, so that a notice about compiling
(printed on a fresh install) never lands inside the output a test reads."""

from __future__ import annotations

import signal

import pytest
from external_tools import in_ci
from hypothesis import settings

from cloversolve.games.registry import PRESETS
from cloversolve.solving.solver import warm_up

# Hypothesis: in CI every run draws the same examples (derandomized, no example database), so a
# red run can be repeated; elsewhere examples are random, as usual. No test has a deadline:
# wall time is no verdict (speed belongs in benchmarks/).
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if in_ci() else "dev")


def pytest_report_header() -> str:
    return f"hypothesis profile: {settings.get_current_profile_name()}"


@pytest.fixture(scope="session", autouse=True)
def _compiled_kernels() -> None:
    families = {}
    for preset in PRESETS.values():
        families.setdefault(preset.family, preset.name)
    for name in families.values():
        warm_up(name)


# A run started in the background of a non-interactive shell inherits SIGINT ignored, and so
# would every program the tests start: the Ctrl-C tests need it handled, as in a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
