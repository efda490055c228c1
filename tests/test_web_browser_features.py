"""The web game's player features in a real (headless) Chromium, driven by Playwright.

Your games on the start page (remembered by this browser only), the choice of bot, colour,
rules and clock, the clocks themselves, setups by drag and drop, presets and saved ones,
and the feel of play: sliding moves, strikes marked on both squares in their owners'
colours, rank names as tooltips and accessible names, the tab title, sound, review by
buttons and arrow keys, a question before leaving a game, a declined draw as a notice;
the board and its review controls in a laptop's window without scrolling; and a phone.
Each waits for what the page shows, never for a time.
"""

from __future__ import annotations

import json
import pathlib
import random
import re
from typing import Any

import pytest

import browser_support
import stratego
from browser_support import (
    Console,
    Server,
    expect,
    expect_strike_marks,
    moves_of,
    play_a_move,
    status_of,
)
from stratego import Player, Rank

pytestmark = pytest.mark.extra("web")

PLY = re.compile(r"^(red|blue): ([a-j]\d+)([-x])([a-j]\d+)")

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console


_FakeTime = browser_support.FakeTime
fake_time = browser_support.fake_time
server = browser_support.timed_hub_server(seed=11)


def _context(browser: Any, **options: Any) -> Any:
    settings: dict[str, Any] = {"viewport": {"width": 1100, "height": 800}}
    settings.update(options)
    return browser.new_context(**settings)


def _page(context: Any, console: Console) -> Any:
    return console.watch(context.new_page())


def _new_game(page: Any, url: str, *, friend: bool = False, time: str | None = None,
              colour: str | None = None) -> None:
    page.goto(url + "/")
    expect(page.get_by_test_id("choose-bot").locator("option")).not_to_have_count(0)
    if friend:
        page.get_by_label("a friend").check()
    if time is not None:
        page.get_by_test_id("choose-time").select_option(time)
    if colour is not None:
        page.get_by_test_id("choose-colour").get_by_label(colour).check()
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text(re.compile("Set up your army|Waiting"))


def _api_base(page: Any) -> str:
    """``/api/games/<game>/<seat>`` of the game page `page` shows."""
    match = re.search(r"/play/([^/]+)/([^/?#]+)", page.url)
    assert match is not None, page.url
    return f"/api/games/{match[1]}/{match[2]}"


def _get(page: Any, path: str) -> Any:
    return page.evaluate("async (p) => (await fetch(p)).json()", path)


def _stored(page: Any, key: str) -> Any:
    return json.loads(page.evaluate("(k) => localStorage.getItem(k)", key) or "null")


# -- your games ----------------------------------------------------------------------------


def test_your_games_are_listed_resumed_and_forgotten(
        server: Server, browser: Any, console: Console) -> None:
    """The start page lists the seats this browser played from, with the opponent, the
    state and whose move; Resume opens one, × forgets it, an expired one is dropped."""
    context = _context(browser)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = _page(context, console)
    page.goto(server.url + "/")
    expect(page.get_by_test_id("create")).to_be_visible()
    expect(page.get_by_test_id("my-games-card")).to_be_hidden()  # nothing played yet

    _new_game(page, server.url)
    page.get_by_test_id("start").click()
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    expect(status_of(page)).to_have_text("Your move (red).")
    first = page.url

    _new_game(page, server.url, friend=True)  # a second game, waiting for a friend
    link = page.get_by_test_id("join-link")
    expect(link).to_have_value(re.compile(r"/join/"))
    page.get_by_test_id("copy-link").click()
    expect(page.get_by_test_id("copied")).to_contain_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == link.input_value()
    second = page.url

    page.goto(server.url + "/")
    games = page.get_by_test_id("my-games").get_by_test_id("my-game")
    expect(games).to_have_count(2)
    # Your move first: the bot game, with its opponent and state.
    expect(games.first).to_contain_text("bot")
    expect(games.first.get_by_test_id("my-game-state")).to_have_text("Your move")
    expect(games.first).to_contain_text("· 1 move")  # a move of each side, as the list counts
    expect(games.nth(1)).to_contain_text("vs a friend")
    stored = _stored(page, "stratego.seats.v1")
    assert {f"/play/{s['game']}/{s['seat']}" for s in stored} == {
        first.removeprefix(server.url), second.removeprefix(server.url)}

    games.first.get_by_test_id("resume").click()
    expect(moves_of(page)).to_have_count(2)
    assert page.url == first

    page.goto(server.url + "/")
    expect(games).to_have_count(2)
    # The friend's game is not over: × asks once more before it forgets the seat.
    forget = games.nth(1).get_by_test_id("forget-game")
    forget.click()
    expect(forget).to_have_text("Forget?")
    expect(games).to_have_count(2)
    forget.click()
    expect(games).to_have_count(1)
    # A seat the server no longer knows is dropped from the list and from the storage.
    page.evaluate("""() => { const k = "stratego.seats.v1";
        const list = JSON.parse(localStorage.getItem(k));
        list.push({game: "nosuchgame", seat: "nosuchseat"});
        localStorage.setItem(k, JSON.stringify(list)); }""")
    page.reload()
    expect(games).to_have_count(1)
    # ... and the list says why it went (the server's own words for how long games last)
    expect(page.get_by_test_id("my-games-note")).to_contain_text(
        "A game this browser remembered is no longer on the server (a game nobody opens for")
    expect(games.first.get_by_test_id("resume")).to_have_attribute(
        "href", first.removeprefix(server.url))
    page.wait_for_function("() => !localStorage.getItem('stratego.seats.v1').includes('nosuch')")
    assert len(_stored(page, "stratego.seats.v1")) == 1
    context.close()


def test_your_games_dates_finished_games_and_says_when_the_server_is_busy(
        server: Server, browser: Any, console: Console) -> None:
    """A finished game's row says when it was last played (finished games are kept for
    weeks, and their rows look alike); when the server is too busy to say how the games
    stand (503), the list says so and offers to open each game, not to resume it."""
    context = _context(browser)
    page = _page(context, console)
    _new_game(page, server.url)
    page.get_by_test_id("start").click()
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)  # the bot's answer is in
    expect(page.locator("body.busy")).to_have_count(0)
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-resign").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.goto(server.url + "/")
    row = page.get_by_test_id("my-games").get_by_test_id("my-game").first
    expect(row.get_by_test_id("my-game-state")).to_have_text("You lost")
    today = page.evaluate(
        '() => new Date().toLocaleDateString(undefined, { day: "numeric", month: "short" })')
    expect(row).to_contain_text(f"· {today}")
    expect(row.get_by_test_id("resume")).to_have_text("View")
    expect(page.get_by_test_id("my-games-note")).to_be_hidden()
    # the server's own answer to a refused call of the page (X-Refusal-Status: 200)
    busy = {"refused": 503, "error": "the server already holds 2 games, all in play; try "
                                     "again in a minute"}
    page.route("**/api/seats", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(busy)))
    page.reload()
    expect(page.get_by_test_id("my-games-note")).to_contain_text("The server is busy")
    expect(row.get_by_test_id("resume")).to_have_text("Open")
    expect(row.get_by_test_id("my-game-state")).to_have_text("")
    context.close()


# -- choosing the game, and the clocks -------------------------------------------------------


def test_choose_bot_colour_rules_and_time(server: Server, browser: Any,
                                          console: Console) -> None:
    """The bot list is the server's; playing Blue on 15+10 against the chosen bot shows
    both clocks, and Blue's runs once the bot (Red) has moved; a variant changes the army."""
    page = _page(_context(browser), console)
    page.goto(server.url + "/")
    offered = _get(page, "/api/options")
    choose = page.get_by_test_id("choose-bot")
    expect(choose.locator("option")).to_have_count(len(offered["bots"]))
    last = offered["bots"][-1]
    choose.select_option(last["id"])
    page.get_by_test_id("choose-colour").get_by_label("blue").check()
    page.get_by_test_id("choose-time").select_option("15+10")
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    expect(page.locator("#rules")).to_contain_text("you play blue")
    expect(page.locator("#rules")).to_contain_text(f"the {last['name']} bot")
    red, blue = page.get_by_test_id("clock-red"), page.get_by_test_id("clock-blue")
    expect(red).to_have_text("15:00")  # setup is untimed
    expect(blue).to_have_text("15:00")
    expect(page.locator(".clock.running")).to_have_count(0)
    # The opponent's clock sits above the board, ours below it.
    expect(page.get_by_test_id("bar-top").get_by_test_id("clock-red")).to_be_visible()
    expect(page.get_by_test_id("bar-bottom").get_by_test_id("clock-blue")).to_be_visible()

    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (blue).")
    expect(moves_of(page)).to_have_count(1)
    expect(blue).to_have_class(re.compile(r"\brunning\b"))
    expect(red).not_to_have_class(re.compile(r"\brunning\b"))
    expect(red).to_have_text(re.compile(r"^15:\d\d$"))  # the bot's time, plus its increment
    expect(blue).not_to_have_text("15:00")  # ticking in the page between server answers

    # a learned bot plays only its network's rules: choosing it sets them
    page.goto(server.url + "/")
    page.get_by_test_id("choose-bot").select_option("policy-barrage")
    expect(page.get_by_test_id("choose-rules")).to_have_value("classic")
    expect(page.get_by_test_id("choose-variants").get_by_label("Stratego Barrage")).to_be_checked()
    page.get_by_test_id("choose-bot").select_option("medium")

    # the start page remembers the choices above (blue, 15+10, Barrage): start afresh
    page.evaluate("() => localStorage.removeItem('stratego.choices.v1')")
    page.goto(server.url + "/")
    expect(page.get_by_test_id("choose-colour").get_by_label("red")).to_be_checked()
    page.get_by_test_id("choose-rules").select_option("classic")
    page.get_by_test_id("choose-variants").locator("summary").click()
    page.get_by_test_id("choose-variants").get_by_label("Stratego Barrage").check()
    expect(page.get_by_test_id("choose-variants").locator("summary")).to_contain_text(
        "Stratego Barrage")
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    expect(page.locator("#rules")).to_contain_text("Barrage")
    expect(page.locator('.piece[data-owner="red"]')).to_have_count(8)
    expect(page.get_by_test_id("clock-red")).to_be_hidden()  # no clock chosen: none shown


def test_running_out_of_time_loses(server: Server, fake_time: _FakeTime, browser: Any,
                                   console: Console) -> None:
    """A side whose clock runs out loses once it has moved; the page learns it from its
    next poll."""
    page = _page(_context(browser), console)
    _new_game(page, server.url, time="5+3")
    page.get_by_test_id("start").click()
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)  # the bot answered
    expect(status_of(page)).to_have_text("Your move (red).")
    expect(page.get_by_test_id("clock-red")).to_have_class(re.compile(r"\brunning\b"))
    fake_time.now += 310  # five minutes and ten seconds on the server's clock
    expect(page.get_by_test_id("game-over")).to_be_visible()
    expect(page.get_by_test_id("result")).to_have_text("You lose")
    expect(page.get_by_test_id("reason")).to_contain_text("time")
    expect(page.locator(".clock.running")).to_have_count(0)
    expect(page.get_by_test_id("clock-red")).to_have_text("0:00.0")



def test_running_out_of_time_before_the_first_move_aborts(
        server: Server, fake_time: _FakeTime, browser: Any, console: Console) -> None:
    """A person whose time ran out before its first move aborts the game: nobody wins or
    loses; the panel says so, a rematch is still offered, and "Your games" lists it as
    aborted."""
    page = _page(_context(browser), console)
    _new_game(page, server.url, time="5+3")
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    game = _api_base(page).split("/")[3]
    fake_time.now += 301
    expect(page.get_by_test_id("game-over")).to_be_visible()
    expect(status_of(page)).to_have_text("Game aborted.")
    expect(page.get_by_test_id("result")).to_have_text("Game aborted")
    expect(page.get_by_test_id("reason")).to_have_text(
        "Your time ran out before your first move, so nobody wins or loses.")
    expect(page.get_by_test_id("download")).to_be_visible()
    page.get_by_test_id("rematch").click()
    expect(status_of(page)).to_contain_text("Set up your army")  # the rematch's page
    page.goto(server.url + "/")
    line = page.locator(f'[data-testid="my-game"][data-game="{game}"]')
    expect(line.get_by_test_id("my-game-state")).to_have_text("Aborted")


# -- setting up ------------------------------------------------------------------------------


def _rank(page: Any, square: str) -> str | None:
    value: str | None = page.locator(f'[data-square="{square}"] .piece').get_attribute(
        "data-rank")
    return value


def test_setup_by_drag_and_drop_presets_saved_setups_and_keyboard(
        server: Server, browser: Any, console: Console) -> None:
    page = _page(_context(browser), console)
    _new_game(page, server.url)
    # "On the board: red 0, blue 0" has no place beside 40 pieces set up.
    expect(page.get_by_test_id("on-board")).to_be_hidden()
    expect(page.locator('.piece[data-owner="red"]')).to_have_count(40)

    # Drag a1 onto b2: they swap.
    a1, b2 = _rank(page, "a1"), _rank(page, "b2")
    page.locator('[data-square="a1"]').drag_to(page.locator('[data-square="b2"]'))
    expect(page.locator('[data-square="a1"] .piece')).to_have_attribute("data-rank", b2 or "")
    expect(page.locator('[data-square="b2"] .piece')).to_have_attribute("data-rank", a1 or "")

    # A preset from the server's list.
    presets = _get(page, _api_base(page) + "/presets?offset=0")["presets"]
    assert presets, "the classic rules have recorded setups"
    picker = page.get_by_test_id("setup-presets")
    expect(picker.locator("option")).not_to_have_count(1)
    picker.select_option(label=presets[1]["name"])
    text = page.get_by_test_id("setup-text")
    expect(text).to_have_value(presets[1]["text"])
    shown = picker.locator("option").count()
    picker.select_option("more")  # the next twelve
    expect(picker.locator("option")).not_to_have_count(shown)

    # Saved under a name in this browser, found again after other setups and a reload.
    page.get_by_test_id("setup-name").fill("Bombs in the corner")
    page.get_by_test_id("save-setup").click()
    saved = page.get_by_test_id("saved-setups")
    expect(saved.locator("option", has_text="Bombs in the corner")).to_have_count(1)
    page.get_by_test_id("random").click()
    expect(text).not_to_have_value(presets[1]["text"])
    page.reload()
    saved.select_option("Bombs in the corner")
    expect(text).to_have_value(presets[1]["text"])
    page.get_by_test_id("delete-setup").click()
    expect(saved.locator("option", has_text="Bombs in the corner")).to_have_count(0)

    # The keyboard still swaps: Enter on a square, an arrow, Enter on its neighbour.
    focused = page.locator('[role="gridcell"]:focus')
    page.locator('[data-square="j1"]').focus()
    expect(focused).to_have_attribute("data-square", "j1")
    j1, i1 = _rank(page, "j1"), _rank(page, "i1")
    page.keyboard.press("Enter")
    expect(page.locator('[data-square="j1"]')).to_have_class(re.compile(r"\bselected\b"))
    page.keyboard.press("ArrowLeft")
    expect(focused).to_have_attribute("data-square", "i1")
    page.keyboard.press("Enter")
    expect(page.locator('[data-square="j1"] .piece')).to_have_attribute("data-rank", i1 or "")
    expect(page.locator('[data-square="i1"] .piece')).to_have_attribute("data-rank", j1 or "")


# -- the feel of play ------------------------------------------------------------------------


def test_a_strike_is_marked_on_both_squares_in_both_colours(
        server: Server, browser: Any, console: Console) -> None:
    """Red's Major takes Blue's Captain: both squares keep a mark of the rank each showed,
    in its owner's colour, until the next move; a banner says who struck whom."""
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "J", "b1": "X", "e1": "F", "a5": "k", "j9": "t", "j10": "f"})
    created = server.hub.add_game(state)
    page = _page(_context(browser), console)
    page.goto(server.url + created["url"])
    expect(status_of(page)).to_have_text("Your move (red).")
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)  # the strike and the bot's answer
    banner = page.get_by_test_id("flash")
    expect(banner).to_contain_text("7 strikes 6: attacker wins")
    frm, to = expect_strike_marks(page, "a4", "a5", ("red", "7"), ("blue", "6"))
    # Blue stays blue and red stays red while the strike shows (no tint over the pieces).
    assert to.locator(".strike-tag").evaluate(
        "(e) => getComputedStyle(e).backgroundColor") == "rgb(36, 96, 167)"
    assert frm.locator(".strike-tag").evaluate(
        "(e) => getComputedStyle(e).backgroundColor") == "rgb(192, 57, 43)"
    expect(to.locator(".piece")).to_have_attribute("data-owner", "red")
    expect(to.locator(".piece")).to_have_attribute("data-rank", "J")
    expect(to).to_have_attribute("title", "Red Major (7), known to the opponent")  # Blue saw it
    # The banner goes after a few seconds; the marks stay until the next move.
    expect(banner).to_have_count(0)
    expect(page.locator(".strike-tag")).to_have_count(2)
    # A quiet move (Blue's Sergeant is far away), by drag and drop this time.
    page.locator('[data-square="b1"]').drag_to(page.locator('[data-square="b2"]'))
    expect(moves_of(page)).to_have_count(4)
    expect(moves_of(page).nth(2)).to_have_text("b1-b2")
    expect(page.locator(".strike-tag")).to_have_count(0)


def test_names_title_sound_slides_review_notice_and_leaving(
        server: Server, browser: Any, console: Console) -> None:
    page = _page(_context(browser), console)
    _new_game(page, server.url)
    a1 = page.locator('[data-square="a1"]')
    expect(a1).to_have_attribute("title", re.compile(r"^Red [A-Z][a-z]+ \(\w+\)$"))
    expect(a1).to_have_attribute("aria-label", re.compile(r"^Red [A-Z][a-z]+ \(\w+\) on a1$"))
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "false")
    page.get_by_test_id("sound-toggle").click()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('stratego.sound.v1')") == "on"

    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    expect(page).to_have_title(re.compile(r"Your move"))
    # A declined draw is a plain notice, not an error.
    page.get_by_test_id("offer-draw").click()
    expect(page.get_by_test_id("notice")).to_contain_text("declines")
    expect(page.get_by_test_id("error")).to_have_text("")

    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    expect(page.locator("body")).to_have_attribute("data-beeps", re.compile(r"^([2-9]|\d\d+)$"))
    # The bot's piece slid to its square (unless it lost a strike there).
    last = moves_of(page).last.get_attribute("title") or ""
    move = PLY.match(last)
    assert move is not None, last
    piece = page.locator(f'[data-square="{move[4]}"] .piece[data-owner="blue"]')
    if move[3] == "-":
        expect(piece).to_have_attribute("data-slid-from", move[2])

    # Review with the buttons, then with the arrow keys.
    review = page.get_by_test_id("review")
    page.get_by_test_id("review-prev").click()
    expect(review).to_contain_text("after move 1 of 1, red")
    page.get_by_test_id("review-prev").click()
    expect(review).to_contain_text("before move 1 of 1")
    expect(page.get_by_test_id("review-prev")).to_be_disabled()
    page.get_by_test_id("review-next").click()
    expect(review).to_contain_text("after move 1 of 1, red")
    page.get_by_test_id("review-next").click()
    expect(review).to_be_hidden()
    page.get_by_test_id("status").click()  # the focus off the board and the buttons
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # at once: each press counts, answered or not
    expect(review).to_be_visible()
    expect(review).to_contain_text("before move 1 of 1")
    page.keyboard.press("ArrowRight")
    expect(review).to_contain_text("after move 1 of 1, red")
    page.keyboard.press("ArrowRight")
    expect(review).to_be_hidden()

    # "New game" in the middle of a game asks first.
    here = page.url
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("leave-box")).to_be_visible()
    page.get_by_test_id("leave-no").click()
    expect(page.get_by_test_id("leave-box")).to_be_hidden()
    assert page.url == here
    page.get_by_test_id("new-game").click()
    page.get_by_test_id("leave-yes").click()
    expect(page.get_by_test_id("create")).to_be_visible()
    expect(page.get_by_test_id("my-games").get_by_test_id("my-game")).to_have_count(1)


def test_hidden_ranks_stay_hidden_in_names_and_tooltips(
        server: Server, browser: Any, console: Console) -> None:
    """The page's words for a piece come from what the server sent this seat: an opponent
    piece it has not seen is "Blue piece ..., rank unknown", whatever its rank."""
    page = _page(_context(browser), console)
    _new_game(page, server.url)
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    blue = page.locator('.cell:has(.piece[data-owner="blue"])')
    expect(blue).to_have_count(40)
    labels = blue.evaluate_all("(els) => els.map((e) => [e.getAttribute('aria-label'), e.title])")
    ranks = {r.title for r in Rank}
    for label, title in labels:
        assert re.fullmatch(r"Blue piece on [a-j]\d+, rank unknown", label), label
        assert title == "Blue piece, rank unknown"
        assert not ranks & set(label.split()), label
    expect(page.locator('#grid [data-owner="blue"][data-rank]')).to_have_count(0)


# -- the window ------------------------------------------------------------------------------


# What the page shows under the board while reviewing, from its top bar down.
_BOARD_AND_CONTROLS = ("bar-top", "board", "bar-bottom", "review-prev", "review-next",
                       "review-where", "live", "review")


def test_a_laptop_window_shows_the_board_and_the_review_controls_without_scrolling(
        server: Server, browser: Any, console: Console) -> None:
    """At 1280x800 the whole board, both player bars (with their clocks) and the review
    controls under the board (Prev, Next, where the review is, Back to the live game, and
    the line saying which turn is shown) are in the window, entirely, with the page
    scrolled nowhere: live, and while reviewing. On a phone (390x844) the same game's
    review controls fit the screen's width (nothing wider than the screen)."""
    context = _context(browser, viewport={"width": 1280, "height": 800})
    page = _page(context, console)
    _new_game(page, server.url, time="5+3")  # with clocks: the bars as tall as they get
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    for test_id in ("bar-top", "board", "bar-bottom", "review-prev", "review-next"):
        expect(page.get_by_test_id(test_id)).to_be_in_viewport(ratio=1)
    page.get_by_test_id("status").click()  # the focus off the board: the arrows review
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("review")).to_contain_text("after move 1 of 1, red")
    for test_id in _BOARD_AND_CONTROLS:
        expect(page.get_by_test_id(test_id)).to_be_in_viewport(ratio=1)
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    game = page.url

    phone = _page(_context(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                           has_touch=True), console)
    phone.goto(game)
    expect(status_of(phone)).to_have_text("Your move (red).")
    phone.get_by_test_id("review-prev").tap()
    expect(phone.get_by_test_id("review")).to_contain_text("after move 1 of 1, red")
    width = phone.evaluate("() => document.documentElement.clientWidth")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= width
    for test_id in _BOARD_AND_CONTROLS:
        box = phone.get_by_test_id(test_id).bounding_box()
        assert box is not None, test_id
        assert box["x"] >= 0, test_id
        assert box["x"] + box["width"] <= width, test_id
    context.close()
    phone.context.close()


def _long_game(plies: int, seed: int) -> stratego.GameState:
    """A classic game `plies` plies in (random moves, seeded), Red to move, not over."""
    rules = stratego.CLASSIC
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                              stratego.random_setup(rules, Player.BLUE, seed + 1))
    rng = random.Random(seed)
    for _ in range(plies):
        state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
    assert not state.is_over
    assert state.to_move is Player.RED
    return state


def test_a_laptop_window_reviews_a_finished_game_without_scrolling(
        server: Server, browser: Any, console: Console) -> None:
    """Once a game of twelve moves is over, reviewing its move 12 ("After move 12, blue",
    and "Back to the final position") keeps the review controls on one line under the
    board, the line saying which turn is shown below them, all in the 1280x800 window."""
    created = server.hub.add_game(_long_game(24, 3), time_control="5+3")
    page = _page(_context(browser, viewport={"width": 1280, "height": 800}), console)
    page.goto(server.url + created["url"])
    expect(status_of(page)).to_have_text("Your move (red).")
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-resign").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.locator('[data-ply="24"]').click()
    expect(page.get_by_test_id("review-where")).to_have_text("After move 12, blue")
    expect(page.get_by_test_id("live")).to_have_text("Back to the final position")
    for test_id in _BOARD_AND_CONTROLS:
        expect(page.get_by_test_id(test_id)).to_be_in_viewport(ratio=1)
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    boxes = {test_id: page.get_by_test_id(test_id).bounding_box()
             for test_id in ("review-prev", "review-next", "review-where", "live")}
    middles = [box["y"] + box["height"] / 2 for box in boxes.values() if box is not None]
    assert len(middles) == 4
    assert max(middles) - min(middles) < 2, boxes  # one line
    where = page.get_by_test_id("review-where")
    assert where.evaluate("(e) => e.scrollWidth <= e.clientWidth")  # said whole
    page.context.close()


# -- a phone -----------------------------------------------------------------------------------


def test_a_phone_plays_by_tapping(server: Server, browser: Any, console: Console,
                                  tmp_path: pathlib.Path) -> None:
    context = _context(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                       has_touch=True, device_scale_factor=2)
    page = _page(context, console)
    _new_game(page, server.url, time="5+3")
    width = page.evaluate("() => document.documentElement.clientWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    box = page.get_by_test_id("board").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= width
    page.get_by_test_id("start").tap()
    expect(status_of(page)).to_have_text("Your move (red).")
    for clock in ("clock-red", "clock-blue"):
        expect(page.get_by_test_id(clock)).to_be_visible()
    for turn in (1, 2):
        expect(page.locator("body.busy")).to_have_count(0)
        page.locator(".cell.clickable:has(.piece)").first.tap()
        page.locator('[data-legal="true"]').first.tap()
        expect(moves_of(page)).to_have_count(2 * turn)
        expect(status_of(page)).to_have_text("Your move (red).")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    context.close()


def test_the_web_player_sees_nothing_of_a_setup_it_did_not_make(
        server: Server, browser: Any, console: Console) -> None:
    """Two states that differ only in Blue's hidden ranks give Red's page the same board:
    the same pieces, names and tooltips (the page adds nothing of its own)."""
    base = {"a4": "J", "b1": "X", "e1": "F", "j10": "f"}
    shown = []
    for hidden in ("k", "m"):
        state = stratego.from_position(stratego.CLASSIC, {**base, "a7": hidden, "j8": "x"})
        created = server.hub.add_game(state, Player.RED)
        page = _page(_context(browser), console)
        page.goto(server.url + created["url"])
        expect(status_of(page)).to_have_text("Your move (red).")
        shown.append(page.locator(".cell").evaluate_all(
            "(els) => els.map((e) => [e.dataset.square, e.getAttribute('aria-label'), e.title,"
            " e.innerHTML])"))
        page.context.close()
    assert shown[0] == shown[1]

