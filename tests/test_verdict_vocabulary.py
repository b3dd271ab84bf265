"""The one verdict vocabulary: every word of a verdict the package writes (a status's value,
its letter in a verdict file, the name a study counts it under, the statuses of a hint that
does not search and of a replay other than a win) is spelled in
``cloversolve/core/verdicts.py`` alone; the rest of the package derives it from the enums
there."""

from __future__ import annotations

import ast
from pathlib import Path

import cloversolve
from cloversolve.core import verdicts
from cloversolve.core.verdicts import VERDICT_LETTERS, Status, verdict_counts

PACKAGE = Path(__file__).resolve().parent.parent / "cloversolve"
VOCABULARY = "core/verdicts.py"

#: Every word of a verdict: the statuses' values, letters and count names, the former name of
#: ``stopped_by``, and the other statuses written (``won`` aside: a word of many other uses).
VERDICT_WORDS = (
    frozenset(
        word for status in Status for word in (status.value, status.letter, status.count_name)
    )
    | {verdicts.FORMER_STOPPED_BY}
    | {status.value for status in (*verdicts.HintVerdict, *verdicts.ReplayStatus)}
) - {verdicts.ReplayStatus.WON.value}

#: String constants equal to a verdict letter that mean something else: the placeholder of an
#: unknown suit letter, and the plural's ending.
NOT_VERDICTS = frozenset({("cli/common.py", "?"), ("core/wording.py", "s")})


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of ``tree``."""
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def verdict_words_in(source: str) -> list[tuple[int, str]]:
    """The (line, word) of every string constant of ``source`` equal to a verdict's word:
    docstrings and the plain text of f-strings aside."""
    tree = ast.parse(source)
    skipped = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skipped.update(id(part) for part in node.values if isinstance(part, ast.Constant))
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in VERDICT_WORDS
        and id(node) not in skipped
    )


def verdict_words_outside_vocabulary(package: Path = PACKAGE) -> list[str]:
    """Every place of the package's Python, outside the vocabulary module, that spells a
    verdict's word (``module:line: word``)."""
    places = []
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package).as_posix()
        if module == VOCABULARY:
            continue
        for line, word in verdict_words_in(path.read_text(encoding="utf-8")):
            if (module, word) not in NOT_VERDICTS:
                places.append(f"{module}:{line}: {word!r}")
    return places


def test_no_verdict_word_outside_the_vocabulary() -> None:
    assert verdict_words_outside_vocabulary() == []


def test_a_verdict_word_is_found(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "verdicts.py").write_text('SOLVED = "solved"\n')
    (tmp_path / "runs.py").write_text(
        '"""solved"""\n'
        'def f(record):\n    """limit"""\n'
        '    tally = {"undecided": 0}\n'
        "    print(f\"{record['status']} solved\")\n"
        '    return record["status"] == "unsolvable" or record["letter"] == "?"\n'
        'REPLAYED = ("won", "not-won")\n'
    )
    assert verdict_words_outside_vocabulary(tmp_path) == [
        "runs.py:4: 'undecided'",
        "runs.py:6: '?'",
        "runs.py:6: 'unsolvable'",
        "runs.py:7: 'not-won'",
    ]


def test_the_public_verdict_names_are_the_vocabulary() -> None:
    assert cloversolve.Status is Status
    assert cloversolve.Method is verdicts.Method
    assert cloversolve.HintVerdict is verdicts.HintVerdict
    assert cloversolve.ReplayStatus is verdicts.ReplayStatus


def test_letters_and_count_names_derive_from_status() -> None:
    for status in Status:
        assert Status.of_letter(status.letter) is status
        assert VERDICT_LETTERS[status.value] == status.letter
    assert len({status.letter for status in Status}) == len(Status)
    counts = verdict_counts({Status.UNSOLVABLE.value: 2})
    assert list(counts) == [status.count_name for status in Status]
    assert counts[Status.UNSOLVABLE.count_name] == 2
    assert counts[Status.SOLVED.count_name] == 0
