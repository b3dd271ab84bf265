"""Where the toolkit's own files are: the package's folder, the shipped catalogues and the
catalogue folder ``$CLOVERSOLVE_CATALOGUES`` names. Outputs never go there
(:mod:`cloversolve.runs.output`); the catalogue files are read from there
(:mod:`cloversolve.catalogue.files`)."""

from __future__ import annotations

import os
from pathlib import Path

#: The package's own folder (its modules, the web module, the installed catalogues).
PACKAGE_DIR = Path(__file__).resolve().parent.parent

#: Environment variable naming a directory of catalogues (``<preset>.json``).
CATALOGUE_DIR_ENV = "CLOVERSOLVE_CATALOGUES"

#: Name of the catalogue JSON Schema beside the shipped catalogues.
SCHEMA_NAME = "catalogue.schema.json"

#: Name of the manifest beside the shipped catalogues: the digests of those found sound.
MANIFEST_NAME = "VERIFIED.sha256"


def shipped_dir(package: Path | None = None) -> Path:
    """The directory of the shipped catalogues and their schema: ``cloversolve/catalogues``
    in an installed package, else the ``catalogues`` directory of a source checkout (their one
    source, copied into the package when it is built). ``package``: the package directory."""
    package = package or PACKAGE_DIR
    installed = package / "catalogues"
    return installed if (installed / SCHEMA_NAME).is_file() else package.parent / "catalogues"


def toolkit_folders() -> list[tuple[Path, str]]:
    """The folders no output may go into, resolved, each with what it is: the package's own
    folder, the shipped catalogues' and the folder ``$CLOVERSOLVE_CATALOGUES`` names (when it
    names one)."""
    folders = [
        (PACKAGE_DIR, "the toolkit's own folder"),
        (shipped_dir().resolve(), "the shipped catalogues' folder"),
    ]
    configured = os.environ.get(CATALOGUE_DIR_ENV)
    if configured:
        folders.append((Path(configured).resolve(), f"the catalogue folder {CATALOGUE_DIR_ENV}"))
    return folders
