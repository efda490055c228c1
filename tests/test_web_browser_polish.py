"""What a player's audit of the web game asked for, in a real (headless) Chromium driven
by Playwright.

A "Pieces" legend says what each rank's label means, how many of it an army has and, in
play, how many of the opponent's are not known to be captured; between two people, the
setup says when the friend joined and when they pressed Start; the tab's title says when
a draw is offered or the friend asks for a rematch; on a phone a finished game's result
shows above the board; the start page shows bots and rules in a player's words and gives
back the player's own rules after a bot that plays only Barrage; against the bot the
player's own move (and its strike) is drawn before the bot's reply, with reduced motion too;
a losing attacker is seen on its target before it goes, showing no rank its viewer did not
know; the armies differ in grey, not by hue alone, and the strike ring and the keyboard's
cursor on a blue piece stand out from what they sit on by 3:1 at least; the review counts in
the move list's moves only; the rematch says the colours are swapped. Each waits for what
the page shows, never for a time."""

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
    contrast,
    expect,
    greys,
    invite,
    moves_of,
    new_page,
    page_at,
    play_a_move,
    rgb,
    setting_up,
    status_of,
    two_pages,
)
from stratego.svg import COLORS

pytestmark = pytest.mark.extra("web")

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console


# (every test creates games from the same address: more than the default 10 a minute)
server = browser_support.hub_server(seed=52, create_limit=50)


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


# -- 6. the bot's reply after the player's own move ------------------------------------------

# Every change of the page, as what the test reads of it: the moves listed, the pieces on
# a4, a5 and j9, the strike tags and banner, the status, how many squares take a click,
# whether the top bar is to move, whether the page is busy, the tab's title.
_TIMELINE = """() => {
  window.timeline = [];
  const at = (square) => {
    const piece = document.querySelector(`[data-square="${square}"] .piece`);
    return piece ? piece.dataset.owner + (piece.dataset.rank || "") : "";
  };
  const take = () => {
    const shot = {
      plies: document.querySelectorAll("#moves [data-ply]").length,
      a4: at("a4"), a5: at("a5"), j9: at("j9"),
      tags: [...document.querySelectorAll(".strike-tag")]
        .map((tag) => `${tag.parentElement.dataset.square}:${tag.textContent}`).sort(),
      banner: document.getElementById("banner").textContent,
      status: document.getElementById("status").textContent,
      clickable: document.querySelectorAll(".cell.clickable, [data-legal]").length,
      topToMove: document.getElementById("bar-top").classList.contains("to-move"),
      busy: document.body.classList.contains("busy"),
      title: document.title,
    };
    const last = window.timeline[window.timeline.length - 1];
    if (!last || JSON.stringify(last) !== JSON.stringify(shot)) window.timeline.push(shot);
  };
  take();
  new MutationObserver(take).observe(document.body,
    { subtree: true, childList: true, attributes: true, characterData: true });
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_player_s_move_and_its_strike_show_before_the_bot_s_reply(
        server: Server, browser: Any, console: Console, motion: str) -> None:
    """Red's Major (7) takes Blue's Captain (6); the bot's Sergeant answers. The answer
    holds both turns: the page first draws Red's alone (the Major on a5, the strike's
    marks and banner), the bot's turn shown (its bar to move, nothing to click, the page
    busy), and only then the bot's reply, with reduced motion as well."""
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "J", "b1": "X", "e1": "F", "a5": "k", "j9": "t", "j10": "f"})
    page = page_at(server, browser, console, state, reduced_motion=motion)
    page.evaluate(_TIMELINE)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)
    expect(status_of(page)).to_have_text("Your move (red).")
    timeline = page.evaluate("window.timeline")
    ours = next(i for i, shot in enumerate(timeline) if shot["plies"] == 1)
    reply = next(i for i, shot in enumerate(timeline) if shot["plies"] == 2)
    assert ours < reply
    drawn = timeline[ours]
    assert (drawn["a4"], drawn["a5"], drawn["j9"]) == ("", "redJ", "blue")  # not answered yet
    assert drawn["tags"] == ["a4:7", "a5:6"]
    assert drawn["banner"] == "7 strikes 6: attacker wins"
    assert drawn["status"] == "The Medium bot is thinking…"
    assert (drawn["clickable"], drawn["topToMove"], drawn["busy"]) == (0, True, True)
    assert drawn["title"] == "Stratego"
    for shot in timeline[ours:reply]:  # the whole pause long: the bot's turn, no reply
        assert (shot["plies"], shot["j9"], shot["clickable"], shot["busy"]) == (1, "blue", 0, True)
    answered = timeline[reply]
    assert answered["j9"] == ""  # the Sergeant moved
    # a screen reader hears both turns, with the reply
    expect(page.get_by_test_id("announce")).to_have_text(re.compile(
        r"^Your Major \(7\) struck Blue's Captain \(6\) on a5: the attacker wins\. "
        r"Blue moved j9-[a-j]\d+\.$"))


def test_a_quiet_move_too_is_drawn_before_the_bot_s_reply(
        server: Server, browser: Any, console: Console) -> None:
    """A game from the start page, by the helpers every test plays with: the first move is
    listed (as played, not as sent) before the bot's."""
    page = setting_up(server, browser, console)
    page.get_by_test_id("start").click()
    page.evaluate(_TIMELINE)
    play_a_move(page)
    expect(moves_of(page)).to_have_count(2)
    expect(status_of(page)).to_have_text("Your move (red).")
    plies = [shot["plies"] for shot in page.evaluate("window.timeline")]
    assert 1 in plies
    assert plies.index(1) < plies.index(2)


# -- 7. a losing attacker reaches its target --------------------------------------------------

# Each losing attacker's copy as it comes on the board (once each): the square it is on,
# its owner, the rank it shows (none for a piece whose rank its viewer does not know), its
# text, where it came from, and how many moves the list held then.
_LUNGES = """() => {
  window.lunges = [];
  const seen = new WeakSet();
  new MutationObserver(() => {
    for (const mark of document.querySelectorAll("#grid .lunge")) {
      if (seen.has(mark)) continue;
      seen.add(mark);
      window.lunges.push({ square: mark.parentElement.dataset.square,
        owner: mark.dataset.owner, rank: mark.dataset.rank || null,
        text: mark.textContent, from: mark.dataset.from,
        plies: document.querySelectorAll("#moves [data-ply]").length });
    }
  }).observe(document.getElementById("grid"), { subtree: true, childList: true });
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_losing_attacker_reaches_its_target_before_it_goes(
        server: Server, browser: Any, console: Console, motion: str) -> None:
    """Red's Captain strikes Blue's Bomb: the Captain is seen on the Bomb's square, in
    Red's turn (before the bot's reply), then gone. Blue's Scout, boxed in, can only strike
    Red's Captain, and loses: it is seen on the Captain's square, as Red saw it (a blue
    piece of no rank: the strike's tag says the rank, the copy names none), after Red's
    move, then gone. With reduced motion it shows there, still, as briefly."""
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "K", "b1": "X", "e1": "F", "a5": "b", "j9": "t", "j10": "f"})
    page = page_at(server, browser, console, state, reduced_motion=motion)
    page.evaluate(_LUNGES)
    page.locator('[data-square="a4"]').click()
    page.locator('[data-square="a5"]').click()
    expect(moves_of(page)).to_have_count(2)
    expect(page.locator("#grid .lunge")).to_have_count(0)  # gone
    assert page.evaluate("window.lunges") == [
        {"square": "a5", "owner": "red", "rank": "K", "text": "6", "from": "a4", "plies": 1}]
    expect(page.locator('[data-square="a5"] .piece')).to_have_attribute("data-owner", "blue")
    expect(page.locator('[data-square="a4"] .piece')).to_have_count(0)

    state = stratego.from_position(
        stratego.CLASSIC, {"a9": "K", "e1": "T", "j1": "F", "a10": "x", "b10": "b", "j10": "f",
                           "i10": "b", "j9": "b"})
    page = page_at(server, browser, console, state, reduced_motion=motion)
    page.evaluate(_LUNGES)
    page.locator('[data-square="e1"]').click()
    page.locator('[data-square="e2"]').click()
    expect(moves_of(page)).to_have_count(2)
    expect(moves_of(page).nth(1)).to_have_attribute(
        "title", "blue: a10xa9, Scout (2) strikes Captain (6): defender wins")
    expect(page.locator("#grid .lunge")).to_have_count(0)
    assert page.evaluate("window.lunges") == [
        {"square": "a9", "owner": "blue", "rank": None, "text": "", "from": "a10", "plies": 2}]
    expect(page.locator('[data-square="a9"] .piece')).to_have_attribute("data-rank", "K")


# -- 8. the armies and the rings, beyond hue ---------------------------------------------------


def test_the_armies_differ_in_grey_not_by_hue_alone(
        server: Server, browser: Any, console: Console) -> None:
    """A piece of Red's and the same of Blue's, on the same square, seen without hue (grey
    levels): a colour-blind player tells them apart, a part of one differing clearly from
    the other."""
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "K", "b1": "X", "e1": "F", "a5": "b", "j9": "t", "j10": "f"})
    page = page_at(server, browser, console, state)
    page.evaluate("""() => {
      const copy = document.querySelector('[data-square="a4"] .piece').cloneNode(true);
      document.querySelector('[data-square="a7"]').appendChild(copy);
    }""")
    copy = page.locator('[data-square="a7"] .piece')
    pictures = []
    for owner in ("red", "blue"):
        copy.evaluate(f"(piece) => {{ piece.dataset.owner = '{owner}'; }}")
        pictures.append(greys(copy.screenshot()))
    red, blue = pictures
    assert (len(red), len(red[0])) == (len(blue), len(blue[0]))
    apart = sum(1 for a, b in zip(red, blue, strict=True) for x, y in zip(a, b, strict=True)
                if abs(x - y) >= 60)
    assert apart >= 0.03 * len(red) * len(red[0]), (apart, len(red) * len(red[0]))


_GROUNDS = (COLORS["light"], COLORS["dark"], COLORS["last-move"])
"""What a ring on a square sits on: the light and dark squares, the last move's yellow."""


def _bands(shadow: str) -> list[str]:
    """The colours of the inset rings of a computed box-shadow, the outermost first."""
    return [found[1] for found in re.finditer(r"(rgba?\([^)]*\))[^,]*?inset", shadow)]


def _piece_colours(page: Any, square: str) -> list[str]:
    """The colours of the piece on `square` next to a ring: its fill (the gradient's
    colours, the white corner mark apart) and its edge."""
    image, edge = page.locator(f'[data-square="{square}"] .piece').evaluate(
        "(p) => [getComputedStyle(p).backgroundImage, getComputedStyle(p).borderTopColor]")
    fill = [c for c in re.findall(r"rgba?\([^)]*\)", image)
            if rgb(c) != (255, 255, 255) and not c.startswith("rgba(0, 0, 0, 0")]
    assert len(fill) >= 2, image
    return [*fill, edge]


def _stands_out(outer: str, inner: str, piece: list[str]) -> None:
    """A ring of two bands: the outer stands out from every square by 3:1 at least, the
    inner from the piece inside it."""
    for ground in _GROUNDS:
        assert contrast(rgb(outer), rgb(ground)) >= 3, (outer, ground)
    for colour in piece:
        assert contrast(rgb(inner), rgb(colour)) >= 3, (inner, colour)


def test_the_strike_ring_and_the_keyboard_cursor_stand_out_on_a_blue_piece(
        server: Server, browser: Any, console: Console) -> None:
    """WCAG's 3:1 for what is not text, computed from the page's styles: the strike's ring
    on the square of a blue piece (pulsing, at rest, and under reduced motion) and the
    keyboard's cursor on one."""
    state = stratego.from_position(
        stratego.CLASSIC, {"a4": "K", "b1": "X", "e1": "F", "a5": "b", "j9": "t", "j10": "f"})
    for motion in ("no-preference", "reduce"):
        page = page_at(server, browser, console, state, reduced_motion=motion)
        page.locator('[data-square="a4"]').click()
        page.locator('[data-square="a5"]').click()  # the Captain loses to the Bomb
        expect(moves_of(page)).to_have_count(2)
        cell = page.locator('[data-square="a5"]')
        expect(cell).to_have_class(re.compile(r"\bstruck\b"))
        expect(cell.locator(".piece")).to_have_attribute("data-owner", "blue")
        piece = _piece_colours(page, "a5")
        if motion == "reduce":
            expect(cell).to_have_class(re.compile(r"\bfresh\b"))
            bands = _bands(cell.evaluate("(c) => getComputedStyle(c).boxShadow"))
            _stands_out(bands[0], bands[-1], piece)
            continue
        frames = cell.evaluate("""(c) => c.getAnimations()
            .flatMap((a) => a.effect.getKeyframes()).map((k) => k.boxShadow)""")
        assert len(frames) == 2, frames  # the pulse, from and to
        for frame in frames:
            bands = _bands(frame)
            _stands_out(bands[0], bands[-1], piece)
        expect(cell).not_to_have_class(re.compile(r"\bfresh\b"))  # at rest (4 s on)
        bands = _bands(cell.evaluate("(c) => getComputedStyle(c).boxShadow"))
        _stands_out(bands[0], bands[-1], piece)

        # the keyboard's cursor, brought from a piece of ours onto the blue Flag
        page.get_by_test_id("sound-toggle").focus()
        page.keyboard.press("Tab")
        start = page.evaluate("document.activeElement.dataset.square")
        assert start is not None
        for _ in range(9 - "abcdefghij".index(start[0])):
            page.keyboard.press("ArrowRight")
        for _ in range(10 - int(start[1:])):
            page.keyboard.press("ArrowUp")
        flag = page.locator('[data-square="j10"]')
        expect(page.locator(".cell:focus-visible")).to_have_attribute("data-square", "j10")
        expect(flag.locator(".piece")).to_have_attribute("data-owner", "blue")
        outline, shadow = flag.evaluate(
            "(c) => [getComputedStyle(c).outlineColor, getComputedStyle(c).boxShadow]")
        # the cursor's edge is its outline, its inner band an inset ring
        _stands_out(outline, _bands(shadow)[-1], _piece_colours(page, "j10"))


# -- 9. the review's words --------------------------------------------------------------------


def test_the_review_counts_in_moves_as_the_move_list_does(
        server: Server, browser: Any, console: Console) -> None:
    """The review's line and its sentence say "move" as the list numbers moves (a move of
    each side), never "turn" beside it."""
    page = setting_up(server, browser, console)
    page.get_by_test_id("start").click()
    for count in (2, 4):
        play_a_move(page)
        expect(moves_of(page)).to_have_count(count)
    page.locator('[data-ply="3"]').click()
    expect(page.get_by_test_id("review-where")).to_have_text("After move 2, red")
    text = page.get_by_test_id("review")
    expect(text).to_have_text("Reviewing the position after move 2 of 2, red.")
    page.get_by_test_id("review-prev").click()
    expect(text).to_have_text("Reviewing the position after move 1 of 2, blue.")
    page.keyboard.press("Home")
    expect(text).to_have_text("Reviewing the starting position, before move 1 of 2.")
    assert "turn" not in (text.text_content() or "")


# -- 10. the rematch swaps the colours, and says so -----------------------------------------


def test_the_rematch_says_the_colours_are_swapped(
        server: Server, browser: Any, console: Console) -> None:
    """Where the rematch is offered ("Rematch: you play blue this time.") and on the
    rematch's page once (not again on a reload); between two people, each in their own
    colour."""
    page = setting_up(server, browser, console)
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    _resign(page)
    expect(page.get_by_test_id("rematch-colour")).to_have_text(
        "Rematch: you play blue this time.")
    page.get_by_test_id("rematch").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    expect(page.locator("#rules")).to_contain_text("you play blue")
    expect(page.get_by_test_id("notice")).to_have_text("Rematch: you play blue this time.")
    page.reload()
    expect(status_of(page)).to_contain_text("Set up your army")
    expect(page.get_by_test_id("notice")).to_be_hidden()

    red, blue = two_pages(server, browser, console)
    _resign(red)
    expect(status_of(blue)).to_have_text("Game over.")
    expect(blue.get_by_test_id("rematch-colour")).to_have_text(
        "Rematch: you play red this time.")
    red.get_by_test_id("rematch").click()
    expect(red.get_by_test_id("notice")).to_have_text("Rematch: you play blue this time.")
    expect(blue.get_by_test_id("rematch")).to_have_text("Play the rematch")
    blue.get_by_test_id("rematch").click()
    expect(blue.locator("#rules")).to_contain_text("you play red")
    expect(blue.get_by_test_id("notice")).to_have_text("Rematch: you play red this time.")
