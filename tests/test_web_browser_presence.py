"""A friend who closes the tab, in a real (headless) Chromium driven by Playwright: the
remaining player's page says the opponent seems to have left and how long until the game
may be claimed, takes it back when the friend's page is open again, and after the grace
period offers to claim the win (or, before play began, to call the game off); both seats'
pages then word the ending. Before play begins either player may abort the game (Abort
game, then its confirmation), and the other's page shows it. A page back from a lost
connection takes the server's clocks again.

The server's presence and clocks read a fake monotonic clock the test moves by hand; each
step waits for what the page shows, never for a time.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import browser_support
from browser_support import Console, Server, expect, invite, new_page, status_of, two_pages

pytestmark = pytest.mark.extra("web")

browser = browser_support.browser
console = browser_support.console


_FakeTime = browser_support.FakeTime
fake_time = browser_support.fake_time
server = browser_support.timed_hub_server(seed=5)


def test_a_friend_who_left_is_shown_and_the_win_claimed(
        server: Server, fake_time: _FakeTime, browser: Any, console: Console) -> None:
    red, blue = two_pages(server, browser, console)
    presence = red.get_by_test_id("presence")
    expect(presence).to_be_hidden()
    blue_url = blue.url
    blue.context.close()  # Blue closes the tab: no more polls
    fake_time.now += 30
    expect(presence).to_be_visible()
    expect(presence).to_contain_text(
        "Your opponent seems to have left (no contact for 30 s).")
    expect(red.get_by_test_id("claim")).to_be_hidden()  # not yet: the grace period runs
    wait = red.get_by_test_id("presence-wait")
    expect(wait).to_have_text("You may claim the win in 90 s.")  # and ends then
    fake_time.now += 34
    expect(wait).to_have_text("You may claim the win in 56 s.")
    back = new_page(browser, console)  # Blue is back: the notice goes
    back.goto(blue_url)
    expect(status_of(back)).to_have_text("Waiting for red to move.")
    expect(presence).to_be_hidden()
    back.context.close()
    fake_time.now += 125
    claim = red.get_by_test_id("claim")
    expect(claim).to_be_visible()
    expect(claim).to_have_text("Claim the win")
    expect(presence).to_contain_text("(no contact for 2 min)")
    expect(wait).to_be_hidden()
    claim.click()
    expect(red.get_by_test_id("game-over")).to_be_visible()
    expect(status_of(red)).to_have_text("Game over.")
    expect(red.get_by_test_id("result")).to_have_text("You win")
    expect(red.get_by_test_id("reason")).to_have_text(
        "Your opponent left the game, and you claimed the win.")
    expect(presence).to_be_hidden()
    expect(red.get_by_test_id("download")).to_be_visible()
    game = re.search(r"/play/([^/]+)/", red.url)
    assert game is not None
    again = new_page(browser, console)  # Blue, back later, sees it too
    again.goto(blue_url)
    expect(again.get_by_test_id("result")).to_have_text("You lose")
    expect(again.get_by_test_id("reason")).to_have_text(
        "You left the game, and your opponent claimed the win.")
    red.goto(server.url + "/")
    line = red.locator(f'[data-testid="my-game"][data-game="{game[1]}"]')
    expect(line.get_by_test_id("my-game-state")).to_have_text("You won")


def test_a_friend_who_left_during_the_setup_lets_the_game_be_called_off(
        server: Server, fake_time: _FakeTime, browser: Any, console: Console) -> None:
    red, link = invite(server, browser, console)
    red.get_by_test_id("start").click()
    blue = new_page(browser, console)
    blue.goto(link)
    blue.get_by_test_id("join").click()
    expect(status_of(blue)).to_contain_text("Set up your army")
    expect(status_of(red)).to_have_text("Waiting for blue to finish the setup.")
    blue.context.close()  # Blue leaves during its setup
    fake_time.now += 130
    expect(red.get_by_test_id("presence-wait")).to_be_hidden()  # the grace period is over
    claim = red.get_by_test_id("claim")
    expect(claim).to_have_text("Call the game off")
    claim.click()
    expect(status_of(red)).to_have_text("Game aborted.")
    expect(red.get_by_test_id("result")).to_have_text("Game aborted")
    expect(red.get_by_test_id("reason")).to_have_text(
        "Play never began, so nobody wins or loses.")
    expect(red.get_by_test_id("download")).to_be_hidden()  # no record: play never began
    expect(red.get_by_test_id("rematch")).to_be_visible()


def test_either_player_may_abort_the_game_before_play_begins(
        server: Server, browser: Any, console: Console) -> None:
    """Blue, who joined and is still setting up while Red waits, aborts: "Abort game" asks
    once more ("Yes, abort the game", disarmed by Escape), then the game is called off for
    both: Red's page, waiting for Blue, shows it on its next poll."""
    red, link = invite(server, browser, console)
    expect(red.get_by_test_id("abort")).to_be_visible()  # (alone at the table, too)
    red.get_by_test_id("start").click()
    expect(status_of(red)).to_have_text("Waiting for blue to join: send them the join link.")
    expect(red.get_by_test_id("abort")).to_be_visible()  # waiting, too
    blue = new_page(browser, console)
    blue.goto(link)
    blue.get_by_test_id("join").click()
    expect(status_of(blue)).to_contain_text("Set up your army")
    expect(status_of(red)).to_have_text("Waiting for blue to finish the setup.")
    confirm = blue.get_by_test_id("confirm-abort")
    expect(confirm).to_be_hidden()
    blue.get_by_test_id("abort").click()
    expect(confirm).to_be_focused()
    blue.keyboard.press("Escape")
    expect(confirm).to_be_hidden()
    expect(status_of(blue)).to_contain_text("Set up your army")  # nothing happened
    blue.get_by_test_id("abort").click()
    confirm.click()
    for page in (blue, red):
        expect(status_of(page)).to_have_text("Game aborted.")
        expect(page.get_by_test_id("result")).to_have_text("Game aborted")
        expect(page.get_by_test_id("reason")).to_have_text(
            "Play never began, so nobody wins or loses.")
        expect(page.get_by_test_id("abort")).to_be_hidden()
        expect(page.get_by_test_id("download")).to_be_hidden()


def test_a_page_back_from_a_lost_connection_shows_the_server_s_clocks(
        server: Server, fake_time: _FakeTime, browser: Any, console: Console) -> None:
    """While the server cannot be reached the page counts the running clock down by
    itself; the server's clock is another (here it charged Red a minute meanwhile; a
    server that was down charges nobody for its downtime). Back in touch, the page asks
    for the whole payload once, so it shows the server's clock again, though nothing
    else changed (the game's version is the same)."""
    created = server.hub.create({"time": "5+3"})
    seat = f"/api/games/{created['game']}/{created['seat']}"
    started = server.hub.handle("POST", seat + "/start", body=b"",
                                headers={"content-type": "application/json"}).json()
    assert started["clock"]["running"] == "red"
    page = new_page(browser, console)
    page.goto(server.url + created["url"])
    clock = page.get_by_test_id("clock-red")
    expect(clock).to_have_text(re.compile(r"^(4:5\d|5:00)$"))
    page.route(re.compile(r"/api/games/[^/]+/[^/?]+\?"), lambda route: route.abort())
    expect(page.get_by_test_id("connection")).to_be_visible()
    fake_time.now += 60  # the server's clock and the page's part
    expect(clock).to_have_text(re.compile(r"^(4:5\d|5:00)$"))
    page.unroute(re.compile(r"/api/games/[^/]+/[^/?]+\?"))
    expect(page.get_by_test_id("connection")).to_be_hidden()
    expect(clock).to_have_text(re.compile(r"^(4:00|3:[0-5]\d)$"))
    console.errors = [e for e in console.errors if "Failed to load resource" not in e]
