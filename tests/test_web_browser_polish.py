"""What a player's audit of the web game asked for, in a real (headless) Chromium driven
by Playwright.

A "Pieces" legend says what each rank's label means, how many of it an army has and, in
play, how many of the opponent's are not known to be captured; between two people, the
setup says when the friend joined and when they pressed Start; the tab's title says when
a draw is offered or the friend asks for a rematch; on a phone a finished game's result
shows above the board; the start page shows bots and rules in a player's words and gives
back the player's own rules after a bot that plays only Barrage. Each waits for what the
page shows, never for a time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import browser_support
import stratego
from browser_support import (
    PHONE,
    Console,
    Server,
    expect,
    invite,
    new_page,
    page_at,
    serve,
    setting_up,
    status_of,
    two_pages,
)
from stratego.web import GameHub

pytestmark = pytest.mark.extra("web")

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    # (every test creates games from the same address: more than the default 10 a minute)
    with serve(GameHub(rules="classic", seed=52, create_limit=50)) as srv:
        yield srv


def _resign(page: Any) -> None:
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-resign").click()
    expect(status_of(page)).to_have_text("Game over.")


# -- 1. the Pieces legend --------------------------------------------------------------------


def test_the_pieces_legend_names_each_rank_and_counts_the_opponent_s_left(
        server: Server, browser: Any, console: Console) -> None:
    """A folded "Pieces" panel: each rank's label, name and count in the army (12 ranks,
    40 pieces); in play a column of the opponent's pieces of each rank not known to be
    captured, less those the seat saw captured."""
    page = setting_up(server, browser, console)
    legend = page.get_by_test_id("legend")
    expect(legend).to_be_visible()
    rows = legend.get_by_test_id("legend-row")
    expect(rows.first).to_be_hidden()  # folded until opened
    legend.locator("summary").click()
    expect(rows).to_have_count(12)
    expect(rows.first).to_have_text(re.compile(r"^10\s*Marshal\s*1$"))
    expect(legend.locator('[data-rank="X"]')).to_have_text(re.compile(r"^2\s*Scout\s*8$"))
    expect(legend.locator('[data-rank="S"]')).to_have_text(re.compile(r"^1\s*Spy\s*1$"))
    expect(legend.locator('[data-rank="B"]')).to_have_text(re.compile(r"^B\s*Bomb\s*6$"))
    expect(rows.last).to_have_text(re.compile(r"^F\s*Flag\s*1$"))
    expect(legend.get_by_test_id("legend-left")).to_have_count(0)  # nothing to count yet

    # Red's Major takes Blue's Captain: Blue has 3 Captains unaccounted for, of 4
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "J", "b1": "X", "e1": "F", "a5": "k", "j9": "t", "j10": "f"})
    page = page_at(server, browser, console, state)
    legend = page.get_by_test_id("legend")
    legend.locator("summary").click()
    expect(legend.locator("th").last).to_have_text("Blue left")
    captains = legend.locator('[data-rank="K"] [data-testid="legend-left"]')
    expect(captains).to_have_text("4")
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(captains).to_have_text("3")
    expect(legend.locator('[data-rank="M"] [data-testid="legend-left"]')).to_have_text("1")


# -- 2. the friend joined, the friend is ready -----------------------------------------------


def test_the_setup_says_when_the_friend_joined_and_pressed_start(
        server: Server, browser: Any, console: Console) -> None:
    red, link = invite(server, browser, console)
    notice = red.get_by_test_id("notice")
    expect(notice).to_be_hidden()
    blue = new_page(browser, console)
    blue.goto(link)
    blue.get_by_test_id("join").click()
    expect(notice).to_have_text("Blue joined.")
    blue.get_by_test_id("start").click()
    expect(notice).to_have_text("Blue is ready.")
    expect(status_of(red)).to_contain_text("Set up your army")


# -- 3. the tab's title ----------------------------------------------------------------------


def test_the_tab_title_says_draw_offered_and_rematch_then_reverts(
        server: Server, browser: Any, console: Console) -> None:
    red, blue = two_pages(server, browser, console)
    expect(blue).to_have_title("Stratego")
    red.get_by_test_id("offer-draw").click()
    expect(blue).to_have_title("Draw offered · Stratego")
    blue.get_by_test_id("decline-draw").click()
    expect(blue).to_have_title("Stratego")

    _resign(red)
    expect(status_of(blue)).to_have_text("Game over.")
    expect(blue).to_have_title("Stratego")
    red.get_by_test_id("rematch").click()
    expect(blue).to_have_title("Rematch? · Stratego")
    expect(red).not_to_have_title(re.compile("Rematch"))


# -- 4. the result above the board on a phone ------------------------------------------------


def test_on_a_phone_the_result_shows_above_the_board(
        server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console, **PHONE)
    line = page.get_by_test_id("result-line")
    expect(line).to_be_hidden()
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    _resign(page)
    expect(line).to_be_visible()
    expect(line).to_have_text("You lose (you resigned).")
    top = line.bounding_box()
    board = page.get_by_test_id("board").bounding_box()
    assert top is not None
    assert board is not None
    assert top["y"] + top["height"] <= board["y"]
    assert top["height"] < 40  # one line

    desktop = setting_up(server, browser, console)
    desktop.get_by_test_id("start").click()
    expect(status_of(desktop)).to_have_text("Your move (red).")
    _resign(desktop)
    expect(desktop.get_by_test_id("result")).to_have_text("You lose")
    expect(desktop.get_by_test_id("result-line")).to_be_hidden()  # the panel is beside it


# -- 5. the start page's words ---------------------------------------------------------------


def test_the_lobby_explains_bots_and_rules_and_gives_back_the_player_s_rules(
        server: Server, browser: Any, console: Console) -> None:
    page = new_page(browser, console)
    page.goto(server.url + "/")
    bot = page.get_by_test_id("choose-bot")
    expect(bot.locator('option[value="medium"]')).to_have_attribute(
        "title", "Medium: takes what pays at sight")
    expect(bot.locator('option[value="hard"]')).to_have_attribute(
        "title", "Hard: searches about 1 s a move")
    for option in bot.locator("option").all():
        assert "(" not in (option.get_attribute("title") or "").split(":", 1)[0]
        assert "search(" not in (option.get_attribute("title") or "")

    about = page.get_by_test_id("rules-about")
    expect(about).to_have_text(re.compile(r"^Marshal 10 … Scout 2; Scouts move and strike"))
    rules = page.get_by_test_id("choose-rules")
    rules.select_option("milton-bradley-1961")
    expect(about).to_have_text(re.compile(r"^Marshal 1 … Scout 9; a Scout may not move"))
    expect(rules.locator('option[value="isf"]')).to_have_attribute(
        "title", re.compile("a chase rule"))

    # the player's own rules come back after a bot that plays only Barrage
    rules.select_option("jumbo-2014")
    barrage = page.locator('input[name="variant"][value="barrage"]')
    expect(barrage).not_to_be_checked()
    bot.select_option("policy-barrage")
    expect(rules).to_have_value("classic")
    expect(barrage).to_be_checked()
    bot.select_option("medium")
    expect(rules).to_have_value("jumbo-2014")
    expect(barrage).not_to_be_checked()
    expect(page.get_by_test_id("rules-locked")).to_be_hidden()
    expect(about).to_have_text(re.compile("a chase rule"))
    # and after a game between two people too
    bot.select_option("policy-barrage")
    expect(barrage).to_be_checked()
    page.get_by_label("a friend").check()
    expect(rules).to_have_value("jumbo-2014")
    expect(barrage).not_to_be_checked()
