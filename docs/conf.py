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
from sphinx import addnodes  # noqa: E402
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
nitpick_ignore_regex = [("py:class", r"(collections|collections\.abc|random|types)\.\w+")]
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


def _defining_module_ids(app: Any, doctree: Any) -> None:
    """Give each object documented under its public name (``cloversolve.solve``) the id of its
    defining module's name too (``cloversolve.solving.solver.solve``): a module's source page
    links back to its objects by that name (see :func:`_source_backlinks`)."""
    for signature in doctree.findall(addnodes.desc_signature):
        fullname = signature.get("fullname")
        if signature.get("module") != "cloversolve" or not fullname:
            continue
        home = getattr(getattr(cloversolve, fullname.split(".")[0], None), "__module__", None)
        anchor = f"{home}.{fullname}"
        if home and home != "cloversolve" and anchor not in signature["ids"]:
            signature["ids"].append(anchor)


def _source_backlinks(app: Any, env: Any) -> None:
    """viewcode links a module's source page back to the documented objects by one module name
    for the whole module, the first it met (``cloversolve`` for a module whose objects are
    documented under their public names and under its own): make it the module's own name,
    which every object of the module has as an id."""
    modules = getattr(env, "_viewcode_modules", {})
    for name, entry in modules.items():
        if entry:
            modules[name] = (*entry[:3], name)


def setup(app: Any) -> None:
    app.connect("builder-inited", _write_pages)
    app.connect("source-read", _site_links)
    app.connect("doctree-read", _defining_module_ids)
    app.connect("env-updated", _source_backlinks)
