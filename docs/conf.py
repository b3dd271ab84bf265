"""Sphinx configuration of the documentation site.

Build it with ``python -m pip install '.[docs]' && sphinx-build -W --keep-going docs
docs/_build`` (``-W``: any warning, a broken link or reference included, fails the build).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate_pages import rewrite_links, write_pages  # noqa: E402
from sphinx.util import logging  # noqa: E402

import cloversolve  # noqa: E402

_logger = logging.getLogger(__name__)

project = "cloversolve"
release = cloversolve.__version__
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.viewcode"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "screenshots/capture.py"]
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
# Examples elided with "..." are not valid JSON; they are shown unhighlighted.
suppress_warnings = ["myst.header", "misc.highlighting_failure"]
# Every reference must resolve (a warning, and so a failure under -W), except the standard
# library's types named in signatures: the site is built offline, with no Python inventory.
nitpicky = True
nitpick_ignore_regex = [("py:class", r"(collections|collections\.abc|random)\.\w+")]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
html_theme = "furo"
html_title = "cloversolve"


def _write_pages(app: object) -> None:
    """The pages made from the repository's Markdown files, written before any page is read."""
    write_pages(lambda message: _logger.warning(message, type="link", subtype="file"))


def _site_links(app: object, docname: str, source: list[str]) -> None:
    """A page of ``docs/`` links to the repository's files as the repository shows them
    (``../RULES.md``); on the site those links go to the pages made from the files."""
    if not docname.startswith("generated/"):
        source[0] = rewrite_links(
            f"docs/{docname}.md",
            f"{docname}.md",
            source[0],
            lambda message: _logger.warning(message, location=docname, type="link", subtype="file"),
        )


def setup(app: Any) -> None:
    app.connect("builder-inited", _write_pages)
    app.connect("source-read", _site_links)
