"""End to end: the web game in a real (headless) Chromium, driven by Playwright.

A person sets up, starts, plays by clicking, sees the bot answer, reloads and goes on,
finishes a game (a puzzle: the bot's Flag stands in front of the player's Scout) and
downloads the record; two people play through a join link, each browser seeing only its
own pieces' ranks. No test may log a console error (the favicon is served).

The Chromium, the server in a thread and the console's watch are `browser_support`'s.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

import browser_support
import stratego
from browser_support import (
    Console,
    Server,
    expect,
    free_port,
    moves_of,
    new_page,
    page_at,
    play_a_move,
    serve,
    status_of,
    two_pages,
)
from stratego import Player, Rank, Setup
from stratego.web import GameHub

pytestmark = pytest.mark.extra("web")

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCREENSHOT = ROOT / "docs" / "assets" / "web-game.png"

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console


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


server = browser_support.hub_server(seed=3)


@pytest.fixture(scope="module")
def puzzle_server() -> Iterator[Server]:
    with serve(GameHub(rules="classic", seed=4, bot_setup=PUZZLE_BLUE.text())) as srv:
        yield srv


def test_play_against_the_bot(server: Server, browser: Any, console: Console,
                              tmp_path: pathlib.Path) -> None:
    page = new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")
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
    expect(status_of(page)).to_have_text("Your move (red).")
    expect(page.locator('.piece[data-owner="blue"]')).to_have_count(40)
    # The bot's ranks are unknown: no blue piece carries a rank.
    expect(page.locator('.piece[data-owner="blue"][data-rank]')).to_have_count(0)

    for turn in range(1, 4):
        play_a_move(page)
        expect(moves_of(page)).to_have_count(2 * turn)  # our move and the bot's answer
        expect(moves_of(page).nth(2 * turn - 1)).to_have_attribute("data-player", "blue")
        expect(page.get_by_test_id("moves").locator("li")).to_have_count(turn)
        expect(status_of(page)).to_have_text("Your move (red).")
        expect(page.locator(".cell.last")).not_to_have_count(0)  # the bot's move is marked

    before = moves_of(page).all_inner_texts()
    page.reload()
    expect(moves_of(page)).to_have_count(6)
    assert moves_of(page).all_inner_texts() == before
    play_a_move(page)
    expect(moves_of(page)).to_have_count(8)

    page.mouse.move(1, 1)  # no hover mark in the picture
    page.screenshot(path=str(tmp_path / "web-game.png"))
    if os.environ.get("STRATEGO_UPDATE_SCREENSHOT"):  # docs/assets/web-game.png
        page.screenshot(path=str(SCREENSHOT), full_page=True)


def test_finish_a_game_and_download_the_record(puzzle_server: Server, browser: Any,
                                               console: Console) -> None:
    page = new_page(browser, console)
    page.goto(puzzle_server.url + "/")
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    page.get_by_text("Paste or load a setup").click()
    page.get_by_test_id("setup-text").fill(PUZZLE_RED.text())
    page.get_by_test_id("use-setup").click()
    expect(page.locator('[data-square="a4"] .piece')).to_have_attribute("data-rank", "X")
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")

    page.locator('[data-square="a4"]').click()
    expect(page.locator('[data-square="a7"]')).to_have_attribute("data-legal", "true")
    page.locator('[data-square="a7"]').click()
    expect(status_of(page)).to_have_text("Game over.")
    expect(page.get_by_test_id("strikes")).to_contain_text("Scout (2) strikes Flag (F)")
    expect(page.locator('[data-square="a7"] .piece')).to_have_attribute("data-owner", "red")
    expect(page.get_by_test_id("tray-blue").locator(".chip")).to_have_count(1)
    expect(page.get_by_test_id("tray-blue").locator('.chip[data-rank="F"]')).to_be_visible()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    expect(page.get_by_test_id("result")).to_have_text("You win")
    expect(page.get_by_test_id("reason")).to_have_text(  # the how, said once: here
        "The red Scout (2) on a4 captured the blue Flag on a7.")

    with page.expect_download() as info:
        page.get_by_test_id("download").click()
    record = pathlib.Path(info.value.path()).read_text(encoding="utf-8")
    assert "1-0" in record
    assert PUZZLE_BLUE.text() in record

    # The game is over: "New game" goes straight to the start page, no question asked.
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("create")).to_be_visible()


def test_two_people_by_join_link(server: Server, browser: Any, console: Console) -> None:
    red = new_page(browser, console)
    red.goto(server.url + "/")
    red.get_by_label("a friend").check()
    red.get_by_test_id("create").click()
    expect(status_of(red)).to_contain_text("Set up your army")
    link = red.get_by_test_id("join-link")
    expect(link).to_have_value(re.compile(r"/join/"))
    red.get_by_test_id("start").click()
    expect(status_of(red)).to_contain_text("Waiting for blue to join")

    blue = new_page(browser, console)  # a second browser context: another person
    blue.goto(link.input_value())
    blue.get_by_test_id("join").click()
    expect(status_of(blue)).to_contain_text("Set up your army")
    expect(blue.locator('.piece[data-owner="red"]')).to_have_count(0)
    expect(status_of(red)).to_contain_text("Waiting for blue to finish the setup")
    blue.get_by_test_id("start").click()

    expect(status_of(red)).to_have_text("Your move (red).")
    expect(status_of(blue)).to_have_text("Waiting for red to move.")
    # Each browser knows its own ranks only.
    expect(blue.locator('.piece[data-owner="red"][data-rank]')).to_have_count(0)
    expect(red.locator('.piece[data-owner="blue"][data-rank]')).to_have_count(0)
    expect(blue.locator('.piece[data-owner="blue"][data-rank]')).to_have_count(40)

    play_a_move(red)
    expect(moves_of(blue)).to_have_count(1)  # blue's page polls and sees red's move
    expect(status_of(blue)).to_have_text("Your move (blue).")
    play_a_move(blue)
    expect(moves_of(red)).to_have_count(2)
    expect(status_of(red)).to_have_text("Your move (red).")
    red.reload()
    expect(moves_of(red)).to_have_count(2)


def test_a_rescue_decision_by_clicking(server: Server, browser: Any, console: Console) -> None:
    """Hasbro 2009 Rescue: reaching the opponent's back row earns a Rescue. The page offers
    each captured rank that may come back as a button, and declining; choosing a rank
    marks the empty squares of the player's rows on the board, and a click there places
    it (not a button for every rank and square: 79 of them here)."""
    rules = stratego.HASBRO_2009.with_variants(stratego.variants.RESCUE)
    state = stratego.from_position(
        rules, {"a9": "K", "j1": "F", "e10": "m", "j10": "f", "f10": "b"},
        captured=[(Player.RED, Rank.MINER), (Player.RED, Rank.GENERAL)])
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a9"]').click()
    page.locator('[data-square="a10"]').click()
    box = page.get_by_test_id("rescue")
    expect(box).to_be_visible()
    expect(box.locator("button")).to_have_count(3)  # the General, the Miner, declining
    expect(page.get_by_test_id("rescue-help")).to_contain_text("Choose the piece")
    expect(page.locator("[data-legal]")).to_have_count(0)
    page.locator('[data-square="b2"]').click()  # no rank chosen: nothing happens
    expect(box).to_be_visible()
    page.locator('[data-rescue-rank="N"]').click()
    expect(page.locator('[data-rescue-rank="N"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-legal]")).to_have_count(39)  # rows 1-4, j1 taken by the Flag
    expect(page.locator('[data-square="a5"][data-legal]')).to_have_count(0)
    page.locator('[data-square="b2"]').click()
    expect(page.get_by_test_id("rescue")).to_be_hidden()
    expect(page.locator('[data-square="b2"] .piece')).to_have_attribute("data-rank", "N")
    expect(moves_of(page)).to_have_count(3)  # the move, the Rescue and the bot's answer


# -- a server that keeps its games, killed and restarted ------------------------------------


class _Process:
    """``stratego serve`` in a subprocess, as a person starts it, on a database file."""

    def __init__(self, port: int, db: pathlib.Path) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "stratego", "serve", "--port", str(port), "--seed", "3",
             "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env=env)
        assert self.proc.stdout is not None
        self.lines = [self.proc.stdout.readline(), self.proc.stdout.readline()]
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:  # uvicorn prints nothing when it listens: ask until it answers
            try:
                with urllib.request.urlopen(self.url + "/favicon.svg", timeout=2):
                    break
            except OSError:
                assert self.proc.poll() is None, "the server stopped"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)

    def kill(self) -> None:
        self.proc.kill()  # SIGKILL: no shutdown, no last write
        self.proc.wait(timeout=10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()


def test_a_game_survives_kill_9_and_a_restart(browser: Any, console: Console,
                                              tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    server = _Process(port, db)
    try:
        assert server.lines[1].startswith(f"Games are kept in {db} (0 resumed)")
        page = new_page(browser, console)
        page.goto(server.url + "/")
        page.get_by_test_id("create").click()
        page.get_by_test_id("start").click()
        expect(status_of(page)).to_have_text("Your move (red).")
        for turn in (1, 2):
            play_a_move(page)
            expect(moves_of(page)).to_have_count(2 * turn)
        before = moves_of(page).all_inner_texts()
        address = page.url
    finally:
        server.kill()
    # The page notices, says so, and keeps trying.
    expect(page.get_by_test_id("connection")).to_be_visible()
    server = _Process(port, db)
    try:
        assert server.lines[1].startswith(f"Games are kept in {db} (1 resumed)")
        expect(page.get_by_test_id("connection")).to_be_hidden()
        assert page.url == address
        assert moves_of(page).all_inner_texts() == before  # the same ply
        expect(status_of(page)).to_have_text("Your move (red).")
        play_a_move(page)  # the same seat plays on
        expect(moves_of(page)).to_have_count(6)
        page.reload()
        expect(moves_of(page)).to_have_count(6)
    finally:
        server.kill()
    console.errors = [e for e in console.errors if "Failed to load resource" not in e
                      and "ERR_CONNECTION_REFUSED" not in e]  # the polls while it was down


# -- the controls ---------------------------------------------------------------------------


def test_resign_reveals_the_army_and_a_rematch_swaps_colours(
        server: Server, browser: Any, console: Console) -> None:
    page = new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    expect(page.locator('.piece[data-owner="blue"][data-rank]')).to_have_count(0)
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-resign").click()
    panel = page.get_by_test_id("game-over")
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("result")).to_have_text("You lose")
    expect(page.get_by_test_id("reason")).to_have_text("You resigned.")
    expect(status_of(page)).to_have_text("Game over.")  # the panel says who and how, once
    # The whole opponent army, face up.
    expect(page.locator('.piece[data-owner="blue"][data-rank][data-revealed="true"]')
           ).to_have_count(40)
    expect(page.get_by_test_id("resign")).to_be_hidden()
    expect(page.get_by_test_id("download")).to_be_visible()

    page.get_by_test_id("rematch").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    expect(page.locator("#rules")).to_contain_text("you play blue")
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (blue).")
    expect(moves_of(page)).to_have_count(1)  # the bot, now Red, moved first
    expect(page.locator('.piece[data-owner="red"][data-rank]')).to_have_count(0)


def test_a_draw_offered_and_accepted_then_a_rematch_betweentwo_pages(
        server: Server, browser: Any, console: Console) -> None:
    red, blue = two_pages(server, browser, console)
    play_a_move(red)
    expect(moves_of(blue)).to_have_count(1)
    blue.get_by_test_id("offer-draw").click()
    expect(blue.get_by_test_id("draw-sent")).to_be_visible()
    expect(red.get_by_test_id("accept-draw")).to_be_visible()  # red's page polls
    red.get_by_test_id("accept-draw").click()
    for page in (red, blue):
        expect(page.get_by_test_id("game-over")).to_be_visible()
        expect(page.get_by_test_id("result")).to_have_text("A draw")
        expect(page.get_by_test_id("reason")).to_have_text("A draw was agreed.")
        expect(page.locator(".piece[data-revealed]")).to_have_count(40)
    red.get_by_test_id("rematch").click()
    expect(red.locator("#rules")).to_contain_text("you play blue")
    expect(blue.get_by_test_id("rematch")).to_have_text("Play the rematch")
    blue.get_by_test_id("rematch").click()
    expect(blue.locator("#rules")).to_contain_text("you play red")
    blue.get_by_test_id("start").click()
    red.get_by_test_id("start").click()
    expect(status_of(blue)).to_have_text("Your move (red).")


def _tab_to(page: Any, target: Any, presses: int = 30) -> None:
    """Press Tab until `target` has the focus (at most `presses` times)."""
    for _ in range(presses):
        if target.evaluate_all("(els) => els.includes(document.activeElement)"):
            return
        page.keyboard.press("Tab")
    expect(target).to_be_focused()


def _go(page: Any, frm: str, to: str) -> None:
    """Move the keyboard focus from square `frm` to `to` with the arrow keys (Red's side
    of the board: up is towards row 10)."""
    files = "abcdefghij"
    across = files.index(to[0]) - files.index(frm[0])
    up = int(to[1:]) - int(frm[1:])
    for _ in range(abs(across)):
        page.keyboard.press("ArrowRight" if across > 0 else "ArrowLeft")
    for _ in range(abs(up)):
        page.keyboard.press("ArrowUp" if up > 0 else "ArrowDown")
    expect(page.locator(f'[data-square="{to}"]')).to_be_focused()


def test_a_keyboard_only_game_of_ten_moves(server: Server, browser: Any,
                                           console: Console) -> None:
    page = new_page(browser, console)
    page.goto(server.url + "/")
    expect(page.get_by_test_id("choose-bot").locator("option")).not_to_have_count(0)
    _tab_to(page, page.get_by_test_id("create"))  # through the choices of the form
    page.keyboard.press("Enter")  # Play
    expect(status_of(page)).to_contain_text("Set up your army")
    focused = page.locator('[role="gridcell"]:focus')
    _tab_to(page, focused)  # into the board: one stop for the whole grid
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("start")).to_be_focused()
    page.keyboard.press("Enter")
    expect(status_of(page)).to_have_text("Your move (red).")
    expect(focused).to_have_count(1)  # Start hides: the focus goes back to the board
    here = focused.get_attribute("data-square")
    assert here is not None
    grid = page.get_by_test_id("grid")
    assert grid.get_attribute("role") == "grid"
    for turn in range(1, 11):
        frm = page.locator(".cell.clickable:has(.piece)").first.get_attribute("data-square")
        assert frm is not None
        _go(page, here, frm)
        label = focused.get_attribute("aria-label") or ""
        known = "(, known to the opponent)?"  # (a Scout's long move showed it)
        assert re.fullmatch(rf"Red [A-Z][a-z]+ \(\w+\) on {frm}{known}, can move", label), label
        page.keyboard.press("Enter")
        target = page.locator('[data-legal="true"]').first
        expect(target).to_be_visible()
        to = target.get_attribute("data-square")
        assert to is not None
        _go(page, frm, to)
        assert "a legal target" in (focused.get_attribute("aria-label") or "")
        page.keyboard.press(" ")
        expect(moves_of(page)).to_have_count(2 * turn)
        expect(status_of(page)).to_have_text("Your move (red).")
        here = to
    hidden = page.locator('[aria-label^="Blue piece on"]')
    expect(hidden.first).to_be_visible()
    assert re.fullmatch(r"Blue piece on [a-j]\d+, rank unknown(, has moved)?",
                        hidden.first.get_attribute("aria-label") or "")


def test_review_mode_shows_a_past_position_and_goes_back(
        server: Server, browser: Any, console: Console) -> None:
    page = new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    page.get_by_test_id("start").click()
    for turn in (1, 2):
        play_a_move(page)
        expect(moves_of(page)).to_have_count(2 * turn)
    page.locator('[data-ply="1"]').click()
    expect(page.get_by_test_id("review")).to_be_visible()
    expect(page.get_by_test_id("review")).to_contain_text("after move 1 of 2, red")
    expect(page.locator(".cell.clickable")).to_have_count(0)  # nothing to play while reviewing
    page.get_by_test_id("live").click()
    expect(page.get_by_test_id("review")).to_be_hidden()
    expect(page.locator(".cell.clickable")).not_to_have_count(0)
    page.keyboard.press("Home")  # the starting position, from the keyboard
    expect(page.get_by_test_id("review")).to_be_visible()
    expect(page.locator("#review-where")).to_have_text("Starting position")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("review")).to_contain_text("after move 1 of 2, red")
    page.keyboard.press("End")  # back to the game
    expect(page.get_by_test_id("review")).to_be_hidden()
    expect(page.locator("#review-where")).to_have_text("Live · 2 moves")


# -- what protects the server ---------------------------------------------------------------


EVIL = "http://evil.test"


def test_the_headers_and_a_cross_site_form_post_refused(
        server: Server, browser: Any, console: Console) -> None:
    context = browser.new_context()
    page = console.watch(context.new_page())
    response = page.goto(server.url + "/")
    headers = response.headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"

    seen: list[dict[str, str]] = []
    form = (f'<form id="f" method="post" action="{server.url}/api/games" enctype="text/plain">'
            '<input name=\'{"opponent": "bot", "x": "\' value=\'"}\'>'
            '<button id="go">go</button></form>')

    def evil(route: Any) -> None:
        seen.append(route.request.headers)
        route.fulfill(status=200, content_type="text/html", body=form)

    context.route(EVIL + "/**", evil)
    before = server.hub.live_games
    page.goto(EVIL + "/")
    with page.expect_navigation() as navigation:
        page.locator("#go").click()
    assert navigation.value.status in (403, 415)
    assert server.hub.live_games == before
    # A script on the other site cannot post JSON either: the preflight is never granted.
    page.goto(EVIL + "/")
    result = page.evaluate(
        """async (url) => {
             try {
               const r = await fetch(url, {method: "POST", body: "{}",
                                           headers: {"Content-Type": "application/json"}});
               return r.status;
             } catch (err) { return "blocked"; }
           }""", server.url + "/api/games")
    assert result == "blocked"
    assert server.hub.live_games == before

    # A seat token never leaves in a Referer header.
    created = server.hub.create({})
    page.goto(server.url + created["url"])
    expect(status_of(page)).to_contain_text("Set up your army")
    page.evaluate("""(url) => { const a = document.createElement("a"); a.href = url;
                                a.id = "out"; a.textContent = "out";
                                document.body.appendChild(a); }""", EVIL + "/next")
    page.locator("#out").click()
    expect(page.locator("#go")).to_be_visible()
    assert "referer" not in seen[-1]
    console.errors = [e for e in console.errors if "Failed to load resource" not in e
                      and "Failed to fetch" not in e and "CORS" not in e]
    context.close()


@pytest.fixture
def limited_server() -> Iterator[Server]:
    with serve(GameHub(rules="classic", seed=5, max_games=6, create_limit=4,
                       create_window=3)) as srv:
        yield srv


def test_a_creation_flood_leaves_an_active_game_playable(
        limited_server: Server, browser: Any, console: Console) -> None:
    page = new_page(browser, console)
    page.goto(limited_server.url + "/")
    page.get_by_test_id("create").click()
    page.get_by_test_id("start").click()
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    statuses = page.evaluate(
        """async () => {
             const out = [];
             for (let k = 0; k < 40; k++) {
               const r = await fetch("/api/games", {method: "POST", body: "{}",
                                     headers: {"Content-Type": "application/json"}});
               out.push([r.status, r.headers.get("Retry-After")]);
             }
             return out;
           }""")
    codes = [status for status, _ in statuses]
    assert codes.count(429) >= 36
    waits = [int(wait) for status, wait in statuses if status == 429]
    assert all(0 < wait <= 60 for wait in waits)
    play_a_move(page)  # the active game plays on
    expect(moves_of(page)).to_have_count(4)
    # A new game, once the client stops: after the Retry-After it was given.
    page.wait_for_timeout(1000 * max(waits))
    lobby = new_page(browser, console)
    lobby.goto(limited_server.url + "/")
    lobby.get_by_test_id("create").click()
    expect(status_of(lobby)).to_contain_text("Set up your army")
    assert limited_server.hub.live_games <= 6
    console.errors = [e for e in console.errors if "429" not in e]


def test_a_dead_link_shows_a_page_with_a_way_back(server: Server, browser: Any,
                                                 console: Console) -> None:
    page = new_page(browser, console)
    page.goto(server.url + "/play/no-such-game/no-such-seat")
    expect(page.get_by_test_id("missing")).to_contain_text("no such game")
    page.get_by_test_id("lobby-link").click()
    expect(page.get_by_test_id("create")).to_be_visible()
    console.errors = [e for e in console.errors if "404" not in e]


def test_the_game_over_panel_says_why_no_move_was_left(server: Server, browser: Any,
                                                       console: Console) -> None:
    """Classic web rules, To end the game (a player who cannot move or strike loses): Red
    takes Blue's last movable piece, and the panel says why Blue had no move (the server's
    `explain_outcome` sentence, `result.how`), not only that it had none."""
    state = stratego.from_position(stratego.CLASSIC, {"a5": "M", "a1": "F", "a6": "t",
                                                      "j10": "f"})
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a5"]').click()
    page.locator('[data-square="a6"]').click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    expect(page.get_by_test_id("result")).to_have_text("You win")
    expect(page.locator("#over-reason")).to_have_text(
        "Blue cannot move: it has no movable piece left.")
