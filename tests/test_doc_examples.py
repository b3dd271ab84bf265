"""The shell examples of README.md and catalogues/README.md run as pasted in bash.

Every indented command block of both documents is extracted and run, in order, by bash in a
scratch directory (with ``catalogues/`` linked in). A command may only create the files it
redirects its output to (an unquoted ``>`` in a move would create a file and pass no move).

Commands that take minutes are shrunk or skipped, each listed here with the reason:
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", "catalogues/README.md"]

#: Commands not run, by their start, with the reason.
SKIPPED = {
    "python -m pip install": "installs the package (and then runs the tests themselves)",
    "python benchmarks/": "benchmarks take minutes",
    "cloversolve catalogue build": "a full catalogue build takes hours",
    "dask scheduler": "starts a Dask scheduler that runs until stopped",
    "dask worker": "joins a cluster that is not there",
    "cloversolve study blackhole --deals 1..10000000 --scheduler": "needs that cluster",
}

#: Text replaced before running, to keep the run short: (old, new, reason).
SHRUNK = [
    ("--deals 1..10000", "--deals 1..5", "ten thousand deals"),
    ("--deals 1..1000", "--deals 1..5", "a thousand deals"),
]

#: Exit status expected of a command other than 0, by the command's text.
EXPECTED_STATUS = {
    # Two moves do not win deal 1: replay exits 1 after showing them.
    "cloversolve replay thirteen 1 '4>1' '4>F' --verbose": 1,
}


def shell_examples(text: str) -> list[str]:
    """The commands of the indented (4-space) blocks: continuation lines joined, comments kept
    (bash ignores them), a ``for`` loop kept whole."""
    commands: list[str] = []
    lines = text.splitlines()
    index = 0
    in_fence = in_block = False
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            in_fence = not in_fence
        if line.strip() and not line.startswith("    "):
            in_block = False
        elif not line.strip():
            in_block = in_block or (index + 1 < len(lines) and not in_fence)
        if in_fence or not in_block or not line.strip():
            index += 1
            continue
        command = line[4:]
        while command.endswith("\\") and index + 1 < len(lines):
            index += 1
            command = command[:-1] + " " + lines[index].strip()
        if command.startswith("for "):
            while not command.rstrip().endswith("done") and index + 1 < len(lines):
                index += 1
                command += "\n" + lines[index][4:]
        if not command.startswith(" "):  # a deeper indent is a code listing's body
            commands.append(command)
        index += 1
    return commands


#: Options whose value is a file the command writes.
OUTPUT_OPTIONS = {"--out", "--verdicts", "--checkpoint"}


def output_files(command: str) -> set[str]:
    """Files named after an unquoted ``>`` or an output option, or made by ``mkdir`` (the only
    files the command may create)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.commenters = "#"
    lexer.wordchars += "-"
    tokens = list(lexer)
    made = {
        after
        for before, after in zip(tokens, tokens[1:], strict=False)
        if (">" in before and set(before) <= set("();<>|&")) or before in OUTPUT_OPTIONS
    }
    if tokens[:1] == ["mkdir"]:
        made |= {token for token in tokens[1:] if not token.startswith("-")}
    return made


def _prepared(command: str) -> str | None:
    for start in SKIPPED:
        if command.startswith(start):
            return None
    for old, new, _reason in SHRUNK:
        command = command.replace(old, new)
    return command


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("CLOVERSOLVE_CATALOGUES", None)
    return env


def test_examples_are_found() -> None:
    readme = shell_examples((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "cloversolve replay thirteen 1 '4>1' '4>F' --verbose" in readme
    loop = "text\n\n    for p in a b; do\n      echo $p\n    done\n"
    assert shell_examples(loop) == ["for p in a b; do\n  echo $p\ndone"]
    assert output_files("cloversolve replay thirteen 1 4>1 4>F") == {"1", "F"}
    assert output_files("cloversolve replay thirteen 1 '4>1' \"4>F\"  # x > y") == set()


def test_every_skip_and_shrink_is_used() -> None:
    commands = [
        command
        for document in DOCUMENTS
        for command in shell_examples((ROOT / document).read_text(encoding="utf-8"))
    ]
    for start in SKIPPED:
        assert any(command.startswith(start) for command in commands), start
    for old, _new, _reason in SHRUNK:
        assert any(old in command for command in commands), old


def test_no_example_has_an_unquoted_move() -> None:
    for document in DOCUMENTS:
        for command in shell_examples((ROOT / document).read_text(encoding="utf-8")):
            strays = {t for t in output_files(command) if re.fullmatch(r"\d+|F[CDHS]?", t)}
            assert not strays, f"{document}: {command!r} redirects to {strays}"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_shell_examples_run_as_pasted(document: str, tmp_path: Path) -> None:
    (tmp_path / "catalogues").symlink_to(ROOT / "catalogues")
    env = _environment()
    ran = 0
    for original in shell_examples((ROOT / document).read_text(encoding="utf-8")):
        command = _prepared(original)
        if command is None:
            continue
        before = set(os.listdir(tmp_path))
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        expected = EXPECTED_STATUS.get(original, 0)
        assert done.returncode == expected, f"{original!r}: {done.stdout}{done.stderr}"
        assert "Traceback" not in done.stderr, original
        created = set(os.listdir(tmp_path)) - before
        assert created <= output_files(command), f"{original!r} created {created}"
        ran += 1
    assert ran >= 1
