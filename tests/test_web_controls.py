"""The web game's controls, through the hub: resigning, draw offers (between two people,
and the bot's documented answer), rematches, the game-over panel and the revealed army,
the captured tray, the numbered move list and review mode, strikes to flash, and any bot
spec at the table within a per-move time limit.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import stratego
from stratego import Player, Rank
from stratego.moves import Move
from stratego.views import PlayerView

pytest.importorskip("starlette", reason="the web extra is not installed")

from stratego.web import GameHub
from test_web import bot_game, first_move, post, tokens, two_people

pytestmark = pytest.mark.extra("web")


def test_resigning_ends_the_game_and_reveals_the_opponent_army() -> None:
    hub = GameHub(seed=2, token=tokens())
    base, payload = bot_game(hub)
    assert all(c["rank"] is None for c in payload["cells"] if c["owner"] == "blue")
    assert post(hub, base + "/rematch").status == 409  # not before the end
    over = post(hub, base + "/resign").json()
    assert over["phase"] == "over"
    assert over["status"] == "Game over."  # who won and how: the result (the panel)
    assert over["result"] == {"winner": "blue", "reason": "resignation", "you": "loss",
                              "text": "You lose (you resigned).", "how": None}
    game = hub._games[over["game"]]
    assert game.state is not None
    truth = {sq.name: p.rank.symbol for sq, p in game.state.pieces() if p.owner is Player.BLUE}
    shown = {c["square"]: c["rank"] for c in over["cells"] if c["owner"] == "blue"}
    assert shown == truth
    assert over["revealed"] is True
    assert all(c.get("revealed") for c in over["cells"] if c["owner"] == "blue")
    for action in ("move", "resign", "offer-draw"):
        body = {"move": "a4-a5"} if action == "move" else None  # resign and offer take none
        assert post(hub, base + f"/{action}", body).status == 409
    record = stratego.parse_record(hub.handle("GET", base + "/record.txt").text)
    assert record.result == "0-1"
    assert record.tags.get("Termination") == "resignation"


def test_a_draw_offered_and_accepted_betweentwo_people() -> None:
    hub = GameHub(seed=4, token=tokens())
    red, blue = two_people(hub)
    assert post(hub, blue + "/accept-draw").status == 409  # nothing offered yet
    assert post(hub, red + "/offer-draw").json()["draw"] == "sent"
    assert hub.handle("GET", blue).json()["draw"] == "received"
    assert post(hub, red + "/accept-draw").status == 409  # one's own offer
    declined = post(hub, blue + "/decline-draw").json()
    assert declined["draw"] is None
    assert hub.handle("GET", red).json()["draw"] == "declined"  # not again at once
    # an offer stands until answered; moving on answers it
    payload = post(hub, blue + "/offer-draw").json()
    red_payload = post(hub, red + "/move", {"move": first_move(hub.handle("GET", red).json())})
    assert red_payload.json()["draw"] == "declined"  # blue's offer lapsed; red's still waits
    assert hub.handle("GET", blue).json()["draw"] == "declined"  # lapsed by red's move
    post(hub, blue + "/move", {"move": first_move(hub.handle("GET", blue).json())})
    post(hub, red + "/offer-draw")  # both sides have moved since its offer was declined
    payload = post(hub, blue + "/accept-draw").json()
    assert payload["phase"] == "over"
    assert payload["status"] == "Game over."
    assert (payload["result"]["you"], payload["result"]["reason"]) == ("draw", "draw agreed")
    assert hub.handle("GET", red).json()["result"]["winner"] is None


def test_a_declined_offer_is_not_repeated_until_both_sides_have_moved() -> None:
    """Game sites keep a player from repeating draw offers without end: once an offer is
    declined (answered no, or by a move), its side may offer again only after both sides
    have moved; the payload says so (``"declined"``) and an offer meanwhile is refused."""
    hub = GameHub(seed=4, token=tokens())
    red, blue = two_people(hub)
    post(hub, red + "/offer-draw")
    post(hub, blue + "/decline-draw")
    again = post(hub, red + "/offer-draw")
    assert again.status == 409
    assert "once both sides have moved" in again.json()["error"]
    assert hub.handle("GET", blue).json()["draw"] is None  # nothing stands
    post(hub, red + "/move", {"move": first_move(hub.handle("GET", red).json())})
    assert post(hub, red + "/offer-draw").status == 409  # one move is not both sides'
    post(hub, blue + "/move", {"move": first_move(hub.handle("GET", blue).json())})
    assert hub.handle("GET", red).json()["draw"] is None
    assert post(hub, red + "/offer-draw").json()["draw"] == "sent"
    # an offer the other side answers by moving on is declined too
    post(hub, red + "/move", {"move": first_move(hub.handle("GET", red).json())})
    post(hub, blue + "/move", {"move": first_move(hub.handle("GET", blue).json())})
    assert hub.handle("GET", red).json()["draw"] == "declined"
    # the other side's standing offer may still be accepted by offering
    post(hub, blue + "/offer-draw")
    assert post(hub, red + "/offer-draw").json()["phase"] == "over"


def test_the_bot_accepts_a_draw_only_when_behind_and_never_before_a_move() -> None:
    """The documented rule (`stratego.bots.draws.accepts_draw`): the bot accepts a draw
    only once a piece has moved and only when it is behind on material; a declined offer
    is a plain notice (200), not an error, and the game goes on; an accepted one ends the
    game with the notice "The bot accepts the draw." (as a refusal has its own)."""
    hub = GameHub(seed=1, bot="random", token=tokens())
    base, _ = bot_game(hub)
    declined = post(hub, base + "/offer-draw")  # move 0: equal armies, nothing moved
    assert declined.status == 200
    assert (declined.json()["phase"], declined.json()["notice"]) == (
        "play", "The bot declines the draw.")
    assert "error" not in declined.json()

    def offer_after_a_move(position: dict[str, str]) -> Any:
        created = hub.add_game(stratego.from_position(stratego.CLASSIC, position))
        seat = f"/api/games/{created['game']}/{created['seat']}"
        assert post(hub, seat + "/move", {"move": "a4-a5"}).status == 200
        return post(hub, seat + "/offer-draw").json()

    behind = offer_after_a_move({"a4": "M", "b1": "G", "j1": "F", "j10": "f", "a10": "x"})
    assert (behind["phase"], behind["result"]["reason"], behind["notice"]) == (
        "over", "draw agreed", "The bot accepts the draw.")
    ahead = offer_after_a_move({"a4": "X", "j1": "F", "j10": "f", "a10": "m", "b10": "g"})
    assert (ahead["phase"], ahead["notice"]) == ("play", "The bot declines the draw.")


def test_a_rematch_swaps_the_colours_against_the_same_opponent() -> None:
    hub = GameHub(seed=6, token=tokens())
    base, _ = bot_game(hub)
    post(hub, base + "/resign")
    url = post(hub, base + "/rematch").json()["rematch"]
    assert post(hub, base + "/rematch").json()["rematch"] == url  # made once
    again = url.replace("/play/", "/api/games/")
    payload = hub.handle("GET", again).json()
    assert (payload["player"], payload["opponent"], payload["phase"]) == ("blue", "bot",
                                                                          "setup")
    payload = post(hub, again + "/start").json()
    assert payload["view"]["ply"] == 1  # the bot, now Red, moved first
    assert payload["status"] == "Your move (blue)."

    red, blue = two_people(hub)
    post(hub, red + "/resign")
    url = post(hub, blue + "/rematch").json()["rematch"]
    other = hub.handle("GET", red).json()["rematch"]
    assert url != other
    seats = [hub.handle("GET", u.replace("/play/", "/api/games/")).json() for u in (url, other)]
    assert [s["player"] for s in seats] == ["red", "blue"]  # blue's person now plays red
    assert seats[0]["game"] == seats[1]["game"]
    assert seats[0]["join"] is None


def test_the_move_list_is_numbered_by_moves_and_review_shows_past_positions() -> None:
    hub = GameHub(seed=2, token=tokens())
    base, payload = bot_game(hub)
    start_cells = payload["cells"]
    for _ in range(2):
        payload = post(hub, base + "/move", {"move": first_move(payload)}).json()
    rows = payload["move_rows"]
    assert [r["number"] for r in rows] == [1, 2]
    assert [[p["player"] for p in r["plies"]] for r in rows] == [["red", "blue"]] * 2
    assert [p["ply"] for r in rows for p in r["plies"]] == [1, 2, 3, 4]
    assert all("text" not in p for r in rows for p in r["plies"])  # it is in `moves`
    assert [p["ply"] for r in rows for p in r["plies"]] == list(range(1, 5))
    assert len(payload["moves"]) == 4
    first = hub.handle("GET", base + "/review/0").json()
    assert (first["ply"], first["of"], first["last"]) == (0, 4, [])
    assert first["cells"] == start_cells
    now = hub.handle("GET", base + "/review/4").json()
    assert now["cells"] == payload["cells"]
    assert now["last"] == payload["last"]
    for bad in ("5", "-1", "x", "1" * 20):
        assert hub.handle("GET", base + f"/review/{bad}").status == 404


def test_reviewing_a_finished_game_shows_both_armies_face_up() -> None:
    """While the game goes on a past position shows what the seat knew then; once it is
    over (the record with both setups is the seat's to download) every past position
    shows the opponent's pieces face up, marked ``"revealed"``, as players go over a
    finished game."""
    hub = GameHub(seed=2, token=tokens())
    base, payload = bot_game(hub)
    for _ in range(2):
        payload = post(hub, base + "/move", {"move": first_move(payload)}).json()
    during = hub.handle("GET", base + "/review/2").json()
    assert during["revealed"] is False
    assert all(c["rank"] is None for c in during["cells"] if c["owner"] == "blue")
    over = post(hub, base + "/resign").json()
    assert over["phase"] == "over"
    game = hub._games[over["game"]]
    assert game.state is not None
    start = {sq.name: p.rank.symbol for sq, p in stratego.engine.initial_state(
        game.state.info).pieces() if p.owner is Player.BLUE}
    first = hub.handle("GET", base + "/review/0").json()
    assert first["revealed"] is True
    assert {c["square"]: c["rank"] for c in first["cells"] if c["owner"] == "blue"} == start
    assert all(c.get("revealed") for c in first["cells"] if c["owner"] == "blue")
    assert all("revealed" not in c for c in first["cells"] if c["owner"] == "red")


def test_review_shows_the_losses_and_strikes_of_the_turn_it_shows() -> None:
    """A past position comes with the captured pieces, the counts on the board and the
    strikes of that turn, as the live game showed them then: before the strike none,
    after it the live game's own."""
    state = stratego.from_position(
        "classic", {"a4": "K", "a5": "l", "j1": "F", "j10": "f", "i10": "b"})
    hub = GameHub(bot="random", seed=1, token=tokens())
    created = hub.add_game(state)
    base = f"/api/games/{created['game']}/{created['seat']}"
    live = post(hub, base + "/move", {"move": "a4xa5"}).json()
    assert live["tray"]["blue"]
    assert live["strikes"]
    before = hub.handle("GET", base + "/review/0").json()
    assert before["tray"] == {"red": [], "blue": []}
    assert before["on_board"] == {"red": 2, "blue": 3}
    assert before["strikes"] == []
    after = hub.handle("GET", base + "/review/1").json()
    assert after["tray"] == live["tray"]
    assert after["on_board"] == {"red": 2, "blue": 2}
    assert after["strikes"] == [live["moves"][0]]


def test_a_rescue_decision_stays_in_the_row_of_its_move() -> None:
    rules = stratego.HASBRO_2009.with_variants(stratego.variants.RESCUE)
    state = stratego.from_position(
        rules, {"a9": "K", "j1": "F", "e10": "m", "j10": "f", "f10": "b"},
        captured=[(Player.RED, Rank.MINER)])
    hub = GameHub(rules=rules, bot="random", seed=1, token=tokens())
    created = hub.add_game(state)
    base = f"/api/games/{created['game']}/{created['seat']}"
    post(hub, base + "/move", {"move": "a9-a10"})
    payload = post(hub, base + "/move", {"move": "N@b2"}).json()
    assert [[p["player"] for p in r["plies"]] for r in payload["move_rows"]] == [
        ["red", "red", "blue"]]


def test_the_tray_counts_captured_pieces_and_strikes_are_flashed() -> None:
    state = stratego.from_position(stratego.CLASSIC, {"a4": "K", "a5": "j", "j1": "F",
                                                      "j10": "f", "e10": "b", "b1": "N"},
                                   captured=[(Player.BLUE, Rank.SCOUT),
                                             (Player.BLUE, Rank.SCOUT)])
    hub = GameHub(bot="random", seed=1, token=tokens())
    created = hub.add_game(state)
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = post(hub, base + "/move", {"move": "a4-a5"}).json()
    assert payload["tray"]["red"] == [{"rank": "K", "label": "6", "name": "Captain",
                                       "count": 1, "revealed": 0}]
    assert payload["tray"]["blue"] == [{"rank": "X", "label": "2", "name": "Scout",
                                        "count": 2, "revealed": 0}]
    assert payload["on_board"] == {"red": 2, "blue": 3}
    assert payload["flash"][0] == {"from": "a4", "to": "a5", "attacker": "6",
                                   "defender": "7", "result": "defender"}


class SlowBot:
    """A bot that thinks too long about every move."""

    name = "slow"

    def __init__(self, seed: int | None = None) -> None:
        self.calls = 0

    def __call__(self, seen: PlayerView) -> Move:
        self.calls += 1
        time.sleep(0.5)
        return seen.legal_moves[-1]


def test_any_bot_spec_sits_at_the_table_within_the_time_limit() -> None:
    """``module:attribute`` specs work like names; a bot over its time limit is replaced,
    a legal move is played for it and the game goes on."""
    hub = GameHub(bot="test_web_controls:SlowBot", bot_time=0.05, seed=1, token=tokens())
    assert hub.bot == "test_web_controls:SlowBot"
    base, payload = bot_game(hub)
    assert payload["bot"] == "test_web_controls:SlowBot"
    game = hub._games[payload["game"]]
    old = game.bot
    payload = post(hub, base + "/move", {"move": first_move(payload)}).json()
    assert payload["view"]["ply"] == 2
    assert game.bot is not old  # the late bot was replaced
    with pytest.raises(stratego.StrategoError):
        GameHub(bot="test_web_controls:Nothing")
    with pytest.raises(stratego.StrategoError, match="time limit"):
        GameHub(bot_time=0)


def test_setups_offered_come_from_the_setup_model_with_human_structure() -> None:
    """The first page of presets opens with setups of the setup model, each a valid setup
    of the seat; "Random setup" draws from the model too, so the Flag stands on the front
    row about as rarely as in human setups (under 1%), not one time in four as a uniform
    shuffle puts it. A seeded hub's presses are reproducible and differ press to press."""
    hub = GameHub(seed=4, token=tokens())
    created = post(hub, "/api/games", {}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    first = hub.handle("GET", base + "/presets").json()
    model = [p for p in first["presets"] if p["source"] == "model"]
    assert len(model) == 4
    assert first["presets"][:4] == model
    assert len({p["text"] for p in model}) > 1  # varied
    for preset in model:
        setup = stratego.Setup.parse(preset["text"], Player.RED, stratego.CLASSIC.setup.depth)
        assert stratego.setup_problems(stratego.CLASSIC, setup) == []
    later = hub.handle("GET", base + "/presets", {"offset": str(first["next"])}).json()
    assert all(p["source"] == "human" for p in later["presets"])
    front, armies = 0, set()
    for _ in range(40):
        payload = post(hub, base + "/random").json()
        flag = next(c for c in payload["cells"] if c["owner"] == "red" and c["rank"] == "F")
        front += flag["square"].endswith("4")
        armies.add(tuple(sorted((c["square"], c["rank"]) for c in payload["cells"]
                                if c["owner"] == "red")))
    assert front <= 2  # uniform: about 10 of 40
    assert len(armies) > 30
    again = GameHub(seed=4, token=tokens())
    created = post(again, "/api/games", {}).json()
    replay = post(again, f"/api/games/{created['game']}/{created['seat']}/random").json()
    first_press = GameHub(seed=4, token=tokens())
    created = post(first_press, "/api/games", {}).json()
    assert post(first_press, f"/api/games/{created['game']}/{created['seat']}/random"
                ).json()["cells"] == replay["cells"]


def test_a_rescue_decision_is_no_move_of_the_other_side_for_a_repeated_offer() -> None:
    """"Until both sides have moved": a Rescue decision is a second entry of the side
    that earned it, not the other side's move, so it does not let a declined offer come
    back."""
    from stratego.web.games import Game

    game = Game("g", stratego.CLASSIC, "human", {}, None, None, None)
    game.moves = ["a4-a5"]
    game.decline_draw(Player.BLUE)
    game.moves += ["b7-b6", "K@b2"]  # Blue's strike, then its Rescue decision
    assert not game.may_offer_draw(Player.BLUE)
    game.moves += ["--"]  # a decline is a decision too
    assert not game.may_offer_draw(Player.BLUE)
    game.moves += ["a5-a6"]  # Red's move: both sides have moved
    assert game.may_offer_draw(Player.BLUE)
    assert game.may_offer_draw(Player.RED)  # never declined
