"""A friend who closes the tab, in a real (headless) Chromium driven by Playwright: the
remaining player's page says the opponent seems to have left, takes it back when the
friend's page is open again, and after the grace period offers to claim the win (or, before
play began, to call the game off); both seats' pages then word the ending.

The server's presence reads a fake monotonic clock the test moves by hand; each step waits
for what the page shows, never for a time.
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
    claim = red.get_by_test_id("claim")
    expect(claim).to_have_text("Call the game off")
    claim.click()
    expect(status_of(red)).to_have_text("Game aborted.")
    expect(red.get_by_test_id("result")).to_have_text("Game aborted")
    expect(red.get_by_test_id("reason")).to_have_text(
        "A player left before play began, so nobody wins or loses.")
    expect(red.get_by_test_id("download")).to_be_hidden()  # no record: play never began
    expect(red.get_by_test_id("rematch")).to_be_visible()
