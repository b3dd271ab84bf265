"""Pieces shared by the command modules: one-line usage errors, JSON output, sizes."""

from __future__ import annotations

import json
import re
from typing import Any

import click
import orjson

EXIT_USAGE = 2


class CliError(click.ClickException):
    """A usage error reported as one line with exit code 2."""

    exit_code = EXIT_USAGE


def print_json(data: Any) -> None:
    try:
        text = orjson.dumps(data).decode()
    except TypeError:  # an integer beyond 64 bits, such as deal 10**20 - 1
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    click.echo(text)


_SIZE = re.compile(r"(?i)\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*")
_SIZE_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_size(text: str) -> int:
    """``512M``, ``1G``, ``1.5GiB`` or a plain byte count, as bytes."""
    match = _SIZE.fullmatch(text)
    if not match:
        raise CliError(f"bad memory size: {text!r} (expected e.g. 512M or 2G)")
    return int(float(match[1]) * _SIZE_UNITS[match[2].lower()])
