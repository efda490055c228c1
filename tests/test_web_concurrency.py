"""The web hub under concurrent requests: a bot thinking over one game holds up no other
game, and a game dropped while its bot thought is not written back to the database.

The bot here waits on an event the test sets, so nothing depends on timing; a join with a
generous timeout only turns a deadlock into a failure instead of a hung run.
"""

from __future__ import annotations

import json
import pathlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from stratego.moves import Move
from stratego.views import PlayerView

pytest.importorskip("starlette", reason="the web extra is not installed")

from stratego.web import GameHub
from stratego.web.replies import Reply
from test_web import JSON, first_move, post, tokens

pytestmark = pytest.mark.extra("web")

THINKING = threading.Event()
"""Set by `WaitingBot` when it starts thinking."""
GO = threading.Event()
"""Set by the test to let `WaitingBot` answer."""
PATIENCE = 60.0
"""Seconds before a wait counts as a deadlock (never reached when the hub is right)."""


class WaitingBot:
    """A bot that plays its first legal move once the test sets `GO`."""

    name = "waiting"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def __call__(self, seen: PlayerView) -> Move:
        THINKING.set()
        GO.wait(PATIENCE)
        return seen.legal_moves[0]


def _in_thread(call: Callable[[], Reply]) -> tuple[threading.Thread, list[Reply]]:
    box: list[Reply] = []
    thread = threading.Thread(target=lambda: box.append(call()), daemon=True)
    thread.start()
    return thread, box


def _finished(call: Callable[[], Reply]) -> Reply:
    """`call`'s reply, made on another thread; fails (instead of hanging) if it waits on a
    lock the thinking bot holds."""
    thread, box = _in_thread(call)
    thread.join(PATIENCE)
    assert not thread.is_alive(), "the request waited for a bot thinking in another game"
    return box[0]


def _started_game(hub: GameHub) -> tuple[str, dict[str, Any]]:
    created = post(hub, "/api/games", {}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    return base, post(hub, base + "/start").json()


def _move_while_bot_thinks(hub: GameHub, base: str, payload: dict[str, Any]
                           ) -> tuple[threading.Thread, list[Reply]]:
    """Play a move in another thread; return once the bot is thinking over its answer."""
    thread, box = _in_thread(lambda: post(hub, base + "/move", {"move": first_move(payload)}))
    assert THINKING.wait(PATIENCE)
    return thread, box


def _bot_answers(thread: threading.Thread, box: list[Reply]) -> Reply:
    """Let the bot answer; the reply of the move request."""
    GO.set()
    thread.join(PATIENCE)
    assert not thread.is_alive()
    return box[0]


HubMaker = Callable[..., tuple[GameHub, list[float]]]


@pytest.fixture
def waiting_hub(tmp_path: pathlib.Path) -> Iterator[HubMaker]:
    """Makes a hub with `WaitingBot` and a settable clock (``now[0]``); options as
    `GameHub` takes them."""
    THINKING.clear()
    GO.clear()
    hubs: list[GameHub] = []

    def make(**options: Any) -> tuple[GameHub, list[float]]:
        now = [1000.0]
        hub = GameHub(bot="test_web_concurrency:WaitingBot", bot_time=None, seed=1,
                      token=tokens(), db=tmp_path / "games.db", clock=lambda: now[0],
                      **options)
        hubs.append(hub)
        return hub, now

    yield make
    GO.set()  # never leave a bot thread waiting
    for hub in hubs:
        hub.close()


def test_a_bot_thinking_in_one_game_holds_up_no_other(waiting_hub: HubMaker) -> None:
    hub, _ = waiting_hub(idle_seconds=600)
    base_a, payload_a = _started_game(hub)
    base_b, payload_b = _started_game(hub)
    thinking, box = _move_while_bot_thinks(hub, base_a, payload_a)
    # while the bot of game A thinks: game B answers, new games are made, pages load
    assert _finished(lambda: hub.handle("GET", base_b)).json() == payload_b
    created = _finished(lambda: post(hub, "/api/games", {"opponent": "human"}))
    assert created.status == 201
    assert _finished(lambda: hub.handle("GET", "/")).status == 200
    assert _finished(lambda: hub.handle("GET", base_b + "/board.svg")).status == 200
    assert hub.live_games == 3
    assert thinking.is_alive()  # game A is still waiting for its bot
    moved = _bot_answers(thinking, box).json()
    assert moved["view"]["ply"] == 2  # the bot answered, in game A only
    assert hub.handle("GET", base_b).json()["view"]["ply"] == 0


def test_a_game_dropped_while_its_bot_thinks_is_not_written_back(
        waiting_hub: HubMaker) -> None:
    hub, now = waiting_hub(idle_seconds=600)
    base, payload = _started_game(hub)
    thinking, box = _move_while_bot_thinks(hub, base, payload)
    now[0] += 10_000  # past the idle limit: the next look at the table drops the game
    assert hub.live_games == 0
    assert hub.store is not None
    assert hub.store.count() == 0
    reply = _bot_answers(thinking, box)
    assert reply.status == 404
    assert "expired" in reply.json()["error"]
    assert hub.store.count() == 0  # not brought back by the move's save


def test_a_full_server_never_reclaims_a_game_whose_bot_is_thinking(
        waiting_hub: HubMaker) -> None:
    """The player took longer than `protect_seconds` over its move; while the bot answers,
    the game is in play: a new game on a full server is refused, not made in its place."""
    hub, now = waiting_hub(max_games=1, max_client_games=2, protect_seconds=60)
    base, payload = _started_game(hub)
    now[0] += 600  # the player thinks for ten minutes
    thinking, box = _move_while_bot_thinks(hub, base, payload)
    refused = _finished(lambda: post(hub, "/api/games", {}))
    assert refused.status == 503
    reply = _bot_answers(thinking, box)
    assert reply.status == 200
    assert reply.json()["view"]["ply"] == 2


THINKERS: list[int] = []
"""The number of `CountingBot` calls in progress, noted as each one starts."""
_THINKERS_NOW = [0]
_THINKERS_LOCK = threading.Condition()


class CountingBot(WaitingBot):
    """`WaitingBot`, noting in `THINKERS` how many of its kind think at once."""

    name = "counting"

    def __call__(self, seen: PlayerView) -> Move:
        with _THINKERS_LOCK:
            _THINKERS_NOW[0] += 1
            THINKERS.append(_THINKERS_NOW[0])
            _THINKERS_LOCK.notify_all()
        try:
            return super().__call__(seen)
        finally:
            with _THINKERS_LOCK:
                _THINKERS_NOW[0] -= 1


def _thinkers(count: int, timeout: float) -> bool:
    """Whether `count` bots have started thinking within `timeout` seconds."""
    with _THINKERS_LOCK:
        return _THINKERS_LOCK.wait_for(lambda: len(THINKERS) >= count, timeout)


def test_one_address_has_one_bot_thinking_at_a_time(waiting_hub: HubMaker) -> None:
    """docs/build-a-ui.md: "one address has at most one bot thinking at a time: its move
    in another game against the bot waits its turn", so one address with many games
    against a slow bot keeps one core busy; another address's bot thinks meanwhile, and the
    waiting move's own game answers its other requests ("other requests do not wait")."""
    THINKERS.clear()
    hub, _ = waiting_hub(idle_seconds=600, bots=["Slow=test_web_concurrency:CountingBot"])

    def call(path: str, client: str, data: Any = None) -> Reply:
        body = b"{}" if data is None else json.dumps(data).encode()
        return hub.handle("POST", path, body=body, headers=JSON, client=client)

    games: list[tuple[str, str, dict[str, Any]]] = []
    for client in ("10.0.0.1", "10.0.0.1", "10.0.0.2"):
        created = call("/api/games", client, {"bot": "slow"}).json()
        base = f"/api/games/{created['game']}/{created['seat']}"
        games.append((base, client, call(base + "/start", client).json()))
    def move(game: tuple[str, str, dict[str, Any]]) -> Callable[[], Reply]:
        base, client, payload = game
        return lambda: call(base + "/move", client, {"move": first_move(payload)})

    moves = [_in_thread(move(game)) for game in games[:2]]
    assert _thinkers(1, PATIENCE)
    assert not _thinkers(2, 2.0)  # the address's second move waits for its first
    # ... outside its game: that game's poll and page answer while the move waits its turn
    base, client, _ = games[1]
    assert _finished(lambda: hub.handle("GET", base, client=client)).status == 200
    other = _in_thread(move(games[2]))
    assert _thinkers(2, PATIENCE)  # another address is not held up
    assert THINKERS == [1, 2]
    GO.set()
    for thread, box in [*moves, other]:
        thread.join(PATIENCE)
        assert not thread.is_alive()
        assert box[0].status == 200
        assert box[0].json()["view"]["ply"] == 2
    assert len(THINKERS) == 3
    assert max(THINKERS) == 2  # never two of one address at once
    assert hub.thinking.clients == 0  # nothing kept once nobody waits
