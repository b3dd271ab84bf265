"""Write the site's pages that come from the repository's own Markdown files.

Each text has one source (README.md, RULES.md, FACTS.md, the catalogue guide, the benchmark
reports); ``docs/conf.py`` calls :func:`write_pages` before every build, which copies each
into ``docs/generated/`` and rewrites its links: a link to another of these files becomes a
link to its page, an image under ``docs/`` stays an image, and a link to any other file of
the repository becomes the file's path in code (the site holds no source files). A link to a
file the repository does not hold is reported, which fails the strict build.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GENERATED = DOCS / "generated"

#: Repository file -> page, relative to ``docs/``.
PAGES = {
    "README.md": "generated/readme.md",
    "RULES.md": "generated/rules.md",
    "FACTS.md": "generated/facts.md",
    "catalogues/README.md": "generated/catalogues.md",
    "benchmarks/results/RESULTS.md": "generated/benchmarks/results.md",
    "benchmarks/results/STUDY.md": "generated/benchmarks/study.md",
    "benchmarks/results/AUDIT.md": "generated/benchmarks/audit.md",
    "benchmarks/results/batch.md": "generated/benchmarks/batch.md",
    "benchmarks/results/bench.md": "generated/benchmarks/bench.md",
    "benchmarks/results/executor.md": "generated/benchmarks/executor.md",
    "benchmarks/results/grading_panel.md": "generated/benchmarks/grading-panel.md",
}

#: Titles of the pages whose file has no heading of its own (tables written by a benchmark).
TITLES = {
    "benchmarks/results/bench.md": "cloversolve bench",
    "benchmarks/results/grading_panel.md": "Grading panel validation",
}

_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


def _relative(target: str, page: str) -> str:
    """``target`` as a link from ``page`` (both relative to ``docs/``)."""
    up = [".."] * len(PurePosixPath(page).parent.parts)
    return str(PurePosixPath(*up, target))


def rewrite_links(source: str, page: str, text: str, warn: Callable[[str], None]) -> str:
    """``text`` of the repository file ``source`` with its links made right for ``page``;
    ``warn`` is told of each link to a file that does not exist (left as its label)."""
    folder = PurePosixPath(source).parent

    def replace(match: re.Match[str]) -> str:
        image, label, url = match.groups()
        if "://" in url or url.startswith(("#", "mailto:")):
            return match.group(0)
        path, _, anchor = url.partition("#")
        resolved = Path(os.path.normpath(ROOT / folder / path))
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            warn(f"{source}: broken link [{label}]({url}): no such file in the repository")
            return label
        target = resolved.relative_to(ROOT).as_posix()
        fragment = f"#{anchor}" if anchor else ""
        if target in PAGES:
            return f"{image}[{label}]({_relative(PAGES[target], page)}{fragment})"
        if target.startswith("docs/"):
            return f"{image}[{label}]({_relative(target.removeprefix('docs/'), page)}{fragment})"
        return f"{label} (`{target}`)"

    return _LINK.sub(replace, text)


def write_pages(warn: Callable[[str], None]) -> None:
    """Write every page of :data:`PAGES` (only files whose text changed are rewritten);
    ``warn`` is told of each broken link."""
    for source, page in PAGES.items():
        text = rewrite_links(source, page, (ROOT / source).read_text(encoding="utf-8"), warn)
        if not text.startswith("# "):
            text = f"# {TITLES[source]}\n\n{text}"
        out = DOCS / page
        out.parent.mkdir(parents=True, exist_ok=True)
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            out.write_text(text, encoding="utf-8")
