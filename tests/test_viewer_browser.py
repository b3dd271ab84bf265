"""The viewer page in a real browser: headless Chromium, driven by playwright.

For every front-end preset the page of a catalogue deal is stepped to its end: the DOM must
show every card home and the verdict "won", with no console error on the way, and it must fit
a phone-sized screen without sideways scrolling. Screenshots go to the test's temporary
directory (``CLOVERSOLVE_SCREENSHOTS`` names a directory to keep them).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from external_tools import launched_chromium, open_page
from helpers import run

from cloversolve.games.dealing import deal
from cloversolve.games.registry import find_preset
from cloversolve.web.viewer import VIEWER_PRESETS, RouteChoice, page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: The deal of each preset's page: the first deal of its catalogue.
DEALS = {"thirteen": 1, "thirteen-return": 1, "fifteen": 1, "cloverleaf": 1, "alexander": 1}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


def write_page(directory: Path, preset: str, *extra: str) -> Path:
    out = directory / f"{preset}.html"
    args = ["view", preset, str(DEALS[preset]), "--out", str(out), *extra]
    result = run(*args)
    assert out.is_file(), result.output
    return out


def shown_cards(page: Any) -> dict[str, int]:
    return page.evaluate(
        """() => ({
            tableau: document.querySelectorAll('.tableau .card:not(.empty)').length,
            home: Number(document.getElementById('home').dataset.home),
            foundations: [...document.querySelectorAll('.foundation:not(.stock)')]
                .reduce((sum, f) => sum + Number(f.dataset.count), 0),
            stock: Number(document.querySelector('.stock')?.dataset.count ?? 0),
        })"""
    )


def screenshot_dir(tmp_path: Path) -> Path:
    kept = os.environ.get("CLOVERSOLVE_SCREENSHOTS")
    directory = Path(kept) if kept else tmp_path
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.mark.parametrize("preset", VIEWER_PRESETS)
def test_stepping_to_the_end_puts_every_card_home(
    browser: Any, preset: str, tmp_path: Path
) -> None:
    page, errors = open_page(browser, write_page(tmp_path, preset), DESKTOP)
    total = 48 if preset == "fifteen" else 52
    start = shown_cards(page)
    assert start["tableau"] + start["home"] == total - start["stock"] * (preset == "fifteen")
    steps = int(page.inner_text("#counter").split()[-1])
    assert steps >= int(page.locator("#moves li.player").count())
    for _ in range(steps):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-status") == "won"
    assert page.inner_text("#verdict").startswith("Won")
    end = shown_cards(page)
    assert end["tableau"] == 0 and end["stock"] == 0
    assert end["home"] == total
    if preset != "fifteen":
        assert end["foundations"] == total
    assert page.locator("#forward").is_disabled()
    page.screenshot(path=str(screenshot_dir(tmp_path) / f"{preset}-end.png"))
    page.keyboard.press("Home")
    assert shown_cards(page) == start
    assert page.get_attribute("body", "data-status") == "playing"
    assert errors == []


@pytest.mark.parametrize("preset", VIEWER_PRESETS)
def test_page_fits_a_phone_screen(browser: Any, preset: str, tmp_path: Path) -> None:
    page, errors = open_page(browser, write_page(tmp_path, preset), PHONE)
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"
    assert page.evaluate("() => window.scrollY") == 0, "stepping scrolled the page"
    page.screenshot(path=str(screenshot_dir(tmp_path) / f"{preset}-phone.png"), full_page=True)
    assert errors == []


def test_buttons_play_and_the_move_list(browser: Any, tmp_path: Path) -> None:
    page, errors = open_page(browser, write_page(tmp_path, "cloverleaf"), DESKTOP)
    assert page.locator("#back").is_disabled()
    page.click("#forward")
    page.click("#forward")
    page.click("#back")
    assert page.inner_text("#counter").startswith("step 1 of")
    assert "automatic" in page.inner_text("#caption")
    assert page.locator("#moves li.auto").count() > 0
    page.click("#play")
    page.wait_for_function(
        "() => document.getElementById('counter').textContent.startsWith('step 3 ')"
    )
    page.click("#play")
    page.locator("#moves li.player").nth(2).click()
    assert page.inner_text("#caption").startswith("move 3 of")
    assert page.locator("#moves li.current").inner_text().startswith("3.")
    page.click("#last")
    assert page.get_attribute("body", "data-status") == "won"
    assert errors == []


def test_an_illegal_route_is_shown_up_to_its_illegal_move(browser: Any, tmp_path: Path) -> None:
    page, errors = open_page(
        browser, write_page(tmp_path, "thirteen", "--route", "4>1 4>F 1>1"), DESKTOP
    )
    page.keyboard.press("End")
    assert page.get_attribute("body", "data-status") == "illegal"
    assert page.inner_text("#verdict") == (
        "Illegal at move 3: 1>1: a card cannot move onto its own pile."
    )
    assert errors == []


def test_the_page_counts_one_move_in_the_singular(browser: Any, tmp_path: Path) -> None:
    page, errors = open_page(browser, write_page(tmp_path, "thirteen", "--route", "4>1"), DESKTOP)
    assert page.inner_text("#summary").startswith("1 move (given)")
    page.keyboard.press("End")
    assert page.inner_text("#verdict") == (
        "Not won: the one move is legal but the game is not finished."
    )
    assert errors == []


def test_the_page_checks_the_module_deals_its_number_alike(browser: Any, tmp_path: Path) -> None:
    other = dataclasses.replace(deal("thirteen", 2), number=1)
    out = tmp_path / "mismatch.html"
    out.write_text(page(other, RouteChoice((), "given")), encoding="utf-8")
    opened, errors = open_page(browser, out, DESKTOP)
    assert errors == ["cloversolve.js deals thirteen 1 differently"]
    assert "WARNING" in opened.inner_text("#summary")


#: For every fanned card but a fan's last (with ``false``: only those laid at the full fan
#: step, as a long fan is squeezed to fit its box and may then cover more): how far its rank
#: or suit reaches under the next card (pixels; none when it is all in sight), and how many
#: cards were measured.
COVERED_INDEX = """(everyCard) => {
    const fan = document.querySelector('.fan .stack');
    const step = parseFloat(getComputedStyle(fan).getPropertyValue('--fan-step'));
    const covered = [];
    let measured = 0;
    for (const stack of document.querySelectorAll('.fan .stack')) {
        const cards = [...stack.querySelectorAll('.card')];
        cards.slice(0, -1).forEach((card, i) => {
            const next = cards[i + 1].getBoundingClientRect().left;
            const squeezed = next - card.getBoundingClientRect().left < step - 0.5;
            if (squeezed && !everyCard) return;
            measured += 1;
            for (const part of card.querySelectorAll('.rank, .suit')) {
                const over = part.getBoundingClientRect().right - next;
                if (over > 0.5) covered.push(`${card.dataset.card} ${part.className} ${over}px`);
            }
        });
    }
    return {covered, measured};
}"""
FAN_PRESETS = [name for name in VIEWER_PRESETS if find_preset(name).rule_family.fans]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("preset", FAN_PRESETS)
def test_a_fanned_card_shows_its_rank_and_suit(
    browser: Any, preset: str, viewport: dict[str, int], tmp_path: Path
) -> None:
    """No card of a fan hides the rank or the suit of the card under it (a 10 included): at
    the deal, and at every step of the route where the fan has room for its full step."""
    page, errors = open_page(browser, write_page(tmp_path, preset), viewport)
    assert page.locator(".fan .card .rank", has_text="10").count() > 0
    steps = int(page.inner_text("#counter").split()[-1])
    fans, cards = page.locator(".fan .stack").count(), page.locator(".fan .card").count()
    found = page.evaluate(COVERED_INDEX, True)  # (at the deal: every card)
    assert found == {"covered": [], "measured": cards - fans}, preset
    for step in range(1, steps + 1):
        page.keyboard.press("ArrowRight")
        covered = page.evaluate(COVERED_INDEX, False)["covered"]
        assert not covered, f"{preset}, step {step}: {covered}"
    assert errors == []
