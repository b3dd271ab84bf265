"""The catalogue file: its format and schema, reading and writing it, and where the shipped
catalogues are found.

A catalogue is one JSON file per preset: the deals it lists were solved, graded Easy / Normal
/ Hard (:mod:`cloversolve.grading.grading`) and carry a route that the reference engine replays
to a win. Front ends read it; ``catalogues/README.md`` is the consumer guide and
``catalogue.schema.json`` beside the catalogues (installed with the package) its JSON Schema.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from ..core.deal_numbers import MAX_DEAL, MIN_DEAL, DealNumberError, check_deal_number
from ..core.inputs import MAX_CATALOGUE_FILE, InputFileError, parse_json, read_bytes, shortened
from ..core.jsonio import dumps, json_integer, shown
from ..core.places import CATALOGUE_DIR_ENV, SCHEMA_NAME, shipped_dir
from ..core.version import RULES_VERSION
from ..games.registry import PRESETS, find_preset
from ..grading.grading import (
    DIFFICULTIES,
)
from .manifest import is_vouched_for

#: Version of the file layout; bumped on any incompatible change. Version 2 writes deal
#: numbers past 2**53 - 1 as decimal text (:mod:`cloversolve.core.jsonio`); version 1 files, all
#: integers, are still read.
FORMAT_VERSION = 2


#: The ``format`` field of every catalogue.
FORMAT_NAME = "cloversolve-catalogue"


class CatalogueError(ValueError):
    """A catalogue that cannot be built, found or read, or a bad request to one."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a catalogue; ``number`` is the deal concerned, if any."""

    number: int | None
    message: str

    def __str__(self) -> str:
        return self.message if self.number is None else f"deal {self.number}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "message": self.message}


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The catalogue JSON Schema (``catalogue.schema.json`` beside the shipped catalogues)."""
    return json.loads((shipped_dir() / SCHEMA_NAME).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


def dump(catalogue: Mapping[str, Any]) -> bytes:
    """The catalogue as bytes: one top-level field per line, one deal per line (compact JSON,
    deal numbers past 2**53 - 1 as decimal text)."""
    lines = [b"{"]
    for key, value in catalogue.items():
        if key != "deals":
            lines.append(b"  " + orjson.dumps(key) + b": " + dumps(value) + b",")
    deals = catalogue.get("deals", [])
    lines.append(b'  "deals": [')
    for index, entry in enumerate(deals):
        comma = b"," if index < len(deals) - 1 else b""
        lines.append(b"    " + dumps(entry) + comma)
    lines.append(b"  ]")
    lines.append(b"}")
    return b"\n".join(lines) + b"\n"


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a catalogue file and check its shape as ``catalogue verify`` does
    (:func:`shape_problems`: the JSON Schema, deal numbers in their JSON form), each entry's
    route length and no deal listed twice (:func:`verify` checks the contents);
    :class:`CatalogueError` names the first thing wrong."""
    name = str(path)
    data, entry_problems = load_with_entry_problems(path)
    if entry_problems:
        raise CatalogueError(
            f"{name!r} is not a valid catalogue: {entry_problems[min(entry_problems)]}"
        )
    listed = Counter(entry["number"] for entry in data["deals"])
    for number, times in listed.items():
        if times > 1:  # lookups and daily deals would depend on which copy came first
            raise CatalogueError(
                f"{name!r} is not a valid catalogue: deal {number} is listed {times} times"
            )
    return data


def load_with_entry_problems(
    path: str | os.PathLike[str],
) -> tuple[dict[str, Any], dict[int, str]]:
    """A catalogue file whose top level is sound (:class:`CatalogueError` otherwise), with
    what is wrong with each of its entries that is not (by index in ``deals``: the first
    problem :func:`shape_problems` or :func:`entry_shape_problem` finds, naming the entry's
    place), for a reader that reports a wrong entry by its deal number."""
    name = str(path)
    try:
        raw = read_bytes(path, "catalogue", MAX_CATALOGUE_FILE)
        data = parse_json(raw, "catalogue", name)
    except InputFileError as error:
        raise CatalogueError(str(error)) from None
    if not isinstance(data, dict):
        raise CatalogueError(f"{name!r} is not a catalogue (not a JSON object)")
    entry_problems: dict[int, str] = {}
    for where, shape in shape_problems(data, read_from=raw):
        if where is None:
            raise CatalogueError(f"{name!r} is not a valid catalogue: {shape}")
        entry_problems.setdefault(where, str(shape))
    if data.get("rules_version") != RULES_VERSION:  # (its routes and grades were of other rules)
        raise CatalogueError(
            f"{name!r} is not a valid catalogue: built for rules version "
            f"{shown(data.get('rules_version'))}; this toolkit checks version {RULES_VERSION}"
        )
    data = with_int_numbers(data)
    for index, entry in enumerate(data["deals"]):
        problem = None if index in entry_problems else entry_shape_problem(entry)
        if problem is not None:
            entry_problems[index] = f"deals/{index}: {problem}"
    return data, entry_problems


def shape_problems(
    data: Mapping[str, Any], *, read_from: bytes | None = None
) -> list[tuple[int | None, Problem]]:
    """What is wrong with the shape of a parsed catalogue: what its JSON Schema refuses and,
    in format 2, deal numbers not in their JSON form (:func:`number_form_problems`); each
    problem with the index of its entry in ``deals`` (``None`` outside the entries). The one
    check of a catalogue's shape, for ``catalogue verify`` and every reader of catalogues.

    ``read_from``: the bytes ``data`` was parsed from. When the manifest of the shipped
    catalogues lists their digest (:mod:`~cloversolve.catalogue.manifest`), exactly those
    bytes passed the schema and it is not run again; ``catalogue verify`` gives no bytes, so
    it always runs the full check."""
    listed = data.get("deals")
    deals: list[Any] = listed if isinstance(listed, list) else []
    found: list[tuple[int | None, Problem]] = []
    vouched = read_from is not None and is_vouched_for(read_from)
    schema_errors = [] if vouched else validator().iter_errors(data)
    for error in sorted(schema_errors, key=lambda e: list(map(str, e.path))):
        path = list(error.path)
        index = None
        if len(path) >= 2 and path[0] == "deals" and isinstance(path[1], int):
            index = path[1]
        number = None if index is None else number_of(deals[index])
        where = "/".join(str(part) for part in path) or "top level"
        found.append((index, Problem(number, f"schema: {where}: {_schema_message(error)}")))
    if data.get("format_version") == FORMAT_VERSION:
        found.extend(number_form_problems(data))
    return found


def _schema_message(error: Any) -> str:
    """A JSON Schema error's message, shortened; one of a fixed value (``const``) also quotes
    the value found, which the validator's own message leaves out."""
    if error.validator == "const":
        return shortened(
            f"{error.instance!r} is not {error.validator_value!r}, the one value allowed"
        )
    return shortened(error.message)


#: Field of a catalogue entry -> (test, what it must be): what readers of entries rely on.
_ENTRY_FIELDS: dict[str, tuple[Any, str]] = {
    "number": (lambda v: is_int(v) and MIN_DEAL <= v <= MAX_DEAL, "a deal number"),
    "difficulty": (lambda v: isinstance(v, str) and v in DIFFICULTIES, "easy, normal or hard"),
    "route_length": (lambda v: is_int(v) and v >= 1, "a positive whole number"),
    "route": (lambda v: isinstance(v, list) and all(isinstance(m, str) for m in v), "moves"),
    "layout": (lambda v: isinstance(v, dict), "a layout object"),
    "metrics": (lambda v: isinstance(v, dict), "an object"),
}


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_number(value: Any) -> Any:
    """A deal number read from a catalogue as an int (a JSON integer, or decimal text: the
    form of one past 2**53 - 1); anything else as it is, for the checks to name."""
    if not isinstance(value, str):
        return value
    try:
        return check_deal_number(value)
    except DealNumberError:
        return value


def with_int_numbers(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a parsed catalogue) with its deal numbers as ints: the entries' numbers,
    their layouts' and the scanned range (``parameters.deals``). The rest is shared."""
    copy = dict(data)
    parameters = data.get("parameters")
    if isinstance(parameters, dict) and isinstance(parameters.get("deals"), dict):
        scanned = {key: _read_number(value) for key, value in parameters["deals"].items()}
        copy["parameters"] = {**parameters, "deals": scanned}
    if isinstance(data.get("deals"), list):
        copy["deals"] = [_entry_with_int_numbers(entry) for entry in data["deals"]]
    return copy


def _entry_with_int_numbers(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    copy = {**entry, "number": _read_number(entry.get("number"))} if "number" in entry else entry
    layout = entry.get("layout")
    if isinstance(layout, dict) and "number" in layout:
        copy = {**copy, "layout": {**layout, "number": _read_number(layout["number"])}}
    return copy


def number_form_problems(data: Mapping[str, Any]) -> list[tuple[int | None, Problem]]:
    """Deal numbers not written in their JSON form (:func:`~cloversolve.core.jsonio.json_integer`:
    an integer up to 2**53 - 1, decimal text beyond), which a reader may take for another
    deal or refuse, each with the index of its entry (``None`` for the scanned range);
    numbers of no form at all are the schema's to report."""
    written: list[tuple[int | None, int | None, str, Any]] = []
    parameters = data.get("parameters")
    scanned = parameters.get("deals") if isinstance(parameters, dict) else None
    if isinstance(scanned, dict):
        written += [
            (None, None, f"parameters.deals.{key}", value) for key, value in scanned.items()
        ]
    for position, entry in enumerate(data.get("deals") or []):
        if isinstance(entry, dict):
            number = number_of(entry)
            written.append((position, number, "number", entry.get("number")))
            layout = entry.get("layout")
            if isinstance(layout, dict):
                written.append((position, number, "layout number", layout.get("number")))
    problems: list[tuple[int | None, Problem]] = []
    for index, number, what, value in written:
        read = _read_number(value)
        if is_int(read) and MIN_DEAL <= read <= MAX_DEAL and json_integer(read) != value:
            form = "decimal text" if isinstance(json_integer(read), str) else "a JSON integer"
            message = f"{what} {shown(value)} must be written as {form} (format 2)"
            problems.append((index, Problem(number, message)))
    return problems


def entry_shape_problem(entry: Any) -> str | None:
    """Why ``entry`` cannot be read as a catalogue entry, or ``None`` (fields and types only;
    :func:`verify` checks the full schema and the contents)."""
    if not isinstance(entry, dict):
        return f"{shown(entry)} is not an entry object"
    for key, (test, meaning) in _ENTRY_FIELDS.items():
        if key not in entry:
            return f"no {key!r}"
        if not test(entry[key]):
            return f"{key} is {shown(entry[key])}, not {meaning}"
    length, moves = entry["route_length"], len(entry["route"])
    if length != moves:
        return f"route_length is {length}, but the route has {moves} moves"
    return None


#: How a catalogue file starts: an object whose first key is ``format``.
_CATALOGUE_START = re.compile(
    rb'\s*\{\s*"format"\s*:\s*"' + re.escape(FORMAT_NAME.encode()) + rb'"'
)


#: The first ``preset`` field of a catalogue's text: the top level's, which comes first.
_PRESET_FIELD = re.compile(rb'"preset"\s*:\s*"([^"]*)"')


def is_catalogue_file(start: bytes, preset: str | None = None) -> bool:
    """Whether a file's first bytes open like a catalogue this toolkit writes (of
    ``preset``, when one is given)."""
    if _CATALOGUE_START.match(start) is None:
        return False
    field = _PRESET_FIELD.search(start)
    return preset is None or (field is not None and field[1] == preset.encode())


def catalogue_dir() -> Path:
    """The directory catalogues are looked up in: ``$CLOVERSOLVE_CATALOGUES`` when it is set
    (it must then be a directory, and an empty value is an error; the shipped catalogues
    are not a fallback), else the shipped ones (:func:`shipped_dir`)."""
    configured = os.environ.get(CATALOGUE_DIR_ENV)
    if configured is None:
        return shipped_dir()
    if not configured:
        raise CatalogueError(
            f"{CATALOGUE_DIR_ENV}={configured!r} is set but empty; name a directory, or "
            "unset it for the shipped catalogues"
        )
    if not Path(configured).is_dir():
        state = "is not a directory" if Path(configured).exists() else "does not exist"
        raise CatalogueError(f"{CATALOGUE_DIR_ENV}={configured!r} {state}")
    return Path(configured)


def default_catalogue(preset: str) -> Path:
    """The catalogue of ``preset`` (``<preset>.json``) in :func:`catalogue_dir`; a preset
    that is not graded has none anywhere (a catalogue lists graded deals)."""
    spec = find_preset(preset)
    if spec.grading is None:
        graded = ", ".join(name for name, other in PRESETS.items() if other.grading is not None)
        raise CatalogueError(
            f"{spec.name} has no catalogue: a catalogue lists graded deals, and the graded "
            f"presets are {graded} (`cloversolve solve {spec.name} N` decides a deal)"
        )
    directory = catalogue_dir()
    candidate = directory / f"{spec.name}.json"
    if candidate.is_file():
        return candidate
    if os.environ.get(CATALOGUE_DIR_ENV) is not None:
        raise CatalogueError(
            f"no {spec.name} catalogue in {str(directory)!r} ({CATALOGUE_DIR_ENV}); "
            f"pass --catalogue FILE or unset {CATALOGUE_DIR_ENV} for the shipped ones"
        )
    raise CatalogueError(
        f"no {spec.name} catalogue in {str(directory)!r} (the shipped catalogues); "
        f"pass --catalogue FILE or set {CATALOGUE_DIR_ENV}"
    )


def open_catalogue(preset: str, path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Load ``preset``'s catalogue from ``path`` (default: the shipped one) and check that it
    is a catalogue of that preset."""
    spec = find_preset(preset)
    source = Path(path) if path is not None else default_catalogue(spec.name)
    data = load(source)
    if data.get("preset") != spec.name:
        raise CatalogueError(
            f"{str(source)!r} is a catalogue of {data.get('preset')!r}, not {spec.name!r}"
        )
    return data


def number_of(entry: Any) -> int | None:
    number = _read_number(entry.get("number")) if isinstance(entry, dict) else None
    return number if is_int(number) else None
