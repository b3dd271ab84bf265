"""Start-up: the command line and the library load only what the work at hand uses.

Each check runs a fresh interpreter and reads its ``sys.modules``, so it fails as soon as an
eager import of another command's module, another family's search or a heavy library comes
back (speed itself is measured in ``benchmarks/``, not here).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import click
import pytest

from cloversolve.cli.main import COMMANDS_ELSEWHERE, main
from cloversolve.core.lean_numba import UNUSED_BY_THE_KERNELS
from cloversolve.core.loading import resolve
from cloversolve.games.registry import FAMILIES

#: Modules that only some commands use: ``study``, the batch server, the parallel runner and
#: what the bench, catalogue, grading and viewer commands stand on.
RUN_MODULES = (
    "cloversolve.cli.batch",
    "cloversolve.runs.bench",
    "cloversolve.runs.calibration",
    "cloversolve.catalogue.build",
    "cloversolve.grading.grading",
    "cloversolve.runs.checkpoints",
    "cloversolve.runs.executors",
    "cloversolve.runs.output",
    "cloversolve.runs.workers",
    "cloversolve.grading.players",
    "cloversolve.runs.study",
    "cloversolve.web.viewer",
    "cloversolve.web.play",
)
#: Libraries a solve never uses (JSON output loads orjson; plain output does not).
UNUSED_BY_A_SOLVE = ("jsonschema", "matplotlib", "orjson", "scipy.optimize", "tqdm")
COMMAND_MODULES = sorted({path.partition(":")[0] for path in COMMANDS_ELSEWHERE.values()})


def loaded_modules(code: str) -> set[str]:
    """The modules loaded when ``code`` has run in a new interpreter (and exited 0)."""
    script = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
        + textwrap.dedent(code)
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,  # a guard against a hang (a first compilation included), not a timing
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.splitlines()[-1]))


def search_modules() -> dict[str, str]:
    """Each family's search module, by family name."""
    return {name: f"{family.module}.search" for name, family in FAMILIES.items()}


def test_the_library_loads_no_search_kernel_and_no_numba() -> None:
    loaded = loaded_modules("from cloversolve import deal, solve")
    assert not loaded & {"numba", "numpy", *search_modules().values()}
    assert not loaded & {*RUN_MODULES, *COMMAND_MODULES, *UNUSED_BY_A_SOLVE}


def test_a_family_package_loads_no_search_kernel_and_no_numba() -> None:
    """Importing a family's package (its plug-in) loads its engine, not its search."""
    packages = ", ".join(family.module for family in FAMILIES.values())
    loaded = loaded_modules(f"import {packages}")
    assert {family.module for family in FAMILIES.values()} <= loaded
    assert not loaded & {"numba", "numpy", *search_modules().values()}
    assert not loaded & {*RUN_MODULES, *COMMAND_MODULES, *UNUSED_BY_A_SOLVE}


def test_the_command_line_loads_no_other_command() -> None:
    loaded = loaded_modules("import cloversolve.cli.main")
    assert not loaded & {*COMMAND_MODULES, *RUN_MODULES, *UNUSED_BY_A_SOLVE}
    assert not loaded & {"numba", "numpy", *search_modules().values()}


def test_a_solve_loads_its_family_search_alone() -> None:
    loaded = loaded_modules("""
        import sys
        from cloversolve.cli.main import main
        sys.argv = ["cloversolve", "solve", "thirteen", "1"]
        main()
    """)
    searches = search_modules()
    assert searches.pop("thirteen") in loaded
    assert not loaded & set(searches.values())
    assert not loaded & {*COMMAND_MODULES, *RUN_MODULES, *UNUSED_BY_A_SOLVE}


@pytest.mark.parametrize("name", sorted(COMMANDS_ELSEWHERE))
def test_each_command_elsewhere_is_found_under_its_name(name: str) -> None:
    command = resolve(COMMANDS_ELSEWHERE[name])
    assert isinstance(command, click.Command)
    assert command.name == name
    assert main.get_command(click.Context(main), name) is command


def test_help_lists_every_command_once() -> None:
    names = main.list_commands(click.Context(main))
    assert names == sorted(set(names))
    assert set(COMMANDS_ELSEWHERE) <= set(names)
    assert {"deal", "solve", "hint", "replay", "study", "presets", "rules"} <= set(names)


def test_the_program_starts_numba_without_the_packages_the_kernels_do_not_use() -> None:
    """numba would import SciPy, cffi and coverage as it starts (those installed); the
    program's solve loads none that its interpreter had not loaded before it began."""
    loaded = loaded_modules("""
        import sys
        at_start = set(sys.modules)
        from cloversolve.__main__ import main
        sys.argv = ["cloversolve", "solve", "thirteen", "1"]
        try:
            main()
        finally:
            for name in at_start:
                sys.modules.pop(name, None)
    """)
    assert "numba" in loaded
    assert not loaded & set(UNUSED_BY_THE_KERNELS)


def test_after_a_lean_start_the_hidden_packages_import_as_ever() -> None:
    pytest.importorskip("scipy")
    loaded = loaded_modules("""
        from cloversolve.core.lean_numba import keep_numba_lean
        keep_numba_lean()
        from cloversolve import solve
        solve("fifteen", 1)
        import scipy.linalg
    """)
    assert {"numba", "scipy.linalg"} <= loaded


def test_a_library_process_starts_numba_as_numba_does() -> None:
    loaded = loaded_modules("""
        from cloversolve.core.lean_numba import import_numba
        import_numba()
    """)
    assert "numba" not in loaded
