"""Every deliberate mutation of ``tests/mutations.py`` still finds the code it breaks.

Running the mutations takes many minutes; this only checks that each one still applies, so a
change to the code a mutation targets is noticed at once (update the mutation with it).
"""

from __future__ import annotations

import pytest
from mutations import MUTATIONS, ROOT, Mutation


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.name)
def test_the_mutation_still_applies(mutation: Mutation) -> None:
    target = ROOT / mutation.file
    assert target.is_file(), f"{mutation.file} is gone"
    if mutation.new is not None:
        assert mutation.old in target.read_text(encoding="utf-8"), mutation.file
