"""The slow cross-checks' samples: a share of each by default, the full samples under the
``full`` marker, which the default run leaves out and CI runs after it."""

from __future__ import annotations

import shlex
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from samples import DEFAULT_SHARE, part, sample_shares

ROOT = Path(__file__).resolve().parent.parent


def pytest_options() -> dict:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["tool"]["pytest"]["ini_options"]


def test_the_default_run_leaves_out_the_full_samples() -> None:
    options = pytest_options()
    addopts = shlex.split(options["addopts"])
    assert addopts[addopts.index("-m") + 1] == "not full"
    assert any(line.startswith("full:") for line in options["markers"])


def test_ci_runs_the_full_samples_after_the_test_command() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = lines.index("python -m pip install '.[test]' && python -m pytest")
    assert "python -m pytest -m full" in lines[command + 1 :]


@pytest.mark.parametrize("default", [DEFAULT_SHARE, Fraction(1, 8)])
def test_each_check_has_a_default_share_and_a_full_sample_marked_full(default: Fraction) -> None:
    name, params = sample_shares(default).args
    shares = {param.values[0]: [mark.name for mark in param.marks] for param in params}
    assert name == "share" and shares == {default: [], Fraction(1): ["full"]}
    assert 0 < default < 1


def test_a_part_is_rounded_up() -> None:
    assert [part(count, Fraction(1, 4)) for count in (250, 300, 1, 0)] == [63, 75, 1, 0]
    assert part(250, Fraction(1)) == 250
