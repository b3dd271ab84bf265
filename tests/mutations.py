"""Deliberate mutations of the code and data behind the documents' promises, each with the tests
that must catch it.

``python tests/mutations.py [NAME-PART ...]`` copies the checkout's tracked files to a scratch
folder, applies each mutation there alone (the checkout is never changed), runs its tests
against the copy and prints whether they failed, as they must, with the first failing test;
then the score (mutations caught of those run). It exits 1 when a mutation is missed or no
longer applies (the code it breaks has changed: update the mutation). The documented commands'
mutations run the slow test of every document's commands (a few minutes each); name parts
select mutations.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC_COMMANDS_TEST = ["tests/test_doc_examples.py", "-k", "run_as_pasted"]


@dataclass(frozen=True)
class Mutation:
    """Replace ``old`` (which must occur) by ``new`` in ``file`` (``new`` None: delete the
    file); ``tests`` (pytest arguments) must then fail."""

    name: str
    file: str
    old: str
    new: str | None
    tests: tuple[str, ...]


MUTATIONS = [
    Mutation(
        "solve returns a route without replaying it",
        "cloversolve/solving/solver.py",
        "        _check_route(engine, layout, outcome.route)\n",
        "        pass\n",
        ("tests/test_promises.py", "-k", "refuses_a_route"),
    ),
    Mutation(
        "hint gives the first legal move",
        "cloversolve/solving/solver.py",
        "return Hint(result.route[0], Status.SOLVED, True,",
        "return Hint(next(iter(start.legal_moves())), Status.SOLVED, True,",
        ("tests/test_promises.py", "-k", "hint_keeps"),
    ),
    Mutation(
        "the fifteen hint searches under a node budget",
        "cloversolve/solving/solver.py",
        "    if family.hint_policy is HintPolicy.VISIBLE:\n",
        "    if family.hint_policy is HintPolicy.VISIBLE and limits.max_nodes is None:\n",
        ("tests/test_promises.py", "-k", "fifteen_hint"),
    ),
    Mutation(
        "a won game's hint is not solved",
        "cloversolve/solving/solver.py",
        'return Hint(None, Status.SOLVED, True, "the position is already won',
        'return Hint(None, Status.UNSOLVABLE, True, "the position is already won',
        ("tests/test_promises.py", "-k", "fifteen_hint"),
    ),
    Mutation(
        "limits checked after the search",
        "cloversolve/solving/solver.py",
        "    budget = call_limits(limits, max_nodes, time_limit, max_memory)\n"
        "    return _solve_layout(spec.name, layout, budget)\n",
        "    result = _solve_layout(spec.name, layout, Limits())\n"
        "    call_limits(limits, max_nodes, time_limit, max_memory)\n"
        "    return result\n",
        ("tests/test_limits.py", "-k", "before_searching"),
    ),
    Mutation(
        "two cards of a clover deal swapped",
        "cloversolve/games/dealing.py",
        "    dealt = talon[len(spec.foundation_cards) :]\n",
        "    dealt = talon[len(spec.foundation_cards) :]\n"
        "    if spec.foundation_cards:\n"
        "        dealt[0], dealt[1] = dealt[1], dealt[0]\n",
        ("tests/test_dealing.py", "-k", "outside_dealer or stored_vectors"),
    ),
    Mutation(
        "two cells of a fifteen deal swapped",
        "cloversolve/games/dealing.py",
        "cells=tuple(talon[:cells])",
        "cells=tuple(talon[1:2] + talon[:1] + talon[2:cells])",
        ("tests/test_dealing.py", "-k", "outside_dealer or stored_vectors"),
    ),
    Mutation(
        "the chunks' tail rule takes half a worker's share, not a quarter",
        "cloversolve/runs/executors.py",
        "left / (4 * self.workers)",
        "left / (2 * self.workers)",
        ("tests/test_chunk_sizer.py",),
    ),
    Mutation(
        "one blackhole verdict flipped in the million-deal verdict file",
        "benchmarks/results/verdicts/blackhole.verdicts",
        "\nus",
        "\nss",
        ("tests/test_search_hole.py", "-k", "verdict_files_match"),
    ),
    Mutation(
        "one thirteen-return verdict flipped",
        "tests/data/thirteen-return_verdicts_1_10000.csv",
        "\n5,solved,route-found\n",
        "\n5,unsolvable,exhausted-search\n",
        ("tests/test_promises.py", "-k", "thirteen_return"),
    ),
    Mutation(
        "one alexander verdict flipped in the 30 s study's verdict file",
        "benchmarks/results/studies_30s/alexander.verdicts",
        "}\nsus",
        "}\nuus",
        ("tests/test_study_verdicts.py", "-k", "changed_sides"),
    ),
    Mutation(
        "a deal left undecided at 30 s missing from the record of those run again",
        "benchmarks/results/studies_30s/undecided_again.json",
        '"solved": 23,',
        '"solved": 22,',
        ("tests/test_study_verdicts.py", "-k", "run_again"),
    ),
    Mutation(
        "one verdict merged from the runs alone flipped in the cloverleaf verdict file",
        "benchmarks/results/verdicts/cloverleaf.verdicts",
        "usssssssssssussssssssu",
        "ssssssssssssussssssssu",
        ("tests/test_study_verdicts.py", "-k", "hold_the_verdicts"),
    ),
    Mutation(
        "a merged deal missing from the cloverleaf decided-alone record",
        "benchmarks/results/verdicts/cloverleaf.decided-alone.json",
        '    [24937,"u","../study_1-1000000_undecided_again.json",30.0],\n',
        "",
        ("tests/test_study_verdicts.py", "-k", "hold_the_verdicts"),
    ),
    Mutation(
        "the merge of the runs alone overwrites a decided letter",
        "cloversolve/runs/decided_alone.py",
        "            if letters[deal - first] != UNDECIDED:\n",
        "            if False:\n",
        ("tests/test_merge_alone.py", "-k", "not_an_undecided"),
    ),
    Mutation(
        "a study's verdict file missing",
        "benchmarks/results/verdicts/allinarow.verdicts",
        "",
        None,
        ("tests/test_study_verdicts.py",),
    ),
    Mutation(
        "one cloverleaf catalogue grade changed",
        "catalogues/cloverleaf.json",
        '"difficulty":"easy"',
        '"difficulty":"hard"',
        ("tests/test_grading.py", "-k", "pile_catalogue_score"),
    ),
    Mutation(
        "calibration's refitted report graded with the old thresholds",
        "cloversolve/runs/calibration.py",
        '"new": grade_report(scores, outcomes, new),',
        '"new": grade_report(scores, outcomes, rule),',
        ("tests/test_calibration.py", "-k", "hidden_difficulty"),
    ),
    Mutation(
        "warm-up compiles nothing",
        "cloversolve/cli/warmup.py",
        "            warm_up(spec.name)\n",
        "            pass\n",
        ("tests/test_compiling.py", "-k", "leaves_the_kernels"),
    ),
    Mutation(
        "a layout refusal on two lines",
        "cloversolve/games/layout.py",
        "        super().__init__(message)\n",
        '        super().__init__(message + "\\n(details)")\n',
        ("tests/test_layout_check.py", "-k", "random_corruptions"),
    ),
    Mutation(
        "the JS module words the same-pile refusal otherwise",
        "cloversolve/families/thirteen/rules.js",
        'return ["same-pile", "a card cannot move onto its own pile"]',
        'return ["same-pile", "a card may not move onto its own pile"]',
        ("tests/test_readme_js_example.py",),
    ),
    Mutation(
        "the JS module's foundation-refuses code renamed",
        "cloversolve/families/thirteen/rules.js",
        'return ["foundation-refuses", `the foundation needs rank',
        'return ["foundation-refused", `the foundation needs rank',
        ("tests/test_readme_js_example.py",),
    ),
    Mutation(
        "the batch stream's error line reworded",
        "cloversolve/cli/batch.py",
        'f"not JSON: {',
        'f"not json: {',
        tuple(DOC_COMMANDS_TEST),
    ),
    Mutation(
        "the fifteen hint no longer says it is no promise",
        "cloversolve/solving/solver.py",
        "a legal move chosen from the visible cards; not a promise of a win",
        "a legal move chosen from the visible cards",
        tuple(DOC_COMMANDS_TEST),
    ),
    Mutation(
        "diamonds shown as hearts",
        "cloversolve/core/cards.py",
        '"D": "\u2666"',
        '"D": "\u2665"',
        tuple(DOC_COMMANDS_TEST),
    ),
    Mutation(
        "bench reports no p99",
        "cloversolve/runs/bench.py",
        '    ("p99 ms", "p99_ms"),\n',
        "",
        tuple(DOC_COMMANDS_TEST),
    ),
]


def copy_checkout(folder: Path) -> None:
    """The checkout's tracked files, as they are now, in ``folder``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        source, target = ROOT / name, folder / name
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def run_one(mutation: Mutation, folder: Path) -> str:
    """``caught (first failing test)``, ``MISSED`` or ``DOES NOT APPLY``."""
    path = folder / mutation.file
    original = path.read_bytes()
    text = original.decode("utf-8")
    if mutation.old not in text:
        return "DOES NOT APPLY"
    try:
        if mutation.new is None:
            path.unlink()
        else:
            path.write_text(text.replace(mutation.old, mutation.new, 1), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(folder)}
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *mutation.tests, "-q", "-x", "-p", "no:cacheprovider"],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
        )
    finally:
        path.write_bytes(original)
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    if done.returncode == 0:
        return "MISSED"
    return f"caught ({failed[0].split()[1] if failed else f'pytest exit {done.returncode}'})"


def main(selected: list[str]) -> int:
    chosen = [m for m in MUTATIONS if not selected or any(s in m.name for s in selected)]
    caught = 0
    with tempfile.TemporaryDirectory(prefix="cloversolve-mutations-") as scratch:
        folder = Path(scratch)
        copy_checkout(folder)
        for mutation in chosen:
            verdict = run_one(mutation, folder)
            caught += verdict.startswith("caught")
            print(f"{mutation.name}: {verdict}", flush=True)
    print(f"score: {caught} of {len(chosen)} mutations caught")
    return 0 if caught == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
