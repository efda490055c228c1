"""What players used to game sites expect of the web game, in a real (headless) Chromium
driven by Playwright.

After playing with the mouse, the left and right arrows step through the moves (a click on
a square does not take them for the board's cursor, which a key starts); a screen reader
hears the opponent's move and a strike's result; Start pressed from the keyboard leaves
the focus on a piece that can move (or on the status while the friend sets up); "Your
games" gives each game room on a desktop; our pieces the opponent has identified are
marked and say so; a Bomb or the Flag tapped says it never moves; Undo's tooltip names no
key on a touch screen; the join page says who invites, to what rules and clock. Each waits
for what the page shows, never for a time."""

from __future__ import annotations

import re
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
    moves_of,
    new_page,
    page_at,
    play_a_move,
    setting_up,
    status_of,
    two_pages,
)

pytestmark = pytest.mark.extra("web")

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console


# (every test creates games from the same address: more than the default 10 a minute)
server = browser_support.hub_server(seed=51, create_limit=50)


def _focused_square(page: Any) -> str | None:
    value: str | None = page.evaluate(
        "() => document.activeElement && document.activeElement.dataset.square || null")
    return value


# -- 1. the arrows after the mouse -------------------------------------------------------------


def test_after_a_click_on_the_board_the_arrows_step_through_the_moves(
        server: Server, browser: Any, console: Console) -> None:
    """A move played with the mouse leaves the focus on the board, but ← and → step through
    the moves, as on a game site; ↑ (or ↓, Enter, Space) starts the board's keyboard cursor,
    and then ← and → move it, until the next click on the board. Tabbing into the board
    starts the cursor too."""
    page = setting_up(server, browser, console)
    page.get_by_test_id("start").click()
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    expect(status_of(page)).to_have_text("Your move (red).")
    clicked = _focused_square(page)
    assert clicked is not None  # the click focused a square of the board
    where = page.get_by_test_id("review-where")
    page.keyboard.press("ArrowLeft")
    expect(where).to_have_text("After move 1, red")
    page.keyboard.press("ArrowLeft")
    expect(where).to_have_text("Starting position")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(where).to_have_text("Live · 1 move")
    assert _focused_square(page) == clicked  # the cursor did not move meanwhile

    # a key of the board's own starts its cursor: the arrows move it now
    page.keyboard.press("ArrowUp")
    up = _focused_square(page)
    assert up is not None
    assert up != clicked
    page.keyboard.press("ArrowLeft" if up[0] != "a" else "ArrowRight")
    expect(page.locator(".cell:focus")).not_to_have_attribute("data-square", up)
    expect(page.get_by_test_id("review")).to_be_hidden()
    expect(where).to_have_text("Live · 1 move")

    # a click on the board gives the arrows back to the moves
    page.locator(".cell.clickable:has(.piece)").first.click()
    page.keyboard.press("ArrowLeft")
    expect(where).to_have_text("After move 1, red")
    page.keyboard.press("End")
    expect(where).to_have_text("Live · 1 move")

    # Tab into the board from the button before it: the arrows move the cursor
    page.get_by_test_id("sound-toggle").focus()
    page.keyboard.press("Tab")
    tabbed = _focused_square(page)
    assert tabbed is not None
    page.keyboard.press("ArrowRight" if tabbed[0] != "j" else "ArrowLeft")
    expect(page.locator(".cell:focus")).not_to_have_attribute("data-square", tabbed)
    expect(page.get_by_test_id("review")).to_be_hidden()


# -- 2. what a screen reader hears ------------------------------------------------------------


def test_the_opponent_s_move_and_a_strike_are_announced_politely(
        server: Server, browser: Any, console: Console) -> None:
    """The status line stays "Your move (red)." when the bot has moved: a polite live
    region says what it did, in words ("Blue moved e7-e6."), and what a strike did, naming
    the ranks the strike showed this seat."""
    page = setting_up(server, browser, console)
    said = page.get_by_test_id("announce")
    expect(said).to_have_attribute("aria-live", "polite")
    expect(said).to_have_text("")  # nothing said on arrival
    page.get_by_test_id("start").click()
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    answer = re.match(r"^blue: ([a-j]\d+)-([a-j]\d+)$",
                      moves_of(page).nth(1).get_attribute("title") or "")
    assert answer is not None
    expect(said).to_have_text(f"Blue moved {answer[1]}-{answer[2]}.")

    # Red's Major takes Blue's Captain; Blue's Sergeant answers (its only piece that moves)
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "J", "b1": "X", "e1": "F", "a5": "k", "j9": "t", "j10": "f"})
    page = page_at(server, browser, console, state)
    said = page.get_by_test_id("announce")
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)
    expect(said).to_have_text(re.compile(
        r"^Your Major \(7\) struck Blue's Captain \(6\) on a5: the attacker wins\. "
        r"Blue moved j9-[a-j]\d+\.$"))

    # Blue's Scout, boxed in by its Bomb, can only strike our Captain: and loses
    state = stratego.from_position(
        stratego.CLASSIC, {"a9": "K", "e1": "T", "j1": "F", "a10": "x", "b10": "b", "j10": "f",
                           "i10": "b", "j9": "b"})
    page = page_at(server, browser, console, state)
    said = page.get_by_test_id("announce")
    page.locator('[data-square="e1"]').click()
    page.locator('[data-square="e2"]').click()
    expect(said).to_have_text(
        "Blue's Scout (2) struck your Captain (6) on a9: the defender wins.")


# -- 3. the focus after Start --------------------------------------------------------------------


def test_start_from_the_keyboard_leaves_the_focus_on_a_piece_that_can_move(
        server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console)
    page.get_by_test_id("start").focus()
    page.keyboard.press("Enter")
    expect(status_of(page)).to_have_text("Your move (red).")
    expect(page.locator(".cell.clickable:focus:has(.piece)")).to_have_count(1)
    here = _focused_square(page)
    page.keyboard.press("Enter")  # it selects the piece: its targets show
    expect(page.locator(f'[data-square="{here}"]')).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator('[data-legal="true"]').first).to_be_visible()

    # Against a friend who has not set up yet: the focus goes to the status line
    red, _ = invite(server, browser, console)
    red.get_by_test_id("start").focus()
    red.keyboard.press("Enter")
    expect(status_of(red)).to_have_text(re.compile("^Waiting for blue"))
    expect(status_of(red)).to_be_focused()


# -- 8. Your games on a desktop -----------------------------------------------------------------


_LINES = """(node) => {
  const style = getComputedStyle(node);
  return Math.round(node.getBoundingClientRect().height / parseFloat(style.lineHeight));
}"""


def test_your_games_gives_each_game_room_on_a_desktop(
        server: Server, browser: Any, console: Console) -> None:
    """A game waiting for a friend ("Waiting for the opponent") beside one against the bot:
    the opponent's line and the rules' line of each stay whole, one line each."""
    page, _ = invite(server, browser, console)
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text(re.compile("^Waiting for blue"))
    page.goto(server.url + "/")
    page.get_by_label("the bot").check()
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    page.goto(server.url + "/")
    games = page.get_by_test_id("my-game")
    expect(games).to_have_count(2)
    waiting = games.filter(has_text="Waiting for the opponent")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("vs a friend")
    for game in games.all():
        for part in ("strong", ".detail"):
            line = game.locator(f".what {part}")
            line.evaluate("(node) => { node.style.lineHeight = '20px'; }")
            assert line.evaluate(_LINES) == 1, (game.inner_text(), part)
        box = game.bounding_box()
        state = game.get_by_test_id("my-game-state").bounding_box()
        assert box is not None
        assert state is not None
        assert state["x"] + state["width"] <= box["x"] + box["width"]


# -- 10. our pieces the opponent knows -------------------------------------------------------


def test_our_pieces_the_opponent_has_identified_are_marked(
        server: Server, browser: Any, console: Console) -> None:
    """Red's Major wins a strike, so Blue has seen it: its square carries a mark and says
    "known to the opponent"; a piece of ours Blue has not seen carries none."""
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "J", "b1": "X", "e1": "F", "a5": "k", "j9": "t", "j10": "f"})
    page = page_at(server, browser, console, state)
    major = page.locator('[data-square="a4"]')
    expect(major.locator(".piece")).not_to_have_attribute("data-known", "true")
    expect(major.locator(".known-mark")).to_have_count(0)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)
    known = page.locator('[data-square="a5"]')
    expect(known.locator(".piece")).to_have_attribute("data-known", "true")
    expect(known.locator(".known-mark")).to_be_visible()
    expect(known).to_have_attribute(
        "aria-label", re.compile(r"^Red Major \(7\) on a5, known to the opponent"))
    expect(known).to_have_attribute("title", "Red Major (7), known to the opponent")
    scout = page.locator('[data-square="b1"]')
    expect(scout).to_have_attribute("aria-label", re.compile(r"^Red Scout \(2\) on b1, can move"))
    expect(scout.locator(".known-mark")).to_have_count(0)
    expect(page.locator(".known-mark")).to_have_count(1)  # nothing on Blue's pieces


# -- 11. small texts --------------------------------------------------------------------------


def test_a_bomb_or_the_flag_never_moves_and_a_boxed_in_piece_has_no_move(
        server: Server, browser: Any, console: Console) -> None:
    state = stratego.from_position(
        stratego.CLASSIC, {"a1": "X", "a2": "B", "b1": "F", "e4": "T", "j10": "f", "j9": "t"})
    page = page_at(server, browser, console, state)
    notice = page.get_by_test_id("notice")
    page.locator('[data-square="a2"]').click()
    expect(notice).to_have_text("Bombs never move.")
    page.locator('[data-square="b1"]').click()
    expect(notice).to_have_text("The Flag never moves.")
    page.locator('[data-square="a1"]').click()
    expect(notice).to_have_text("Your Scout on a1 has no legal move.")

    # with Moving Bombs a boxed-in Bomb is only boxed in
    rules = stratego.CLASSIC.with_variants(stratego.variants.MOVING_BOMBS)
    state = stratego.from_position(
        rules, {"a1": "B", "a2": "B", "b1": "F", "e4": "T", "j10": "f", "j9": "t"})
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a1"]').click()
    expect(page.get_by_test_id("notice")).to_have_text("Your Bomb on a1 has no legal move.")


def test_undo_names_its_keys_only_where_there_is_a_keyboard(
        server: Server, browser: Any, console: Console) -> None:
    for options, title in ((PHONE, "Undo the swap of a1 and b1"),
                           ({}, re.compile(r"^Undo the swap of a1 and b1 \((Ctrl\+Z|⌘Z)\)$"))):
        page = setting_up(server, browser, console, **options)
        text = page.get_by_test_id("setup-text").input_value()
        for square in ("a1", "b1"):
            cell = page.locator(f'[data-square="{square}"]')
            cell.tap() if options else cell.click()
        expect(page.get_by_test_id("setup-text")).not_to_have_value(text)
        expect(page.get_by_test_id("setup-undo")).to_have_attribute("title", title)
        page.context.close()


def test_the_join_page_says_who_invites_to_which_rules_and_clock(
        server: Server, browser: Any, console: Console) -> None:
    """The friend's join page: Red (the one who sent the link) invites them to play Blue,
    to the rules and the time control of the game (`stratego.web.lobby.invitation`, which
    holds no setup)."""
    from stratego.web.lobby import invitation

    red = new_page(browser, console)
    red.goto(server.url + "/")
    red.get_by_label("a friend").check()
    red.get_by_test_id("choose-time").select_option("5+3")
    red.get_by_test_id("create").click()
    link = red.get_by_test_id("join-link")
    expect(link).to_have_value(re.compile(r"/join/"))
    url = link.input_value()
    gid, code = url.rsplit("/", 2)[1:]
    game = server.hub.games.get(gid)
    data = invitation(game, code)
    assert "setup" not in str(data).lower()
    friend = new_page(browser, console)
    friend.goto(url)
    expect(friend.get_by_test_id("join-invite")).to_have_text(
        "Your friend playing red invites you to play blue.")
    expect(friend.get_by_test_id("join-rules")).to_have_text("Classic web rules")
    expect(friend.get_by_test_id("join-clock")).to_have_text("5 min + 3 s")
    friend.get_by_test_id("join").click()
    expect(status_of(friend)).to_contain_text("Set up your army")


# -- 12. the end, a draw offer and the focus, from the keyboard ----------------------------------


_FOCUSED = "() => document.activeElement ? (document.activeElement.id || " \
    "document.activeElement.dataset.square || document.activeElement.tagName) : null"


def test_the_game_s_end_and_a_friend_s_draw_offer_are_announced(
        server: Server, browser: Any, console: Console) -> None:
    """docs/build-a-ui.md: the live region says "who won and how when the game ends
    ("Game over: you win. …"), and a draw the friend offers"; a button that goes away under
    the focus hands it on (Decline: to the board; the game over: to its heading)."""
    red, blue = two_pages(server, browser, console)
    said = red.get_by_test_id("announce")
    blue.get_by_test_id("offer-draw").click()
    expect(said).to_have_text("Your opponent offers a draw.")
    red.get_by_test_id("decline-draw").focus()
    red.keyboard.press("Enter")
    expect(red.get_by_test_id("draw-offer")).to_be_hidden()
    expect(red.locator(".cell:focus")).to_have_count(1)

    blue.get_by_test_id("resign").click()
    blue.get_by_test_id("confirm-resign").click()
    expect(said).to_have_text("Game over: you win. Blue resigned.")
    # our own resignation, from the keyboard: said too, the focus on the result's heading
    red, blue = two_pages(server, browser, console)
    red.get_by_test_id("resign").focus()
    red.keyboard.press("Enter")
    expect(red.get_by_test_id("confirm-resign")).to_be_focused()
    red.keyboard.press("Enter")
    expect(red.get_by_test_id("announce")).to_have_text("Game over: you lose. You resigned.")
    expect(red.get_by_test_id("result")).to_be_focused()

    # the Flag taken: the strike, then the end, in one breath
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "J", "b1": "X", "e1": "F", "a5": "f", "j9": "t"})
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(page.get_by_test_id("announce")).to_have_text(re.compile(
        r"^Your Major \(7\) struck Blue's Flag \(F\) on a5: the attacker wins\. "
        r"Game over: you win\. \S.*$"))


def test_buttons_that_go_away_under_the_focus_hand_it_on(
        server: Server, browser: Any, console: Console) -> None:
    """The focus never drops to the page's start: Enter on a move of the list keeps it
    there; ◀ at the start hands it to ▶, ▶ at the live game to ◀, "Back to the live game"
    to the board; Offer a draw, declined at once by the bot, to the board; Escape on "Yes,
    resign" back to Resign."""
    page = setting_up(server, browser, console)
    page.get_by_test_id("start").click()
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    moves_of(page).first.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red")
    expect(moves_of(page).first).to_be_focused()
    expect(moves_of(page).first).to_have_class(re.compile(r"\bcurrent\b"))

    page.get_by_test_id("review-prev").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("review-where")).to_have_text("Starting position")
    expect(page.get_by_test_id("review-next")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("review-where")).to_have_text("Live · 1 move")
    expect(page.get_by_test_id("review-prev")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("review-where")).to_have_text("After move 1, red")
    expect(page.get_by_test_id("live")).to_be_visible()  # (a hidden button takes no focus)
    page.get_by_test_id("live").focus()
    expect(page.get_by_test_id("live")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("live")).to_be_hidden()
    expect(page.locator(".cell:focus")).to_have_count(1)

    page.get_by_test_id("offer-draw").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("notice")).to_contain_text("declines")
    expect(page.get_by_test_id("offer-draw")).to_be_disabled()
    expect(page.locator(".cell:focus")).to_have_count(1)

    page.get_by_test_id("resign").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("confirm-resign")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("confirm-resign")).to_be_hidden()
    expect(page.get_by_test_id("resign")).to_be_focused()


def test_the_arrow_keys_go_through_the_presets(
        server: Server, browser: Any, console: Console) -> None:
    """A preset is placed as soon as it is chosen, and the list goes on showing it while
    the army is it: ↓ from there chooses the next one."""
    page = setting_up(server, browser, console)
    picker = page.get_by_test_id("setup-presets")
    expect(picker.locator("option")).not_to_have_count(1)
    values = picker.locator("option").evaluate_all("(os) => os.map((o) => o.value)")
    names = picker.locator("option").all_text_contents()
    picker.focus()
    for at in (1, 2, 3):
        page.keyboard.press("ArrowDown")
        expect(page.get_by_test_id("notice")).to_have_text(f"Preset “{names[at]}” placed. Undo")
        expect(picker).to_have_value(values[at])
    # a swap of two different pieces makes another army: the list no longer names a preset
    # (a swap of two alike, two Bombs say, keeps the army, and the list goes on naming it)
    text = page.get_by_test_id("setup-text").input_value()
    first = page.locator('[data-square="a1"] .piece').inner_text()
    other = next(square for square in (f"{f}{r}" for r in "1234" for f in "abcdefghij")
                 if page.locator(f'[data-square="{square}"] .piece').inner_text() != first)
    page.locator('[data-square="a1"]').click()
    page.locator(f'[data-square="{other}"]').click()
    expect(page.get_by_test_id("setup-text")).not_to_have_value(text)
    expect(picker).to_have_value("")


def test_a_swap_in_the_setup_is_announced(server: Server, browser: Any, console: Console) -> None:
    """A swap says what each square holds now, as Undo says what it took back."""
    page = setting_up(server, browser, console)
    page.locator('[data-square="a1"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("setup-history-said")).to_have_text(re.compile(
        r"^Swapped a1 and a2: the \w[\w ]* \(\w+\) now on a1, the \w[\w ]* \(\w+\) on a2\.$"))


def test_the_setup_text_and_its_file_are_named_and_reached_by_tab(
        server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console)
    page.locator("#paste summary").click()
    expect(page.get_by_role("textbox", name="The setup as text")).to_be_visible()
    page.get_by_test_id("use-setup").focus()
    page.keyboard.press("Tab")
    assert page.evaluate(_FOCUSED) == "setup-file"
    expect(page.get_by_label("Load a file")).to_be_focused()


def test_captured_pieces_are_named(server: Server, browser: Any, console: Console) -> None:
    """docs/build-a-ui.md, Names: the captured pieces' chips have an accessible name
    ("Blue Captain (6) × 1")."""
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "J", "b1": "X", "e1": "F", "a5": "k", "j9": "t", "j10": "f"})
    page = page_at(server, browser, console, state)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)
    expect(page.get_by_test_id("tray-blue").get_by_role("img", name="Blue Captain (6) × 1")) \
        .to_have_count(1)


def test_move_list_entries_are_big_enough_to_tap_on_a_phone(
        server: Server, browser: Any, console: Console) -> None:
    """WCAG 2.5.8: a target at least 24 by 24 CSS pixels (or spaced as much)."""
    page = setting_up(server, browser, console, **PHONE)
    page.get_by_test_id("start").tap()
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    for entry in moves_of(page).all():
        box = entry.bounding_box()
        assert box is not None
        assert box["height"] >= 24, box


def test_escape_closes_the_leave_box_as_stay_does(
        server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console)
    page.get_by_test_id("new-game").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("leave-no")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("leave-box")).to_be_hidden()
    expect(page.get_by_test_id("new-game")).to_be_focused()


def _two_games_at_the_start_page(server: Server, browser: Any, console: Console) -> Any:
    page = new_page(browser, console)
    page.clock.install()
    for _ in range(2):
        page.goto(server.url + "/")
        page.get_by_test_id("create").click()
        expect(status_of(page)).to_contain_text("Set up your army")
    page.goto(server.url + "/")
    expect(page.get_by_test_id("forget-game")).to_have_count(2)
    return page


def test_your_games_keep_the_focus_and_a_forget_question_when_refreshed(
        server: Server, browser: Any, console: Console) -> None:
    """The start page asks for the games' states every 20 s: the control with the focus
    keeps it, and a "Forget?" waiting for its second press still waits."""
    page = _two_games_at_the_start_page(server, browser, console)
    resume, forget = page.get_by_test_id("resume"), page.get_by_test_id("forget-game")
    resume.nth(1).focus()
    page.evaluate("() => { for (const b of document.querySelectorAll('.forget')) "
                  "b.dataset.old = 'yes'; }")
    page.clock.run_for(21_000)
    expect(page.locator(".forget[data-old]")).to_have_count(0)  # the list was made again
    expect(resume.nth(1)).to_be_focused()
    forget.first.focus()
    page.keyboard.press("Enter")
    expect(forget.first).to_have_text("Forget?")
    page.clock.run_for(21_000)
    expect(forget.first).to_be_focused()
    expect(forget.first).to_have_text("Forget?")


def test_forget_asks_aloud_and_hands_the_focus_on(
        server: Server, browser: Any, console: Console) -> None:
    """A game not over asks "Forget?" first: its button's name and the page's status say so;
    once it is forgotten the focus goes on to the next game's button."""
    page = _two_games_at_the_start_page(server, browser, console)
    forget = page.get_by_test_id("forget-game")
    forget.first.focus()
    page.keyboard.press("Enter")
    expect(forget.first).to_have_attribute("aria-label", re.compile(r"\? It is not over"))
    expect(page.get_by_test_id("my-games-said")).to_contain_text("press again")
    page.keyboard.press("Enter")
    expect(forget).to_have_count(1)
    expect(forget.first).to_be_focused()
