"""Front-end assets shipped with the package: ``cloversolve.js``, the dependency-free
JavaScript module that deals, replays and checks moves exactly as the toolkit does (with its
type declarations ``cloversolve.d.ts`` and its ``package.json``), the solution viewer's page
(:mod:`cloversolve.web.viewer`) and the play page (:mod:`cloversolve.web.play`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

MODULE_NAME = "cloversolve.js"


def asset_path(name: str) -> Path:
    """The path of a shipped front-end file."""
    return Path(str(resources.files(__name__).joinpath(name)))


def module_path() -> Path:
    """The path of ``cloversolve.js``."""
    return asset_path(MODULE_NAME)


def asset_text(name: str) -> str:
    """The text of a shipped front-end file."""
    return asset_path(name).read_text(encoding="utf-8")
