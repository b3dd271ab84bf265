"""The notice before the kernels compile, and ``cloversolve warm-up``."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from cloversolve.cli.main import main
from cloversolve.core.compiling import announce_compiling, kernels_cached, warming_up


def _kernel(index: dict) -> SimpleNamespace:
    """A stand-in for a numba kernel whose cache index is ``index``."""
    cache_file = SimpleNamespace(_load_index=lambda: index)
    return SimpleNamespace(signatures=[], _cache=SimpleNamespace(_cache_file=cache_file))


def test_a_kernel_missing_from_the_cache_is_announced_once() -> None:
    stream = io.StringIO()
    cold = (_kernel({"sig": "code"}), _kernel({}))
    assert not kernels_cached(cold)
    assert announce_compiling("test-cold", cold, 12.0, stream)
    assert not announce_compiling("test-cold", cold, 12.0, stream)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert "test-cold" in lines[0] and "once per install" in lines[0] and "12 s" in lines[0]


def test_the_notice_suggests_warm_up_except_while_it_runs() -> None:
    cold = (_kernel({}),)
    outside, inside = io.StringIO(), io.StringIO()
    assert announce_compiling("test-outside", cold, 3.0, outside)
    with warming_up():
        assert announce_compiling("test-inside", cold, 3.0, inside)
    assert "`cloversolve warm-up` does it ahead of time" in outside.getvalue()
    assert "once per install" in inside.getvalue() and "warm-up" not in inside.getvalue()


def test_cached_kernels_are_not_announced() -> None:
    stream = io.StringIO()
    assert not announce_compiling("test-warm", (_kernel({"sig": "code"}),), 5.0, stream)
    assert stream.getvalue() == ""


def test_warm_up_names_every_family_once() -> None:
    result = CliRunner().invoke(main, ["warm-up", "thirteen", "thirteen-return", "blackhole"])
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["thirteen", "hole"]


#: In a fresh process (no kernel compiled there): are the hole kernels in numba's cache?
_CACHED_HERE = (
    "from cloversolve.search.plugin import search_kernels\n"
    "from cloversolve.core.compiling import kernels_cached\n"
    "print(kernels_cached(search_kernels('hole')))"
)


@pytest.mark.slow
def test_warm_up_leaves_the_kernels_in_the_cache(tmp_path: Path) -> None:
    # This session compiled every kernel already (conftest), so the check runs in other
    # processes with an empty cache of their own.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def cached() -> str:
        run = subprocess.run(
            [sys.executable, "-c", _CACHED_HERE], env=env, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    assert cached() == "False"
    warm = subprocess.run(
        [sys.executable, "-m", "cloversolve", "warm-up", "blackhole"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.startswith("hole: ready")
    assert cached() == "True"


def test_warm_up_rejects_an_unknown_preset_in_one_line() -> None:
    result = CliRunner().invoke(main, ["warm-up", "nosuch"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "cloversolve: error: unknown preset: 'nosuch'; known: thirteen, thirteen-return, "
        "fifteen, cloverleaf, alexander, blackhole, allinarow"
    ]
