"""Two checkouts of the package in one process, timed deal by deal in alternation.

    python benchmarks/side_by_side.py --old ../cloversolve-old --new . --preset thirteen \
        [--deals 1..3000] [--through search|solve] [--passes 3]

Each checkout's package is imported under its own name space: the ``cloversolve`` modules of
one checkout are put in ``sys.modules`` before each of its calls (imports made inside a
function resolve to its own checkout) and taken out afterwards. Every deal is timed in both
checkouts one after the other, the first alternating, in CPU seconds of the calling thread,
so a machine that gets busier or quieter slows both alike within a fraction of a second:
a far steadier ratio than runs in separate processes minutes apart. The kernels of both are
compiled afresh in this process (an empty numba cache): kernels loaded from two caches can
carry the same internal names, which one process cannot hold twice.

``--through search`` times the search wrapper alone (the position is built and the route
replayed outside the clock, like ``benchmarks/run.py``'s bench part); ``--through solve``
times ``cloversolve.solve`` whole. Prints one JSON object: each checkout's CPU seconds and
deals per CPU second per pass, and the deals whose verdicts differ.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson

PACKAGE = "cloversolve"


def _package_modules() -> dict[str, ModuleType]:
    return {
        name: module
        for name, module in sys.modules.items()
        if name == PACKAGE or name.startswith(PACKAGE + ".")
    }


class Checkout:
    """The package of one checkout, imported beside any other checkout's."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree.resolve()
        self.modules: dict[str, ModuleType] = {}
        with self.active():
            sys.path.insert(0, str(self.tree))
            try:
                importlib.import_module(PACKAGE)
            finally:
                sys.path.remove(str(self.tree))

    @contextmanager
    def active(self) -> Iterator[None]:
        """This checkout's modules in ``sys.modules`` for the duration; whatever package
        modules were there before come back afterwards."""
        before = _package_modules()
        for name in before:
            del sys.modules[name]
        sys.modules.update(self.modules)
        sys.path.insert(0, str(self.tree))  # (a module first imported now is this checkout's)
        try:
            yield
        finally:
            sys.path.remove(str(self.tree))
            self.modules = _package_modules()
            for name in self.modules:
                del sys.modules[name]
            sys.modules.update(before)

    def module(self, name: str) -> Any:
        with self.active():
            return importlib.import_module(name)


def solver_module(checkout: Checkout) -> Any:
    """The module of ``search_position``: where the checkout keeps it (the package's layout
    changed: ``cloversolve/solving/solver.py``, before that ``cloversolve/solver.py``)."""
    for name in (f"{PACKAGE}.solving.solver", f"{PACKAGE}.solver"):
        try:
            return checkout.module(name)
        except ModuleNotFoundError:
            continue
    raise SystemExit(f"no solver module in {str(checkout.tree)!r}")


def deal_calls(checkout: Checkout, preset: str, numbers: range, through: str) -> list[Callable]:
    """One call per deal, ready to time: the search of its position, or its ``solve``."""
    package = checkout.module(PACKAGE)
    with checkout.active():
        package.solve(preset, numbers[0])  # (loads the kernels before any clock runs)
        if through == "solve":
            return [lambda n=n: package.solve(preset, n) for n in numbers]
        search_position = solver_module(checkout).search_position
        family = package.find_preset(preset).family
        positions = [package.position_from_layout(package.deal(preset, n)) for n in numbers]
        return [lambda p=p: search_position(p, family, package.Limits()) for p in positions]


def side_by_side(
    old: Path, new: Path, preset: str, numbers: range, through: str, passes: int
) -> dict[str, Any]:
    """Both checkouts on every deal of ``numbers``, ``passes`` times, alternating deal by deal."""
    checkouts = {"old": Checkout(old), "new": Checkout(new)}
    calls = {name: deal_calls(c, preset, numbers, through) for name, c in checkouts.items()}
    seconds: dict[str, list[float]] = {"old": [], "new": []}
    statuses: dict[str, list[str]] = {"old": [], "new": []}
    for pass_index in range(passes):
        spent = dict.fromkeys(checkouts, 0.0)
        for index in range(len(numbers)):
            order = ("old", "new") if (index + pass_index) % 2 == 0 else ("new", "old")
            for name in order:
                with checkouts[name].active():
                    started = time.thread_time()
                    result = calls[name][index]()
                    spent[name] += time.thread_time() - started
                if pass_index == 0:
                    statuses[name].append(result.status.value)
        for name in checkouts:
            seconds[name].append(spent[name])
    differences = [
        number
        for number, before, after in zip(numbers, statuses["old"], statuses["new"], strict=True)
        if before != after and "limit" not in (before, after)
    ]
    return {
        "preset": preset,
        "deals": f"{numbers[0]}..{numbers[-1]}",
        "through": through,
        "cpu_seconds": seconds,
        "deals_per_cpu_second": {
            name: [len(numbers) / spent for spent in seconds[name]] for name in checkouts
        },
        "verdict_differences": differences,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, type=Path)
    parser.add_argument("--new", required=True, type=Path)
    parser.add_argument("--preset", required=True)
    parser.add_argument("--deals", default="1..1000")
    parser.add_argument("--through", choices=("search", "solve"), default="search")
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args(argv)
    for tree in (args.old, args.new):
        if not (tree / PACKAGE / "__init__.py").is_file():
            parser.error(f"not a checkout of the package: {str(tree)!r}")
    if args.passes < 1:
        parser.error(f"--passes must be at least 1: {args.passes}")
    first, _, last = args.deals.partition("..")
    if not (first.isdigit() and last.isdigit() and 0 < int(first) <= int(last)):
        parser.error(f"--deals must be A..B with 1 <= A <= B: {args.deals!r}")
    numbers = range(int(first), int(last) + 1)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache  # (read when numba is first imported, below)
        try:
            report = side_by_side(
                args.old, args.new, args.preset, numbers, args.through, args.passes
            )
        except ValueError as error:  # (an unknown preset, a deal number out of range)
            parser.error(str(error))
    sys.stdout.buffer.write(orjson.dumps(report) + b"\n")
    return 1 if report["verdict_differences"] else 0


if __name__ == "__main__":
    sys.exit(main())
