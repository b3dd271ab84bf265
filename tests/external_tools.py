"""Programs and Python packages some tests need (node, a Chromium browser, the test extra's
optional packages).

Outside CI a missing one skips those tests with the reason; in CI (``CI`` set to ``true``) it
fails them, so a CI run can never pass without running them.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

#: Browser executables tried in order (Debian's ``chromium`` package first).
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def require_program(names: tuple[str, ...], why: str) -> str:
    """The path of the first of ``names`` on PATH; otherwise skip (fail in CI) saying ``why``."""
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    message = f"{' or '.join(names)} not found on PATH: {why}"
    if in_ci():
        pytest.fail(message + " (CI must run these tests: .ci/run installs it)")
    pytest.skip(message)


def require_module(name: str, why: str) -> ModuleType:
    """The module ``name``, imported; if it cannot be, skip (fail in CI) saying ``why``."""
    try:
        return importlib.import_module(name)
    except Exception as error:  # (a broken install fails its import in many ways)
        message = f"Python package {name} cannot be imported ({error}): {why}"
        if in_ci():
            pytest.fail(message + " (CI must run these tests: the test extra installs it)")
        pytest.skip(message)


def node() -> str:
    return require_program(("node",), "the JavaScript module's cross-checks need node 18+")


def chromium() -> str:
    override = os.environ.get("CLOVERSOLVE_CHROMIUM")
    if override:
        return override
    return require_program(CHROMIUM_NAMES, "the viewer's browser tests need headless Chromium")


@contextlib.contextmanager
def launched_chromium() -> Iterator[Any]:
    """Headless Chromium, driven by playwright (missing either: skip, or fail in CI)."""
    executable = chromium()
    playwright = require_module("playwright.sync_api", "the browser tests drive Chromium with it")
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


#: The folder of the pinned TypeScript compiler (``npm ci --prefix tests/web`` installs it).
WEB_TESTS = Path(__file__).resolve().parent / "web"


def open_page(browser: Any, path: Path, viewport: dict[str, int]) -> tuple[Any, list[str]]:
    """A new page of ``browser`` at ``viewport`` showing the file ``path`` once it has loaded,
    and the list that gathers its console errors, page errors and failed requests."""
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("requestfailed", lambda request: errors.append(f"request failed: {request.url}"))
    page.goto(path.as_uri())
    page.wait_for_selector("body:not([data-status='loading'])")
    return page, errors


def typescript_compiler() -> str:
    """The pinned ``tsc`` of ``tests/web``; if it is not installed, skip (fail in CI)."""
    node()
    tsc = WEB_TESTS / "node_modules" / ".bin" / "tsc"
    if tsc.is_file():
        return str(tsc)
    message = f"{tsc} not found: the type declarations' checks need `npm ci --prefix tests/web`"
    if in_ci():
        pytest.fail(message + " (CI must run these tests: .ci/run installs it)")
    pytest.skip(message)


def run_node_tests(test_file: Path, variable: str, data_file: Path) -> None:
    """Run node's test runner on ``test_file``, which reads its expected values from the JSON
    file named by the environment ``variable``; assert that every test passed."""
    run = subprocess.run(
        [node(), "--test", "--test-reporter=spec", str(test_file)],
        capture_output=True,
        text=True,
        env={**os.environ, variable: str(data_file)},
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert "fail 0" in run.stdout, run.stdout
