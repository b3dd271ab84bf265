"""Take the screenshots of docs/front-ends.md: the solution viewer's (one per game, one on a
phone) and the play page's (1200 and 400 pixels wide).

    python docs/screenshots/capture.py [--chromium /usr/bin/chromium]

Needs playwright (the test extra) and a Chromium browser (Debian: ``apt-get install chromium``).
Each viewer page is the viewer of the game's deal 1 (its catalogue route), a third of the way
through. The play pages: ``cloverleaf`` deal 1 after five moves of its route with a hint shown,
and ``fifteen`` deal 1 on a phone with a group of cards chosen.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from cloversolve.catalogue.daily import lookup
from cloversolve.catalogue.files import open_catalogue
from cloversolve.games.dealing import deal
from cloversolve.web.play import play_page
from cloversolve.web.viewer import VIEWER_PRESETS, default_route, page

HERE = Path(__file__).resolve().parent
DESKTOP = {"width": 1100, "height": 640}
PHONE = {"width": 390, "height": 800}
PLAY_WIDE = {"width": 1200, "height": 680}
PLAY_NARROW = {"width": 400, "height": 860}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        for preset in VIEWER_PRESETS:
            html = Path(scratch) / f"{preset}.html"
            html.write_text(page(deal(preset, 1), default_route(preset, 1)), encoding="utf-8")
            shots = [("", DESKTOP)] + ([("-phone", PHONE)] if preset == "cloverleaf" else [])
            for suffix, viewport in shots:
                tab = browser.new_page(viewport=viewport)
                tab.goto(html.as_uri())
                steps = int(tab.inner_text("#counter").split()[-1])
                for _ in range(steps // 3):
                    tab.keyboard.press("ArrowRight")
                tab.screenshot(path=str(HERE / f"{preset}{suffix}.png"))
                tab.close()
        play_shot(browser, Path(scratch), "cloverleaf", PLAY_WIDE, "play.png")
        play_shot(browser, Path(scratch), "fifteen", PLAY_NARROW, "play-phone.png")
        browser.close()


def play_shot(
    browser: Any, scratch: Path, preset: str, viewport: dict[str, int], name: str
) -> None:
    """The play page of deal 1 of ``preset``: five route moves and a hint, or (a grid game) a
    group of cards chosen."""
    catalogue = open_catalogue(preset)
    html = scratch / f"play-{preset}.html"
    html.write_text(play_page(preset, catalogue, number=1), encoding="utf-8")
    tab = browser.new_page(viewport=viewport)
    tab.goto(html.as_uri())
    route = lookup(catalogue, 1)["route"]
    if "+" in route[0]:
        for cell in route[0].split("+"):
            tab.click(f"#board [data-place='{cell}']")
    else:
        for move in route[:5]:
            source, target = move.split(">")
            tab.click(f"#board [data-place='{source}']")
            tab.click(
                ".foundation[data-place]" if target == "F" else f"#board [data-place='{target}']"
            )
        tab.keyboard.press("h")
    tab.screenshot(path=str(HERE / name))
    tab.close()


if __name__ == "__main__":
    main()
