"""A game between two people cannot stall once one of them leaves: the server notes when
each person's seat last asked it anything (its page polls every second while open), the
other seat's payload says how long the opponent has been gone (``opponent_gone_s``, once
over 20 s), and after the grace period (``claim_seconds``) that seat may ``POST
.../claim``: a win during play (``result.reason`` ``"abandoned"``), a game called off
(``"aborted"``) before play began. Against the bot there is nobody to leave.

Presence says nothing private: a seat's own setup changes count as contact exactly as its
polls do, and two games whose hidden armies differ answer the claiming seat alike.

The presence is read on an injected monotonic clock moved by hand: no sleeping, no timing.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

import stratego
from stratego import Player

pytest.importorskip("starlette", reason="the web extra is not installed")

from stratego.cli import main
from stratego.web import GameHub
from test_web import _unrevealed, first_move, post, tokens

pytestmark = pytest.mark.extra("web")

NOW = [0.0]
"""The monotonic clock of the hubs of these tests."""


def _hub(**options: Any) -> GameHub:
    options.setdefault("token", tokens())
    options.setdefault("seed", 1)
    options.setdefault("create_limit", 100)
    return GameHub(monotonic=lambda: NOW[0], clock=lambda: 1_700_000_000.0, **options)


def _friends(hub: GameHub, start: bool = True,
             blue_setup: str | None = None) -> tuple[str, str, str]:
    """A game between two people, joined at NOW 0 (and both set up when `start`, Red to
    move): its id and the API paths of Red's and Blue's seats."""
    NOW[0] = 0.0
    created = post(hub, "/api/games", {"opponent": "human"}).json()
    red = f"/api/games/{created['game']}/{created['seat']}"
    code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
    seat = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()["seat"]
    blue = f"/api/games/{created['game']}/{seat}"
    if blue_setup is not None:
        assert post(hub, blue + "/setup", {"text": blue_setup}).status == 200
    if start:
        post(hub, red + "/start")
        assert post(hub, blue + "/start").json()["phase"] == "play"
    return created["game"], red, blue


def _get(hub: GameHub, seat: str, **query: str) -> dict[str, Any]:
    reply = hub.handle("GET", seat, query)
    assert reply.status == 200, reply.text
    payload: dict[str, Any] = reply.json()
    return payload


def _seen(hub: GameHub, seat: str) -> tuple[Any, Any]:
    payload = _get(hub, seat)
    return payload["opponent_gone_s"], payload["claim"]


def _summary(hub: GameHub, game: str, seat: str) -> dict[str, Any]:
    found: dict[str, Any] = post(hub, "/api/seats", {"seats": [
        {"game": game, "seat": seat.rsplit("/", 1)[1]}]}).json()["games"][0]
    return found


# -- presence --------------------------------------------------------------------------------


def test_an_opponent_silent_past_the_threshold_seems_gone_only_between_two_people() -> None:
    hub = _hub()
    _, red, blue = _friends(hub)
    NOW[0] = 19.0
    assert _seen(hub, red) == (None, None)  # under 20 s: nothing said
    NOW[0] = 25.5
    assert _seen(hub, red) == (25, None)  # gone, not yet claimable
    assert _seen(hub, blue) == (None, None)  # Red polled just now
    NOW[0] = 30.0
    assert _seen(hub, red) == (None, None)  # Blue's poll (at 25.5) brought it back
    # A page's poll (?since) hears of it: answered while the opponent seems gone, and
    # once more when the page says so (gone=1) after the opponent came back.
    version = str(_get(hub, red)["version"])
    assert hub.handle("GET", red, {"since": version}).status == 204
    NOW[0] = 55.5
    assert hub.handle("GET", red, {"since": version, "gone": "1"}).json()[
        "opponent_gone_s"] == 30
    assert hub.handle("GET", red, {"since": version}).json()["opponent_gone_s"] == 30
    _get(hub, blue)
    back = hub.handle("GET", red, {"since": version, "gone": "1"})
    assert back.status == 200
    assert back.json()["opponent_gone_s"] is None
    assert hub.handle("GET", red, {"since": version}).status == 204
    assert hub.handle("GET", red, {"since": version, "gone": "2"}).status == 400
    # Any request of the seat is contact: a refused move as well as a poll.
    NOW[0] = 200.0
    assert _seen(hub, blue)[0] == 144  # Red's last poll was at 55.5
    assert post(hub, red + "/move", {"move": "a1-a9"}).status == 409
    assert _seen(hub, blue) == (None, None)

    bot = _hub()
    created = post(bot, "/api/games", {}).json()
    seat = f"/api/games/{created['game']}/{created['seat']}"
    post(bot, seat + "/start")
    NOW[0] = 10_000.0
    assert _seen(bot, seat) == (None, None)  # the bot never leaves

    waiting = _hub()
    created = post(waiting, "/api/games", {"opponent": "human"}).json()
    seat = f"/api/games/{created['game']}/{created['seat']}"
    NOW[0] = 20_000.0
    assert _seen(waiting, seat) == (None, None)  # the friend never joined: not gone


def test_the_wait_until_a_claim_is_said_while_the_opponent_seems_gone() -> None:
    """``claim_in_s``: while the opponent seems gone and the grace period runs, the whole
    seconds (rounded up) until ``claim`` allows the claim ("no contact for 64 s" then says
    "you may call the game off in 56 s"); null before and after, and against the bot."""
    hub = _hub()
    _, red, blue = _friends(hub, start=False)
    waits = []
    for now in (19.0, 25.5, 64.0, 119.2, 120.0):
        NOW[0] = now
        payload = _get(hub, red)
        waits.append((payload["opponent_gone_s"], payload["claim"], payload["claim_in_s"]))
    assert waits == [(None, None, None), (25, None, 95), (64, None, 56), (119, None, 1),
                     (120, "abort", None)]
    _get(hub, blue)  # back: nothing to wait for
    assert _get(hub, red)["claim_in_s"] is None
    _, red, _ = _friends(hub)
    NOW[0] = 30.0
    assert (_get(hub, red)["claim"], _get(hub, red)["claim_in_s"]) == (None, 90)
    created = post(hub, "/api/games", {}).json()
    NOW[0] = 10_000.0
    assert _get(hub, f"/api/games/{created['game']}/{created['seat']}")["claim_in_s"] is None


def test_a_claim_is_refused_too_early_against_the_bot_and_once_over() -> None:
    hub = _hub()
    _, red, blue = _friends(hub)
    NOW[0] = 119.0
    refused = post(hub, red + "/claim")
    assert refused.status == 409
    assert refused.json()["error"] == (
        "your opponent is not gone long enough to claim the game: 120 seconds without "
        "contact are needed, it has been 119")
    assert _get(hub, red)["phase"] == "play"  # nothing changed
    assert post(hub, red + "/claim", {"now": True}).status == 400  # it takes no field
    post(hub, blue + "/resign")
    NOW[0] = 1000.0
    over = post(hub, red + "/claim")
    assert (over.status, over.json()["error"]) == (
        409, "the game is over: there is nothing to claim")

    created = post(hub, "/api/games", {}).json()
    seat = f"/api/games/{created['game']}/{created['seat']}"
    post(hub, seat + "/start")
    NOW[0] = 10_000.0
    against_bot = post(hub, seat + "/claim")
    assert (against_bot.status, against_bot.json()["error"]) == (
        409, "the bot never leaves a game: there is nothing to claim")
    # The page's own header turns a refusal into a 200 with the error, as for other actions.
    soft = hub.handle("POST", seat + "/claim", body=b"", headers={
        "content-type": "application/json", "x-refusal-status": "200"})
    assert (soft.status, soft.json()["refused"]) == (200, 409)


# -- claims ----------------------------------------------------------------------------------


def _won_by_red(hub: GameHub, game: str, red: str, blue: str) -> None:
    """Both seats see the game Red claimed over Blue, who left."""
    mine = _get(hub, red)
    assert (mine["phase"], mine["status"], mine["opponent_gone_s"], mine["claim"]) == (
        "over", "Game over.", None, None)
    assert mine["result"] == {"winner": "red", "reason": "abandoned", "you": "win",
                              "text": "You win (your opponent left the game).", "how": None}
    theirs = _get(hub, blue)  # the one who left, back: it sees it too
    assert theirs["result"] == {"winner": "red", "reason": "abandoned", "you": "loss",
                                "text": "You lose (you left the game).", "how": None}
    assert (theirs["revealed"], mine["revealed"], mine["record"]) == (True, True, True)
    record = stratego.parse_record(hub.handle("GET", blue + "/record.txt").text)
    assert (record.result, record.tags["Termination"]) == ("1-0", "abandoned")
    for seat, you in ((red, "win"), (blue, "loss")):
        summary = _summary(hub, game, seat)
        assert (summary["phase"], summary["status"], summary["result"]["you"],
                summary["result"]["reason"]) == ("over", "Game over.", you, "abandoned")


def test_a_claim_during_play_wins_for_both_seats_and_survives_a_restart(
        tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = _hub(db=db)
    game, red, blue = _friends(hub)
    post(hub, red + "/move", {"move": first_move(_get(hub, red))})
    for second in range(10, 130, 10):  # Red's page polls on; Blue's tab is closed
        NOW[0] = float(second)
        seen = _get(hub, red)
    assert (seen["opponent_gone_s"], seen["claim"]) == (120, "win")
    claimed = post(hub, red + "/claim")
    assert claimed.status == 200
    assert claimed.json()["result"]["you"] == "win"
    _won_by_red(hub, game, red, blue)
    hub.close()
    NOW[0] = 50.0  # a new process, the same database: still won by Red
    again = _hub(db=db, token=tokens("u"))
    _won_by_red(again, game, red, blue)
    assert post(again, blue + "/claim").status == 409
    again.close()


def test_a_claim_with_a_clock_stops_it() -> None:
    hub = _hub()
    NOW[0] = 0.0
    created = post(hub, "/api/games", {"opponent": "human", "time": "30+0"}).json()
    red = f"/api/games/{created['game']}/{created['seat']}"
    code = _get(hub, red)["join"].rsplit("/", 1)[1]
    seat = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()["seat"]
    blue = f"/api/games/{created['game']}/{seat}"
    post(hub, red + "/start")
    post(hub, blue + "/start")
    post(hub, red + "/move", {"move": first_move(_get(hub, red))})  # Blue's clock runs
    NOW[0] = 130.0
    payload = post(hub, red + "/claim").json()
    assert payload["result"]["reason"] == "abandoned"
    assert payload["clock"]["running"] is None
    NOW[0] = 5000.0  # the stopped clock never falls
    assert _get(hub, blue)["result"]["reason"] == "abandoned"


def test_a_claim_before_play_began_calls_the_game_off() -> None:
    hub = _hub()
    game, red, blue = _friends(hub, start=False)
    post(hub, red + "/start")  # Red is ready; Blue left during its setup
    NOW[0] = 121.0
    assert _seen(hub, red) == (121, "abort")
    payload = post(hub, red + "/claim").json()
    how = "Play never began, so nobody wins or loses."
    result = {"winner": None, "reason": "aborted", "you": "aborted",
              "text": f"Game aborted: called off. {how}", "how": how}
    for seat in (red, blue):
        seen = payload if seat == red else _get(hub, seat)
        assert (seen["phase"], seen["started"], seen["status"], seen["result"],
                seen["record"]) == ("over", False, "Game aborted.", result, False)
        assert all(cell["owner"] == seen["player"] for cell in seen["cells"])  # no reveal
        record = hub.handle("GET", seat + "/record.txt")
        assert (record.status, record.json()["error"]) == (
            409, "this game was called off before play began: it has no record")
        summary = _summary(hub, game, seat)
        assert (summary["phase"], summary["status"], summary["result"]["you"]) == (
            "over", "Game aborted.", "aborted")
    assert post(hub, blue + "/start").status == 409
    assert post(hub, red + "/rematch").json()["rematch"] is not None


def test_after_a_restart_a_seat_not_heard_from_counts_from_the_start(
        tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = _hub(db=db)
    _, red, _ = _friends(hub)
    hub.close()
    NOW[0] = 10_000.0  # long after Blue's last poll, but the server just started
    again = _hub(db=db, token=tokens("u"))
    assert _seen(again, red) == (None, None)
    NOW[0] = 10_025.0
    assert _seen(again, red) == (25, None)
    assert post(again, red + "/claim").status == 409
    NOW[0] = 10_120.0
    assert _seen(again, red) == (120, "win")
    again.close()


def test_the_grace_period_is_an_option_of_the_hub_and_of_serve(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hub = _hub(claim_seconds=90, away_seconds=5)
    _, red, _ = _friends(hub)
    NOW[0] = 6.0
    assert _seen(hub, red) == (6, None)
    NOW[0] = 90.0
    assert _seen(hub, red) == (90, "win")
    # under 90 s a player merely in another tab (whose page a browser wakes once a
    # minute) could be claimed against
    for bad in ({"claim_seconds": 60}, {"claim_seconds": True}, {"away_seconds": 0},
                {"claim_seconds": "120"}):
        with pytest.raises(stratego.ArgumentError):
            GameHub(**bad)
    import stratego.web.app as app

    seen: dict[str, Any] = {}
    monkeypatch.setattr(app, "run", lambda hub, **_: seen.update(hub=hub))
    assert main(["serve", "--db", ":memory:", "--claim-seconds", "300"]) == 0
    assert seen["hub"].referee.claim_seconds == 300
    assert main(["serve", "--db", ":memory:"]) == 0
    assert seen["hub"].referee.claim_seconds == 120
    assert main(["serve", "--db", ":memory:", "--claim-seconds", "1"]) == 2


# -- nothing private in it -------------------------------------------------------------------


def test_presence_and_claims_answer_alike_whatever_the_hidden_army() -> None:
    """Blue's army differs between two games (its Flag and a Bomb trade places): Red's
    answers while Blue is gone, the refused and the accepted claim (its revealed ranks
    taken out) are the same bytes."""
    rules = stratego.CLASSIC
    army = stratego.random_setup(rules, Player.BLUE, 11)
    flag = next(sq for sq, rank in army.placement if rank is stratego.Rank.FLAG)
    bomb = next(sq for sq, rank in army.placement if rank is stratego.Rank.BOMB)
    where = army.as_dict()
    where[flag], where[bomb] = where[bomb], where[flag]
    armies = [army, stratego.Setup.from_mapping(Player.BLUE, where)]
    answers, boards = [], []
    for setup in armies:
        hub = _hub()
        game, red, _ = _friends(hub, blue_setup=setup.text())
        replies = []
        NOW[0] = 60.0
        replies.append(hub.handle("GET", red))
        version = str(replies[-1].json()["version"])
        replies.append(post(hub, red + "/claim"))
        NOW[0] = 125.0
        replies.append(hub.handle("GET", red, {"since": version, "view": "0", "gone": "1"}))
        replies.append(_unrevealed(post(hub, red + "/claim")))
        answers.append([(r.status, r.content_type, r.body) for r in replies])
        state = hub._games[game].state
        assert state is not None
        boards.append(list(state.pieces()))
    assert answers[0] == answers[1]
    assert json.loads(answers[0][0][2])["opponent_gone_s"] == 60
    assert json.loads(answers[0][2][2])["claim"] == "win"
    assert boards[0] != boards[1]  # the test can fail: the two games' armies differ


def test_a_seat_s_setup_changes_count_as_contact_exactly_as_its_polls() -> None:
    """The other seat cannot tell a player rearranging its army from one whose page just
    polls: either is contact, the payload the same."""
    answers = []
    for during in ("poll", "swap", "random", "silent"):
        hub = _hub()
        _, red, blue = _friends(hub, start=False)
        NOW[0] = 10.0
        if during == "poll":
            hub.handle("GET", blue, {"since": "1", "view": "0"})
        elif during == "swap":
            post(hub, blue + "/swap", {"squares": ["a7", "b7"]})
        elif during == "random":
            post(hub, blue + "/random")
        NOW[0] = 35.0
        reply = hub.handle("GET", red)
        answers.append((reply.status, reply.body))
    assert answers[0] == answers[1] == answers[2]
    assert json.loads(answers[0][1])["opponent_gone_s"] == 25
    assert json.loads(answers[3][1])["opponent_gone_s"] == 35  # the test can tell silence
