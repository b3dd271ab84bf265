"""Session set-up: compile every family's kernels first, so that a notice about compiling
(printed on a fresh install) never lands inside the output a test reads; the Dask tests'
skip without Dask, and their separately started cluster."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from external_tools import in_ci
from helpers import needs_dask, start_scheduler, stop_processes
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


@pytest.fixture(autouse=True)
def _dask_for_dask_tests(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("dask"):
        needs_dask()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A separately started scheduler with two single-threaded workers."""
    distributed = needs_dask()
    address, processes = start_scheduler(tmp_path_factory.mktemp("dask"), "--nworkers", "2")
    try:
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=90)
        yield address
    finally:
        stop_processes(processes)


# A run started in the background of a non-interactive shell inherits SIGINT ignored, and so
# would every program the tests start: the Ctrl-C tests need it handled, as in a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
