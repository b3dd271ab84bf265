"""Take the solution viewer's screenshots of docs/front-ends.md (one per game, one on a phone).

    python docs/screenshots/capture.py [--chromium /usr/bin/chromium]

Needs playwright (the test extra) and a Chromium browser (Debian: ``apt-get install chromium``).
Each page is the viewer of the game's deal 1 (its catalogue route), a third of the way through.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from cloversolve.games.dealing import deal
from cloversolve.web.viewer import VIEWER_PRESETS, default_route, page

HERE = Path(__file__).resolve().parent
DESKTOP = {"width": 1100, "height": 640}
PHONE = {"width": 390, "height": 800}


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
        browser.close()


if __name__ == "__main__":
    main()
