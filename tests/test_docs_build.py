"""The documentation site's strict build: a broken link or reference fails it, the real site
builds clean, and the API reference gives every public name an anchor.

The builds need Sphinx, MyST and Furo (the test extra and the docs extra install them):
outside CI a missing one skips these tests with the reason, in CI it fails them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from external_tools import require_module

import cloversolve

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def sphinx_build(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``python -m sphinx -W --keep-going`` on ``source``, as CI runs it."""
    for module in ("sphinx", "myst_parser", "furo"):
        require_module(module, "the site's build needs Sphinx, MyST and Furo (the test extra)")
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", str(source), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site, built once into a temporary directory."""
    out = tmp_path_factory.mktemp("site")
    build = sphinx_build(DOCS, out)
    assert build.returncode == 0, build.stdout + build.stderr
    return out


def test_the_real_site_builds_clean(site: Path) -> None:
    assert (site / "index.html").is_file()


def test_every_public_name_has_an_anchor_in_the_api_reference(site: Path) -> None:
    ids = re.findall(r'id="([^"]+)"', (site / "api.html").read_text(encoding="utf-8"))
    missing = [name for name in cloversolve.__all__ if f"cloversolve.{name}" not in ids]
    assert not missing, f"public names without an anchor in api.html: {missing}"
    twice = [name for name in cloversolve.__all__ if ids.count(f"cloversolve.{name}") > 1]
    assert not twice, f"public names documented more than once: {twice}"


def test_every_link_to_an_anchor_of_the_site_finds_it(site: Path) -> None:
    """Links within the site, the source pages' links back to the API reference included."""
    pages = {page.resolve(): page.read_text(encoding="utf-8") for page in site.rglob("*.html")}
    ids = {page: set(re.findall(r'id="([^"]+)"', text)) for page, text in pages.items()}
    broken = []
    for page, text in pages.items():
        for target, anchor in re.findall(r'href="([^"#:]*\.html)#([^"]+)"', text):
            found = ids.get((page.parent / target).resolve())
            if found is not None and anchor not in found:
                broken.append(f"{page.relative_to(site)}: {target}#{anchor}")
    assert not broken, "\n".join(broken)


def test_the_api_reference_starts_with_solve(site: Path) -> None:
    html = (site / "api.html").read_text(encoding="utf-8")
    first = re.search(r'<dt class="sig sig-object py" id="([^"]+)"', html)
    assert first is not None and first.group(1) == "cloversolve.solve"


def test_a_broken_link_or_reference_fails_the_build(tmp_path: Path) -> None:
    """A copy of the repository (docs/ copied, the rest linked) with one page that has a link to
    a missing page, a link to a missing repository file and a reference to a missing function."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in ("docs", ".git"):
            (repo / entry.name).symlink_to(entry)
    shutil.copytree(DOCS, repo / "docs", ignore=shutil.ignore_patterns("_build", "generated"))
    page = repo / "docs" / "commands.md"
    page.write_text(
        page.read_text(encoding="utf-8")
        + "\n[x](nowhere.md) [y](../NOPE.md) {py:func}`cloversolve.nonexistent`\n",
        encoding="utf-8",
    )
    build = sphinx_build(repo / "docs", tmp_path / "out")
    output = build.stdout + build.stderr
    assert build.returncode != 0, output
    assert "[x](nowhere.md)" in output
    assert "[y](../NOPE.md)" in output
    assert "cloversolve.nonexistent" in output
