"""The manifest of the shipped catalogues, ``VERIFIED.sha256`` beside them: the SHA-256
digest of every shipped catalogue that ``catalogue verify`` found sound, and of the JSON
Schema it checked them against, one ``DIGEST  NAME`` line each, sorted by name (the lines
``sha256sum`` writes and ``sha256sum -c`` checks). ``cloversolve catalogue vouch`` writes it.

A reader whose bytes have a listed digest has read exactly a file that passed the schema, so
it does not run the schema again (:func:`~cloversolve.catalogue.files.shape_problems`); any
other bytes get the full check. A manifest that is missing, has a line of another form, or
lists another schema than the one in use vouches for nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path

from ..core.places import MANIFEST_NAME, SCHEMA_NAME, shipped_dir
from ..runs.output import OutputPathError, write_atomic

#: One line of the manifest: a digest in lower-case hex, two spaces, a file name.
_LINE = re.compile(r"([0-9a-f]{64})  ([^\s/\\]+)")


def digest(data: bytes) -> str:
    """The SHA-256 digest of ``data``, in lower-case hex."""
    return hashlib.sha256(data).hexdigest()


def schema_digest() -> str:
    """The digest of the catalogue schema in use (beside the shipped catalogues)."""
    return digest((shipped_dir() / SCHEMA_NAME).read_bytes())


def manifest_bytes(catalogues: Mapping[str, str], schema: str) -> bytes:
    """The manifest listing ``catalogues`` (file name -> digest) and the schema's digest."""
    listed = {**catalogues, SCHEMA_NAME: schema}
    return "".join(f"{listed[name]}  {name}\n" for name in sorted(listed)).encode("ascii")


def read_manifest(path: Path) -> dict[str, str]:
    """The file names and digests ``path`` lists; empty when it is missing or unreadable,
    or a line (or a name listed twice) is not of the manifest's form."""
    try:
        lines = path.read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    listed: dict[str, str] = {}
    for line in lines:
        match = _LINE.fullmatch(line)
        if match is None or match[2] in listed:
            return {}
        listed[match[2]] = match[1]
    return listed


def manifest_path(directory: Path) -> Path:
    """The manifest's path in ``directory``, else raise :class:`OutputPathError` quoting it:
    a link (writing there would replace what it points at), something other than a file, or
    a file that is not a manifest (someone's file: it is not replaced)."""
    path = directory / MANIFEST_NAME
    shown = str(path)
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise OutputPathError(
            f"bad manifest file: {shown!r} (it is a link or not a file; remove it first)"
        )
    if path.exists() and path.stat().st_size and not read_manifest(path):
        raise OutputPathError(
            f"bad manifest file: {shown!r} (it exists and is not a manifest; remove it first)"
        )
    return path


def write_manifest(directory: Path, catalogues: Mapping[str, str]) -> Path:
    """Write the manifest of ``directory`` (atomically, where :func:`manifest_path` allows)
    listing ``catalogues`` (file name -> digest) and the schema in use; its path."""
    path = manifest_path(directory)
    write_atomic(path, manifest_bytes(catalogues, schema_digest()))
    return path


def is_vouched_for(data: bytes) -> bool:
    """Whether the manifest of the shipped catalogues lists the digest of ``data`` (a
    catalogue file's bytes) under the schema in use: those bytes passed the schema."""
    listed = read_manifest(shipped_dir() / MANIFEST_NAME)
    if not listed or listed.get(SCHEMA_NAME) != schema_digest():
        return False
    return digest(data) in {value for name, value in listed.items() if name != SCHEMA_NAME}
