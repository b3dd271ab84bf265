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

import cloversolve  # noqa: E402

write_pages()

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
autodoc_member_order = "bysource"
autodoc_typehints = "description"
html_theme = "furo"
html_title = "cloversolve"


def _site_links(app: object, docname: str, source: list[str]) -> None:
    """A page of ``docs/`` links to the repository's files as the repository shows them
    (``../RULES.md``); on the site those links go to the pages made from the files."""
    if not docname.startswith("generated/"):
        source[0] = rewrite_links(f"docs/{docname}.md", f"{docname}.md", source[0])


def setup(app: Any) -> None:
    app.connect("source-read", _site_links)
