"""The web game's notices and confirmations, in a real (headless) Chromium driven by Playwright.

The "cannot be reached" error goes once the server answers again (another error stays);
the board stays where it is when a note or an error comes and goes above it; a click on
the opponent's piece says so, and takes a stale notice away; the "Stratego" link of the
header asks before it leaves a game, as New game does; the Pieces table counts the
opponent's pieces in the opponent's colour; a square the selected piece may not go to,
and a piece of ours with no legal move, say why (the back-and-forth rule too). Each waits
for what the page shows, never for a time."""

from __future__ import annotations

import re
from typing import Any

import pytest

import browser_support
import stratego
from browser_support import PHONE, Console, Server, expect, page_at, setting_up

pytestmark = pytest.mark.extra("web")

browser = browser_support.browser
console = browser_support.console

server = browser_support.hub_server(seed=61, create_limit=50)


def _position() -> stratego.GameState:
    return stratego.from_position(
        stratego.CLASSIC, {"a1": "X", "a2": "B", "b1": "F", "e4": "T", "j10": "f", "j9": "t"})


# -- 2. the connection error -----------------------------------------------------------------


def test_the_server_s_absence_is_no_longer_an_error_once_it_answers(
        server: Server, browser: Any, console: Console) -> None:
    page = page_at(server, browser, console, _position())
    error = page.get_by_test_id("error")

    # the server cannot be reached: the move fails, and the polls too; once a poll has
    # failed, the banner says so, and the error line no longer repeats it
    page.route("**/api/games/**", lambda route: route.abort())
    page.locator('[data-square="e4"]').click()
    page.locator('[data-square="e5"]').click()
    expect(page.get_by_test_id("connection")).to_be_visible()
    expect(error).to_have_text("")
    page.unroute("**/api/games/**")
    expect(page.get_by_test_id("connection")).to_be_hidden()
    expect(error).to_have_text("")
    console.errors = [e for e in console.errors if "Failed to load resource" not in e]

    # another error (a refusal) stays when a poll answers
    page.route("**/move?view=0", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"error": "refused for the test", "refused": 409}'))
    with page.expect_response(lambda r: "since=" in r.url):  # (a refusal polls at once)
        page.locator('[data-square="e4"]').click()
        page.locator('[data-square="e5"]').click()
    expect(error).to_have_text("refused for the test")
    with page.expect_response(lambda r: "since=" in r.url):
        pass
    expect(error).to_have_text("refused for the test")


# -- the line above the board ---------------------------------------------------------------


def _board_at(page: Any) -> dict[str, float]:
    """Where the board is drawn on the page (Playwright's bounding box)."""
    box = page.get_by_test_id("board").bounding_box()
    assert box is not None
    return {key: float(box[key]) for key in ("x", "y", "width", "height")}


def test_the_board_stays_put_when_a_note_or_an_error_comes_and_goes(
        server: Server, browser: Any, console: Console) -> None:
    """The line above the board is kept whether or not it says anything, as the strike
    banner's is: on a phone, the note a tap on the Bomb brings ("Bombs never move.", with
    its Show button) and the next tap takes away leave the board where it was, so the
    tap after lands on the square aimed at; on a wide screen, so does a refused move's
    error."""
    phone = page_at(server, browser, console, _position(), **PHONE)
    before = _board_at(phone)
    note = phone.get_by_test_id("board-note")
    phone.locator('[data-square="a2"]').tap()
    expect(note).to_be_visible()
    expect(note).to_contain_text("Bombs never move.")
    expect(phone.get_by_test_id("board-note-go")).to_be_visible()
    assert _board_at(phone) == before
    box = note.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= before["y"]  # above the board, not over it
    phone.locator('[data-square="e7"]').tap()  # an empty square: the note goes
    expect(note).to_be_hidden()
    assert _board_at(phone) == before

    page = page_at(server, browser, console, _position())
    before = _board_at(page)
    error = page.get_by_test_id("error")
    page.route("**/move?view=0", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"error": "refused for the test", "refused": 409}'))
    page.locator('[data-square="e4"]').click()
    page.locator('[data-square="e5"]').click()
    expect(error).to_have_text("refused for the test")
    assert _board_at(page) == before
    box = error.bounding_box()
    top = page.get_by_test_id("bar-top").bounding_box()
    assert box is not None
    assert top is not None
    assert box["y"] + box["height"] <= top["y"]  # over neither the bar nor the board
    page.unroute("**/move?view=0")
    page.locator('[data-square="e4"]').click()  # a move the server takes: the error goes
    page.locator('[data-square="e5"]').click()
    expect(error).to_have_text("")
    assert _board_at(page) == before


# -- 3. a click on the opponent's piece --------------------------------------------------------


def test_a_click_on_the_opponent_s_piece_says_so_and_clears_the_bomb_s_notice(
        server: Server, browser: Any, console: Console) -> None:
    page = page_at(server, browser, console, _position())
    notice = page.get_by_test_id("notice")
    page.locator('[data-square="a2"]').click()
    expect(notice).to_have_text("Bombs never move.")
    page.locator('[data-square="j9"]').click()
    expect(notice).to_have_text("That is blue's piece: click one of yours to move it.")
    page.locator('[data-square="e7"]').click()  # an empty square: the notice goes
    expect(notice).to_be_hidden()
    page.locator('[data-square="a2"]').click()
    expect(notice).to_have_text("Bombs never move.")
    page.locator('[data-square="f6"]').click()
    expect(notice).to_be_hidden()


def test_a_click_out_of_turn_says_whose_turn_it_is(server: Server, browser: Any,
                                                   console: Console) -> None:
    """Between two people, a click on a piece while the other is to move said nothing;
    it says whose turn it is, and the next click that moves nothing takes it away."""
    red, blue = browser_support.two_pages(server, browser, console)
    notice = blue.get_by_test_id("notice")
    blue.locator(".cell:has(.piece)").first.click()
    expect(notice).to_have_text("It is red's turn.")
    blue.locator('[data-square="e5"]').click()  # an empty square
    expect(notice).to_be_hidden()
    red.close()
    blue.close()


# -- 4. the header's link ---------------------------------------------------------------------


def test_the_header_link_asks_before_it_leaves_a_game(server: Server, browser: Any,
                                                      console: Console) -> None:
    page = page_at(server, browser, console, _position())
    here = page.url
    page.get_by_test_id("home-link").click()
    expect(page.get_by_test_id("leave-box")).to_be_visible()
    assert page.url == here
    page.get_by_test_id("leave-no").click()
    expect(page.get_by_test_id("leave-box")).to_be_hidden()
    expect(page.get_by_test_id("home-link")).to_be_focused()
    assert page.url == here
    page.get_by_test_id("home-link").click()
    page.get_by_test_id("leave-yes").click()
    expect(page.get_by_test_id("create")).to_be_visible()


# -- 7. the Pieces table's colours --------------------------------------------------------------


def test_the_pieces_table_counts_the_opponent_s_pieces_in_its_colour(
        server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console)
    legend = page.get_by_test_id("legend")
    legend.locator("summary").click()
    expect(legend.locator('[data-rank="K"] .chip-picture')).to_have_attribute("data-owner", "red")
    page = page_at(server, browser, console, _position())
    legend = page.get_by_test_id("legend")
    legend.locator("summary").click()
    expect(legend.locator("th").last).to_have_text("Blue left")
    chips = legend.locator(".chip-picture")
    expect(chips).to_have_count(12)
    for owner in chips.evaluate_all("(all) => all.map((c) => c.dataset.owner)"):
        assert owner == "blue"


# -- 5. why not ----------------------------------------------------------------------------------


def test_a_blocked_piece_and_a_target_it_may_not_reach_say_why(
        server: Server, browser: Any, console: Console) -> None:
    """Red's Captain went back and forth as often as the rules allow: a click on it says
    so (the back-and-forth rule), where it said only that it had no move; a square the
    selected Sergeant cannot reach says why too."""
    state = stratego.from_position(stratego.CLASSIC, {
        "a1": "K", "b1": "B", "a3": "B", "e4": "T", "j1": "F",
        "j10": "f", "j9": "t", "h10": "b"})
    for text in ("a1-a2", "j9-i9", "a2-a1", "i9-j9", "a1-a2", "j9-i9", "a2-a1", "i9-j9"):
        state = stratego.apply(state, stratego.Move.parse(text))
    page = page_at(server, browser, console, state)
    notice = page.get_by_test_id("notice")
    page.locator('[data-square="a1"]').click()
    expect(notice).to_have_text(re.compile(
        r"^Your Captain on a1 has no legal move: the red Captain \(6\) on a1 has moved back "
        r"and forth .*back-and-forth rule\)\.$"))
    page.locator('[data-square="e4"]').click()
    expect(page.locator('[data-square="e4"]')).to_have_class(re.compile(r"\bselected\b"))
    expect(notice).to_be_hidden()
    page.locator('[data-square="e6"]').click()
    expect(notice).to_have_text("e4-e6 is not legal: the red Sergeant (4) on e4 moves one "
                                "square at a time (only Scouts go further; classic web "
                                "rules, Rules for Movement).")
    expect(page.locator(".cell.selected")).to_have_count(0)
