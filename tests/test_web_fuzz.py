"""The web game's JSON API against arbitrary request bodies (property tests).

Invariant: whatever JSON a client posts to any call of a live game (in its setup phase or
in play, against a person or a bot), to the lobby's calls (a new game, a join, the saved
seats), the hub answers with a reply it means: a 2xx or a 4xx with a JSON error, never
the 500 it keeps for its own faults, and a refused call leaves the game as it was; and
any address under a seat (review indices, preset offsets, version tags) is answered alike.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra is not installed")

from stratego.web import GameHub
from stratego.web.turns import ACTIONS
from test_web import JSON, first_move, tokens

KEYS = ("move", "setup", "from", "to", "a", "b", "code", "seats", "game", "seat", "rules",
        "variants", "opponent", "bot", "colour", "time", "accept", "preset", "rescue")
"""Field names the calls read, so that the odd values reach the checks behind them."""

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(["a4-a5", "a4", "red", "blue", "random", "human", "bot", "5+3", "classic",
                     "barrage", "medium", "", "é", "a4-a5-a6", "r4xb5", "0", "-1"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5),
                                            inner, max_size=4)),
    max_leaves=12)
bodies = st.dictionaries(st.sampled_from(KEYS), values, max_size=4)


def _post(hub: GameHub, path: str, data: Any) -> Any:
    return hub.handle("POST", path, body=json.dumps(data).encode(), headers=JSON)


def _game(hub: GameHub, opponent: str, started: bool) -> tuple[str, str]:
    reply = _post(hub, "/api/games", {"opponent": opponent, "bot": "easy"}
                  if opponent == "bot" else {"opponent": opponent})
    assert reply.status == 201, reply.body
    created = json.loads(reply.body)
    gid, seat = created["game"], created["seat"]
    if started:
        assert _post(hub, f"/api/games/{gid}/{seat}/start", {}).status == 200
    return gid, seat


def _seen(hub: GameHub, gid: str, seat: str) -> Any:
    reply = hub.handle("GET", f"/api/games/{gid}/{seat}", headers=JSON)
    assert reply.status == 200, reply.body
    payload = json.loads(reply.body)
    payload.pop("clock", None)  # time passes between two reads
    return payload


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["bot", "human"]), st.booleans(),
       st.sampled_from([*ACTIONS, "rematch"]), bodies)
def test_any_body_to_a_seat_call_is_answered_and_a_refusal_changes_nothing(
        opponent: str, started: bool, action: str, body: dict[str, Any]) -> None:
    hub = GameHub(seed=1, token=tokens())
    gid, seat = _game(hub, opponent, started)
    before = _seen(hub, gid, seat)
    reply = _post(hub, f"/api/games/{gid}/{seat}/{action}", body)
    assert reply.status != 500, (action, body, reply.body)
    assert reply.status < 500 or reply.status == 503
    if reply.status >= 400:
        assert "error" in json.loads(reply.body)
        assert _seen(hub, gid, seat) == before, (action, body)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["/api/games", "/api/seats", "join"]), bodies)
def test_any_body_to_a_lobby_call_is_answered(call: str, body: dict[str, Any]) -> None:
    hub = GameHub(seed=1, token=tokens())
    gid, _seat = _game(hub, "human", False)
    path = f"/api/games/{gid}/join" if call == "join" else call
    reply = _post(hub, path, body)
    assert reply.status < 500, (call, body, reply.body)
    if reply.status >= 400:
        assert "error" in json.loads(reply.body)


def test_a_legal_move_posted_is_played() -> None:
    """The check above is not vacuous: the same calls with a good body succeed."""
    hub = GameHub(seed=1, token=tokens())
    gid, seat = _game(hub, "bot", True)
    before = _seen(hub, gid, seat)
    reply = _post(hub, f"/api/games/{gid}/{seat}/move", {"move": first_move(before)})
    assert reply.status == 200, reply.body
    assert _seen(hub, gid, seat) != before


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["review/{x}", "presets?offset={x}", "?since={x}", "board.svg?{x}",
                        "record.txt", "{x}"]),
       st.text(max_size=12) | st.sampled_from(["-1", "0", "10**9", "1e3", "²", "%00", "..",
                                                "99999999999999999999"]),
       st.booleans())
def test_any_address_under_a_seat_is_answered(address: str, x: str, started: bool) -> None:
    """GET calls of a seat with odd review indices, preset offsets and version tags: a
    2xx or a 4xx answer, never a 500."""
    hub = GameHub(seed=1, token=tokens())
    gid, seat = _game(hub, "bot", started)
    path, _, query = f"/api/games/{gid}/{seat}/{address}".partition("?")
    raw = query.format(x=x)
    asked = dict([raw.split("=", 1)]) if "=" in raw else {raw: ""} if raw else {}
    reply = hub.handle("GET", path.format(x=x), query=asked, headers=JSON)
    assert reply.status < 500, (address, x, reply.body)
