"""The web game's server (`stratego.web`), tested through HTTP with Starlette's TestClient.

What it guarantees: each seat is sent only what its player's view holds (a differential
test: two games whose bot armies differ but whose views are equal get byte-identical
answers, pages, JSON and SVG alike), moves are checked by the library, a bad or illegal
request gets a clear status and changes nothing, a seat token opens only its own game and
side, and the server bounds what one client can make it hold.
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stratego
from strategies import new_games, random_playout, rules_values, seeds
from stratego import MissingDependencyError, Player, Rank, Setup
from stratego.svg import board_svg

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="starlette's TestClient needs httpx2 (test extra)")

from starlette.testclient import TestClient

from stratego.cli import main
from stratego.web import GameHub, create_app, ply_short, ply_text

pytestmark = pytest.mark.extra("web")

SQUARE_NAMES = [sq.name for sq in stratego.SQUARES]


def tokens(prefix: str = "t") -> Callable[[], str]:
    """Deterministic ids and tokens, so two servers can answer byte for byte alike."""
    counter = itertools.count()
    return lambda: f"{prefix}{next(counter):08d}"


JSON = {"content-type": "application/json"}
"""The header a state-changing request needs (the page's fetch calls send it)."""


def tc(hub: GameHub) -> TestClient:
    """A client of `hub` that sends JSON, as the page does."""
    return TestClient(create_app(hub), headers=JSON, base_url="http://localhost")


def client(**options: Any) -> TestClient:
    options.setdefault("token", tokens())
    return tc(GameHub(**options))


def post(hub: GameHub, path: str, data: Any = None) -> Any:
    """A POST straight to the hub, with the JSON header."""
    return hub.handle("POST", path, body=b"" if data is None else json.dumps(data).encode(),
                      headers=JSON)


def bot_game(hub: GameHub) -> tuple[str, dict[str, Any]]:
    """A new game against the hub's bot, started: its seat's API path and payload."""
    created = post(hub, "/api/games", {}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    return base, post(hub, base + "/start").json()


def two_people(hub: GameHub) -> tuple[str, str]:
    """A game between two people, joined and started by both: the two seats' API paths."""
    created = post(hub, "/api/games", {"opponent": "human"}).json()
    red = f"/api/games/{created['game']}/{created['seat']}"
    code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
    seat = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()["seat"]
    blue = f"/api/games/{created['game']}/{seat}"
    post(hub, red + "/start")
    assert post(hub, blue + "/start").json()["phase"] == "play"
    return red, blue


def new_game(c: TestClient, **options: Any) -> tuple[str, dict[str, Any]]:
    reply = c.post("/api/games", json=options)
    assert reply.status_code == 201, reply.text
    created = reply.json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    return base, created


def start(c: TestClient, base: str) -> dict[str, Any]:
    reply = c.post(base + "/start")
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def first_move(payload: dict[str, Any], avoid: frozenset[str] = frozenset()) -> str:
    for frm in sorted(payload["legal"]):
        for to in payload["legal"][frm]:
            if to not in avoid:
                return f"{frm}-{to}"
    raise AssertionError("no move to play")


def swapped(setup: Setup, a: str, b: str) -> Setup:
    where = setup.as_dict()
    sa, sb = stratego.Square.parse(a), stratego.Square.parse(b)
    where[sa], where[sb] = where[sb], where[sa]
    return Setup.from_mapping(setup.player, where)


# -- the differential no-leak test ----------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "jumbo-2014+rescue", "hasbro-2009+silent-defense"])
def test_two_games_with_equal_views_answer_byte_for_byte_alike(rules: str) -> None:
    """Blue's (the bot's) Flag and one of its Bombs trade places between the two games:
    neither moves, and the human never strikes them, so Red's views stay equal and every
    answer to Red (page, JSON, SVG, errors) must be the same bytes."""
    r = stratego.editions.by_name(rules)
    army = stratego.random_setup(r, Player.BLUE, 11)
    flag = next(sq for sq, rank in army.placement if rank is Rank.FLAG)
    bomb = next(sq for sq, rank in army.placement if rank is Rank.BOMB)
    setups = [army, swapped(army, flag.name, bomb.name)]
    avoid = frozenset({flag.name, bomb.name})
    hubs = [GameHub(rules=rules, bot="random", bot_setup=s.text(r.setup.depth), seed=7,
                    token=tokens(), clock=lambda: 1000.0, monotonic=lambda: 5.0)
            for s in setups]
    clients = [tc(h) for h in hubs]

    def both(method: str, url: str, **kw: Any) -> Any:
        replies = [c.request(method, url, **kw) for c in clients]
        first, second = replies
        assert (first.status_code, first.headers.get("content-type"), first.content) == (
            second.status_code, second.headers.get("content-type"), second.content
        ), f"{method} {url} answered differently"
        return first

    created = both("POST", "/api/games", json={"time": "5+3"}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    page = f"/play/{created['game']}/{created['seat']}"
    mine = {"seats": [{"game": created["game"], "seat": created["seat"]}]}
    both("GET", page)
    both("GET", base + "/presets")
    both("POST", base + "/swap", json={"squares": ["a1", "b1"]})
    payload = both("POST", base + "/start").json()
    plies = 0
    for turn in range(25):
        if payload["phase"] != "play":
            break
        for bad in ("a1-b2", "c5-c6", "--", "K@b2", "zz", "a1-a1", "a7-a6", "j10-j9"):
            assert both("POST", base + "/move", json={"move": bad}).status_code in (400, 409)
            both("GET", base + f"/explain/{bad}")  # why: from the seat's view alone
        both("GET", base + "/board.svg")
        both("GET", base + "/record.txt")
        both("GET", page)
        both("GET", base, params={"since": payload["version"]})
        both("GET", base, params={"view": "0"})  # the page's own poll
        both("POST", "/api/seats", json=mine)
        payload = both("POST", base + "/move", json={"move": first_move(payload, avoid)}).json()
        both("GET", base)
        plies = payload["view"]["ply"]
        assert turn < 5 or plies > 0
    assert plies >= 20 or payload["phase"] == "over"
    # the bot's answer to a draw offer comes from public counts only (once over, the army
    # is shown face up: only the answer is compared)
    offers = [c.post(base + "/offer-draw").json() for c in clients]
    assert [(o.get("phase"), o.get("notice"), o.get("error")) for o in offers] == [
        (offers[0].get("phase"), offers[0].get("notice"), offers[0].get("error"))] * 2
    # The test can fail: the two servers do hold different armies.
    states = [h._games[created["game"]].state for h in hubs]
    assert states[0] is not None
    assert states[1] is not None
    assert board_svg(states[0]) != board_svg(states[1])
    assert payload["view"] is not None
    assert "possible" in json.dumps(payload["view"])


@settings(max_examples=30)
@given(new_games(rules_values()), seeds, st.integers(0, 250), st.sampled_from(list(Player)),
       seeds, st.lists(st.tuples(st.sampled_from(SQUARE_NAMES), st.sampled_from(SQUARE_NAMES)),
                       min_size=1, max_size=6))
def test_property_states_with_equal_views_get_equal_answers(
        start: stratego.GameState, seed: int, plies: int, player: Player, draw_seed: int,
        tries: list[tuple[str, str]]) -> None:
    """Invariant: a state and another state drawn from the same player's view (the
    sampler's guarantee: the view is the same) give that player byte-identical answers:
    the payload, the page, the SVG, every past position of review mode, and the refusal of
    every move it may not play. A finished game reveals the opponent's army by design:
    there the answers are equal once the revealed ranks are taken out."""
    state = random_playout(start, seed, plies)[-1]
    seen = stratego.view(state, player)
    other = stratego.sample_state(seen, draw_seed)
    assert stratego.view(other, player) == seen
    legal = {str(m) for m in seen.legal_moves}
    # a Rescue decision may offer "--" (declining) or "M@a1": only what is not legal is sent
    refused = [text for text in [f"{a}-{b}" for a, b in tries] + ["--", "M@a1"]
               if text not in legal]
    answers = []
    for full in (state, other):
        hub = GameHub(rules=full.rules, token=tokens(), seed=1)
        created = hub.add_game(full, player=player, opponent="human")
        base = f"/api/games/{created['game']}/{created['seat']}"
        if full.is_over:  # the army is revealed, by design: compare the rest
            replies = [_unrevealed(hub.handle("GET", base))]
        else:
            replies = [hub.handle("GET", base), hub.handle("GET", created["url"]),
                       hub.handle("GET", base + "/board.svg"),
                       hub.handle("GET", base + "/record.txt")]
        turns = len(seen.history)
        reviews = [hub.handle("GET", base + f"/review/{k}")
                   for k in sorted({0, turns // 2, turns})]
        replies += [_unrevealed(r, review=True) for r in reviews] if full.is_over else reviews
        replies += [hub.handle("GET", base + f"/explain/{text}") for text in refused]
        replies += [hub.handle("GET", base, {"view": "0"})] if not full.is_over else []
        replies += [post(hub, base + "/move", {"move": text}) for text in refused]
        answers.append([(r.status, r.content_type, r.body) for r in replies])
    assert answers[0] == answers[1]
    assert refused  # "--" and "M@a1" are legal only in a Rescue decision, steps never there
    assert all(status >= 400 for status, _, _ in answers[0][len(answers[0]) - len(refused):])


def _unrevealed(reply: Any, review: bool = False) -> Any:
    """A payload reply (or a `review` of a past position) with the ranks revealed at the
    end of the game (and the picture of the payload, which shows them) taken out."""
    data = reply.json()
    assert review or data["phase"] == "over"
    assert data["revealed"] is True
    for cell in data["cells"]:
        if cell.pop("revealed", False):
            cell["rank"] = cell["label"] = None
    for side, entries in data["tray"].items():  # the losses as the view knew them
        hidden = sum(entry["revealed"] for entry in entries)
        kept = [{**entry, "count": entry["count"] - entry["revealed"], "revealed": 0}
                for entry in entries if entry["count"] > entry["revealed"]]
        if hidden:
            if kept and kept[-1]["rank"] is None:
                kept[-1]["count"] += hidden
            else:
                kept.append({"rank": None, "label": "?", "name": "unknown",
                             "count": hidden, "revealed": 0})
        data["tray"][side] = kept
        data["captured"][side] = [e["label"] for e in kept for _ in range(e["count"])]
    if not review:
        del data["svg"]
    return type(reply)(reply.status, reply.content_type, json.dumps(data).encode())


def test_the_bot_army_never_reaches_the_page_before_a_strike() -> None:
    secret = stratego.random_setup(stratego.CLASSIC, Player.BLUE, 3)
    c = client(bot_setup=secret.text(), seed=1)
    base, created = new_game(c)
    payload = start(c, base)
    html = c.get(created["url"]).text
    for text in (json.dumps(payload), html, c.get(base + "/board.svg").text):
        assert secret.text() not in text
    blue = [cell for cell in payload["cells"] if cell["owner"] == "blue"]
    assert len(blue) == 40
    assert all(cell["rank"] is None for cell in blue)
    assert "</script" not in html.split('id="initial"', 1)[1].split("</script>", 1)[0]


# -- a game through the API -------------------------------------------------------------


def test_a_game_against_the_bot_from_setup_to_moves() -> None:
    c = client(seed=2)
    base, created = new_game(c)
    assert created["player"] == "red"
    assert created["url"].startswith("/play/")
    payload = c.get(base).json()
    assert payload["schema"] == "stratego.web/2"
    assert payload["phase"] == "setup"
    assert payload["view"] is None
    assert len(payload["cells"]) == 40
    assert {c["owner"] for c in payload["cells"]} == {"red"}

    where = {cell["square"]: cell["rank"] for cell in payload["cells"]}
    after = c.post(base + "/swap", json={"squares": ["a1", "j4"]}).json()
    moved = {cell["square"]: cell["rank"] for cell in after["cells"]}
    assert (moved["a1"], moved["j4"]) == (where["j4"], where["a1"])
    assert after["version"] == payload["version"]  # a change to the army only its seat sees

    # a setup with the Flag on the back row, behind full rows: no early strike on it ends
    # the game before the three rounds below
    setup = next(setup for setup in (stratego.random_setup(stratego.CLASSIC, Player.RED, k)
                                     for k in range(9, 100))
                 if any(rank is stratego.Rank.FLAG and sq.name[1:] == "1"
                        for sq, rank in setup.as_dict().items()))
    text = setup.text()
    assert c.post(base + "/setup", json={"text": text}).json()["setup"] == text
    assert c.post(base + "/random").json()["setup"] != text
    assert c.post(base + "/setup", json={"text": text}).json()["setup"] == text

    payload = start(c, base)
    assert payload["phase"] == "play"
    assert payload["status"] == "Your move (red)."
    assert payload["view"]["player"] == "red"
    assert payload["ready"] == {"red": True, "blue": True}
    for _ in range(3):
        before = payload["view"]["ply"]
        payload = c.post(base + "/move", json={"move": first_move(payload)}).json()
        assert payload["view"]["ply"] == before + 2  # the bot answered
        assert payload["moves"][-1].startswith("blue: ")
        assert len(payload["last"]) == 2
    assert c.get(base, params={"since": payload["version"]}).status_code == 204
    assert payload["before_reply"] is not None  # the move's answer only: polls never
    assert c.get(base, params={"since": 0}).json() == {**payload, "before_reply": None}


def test_the_strikes_of_the_last_round_are_shown_with_the_ranks_they_reveal() -> None:
    rules = stratego.CLASSIC
    state = stratego.from_position(rules, {"a4": "K", "a5": "j", "j1": "F", "j10": "f",
                                           "e10": "b", "b1": "N"})
    hub = GameHub(rules=rules, bot="random", seed=1, token=tokens())
    c = tc(hub)
    created = hub.add_game(state)
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = c.post(base + "/move", json={"move": "a4-a5"}).json()
    assert payload["strikes"] == ["red: a4xa5, Captain (6) strikes Major (7): defender wins"]
    assert payload["captured"] == {"red": ["6"], "blue": []}
    known = [(cell["owner"], cell["rank"], cell["label"]) for cell in payload["cells"]
             if cell["owner"] == "blue" and cell["rank"] is not None]
    assert known == [("blue", "J", "7")]  # the Major, wherever the bot moved it since
    assert payload["moves"][0] == payload["strikes"][0]


_BEFORE_REPLY = ("phase", "to_move", "your_move", "cells", "legal", "rescue", "last",
                 "strikes", "flash", "captured", "tray", "on_board", "svg", "draw", "result",
                 "revealed", "record")


def test_a_move_s_answer_holds_the_seat_s_position_before_the_bot_s_reply() -> None:
    """The answer to a move the bot answered holds `before_reply` (a poll never does: it
    would replay the game for every poll): the position right after the seat's own move,
    exactly as a poll of the seat would have shown it then (the same position in a game
    between two people: the same fields, but for the status, which names the bot), built
    from the seat's view.
    None without a reply: before the seat's first move, after a move that ends the game,
    between two people."""
    rules = stratego.CLASSIC
    state = stratego.from_position(rules, {"a4": "J", "b1": "X", "e1": "F", "a5": "k",
                                           "j9": "t", "j10": "f", "a7": "b"})
    hub = GameHub(rules=rules, seed=1, token=tokens())
    created = hub.add_game(state)
    base = f"/api/games/{created['game']}/{created['seat']}"
    answer = post(hub, base + "/move", {"move": "a4-a5"}).json()
    assert [m.split(":")[0] for m in answer["moves"]] == ["red", "blue"]
    early = answer["before_reply"]
    assert sorted(early) == sorted((*_BEFORE_REPLY, "status", "turns"))
    assert early["turns"] == 1  # the move list then: the answer's first entry (not repeated)
    assert early["flash"] == [{"from": "a4", "to": "a5", "attacker": "7", "defender": "6",
                               "result": "attacker"}]
    assert (early["to_move"], early["your_move"], early["legal"]) == ("blue", False, {})
    assert early["status"] == "Waiting for the bot to move."
    mine = stratego.apply(state, stratego.Move.parse("a4-a5"))
    friend = GameHub(rules=rules, token=tokens("f"))
    made = friend.add_game(mine, opponent="human")
    poll = friend.handle("GET", f"/api/games/{made['game']}/{made['seat']}").json()
    assert {k: early[k] for k in _BEFORE_REPLY} == {k: poll[k] for k in _BEFORE_REPLY}
    assert poll["moves"] == answer["moves"][:early["turns"]]
    assert all(cell["rank"] is None for cell in early["cells"]
               if cell["owner"] == "blue")  # the bot's pieces: none named
    assert hub.handle("GET", base).json()["before_reply"] is None
    blue = post(hub, "/api/games", {"colour": "blue"}).json()
    first = post(hub, f"/api/games/{blue['game']}/{blue['seat']}/start").json()
    assert (len(first["moves"]), first["before_reply"]) == (1, None)  # the bot's first move

    # the Major takes the Flag: the game is over, no reply
    created = hub.add_game(stratego.from_position(
        rules, {"a4": "J", "e1": "F", "a5": "f", "j9": "t"}))
    over = post(hub, f"/api/games/{created['game']}/{created['seat']}/move", {"move": "a4-a5"})
    assert (over.json()["phase"], over.json()["before_reply"]) == ("over", None)
    people = GameHub(rules=rules, seed=1, token=tokens("p"))
    red, _ = two_people(people)
    moved = post(people, red + "/move", {"move": first_move(people.handle("GET", red).json())})
    assert (len(moved.json()["moves"]), moved.json()["before_reply"]) == (1, None)


def test_a_barrage_piece_moves_to_an_empty_home_square_in_the_setup() -> None:
    """Jumbo 2014 Barrage: eight pieces placed anywhere in the four home rows, so a swap
    with an empty square moves a piece there."""
    c = client(seed=1)
    base, _ = new_game(c, rules="jumbo-2014+barrage")
    payload = c.get(base).json()
    where = {cell["square"]: cell["rank"] for cell in payload["cells"]}
    assert len(where) == 8
    assert len(payload["home"]) == 40
    piece = sorted(where)[0]
    empty = next(sq for sq in payload["home"] if sq not in where)
    after = c.post(base + "/swap", json={"squares": [piece, empty]}).json()
    moved = {cell["square"]: cell["rank"] for cell in after["cells"]}
    assert piece not in moved
    assert moved[empty] == where[piece]
    started = start(c, base)
    assert started["phase"] == "play"
    # docs/build-a-ui.md: `setup` and `home` are "`null` once play starts"
    assert (started["setup"], started["home"]) == (None, None)


def test_rescue_decisions_are_offered_and_played() -> None:
    """Hasbro 2009 Rescue: a piece that reaches the opponent's back row may bring back a
    captured piece of its side (the Rescue variant card); the decision is the player's."""
    rules = stratego.HASBRO_2009.with_variants(stratego.variants.RESCUE)
    state = stratego.from_position(
        rules, {"a9": "K", "j1": "F", "e10": "m", "j10": "f", "f10": "b"},
        captured=[(Player.RED, Rank.MINER)])
    hub = GameHub(rules=rules, bot="random", seed=1, token=tokens())
    c = tc(hub)
    created = hub.add_game(state)
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = c.post(base + "/move", json={"move": "a9-a10"}).json()
    assert payload["status"] == "Your decision: rescue a captured piece or decline."
    options = {option["move"]: option["text"] for option in payload["rescue"]}
    assert options["--"] == "Decline the Rescue"
    assert options["N@b2"] == "Rescue Miner (8) to b2"
    assert payload["legal"] == {}
    payload = c.post(base + "/move", json={"move": "N@b2"}).json()
    assert payload["rescue"] == []
    assert "red: rescues Miner (8) to b2" in payload["moves"]
    assert payload["view"]["ply"] == 2  # and the bot moved after the decision


def test_ultimate_lightning_captains_have_their_two_step_targets() -> None:
    """Jumbo 2014 Ultimate Lightning: a Captain moves one or two squares, turning after
    the first if it likes; the page highlights every such target."""
    rules = stratego.editions.by_name("jumbo-2014+ultimate-lightning")
    state = stratego.from_position(rules, {"e2": "K", "a1": "F", "j10": "f", "a10": "b"})
    hub = GameHub(rules=rules, token=tokens())
    created = hub.add_game(state)
    payload = hub.handle("GET", f"/api/games/{created['game']}/{created['seat']}").json()
    assert set(payload["legal"]["e2"]) == {"e1", "e3", "e4", "d2", "f2", "c2", "g2", "d1",
                                           "f1", "d3", "f3"}


# -- two people ---------------------------------------------------------------------------


def test_two_people_join_by_link_and_see_only_their_own_ranks() -> None:
    c = client(seed=5)
    red_base, created = new_game(c, opponent="human")
    red = c.get(red_base).json()
    assert red["join"].startswith(f"/join/{created['game']}/")
    assert c.get(red["join"]).status_code == 200  # the join page
    code = red["join"].rsplit("/", 1)[1]
    joined = c.post(f"/api/games/{created['game']}/join", json={"code": code})
    assert joined.status_code == 200
    assert joined.json()["player"] == "blue"
    blue_base = f"/api/games/{created['game']}/{joined.json()['seat']}"
    again = c.post(f"/api/games/{created['game']}/join", json={"code": code})
    assert again.status_code == 409  # a link seats one person
    used = c.get(red["join"])  # a page that says the game has its two players
    assert used.status_code == 200
    assert '"used":true' in used.text
    assert joined.json()["seat"] not in used.text
    assert created["seat"] not in used.text
    assert c.get(red_base).json()["join"] is None

    assert start(c, red_base)["phase"] == "waiting"
    assert c.post(red_base + "/swap", json={"squares": ["a1", "b1"]}).status_code == 409
    payload = start(c, blue_base)
    assert payload["phase"] == "play"
    assert payload["status"] == "Waiting for red to move."
    assert c.post(blue_base + "/move", json={"move": "a7-a6"}).json()["error"] == (
        "it is red's turn")
    red = c.get(red_base).json()
    assert all(cell["rank"] is None for cell in red["cells"] if cell["owner"] == "blue")
    assert all(cell["rank"] is None for cell in payload["cells"] if cell["owner"] == "red")
    red = c.post(red_base + "/move", json={"move": first_move(red)}).json()
    assert red["status"] == "Waiting for blue to move."
    blue = c.get(blue_base).json()
    assert blue["status"] == "Your move (blue)."
    assert len(blue["moves"]) == 1


def test_the_other_seat_cannot_count_a_player_s_setup_changes() -> None:
    """Swaps, pastes and Random presses change only their own seat's army: the other seat's
    version (in its payload, and the 204 of its polls) does not move with them, where it
    counted each one. Start does change what the other seat sees ("Waiting for ...")."""
    c = client(seed=5)
    red_base, created = new_game(c, opponent="human")
    code = c.get(red_base).json()["join"].rsplit("/", 1)[1]
    seat = c.post(f"/api/games/{created['game']}/join", json={"code": code}).json()["seat"]
    blue_base = f"/api/games/{created['game']}/{seat}"
    version = c.get(red_base).json()["version"]
    armies = {c.post(blue_base + "/random").json()["setup"] for _ in range(3)}
    assert len(armies) == 3  # a seeded hub's presses still draw new armies
    c.post(blue_base + "/swap", json={"squares": ["a7", "b7"]})
    c.post(blue_base + "/setup", json={"text": stratego.random_setup(
        stratego.CLASSIC, Player.BLUE, 4).text()})
    assert c.get(red_base).json()["version"] == version
    assert c.get(red_base + f"?since={version}").status_code == 204
    start(c, blue_base)
    assert c.get(red_base).json()["version"] == version + 1


def test_a_seat_s_generated_presets_come_from_its_secret_not_the_game_id() -> None:
    """The setup model's presets are new per game, drawn from the seat's secret token: the
    game id is in both players' links, and presets drawn from it let the opponent compute
    the armies a player may start from."""
    def tokens_of(red: str) -> Callable[[], str]:
        given = iter(["game1", red, "blue-seat"])
        counter = itertools.count()
        return lambda: next(given, f"z{next(counter):08d}")

    pages = []
    for red in ("red-seat-a", "red-seat-b", "red-seat-a"):
        c = tc(GameHub(token=tokens_of(red), seed=1))
        base, created = new_game(c, opponent="human")
        assert created["game"] == "game1"
        presets = c.get(base + "/presets").json()["presets"]
        pages.append([p["text"] for p in presets if p["source"] == "model"])
    assert pages[0]
    assert pages[0] == pages[2]  # the same seat: the same presets
    assert pages[0] != pages[1]  # the same game id, another secret: other presets


# -- refusals change nothing ------------------------------------------------------------------


def test_bad_requests_get_clear_statuses_and_change_nothing() -> None:
    c = client(seed=3, max_body=2000)
    base, _created = new_game(c)
    before = c.get(base).json()

    def refused(status: int, method: str, url: str, **kw: Any) -> str:
        reply = c.request(method, url, **kw)
        assert reply.status_code == status, (url, reply.status_code, reply.text)
        assert reply.headers["content-type"] == "application/json"
        error: str = reply.json()["error"]
        assert error
        return error

    assert "Start" in refused(409, "POST", base + "/move", json={"move": "a4-a5"})
    refused(400, "POST", base + "/swap", content=b"{not json")
    refused(400, "POST", base + "/swap", json=["a1", "b1"])
    refused(400, "POST", base + "/swap", json={"squares": ["a1"]})
    refused(400, "POST", base + "/swap", json={"squares": ["a1", "z99"]})
    assert "setup squares" in refused(400, "POST", base + "/swap",
                                      json={"squares": ["a1", "a7"]})
    refused(400, "POST", base + "/setup", json={"text": "MMMM"})
    refused(400, "POST", base + "/setup", json={"text": "M" * 40})  # a setup the army refuses
    refused(400, "POST", base + "/setup", json={"text": 12})
    refused(413, "POST", base + "/setup", json={"text": "x" * 5000})
    refused(404, "POST", base + "/surrender")
    refused(405, "GET", base + "/start")
    refused(405, "DELETE", base)
    assert c.get(base).json() == before

    start(c, base)
    during = c.get(base).json()
    refused(400, "POST", base + "/move", json={"move": "a4-"})
    refused(400, "POST", base + "/move", json={})
    refused(400, "POST", base + "/move", json={"move": ["a4-a5"]})
    assert "cannot move" in refused(409, "POST", base + "/move",
                                    json={"move": _immovable_move(during)})
    refused(409, "POST", base + "/move", json={"move": "e4-e8"})
    refused(409, "POST", base + "/random")
    assert "over" in refused(409, "GET", base + "/record.txt")
    assert c.get(base).json() == during


def _immovable_move(payload: dict[str, Any]) -> str:
    """A step forward for one of our Bombs."""
    for cell in payload["cells"]:
        if cell["owner"] == "red" and cell["rank"] == "B":
            square = stratego.Square.parse(cell["square"])
            up = stratego.Square.parse(f"{cell['square'][0]}{square.row + 2}")
            return f"{square}-{up}"
    raise AssertionError("no Bomb")


def test_a_seat_token_opens_only_its_own_game_and_side() -> None:
    c = client(seed=4)
    base_a, a = new_game(c)
    _, b = new_game(c)
    assert c.get(f"/api/games/{a['game']}/{b['seat']}").status_code == 403
    assert c.get(f"/play/{a['game']}/{b['seat']}").status_code == 403
    assert c.post(f"/api/games/{b['game']}/{a['seat']}/start").status_code == 403
    assert c.get(f"/api/games/{a['game']}/nope").status_code == 403
    assert c.get(f"/api/games/unknown/{a['seat']}").status_code == 404
    assert c.get(f"/api/games/{a['game']}").status_code == 404
    # The bot's own seat exists but no token opens it from outside, and B is untouched.
    assert c.get(base_a).json()["phase"] == "setup"
    assert c.get(f"/api/games/{b['game']}/{b['seat']}").json()["ready"]["red"] is False


def test_several_games_at_once_do_not_interfere() -> None:
    c = client(seed=6)
    games = [new_game(c)[0] for _ in range(3)]
    payloads = [start(c, base) for base in games[:2]]
    moved = c.post(games[0] + "/move", json={"move": first_move(payloads[0])}).json()
    assert moved["view"]["ply"] == 2
    assert c.get(games[1]).json() == payloads[1]  # the other game did not move
    assert c.get(games[2]).json()["phase"] == "setup"
    again = c.post(games[1] + "/move", json={"move": first_move(payloads[1])}).json()
    assert again["view"]["ply"] == 2
    assert c.get(games[0]).json() == {**moved, "before_reply": None}  # (the answer's own)


def test_ids_and_tokens_are_unguessable_by_default() -> None:
    hub = GameHub()
    made = [hub.create({}) for _ in range(5)]
    values = [m["game"] for m in made] + [m["seat"] for m in made]
    assert len(set(values)) == 10
    assert all(len(v) >= 22 for v in values)


# -- limits ------------------------------------------------------------------------------------


def test_live_games_are_limited_and_idle_games_expire() -> None:
    """A full server reclaims a game nobody acted in lately; with every game in play it
    refuses (503); a game nobody asks about for `idle_seconds` is dropped."""
    now = [0.0]
    hub = GameHub(max_games=2, max_client_games=3, idle_seconds=600, protect_seconds=120,
                  token=tokens(),
                  clock=lambda: now[0])
    c = tc(hub)
    bases = [new_game(c)[0] for _ in range(2)]
    for base in bases:
        start(c, base)  # a seat acted: protected for two minutes
    reply = c.post("/api/games", json={})
    assert reply.status_code == 503
    assert "2 games" in reply.json()["error"]
    assert 0 < int(reply.headers["retry-after"]) <= 60
    now[0] = 130
    assert c.get(bases[1]).status_code == 200  # asking keeps a game alive, not protected
    new_game(c)  # reclaims the least recently active: the first game
    assert c.get(bases[0]).status_code == 404
    assert c.get(bases[1]).status_code == 200
    assert hub.live_games == 2
    now[0] = 800  # everything idle for more than ten minutes
    reply = c.get(bases[1])
    assert reply.status_code == 404
    assert "expired" in reply.json()["error"]
    assert hub.live_games == 0


def test_request_bodies_are_limited_before_they_are_read() -> None:
    c = client(max_body=100)
    reply = c.post("/api/games", content=b"{" + b" " * 200 + b"}",
                   headers={"content-type": "application/json"})
    assert reply.status_code == 413
    assert post(GameHub(max_body=10), "/api/games", "x" * 11).status == 413


def test_bad_options_are_refused() -> None:
    c = client()
    assert c.post("/api/games", json={"rules": "chess"}).status_code == 400
    assert c.post("/api/games", json={"opponent": "cat"}).status_code == 400
    assert c.post("/api/games", json={"colour": "green"}).status_code == 400
    assert c.post("/api/games", json={"shade": "red"}).status_code == 400
    assert c.post("/api/games", json={"bot": "deep-blue"}).status_code == 400
    assert c.post("/api/games", json={"time": "5+300"}).status_code == 400
    assert c.post("/api/games", json={"variants": "barrage"}).status_code == 400
    assert c.post("/api/games", json={"rules": "jumbo-2014+barrage"}).status_code == 201
    with pytest.raises(stratego.StrategoError, match="setup"):
        GameHub(bot_setup="MMMM")
    with pytest.raises(stratego.StrategoError, match="unknown bot"):
        GameHub(bot="deep-blue")
    with pytest.raises(stratego.StrategoError, match="max_games"):
        GameHub(max_games=0)


# -- finishing, records, pages, assets ---------------------------------------------------------


def test_a_finished_game_offers_its_record() -> None:
    rules = stratego.CLASSIC
    blue = stratego.random_setup(rules, Player.BLUE, 1)
    flag = next(sq for sq, rank in blue.placement if rank is Rank.FLAG)
    blue = swapped(blue, flag.name, "a7")
    red = stratego.random_setup(rules, Player.RED, 2)
    scout = next(sq for sq, rank in red.placement if rank is Rank.SCOUT)
    red = swapped(red, scout.name, "a4")
    c = client(bot_setup=blue.text(), seed=1)
    base, _ = new_game(c)
    c.post(base + "/setup", json={"text": red.text()})
    start(c, base)
    payload = c.post(base + "/move", json={"move": "a4-a7"}).json()
    assert payload["phase"] == "over"
    assert payload["record"] is True
    assert payload["status"] == "Game over."  # who won and how: the result, said once
    assert payload["result"]["how"] == "The red Scout (2) on a4 captured the blue Flag on a7."
    assert payload["result"]["text"] == ("You win (you captured the Flag). The red Scout (2) on a4 "
                                         "captured the blue Flag on a7.")
    assert c.post(base + "/move", json={"move": "a7-a6"}).status_code == 409
    record = c.get(base + "/record.txt")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    parsed = stratego.parse_record(record.text)
    assert parsed.replay().outcome == stratego.Outcome(stratego.Termination.FLAG_CAPTURED,
                                                       Player.RED)


def test_a_position_added_past_its_setup_offers_no_record() -> None:
    """docs/build-a-ui.md: the payload's `record` says "whether the record may be
    downloaded"; a position no two setups start (a puzzle added with `GameHub.add_game`)
    has no record, so a finished one offers none and asking for it anyway is refused
    (409, in a player's words). A game added from two setups keeps its record."""
    hub = GameHub(bots=["Easy=random"], token=tokens())
    puzzle = stratego.from_position(stratego.CLASSIC, {"a1": "F", "b2": "M", "j10": "f",
                                                       "e7": "x"})
    created = hub.add_game(puzzle)
    base = f"/api/games/{created['game']}/{created['seat']}"
    over = post(hub, base + "/resign").json()
    assert (over["phase"], over["record"]) == ("over", False)
    assert hub.handle("GET", base).json()["record"] is False
    reply = hub.handle("GET", base + "/record.txt")
    assert reply.status == 409
    assert reply.json()["error"] == ("this game began from a set position, not from two "
                                     "setups: it has no record")
    base = _resigned_whole_game(hub)
    assert hub.handle("GET", base + "/record.txt").status == 200


def _resigned_whole_game(hub: GameHub) -> str:
    """The seat address of a classic game added from two setups and resigned at once: it
    has its record."""
    rules = stratego.CLASSIC
    whole = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, 1),
                              stratego.random_setup(rules, Player.BLUE, 2))
    created = hub.add_game(whole)
    base = f"/api/games/{created['game']}/{created['seat']}"
    assert post(hub, base + "/resign").json()["record"] is True
    return base


def test_a_finished_game_finds_out_once_whether_it_has_a_record(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every poll of a finished game says whether its record may be downloaded; the
    answer depends only on how the game began, so it is found once, not at each poll."""
    import stratego.web.games as games

    calls = []
    real = stratego.record_from_state

    def counted(state: stratego.GameState) -> Any:
        calls.append(state)
        return real(state)

    monkeypatch.setattr(games, "record_from_state", counted)
    hub = GameHub(bots=["Easy=random"], token=tokens())
    base = _resigned_whole_game(hub)
    for _ in range(3):
        assert hub.handle("GET", base).json()["record"] is True
    assert len(calls) == 1


def test_a_finished_game_shows_every_captured_piece_by_its_rank() -> None:
    """Once the game is over both armies are turned face up, the captured pieces too:
    under Silent Defense (a defender that loses keeps its rank hidden) the tray's ``?``
    becomes the rank, counted as revealed, in the live payload and in review alike."""
    silent = stratego.CLASSIC.with_variants(stratego.variants.SILENT_DEFENSE)
    state = stratego.apply(stratego.from_position(
        silent, {"a4": "C", "a5": "k", "j1": "F", "i10": "K", "j10": "f", "b10": "c"}),
        "a4-a5")
    hub = GameHub(rules=silent, token=tokens(), seed=1)
    created = hub.add_game(state, player=Player.RED, opponent="human")
    base = f"/api/games/{created['game']}/{created['seat']}"
    unknown = {"rank": None, "label": "?", "name": "unknown", "count": 1, "revealed": 0}
    assert hub.handle("GET", base).json()["tray"]["blue"] == [unknown]
    hub2 = GameHub(rules=silent, token=tokens(), seed=1)
    over = stratego.apply(stratego.apply(state, "b10-b9"), "i10-j10")
    assert over.outcome is not None
    done = hub2.add_game(over, player=Player.RED, opponent="human")
    base = f"/api/games/{done['game']}/{done['seat']}"
    captain = {"rank": Rank.CAPTAIN.symbol, "label": silent.labels.label(Rank.CAPTAIN),
               "name": "Captain", "count": 1, "revealed": 1}
    flag = {"rank": Rank.FLAG.symbol, "label": silent.labels.label(Rank.FLAG),
            "name": "Flag", "count": 1, "revealed": 0}
    payload = hub2.handle("GET", base).json()
    assert payload["tray"]["blue"] == [captain, flag]
    assert payload["captured"]["blue"] == [captain["label"], flag["label"]]
    assert hub2.handle("GET", base + "/review/3").json()["tray"]["blue"] == [captain, flag]
    assert hub2.handle("GET", base + "/review/1").json()["tray"]["blue"] == [captain]
    # taken back to what the view knew, the tray is the view's (unknown ones last)
    assert _unrevealed(hub2.handle("GET", base)).json()["tray"]["blue"] == [flag, unknown]


def test_pages_and_assets() -> None:
    c = client()
    lobby = c.get("/")
    assert lobby.status_code == 200
    assert lobby.headers["content-type"].startswith("text/html")
    assert '<link rel="icon"' in lobby.text
    assert 'data-testid="create"' in lobby.text
    for path in ("/favicon.ico", "/favicon.svg"):
        icon = c.get(path)
        assert icon.status_code == 200
        assert icon.headers["content-type"] == "image/svg+xml"
    assert c.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert c.get("/static/style.css").headers["content-type"].startswith("text/css")
    assert c.get("/static/hub.py").status_code == 404
    assert c.get("/nowhere").status_code == 404
    assert c.head("/").status_code == 200
    assert c.head("/").content == b""
    _, created = new_game(c)
    page = c.get(created["url"]).text
    for hook in ('data-testid="status"', 'data-testid="moves"', 'id="board"'):
        assert hook in page


def test_the_short_ply_text_of_a_move_list_column() -> None:
    """The move list's column shows a compact form (the long one is its tooltip): the
    move, the ranks as labels and the outcome as the attacker's; a rank the viewer has
    not seen is ``?`` (Silent Defense keeps the defender's)."""
    state = stratego.from_position(stratego.CLASSIC, {"a4": "K", "a5": "j", "j1": "F",
                                                      "j10": "f", "b4": "J"})
    after = stratego.apply(state, "a4-a5")
    assert [ply_short(stratego.CLASSIC, stratego.view(after, p).history[-1])
            for p in Player] == ["a4xa5 6\u00d77 loses"] * 2
    quiet = stratego.apply(state, "b4-b5")
    assert ply_short(stratego.CLASSIC, stratego.view(quiet, Player.BLUE).history[-1]) == "b4-b5"
    silent = stratego.CLASSIC.with_variants(stratego.variants.SILENT_DEFENSE)
    hidden = stratego.apply(stratego.from_position(silent, {"a4": "K", "a5": "j", "j1": "F",
                                                            "j10": "f"}), "a4-a5")
    assert ply_short(silent, stratego.view(hidden, Player.RED).history[-1]) == (
        "a4xa5 6\u00d7? loses")
    with pytest.raises(stratego.ArgumentError, match="ply_short needs a ply of a view"):
        ply_short(stratego.CLASSIC, "a4-a5")  # type: ignore[arg-type]


def test_ply_text_names_only_what_the_viewer_saw() -> None:
    state = stratego.from_position(stratego.CLASSIC, {"a4": "K", "a5": "j", "j1": "F",
                                                      "j10": "f"})
    after = stratego.apply(state, "a4-a5")
    red, blue = (stratego.view(after, p).history[-1] for p in Player)
    assert ply_text(stratego.CLASSIC, red) == ply_text(stratego.CLASSIC, blue)
    quiet = stratego.apply(stratego.from_position(
        stratego.CLASSIC, {"a4": "K", "j1": "F", "j10": "f", "b9": "j"}), "a4-a5")
    assert ply_text(stratego.CLASSIC, stratego.view(quiet, Player.BLUE).history[-1]) == (
        "red: a4-a5")
    with pytest.raises(stratego.ArgumentError, match="ply_text needs a ply of a view"):
        ply_text(stratego.CLASSIC, None)  # type: ignore[arg-type]


# -- the extra and the command line ----------------------------------------------------------------


def test_a_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.delitem(sys.modules, "stratego.web.app", raising=False)
    with pytest.raises(MissingDependencyError, match=r"pip install 'stratego\[web\]'"):
        importlib.import_module("stratego.web.app")


def test_serve_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--rules", "chess"]) == 2
    assert main(["serve", "--bot", "deep-blue"]) == 2
    assert main(["serve", "--bot-setup", "MMMM"]) == 2
    assert main(["serve", "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert "stratego serve: error: unknown edition 'chess'" in err


def test_serve_says_where_it_serves_only_once_it_holds_the_address(
        capsys: pytest.CaptureFixture[str]) -> None:
    """An address in use, or a host that does not resolve, is refused before anything
    says the game is served; port 0 is served on the port the system gives, and the URL
    printed is that port's."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", ":memory:"]) == 2
        out, err = capsys.readouterr()
        assert "served at" not in out
        assert f"stratego serve: error: cannot serve on 127.0.0.1:{port}: " in err
    assert main(["serve", "--host", "no-such-host.invalid", "--db", ":memory:"]) == 2
    assert "cannot serve on no-such-host.invalid:8000" in capsys.readouterr().err
    from stratego.web.app import listen

    sock = listen("127.0.0.1", 0)
    try:
        assert sock.getsockname()[1] > 0
    finally:
        sock.close()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "stratego", "serve", "--port", "0", "--db", ":memory:"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.match(r"Stratego is served at http://127\.0\.0\.1:(\d+)/ ", line)
        assert found is not None, line
        assert int(found[1]) > 0
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{found[1]}/", timeout=5) as page:
                    assert 'data-page="lobby"' in page.read().decode("utf-8")
                break
            except OSError:
                assert time.monotonic() < deadline, "no answer"
                assert proc.poll() is None, "the server stopped"
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_serve_runs_a_server_that_answers() -> None:
    """``stratego serve`` in a subprocess, as a person would start it; it says where the
    games are kept and writes no seat token to its output (no access log)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "stratego", "serve", "--port", str(port), "--seed", "1",
         "--db", ":memory:"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"Stratego is served at http://127.0.0.1:{port}/"), line
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    body = page.read().decode("utf-8")
                break
            except OSError:
                assert time.monotonic() < deadline, "no answer"
                assert proc.poll() is None, "the server stopped"
                time.sleep(0.1)
        assert 'data-page="lobby"' in body
        assert proc.stdout.readline().startswith("Games are kept in memory only")
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=b"{}",
                                         headers=JSON, method="POST")
        with urllib.request.urlopen(request, timeout=5) as reply:
            created = json.loads(reply.read())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{created['url']}",
                                    timeout=5) as page:
            assert page.headers["Referrer-Policy"] == "no-referrer"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        assert proc.stdout is not None
        assert proc.stderr is not None
        output = proc.stdout.read() + proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    assert created["seat"] not in output  # no access log holds a seat token


def test_the_heuristic_bot_plays_a_game_to_the_end_through_the_hub() -> None:
    """A whole game, person (here a seeded random chooser) against the bot, ends."""
    hub = GameHub(rules=stratego.CLASSIC.with_ply_limit(400), seed=8, token=tokens(),
                  move_limit=1000)
    created = hub.create({})
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = post(hub, base + "/start").json()
    rng = random.Random(3)
    while payload["phase"] == "play":
        moves = [f"{frm}-{to}" for frm in sorted(payload["legal"])
                 for to in payload["legal"][frm]]
        moves += [option["move"] for option in payload["rescue"]]
        reply = post(hub, base + "/move", {"move": rng.choice(moves)})
        assert reply.status == 200, reply.text
        payload = reply.json()
    assert payload["phase"] == "over"
    assert payload["status"].startswith("Game over")


def test_a_client_that_leaves_mid_body_is_a_closed_request_not_a_fault() -> None:
    """A client that closes its connection before sending the body it announced is no
    fault of the server: the request is dropped quietly (no exception escapes to the
    server, which would log a traceback for each), and the hub is never asked."""
    hub = GameHub(token=tokens())
    app = create_app(hub)
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/games", "raw_path": b"/api/games",
             "root_path": "", "query_string": b"", "client": ("127.0.0.1", 50000),
             "server": ("localhost", 8000),
             "headers": [(b"host", b"localhost"), (b"content-type", b"application/json"),
                         (b"content-length", b"10")]}
    messages: Iterator[MutableMapping[str, Any]] = iter(
        [{"type": "http.request", "body": b"{", "more_body": True}, {"type": "http.disconnect"}])
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> MutableMapping[str, Any]:
        return next(messages)

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))  # raises nothing
    assert hub.live_games == 0
    assert sent[0]["status"] != 500
