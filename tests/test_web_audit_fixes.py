"""The web game's HTTP API after a UI builder's audit: what "Build a UI" says of the bot's
draw rule, a strike on a turn that earned a Rescue (kept in ``strikes`` and ``flash``, live
and in review), ``last`` around Rescue decisions, a body of None, the methods an address
does not serve (``405`` with ``Allow``), the move count of "your games" after Rescues, the
game-over panel's words per seat, and small request checks (``?since``, unknown body
fields, a malformed review index before the start, a setup without its text).

The payload fields touched stay made from the seat's view: a differential test plays a
game with a Rescue on each side (one whose rank the rules hide) on two servers whose
hidden Flag and Bomb trade places, and compares every answer to Red byte for byte.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

import stratego
from stratego import Player, Rank
from stratego.pieces import RANK_LETTERS

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="starlette's TestClient needs httpx2 (test extra)")

from stratego.web import SECURITY_HEADERS, GameHub
from stratego.web.games import Ending
from test_web import JSON, bot_game, post, tc, tokens

pytestmark = pytest.mark.extra("web")

DOC = Path(__file__).resolve().parent.parent / "docs" / "build-a-ui.md"

RESCUE = stratego.HASBRO_2009.with_variants(stratego.variants.RESCUE)
"""Hasbro 2009 with the Rescue variant card: a piece reaching the far row may bring back a
captured piece of its side."""


def _words(text: str) -> str:
    return " ".join(text.split())


def _seat(hub: GameHub, created: dict[str, Any]) -> str:
    return f"/api/games/{created['game']}/{created['seat']}"


def _marshal_strikes_into_the_back_row(hub: GameHub) -> str:
    """Red's seat in a game against the bot where Red's Marshal on e9 may strike Blue's
    General on e10 (Blue's back row, earning a Rescue), Red's Scout being captured."""
    state = stratego.from_position(RESCUE, {"e9": "M", "j1": "F", "e10": "g", "j10": "f",
                                            "a7": "t"},
                                   captured=[(Player.RED, Rank.SCOUT)])
    return _seat(hub, hub.add_game(state))


def _two_people(hub: GameHub, state: stratego.GameState) -> tuple[str, str]:
    """A game between two people from `state`: Red's and Blue's API paths."""
    created = hub.add_game(state, opponent="human")
    red = _seat(hub, created)
    code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
    seat = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()["seat"]
    return red, f"/api/games/{created['game']}/{seat}"


STRIKE = "red: e9xe10, Marshal (1) strikes General (2): attacker wins"
MARKS = {"from": "e9", "to": "e10", "attacker": "1", "defender": "2", "result": "attacker"}


# -- 1. the bot's draw rule, as the docs say it ----------------------------------------------


def test_the_docs_say_the_bot_accepts_a_draw_only_when_behind_on_material() -> None:
    """"What a player does" said the bot accepts "when it has no more pieces on the board
    than the player offering"; `accepts_draw` accepts only when the bot is behind on
    weighted material, and never before a piece moved. With as many pieces as Red but a
    Marshal against a Scout, the bot declines; with more pieces but less worth, it
    accepts."""
    text = _words(DOC.read_text(encoding="utf-8"))
    section = text.split("## What a player does", 1)[1].split("## ", 1)[0]
    assert "no more pieces on the board than the player offering" not in section
    assert "accepts only when it is behind on material" in section
    assert "never before a piece has moved" in section
    hub = GameHub(seed=1, bot="random", token=tokens())
    ahead = _seat(hub, hub.add_game(stratego.from_position(
        stratego.CLASSIC, {"a4": "X", "j1": "F", "e10": "m", "j10": "f"})))
    assert post(hub, ahead + "/move", {"move": "a4-a5"}).status == 200
    assert post(hub, ahead + "/offer-draw").json()["notice"] == "The bot declines the draw."
    behind = _seat(hub, hub.add_game(stratego.from_position(
        stratego.CLASSIC, {"a4": "M", "j1": "F", "e10": "x", "f10": "x", "j10": "f"})))
    assert post(hub, behind + "/move", {"move": "a4-a5"}).status == 200
    assert post(hub, behind + "/offer-draw").json()["notice"] == "The bot accepts the draw."


# -- 2 and 3. a strike on a turn that earned a Rescue; last around Rescues -------------------


def test_a_strike_that_earned_a_rescue_stays_in_strikes_and_flash() -> None:
    """Red's Marshal e9xe10 strikes the General and reaches the back row; Red rescues X@g1;
    the bot answers. The payload had strikes [] and flash [] (the walk back stopped at the
    Rescue decision, Red's own); it keeps the strike, "since the seat's last turn, that
    turn included", and `last` marks the bot's answer."""
    hub = GameHub(rules=RESCUE, bot="random", seed=1, token=tokens())
    red = _marshal_strikes_into_the_back_row(hub)
    earned = post(hub, red + "/move", {"move": "e9xe10"}).json()
    assert (earned["strikes"], earned["flash"], earned["last"]) == (
        [STRIKE], [MARKS], ["e9", "e10"])
    answered = post(hub, red + "/move", {"move": "X@g1"}).json()
    assert answered["moves"][:2] == [STRIKE, "red: rescues Scout (9) to g1"]
    assert answered["moves"][2].startswith("blue: ")
    assert answered["strikes"] == [STRIKE]
    assert answered["flash"] == [MARKS]
    blue_move = answered["moves"][2].removeprefix("blue: ")
    assert answered["last"] == blue_move.split("-")


def test_the_other_seat_keeps_its_own_rescue_turn_s_strike_and_sees_where_it_came_back() -> None:
    """Between two people, Blue's Colonel c2xc1 strikes Red's Sergeant on Red's back row
    and Blue rescues its Miner to a7; Red answers. Blue's payload keeps its strike (it had
    none); Red's, after Blue's rescue, marks the move and the rescued piece's square
    (``last`` was ``["a7"]`` alone)."""
    state = stratego.from_position(
        RESCUE, {"e4": "K", "j1": "F", "c1": "T", "c2": "c", "j10": "f"},
        captured=[(Player.BLUE, Rank.MINER)], to_move=Player.BLUE)
    hub = GameHub(rules=RESCUE, seed=1, token=tokens())
    red, blue = _two_people(hub, state)
    strike = "blue: c2xc1, Colonel (3) strikes Sergeant (7): attacker wins"
    post(hub, blue + "/move", {"move": "c2xc1"})
    rescued = post(hub, blue + "/move", {"move": "N@a7"}).json()
    assert rescued["last"] == ["c2", "c1", "a7"]
    seen = hub.handle("GET", red).json()
    assert seen["last"] == ["c2", "c1", "a7"]
    assert seen["strikes"] == [strike]
    post(hub, red + "/move", {"move": "e4-e5"})
    after = hub.handle("GET", blue).json()
    assert after["strikes"] == [strike]
    assert after["flash"] == [{"from": "c2", "to": "c1", "attacker": "3", "defender": "7",
                               "result": "attacker"}]
    assert after["last"] == ["e4", "e5"]


def test_a_declined_rescue_leaves_the_move_that_earned_it_marked() -> None:
    """After a declined Rescue `last` was [] (the decline has no squares), so the move that
    reached the back row was not marked; it is that move's two squares, for both seats."""
    state = stratego.from_position(
        RESCUE, {"e4": "K", "j1": "F", "c1": "T", "c2": "c", "j10": "f"},
        captured=[(Player.BLUE, Rank.MINER)], to_move=Player.BLUE)
    hub = GameHub(rules=RESCUE, seed=1, token=tokens())
    red, blue = _two_people(hub, state)
    post(hub, blue + "/move", {"move": "c2xc1"})
    declined = post(hub, blue + "/move", {"move": "--"}).json()
    assert declined["moves"][-1] == "blue: declines the Rescue"
    assert declined["last"] == ["c2", "c1"]
    assert hub.handle("GET", red).json()["last"] == ["c2", "c1"]
    assert hub.handle("GET", red + "/review/2").json()["last"] == ["c2", "c1"]


def test_review_of_a_rescue_decision_shows_the_strike_of_the_move_that_earned_it() -> None:
    """Review mode, position after Red's rescue (turn 2): its `flash` was [] and its `last`
    ["g1"]; the decision belongs to the move that earned it, so it shows that move's
    strike (with the side that struck) and squares, then the rescue's square. The position
    after the bot's answer lists the strike among the strikes since Red's last turn, as
    the live payload did then, and marks none (its own turn struck nothing)."""
    hub = GameHub(rules=RESCUE, bot="random", seed=1, token=tokens())
    red = _marshal_strikes_into_the_back_row(hub)
    post(hub, red + "/move", {"move": "e9xe10"})
    live = post(hub, red + "/move", {"move": "X@g1"}).json()
    earned = hub.handle("GET", red + "/review/1").json()
    decided = hub.handle("GET", red + "/review/2").json()
    answered = hub.handle("GET", red + "/review/3").json()
    assert earned["flash"] == decided["flash"] == [{**MARKS, "player": "red"}]
    assert (earned["last"], decided["last"]) == (["e9", "e10"], ["e9", "e10", "g1"])
    assert earned["strikes"] == decided["strikes"] == [STRIKE]
    assert (answered["strikes"], answered["flash"], answered["last"]) == (
        live["strikes"], [], live["last"])


def test_a_rescue_game_answers_red_alike_whatever_blue_hides() -> None:
    """The differential no-leak test with a Rescue on each side: Hasbro 2009 with Rescue and
    Silent Defense (Blue's rescued rank is hidden from Red), Blue's Flag and Bomb trading
    places between the two servers. Every answer to Red, its payloads (`last`, `strikes`,
    `flash` after both Rescues), every past position of review mode, "your games", the
    board picture and the refusals, is the same bytes."""
    rules = stratego.editions.by_name("hasbro-2009+rescue+silent-defense")
    answers: list[list[tuple[int, str, bytes]]] = []
    after = 0
    for flag, bomb in (("j10", "h10"), ("h10", "j10")):
        state = stratego.from_position(
            rules, {"e9": "M", "j1": "F", "c1": "T", "a4": "L", "e10": "g", flag: "f",
                    bomb: "b", "c2": "c"},
            captured=[(Player.RED, Rank.SCOUT), (Player.BLUE, Rank.MINER)])
        hub = GameHub(rules=rules, seed=1, token=tokens(), clock=lambda: 1000.0,
                      monotonic=lambda: 5.0)
        red, blue = _two_people(hub, state)
        game, token = red.split("/")[3:5]
        replies = []
        for seat, move in ((red, "e9xe10"), (red, "X@g1"), (blue, "c2xc1"), (blue, "N@a7"),
                           (red, "a4-a5")):
            reply = post(hub, seat + "/move", {"move": move})
            assert reply.status == 200, reply.text
            if seat == red:
                replies.append(reply)
            if move == "N@a7":
                after = len(replies)  # Red's payload once Blue's hidden rescue is made
            replies += [hub.handle("GET", red), hub.handle("GET", red + "/board.svg"),
                        post(hub, red + "/move", {"move": "j10-j9"}),
                        post(hub, "/api/seats", {"seats": [{"game": game, "seat": token}]})]
        replies += [hub.handle("GET", red + f"/review/{n}") for n in range(6)]
        answers.append([(r.status, r.content_type, r.body) for r in replies])
    assert answers[0] == answers[1]
    hidden = json.loads(answers[0][-2][2])  # review: the position after Blue's rescue
    assert hidden["last"] == ["c2", "c1", "a7"]
    assert [f["to"] for f in hidden["flash"]] == ["c1"]
    live = json.loads(answers[0][after][2])
    assert live["last"] == ["c2", "c1", "a7"]
    assert "blue: rescues a piece to a7" in live["moves"]


# -- 4 and 5. a body of None; methods an address does not serve ------------------------------


def test_a_body_of_none_is_an_empty_body() -> None:
    """`GameHub.handle(..., body=None)` answered 500 ("the server failed on this request",
    len(None)); None is no body."""
    hub = GameHub(seed=1, token=tokens())
    created = post(hub, "/api/games", {}).json()
    base = _seat(hub, created)
    assert hub.handle("GET", base, body=None).status == 200
    started = hub.handle("POST", base + "/start", body=None, headers=JSON)
    assert started.status == 200, started.text
    assert started.json()["phase"] == "play"
    assert hub.handle("POST", "/api/games", body=None, headers=JSON).status == 201


@pytest.mark.parametrize("method", ["OPTIONS", "DELETE", "PUT", "PATCH", "PROPFIND"])
def test_a_method_an_address_does_not_serve_gets_405_with_allow(method: str) -> None:
    """OPTIONS and DELETE answered 415 about the Content-Type (and a method the Starlette
    route did not list, Starlette's own 405 without the security headers and with every
    method in ``Allow``); any method an address does not serve gets 405 with an ``Allow``
    naming those it does: "GET, HEAD" or "POST"."""
    hub = GameHub(seed=1, token=tokens())
    c = tc(hub)
    created = c.post("/api/games", json={}).json()
    base = _seat(hub, created)
    expected = {"/": "GET, HEAD", created["url"]: "GET, HEAD", base: "GET, HEAD",
                base + "/review/0": "GET, HEAD", "/api/options": "GET, HEAD",
                "/api/games": "POST", "/api/seats": "POST", base + "/start": "POST",
                base + "/move": "POST", base + "/rematch": "POST"}
    for path, allow in expected.items():
        direct = hub.handle(method, path)
        assert (direct.status, direct.header("Allow")) == (405, allow), (method, path)
        served = c.request(method, path, headers={"content-type": "text/plain"})
        assert (served.status_code, served.headers["allow"]) == (405, allow), (method, path)
        assert served.headers["x-frame-options"] == "DENY"
        assert "error" in served.json()
    assert c.get(base).json()["phase"] == "setup"  # nothing changed


def test_head_answers_the_headers_of_get_and_get_still_works() -> None:
    """HEAD, as Starlette answers it for a GET route: GET's status and headers (its
    Content-Length too), no body; on a POST address, 405 with ``Allow: POST``."""
    c = tc(GameHub(seed=1, token=tokens()))
    created = c.post("/api/games", json={}).json()
    for path in ("/", created["url"], "/static/app.js"):
        got, head = c.get(path), c.head(path)
        assert (head.status_code, head.content) == (200, b"")
        assert head.headers["content-type"] == got.headers["content-type"]
        assert head.headers["content-length"] == str(len(got.content))
        assert got.content
    refused = c.head(created["url"].replace("/play/", "/api/games/") + "/start")
    assert (refused.status_code, refused.headers["allow"]) == (405, "POST")


def test_the_hub_itself_answers_head_without_a_body() -> None:
    """docs/build-a-ui.md: each address takes `GET` "(and `HEAD`: the headers of `GET`,
    no body)", from `GameHub.handle` itself, so an adapter such as the docs' WSGI one
    passes no body on; the Content-Length header gives the length of GET's body."""
    hub = GameHub(seed=1, token=tokens())
    created = post(hub, "/api/games", {}).json()
    seat = created["url"].replace("/play/", "/api/games/")
    for path in ("/", created["url"], seat, "/static/app.js", "/nowhere", seat + "x"):
        got, head = hub.handle("GET", path), hub.handle("HEAD", path)
        assert (head.status, head.body) == (got.status, b""), path
        assert head.header("Content-Length") == str(len(got.body)), path
        assert got.header("Content-Length") is None  # the adapter counts GET's own body
        assert head.headers == (*got.headers[:-len(SECURITY_HEADERS)],
                                ("Content-Length", str(len(got.body))), *SECURITY_HEADERS)
    # a poll with nothing new: 204, which has no body, so no Content-Length either
    since = {"since": str(hub.handle("GET", seat).json()["version"])}
    got, head = hub.handle("GET", seat, since), hub.handle("HEAD", seat, since)
    assert got.status == head.status == 204
    assert head.headers == got.headers


# -- 6. "your games" counts the moves as the move list numbers them -------------------------


def test_your_games_counts_moves_without_rescue_decisions() -> None:
    """After e9xe10, X@g1 and the bot's answer, `/api/seats` said ``moves`` 3 (the Rescue
    decision counted) and the page read "2 moves" (ceil(3 / 2)) against a move list of
    one row; it says 2, so the page's ceil(moves / 2) is the list's row count."""
    hub = GameHub(rules=RESCUE, bot="random", seed=1, token=tokens())
    red = _marshal_strikes_into_the_back_row(hub)
    post(hub, red + "/move", {"move": "e9xe10"})
    payload = post(hub, red + "/move", {"move": "X@g1"}).json()
    game, token = red.split("/")[3:5]
    found = post(hub, "/api/seats", {"seats": [{"game": game, "seat": token}]}).json()
    moves = found["games"][0]["moves"]
    assert moves == 2
    assert math.ceil(moves / 2) == len(payload["move_rows"]) == 1


# -- 7. the game-over panel's words, per seat ------------------------------------------------


def test_the_game_over_text_is_in_each_seat_s_words() -> None:
    """The loser read "red wins (blue resigned)." while the winner read "You win ...", and
    a draw "A draw (draw agreed)."; each seat now reads its own result: "You lose (you
    resigned).", "You win (blue resigned).", "You lose (your time ran out).", "You win
    (blue's time ran out).", "A draw by agreement."; a game the rules ended still adds
    its `how`."""
    hub = GameHub(seed=1, token=tokens())
    state = stratego.from_position(stratego.CLASSIC, {"a1": "X", "a7": "f", "j10": "k",
                                                      "j1": "F"})
    texts = {}
    for reason, winner in (("resignation", Player.RED), ("time", Player.RED),
                           ("draw agreed", None)):
        red, blue = _two_people(hub, state)
        hub._games[red.split("/")[3]].ending = Ending(reason, winner)
        texts[reason] = (hub.handle("GET", red).json()["result"]["text"],
                         hub.handle("GET", blue).json()["result"]["text"])
    assert texts == {
        "resignation": ("You win (blue resigned).", "You lose (you resigned)."),
        "time": ("You win (blue's time ran out).", "You lose (your time ran out)."),
        "draw agreed": ("A draw by agreement.", "A draw by agreement.")}
    red, blue = _two_people(hub, state)
    post(hub, red + "/move", {"move": "a1-a7"})
    how = "The red Scout (2) on a1 captured the blue Flag on a7."
    assert hub.handle("GET", red).json()["result"]["text"] == (
        f"You win (you captured the Flag). {how}")
    assert hub.handle("GET", blue).json()["result"]["text"] == (
        f"You lose (your Flag was captured). {how}")


# -- 8. small request checks ------------------------------------------------------------------


def test_since_that_is_not_a_version_is_refused_naming_the_parameter() -> None:
    """``?since=abc`` was silently ignored (the whole payload came back); it is a 400 that
    names ``since``. A version still gets its 204."""
    hub = GameHub(seed=1, token=tokens())
    base, payload = bot_game(hub)
    for bad in ("abc", "-1", "1.0", "", "\u00b2"):
        reply = hub.handle("GET", base, {"since": bad})
        assert reply.status == 400, bad
        assert "since" in reply.json()["error"]
    assert hub.handle("GET", base, {"since": str(payload["version"])}).status == 204


def test_unknown_body_fields_are_refused_as_creating_a_game_refuses_them() -> None:
    """``POST .../start`` took ``{"colour": "blue"}`` and started; creating a game refuses
    an unknown option with 400. Every seat action, the rematch, joining and "your games"
    now refuse a field they do not take, naming it, and change nothing."""
    hub = GameHub(seed=1, token=tokens())
    created = post(hub, "/api/games", {"opponent": "human"}).json()
    base = _seat(hub, created)
    before = hub.handle("GET", base).json()
    for action, body in (("start", {"colour": "blue"}), ("random", {"seed": 1}),
                         ("swap", {"squares": ["a1", "b1"], "undo": True}),
                         ("setup", {"text": before["setup"], "name": "x"}),
                         ("move", {"move": "a4-a5", "promote": "M"}),
                         ("resign", {"why": "tired"}), ("rematch", {"colour": "red"})):
        reply = post(hub, base + f"/{action}", body)
        assert reply.status == 400, (action, reply.text)
        assert "unknown field" in reply.json()["error"]
        assert repr(sorted(set(body) - {"squares", "text", "move"})[0]) in reply.json()["error"]
    assert hub.handle("GET", base).json() == before
    join = post(hub, f"/api/games/{created['game']}/join", {"code": "x", "seat": "y"})
    assert join.status == 400
    assert post(hub, "/api/seats", {"seats": [], "more": 1}).status == 400
    assert post(hub, base + "/start", {}).json()["ready"]["red"] is True


def test_a_malformed_review_index_is_404_before_the_start_as_after() -> None:
    """``GET .../review/abc`` before the game starts was 409 ("the game has not started")
    where after the start it is 404; the index is checked first. A well-formed index
    before the start stays 409."""
    hub = GameHub(seed=1, token=tokens())
    created = post(hub, "/api/games", {}).json()
    base = _seat(hub, created)
    for bad in ("abc", "-1", "%C2%B2", "1234567"):
        assert hub.handle("GET", base + f"/review/{bad}").status == 404, bad
    assert hub.handle("GET", base + "/review/0").status == 409
    post(hub, base + "/start")
    assert hub.handle("GET", base + "/review/abc").status == 404


def test_a_review_index_or_offset_of_many_digits_is_told_the_range() -> None:
    """A turn or a presets offset of more digits than any game holds is plain digits: it
    is told the range, as ``review/99999`` is ("0 to 0"), not that it is no number."""
    hub = GameHub(seed=1, token=tokens())
    created = post(hub, "/api/games", {}).json()
    base = _seat(hub, created)
    long = "9" * 20
    before = hub.handle("GET", base + f"/review/{long}")
    assert (before.status, before.json()["error"]) == (
        404, f"no turn '{long}': the game has not started")
    post(hub, base + "/start")
    for turn in (long, "99999"):
        reply = hub.handle("GET", base + f"/review/{turn}")
        assert (reply.status, reply.json()["error"]) == (
            404, f"no turn '{turn}' in this game (0 to 0)")
    assert hub.handle("GET", base + "/review/0000000").status == 200
    for offset in (long, "abc", ""):
        reply = hub.handle("GET", base + "/presets", {"offset": offset})
        assert (reply.status, reply.json()["error"]) == (
            400, f"offset is a whole number from 0 to 999999, not '{offset}'")
    assert hub.handle("GET", base + "/presets", {"offset": "999999"}).json()["presets"] == []


def test_a_setup_without_its_text_says_the_field_is_missing() -> None:
    """``POST .../setup {}`` read "not a setup: None"; it says the field ``text`` is
    missing."""
    hub = GameHub(seed=1, token=tokens())
    base = _seat(hub, post(hub, "/api/games", {}).json())
    error = post(hub, base + "/setup", {}).json()["error"]
    assert "None" not in error
    assert re.search(r'field "text" is missing', error)
    assert "not a setup: 12" in post(hub, base + "/setup", {"text": 12}).json()["error"]


def test_a_setup_written_with_the_pieces_numbers_is_answered_with_the_letters() -> None:
    """The board and the Pieces legend show numbers; setup text is written with letters.
    A pasted setup of numbers ("10" a Marshal) is refused with every rank's letter, the
    letters the page's paste panel lists from the payload's `army` (its ranks' symbols,
    with `names` and `labels`)."""
    hub = GameHub(seed=1, token=tokens())
    base = _seat(hub, post(hub, "/api/games", {}).json())
    payload = hub.handle("GET", base).json()
    error = post(hub, base + "/setup", {"text": "/".join(["10" * 5] * 4)}).json()["error"]
    assert error.endswith(f"(the letters: {RANK_LETTERS})")
    letters = ", ".join(f"{entry['rank']} {payload['names'][entry['rank']]}"
                        for entry in payload["army"])
    assert letters == RANK_LETTERS  # what the page lists is what the server reads
    assert payload["labels"]["M"] == "10"


# -- whose turn, at the top of the payload ---------------------------------------------------


def test_the_payload_says_whose_turn_it_is_as_your_games_does() -> None:
    """A front end reads whose turn it is from the payload's `to_move` and `your_move`, the
    fields `/api/seats` has: null and false in the setup, then the side to move."""
    from test_web import two_people

    hub = GameHub(token=tokens(), seed=3)
    created = post(hub, "/api/games", {}).json()
    setup = hub.handle("GET", _seat(hub, created)).json()
    assert (setup["phase"], setup["to_move"], setup["your_move"]) == ("setup", None, False)
    red, blue = two_people(hub)
    for path, mine in ((red, True), (blue, False)):
        payload = hub.handle("GET", path).json()
        assert (payload["to_move"], payload["your_move"]) == ("red", mine)
        game, seat = path.rsplit("/", 2)[-2:]
        summary = post(hub, "/api/seats", {"seats": [{"game": game, "seat": seat}]}).json()
        assert summary["games"][0]["to_move"] == "red"
        assert summary["games"][0]["your_move"] is mine
    legal = hub.handle("GET", red).json()["legal"]
    frm = sorted(legal)[0]
    assert post(hub, red + "/move", {"move": f"{frm}-{legal[frm][0]}"}).status == 200
    after = hub.handle("GET", blue).json()
    assert (after["to_move"], after["your_move"]) == ("blue", True)
    assert post(hub, blue + "/resign").status == 200
    over = hub.handle("GET", red).json()
    assert (over["phase"], over["to_move"], over["your_move"]) == ("over", None, False)
