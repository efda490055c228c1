"""A clocked web game a person never began is aborted, not lost: a side whose time runs
out before it has made a move of its own ends the game with no winner, no loser and no
draw (``result.you`` ``"aborted"``, the status "Game aborted.", a record with ``Result
"*"`` and ``Termination "aborted"``), and so it stays after a restart. A side that moved
once loses on time as before; so does a bot, which always thinks within its own time.

Before play begins either seat may call the game off (``POST .../abort``), against the
bot too: aborted as a game called off over a player who left is ("Game aborted: called
off.", no record), refused once play began.

The clocks read an injected monotonic clock moved by hand: no sleeping, no timing.
"""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

import stratego
from stratego.moves import Move
from stratego.views import PlayerView

pytest.importorskip("starlette", reason="the web extra is not installed")

from stratego.web import GameHub
from test_web import bot_game, first_move, post, tokens

NOW = [0.0]
"""The monotonic clock of the hubs of these tests."""


class SlowBot:
    """A bot that takes 100 s of the injected clock over every move."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def __call__(self, view: PlayerView) -> Move:
        NOW[0] += 100.0
        return view.legal_moves[0]


def _hub(**options: Any) -> GameHub:
    options.setdefault("token", tokens())
    options.setdefault("seed", 1)
    options.setdefault("create_limit", 100)
    return GameHub(monotonic=lambda: NOW[0], **options)


def _friends(hub: GameHub, time: str = "1+0") -> tuple[str, str, str]:
    """A game between two people with a clock, both set up, Red to move: its id and the
    API paths of Red's and Blue's seats."""
    NOW[0] = 0.0
    created = post(hub, "/api/games", {"opponent": "human", "time": time}).json()
    red = f"/api/games/{created['game']}/{created['seat']}"
    code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
    seat = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()["seat"]
    blue = f"/api/games/{created['game']}/{seat}"
    post(hub, red + "/start")
    assert post(hub, blue + "/start").json()["clock"]["running"] == "red"
    return created["game"], red, blue


def _move(hub: GameHub, seat: str) -> dict[str, Any]:
    payload: dict[str, Any] = post(hub, seat + "/move", {"move": first_move(
        hub.handle("GET", seat).json())}).json()
    return payload


def _record(hub: GameHub, seat: str) -> stratego.GameRecord:
    reply = hub.handle("GET", seat + "/record.txt")
    assert reply.status == 200
    return stratego.parse_record(reply.text)


def _aborted(hub: GameHub, red: str, blue: str, never: str) -> None:
    """Both seats see the game aborted because `never` (``"red"``, ``"blue"``) never moved."""
    other = "blue" if never == "red" else "red"
    how = {never: "Your time ran out before your first move, so nobody wins or loses.",
           other: f"{never.capitalize()}'s time ran out before its first move, so nobody "
                  f"wins or loses."}
    for side, seat in (("red", red), ("blue", blue)):
        payload = hub.handle("GET", seat).json()
        assert payload["phase"] == "over"
        assert payload["status"] == "Game aborted."
        who = "you" if side == never else never
        assert payload["result"] == {"winner": None, "reason": "aborted", "you": "aborted",
                                     "text": f"Game aborted: {who} never moved. {how[side]}",
                                     "how": how[side]}
        assert payload["clock"]["running"] is None
        assert payload["clock"]["remaining_ms"][never] == 0
        assert payload["record"] is True
        record = _record(hub, seat)
        assert record.result == "*"
        assert record.tags["Termination"] == "aborted"
        assert record.replay().outcome is None  # the rules did not end it either
        assert post(hub, seat + "/move", {"move": "a4-a5"}).status == 409


def test_a_side_that_never_moved_aborts_the_game_for_both_seats(tmp_path: pathlib.Path
                                                                 ) -> None:
    db = tmp_path / "games.sqlite3"
    hub = _hub(db=db)
    game, red, blue = _friends(hub)
    NOW[0] = 61.0  # red never moved: blue's poll ends the game
    _aborted(hub, red, blue, "red")
    summary = post(hub, "/api/seats", {"seats": [
        {"game": game, "seat": blue.rsplit("/", 1)[1]}]}).json()["games"][0]
    assert (summary["phase"], summary["status"], summary["result"]["you"]) == (
        "over", "Game aborted.", "aborted")
    hub.close()
    NOW[0] = 9000.0  # a new process, the same database: still aborted, not lost
    again = _hub(db=db, token=tokens("u"))  # (new ids: none of the first hub's)
    _aborted(again, red, blue, "red")
    url = post(again, red + "/rematch").json()["rematch"]  # a rematch is still offered
    assert url is not None
    assert again.handle("GET", blue).json()["rematch"] is not None
    again.close()


def test_a_side_that_moved_once_loses_on_time_and_one_that_never_did_aborts() -> None:
    hub = _hub()
    _, red, blue = _friends(hub)  # red moves; blue's time runs out before its first move
    NOW[0] = 5.0
    assert _move(hub, red)["clock"]["running"] == "blue"
    NOW[0] = 70.0
    _aborted(hub, red, blue, "blue")
    _, red, blue = _friends(hub)  # both move; red, who moved once, runs out on its second
    NOW[0] = 5.0
    _move(hub, red)
    _move(hub, blue)
    NOW[0] = 61.0
    for seat, you in ((red, "loss"), (blue, "win")):
        payload = hub.handle("GET", seat).json()
        assert payload["status"] == "Game over."
        assert (payload["result"]["winner"], payload["result"]["reason"],
                payload["result"]["you"]) == ("blue", "time", you)
        record = _record(hub, seat)
        assert (record.result, record.tags["Termination"]) == ("0-1", "time")
    assert hub.handle("GET", red).json()["result"]["text"] == "You lose (your time ran out)."


def test_against_the_bot_a_person_who_never_moved_aborts_and_the_bot_still_loses() -> None:
    """The same rule for the person; the bot, which always thinks within its own time,
    loses on time even before its first move (it was there: its clock ran out thinking)."""
    hub = _hub(bot="random")
    for colour in ("red", "blue"):  # as Blue, the bot moved first: the person did not
        NOW[0] = 0.0
        created = post(hub, "/api/games", {"time": "1+0", "colour": colour}).json()
        seat = f"/api/games/{created['game']}/{created['seat']}"
        assert post(hub, seat + "/start").json()["clock"]["running"] == colour
        NOW[0] = 61.0
        payload = hub.handle("GET", seat).json()
        assert payload["status"] == "Game aborted."
        assert payload["result"]["you"] == "aborted"
        assert payload["result"]["text"].startswith("Game aborted: you never moved.")
        assert _record(hub, seat).result == "*"
    NOW[0] = 0.0
    created = post(hub, "/api/games", {"time": "1+0"}).json()
    seat = f"/api/games/{created['game']}/{created['seat']}"
    post(hub, seat + "/start")
    _move(hub, seat)  # the person moved once: out of time, it loses
    NOW[0] = 61.0
    assert hub.handle("GET", seat).json()["result"]["you"] == "loss"
    slow = _hub(bot="test_web_abort:SlowBot", bot_time=None)
    NOW[0] = 0.0
    created = post(slow, "/api/games", {"time": "1+0", "colour": "blue"}).json()
    over = post(slow, f"/api/games/{created['game']}/{created['seat']}/start").json()
    assert (over["result"]["reason"], over["result"]["you"]) == ("time", "win")


def test_the_abort_names_nothing_of_either_army() -> None:
    """Two games whose armies differ end aborted with the same words for each seat."""
    results, armies = [], []
    for seed in (1, 2):
        hub = _hub(seed=seed)
        _, red, blue = _friends(hub)
        NOW[0] = 61.0
        results.append([hub.handle("GET", seat).json()["result"] for seat in (red, blue)])
        record = _record(hub, red)
        armies.append((record.red_setup, record.blue_setup))
    assert armies[0][0] != armies[1][0]
    assert armies[0][1] != armies[1][1]
    assert [r["you"] for r in results[0]] == ["aborted", "aborted"]
    assert results[0] == results[1]


# -- Abort game: called off before play begins -----------------------------------------------

CALLED_OFF = {"winner": None, "reason": "aborted", "you": "aborted",
              "text": "Game aborted: called off. Play never began, so nobody wins or loses.",
              "how": "Play never began, so nobody wins or loses."}
"""The result of a game called off before play began, the same for both seats."""


def _called_off(hub: GameHub, seat: str, payload: dict[str, Any] | None = None) -> None:
    """`seat` (its payload, or a poll's) sees the game called off: over, no record."""
    seen = hub.handle("GET", seat).json() if payload is None else payload
    assert (seen["phase"], seen["started"], seen["status"], seen["result"], seen["record"],
            seen["join"]) == ("over", False, "Game aborted.", CALLED_OFF, False, None)
    record = hub.handle("GET", seat + "/record.txt")
    assert (record.status, record.json()["error"]) == (
        409, "this game was called off before play began: it has no record")


def test_either_seat_may_abort_while_the_armies_are_set_up() -> None:
    """"Game sites let either player abort a game before play begins": Red while both set
    up, Blue while Red waits for it (Red pressed Start); the other seat's next poll (its
    version moved) shows the game called off, and nothing more may be done in it."""
    hub = _hub()
    for aborter in ("red", "blue"):
        NOW[0] = 0.0
        created = post(hub, "/api/games", {"opponent": "human", "time": "5+3"}).json()
        red = f"/api/games/{created['game']}/{created['seat']}"
        code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
        seat = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()["seat"]
        blue = f"/api/games/{created['game']}/{seat}"
        if aborter == "blue":
            assert post(hub, red + "/start").json()["phase"] == "waiting"
        version = str(hub.handle("GET", red if aborter == "blue" else blue).json()["version"])
        mine, other = (red, blue) if aborter == "red" else (blue, red)
        answer = post(hub, mine + "/abort")
        assert answer.status == 200
        _called_off(hub, mine, answer.json())
        assert hub.handle("GET", other, {"since": version}).status == 200
        _called_off(hub, other)
        assert answer.json()["clock"]["running"] is None  # no clock ever ran
        for action in ("abort", "start", "random", "claim"):
            assert post(hub, other + "/" + action).status == 409, action
        assert post(hub, mine + "/abort").json()["error"] == (
            "the game is over: there is nothing to abort")
        assert post(hub, mine + "/rematch").json()["rematch"] is not None


def test_a_game_against_the_bot_and_one_the_friend_never_joined_may_be_aborted() -> None:
    hub = _hub()
    created = post(hub, "/api/games", {}).json()
    seat = f"/api/games/{created['game']}/{created['seat']}"
    _called_off(hub, seat, post(hub, seat + "/abort").json())
    summary = post(hub, "/api/seats", {"seats": [
        {"game": created["game"], "seat": created["seat"]}]}).json()["games"][0]
    assert (summary["phase"], summary["status"], summary["result"]["you"]) == (
        "over", "Game aborted.", "aborted")
    # called off before the friend came: the link offers nothing to join
    created = post(hub, "/api/games", {"opponent": "human"}).json()
    seat = f"/api/games/{created['game']}/{created['seat']}"
    code = hub.handle("GET", seat).json()["join"].rsplit("/", 1)[1]
    _called_off(hub, seat, post(hub, seat + "/abort").json())
    joined = post(hub, f"/api/games/{created['game']}/join", {"code": code})
    assert (joined.status, joined.json()["error"]) == (
        409, "this game was called off before play began: there is nothing to join")


def test_abort_is_refused_once_play_began() -> None:
    """Once play began a game is resigned, not aborted: 409, saying so, and the game goes
    on (against the bot, and between two people)."""
    hub = _hub()
    seat, payload = bot_game(hub)
    assert payload["phase"] == "play"
    refused = post(hub, seat + "/abort")
    assert (refused.status, refused.json()["error"]) == (
        409, "play has begun: a game can be aborted only before play begins (resign instead)")
    assert hub.handle("GET", seat).json()["phase"] == "play"
    _, red, blue = _friends(hub)
    for side in (red, blue):
        assert post(hub, side + "/abort").status == 409
    assert _move(hub, red)["phase"] == "play"
    assert post(hub, red + "/abort", {"now": True}).status == 400  # it takes no field
