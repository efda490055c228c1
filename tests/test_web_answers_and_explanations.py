"""The web game's answers that do not grow twice as fast as
the game (the move list sent once, `before_reply` without it, the view left out where the
page asks so), and why a move is illegal, explained from the seat's own view
(``GET .../explain/{move}``), which a differential test holds to that view alone."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import attrs
import pytest

import stratego
from stratego import Player, Rank
from stratego.variants import RESCUE
from stratego.web import GameHub, payloads
from stratego.web.payloads import before_reply, payload
from stratego.web.referee import played
from test_web import bot_game, first_move

pytest.importorskip("starlette", reason="the web extra is not installed")

pytestmark = pytest.mark.extra("web")

JSON = {"content-type": "application/json"}


def tokens(prefix: str = "t") -> Callable[[], str]:
    counter = itertools.count()
    return lambda: f"{prefix}{next(counter):08d}"


def post(hub: GameHub, path: str, data: Any = None, **query: str) -> Any:
    return hub.handle("POST", path, query, b"" if data is None else json.dumps(data).encode(),
                      JSON)


# -- 1. answers that grow with the game once, not twice -----------------------------------


def _long_game(plies: int) -> tuple[GameHub, str, Any]:
    """A game against the random bot played to about `plies` plies by quiet moves of the
    seat (strikes end games early); the seat's path and the answer to its last move, as
    the page asks for it (``?view=0``)."""
    hub = GameHub(rules="classic", bot="random", seed=5, token=tokens(), move_limit=10_000)
    created = post(hub, "/api/games", {}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = post(hub, base + "/start").json()
    rng = random.Random(1)
    answer = None
    while payload["phase"] == "play" and len(payload["moves"]) < plies:
        moves = [f"{f}-{t}" for f, ts in sorted(payload["legal"].items()) for t in ts]
        taken = {c["square"] for c in payload["cells"]}
        quiet = [m for m in moves if m.split("-")[1] not in taken]
        answer = post(hub, base + "/move", {"move": rng.choice(quiet or moves)}, view="0")
        payload = answer.json()
    assert answer is not None
    return hub, base, answer


def test_a_move_s_answer_holds_the_move_list_once() -> None:
    """Late in a game the answer to a move holds each entry of the move list once: not
    again in `before_reply` (which says how many entries its position had, ``turns``),
    not again in the rows of the list (which hold the short forms), and, as the page asks
    (``?view=0``), not in the view either. So the answer grows by about one entry a
    ply, and stays below the size of the list and its short forms plus what does not grow
    with the game (the board's picture, twice, and the pieces)."""
    hub, base, answer = _long_game(240)
    data = answer.json()
    assert data["phase"] == "play"
    assert len(data["moves"]) >= 200
    early = data["before_reply"]
    assert early is not None
    assert "moves" not in early
    assert "move_rows" not in early
    assert 0 < early["turns"] < len(data["moves"])
    assert data["view"] is None
    assert all("text" not in p for row in data["move_rows"] for p in row["plies"])
    body = answer.body.decode("utf-8")
    # every turn's text once (a text repeated in the game counts as often as it was played)
    for text in set(data["moves"]):
        assert body.count(json.dumps(text, ensure_ascii=False)) == data["moves"].count(text)
    grows = len(json.dumps(data["moves"])) + len(json.dumps(data["move_rows"]))
    fixed = 2 * len(data["svg"]) + 2 * len(json.dumps(data["cells"])) + 20_000
    assert len(answer.body) < grows + fixed

    # A poll with the view carries the whole view (the library's `PlayerView`), once.
    full = hub.handle("GET", base).json()
    assert stratego.PlayerView.from_dict(full["view"]).ply == len(data["moves"])
    lean = hub.handle("GET", base, {"view": "0"}).json()
    assert {**full, "view": None} == lean
    assert hub.handle("GET", base, {"view": "yes"}).status == 400


def test_the_page_inlines_no_view() -> None:
    """The game's page draws from the payload's other fields: its inlined payload holds
    no view (``started`` says play began)."""
    hub, base, _ = _long_game(4)
    game, seat = base.split("/")[3:5]
    page = hub.handle("GET", f"/play/{game}/{seat}").body.decode("utf-8")
    assert '"view":null' in page
    assert '"started":true' in page
    assert "stratego.view/1" not in page



# -- answers whose size does not grow with the game cost what they hold ------------------


NOW = [0.0]
"""The monotonic clock of the hubs below (the wall clock is still: the clocks' fields
are the same however long a request takes)."""


def _hub() -> GameHub:
    return GameHub(rules="classic", bot="random", seed=5, token=tokens(), create_limit=100,
                   clock=lambda: 1_000.0, monotonic=lambda: NOW[0])


def _seats_at_every_stage() -> Iterator[tuple[GameHub, Any, Player]]:
    """Seats of games at every stage "your games" tells apart, each given while its game
    is at that stage: waiting for the friend, set up by one side, called off, under way
    (each side's move, a Rescue to decide, a running clock), aborted by a clock, lost on
    time, resigned, and won by the rules."""
    NOW[0] = 0.0
    hub = _hub()

    def game_of(base: str) -> Any:
        return hub._games[base.split("/")[3]]

    def friends(time: str | None = None, start: bool = True) -> tuple[str, str]:
        options = {"opponent": "human", **({"time": time} if time else {})}
        created = post(hub, "/api/games", options).json()
        red = f"/api/games/{created['game']}/{created['seat']}"
        code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
        seat = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()["seat"]
        blue = f"/api/games/{created['game']}/{seat}"
        if start:
            post(hub, red + "/start")
            post(hub, blue + "/start")
        return red, blue

    def move(base: str) -> None:
        assert post(hub, base + "/move", {"move": first_move(
            hub.handle("GET", base).json())}).status == 200

    created = post(hub, "/api/games", {"opponent": "human"}).json()  # not joined yet
    red = f"/api/games/{created['game']}/{created['seat']}"
    yield hub, game_of(red), Player.RED
    post(hub, red + "/start")
    yield hub, game_of(red), Player.RED
    red, blue = friends(start=False)
    post(hub, red + "/start")  # red is ready, blue sets up
    yield hub, game_of(red), Player.RED
    yield hub, game_of(red), Player.BLUE
    post(hub, red + "/abort")  # called off before play began
    yield hub, game_of(red), Player.RED
    red, blue = friends()
    for _ in range(3):
        move(red)
        move(blue)
    yield hub, game_of(red), Player.RED
    yield hub, game_of(red), Player.BLUE
    red, blue = friends("1+0")  # a running clock
    NOW[0] = 5.0
    move(red)
    yield hub, game_of(red), Player.RED
    yield hub, game_of(red), Player.BLUE
    NOW[0] = 0.0
    red, blue = friends("1+0")  # red never moves: aborted once the clock is read
    NOW[0] = 70.0
    yield hub, game_of(red), Player.BLUE
    NOW[0] = 0.0
    red, blue = friends("1+0")  # both moved: red loses on time
    NOW[0] = 5.0
    move(red)
    move(blue)
    NOW[0] = 70.0
    yield hub, game_of(red), Player.RED
    yield hub, game_of(red), Player.BLUE
    base, _ = bot_game(hub)
    for _ in range(4):
        move(base)
    yield hub, game_of(base), Player.RED
    post(hub, base + "/resign")
    yield hub, game_of(base), Player.RED
    won = stratego.from_position(stratego.CLASSIC, {"a1": "K", "a2": "f", "j1": "F",
                                                    "j10": "s"})
    added = hub.add_game(won)
    base = f"/api/games/{added['game']}/{added['seat']}"
    post(hub, base + "/move", {"move": "a1-a2"})  # the Flag captured
    yield hub, game_of(base), Player.RED
    rules = stratego.HASBRO_2009.with_variants(RESCUE)
    rescue = stratego.from_position(rules, {"a9": "K", "j1": "F", "e10": "m", "j10": "f",
                                            "f10": "b"}, captured=[(Player.RED, Rank.MINER)])
    added = hub.add_game(stratego.apply(rescue, stratego.Move.parse("a9-a10")))
    base = f"/api/games/{added['game']}/{added['seat']}"
    yield hub, game_of(base), Player.RED  # a Rescue to decide
    decision = hub.handle("GET", base).json()["rescue"][0]["move"]  # then the bot moves
    assert post(hub, base + "/move", {"move": decision}).status == 200
    assert stratego.Move.parse(decision).is_rescue
    yield hub, game_of(base), Player.RED


def _summary_from_payload(hub: GameHub, game: Any, player: Player) -> dict[str, Any]:
    """A seat's entry of "your games" as the fields of its whole payload give it."""
    referee = hub.referee
    full = referee.payload(game, player)
    return {"found": True, "url": f"/play/{game.id}/{game.seats[player].token}",
            "player": str(player), "opponent": game.opponent,
            "opponent_name": full["bot_name"] if game.opponent == "bot" else "Human",
            "rules": game.rules.name, "rules_title": full["rules_title"],
            "phase": full["phase"], "to_move": full["to_move"],
            "your_move": full["your_move"], "status": full["status"],
            "result": full["result"], "clock": full["clock"],
            "moves": played(game.moves),
            "created_ms": round(game.created * 1000),
            "last_active_ms": round(referee.last_active(game) * 1000)}


def test_your_games_says_what_each_seat_s_payload_says() -> None:
    """"Your games" (``POST /api/seats``) lists of each seat the fields its payload gives
    (phase, whose move, status, result, clock, moves played), byte for byte, at every
    stage of a game."""
    statuses = set()
    for hub, game, player in _seats_at_every_stage():
        got = hub.referee.summary(game, player)
        assert json.dumps(got) == json.dumps(_summary_from_payload(hub, game, player))
        statuses.add(got["status"])
    assert {"Your decision: rescue a captured piece or decline.", "Game aborted.",
            "Game over.", "Your move (red).", "Waiting for red to move.",
            "Waiting for blue to finish the setup."} <= statuses
    assert any(s.startswith("Waiting for blue to join") for s in statuses)
    assert any(s.startswith("Set up your army") for s in statuses)


def test_your_games_builds_no_view_board_or_move_list() -> None:
    """An entry of "your games" holds a few fields whose size does not grow with the
    game: making it reads neither the seat's view nor the board's picture nor the move
    list (a request names up to 50 seats)."""
    seats = list(_seats_at_every_stage())
    expected = [hub.referee.summary(game, player) for hub, game, player in seats]
    refuse = AssertionError("not needed for a summary")
    with mock.patch.object(payloads, "view", side_effect=refuse), \
            mock.patch.object(payloads, "board_svg", side_effect=refuse), \
            mock.patch.object(payloads, "_move_rows", side_effect=refuse), \
            mock.patch.object(stratego.PlayerView, "to_dict", side_effect=refuse), \
            mock.patch.object(stratego.GameState, "history_records", side_effect=refuse):
        got = [hub.referee.summary(game, player) for hub, game, player in seats]
        hub = seats[0][0]
        body = {"seats": [{"game": g.id, "seat": g.seats[p].token} for _, g, p in seats]}
        listed = post(hub, "/api/seats", body).json()["games"]
    assert got == expected
    assert [{k: v for k, v in e.items() if k not in ("game", "seat")} for e in listed] == (
        expected)


_BEFORE_REPLY_FIELDS = ["phase", "to_move", "your_move", "draw", "result", "revealed",
                        "record", "cells", "legal", "rescue", "last", "strikes", "flash",
                        "captured", "tray", "on_board", "turns", "status", "svg"]


def _polled(game: Any, player: Player, past: stratego.GameState) -> dict[str, Any]:
    """What a poll of `player`'s seat showed at `past` (the game then, still under way),
    the fields `before_reply` repeats, the move list counted (``turns``)."""
    then = payload(attrs.evolve(game, state=past), player, full_view=False)
    return {**{k: then[k] for k in _BEFORE_REPLY_FIELDS if k != "turns"},
            "turns": len(then["moves"]), "draw": None, "record": False}


def test_before_reply_is_the_position_a_poll_showed_after_the_seat_s_turn() -> None:
    """`before_reply`: the position right after the seat's own turn, as a poll of the
    seat would have shown it then, of the move list only its count (``turns``): along a
    game against the bot, and from the start of the game (no earlier position given)."""
    hub = _hub()
    base, payload_now = bot_game(hub)
    game = hub._games[base.split("/")[3]]
    rng = random.Random(3)
    past = None
    for _ in range(12):
        moves = [f"{f}-{t}" for f, ts in sorted(payload_now["legal"].items()) for t in ts]
        move = rng.choice(moves)
        earlier = game.state
        assert earlier is not None
        answer = post(hub, base + "/move", {"move": move}).json()
        if answer["phase"] != "play":
            break
        past = stratego.apply(earlier, stratego.Move.parse(move))
        early = answer["before_reply"]
        assert list(early) == _BEFORE_REPLY_FIELDS
        assert json.dumps(early) == json.dumps(
            {k: _polled(game, Player.RED, past)[k] for k in _BEFORE_REPLY_FIELDS})
        payload_now = answer
    assert past is not None
    assert past.ply > 10
    assert before_reply(game, Player.RED, None) == {
        k: _polled(game, Player.RED, past)[k] for k in _BEFORE_REPLY_FIELDS}


def test_before_reply_reads_the_plies_of_its_request_only() -> None:
    """`before_reply` says how many entries the move list had (``turns``), without making
    the list, its rows or the game's move records again: it replays the plies since the
    request began."""
    hub = _hub()
    base, payload_now = bot_game(hub)
    game = hub._games[base.split("/")[3]]
    for _ in range(6):
        earlier = game.state
        payload_now = post(hub, base + "/move", {"move": first_move(payload_now)}).json()
    expected = before_reply(game, Player.RED, earlier)
    assert expected is not None
    refuse = AssertionError("not needed for before_reply")
    with mock.patch.object(payloads, "_move_rows", side_effect=refuse), \
            mock.patch.object(payloads, "ply_short", side_effect=refuse), \
            mock.patch.object(stratego.GameState, "history_records", side_effect=refuse):
        assert before_reply(game, Player.RED, earlier) == expected
    assert expected["turns"] == len(payload_now["moves"]) - 1

# -- 5. why a move is illegal ------------------------------------------------------------


def _back_and_forth() -> stratego.GameState:
    """Red's Captain on a1 went back and forth as often as the classic web rules allow:
    its one way out (a1-a2) is closed; Red's Sergeant may still move."""
    state = stratego.from_position(stratego.CLASSIC, {
        "a1": "K", "b1": "B", "a3": "B", "e4": "T", "j1": "F",
        "j10": "f", "j9": "t", "h10": "b"})
    for text in ("a1-a2", "j9-i9", "a2-a1", "i9-j9", "a1-a2", "j9-i9", "a2-a1", "i9-j9"):
        state = stratego.apply(state, stratego.Move.parse(text))
    return state


def test_an_illegal_move_is_explained_from_the_seat_s_view() -> None:
    hub = GameHub(rules="classic", token=tokens(), seed=1)
    created = hub.add_game(_back_and_forth(), opponent="human")
    base = f"/api/games/{created['game']}/{created['seat']}"
    reply = hub.handle("GET", base + "/explain/a1-a2")
    assert reply.status == 200
    data = reply.json()
    assert (data["move"], data["legal"]) == ("a1-a2", False)
    assert "back and forth" in data["text"]
    assert data["text"].startswith("a1-a2: ")
    assert hub.handle("GET", base + "/explain/e4-e5").json() == {
        "move": "e4-e5", "legal": True, "text": None}
    assert "diagonally" in hub.handle("GET", base + "/explain/e4-f5").json()["text"]
    assert "not a move" in hub.handle("GET", base + "/explain/zz").json()["text"]
    # a blue piece of Red's view: no rank named
    assert hub.handle("GET", base + "/explain/j9-j8").json()["text"] == (
        "j9-j8: the piece on j9 is blue's, not red's")
    assert hub.handle("GET", base + "/explain/" + "a" * 17).status == 400
    assert hub.handle("POST", base + "/explain/a1-a2", headers=JSON).status == 405
    post(hub, base + "/resign")
    assert hub.handle("GET", base + "/explain/e4-e5").status == 409


def test_the_explanation_depends_only_on_the_seat_s_view() -> None:
    """Differential: Blue's Bomb and Flag trade places between the two games (neither
    moved, Red saw neither), so Red's views are equal and each explanation is the same
    bytes, however the move is wrong."""
    rules = stratego.CLASSIC
    army = stratego.random_setup(rules, Player.BLUE, 11)
    flag = next(sq for sq, rank in army.placement if rank is Rank.FLAG)
    bomb = next(sq for sq, rank in army.placement if rank is Rank.BOMB)
    where = army.as_dict()
    where[flag], where[bomb] = where[bomb], where[flag]
    setups = [army, stratego.Setup.from_mapping(Player.BLUE, where)]
    red = stratego.random_setup(rules, Player.RED, 3)
    states = [stratego.new_game(rules, red, blue) for blue in setups]
    assert stratego.view(states[0], Player.RED) == stratego.view(states[1], Player.RED)
    assert states[0] != states[1]
    squares = [sq.name for sq in stratego.SQUARES]
    moves = [f"{flag.name}-{bomb.name}", f"{bomb.name}-{flag.name}", "a4-a5", "a4-a6",
             "--", "K@b2", "zz"] + [f"{a}-{b}" for a, b in zip(squares[30:50], squares[40:60],
                                                                  strict=True)]
    answers = []
    for state in states:
        hub = GameHub(rules=rules, token=tokens(), seed=1)
        created = hub.add_game(state, opponent="human")
        base = f"/api/games/{created['game']}/{created['seat']}"
        replies = [hub.handle("GET", base + f"/explain/{m}") for m in moves]
        answers.append([(r.status, r.body) for r in replies])
    assert answers[0] == answers[1]
    assert any(b'"legal":false' in body for _, body in answers[0])


# -- 3. what a seat sees of the other seat, beyond the board ------------------------------


class RaisingBot:
    """A bot that fails at every move (the server plays for it)."""

    name = "raising"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def __call__(self, seen: stratego.PlayerView) -> stratego.Move:
        raise RuntimeError("no move today")


def test_a_failing_bot_s_stand_in_move_is_random_not_its_first() -> None:
    """A bot that fails is replaced and a legal move played for it. Its first legal move (in
    square order) would tell the player that every piece listed before the one that moved
    cannot move (a Bomb or the Flag); a random legal move tells what any move tells."""
    from stratego.engine import initial_state

    hub = GameHub(bot="test_web_answers_and_explanations:RaisingBot", seed=3, token=tokens())
    created = post(hub, "/api/games", {}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = post(hub, base + "/start").json()
    for _ in range(8):
        if payload["phase"] != "play":
            break
        moves = [f"{f}-{t}" for f, ts in sorted(payload["legal"].items()) for t in ts]
        payload = post(hub, base + "/move", {"move": moves[-1]}).json()
    played = hub._games[created["game"]].state
    assert played is not None
    state = initial_state(played.info)
    firsts = []
    for move in played.moves():
        if state.to_move is Player.BLUE:  # the bot's seat
            firsts.append(move == stratego.view(state, Player.BLUE).legal_moves[0])
        state = stratego.apply(state, move)
    assert len(firsts) >= 4
    assert not all(firsts)


def test_your_games_shows_no_setup_activity_of_the_other_seat() -> None:
    """"Your games" sorts by `last_active_ms`: while the armies are set up it is the game's
    creation, so the other seat's swaps and random draws (its own business, which the
    payload's ``version`` keeps from the first seat) do not move it; in play, the seats'
    actions do."""
    now = [1000.0]
    hub = GameHub(clock=lambda: now[0], token=tokens())
    created = post(hub, "/api/games", {"opponent": "human"}).json()
    game, red = created["game"], created["seat"]
    code = hub.handle("GET", f"/api/games/{game}/{red}").json()["join"].rsplit("/", 1)[1]
    now[0] = 1010.0
    blue = post(hub, f"/api/games/{game}/join", {"code": code}).json()["seat"]

    def red_sees() -> tuple[int, int]:
        summary = post(hub, "/api/seats", {"seats": [{"game": game, "seat": red}]}).json()
        version = hub.handle("GET", f"/api/games/{game}/{red}").json()["version"]
        return summary["games"][0]["last_active_ms"], version

    before = red_sees()
    now[0] = 1100.0
    assert post(hub, f"/api/games/{game}/{blue}/swap", {"squares": ["a10", "b10"]}).status == 200
    now[0] = 1200.0
    assert post(hub, f"/api/games/{game}/{blue}/random").status == 200
    assert red_sees() == before
    now[0] = 1300.0
    post(hub, f"/api/games/{game}/{red}/start")
    post(hub, f"/api/games/{game}/{blue}/start")
    assert red_sees()[0] == 1_300_000  # play began: both seats saw the second Start
