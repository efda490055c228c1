"""What the browser tests of the web game share (``tests/test_web_browser*.py``): the system
Chromium, a server in a thread, the watch on the browser's console, and the steps of play
every module takes.

Chromium is the system one (``/usr/lib/chromium/chromium``; `.ci/run` installs it), never a
Playwright download. The server runs in a thread on a free port of 127.0.0.1. Importing
this module skips the importing test module when the ``web`` extra, Playwright or the
Chromium is missing.

The fixtures (`browser`, a Chromium for each module; `console`, which fails a test on any
console error) are taken into a test module by assignment (``browser =
browser_support.browser``), which pytest finds as the module's own.
"""

from __future__ import annotations

import contextlib
import pathlib
import re
import socket
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from stratego.web import GameHub, create_app  # noqa: E402

__all__ = [
    "CHROMIUM",
    "PHONE",
    "WAIT",
    "Console",
    "Server",
    "browser",
    "console",
    "contrast",
    "expect",
    "expect_strike_marks",
    "free_port",
    "greys",
    "invite",
    "moves_of",
    "new_page",
    "page_at",
    "play_a_move",
    "rgb",
    "serve",
    "setting_up",
    "status_of",
    "two_pages",
]

CHROMIUM = "/usr/lib/chromium/chromium"
WAIT = 10_000  # ms: the longest any expectation or action waits
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
"""The options of a phone's page (`new_page`): a narrow screen, touch, the mobile viewport."""
expect = sync_api.expect
expect.set_options(timeout=WAIT)  # (an expectation's own default is 5 s: short on a busy host)

if not pathlib.Path(CHROMIUM).exists():  # pragma: no cover - CI installs it
    pytest.skip(f"no system Chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """A uvicorn server for one hub, in a daemon thread."""

    def __init__(self, hub: GameHub) -> None:
        self.hub = hub
        port = free_port()
        config = uvicorn.Config(create_app(hub), host="127.0.0.1", port=port,
                                log_level="warning", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert self.thread.is_alive(), "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@contextlib.contextmanager
def serve(hub: GameHub) -> Iterator[Server]:
    """A `Server` for `hub` while the block runs (a module's ``server`` fixture)."""
    srv = Server(hub)
    try:
        yield srv
    finally:
        srv.stop()


class FakeTime:
    """A monotonic clock a test moves by hand (``fake_time.now += 60``), for a hub's
    ``monotonic``: its chess clocks and its presence read it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def fake_time() -> FakeTime:
    """A module's `FakeTime` (``fake_time = browser_support.fake_time``), shared by its
    ``server`` (`timed_hub_server`) and its tests."""
    return FakeTime()


def timed_hub_server(seed: int) -> Any:
    """A test module's ``server`` fixture whose hub reads the module's `fake_time` (a
    classic `GameHub` seeded with `seed`, 50 games a minute: every test makes one)."""

    @pytest.fixture(scope="module")
    def server(fake_time: FakeTime) -> Iterator[Server]:
        with serve(GameHub(rules="classic", seed=seed, monotonic=fake_time,
                           create_limit=50)) as srv:
            yield srv

    return server


def hub_server(**options: Any) -> Any:
    """A test module's ``server`` fixture (module-scoped): a classic `GameHub` made with
    `options` (its seed, bot and limits), served while the module's tests run. A module
    assigns it: ``server = browser_support.hub_server(seed=3)``."""

    @pytest.fixture(scope="module")
    def server() -> Iterator[Server]:
        with serve(GameHub(rules="classic", **options)) as srv:
            yield srv

    return server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """The system Chromium, headless, one for each test module."""
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


class Console:
    """Every console error and uncaught page error of the pages it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any) -> Any:
        def on_console(msg: Any) -> None:
            if msg.type == "error":
                self.errors.append(msg.text)

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.set_default_timeout(WAIT)
        return page


@pytest.fixture
def console() -> Iterator[Console]:
    """The watch on the test's pages: the test fails on any console error they logged
    (a test that causes one on purpose takes it out of ``console.errors``)."""
    watcher = Console()
    yield watcher
    assert watcher.errors == [], f"console errors: {watcher.errors}"


def new_page(browser: Any, console: Console, **options: Any) -> Any:
    """A page in a browser context of its own (another person, to the server), watched by
    `console`: a 1100x760 window unless `options` (those of ``browser.new_context``) say
    otherwise."""
    settings: dict[str, Any] = {"viewport": {"width": 1100, "height": 760},
                                "accept_downloads": True}
    settings.update(options)
    return console.watch(browser.new_context(**settings).new_page())


def setting_up(server: Server, browser: Any, console: Console, **options: Any) -> Any:
    """A page (`new_page` with `options`) on a new game against the bot made from the start
    page, at Red's setup, its army drawn."""
    page = new_page(browser, console, **options)
    page.goto(server.url + "/")
    page.get_by_test_id("create").click()
    expect(status_of(page)).to_contain_text("Set up your army")
    expect(page.locator(".cell .piece")).to_have_count(40)
    return page


def page_at(server: Server, browser: Any, console: Console, state: Any, **options: Any) -> Any:
    """A page (`new_page` with `options`) on a game of the hub started from `state`, Red
    (the page's seat) to move."""
    created = server.hub.add_game(state)
    page = new_page(browser, console, **options)
    page.goto(server.url + created["url"])
    expect(status_of(page)).to_have_text("Your move (red).")
    return page


def moves_of(page: Any) -> Any:
    """The entries of the move list, one a turn (numbered rows hold a move of each side)."""
    return page.get_by_test_id("moves").locator("[data-ply]")


def status_of(page: Any) -> Any:
    """The status line of the game page."""
    return page.get_by_test_id("status")


def play_a_move(page: Any) -> None:
    """Click one of our pieces that can move, then its first highlighted target, once the
    page says it is our move and no request is in flight (a click while the reply to
    `start` or to our last move is on its way would select a piece the reply unselects)."""
    expect(status_of(page)).to_have_text(re.compile(r"^Your move"))
    expect(page.locator("body.busy")).to_have_count(0)
    movable = page.locator(".cell.clickable:has(.piece)")
    expect(movable.first).to_be_visible()
    movable.first.click()
    target = page.locator('[data-legal="true"]')
    expect(target.first).to_be_visible()
    target.first.click()


def expect_strike_marks(page: Any, frm: str, to: str, attacker: tuple[str, str],
                        defender: tuple[str, str]) -> tuple[Any, Any]:
    """Expect the board's marks of a strike from square `frm` onto `to`: both cells rung
    (``struck``), each with a tag of the rank it showed in its owner's colour (`attacker`
    and `defender` are (owner, label) pairs). Returns the two cells."""
    cells = page.locator(f'[data-square="{frm}"]'), page.locator(f'[data-square="{to}"]')
    for cell, (owner, label) in zip(cells, (attacker, defender), strict=True):
        expect(cell).to_have_class(re.compile(r"\bstruck\b"))
        expect(cell.locator(".strike-tag")).to_have_attribute("data-owner", owner)
        expect(cell.locator(".strike-tag")).to_have_text(label)
    return cells


def invite(server: Server, browser: Any, console: Console) -> tuple[Any, str]:
    """A page that created a game against a friend (it plays Red), and the join link."""
    red = new_page(browser, console)
    red.goto(server.url + "/")
    red.get_by_label("a friend").check()
    red.get_by_test_id("create").click()
    link = red.get_by_test_id("join-link")
    expect(link).to_have_value(re.compile(r"/join/"))
    return red, link.input_value()


def two_pages(server: Server, browser: Any, console: Console) -> tuple[Any, Any]:
    """Two people's pages (Red's, Blue's) on a game between them, both set up, Red to
    move."""
    red, link = invite(server, browser, console)
    red.get_by_test_id("start").click()
    blue = new_page(browser, console)
    blue.goto(link)
    blue.get_by_test_id("join").click()
    blue.get_by_test_id("start").click()
    expect(status_of(red)).to_have_text("Your move (red).")
    expect(status_of(blue)).to_have_text("Waiting for red to move.")
    return red, blue


def rgb(text: str) -> tuple[int, int, int]:
    """The red, green and blue of "rgb(1, 2, 3)", "rgba(1, 2, 3, 0.5)" or "#010203"."""
    if text.startswith("#"):
        return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)
    found = re.match(r"rgba?\((\d+), (\d+), (\d+)", text)
    assert found is not None, text
    return int(found[1]), int(found[2]), int(found[3])


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    def luminance(colour: tuple[int, int, int]) -> float:
        parts = [c / 255 for c in colour]
        lin = [p / 12.92 if p <= 0.03928 else ((p + 0.055) / 1.055) ** 2.4 for p in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def greys(png: bytes) -> list[list[int]]:
    """The grey level (0 to 255, as CSS's ``grayscale()`` weighs red, green and blue) of
    each pixel of a PNG screenshot, row by row: what a page looks like without hue. Reads
    the PNGs Chromium writes (8-bit RGB or RGBA, not interlaced)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, packed, header = 8, b"", b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IHDR":
            header = png[pos + 8:pos + 8 + length]
        elif kind == b"IDAT":
            packed += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert (depth, colour in (2, 6), interlace) == (8, True, 0), (depth, colour, interlace)
    step = 3 if colour == 2 else 4
    stride = width * step
    raw = zlib.decompress(packed)
    rows: list[list[int]] = []
    above = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # undo the row's PNG filter
            left = line[i - step] if i >= step else 0
            up, corner = above[i], above[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - corner), 2, corner))[2]
                line[i] = (line[i] + near) & 255
        rows.append([round(0.2126 * line[x] + 0.7152 * line[x + 1] + 0.0722 * line[x + 2])
                     for x in range(0, stride, step)])
        above = line
    return rows
