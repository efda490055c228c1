"""How the web game feels to a player, in a real (headless) Chromium driven by Playwright.

The selected piece keeps its frame, and a piece that cannot move says so; while the bot
thinks the page says so and lists the move sent; a friend's "no" to a draw is a notice;
your own invitation, opened in your browser, warns before it is used up; a bot that plays
only some rules greys the others out; the bots and rules are named in a player's words;
the review counts moves as the move list does; a mistyped address gets a page with a way
back; Resign asks only briefly; a refused paste keeps its text, the paste panel lists the
letters setup text is written with, and a refused paste's error goes once the army is
saved; variants that do not go together are greyed out; the move list fits its columns; a
finished game reviews face up; a strike leaves no trace of a piece that moved on; a
reviewed turn shows its move and its strike as the live board did, naming no rank the
strike kept hidden. Each waits for what the page shows, never for a time."""

from __future__ import annotations

import re
from typing import Any

import pytest

import browser_support
import stratego
from browser_support import (
    Console,
    Server,
    contrast,
    expect,
    expect_strike_marks,
    invite,
    moves_of,
    new_page,
    page_at,
    play_a_move,
    rgb,
    serve,
    status_of,
    two_pages,
)
from stratego.svg import COLORS
from stratego.variants import SILENT_DEFENSE
from stratego.web import GameHub

pytestmark = pytest.mark.extra("web")

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console


server = browser_support.hub_server(seed=21)


def _frame(page: Any, square: str) -> tuple[str, str, str]:
    """The computed outline style and colour of the square `square`'s cell, and its
    box-shadow."""
    style = page.locator(f'[data-square="{square}"]').evaluate(
        "(cell) => { const s = getComputedStyle(cell);"
        " return [s.outlineStyle, s.outlineColor, s.boxShadow]; }")
    return style[0], style[1], style[2]


YELLOW = "rgb(245, 215, 66)"  # the last move's colour on the board (#f5d742)


def _expect_selected_frame(page: Any, square: str) -> None:
    """The frame of a selected square: a dark outline with a white ring inside it, neither
    the last move's yellow, the dark one standing out from every square of the board (the
    light and dark squares, and a last move's yellow) by at least 7:1."""
    style, colour, shadow = _frame(page, square)
    assert style == "solid"
    assert colour != YELLOW
    assert "rgb(255, 255, 255)" in shadow, shadow
    assert YELLOW not in shadow
    for ground in (COLORS["light"], COLORS["dark"], COLORS["last-move"]):
        assert contrast(rgb(colour), rgb(ground)) >= 7, (colour, ground)


def _setting_up(server: Server, browser: Any, console: Console) -> Any:
    """A page on a new game against the bot, at its setup."""
    page = new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    return page


def test_the_selected_piece_keeps_its_frame_in_setup_and_in_play(
        server: Server, browser: Any, console: Console) -> None:
    """A click focuses the square it selects: the frame must not give way to the focus."""
    page = _setting_up(server, browser, console)
    page.locator('[data-square="a1"]').click()  # the first square of a swap
    expect(page.locator('[data-square="a1"]')).to_have_class(re.compile(r"\bselected\b"))
    _expect_selected_frame(page, "a1")
    page.locator('[data-square="a1"]').click()  # the same square again: unselected
    expect(page.locator(".cell.selected")).to_have_count(0)
    assert _frame(page, "a1")[0] == "none"

    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    square = page.locator(".cell.clickable:has(.piece)").first.get_attribute("data-square")
    page.locator(f'[data-square="{square}"]').click()
    expect(page.locator(f'[data-square="{square}"]')).to_have_class(re.compile(r"\bselected\b"))
    _expect_selected_frame(page, str(square))


def test_a_piece_that_cannot_move_says_so_when_clicked(
        server: Server, browser: Any, console: Console) -> None:
    """Classic web rules: the Flag and the Bombs never move. Clicking one (or any piece of
    ours with no legal move) is answered with a notice, not with nothing."""
    page = new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    bomb = page.locator('.cell:has(.piece[data-owner="red"][data-rank="B"])').first
    square = bomb.get_attribute("data-square")
    bomb.click()
    notice = page.get_by_test_id("notice")
    expect(notice).to_have_text("Bombs never move.")
    assert square is not None
    page.locator(".cell.clickable:has(.piece)").first.click()  # a piece that moves
    expect(notice).to_be_hidden()
    expect(page.locator(".cell.selected")).to_have_count(1)


def test_while_the_bot_thinks_the_page_says_so_and_lists_the_move_sent(
        server: Server, browser: Any, console: Console) -> None:
    """The answer to our move is held back (as a slow bot would): meanwhile the status
    names the bot thinking, the bars show its turn, the move list shows ours as sent, and
    review waits; once the answer comes, the live game is back, our move and the bot's in
    the list."""
    page = new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    expect(page.get_by_test_id("review-where")).to_have_text("Live · 1 move")
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route(re.compile(r"/api/games/[^/]+/[^/]+/move(\?|$)"), hold)
    play_a_move(page)
    expect(status_of(page)).to_have_text(re.compile(r"^The .*bot is thinking…$"))
    pending = page.get_by_test_id("pending-move")
    expect(pending).to_have_text(re.compile(r"^[a-j]\d+-[a-j]\d+ …$"))
    # in a row of its own, move 2 (the list numbers a move of each side as one)
    expect(page.get_by_test_id("moves").locator("li")).to_have_count(2)
    expect(page.get_by_test_id("moves").locator("li").last).to_have_attribute("value", "2")
    expect(page.locator(".cell.selected, [data-legal], .cell.clickable")).to_have_count(0)
    expect(page.get_by_test_id("bar-top")).to_have_class(re.compile(r"\bto-move\b"))
    expect(page.get_by_test_id("bar-bottom")).not_to_have_class(re.compile(r"\bto-move\b"))
    assert page.title() == "Stratego"
    page.get_by_test_id("review-prev").click()  # nothing to review until the answer is in
    expect(page.get_by_test_id("review")).to_be_hidden()
    assert len(held) == 1
    held[0].continue_()
    page.unroute(re.compile(r"/api/games/[^/]+/[^/]+/move(\?|$)"))
    expect(status_of(page)).to_have_text("Your move (red).")
    expect(moves_of(page)).to_have_count(4)
    expect(page.get_by_test_id("pending-move")).to_have_count(0)
    expect(page.get_by_test_id("review-where")).to_have_text("Live · 2 moves")
    page.get_by_test_id("review-prev").click()
    # in the list's words only: "move 2 of 2", never a count of turns beside it
    expect(page.get_by_test_id("review")).to_have_text(
        "Reviewing the position after move 2 of 2, red.")
    expect(page.get_by_test_id("review-where")).to_have_text("After move 2, red")
    # the live game's status stays, faded: it is not the reviewed position's; the losses
    # shown are the reviewed turn's own (see the review of a strike below)
    assert status_of(page).evaluate("(e) => getComputedStyle(e).opacity") == "0.45"
    assert page.locator("#captured-box").evaluate("(e) => getComputedStyle(e).opacity") == "1"
    page.get_by_test_id("live").click()
    assert status_of(page).evaluate("(e) => getComputedStyle(e).opacity") == "1"


def test_review_shows_the_losses_and_strikes_of_the_reviewed_turn(
        server: Server, browser: Any, console: Console) -> None:
    """Stepping back past a strike: the captured tray, the counts on the board and the
    strike list are those of the turn shown (nothing lost before the strike), and the
    live game's come back with it."""
    state = stratego.from_position(
        "classic", {"a4": "K", "a5": "l", "j1": "F", "j10": "f", "i10": "b", "e9": "t"})
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)
    tray = page.get_by_test_id("tray-blue")
    expect(tray.locator(".chip")).to_have_count(1)
    expect(page.get_by_test_id("strikes")).to_contain_text("strikes")
    page.get_by_test_id("review-prev").click()  # after our strike
    expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red")
    expect(tray.locator(".chip")).to_have_count(1)
    expect(page.locator("#on-board-blue")).to_have_text("3")
    page.get_by_test_id("review-prev").click()  # the start: nothing lost yet
    expect(page.get_by_test_id("review-where")).to_have_text("Starting position")
    expect(tray).to_have_text("none")
    expect(page.locator("#on-board-blue")).to_have_text("4")
    expect(page.get_by_test_id("strikes").locator("li")).to_have_count(0)
    page.get_by_test_id("live").click()
    expect(tray.locator(".chip")).to_have_count(1)
    expect(page.get_by_test_id("strikes")).to_contain_text("strikes")


# Each square of the last move, as the board shows it: the picture's highlight (a rectangle
# of class "last-move" under the square's centre) and the square's class "last".
_MARKED = """() => {
  const frames = [...document.querySelectorAll("#svg rect.last-move")]
    .map((r) => r.getBoundingClientRect());
  return [...document.querySelectorAll("#grid .cell")].filter((cell) => {
    const box = cell.getBoundingClientRect();
    const x = box.x + box.width / 2, y = box.y + box.height / 2;
    return frames.some((f) => f.left <= x && x <= f.right && f.top <= y && y <= f.bottom);
  }).map((cell) => [cell.dataset.square, cell.classList.contains("last")]);
}"""


def test_a_reviewed_turn_shows_its_move_and_its_strike_as_the_live_board_did(
        server: Server, browser: Any, console: Console) -> None:
    """Red's Major (7) takes Blue's Captain (6). Stepping back to that turn shows what it
    did, as the live board showed it: the move's two squares highlighted, both rung with
    the rank each showed in its owner's colour (the Major's trace on the square it left),
    and the banner "7 strikes 6: attacker wins", which stays while the turn is shown. A
    quiet turn shows its own two squares and no strike, on the board or in the panel's
    strike list (while the live board, at that turn, still marked the strike before it),
    and the starting position shows no move."""
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "J", "b1": "X", "e1": "F", "a5": "k", "j9": "t", "j10": "f"})
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)  # the strike and the bot's answer
    page.locator('[data-square="b1"]').click()
    page.locator('[data-square="b2"]').click()
    expect(moves_of(page)).to_have_count(4)
    answer = re.match(r"^blue: ([a-j]\d+)-([a-j]\d+)$",
                      moves_of(page).nth(1).get_attribute("title") or "")
    assert answer is not None  # the Sergeant, Blue's one piece that moves: a quiet move

    page.locator('[data-ply="1"]').click()
    expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red")
    banner = page.get_by_test_id("flash")
    expect(banner).to_have_text("7 strikes 6: attacker wins")
    frm, to = expect_strike_marks(page, "a4", "a5", ("red", "7"), ("blue", "6"))
    expect(frm.locator(".ghost")).to_have_text("7")
    expect(to.locator(".piece")).to_have_attribute("data-rank", "J")
    expect(page.locator(".cell.last")).to_have_count(2)
    assert sorted(page.evaluate(_MARKED)) == [["a4", True], ["a5", True]]
    listed = page.get_by_test_id("strikes").locator("li")
    expect(listed).to_have_text(["red: a4xa5, Major (7) strikes Captain (6): attacker wins"])

    page.get_by_test_id("review-next").click()  # Blue's quiet answer
    expect(page.get_by_test_id("review-where")).to_have_text("After move 1, blue")
    expect(page.locator(".strike-tag")).to_have_count(0)
    expect(banner).to_have_count(0)
    expect(listed).to_have_count(0)  # the panel lists no strike the board does not mark
    expect(page.locator(".cell.last")).to_have_count(2)
    assert sorted(page.evaluate(_MARKED)) == sorted([[answer[1], True], [answer[2], True]])

    page.get_by_test_id("review-next").click()  # our quiet move
    expect(page.get_by_test_id("review-where")).to_have_text("After move 2, red")
    expect(page.locator(".strike-tag")).to_have_count(0)
    expect(page.locator(".cell.last")).to_have_count(2)
    assert sorted(page.evaluate(_MARKED)) == [["b1", True], ["b2", True]]

    page.keyboard.press("Home")
    expect(page.get_by_test_id("review-where")).to_have_text("Starting position")
    expect(page.locator(".cell.last")).to_have_count(0)
    assert page.evaluate(_MARKED) == []
    expect(banner).to_have_count(0)


def test_a_reviewed_strike_names_no_rank_the_strike_kept_hidden(
        server: Server, browser: Any, console: Console) -> None:
    """Hasbro 2009 with Silent Defense (the defender does not name its rank): Red's Captain
    (5, as Hasbro numbers it) strikes a Blue piece and loses. The reviewed turn marks the
    defender "?", as the live banner did ("5 strikes ?: defender wins"), and still does
    once the game is over, when the review shows Blue's army face up (its Major, 4, on the
    square): the strike's mark says only what the strike showed."""
    rules = stratego.HASBRO_2009.with_variants(SILENT_DEFENSE)
    state = stratego.from_position(
        rules, {"a4": "K", "b1": "X", "a5": "j", "j1": "F", "j10": "f", "e9": "t"})
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)
    expect(moves_of(page).first).to_have_attribute(
        "title", "red: a4xa5, Captain (5) strikes an unknown piece: defender wins")
    to = page.locator('[data-square="a5"]')
    banner = page.get_by_test_id("flash")

    page.locator('[data-ply="1"]').click()
    expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red")
    expect(banner).to_have_text("5 strikes ?: defender wins")
    expect(to.locator(".strike-tag")).to_have_text("?")
    expect(page.locator('[data-square="a4"] .strike-tag')).to_have_text("5")
    expect(page.locator('#grid [data-owner="blue"][data-rank]')).to_have_count(0)

    page.get_by_test_id("live").click()
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-resign").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.locator('[data-ply="1"]').click()
    expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red")
    expect(to.locator(".piece")).to_have_attribute("data-rank", "J")  # face up: the game is over
    expect(to.locator(".piece")).to_have_attribute("data-revealed", "true")
    expect(to.locator(".strike-tag")).to_have_text("?")
    expect(banner).to_have_text("5 strikes ?: defender wins")


def test_blue_s_move_sent_is_listed_beside_the_bot_s_first(
        server: Server, browser: Any, console: Console) -> None:
    """Red (the bot) moved first: Blue's move sent completes move 1 in the list."""
    page = new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("choose-colour").get_by_label("blue").check()
    page.get_by_test_id("create").click()
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (blue).")
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route(re.compile(r"/api/games/[^/]+/[^/]+/move(\?|$)"), hold)
    play_a_move(page)
    rows = page.get_by_test_id("moves").locator("li")
    expect(rows).to_have_count(1)
    expect(rows.first.get_by_test_id("pending-move")).to_be_visible()
    expect(rows.first.locator("[data-ply]")).to_have_count(1)  # the bot's first move
    assert len(held) == 1
    held[0].continue_()
    expect(status_of(page)).to_have_text("Your move (blue).")
    expect(rows.first.locator("[data-ply]")).to_have_count(2)
    expect(page.get_by_test_id("pending-move")).to_have_count(0)


def test_a_friend_declining_a_draw_is_a_notice(server: Server, browser: Any,
                                               console: Console) -> None:
    red, blue = two_pages(server, browser, console)
    red.get_by_test_id("offer-draw").click()
    expect(red.get_by_test_id("draw-sent")).to_be_visible()
    expect(blue.get_by_test_id("decline-draw")).to_be_visible()
    blue.get_by_test_id("decline-draw").click()
    expect(red.get_by_test_id("notice")).to_have_text("Your opponent declined the draw.")
    expect(red.get_by_test_id("draw-sent")).to_be_hidden()
    expect(blue.get_by_test_id("notice")).to_be_hidden()  # only the one who offered


def test_your_own_invitation_warns_before_it_is_used_up(server: Server, browser: Any,
                                                        console: Console) -> None:
    red, link = invite(server, browser, console)
    seat = red.url
    red.goto(link)  # the creator checks the link it is to send
    expect(red.get_by_test_id("own-invite")).to_be_visible()
    expect(red.get_by_test_id("join")).to_have_text("Play the other side here anyway")
    red.get_by_test_id("own-seat").click()
    assert red.url == seat
    # A friend's browser, which plays no seat of this game, is simply invited.
    friend = new_page(browser, console)
    friend.goto(link)
    expect(friend.get_by_test_id("own-invite")).to_be_hidden()
    expect(friend.get_by_test_id("join")).to_have_text("Join the game")
    expect(friend.locator("#join-rules")).to_have_text("Classic web rules")
    friend.get_by_test_id("join").click()
    expect(status_of(friend)).to_contain_text("Set up your army")


def test_a_bot_of_some_rules_greys_out_the_others_and_names_are_a_players(
        server: Server, browser: Any, console: Console) -> None:
    page = new_page(browser, console)
    page.goto(server.url + "/")
    bots = page.get_by_test_id("choose-bot")
    expect(bots.locator('option[value="hard"]')).to_have_text("Hard (searches about 1 s a move)")
    expect(bots.locator('option[value="policy-barrage"]')).to_have_text(
        "Policy-Barrage (a learned policy, Stratego Barrage only)")
    rules = page.get_by_test_id("choose-rules")
    expect(rules.locator('option[value="classic"]')).to_have_text("Classic web rules")
    locked = page.get_by_test_id("rules-locked")
    expect(locked).to_be_hidden()

    bots.select_option("policy-barrage")
    expect(locked).to_have_text(
        "Policy-Barrage plays Classic web rules + Stratego Barrage only.")
    expect(rules.locator('option[value="milton-bradley-1961"]')).to_be_disabled()
    expect(rules.locator('option[value="classic"]')).to_be_enabled()
    variants = page.get_by_test_id("choose-variants")
    expect(variants.get_by_label("Stratego Barrage")).to_be_enabled()
    expect(variants.get_by_label("Stratego Duel")).to_be_disabled()
    # A friend plays any rules; back to a bot of any rules, all of them again.
    page.get_by_label("a friend").check()
    expect(locked).to_be_hidden()
    expect(rules.locator('option[value="milton-bradley-1961"]')).to_be_enabled()
    page.get_by_label("the bot").check()
    expect(locked).to_be_visible()
    bots.select_option("medium")
    expect(locked).to_be_hidden()
    expect(variants.get_by_label("Silent Defense")).to_be_enabled()
    # The player's own rules come back: Barrage, which the learned bot set, is unticked
    expect(variants.get_by_label("Stratego Barrage")).not_to_be_checked()
    expect(variants.get_by_label("Stratego Duel")).to_be_enabled()

    bots.select_option("hard")
    page.get_by_test_id("create").click()
    expect(page.locator("#rules")).to_have_text(
        "Classic web rules · you play red against the Hard bot")


def test_a_mistyped_address_gets_a_page_with_a_way_back(server: Server, browser: Any,
                                                       console: Console) -> None:
    page = new_page(browser, console)
    reply = page.goto(server.url + "/nonsense")
    assert reply is not None
    assert reply.status == 404
    expect(page.locator("h2")).to_have_text("This page is not here")
    expect(page.get_by_test_id("missing")).to_contain_text("no such page")
    page.get_by_test_id("lobby-link").click()
    expect(page.get_by_test_id("create")).to_be_visible()
    console.errors = [e for e in console.errors if "404" not in e]


def test_resign_waits_for_its_confirmation_only_briefly(server: Server, browser: Any,
                                                         console: Console) -> None:
    """"Yes, resign" is armed by Resign and disarmed by a click elsewhere or Escape: a
    stray click later in the game cannot end it."""
    page = _setting_up(server, browser, console)
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    confirm = page.get_by_test_id("confirm-resign")
    page.get_by_test_id("resign").click()
    expect(confirm).to_be_visible()
    page.get_by_test_id("status").click()  # anywhere else
    expect(confirm).to_be_hidden()
    page.get_by_test_id("resign").click()
    expect(confirm).to_be_focused()
    page.keyboard.press("Escape")
    expect(confirm).to_be_hidden()
    page.get_by_test_id("resign").click()
    confirm.click()
    expect(page.get_by_test_id("game-over")).to_be_visible()


def test_a_refused_paste_keeps_what_was_typed_and_a_drag_selects_no_text(
        server: Server, browser: Any, console: Console) -> None:
    page = _setting_up(server, browser, console)
    assert page.locator("#board").evaluate("(b) => getComputedStyle(b).userSelect") == "none"
    page.locator("#paste summary").click()
    text = page.get_by_test_id("setup-text")
    text.fill("garbage")
    page.get_by_test_id("use-setup").click()
    expect(page.get_by_test_id("error")).to_contain_text("setup")
    expect(text).to_have_value("garbage")  # the player may mend it
    # (and no console error: the refusal comes as a 200 carrying the error)


def test_the_paste_panel_lists_the_letters_and_a_later_save_clears_a_refused_paste(
        server: Server, browser: Any, console: Console) -> None:
    """The board and the Pieces legend show numbers, setup text letters: the paste panel
    lists them (from the payload's army, names and labels), a setup pasted in numbers is
    answered with them, and once the army is saved the refusal's error is gone (it is
    stale, as after a swap)."""
    page = _setting_up(server, browser, console)
    page.locator("#paste summary").click()
    letters = page.get_by_test_id("setup-letters")
    expect(letters).to_be_visible()
    expect(letters).to_contain_text("Letters: M Marshal (10), G General (9), C Colonel (8)")
    expect(letters).to_contain_text("X Scout (2), S Spy (1), B Bomb, F Flag;")
    page.get_by_test_id("setup-text").fill("/".join(["10" * 5] * 4))
    page.get_by_test_id("use-setup").click()
    error = page.get_by_test_id("error")
    expect(error).to_contain_text("holds the digit '1'")
    expect(error).to_have_attribute("title", re.compile(r"\(the letters: M Marshal, G General,"
                                                        r" .*, B Bomb, F Flag\)$"))
    page.get_by_test_id("setup-name").fill("Mine")
    page.get_by_test_id("save-setup").click()
    expect(page.get_by_test_id("notice")).to_have_text("Setup “Mine” saved in this browser.")
    expect(error).to_have_text("")


def test_variants_that_cannot_be_played_together_are_greyed_out_and_explained(
        server: Server, browser: Any, console: Console) -> None:
    page = new_page(browser, console)
    page.goto(server.url + "/")
    variants = page.get_by_test_id("choose-variants")
    variants.locator("summary").click()
    barrage = variants.get_by_label("Stratego Barrage")
    duel = variants.get_by_label("Stratego Duel")
    expect(duel).to_have_attribute("aria-describedby", "variant-about-duel")
    expect(page.locator("#variant-about-duel")).to_have_text(
        stratego.variants.VARIANTS["duel"].summary)
    barrage.check()
    expect(duel).to_be_disabled()
    expect(variants.locator('label:has(input[value="duel"])')).to_have_attribute(
        "title", "cannot be played with Stratego Barrage")
    expect(variants.get_by_label("Ultimate Lightning Stratego")).to_be_disabled()
    expect(variants.get_by_label("Rescue")).to_be_enabled()
    barrage.uncheck()
    expect(duel).to_be_enabled()


def test_the_move_list_shows_strikes_in_short_and_a_finished_game_reviews_face_up(
        server: Server, browser: Any, console: Console) -> None:
    """Each entry of the move list fits its column (the whole text is its tooltip); the
    two columns line up; after the game, a past position shows the opponent's army and
    the way back is to the final position."""
    state = stratego.from_position(
        "classic", {"a4": "K", "a5": "j", "j1": "F", "j10": "f", "i10": "b", "e9": "t",
                    "e1": "N"})
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)
    first = moves_of(page).first
    expect(first).to_have_text("a4xa5 6\u00d77 loses")
    expect(first).to_have_attribute("title", "red: a4xa5, Captain (6) strikes Major (7): "
                                             "defender wins")
    cells = page.get_by_test_id("moves").locator("li .side")
    widths = cells.evaluate_all("(cs) => cs.map((c) => c.getBoundingClientRect().width)")
    assert len(widths) == 2
    assert widths[0] == widths[1]  # two aligned columns
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-resign").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.get_by_test_id("review-prev").click()
    page.get_by_test_id("review-prev").click()
    expect(page.get_by_test_id("review-where")).to_have_text("Starting position")
    expect(page.get_by_test_id("live")).to_have_text("Back to the final position")
    expect(page.locator('[data-square="e9"] .piece')).to_have_attribute("data-rank", "T")


def _scout_against_a_friend_s_marshal(server: Server, browser: Any, console: Console
                                      ) -> tuple[Any, str]:
    """Red's page in a game against a friend (joined through the API) where Red's Scout on
    a4 may strike Blue's Marshal on a5, Red to move; and Blue's API path."""
    state = stratego.from_position(
        "classic", {"a4": "X", "a5": "m", "j1": "F", "j10": "f", "b5": "b", "e1": "N"})
    created = server.hub.add_game(state, opponent="human")
    page = new_page(browser, console)
    page.goto(server.url + created["url"])
    expect(status_of(page)).to_have_text("Your move (red).")
    red_base = f"/api/games/{created['game']}/{created['seat']}"
    code = server.hub.handle("GET", red_base).json()["join"].rsplit("/", 1)[1]
    blue = server.hub.join(created["game"], code)
    return page, f"/api/games/{created['game']}/{blue['seat']}"


@pytest.mark.parametrize("reply", ["a5-a6", "a5-a4"])
def test_a_defender_that_held_its_square_and_moved_on_leaves_no_ghost(
        server: Server, browser: Any, console: Console, reply: str) -> None:
    """A strike's marks stay until our next move; the defender that won and has moved on
    since is not drawn where it stood (it would look like a second piece of its rank),
    while the attacker it took leaves its faint trace, unless a piece of the other side
    has moved onto that square since (the trace would sit on that piece)."""
    from test_web import post

    page, blue_base = _scout_against_a_friend_s_marshal(server, browser, console)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(1)
    answer = post(server.hub, blue_base + "/move", {"move": reply})
    assert answer.status == 200, answer.body
    expect(moves_of(page)).to_have_count(2)  # red's page polls
    expect(page.locator('[data-square="a5"] .ghost')).to_have_count(0)
    expect(page.locator('[data-square="a5"] .strike-tag')).to_have_count(0)
    if reply == "a5-a6":
        expect(page.locator('[data-square="a4"] .ghost')).to_have_count(1)
    else:  # the Marshal stands on the Scout's square: no Scout's mark on it
        expect(page.locator('[data-square="a4"] .piece')).to_have_attribute("data-owner",
                                                                            "blue")
        expect(page.locator('[data-square="a4"] .strike-tag')).to_have_count(0)
        expect(page.locator('[data-square="a4"] .ghost')).to_have_count(0)


def test_a_strike_sounds_and_shows_its_banner_once_not_again_on_the_answer(
        server: Server, browser: Any, console: Console) -> None:
    """Our strike sounds the strike's tone when it is played; the friend's quiet answer that
    follows brings the same marks again (they stay until our next move), and sounds as a
    move, not as a second strike."""
    from test_web import post

    page, blue_base = _scout_against_a_friend_s_marshal(server, browser, console)
    page.get_by_test_id("sound-toggle").click()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
    body = page.locator("body")
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(1)
    expect(body).to_have_attribute("data-last-beep", "strike")
    beeps = int(body.get_attribute("data-beeps") or 0)
    answer = post(server.hub, blue_base + "/move", {"move": "a5-a6"})
    assert answer.status == 200, answer.body
    expect(moves_of(page)).to_have_count(2)  # red's page polls
    expect(body).to_have_attribute("data-beeps", str(beeps + 1))
    expect(body).to_have_attribute("data-last-beep", "move")
    expect(page.get_by_test_id("flash")).to_have_count(1)  # the marks stay, as they were


def test_a_rescue_decision_stays_in_its_side_s_cell_of_the_move_list(
        server: Server, browser: Any, console: Console) -> None:
    """Hasbro 2009, Rescue: the decision that follows a move to the back row is listed in
    the mover's own column, beside that move; the other side's reply stays in its column."""
    from stratego import Player, Rank

    rules = stratego.HASBRO_2009.with_variants(stratego.variants.RESCUE)
    state = stratego.from_position(
        rules, {"a9": "K", "j1": "F", "e10": "m", "j10": "f", "f10": "b"},
        captured=[(Player.RED, Rank.MINER)])
    hub = GameHub(rules=rules, bot="random", seed=1)
    with serve(hub) as rescue_server:
        page = page_at(rescue_server, browser, console, state)
        page.locator('[data-square="a9"]').click()
        page.locator('[data-square="a10"]').click()
        page.locator('[data-move="--"]').click()
        expect(moves_of(page)).to_have_count(3)
        row = page.get_by_test_id("moves").locator("li").first
        expect(row.locator(".side").nth(0).locator("[data-ply]")).to_have_count(2)
        expect(row.locator(".side").nth(0)).to_contain_text("declines")
        expect(row.locator(".side").nth(1).locator("[data-ply]")).to_have_count(1)
        # in review, the move and the decision that follows it are two positions, two names
        page.locator('[data-ply="1"]').click()
        expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red")
        page.locator('[data-ply="2"]').click()
        expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red's Rescue")
        expect(page.locator("#review-text")).to_have_text(
            "Reviewing the position after move 1 of 1, red's Rescue.")
        page.keyboard.press("Home")
        expect(page.locator("#review-text")).to_have_text(
            "Reviewing the starting position, before move 1 of 1.")


def test_stepping_through_the_review_scrolls_the_move_list_not_the_page(
        server: Server, browser: Any, console: Console) -> None:
    """Going back through a long move list keeps the reviewed move in sight by scrolling
    the list alone: the page stays where the player left it (the board must not jump)."""
    from strategies import random_playout

    rules = stratego.CLASSIC
    start = stratego.new_game(rules, stratego.random_setup(rules, stratego.Player.RED, 5),
                              stratego.random_setup(rules, stratego.Player.BLUE, 6))
    states = [s for s in random_playout(start, 5, 120)
              if s.turn == stratego.Player.RED and not s.is_over]
    state = states[-1]
    assert len(state.moves()) > 60
    page = page_at(server, browser, console, state)
    page.set_viewport_size({"width": 700, "height": 900})  # the list below the board
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollHeight > window.innerHeight")
    for _ in range(41):  # the arrow keys step through the review (a click would scroll)
        page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("review-where")).to_contain_text("After move")
    assert page.evaluate("window.scrollY") == 0
    # the reviewed move is in sight within the list, which has scrolled up to it
    inside = """() => {
        const box = document.getElementById("moves").getBoundingClientRect();
        const at = document.querySelector("#moves .current").getBoundingClientRect();
        return document.getElementById("moves").scrollTop > 0
            && at.top >= box.top - 1 && at.bottom <= box.bottom + 1;
    }"""
    assert page.evaluate(inside)
