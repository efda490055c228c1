"""The web game in a real (headless) Chromium: the strike banner keeps clear of the board,
and a game with refused requests logs nothing in the browser's console.

The banner ("2 strikes B: defender wins") has a line of its own above the board: at a
desktop, a large, a tablet and a phone window it covers no square and no coordinate
letter, nor the opponent's name in the bar above, stays in the window, and the board does
not move when it comes; two strikes at once stand side by side (on a phone, the latest
alone). A player's
ordinary mistakes (a setup that does not parse, a move from a page that is out of date)
are refused with the error shown on the page and no failed request: the page asks for
refusals as ``200`` (``X-Refusal-Status``), so nothing red reaches the console.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

import browser_support
import stratego
from browser_support import Console, Server, expect, moves_of, play_a_move, serve, status_of
from stratego.web import GameHub

pytestmark = pytest.mark.extra("web")

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console

JSON = {"content-type": "application/json"}

# Red's Scout strikes a Bomb (and is lost); Blue's one movable piece, its Marshal, can only
# strike one of two Red Sergeants: two strikes, two lines of the banner.
TWO_STRIKES = {"a4": "X", "a7": "b", "j10": "f", "j9": "m", "j8": "T", "i9": "T", "e1": "F"}

SIZES = [(1280, 800), (1920, 1080), (768, 1024), (390, 844)]


server = browser_support.hub_server(seed=31, bot="random")


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than an edge."""
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


# Every box the test compares, read at once (the banner shows for a few seconds only).
_BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  const coords = [...document.querySelectorAll("#svg svg text")]
    .filter((t) => !t.closest("g.piece") && /^([a-j]|10|[1-9])$/.test(t.textContent.trim()))
    .map((t) => ({text: t.textContent.trim(), ...box(t)}));
  return {
    badges: [...document.querySelectorAll("[data-testid=flash]")]
      .map((b) => ({text: b.textContent, ...box(b)})),
    banner: box(document.getElementById("banner")),
    board: box(document.getElementById("board")),
    cells: [...document.querySelectorAll(".cell")]
      .map((c) => ({text: c.dataset.square, ...box(c)})),
    coords,
    bottom: box(document.getElementById("bar-bottom")),
    top: box(document.querySelector("#bar-top .who")),
    width: document.documentElement.clientWidth,
  };
}"""


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_strike_banner_covers_no_square_and_no_coordinate(
        server: Server, browser: Any, console: Console, width: int, height: int) -> None:
    state = stratego.from_position(stratego.CLASSIC, TWO_STRIKES)
    created = server.hub.add_game(state)
    context = browser.new_context(viewport={"width": width, "height": height})
    page = console.watch(context.new_page())
    page.goto(server.url + created["url"])
    expect(status_of(page)).to_have_text("Your move (red).")
    before = page.get_by_test_id("board").bounding_box()
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a7"]').click()
    expect(page.get_by_test_id("flash")).to_have_count(2)
    boxes = page.evaluate(_BOXES)
    assert len(boxes["badges"]) == 2, "the banner went before it was measured"
    assert len(boxes["coords"]) == 40  # a-j and 1-10 on each side
    assert len(boxes["cells"]) == 100
    assert boxes["board"] == before  # the board did not move when the banner came
    # side by side; on a phone, where two do not fit, the latest (the bot's) alone
    shown_badges = [b for b in boxes["badges"] if b["width"] > 0]
    if width <= 560:
        assert [b["text"] for b in shown_badges] == [boxes["badges"][-1]["text"]]
        assert shown_badges[0]["text"].startswith("10 strikes 4")
    else:
        assert shown_badges == boxes["badges"]
    assert boxes["top"]["width"] > 0
    for shown in [boxes["banner"], *shown_badges]:
        assert shown["width"] > 0
        assert shown["height"] > 0
        assert shown["x"] >= 0  # in the window
        assert shown["x"] + shown["width"] <= boxes["width"]
        assert not _overlap(shown, boxes["board"]), (shown, boxes["board"])
        assert not _overlap(shown, boxes["bottom"])
        # the opponent's name and clock above stay readable
        assert not _overlap(shown, boxes["top"]), (shown, boxes["top"])
        for mark in boxes["coords"] + boxes["cells"]:
            assert not _overlap(shown, mark), f"the banner covers {mark['text']}: {shown}"
    expect(page.get_by_test_id("flash").first).to_contain_text("strikes")
    context.close()


@pytest.fixture(scope="module")
def game_server() -> Iterator[Server]:
    """A server whose (default) bot plays on through the few moves of a test."""
    with serve(GameHub(rules="classic", seed=32)) as srv:
        yield srv


def _left_behind(request: Any) -> bool:
    """Whether `request` is a poll the browser cut short because the page left (for the
    rematch's page): no fault of the server's or the page's, and nothing in the console."""
    return (request.method == "GET" and "?since=" in request.url
            and "ERR_ABORTED" in (request.failure or ""))


def test_a_game_with_refused_requests_logs_no_console_error(
        game_server: Server, browser: Any, console: Console) -> None:
    server = game_server
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = console.watch(context.new_page())
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    page.on("requestfailed", lambda r: None if _left_behind(r) else failed.append(
        f"failed {r.url} ({r.failure})"))
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")

    # A setup that does not parse: refused, said on the page, the text kept.
    page.locator("#paste summary").click()
    page.get_by_test_id("setup-text").fill("not a setup")
    page.get_by_test_id("use-setup").click()
    expect(page.get_by_test_id("error")).to_contain_text("setup")
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    expect(page.get_by_test_id("error")).to_have_text("")
    for turn in (1, 2):
        play_a_move(page)
        expect(moves_of(page)).to_have_count(2 * turn)

    # A move from a page out of date: the seat moved meanwhile (from another tab, say),
    # and this page has not heard of it yet (its polls are held back).
    held: list[Any] = []
    polls = re.compile(r"/api/games/[^/]+/[^/?]+\?since=")
    page.route(polls, lambda route: held.append(route))
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page did not poll"
    base = re.sub(r"^.*/play/", "/api/games/", page.url)
    now = server.hub.handle("GET", base).json()
    frm = sorted(now["legal"])[0]
    to = now["legal"][frm][0]
    moved = server.hub.handle("POST", base + "/move", body=json.dumps(
        {"move": f"{frm}-{to}"}).encode(), headers=JSON)
    assert moved.status == 200
    page.locator(f'[data-square="{frm}"]').click()
    page.locator(f'[data-square="{to}"]').click()
    expect(page.get_by_test_id("error")).not_to_have_text("")
    for route in held:
        route.continue_()
    page.unroute(polls)
    expect(moves_of(page)).to_have_count(6)  # the page caught up
    expect(status_of(page)).to_have_text("Your move (red).")

    # It plays on, offers a draw (the bot accepts it or declines with a notice), resigns
    # when the game goes on, and asks for the rematch.
    play_a_move(page)
    expect(moves_of(page)).to_have_count(8)
    page.get_by_test_id("offer-draw").click()
    answered = page.locator("#notice:not([hidden]), #over-box:not([hidden])")
    expect(answered.first).to_be_visible()
    if page.get_by_test_id("game-over").is_hidden():
        page.get_by_test_id("resign").click()
        page.get_by_test_id("confirm-resign").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.get_by_test_id("rematch").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    assert failed == []
    context.close()
