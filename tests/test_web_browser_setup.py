"""Undo and redo while setting up, in a real (headless) Chromium driven by Playwright.

Every change of the army before Start (a swap, a random setup, a preset, a saved setup, a
pasted text) can be taken back with Undo (`setup-undo`, Ctrl+Z or Cmd+Z outside a text
field) and made again with Redo (`setup-redo`, Ctrl+Shift+Z or Ctrl+Y), several steps deep;
each goes to the server as setup text, so the game starts from the army the page shows.
The notice of a placed preset or saved setup offers the Undo. The history is the page's,
for one seat: the other seat's page never changes with it, and Start ends it. Each test
waits for what the page (or the server) shows, never for a time."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import pytest

import browser_support
from browser_support import (
    PHONE,
    Console,
    Server,
    expect,
    invite,
    new_page,
    setting_up,
    status_of,
)

pytestmark = pytest.mark.extra("web")

# The browser test modules' own fixtures: a Chromium for this module's pages, and no
# console error on any page.
browser = browser_support.browser
console = browser_support.console


# (every test creates games from the same address: more than the default 10 a minute)
server = browser_support.hub_server(seed=41, create_limit=50)


class Army(NamedTuple):
    """What a setup page shows: each home square's text (the rank's label) and the setup
    text."""

    cells: dict[str, str]
    text: str


def _api_base(page: Any) -> str:
    """``/api/games/<game>/<seat>`` of the game page `page` shows."""
    match = re.search(r"/play/([^/]+)/([^/?#]+)", page.url)
    assert match is not None, page.url
    return f"/api/games/{match[1]}/{match[2]}"


def _server(page: Any, path: str = "") -> Any:
    """What the server answers the seat of `page` (its payload, or `path` under it)."""
    return page.evaluate("async (p) => (await fetch(p)).json()", _api_base(page) + path)


def _shown(page: Any) -> Army:
    cells: dict[str, str] = page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll("#grid .cell")].filter((c) => c.querySelector(".piece"))
          .map((c) => [c.dataset.square, c.textContent]))""")
    return Army(cells, page.get_by_test_id("setup-text").input_value())


def _expect_shown(page: Any, army: Army) -> None:
    """Wait until `page` shows `army` (its setup text first, then every square), and check
    that the server holds it too."""
    expect(page.get_by_test_id("setup-text")).to_have_value(army.text)
    for square in sorted(army.cells)[:3]:  # (the text and the squares are drawn together)
        expect(page.locator(f'[data-square="{square}"]')).to_have_text(army.cells[square])
    assert _shown(page) == army
    assert _server(page)["setup"] == army.text


def _different(army: Army) -> tuple[str, str]:
    """Two squares of `army` whose pieces differ: swapping them changes the army."""
    squares = sorted(army.cells)
    first = squares[0]
    other = next(sq for sq in squares if army.cells[sq] != army.cells[first])
    return first, other


def _swap(page: Any, a: str, b: str) -> Army:
    """Swap the pieces of `a` and `b` with two clicks; the army then shown."""
    before = _shown(page)
    page.locator(f'[data-square="{a}"]').click()
    page.locator(f'[data-square="{b}"]').click()
    expect(page.locator(f'[data-square="{a}"]')).to_have_text(before.cells[b])
    expect(page.locator(f'[data-square="{b}"]')).to_have_text(before.cells[a])
    expect(page.get_by_test_id("setup-text")).not_to_have_value(before.text)
    return _shown(page)


def _can(page: Any, undo: bool, redo: bool) -> None:
    """Undo and Redo are enabled (True) or disabled (False)."""
    for test_id, enabled in (("setup-undo", undo), ("setup-redo", redo)):
        if enabled:
            expect(page.get_by_test_id(test_id)).to_be_enabled()
        else:
            expect(page.get_by_test_id(test_id)).to_be_disabled()


def _start_and_check(page: Any, army: Army) -> None:
    """Press Start (against the bot: Red moves first), then check that the board the
    server reports holds `army`, square by square."""
    page.get_by_test_id("start").click()
    expect(status_of(page)).to_have_text("Your move (red).")
    reported = {c["square"]: c["label"] for c in _server(page)["cells"]
                if c["owner"] == "red"}
    assert reported == army.cells


def test_a_swap_undone_restores_the_army_on_the_page_and_on_the_server(
        server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console)
    undo, redo = page.get_by_test_id("setup-undo"), page.get_by_test_id("setup-redo")
    expect(undo).to_have_accessible_name("Undo")
    expect(redo).to_have_accessible_name("Redo")
    _can(page, undo=False, redo=False)  # nothing done yet
    original = _shown(page)
    a, b = _different(original)
    swapped = _swap(page, a, b)
    assert _server(page)["setup"] == swapped.text
    _can(page, undo=True, redo=False)
    expect(undo).to_have_attribute("title", re.compile(f"^Undo the swap of {a} and {b}"))

    undo.click()
    _expect_shown(page, original)
    _can(page, undo=False, redo=True)
    expect(page.get_by_test_id("setup-history-said")).to_have_text(
        f"Undone: the swap of {a} and {b}.")
    expect(redo).to_be_focused()  # (Undo, disabled now, gave the focus to Redo)

    redo.click()
    _expect_shown(page, swapped)
    _can(page, undo=True, redo=False)

    undo.click()
    _expect_shown(page, original)
    _start_and_check(page, original)


def test_several_steps_back_and_forth_and_a_new_change_drops_the_redo(
        server: Server, browser: Any, console: Console) -> None:
    """Swap, Random setup, swap: three steps back lead to the army the page began with,
    three forward to the last one; each end disables its button. A change made after an
    undo starts a new line: nothing is left to redo."""
    page = setting_up(server, browser, console)
    undo, redo = page.get_by_test_id("setup-undo"), page.get_by_test_id("setup-redo")
    armies = [_shown(page)]
    armies.append(_swap(page, *_different(armies[-1])))
    page.get_by_test_id("random").click()
    expect(page.get_by_test_id("setup-text")).not_to_have_value(armies[-1].text)
    armies.append(_shown(page))
    armies.append(_swap(page, *_different(armies[-1])))

    for army in reversed(armies[:-1]):
        undo.click()
        _expect_shown(page, army)
    _can(page, undo=False, redo=True)
    page.keyboard.press("Control+z")  # nothing left to undo: nothing happens
    expect(page.get_by_test_id("error")).to_have_text("")
    assert _server(page)["setup"] == armies[0].text

    for army in armies[1:]:
        redo.click()
        _expect_shown(page, army)
    _can(page, undo=True, redo=False)

    undo.click()
    _expect_shown(page, armies[2])
    undo.click()
    _expect_shown(page, armies[1])
    _can(page, undo=True, redo=True)
    page.get_by_test_id("random").click()  # a new change: the two undone are gone
    expect(page.get_by_test_id("setup-text")).not_to_have_value(armies[1].text)
    _can(page, undo=True, redo=False)
    undo.click()
    _expect_shown(page, armies[1])


def test_a_random_setup_is_undone(server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console)
    original = _shown(page)
    page.get_by_test_id("random").click()
    expect(page.get_by_test_id("setup-text")).not_to_have_value(original.text)
    drawn = _shown(page)
    expect(page.get_by_test_id("setup-undo")).to_have_attribute(
        "title", re.compile("^Undo the random setup"))
    page.get_by_test_id("setup-undo").click()
    _expect_shown(page, original)
    page.get_by_test_id("setup-redo").click()
    _expect_shown(page, drawn)
    _start_and_check(page, drawn)


def test_a_preset_or_a_saved_setup_is_a_preview_undone_from_its_notice(
        server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console)
    original = _shown(page)
    presets = _server(page, "/presets?offset=0")["presets"]
    index, preset = next((i, p) for i, p in enumerate(presets) if p["text"] != original.text)
    picker = page.get_by_test_id("setup-presets")
    expect(picker.locator("option")).not_to_have_count(1)
    picker.select_option(str(index))
    notice = page.get_by_test_id("notice")
    expect(notice).to_have_text(f"Preset “{preset['name']}” placed. Undo")
    expect(page.get_by_test_id("setup-text")).to_have_value(preset["text"])
    assert _server(page)["setup"] == preset["text"]
    offer = notice.get_by_role("button", name=f"Undo the preset “{preset['name']}”")
    expect(offer).to_have_attribute("data-testid", "notice-undo")
    offer.click()
    _expect_shown(page, original)
    expect(notice).to_be_hidden()
    _can(page, undo=False, redo=True)

    # A setup saved in this browser: loading it is undone the same way.
    page.get_by_test_id("random").click()
    expect(page.get_by_test_id("setup-text")).not_to_have_value(original.text)
    drawn = _shown(page)
    page.get_by_test_id("setup-name").fill("Mine")
    page.get_by_test_id("save-setup").click()
    expect(notice).to_have_text("Setup “Mine” saved in this browser.")
    _swap(page, *_different(drawn))
    page.get_by_test_id("saved-setups").select_option("Mine")
    expect(notice).to_have_text("Saved setup “Mine” placed. Undo")
    _expect_shown(page, drawn)
    expect(page.get_by_test_id("setup-undo")).to_have_attribute(
        "title", re.compile("^Undo the saved setup “Mine”"))
    page.get_by_test_id("notice-undo").click()
    expect(notice).to_be_hidden()
    expect(page.get_by_test_id("setup-text")).not_to_have_value(drawn.text)  # the swapped one
    page.get_by_test_id("setup-undo").click()  # the swap
    _expect_shown(page, drawn)


def test_the_keyboard_undoes_and_redoes_outside_text_fields(
        server: Server, browser: Any, console: Console) -> None:
    page = setting_up(server, browser, console)
    original = _shown(page)
    swapped = _swap(page, *_different(original))  # the focus is on the board
    page.keyboard.press("Control+z")
    _expect_shown(page, original)
    page.keyboard.press("Control+Shift+z")
    _expect_shown(page, swapped)
    page.keyboard.press("Meta+z")
    _expect_shown(page, original)
    page.keyboard.press("Control+y")
    _expect_shown(page, swapped)

    # In the setup text the keys are the text's own: no setup is sent.
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url)
            if request.method == "POST" else None)
    page.locator("#paste summary").click()
    box = page.get_by_test_id("setup-text")
    box.focus()
    page.keyboard.press("Control+z")
    assert _server(page)["setup"] == swapped.text  # (a request after the keys' own)
    assert posts == []
    expect(page.get_by_test_id("setup-undo")).to_be_enabled()
    # On a button (or the board) again, they undo.
    page.get_by_test_id("random").focus()
    page.keyboard.press("Control+z")
    _expect_shown(page, original)


def test_start_ends_the_history(server: Server, browser: Any, console: Console) -> None:
    """Once Start is pressed (here in a game against a friend, who has not joined yet) the
    setup is fixed: Undo and Redo are gone with the setup box, and Ctrl+Z sends nothing."""
    red, _ = invite(server, browser, console)
    expect(status_of(red)).to_contain_text("Set up your army")
    original = _shown(red)
    swapped = _swap(red, *_different(original))
    red.get_by_test_id("setup-undo").click()
    _expect_shown(red, original)
    _can(red, undo=False, redo=True)
    red.get_by_test_id("start").click()
    expect(status_of(red)).to_have_text(re.compile("^Waiting for blue"))
    expect(red.get_by_test_id("setup-redo")).to_be_hidden()
    _can(red, undo=False, redo=False)
    red.locator("body").press("Control+Shift+z")
    red.locator("body").press("Control+z")
    expect(red.get_by_test_id("error")).to_have_text("")
    assert _server(red)["setup"] == original.text != swapped.text


def test_one_seats_undo_leaves_the_other_seat_alone(
        server: Server, browser: Any, console: Console) -> None:
    red, link = invite(server, browser, console)
    blue = new_page(browser, console)
    blue.goto(link)
    blue.get_by_test_id("join").click()
    expect(status_of(blue)).to_contain_text("Set up your army")
    # (Red's page has heard of the join: a later poll would unselect a square of a swap)
    expect(red.locator("#join-box")).to_be_hidden()
    red_original, blue_original = _shown(red), _shown(blue)
    red_swapped = _swap(red, *_different(red_original))
    blue_swapped = _swap(blue, *_different(blue_original))

    red.get_by_test_id("setup-undo").click()
    _expect_shown(red, red_original)
    _expect_shown(blue, blue_swapped)  # Blue's page and Blue's army stay as they were
    _can(blue, undo=True, redo=False)
    blue.keyboard.press("Control+z")
    _expect_shown(blue, blue_original)
    _expect_shown(red, red_original)
    _can(red, undo=False, redo=True)
    red.get_by_test_id("setup-redo").click()
    _expect_shown(red, red_swapped)

    red.get_by_test_id("start").click()
    blue.get_by_test_id("start").click()
    expect(status_of(red)).to_have_text("Your move (red).")
    expect(status_of(blue)).to_have_text("Waiting for red to move.")
    for page, army, side in ((red, red_swapped, "red"), (blue, blue_original, "blue")):
        reported = {c["square"]: c["label"] for c in _server(page)["cells"]
                    if c["owner"] == side}
        assert reported == army.cells


def test_a_square_picked_for_a_swap_stays_picked_when_the_friend_joins(
        server: Server, browser: Any, console: Console) -> None:
    """Red picks a square for a swap; the friend joins meanwhile (the page hears of a newer
    version of the game, Red's army unchanged): the square stays picked, and the next
    click swaps."""
    red, link = invite(server, browser, console)
    expect(red.locator(".cell .piece")).to_have_count(40)
    before = _shown(red)
    a, b = _different(before)
    red.locator(f'[data-square="{a}"]').click()
    expect(red.locator(f'[data-square="{a}"]')).to_have_class(re.compile(r"\bselected\b"))
    blue = new_page(browser, console)
    blue.goto(link)
    blue.get_by_test_id("join").click()
    expect(red.locator("#join-box")).to_be_hidden()  # Red's page has heard of the join
    expect(red.locator(f'[data-square="{a}"]')).to_have_class(re.compile(r"\bselected\b"))
    red.locator(f'[data-square="{b}"]').click()
    expect(red.locator(f'[data-square="{a}"]')).to_have_text(before.cells[b])
    expect(red.locator(f'[data-square="{b}"]')).to_have_text(before.cells[a])


def test_undo_on_a_phone(server: Server, browser: Any, console: Console) -> None:
    """At 390x844 Undo and Redo fit the panel's width; a tapped swap and a preset are
    undone by a tap; the line above the board tells of the preset without the button's
    word."""
    page = setting_up(server, browser, console, **PHONE)
    width = page.evaluate("() => document.documentElement.clientWidth")
    for test_id in ("setup-undo", "setup-redo"):
        box = page.get_by_test_id(test_id).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    original = _shown(page)
    a, b = _different(original)
    page.locator(f'[data-square="{a}"]').tap()
    page.locator(f'[data-square="{b}"]').tap()
    expect(page.get_by_test_id("setup-text")).not_to_have_value(original.text)
    page.get_by_test_id("setup-undo").tap()
    _expect_shown(page, original)

    presets = _server(page, "/presets?offset=0")["presets"]
    index, preset = next((i, p) for i, p in enumerate(presets) if p["text"] != original.text)
    page.get_by_test_id("setup-presets").select_option(str(index))
    expect(page.get_by_test_id("notice")).to_have_text(f"Preset “{preset['name']}” placed. Undo")
    expect(page.get_by_test_id("board-note")).to_contain_text(
        f"Preset “{preset['name']}” placed.")
    expect(page.locator("#board-note-text")).to_have_text(f"Preset “{preset['name']}” placed.")
    page.get_by_test_id("notice-undo").tap()
    _expect_shown(page, original)
    expect(page.get_by_test_id("board-note")).to_be_hidden()


def test_undo_of_a_saved_setup_leaves_its_name_only_while_the_army_is_it(
        server: Server, browser: Any, console: Console) -> None:
    """Loading the saved setup "mine1" shows its name in the list and the name box; once
    Ctrl+Z takes it back, neither says "mine1" (the army is no longer it), and Redo brings
    both back. A name typed for another setup is the player's: a change leaves it."""
    page = setting_up(server, browser, console)
    original = _shown(page)
    page.get_by_test_id("random").click()
    expect(page.get_by_test_id("setup-text")).not_to_have_value(original.text)
    drawn = _shown(page)
    page.get_by_test_id("setup-name").fill("mine1")
    page.get_by_test_id("save-setup").click()
    page.get_by_test_id("setup-undo").click()  # the random setup
    _expect_shown(page, original)
    saved, name = page.get_by_test_id("saved-setups"), page.get_by_test_id("setup-name")
    expect(saved).to_have_value("")
    expect(name).to_have_value("")
    saved.select_option("mine1")
    _expect_shown(page, drawn)
    expect(saved).to_have_value("mine1")
    expect(name).to_have_value("mine1")
    page.locator('[data-square="a1"]').focus()
    page.keyboard.press("Control+z")
    _expect_shown(page, original)
    expect(saved).to_have_value("")
    expect(name).to_have_value("")
    page.keyboard.press("Control+Shift+z")
    _expect_shown(page, drawn)
    expect(saved).to_have_value("mine1")
    expect(name).to_have_value("mine1")
    name.fill("Another")
    _swap(page, *_different(drawn))
    expect(saved).to_have_value("")
    expect(name).to_have_value("Another")
