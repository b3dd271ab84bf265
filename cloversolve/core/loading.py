"""Importing an object named by a dotted path, on first use."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any


@cache
def resolve(path: str) -> Any:
    """The object a ``package.module:attribute`` path names (the module itself without an
    attribute), imported on first use."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module
