"""Sample sizes of the slow cross-checks: the default run checks a share of each full sample,
and the ``full`` marker runs the full samples (``python -m pytest -m full``; CI runs both).

A test decorated with :func:`sample_shares` takes the share as its ``share`` argument and scales
its counts with :func:`part`, and the thresholds it asserts with the share itself.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

#: The share of its full sample that a cross-check checks in the default run.
DEFAULT_SHARE = Fraction(1, 4)


def sample_shares(default: Fraction = DEFAULT_SHARE) -> pytest.MarkDecorator:
    """Run the test on ``default`` of its full sample, and on all of it under ``-m full``."""
    return pytest.mark.parametrize(
        "share",
        [
            pytest.param(default, id=f"sample-{default.numerator}in{default.denominator}"),
            pytest.param(Fraction(1), id="full", marks=pytest.mark.full),
        ],
    )


def part(count: int, share: Fraction) -> int:
    """``share`` of ``count`` items, rounded up."""
    return math.ceil(count * share)
