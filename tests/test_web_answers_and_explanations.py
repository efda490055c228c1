"""The web game's answers that do not grow twice as fast as
the game (the move list sent once, `before_reply` without it, the view left out where the
page asks so), and why a move is illegal, explained from the seat's own view
(``GET .../explain/{move}``), which a differential test holds to that view alone."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import stratego
from stratego import Player, Rank
from stratego.web import GameHub

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
