"""Every family's loss prover shares no code with the search (FACTS.md, fact 17): no module it
imports, directly or not, is of the search layer (the kernels, their drivers and tables)."""

from __future__ import annotations

import pytest
from test_layers import LAYERS, import_graph, layer_of

from cloversolve.games.registry import FAMILIES
from cloversolve.rules.plugin import rules_plugin

PROVED = [name for name in FAMILIES if rules_plugin(name).loss_prover is not None]
SEARCH = LAYERS.index("search")


def imported_from(start: str) -> set[str]:
    """The package's modules that ``start`` imports, directly or through others."""
    graph, seen, pending = import_graph(), set(), [start]
    while pending:
        for target in graph[pending.pop()] - seen:
            seen.add(target)
            pending.append(target)
    return seen


def test_the_games_whose_losses_the_plain_search_cannot_finish_have_a_prover() -> None:
    assert {"clover", "hole"} <= set(PROVED)


@pytest.mark.parametrize("family", PROVED)
def test_a_loss_prover_imports_nothing_of_the_search(family: str) -> None:
    module = rules_plugin(family).loss_prover.__module__.removeprefix("cloversolve.")
    assert module == f"families.{family}.proof"
    searching = sorted(m for m in imported_from(module) if layer_of(m) >= SEARCH)
    assert searching == [], f"the {family} prover imports {searching}"


def test_the_check_sees_a_search_module_imported_on_the_way() -> None:
    """The clover search imports the search layer: the same check finds it."""
    assert any(layer_of(m) == SEARCH for m in imported_from("families.clover.search"))
