"""End to end: the web game in a real (headless) Chromium, driven by Playwright.

A person sets up, starts, plays by clicking, sees the bot answer, reloads and goes on,
finishes a game (a puzzle: the bot's Flag stands in front of the player's Scout) and
downloads the record; two people play through a join link, each browser seeing only its
own pieces' ranks. No test may log a console error (the favicon is served).

Chromium is the system one (``/usr/lib/chromium/chromium``; `.ci/run` installs it), never a
Playwright download. The server runs in a thread on a free port of 127.0.0.1.
"""

from __future__ import annotations

import os
import pathlib
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

import stratego  # noqa: E402
from stratego import Player, Rank, Setup  # noqa: E402
from stratego.web import GameHub, create_app  # noqa: E402

CHROMIUM = "/usr/lib/chromium/chromium"
ROOT = pathlib.Path(__file__).resolve().parents[1]
SCREENSHOT = ROOT / "docs" / "assets" / "web-game.png"
expect = sync_api.expect
WAIT = 10_000  # ms: the longest any expectation waits

if not pathlib.Path(CHROMIUM).exists():  # pragma: no cover - CI installs it
    pytest.skip(f"no system Chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class _Server:
    """A uvicorn server for one hub, in a daemon thread."""

    def __init__(self, hub: GameHub) -> None:
        self.hub = hub
        port = _free_port()
        config = uvicorn.Config(create_app(hub), host="127.0.0.1", port=port,
                                log_level="warning", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert self.thread.is_alive(), "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def _swap(setup: Setup, a: str, b: str) -> Setup:
    where = setup.as_dict()
    sa, sb = stratego.Square.parse(a), stratego.Square.parse(b)
    ra, rb = where.pop(sa, None), where.pop(sb, None)
    if ra is not None:
        where[sb] = ra
    if rb is not None:
        where[sa] = rb
    return Setup.from_mapping(setup.player, where)


def _with_rank_at(setup: Setup, rank: Rank, square: str) -> Setup:
    """`setup` with a piece of `rank` moved to `square` (by swapping)."""
    frm = next(sq for sq, rk in setup.placement if rk is rank)
    return _swap(setup, frm.name, square)


RULES = stratego.CLASSIC
PUZZLE_BLUE = _with_rank_at(stratego.random_setup(RULES, Player.BLUE, 5), Rank.FLAG, "a7")
PUZZLE_RED = _with_rank_at(stratego.random_setup(RULES, Player.RED, 6), Rank.SCOUT, "a4")


@pytest.fixture(scope="module")
def server() -> Iterator[_Server]:
    srv = _Server(GameHub(rules="classic", seed=3))
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def puzzle_server() -> Iterator[_Server]:
    srv = _Server(GameHub(rules="classic", seed=4, bot_setup=PUZZLE_BLUE.text()))
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


class _Console:
    """Every console error and uncaught page error of the pages it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any) -> Any:
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.set_default_timeout(WAIT)
        return page


@pytest.fixture
def console() -> Iterator[_Console]:
    watcher = _Console()
    yield watcher
    assert watcher.errors == [], f"console errors: {watcher.errors}"


def _new_page(browser: Any, console: _Console) -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 760},
                                  accept_downloads=True)
    return console.watch(context.new_page())


def _moves(page: Any) -> Any:
    return page.get_by_test_id("moves").locator("li")


def _status(page: Any) -> Any:
    return page.get_by_test_id("status")


def _play_a_move(page: Any) -> None:
    """Click one of our pieces that can move, then its first highlighted target."""
    movable = page.locator(".cell.clickable:has(.piece)")
    expect(movable.first).to_be_visible()
    movable.first.click()
    target = page.locator('[data-legal="true"]')
    expect(target.first).to_be_visible()
    target.first.click()


def test_play_against_the_bot(server: _Server, browser: Any, console: _Console,
                              tmp_path: pathlib.Path) -> None:
    page = _new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    expect(_status(page)).to_contain_text("Set up your army")
    expect(page.locator('.piece[data-owner="red"]')).to_have_count(40)
    expect(page.locator('.piece[data-owner="blue"]')).to_have_count(0)  # no army shown yet

    # Swap two pieces by clicking them.
    a1 = page.locator('[data-square="a1"] .piece')
    b2 = page.locator('[data-square="b2"] .piece')
    rank_a1, rank_b2 = a1.get_attribute("data-rank"), b2.get_attribute("data-rank")
    page.locator('[data-square="a1"]').click()
    page.locator('[data-square="b2"]').click()
    expect(a1).to_have_attribute("data-rank", rank_b2 or "")
    expect(b2).to_have_attribute("data-rank", rank_a1 or "")

    page.get_by_test_id("start").click()
    expect(_status(page)).to_have_text("Your move (red).")
    expect(page.locator('.piece[data-owner="blue"]')).to_have_count(40)
    # The bot's ranks are unknown: no blue piece carries a rank.
    expect(page.locator('.piece[data-owner="blue"][data-rank]')).to_have_count(0)

    for turn in range(1, 4):
        _play_a_move(page)
        expect(_moves(page)).to_have_count(2 * turn)  # our move and the bot's answer
        expect(_moves(page).nth(2 * turn - 1)).to_contain_text("blue:")
        expect(_status(page)).to_have_text("Your move (red).")
        expect(page.locator(".cell.last")).not_to_have_count(0)  # the bot's move is marked

    before = _moves(page).all_inner_texts()
    page.reload()
    expect(_moves(page)).to_have_count(6)
    assert _moves(page).all_inner_texts() == before
    _play_a_move(page)
    expect(_moves(page)).to_have_count(8)

    page.mouse.move(1, 1)  # no hover mark in the picture
    page.screenshot(path=str(tmp_path / "web-game.png"))
    if os.environ.get("STRATEGO_UPDATE_SCREENSHOT"):  # docs/assets/web-game.png
        page.screenshot(path=str(SCREENSHOT))


def test_finish_a_game_and_download_the_record(puzzle_server: _Server, browser: Any,
                                               console: _Console) -> None:
    page = _new_page(browser, console)
    page.goto(puzzle_server.url + "/")
    page.get_by_test_id("create").click()
    expect(_status(page)).to_contain_text("Set up your army")
    page.get_by_text("Paste or load a setup").click()
    page.get_by_test_id("setup-text").fill(PUZZLE_RED.text())
    page.get_by_test_id("use-setup").click()
    expect(page.locator('[data-square="a4"] .piece')).to_have_attribute("data-rank", "X")
    page.get_by_test_id("start").click()
    expect(_status(page)).to_have_text("Your move (red).")

    page.locator('[data-square="a4"]').click()
    expect(page.locator('[data-square="a7"]')).to_have_attribute("data-legal", "true")
    page.locator('[data-square="a7"]').click()
    expect(_status(page)).to_have_text("Game over: you win (flag captured).")
    expect(page.get_by_test_id("strikes")).to_contain_text("Scout (2) strikes Flag (F)")
    expect(page.locator('[data-square="a7"] .piece')).to_have_attribute("data-owner", "red")
    expect(page.get_by_test_id("captured-blue")).to_have_text("F")

    with page.expect_download() as info:
        page.get_by_test_id("download").click()
    record = pathlib.Path(info.value.path()).read_text(encoding="utf-8")
    assert "1-0" in record
    assert PUZZLE_BLUE.text() in record

    page.get_by_test_id("new-game").click()
    expect(_status(page)).to_contain_text("Set up your army")


def test_two_people_by_join_link(server: _Server, browser: Any, console: _Console) -> None:
    red = _new_page(browser, console)
    red.goto(server.url + "/")
    red.get_by_label("a friend").check()
    red.get_by_test_id("create").click()
    expect(_status(red)).to_contain_text("Set up your army")
    link = red.get_by_test_id("join-link")
    expect(link).to_have_value(re.compile(r"/join/"))
    red.get_by_test_id("start").click()
    expect(_status(red)).to_contain_text("Waiting for blue to join")

    blue = _new_page(browser, console)  # a second browser context: another person
    blue.goto(link.input_value())
    blue.get_by_test_id("join").click()
    expect(_status(blue)).to_contain_text("Set up your army")
    expect(blue.locator('.piece[data-owner="red"]')).to_have_count(0)
    expect(_status(red)).to_contain_text("Waiting for blue to finish the setup")
    blue.get_by_test_id("start").click()

    expect(_status(red)).to_have_text("Your move (red).")
    expect(_status(blue)).to_have_text("Waiting for red to move.")
    # Each browser knows its own ranks only.
    expect(blue.locator('.piece[data-owner="red"][data-rank]')).to_have_count(0)
    expect(red.locator('.piece[data-owner="blue"][data-rank]')).to_have_count(0)
    expect(blue.locator('.piece[data-owner="blue"][data-rank]')).to_have_count(40)

    _play_a_move(red)
    expect(_moves(blue)).to_have_count(1)  # blue's page polls and sees red's move
    expect(_status(blue)).to_have_text("Your move (blue).")
    _play_a_move(blue)
    expect(_moves(red)).to_have_count(2)
    expect(_status(red)).to_have_text("Your move (red).")
    red.reload()
    expect(_moves(red)).to_have_count(2)


def test_a_rescue_decision_by_clicking(server: _Server, browser: Any, console: _Console) -> None:
    """Hasbro 2009 Rescue: reaching the opponent's back row earns a Rescue; the page offers
    each captured piece that may come back, and declining."""
    rules = stratego.HASBRO_2009.with_variants(stratego.variants.RESCUE)
    state = stratego.from_position(
        rules, {"a9": "K", "j1": "F", "e10": "m", "j10": "f", "f10": "b"},
        captured=[(Player.RED, Rank.MINER)])
    created = server.hub.add_game(state)
    page = _new_page(browser, console)
    page.goto(server.url + created["url"])
    expect(_status(page)).to_have_text("Your move (red).")
    page.locator('[data-square="a9"]').click()
    page.locator('[data-square="a10"]').click()
    expect(page.get_by_test_id("rescue")).to_be_visible()
    page.locator('[data-move="N@b2"]').click()
    expect(page.get_by_test_id("rescue")).to_be_hidden()
    expect(page.locator('[data-square="b2"] .piece')).to_have_attribute("data-rank", "N")
    expect(_moves(page)).to_have_count(3)  # the move, the Rescue and the bot's answer
