"""The play page in a real browser: headless Chromium, driven by playwright.

Catalogue deals are won along their routes by clicks and by the keyboard; an illegal move is
refused with the module's reason; hint, undo, restart, the "assisted" mark, the save that a
reload resumes, the label of an unverified number, a ``fifteen`` group and its hint that never
shows the stock are each checked in the DOM, with no console error on the way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from external_tools import launched_chromium, open_page

from cloversolve.catalogue.daily import daily, lookup
from cloversolve.catalogue.files import open_catalogue
from cloversolve.cli.main import main
from cloversolve.games.dealing import deal
from cloversolve.solving.replay import ReplayStatus, replay
from cloversolve.web.viewer import VIEWER_PRESETS

DESKTOP = {"width": 1200, "height": 800}
PHONE = {"width": 400, "height": 800}
#: A thirteen deal outside the catalogue.
UNLISTED = 5002


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


def write_play(directory: Path, preset: str, *args: str) -> Path:
    out = directory / f"{preset}-{'-'.join(args) or 'daily'}.html"
    result = CliRunner().invoke(main, ["play", preset, *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def open_play(
    browser: Any, path: Path, viewport: dict[str, int] = DESKTOP
) -> tuple[Any, list[str]]:
    return open_page(browser, path, viewport)


def route_of(preset: str, number: int = 1) -> list[str]:
    entry = lookup(open_catalogue(preset), number)
    assert entry is not None
    return list(entry["route"])


def shown(page: Any) -> dict[str, Any]:
    """What the page shows: moves, status, cards home, the message, labels and every place's
    cards."""
    return page.evaluate(
        """() => ({
            moves: Number(document.body.dataset.moves),
            status: document.body.dataset.status,
            home: Number(document.getElementById('home').dataset.home),
            message: document.getElementById('message').textContent,
            messageKind: document.getElementById('message').className,
            solvability: document.getElementById('solvability').textContent,
            assisted: !document.getElementById('assisted').hidden,
            places: Object.fromEntries([...document.querySelectorAll('#board [data-place]')]
                .map((p) => [p.dataset.place,
                    [...p.querySelectorAll('[data-card]')].map((c) => c.dataset.card)])),
            hinted: [...document.querySelectorAll('#board .hinted')].map((p) => p.dataset.place),
            selected: [...document.querySelectorAll('#board .selected')]
                .map((p) => p.dataset.place),
        })"""
    )


def place(name: str) -> str:
    return f"#board [data-place='{name}']"


def click_move(page: Any, move: str) -> None:
    """A move by clicks: a group's cells then Collect, or a card then where it goes (any
    foundation for "F")."""
    if "+" in move:
        for cell in move.split("+"):
            page.click(place(cell))
        page.click("#collect")
        return
    source, target = move.split(">")
    page.click(place(source))
    page.click(".foundation[data-place]" if target == "F" else place(target))


def focus_on(page: Any, name: str) -> None:
    for _ in range(40):
        if page.get_attribute("#board", "data-focus") == name:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the focus never reached {name}")


def key_move(page: Any, move: str) -> None:
    """A move by the keyboard: arrows to each place, Space or Enter, F to collect or to send a
    card home."""
    if "+" in move:
        for cell in move.split("+"):
            focus_on(page, cell)
            page.keyboard.press("Space")
        page.keyboard.press("f")
        return
    source, target = move.split(">")
    focus_on(page, source)
    page.keyboard.press("Enter")
    if target == "F":
        page.keyboard.press("f")
    else:
        focus_on(page, target)
        page.keyboard.press("Enter")


def assert_won(page: Any, preset: str, moves: int) -> None:
    state = shown(page)
    total = 48 if preset == "fifteen" else 52
    assert (state["status"], state["home"], state["moves"]) == ("won", total, moves)
    assert state["message"] == f"Won in {moves} moves!" and state["messageKind"] == "won"


@pytest.mark.parametrize("preset", VIEWER_PRESETS)
def test_a_catalogue_deal_is_won_by_clicks(browser: Any, preset: str, tmp_path: Path) -> None:
    page, errors = open_play(browser, write_play(tmp_path, preset, "1"))
    state = shown(page)
    assert state["solvability"] == "Verified solvable" and not state["assisted"]
    route = route_of(preset)
    for move in route:
        click_move(page, move)
        assert shown(page)["messageKind"] != "illegal", (move, shown(page)["message"])
    assert_won(page, preset, len(route))
    assert not shown(page)["assisted"]
    assert errors == []


@pytest.mark.parametrize("preset", ["thirteen-return", "fifteen", "alexander"])
def test_a_catalogue_deal_is_won_by_the_keyboard(browser: Any, preset: str, tmp_path: Path) -> None:
    page, errors = open_play(browser, write_play(tmp_path, preset, "1"))
    route = route_of(preset)
    for move in route:
        key_move(page, move)
    assert_won(page, preset, len(route))
    assert errors == []


def test_an_illegal_move_is_refused_with_its_reason(browser: Any, tmp_path: Path) -> None:
    illegal = next(
        (f"{a}>{b}", result.reason)
        for a in range(1, 14)
        for b in range(1, 14)
        if a != b and (result := replay("thirteen", 1, [f"{a}>{b}"])).status is ReplayStatus.ILLEGAL
    )
    page, errors = open_play(browser, write_play(tmp_path, "thirteen", "1"))
    before = shown(page)["places"]
    click_move(page, illegal[0])
    state = shown(page)
    assert (state["message"], state["messageKind"]) == (illegal[1], "illegal")
    assert state["places"] == before and state["moves"] == 0 and state["selected"] == []
    key_move(page, illegal[0])  # the keyboard is refused alike
    assert shown(page)["message"] == illegal[1] and shown(page)["places"] == before
    assert errors == []


def test_hint_undo_and_restart(browser: Any, tmp_path: Path) -> None:
    route = route_of("cloverleaf")
    page, errors = open_play(browser, write_play(tmp_path, "cloverleaf", "1"))
    start = shown(page)["places"]
    for move in route[:2]:
        click_move(page, move)
    page.click("#hint")
    state = shown(page)
    assert state["message"].startswith("Hint: ") and "the deal can still be won" in state["message"]
    source = route[2].split(">")[0]
    assert source in state["hinted"] and len(state["hinted"]) == 2
    assert state["assisted"]
    after_two = state["places"]
    key_move(page, route[2])  # (the keys play on the board after a click on a button)
    assert shown(page)["moves"] == 3 and shown(page)["hinted"] == []
    page.click("#undo")
    assert (shown(page)["moves"], shown(page)["places"]) == (2, after_two)
    page.keyboard.press("z")
    assert shown(page)["moves"] == 1
    page.keyboard.press("p")
    assert (shown(page)["moves"], shown(page)["places"]) == (0, start)
    click_move(page, route[0])
    page.click("#restart")
    assert (shown(page)["moves"], shown(page)["places"]) == (0, start)
    assert page.locator("#undo").is_disabled()
    assert errors == []


def test_the_assisted_mark_comes_with_a_hint_or_an_undo_and_stays(
    browser: Any, tmp_path: Path
) -> None:
    route = route_of("thirteen")
    path = write_play(tmp_path, "thirteen", "1")
    page, errors = open_play(browser, path)
    click_move(page, route[0])
    page.keyboard.press("Escape")
    assert not shown(page)["assisted"]
    page.keyboard.press("z")
    assert shown(page)["assisted"] and page.is_visible("#assisted")
    page.keyboard.press("p")
    page.reload()
    assert shown(page)["assisted"]
    fresh, more_errors = open_play(browser, path)  # (a new browser context: no save)
    assert not shown(fresh)["assisted"]
    fresh.keyboard.press("h")
    assert shown(fresh)["assisted"]
    assert errors == more_errors == []


def test_a_reload_resumes_the_game(browser: Any, tmp_path: Path) -> None:
    route = route_of("thirteen-return")
    page, errors = open_play(browser, write_play(tmp_path, "thirteen-return", "1"))
    for move in route[:3]:
        click_move(page, move)
    before = shown(page)["places"]
    page.reload()
    page.wait_for_selector("body:not([data-status='loading'])")
    state = shown(page)
    assert (state["moves"], state["places"]) == (3, before)
    assert state["message"] == "Resumed: 3 moves played."
    for move in route[3:]:
        click_move(page, move)
    assert_won(page, "thirteen-return", len(route))
    assert errors == []


@pytest.mark.parametrize(
    ("stored", "moves"),
    [
        ('{"moves":[{"src":4,"dst":1}],"assisted":false}', 1),  # move objects: read as text
        ('{"moves":[{"src":"x"}],"assisted":true}', 0),  # not a route: afresh
        ('{"moves":["4>1","4>4"]}', 0),  # an illegal move: afresh
        ("not JSON", 0),
    ],
)
def test_a_stored_save_the_page_did_not_write_never_breaks_it(
    browser: Any, tmp_path: Path, stored: str, moves: int
) -> None:
    path = write_play(tmp_path, "thirteen", "1")
    page, errors = open_play(browser, path)
    page.evaluate("(text) => localStorage.setItem('cloversolve-play:thirteen:1', text)", stored)
    page.reload()
    page.wait_for_selector("body:not([data-status='loading'])")
    state = shown(page)
    assert state["moves"] == moves and state["home"] == 0 and state["places"], state
    assert not errors
    page.close()


@pytest.mark.parametrize("number", [UNLISTED, 10**20 - 1])
def test_an_unverified_number_is_labelled_and_its_hint_promises_nothing(
    browser: Any, number: int, tmp_path: Path
) -> None:
    assert lookup(open_catalogue("thirteen"), number) is None
    page, errors = open_play(browser, write_play(tmp_path, "thirteen", str(number)))
    assert shown(page)["solvability"] == "Solvability not checked"
    assert page.inner_text("#title") == f"thirteen \u00b7 deal {number}"
    assert shown(page)["places"]["1"] == [str(card) for card in deal("thirteen", number).piles[0]]
    page.keyboard.press("h")
    assert "not a promise of a win" in shown(page)["message"]
    assert errors == []


def test_a_fifteen_group_is_collected_and_a_bad_one_refused(browser: Any, tmp_path: Path) -> None:
    layout = deal("fifteen", 1)
    first = route_of("fifteen")[0]
    cells = first.split("+")
    page, errors = open_play(browser, write_play(tmp_path, "fifteen", "1"))
    for cell in cells:
        page.click(place(cell))
    assert shown(page)["selected"] == cells
    page.click("#collect")
    state = shown(page)
    assert (state["moves"], state["home"], state["selected"]) == (1, len(cells), [])
    refills = [str(card) for card in layout.stock[: len(cells)]]
    assert [state["places"][cell][0] for cell in cells] == refills
    bad = next(
        f"{a}+{b}"
        for a in range(1, 16)
        for b in range(a + 1, 17)
        if replay("fifteen", 1, [first, f"{a}+{b}"]).status is ReplayStatus.ILLEGAL
    )
    click_move(page, bad)
    reason = replay("fifteen", 1, [first, bad]).reason
    assert (shown(page)["message"], shown(page)["moves"]) == (reason, 1)
    assert errors == []


@pytest.mark.parametrize("number", ["1", "7"])
def test_the_fifteen_hint_never_shows_the_stock(browser: Any, number: str, tmp_path: Path) -> None:
    """On a catalogue deal (a route hint) and on another (the visible hint)."""
    stock = [str(card) for card in deal("fifteen", int(number)).stock]
    page, errors = open_play(browser, write_play(tmp_path, "fifteen", number))
    page.keyboard.press("h")
    state = shown(page)
    assert state["message"].startswith("Hint: remove ") and len(state["hinted"]) >= 2
    text = page.inner_text("body")
    symbols = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
    for card in stock:
        assert (card[0].replace("T", "10") + symbols[card[1]]) not in text
    assert not set(stock) & {c for cards in state["places"].values() for c in cards}
    assert errors == []


def test_the_daily_deal_is_the_catalogue_s(browser: Any, tmp_path: Path) -> None:
    catalogue = open_catalogue("cloverleaf")
    dated = write_play(tmp_path, "cloverleaf", "--date", "2025-01-01", "--difficulty", "easy")
    page, errors = open_play(browser, dated)
    number = daily(catalogue, "2025-01-01", "easy")["number"]
    assert page.inner_text("#title") == f"cloverleaf \u00b7 deal {number}"
    assert page.inner_text("#summary") == "the daily easy deal of 2025-01-01"
    today = open_play(browser, write_play(tmp_path, "cloverleaf"))[0]
    expected = daily(catalogue, dt.date.today(), "normal")["number"]
    assert today.inner_text("#title") == f"cloverleaf \u00b7 deal {expected}"
    assert shown(today)["solvability"] == "Verified solvable"
    assert errors == []


@pytest.mark.parametrize("preset", VIEWER_PRESETS)
def test_the_page_fits_a_phone_screen(browser: Any, preset: str, tmp_path: Path) -> None:
    page, errors = open_play(browser, write_play(tmp_path, preset, "1"), PHONE)
    click_move(page, route_of(preset)[0])
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"
    assert errors == []
