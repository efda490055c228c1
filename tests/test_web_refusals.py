"""A refused action, as a client that asks for it softly gets it.

The API answers an illegal move, a move out of turn or a setup that breaks the rules with
``409``/``400`` and ``{"error": ...}``; a client that sends ``X-Refusal-Status: 200`` (the
game's own page does, so a player's ordinary mistake logs no failed request in the
browser's console) gets the same refusal as ``200`` ``{"error": ..., "refused": status}``,
and a refused request changes nothing either way. Requests that are wrong in themselves
(not JSON, a wrong seat, too many) keep their status.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import stratego
from stratego.web import GameHub
from stratego.web.hub import REFUSAL_HEADER

JSON = {"content-type": "application/json"}
SOFT = {**JSON, REFUSAL_HEADER: "200"}


def _post(hub: GameHub, path: str, data: Any = None, headers: dict[str, str] | None = None,
          body: bytes | None = None) -> Any:
    raw = body if body is not None else b"" if data is None else json.dumps(data).encode()
    return hub.handle("POST", path, body=raw, headers=headers or JSON)


def _playing(**options: Any) -> tuple[GameHub, str, dict[str, Any]]:
    hub = GameHub(rules="classic", bot="random", seed=7, **options)
    created = hub.handle("POST", "/api/games", body=b'{"opponent": "bot"}',
                         headers=JSON).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = _post(hub, base + "/start").json()
    assert payload["status"] == "Your move (red)."
    return hub, base, payload


def test_an_illegal_move_is_a_409_and_with_the_header_a_200_saying_so() -> None:
    hub, base, payload = _playing()
    plain = _post(hub, base + "/move", {"move": "a1-b2"})
    assert plain.status == 409
    soft = _post(hub, base + "/move", {"move": "a1-b2"}, SOFT)
    assert soft.status == 200
    assert soft.json() == {"error": plain.json()["error"], "refused": 409}
    assert soft.header("Cache-Control") == "no-store"
    assert soft.header("X-Frame-Options") == "DENY"
    assert hub.handle("GET", base).json() == payload  # nothing changed


def test_the_header_is_read_in_any_case_and_only_as_200() -> None:
    hub, base, _ = _playing()
    assert _post(hub, base + "/move", {"move": "a1-b2"},
                 {**JSON, "x-refusal-status": " 200 "}).status == 200
    for value in ("", "204", "yes", "409"):
        assert _post(hub, base + "/move", {"move": "a1-b2"},
                     {**JSON, REFUSAL_HEADER: value}).status == 409


def test_a_refused_setup_and_an_early_rematch_are_soft_too() -> None:
    hub = GameHub(rules="classic", bot="random", seed=8)
    created = hub.handle("POST", "/api/games", body=b"{}", headers=JSON).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    before = hub.handle("GET", base).json()
    assert _post(hub, base + "/setup", {"text": "garbage"}).status == 400
    soft = _post(hub, base + "/setup", {"text": "garbage"}, SOFT)
    assert (soft.status, soft.json()["refused"]) == (200, 400)
    assert "setup" in soft.json()["error"]
    swap = _post(hub, base + "/swap", {"squares": ["a1", "a10"]}, SOFT)
    assert (swap.status, swap.json()["refused"]) == (200, 400)
    rematch = _post(hub, base + "/rematch", {}, SOFT)
    assert (rematch.status, rematch.json()["refused"]) == (200, 409)
    assert hub.handle("GET", base).json() == before


def test_a_move_out_of_turn_and_a_used_join_link_are_soft() -> None:
    hub = GameHub(rules="classic", seed=9)
    created = hub.handle("POST", "/api/games", body=b'{"opponent": "human"}',
                         headers=JSON).json()
    red = f"/api/games/{created['game']}/{created['seat']}"
    code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
    joined = _post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()
    blue = f"/api/games/{created['game']}/{joined['seat']}"
    used = _post(hub, f"/api/games/{created['game']}/join", {"code": code}, SOFT)
    assert (used.status, used.json()["refused"]) == (200, 409)
    assert _post(hub, f"/api/games/{created['game']}/join", {"code": code}).status == 409
    _post(hub, red + "/start")
    payload = _post(hub, blue + "/start").json()
    assert payload["phase"] == "play"
    soft = _post(hub, blue + "/move", {"move": "a7-a6"}, SOFT)
    assert soft.json() == {"error": "it is red's turn", "refused": 409}


def test_refused_moves_asked_softly_do_not_count_against_the_move_limit() -> None:
    hub, base, _ = _playing(move_limit=2)
    for _ in range(5):
        assert _post(hub, base + "/move", {"move": "a1-b2"}, SOFT).status == 200
    state = hub.handle("GET", base).json()
    frm = sorted(state["legal"])[0]
    moved = _post(hub, base + "/move", {"move": f"{frm}-{state['legal'][frm][0]}"}, SOFT)
    assert moved.status == 200
    assert "refused" not in moved.json()


@pytest.mark.parametrize(("path", "body", "headers", "status"), [
    ("/move", b"not json", SOFT, 400),                       # not JSON: a bad request
    ("/move", b"[]", SOFT, 400),                             # not an object
    ("/move", b"{}", {REFUSAL_HEADER: "200"}, 415),          # not said to be JSON
    ("/nothing", b"{}", SOFT, 404),                          # no such call
])
def test_requests_wrong_in_themselves_keep_their_status(path: str, body: bytes,
                                                        headers: dict[str, str],
                                                        status: int) -> None:
    hub, base, _ = _playing()
    assert _post(hub, base + path, headers=headers, body=body).status == status


def test_a_wrong_seat_keeps_its_status_with_the_header() -> None:
    hub, base, _ = _playing()
    game = base.split("/")[3]
    assert _post(hub, f"/api/games/{game}/wrong-token/move", {"move": "a4-a5"},
                 SOFT).status == 403
    assert _post(hub, "/api/games/no-such-game/seat/move", {"move": "a4-a5"},
                 SOFT).status == 404


def test_a_stale_page_s_move_is_refused_softly_and_changes_nothing() -> None:
    """A move the page offered from an old position (the seat moved from another tab)."""
    hub, base, payload = _playing()
    frm = sorted(payload["legal"])[0]
    move = f"{frm}-{payload['legal'][frm][0]}"
    after = _post(hub, base + "/move", {"move": move}, SOFT).json()
    assert "refused" not in after
    again = _post(hub, base + "/move", {"move": move}, SOFT)
    assert again.status == 200
    assert again.json()["refused"] == 409
    assert hub.handle("GET", base).json() == {**after, "before_reply": None}
    assert stratego.PlayerView.from_dict(after["view"]).ply == 2
