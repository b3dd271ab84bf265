"""``benchmarks/deal_win_rates.py``: every validation player's games on deals 1..N, kept and
resumed, and the table put into a page between its markers."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest
from helpers import load_benchmark

from cloversolve.grading import validation_players
from cloversolve.grading.validation_players import Game


@pytest.fixture
def script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = load_benchmark("deal_win_rates")
    monkeypatch.setattr(module, "RESULTS", tmp_path)
    return module


def test_games_are_kept_resumed_and_tabled(
    script: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[tuple[str, str]] = []

    def game(position: Any, player: str, seed: str) -> Game:
        played.append((player, seed))
        return Game(player == "tips-undo" or seed.endswith("/1"), ())

    monkeypatch.setattr(script, "validation_game", game)
    page = tmp_path / "page.md"
    page.write_text("before\n<!-- rates:start -->\nold\n<!-- rates:end -->\nafter\n")
    assert script.main(["--deals", "2", "--name", "rates", "--docs", str(page)]) == 0
    players = validation_players.validation_players_of("thirteen")
    assert len(played) == 2 * len(players)
    saved = orjson.loads((tmp_path / "rates_deals.json").read_bytes())["games"]
    assert saved["1"] == dict.fromkeys(players, 1)
    assert saved["2"] == {p: int(p == "tips-undo") for p in players}

    played.clear()
    assert script.main(["--deals", "3", "--name", "rates", "--docs", str(page)]) == 0
    assert {seed for _, seed in played} == {"cloversolve-grading/thirteen-return/3"}
    text = page.read_text()
    assert text.startswith("before\n<!-- rates:start -->\n| `thirteen-return`, deals 1..3 |")
    assert text.endswith("<!-- rates:end -->\nafter\n") and "old" not in text
    assert "| the game's pages | | 40% |" in text
    assert "| `tips-undo` | assisted (undo) | 100.0% (" in text
    assert "| `tips` | unassisted | 33.3% (" in text


def test_bad_input_takes_one_line(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert script.main(["--preset", "nope", "--deals", "2"]) == 2
    assert script.main(["--deals", "0"]) == 2
    assert script.main(["--deals", "1", "--docs", str(tmp_path / "missing.md")]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and "'nope'" in lines[0] and "got 0" in lines[1]
    assert "missing.md" in lines[2]


def test_a_page_without_the_markers_is_refused(script: ModuleType, tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("no block\n")
    with pytest.raises(ValueError, match="no <!-- rates:start -->"):
        script.put_in_page(page, "rates", "table\n")
    assert page.read_text() == "no block\n"
