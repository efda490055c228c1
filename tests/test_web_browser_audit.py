"""The web game after a player's audit, in a real (headless) Chromium: the invitation
opened again after joining, a refused move said once and above the board, the friend's
rematch request announced, the start page's choices remembered, the words and tints of a
touch screen, and on a phone a draw offer shown above the board. Each waits for what the
page shows, never for a time.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import browser_support
from browser_support import Console, Server, expect, new_page, play_a_move, status_of
from test_web import post, two_people

pytestmark = pytest.mark.extra("web")

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console


# one move per seat a minute: the second move of a seat meets the limit at once
server = browser_support.hub_server(seed=21, bot="random", move_limit=1)


def _in_view(page: Any, test_id: str) -> bool:
    box = page.get_by_test_id(test_id).bounding_box()
    height = page.evaluate("() => window.innerHeight")
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_the_seat_is_kept_as_soon_as_the_friend_joins(
        server: Server, browser: Any, console: Console) -> None:
    """The friend's browser keeps its new seat when the join answers, before the game's
    page has loaded: the invitation opened again at once (here the game's page never
    came: a blank page stands in for it) goes to the seat, not to "two players"."""
    created = post(server.hub, "/api/games", {"opponent": "human"}).json()
    link = server.url + server.hub.handle(
        "GET", f"/api/games/{created['game']}/{created['seat']}").json()["join"]
    friend = new_page(browser, console)
    friend.goto(link)
    plays = re.compile(r"/play/")
    friend.route(plays, lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>…</title>"))
    friend.get_by_test_id("join").click()
    expect(friend).to_have_url(plays)
    seat = friend.url
    friend.unroute(plays)
    friend.goto(link)
    expect(friend).to_have_url(seat)
    expect(status_of(friend)).to_contain_text("Set up your army")


def test_a_friend_who_opens_the_used_invitation_again_is_taken_back_to_the_game(
        server: Server, browser: Any, console: Console) -> None:
    """The friend joins by the link, then opens the link again in the same browser: the
    page (200, no console error) goes to the friend's seat. A stranger opening the link
    reads that the game has its two players, with a link to the start page."""
    created = post(server.hub, "/api/games", {"opponent": "human"}).json()
    link = server.url + server.hub.handle(
        "GET", f"/api/games/{created['game']}/{created['seat']}").json()["join"]
    friend = new_page(browser, console)
    friend.goto(link)
    friend.get_by_test_id("join").click()
    expect(friend).to_have_url(re.compile(r"/play/"))
    seat = friend.url
    assert created["seat"] not in seat
    reply = friend.goto(link)
    assert reply is not None
    assert reply.status == 200
    expect(friend).to_have_url(seat)
    expect(status_of(friend)).to_contain_text("Set up your army")

    stranger = new_page(browser, console)
    stranger.goto(link)
    expect(stranger.get_by_test_id("used-link")).to_be_visible()
    expect(stranger.get_by_test_id("used-link")).to_contain_text("already has two players")
    expect(stranger.get_by_test_id("join")).to_be_hidden()
    stranger.get_by_test_id("lobby-link").click()
    expect(stranger.get_by_test_id("create")).to_be_visible()


def test_a_refused_move_shows_above_the_board_and_says_its_wait_once(
        server: Server, browser: Any, console: Console) -> None:
    """A move over the rate limit (1 a minute here) is refused with its wait said once
    ("try again in 60 s", not twice), in the line above the board, in view."""
    page = new_page(browser, console)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    page.get_by_test_id("start").click()
    play_a_move(page)
    play_a_move(page)
    error = page.get_by_test_id("error")
    expect(error).to_have_text(re.compile(r"^too many moves from this seat: try again in "
                                          r"\d+ s$"))
    assert _in_view(page, "error")
    board = page.get_by_test_id("board").bounding_box()
    box = error.bounding_box()
    assert board is not None
    assert box is not None
    assert box["y"] < board["y"]
    console.errors = [e for e in console.errors if "429" not in e]  # a real refusal


def test_a_rematch_asked_by_the_friend_is_announced(server: Server, browser: Any,
                                                   console: Console) -> None:
    """When the friend asks for the rematch first, the page says "Your opponent wants a
    rematch." (and beeps, sound being on), as a draw offer shows; the button then opens
    it."""
    red, blue = two_people(server.hub)
    post(server.hub, red + "/resign")
    page = new_page(browser, console)
    page.goto(server.url + blue.replace("/api/games/", "/play/"))
    page.evaluate("() => localStorage.setItem('stratego.sound.v1', 'on')")
    expect(page.get_by_test_id("result")).to_have_text("You win")
    expect(page.get_by_test_id("notice")).to_be_hidden()
    beeps = page.evaluate("() => Number(document.body.dataset.beeps || 0)")
    post(server.hub, red + "/rematch")
    expect(page.get_by_test_id("notice")).to_have_text("Your opponent wants a rematch.")
    expect(page.get_by_test_id("rematch")).to_have_text("Play the rematch")
    assert page.evaluate("() => Number(document.body.dataset.beeps || 0)") == beeps + 1


def test_the_start_page_remembers_the_last_choices(server: Server, browser: Any,
                                                  console: Console) -> None:
    """Bot, colour, rules, variants and clock chosen on the start page come back on the
    next visit in the same browser (and the rules list opens with the classic web rules)."""
    page = new_page(browser, console)
    page.goto(server.url + "/")
    rules = page.get_by_test_id("choose-rules")
    expect(rules.locator("option").first).to_have_text("Classic web rules")
    bots = page.get_by_test_id("choose-bot").locator("option")
    expect(bots).not_to_have_count(0)
    chosen = page.get_by_test_id("choose-bot").input_value()
    last_bot = page.evaluate(  # another bot, one that plays every rules
        """(chosen) => [...document.querySelectorAll('#bot option')]
             .filter((o) => o.value !== chosen && !o.textContent.includes(' only'))
             .pop().value""", chosen)
    page.get_by_test_id("choose-bot").select_option(last_bot)
    page.get_by_test_id("choose-colour").get_by_label("blue").check()
    rules.select_option("jumbo-2014")
    page.get_by_test_id("choose-time").select_option("5+3")
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    page.goto(server.url + "/")
    expect(page.get_by_test_id("choose-bot")).to_have_value(last_bot)
    expect(page.get_by_test_id("choose-colour").get_by_label("blue")).to_be_checked()
    expect(rules).to_have_value("jumbo-2014")
    expect(page.get_by_test_id("choose-time")).to_have_value("5+3")
    page.get_by_label("a friend").check()  # a change is kept without a game made
    page.reload()
    expect(page.get_by_label("a friend")).to_be_checked()
    expect(page.get_by_test_id("choose-bot")).to_be_hidden()


def test_a_touch_screen_says_tap_and_keeps_no_hover_tint(server: Server, browser: Any,
                                                        console: Console) -> None:
    """The setup help says "tap" on a touch screen and "click" with a mouse; the tint of
    a square under the pointer applies only where the pointer hovers."""
    hint = ".hint .press"
    phone = new_page(browser, console, viewport={"width": 390, "height": 844}, is_mobile=True,
                  has_touch=True)
    phone.goto(server.url + "/")
    phone.get_by_test_id("create").tap()
    expect(status_of(phone)).to_contain_text("Set up your army: pick two of your pieces")
    expect(phone.locator(hint)).to_have_text("tap")
    media = phone.evaluate("""() => {
        for (const sheet of document.styleSheets) for (const rule of sheet.cssRules) {
          if (rule.media && [...rule.cssRules].some(
                (r) => r.selectorText === ".cell.clickable:hover")) return rule.conditionText;
          if (rule.selectorText === ".cell.clickable:hover") return "none";
        }
        return null;
      }""")
    assert media == "(hover: hover)"
    desk = new_page(browser, console)
    desk.goto(server.url + "/")
    desk.get_by_test_id("create").click()
    expect(desk.locator(hint)).to_have_text("click")


def test_on_a_phone_a_draw_offer_shows_above_the_board(server: Server, browser: Any,
                                                      console: Console) -> None:
    """At 390x844 the panel is below the board: the friend's draw offer is said in a line
    above the board, in view without scrolling, and its button brings the answer into
    view. On a wide screen that line is not shown (the panel is beside the board)."""
    red, blue = two_people(server.hub)
    phone = new_page(browser, console, viewport={"width": 390, "height": 844}, is_mobile=True,
                  has_touch=True)
    phone.goto(server.url + blue.replace("/api/games/", "/play/"))
    expect(status_of(phone)).to_have_text("Waiting for red to move.")
    expect(phone.get_by_test_id("board-note")).to_be_hidden()
    assert not _in_view(phone, "draw-offer")
    post(server.hub, red + "/offer-draw")
    note = phone.get_by_test_id("board-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Your opponent offers a draw.")
    assert _in_view(phone, "board-note")
    phone.get_by_test_id("board-note-go").tap()
    expect(phone.get_by_test_id("accept-draw")).to_be_in_viewport()
    wide = new_page(browser, console)
    wide.goto(server.url + blue.replace("/api/games/", "/play/"))
    expect(wide.get_by_test_id("draw-offer")).to_be_visible()
    expect(wide.get_by_test_id("board-note")).to_be_hidden()
