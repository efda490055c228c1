"""Choosing a game on the web server and coming back to it: the bots offered
(``--bots``), colour, rules and time control; the clocks the server keeps (with an
injected monotonic clock: no sleeping, no timing assertions); setup presets; "my games"
(what a browser's saved seats are now); and `stratego.bots.draws`.
"""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

import pytest

import stratego
from stratego import Player
from stratego.bots.draws import accepts_draw, material
from stratego.errors import ArgumentError
from stratego.moves import Move
from stratego.views import PlayerView

pytest.importorskip("starlette", reason="the web extra is not installed")

from stratego.cli import main
from stratego.web import GameHub
from stratego.web.clocks import GameClock, TimeControl
from stratego.web.lineup import BotChoice, Lineup, default_bots, describe
from stratego.web.payloads import rules_title
from stratego.web.turns import BotTable, think_budget
from test_web import first_move, post, tokens

MONO = [0.0]
"""The monotonic clock the bots below and the hubs of these tests share."""

SEEN_LIMITS: list[float | None] = []


class TimedBot:
    """A bot with a ``time_limit`` (as `stratego.bots.SearchBot` has) that records the
    limit it was given and plays its first legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.time_limit: float | None = None

    def __call__(self, view: PlayerView) -> Move:
        SEEN_LIMITS.append(self.time_limit)
        return view.legal_moves[0]


class SlowBot:
    """A bot that takes 100 s of the injected clock over every move."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def __call__(self, view: PlayerView) -> Move:
        MONO[0] += 100.0
        return view.legal_moves[0]


def _hub(**options: Any) -> GameHub:
    MONO[0] = 0.0
    options.setdefault("token", tokens())
    options.setdefault("seed", 1)
    options.setdefault("create_limit", 100)
    return GameHub(monotonic=lambda: MONO[0], **options)


def _seat(created: dict[str, Any]) -> str:
    return f"/api/games/{created['game']}/{created['seat']}"


# -- bots, colours, rules ---------------------------------------------------------------


def test_the_lineup_is_offered_and_each_game_gets_the_bot_chosen() -> None:
    hub = _hub(bots=["Easy=random", "Medium=heuristic", "Hard=search(simulations=50)"])
    options = hub.handle("GET", "/api/options").json()
    assert [(b["id"], b["name"]) for b in options["bots"]] == [
        ("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard")]
    assert options["default_bot"] == "easy"  # the first, when --bots is given
    assert {"id": "5+3", "name": "5 min + 3 s", "base_seconds": 300,
            "increment_seconds": 3} in options["time_controls"]
    # docs/build-a-ui.md: "`time_controls` (`id` such as `"5+3"`, `name`, `base_seconds`,
    # `increment_seconds`; first `"none"`, whose seconds are `null`)"
    assert options["time_controls"][0] == {"id": "none", "name": "No clock",
                                           "base_seconds": None, "increment_seconds": None}
    assert "barrage" in {v["id"] for v in options["variants"]}
    duel = next(v for v in options["variants"] if v["id"] == "duel")
    assert duel["excludes"] == ["barrage", "ultimate-lightning"]  # the lobby greys them out
    assert duel["summary"] == stratego.variants.VARIANTS["duel"].summary
    assert "isf" in {e["id"] for e in options["editions"]}
    lobby = hub.handle("GET", "/").text
    assert '"default_bot":"easy"' in lobby
    for bot_id, spec in (("easy", "random"), ("hard", "search(simulations=50)")):
        created = post(hub, "/api/games", {"bot": bot_id}).json()
        payload = hub.handle("GET", _seat(created)).json()
        assert (payload["bot_id"], payload["bot"]) == (bot_id, spec)
        assert payload["bot_name"] == bot_id.title()
    assert post(hub, "/api/games", {"bot": "deep-blue"}).status == 400


def test_the_lobby_names_bots_and_rules_in_a_player_s_words() -> None:
    """The lineup's description says what a bot does, not its spec (which comes along as
    ``spec``); a game's rules carry their variants' titles."""
    assert describe("search(time_limit=1.0)") == "searches about 1 s a move"
    assert describe("search(simulations=1200)") == "searches 1,200 simulations a move"
    assert describe("random") == "plays any legal move"
    assert describe("heuristic(guard=3)") == "takes what pays at sight"
    assert describe("policy-barrage") == "a learned policy"
    assert describe("cmd:./my-bot --fast") == "a program"
    assert describe("my_module:MyBot") == "my_module:MyBot"  # an operator's own: as written
    assert describe("search(") == "search("  # not a spec: shown as it is
    options = _hub().handle("GET", "/api/options").json()
    hard = next(b for b in options["bots"] if b["id"] == "hard")
    assert (hard["description"], hard["spec"]) == ("searches about 1 s a move",
                                                   "search(time_limit=1.0)")
    assert rules_title(stratego.editions.by_name("classic")) == "Classic web rules"
    assert rules_title(stratego.editions.by_name("hasbro-2009+barrage+rescue")) == (
        "Hasbro 2009 Onyx Edition + Stratego Barrage + Rescue / Rescuing Pieces")
    editions = {e["id"]: e for e in options["editions"]}
    assert editions["classic"]["summary"] == (
        "Marshal 10 \u2026 Scout 2; Scouts move and strike in one turn; at most 4 moves back "
        "and forth.")
    assert editions["milton-bradley-1961"]["summary"].startswith(
        "Marshal 1 \u2026 Scout 9; a Scout may not move and strike in one turn")
    assert editions["isf"]["summary"].endswith("at most 3 moves back and forth; a chase rule.")
    assert all(e["summary"] for e in options["editions"])
    hub = _hub()
    created = post(hub, "/api/games", {"rules": "classic+barrage"}).json()
    assert hub.handle("GET", _seat(created)).json()["rules_title"] == (
        "Classic web rules + Stratego Barrage")


def test_the_web_extra_alone_serves_the_bots_it_can_build(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``pip install 'stratego[web]'`` then ``stratego serve``: without NumPy the default
    lineup leaves the learned bots out (they need the ``numpy`` extra), where the server
    refused to start; with NumPy it offers them."""
    import importlib.util

    from stratego.bots.specs import BOT_MODULES

    with_numpy = default_bots()
    assert {f"{name.title()}={name}" for name in BOT_MODULES} <= set(with_numpy)
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "numpy" else found(name, *args))
    without = default_bots()
    assert without == tuple(c for c in with_numpy
                            if c.split("=", 1)[1] not in BOT_MODULES)
    assert without[:3] == with_numpy[:3]


def test_default_lineup_and_bot_choices() -> None:
    assert default_bots()[:3] == ("Easy=random", "Medium=heuristic",
                                  "Hard=search(time_limit=1.0)")
    hub = _hub()
    assert hub.lineup.default == "medium"
    assert hub.bot == "heuristic"
    assert _hub(bot="random").lineup.default == "easy"  # a spec of the lineup picks it
    extra = _hub(bot="test_web_choices:TimedBot")
    assert extra.lineup.default == "timedbot"
    assert extra.bot == "test_web_choices:TimedBot"
    assert BotChoice.parse("Hard=search(simulations=1200)") == BotChoice(
        "hard", "Hard", "search(simulations=1200)")
    assert BotChoice.parse("search(time_limit=0.5)").spec == "search(time_limit=0.5)"
    assert BotChoice.parse("Very Hard = search") == BotChoice("very-hard", "Very Hard",
                                                                  "search")
    for bad in ("", "=random", "<b>=random", 7):
        with pytest.raises(ArgumentError):
            BotChoice.parse(bad)
    with pytest.raises(ArgumentError, match="two bots"):
        Lineup(["A=random", "a=heuristic"], None)
    with pytest.raises(ArgumentError):
        Lineup([], None)
    with pytest.raises(stratego.StrategoError, match="unknown bot"):
        GameHub(bots=["Easy=random", "X=deep-blue"])
    with pytest.raises(ArgumentError):
        GameHub(bots="Easy=random")  # one text, not a list


def test_a_bot_registered_in_the_library_joins_the_default_lineup(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Shipped learned bots are registered in `stratego.bots.BOTS`: the server offers
    each without a change of its own."""
    monkeypatch.setitem(stratego.bots.BOTS, "learned", TimedBot)
    assert default_bots()[-1] == "Learned=learned"
    hub = _hub()
    assert [c.id for c in hub.lineup.choices] == [
        "easy", "medium", "hard", "policy-barrage", "policy-classic", "learned"]
    created = post(hub, "/api/games", {"bot": "learned"}).json()
    assert hub.handle("GET", _seat(created)).json()["bot_name"] == "Learned"


def test_the_player_chooses_colour_and_rules() -> None:
    hub = _hub()
    blue = post(hub, "/api/games", {"colour": "blue"}).json()
    assert blue["player"] == "blue"
    payload = post(hub, _seat(blue) + "/start").json()
    assert payload["view"]["ply"] == 1  # the bot, Red, moved first
    picked = {post(hub, "/api/games", {"color": "random"}).json()["player"]
              for _ in range(12)}
    assert picked == {"red", "blue"}
    chosen = post(hub, "/api/games", {"rules": "jumbo-2014", "variants": ["barrage"]}).json()
    assert hub.handle("GET", _seat(chosen)).json()["rules"] == "jumbo-2014+barrage"
    assert post(hub, "/api/games", {"variants": ["chess"]}).status == 400
    # two army variants: refused in the players' words, not the library's names
    refused = post(hub, "/api/games", {"variants": ["barrage", "duel"]})
    assert refused.status == 400
    assert refused.json()["error"] == ("Stratego Barrage and Stratego Duel cannot be played "
                                       "together: choose one of them")
    in_the_name = post(hub, "/api/games", {"rules": "classic+barrage+duel"})
    assert in_the_name.json()["error"] == refused.json()["error"]


# -- clocks ---------------------------------------------------------------------------------


def test_time_controls_parse() -> None:
    assert TimeControl.parse("5+3") == TimeControl(300.0, 3.0)
    assert TimeControl.parse("15+10") == TimeControl(900.0, 10.0)
    assert TimeControl(900.0, 10.0).name == "15+10"
    assert TimeControl.parse(None) is None
    assert TimeControl.parse("none") is None
    for bad in ("5", "0+3", "181+0", "5+61", "5+-1", " 5+3", "٥+3", 5, "5+3+1"):
        with pytest.raises(stratego.errors.WebError):
            TimeControl.parse(bad)


def test_the_clock_charges_each_side_its_own_time_with_the_increment() -> None:
    clock = GameClock.new(TimeControl(60.0, 2.0))
    clock.start(Player.RED, 10.0)
    assert clock.left(Player.RED, 25.0) == 45.0
    assert clock.left(Player.BLUE, 25.0) == 60.0
    clock.switch(Player.BLUE, 25.0)  # red moved after 15 s: 45 + 2
    assert clock.remaining == {Player.RED: 47.0, Player.BLUE: 60.0}
    clock.switch(Player.BLUE, 30.0)  # blue decides a Rescue: its turn goes on, no increment
    assert clock.left(Player.BLUE, 30.0) == 55.0
    assert clock.running is Player.BLUE
    assert clock.fallen(84.0) is None
    assert clock.fallen(85.0) is Player.BLUE
    clock.stop(90.0)
    assert clock.running is None
    assert clock.settled(1000.0)[Player.BLUE] == 0.0
    assert think_budget(300.0, 3.0) == pytest.approx(12.4)
    assert think_budget(1.0, 10.0) == pytest.approx(0.9)


def test_a_clocked_game_against_the_bot_shows_both_clocks_and_runs_out() -> None:
    hub = _hub(bot="random")
    created = post(hub, "/api/games", {"time": "5+3"}).json()
    base = _seat(created)
    setup = hub.handle("GET", base).json()
    assert setup["clock"]["running"] is None  # setup is untimed
    MONO[0] = 50.0
    payload = post(hub, base + "/start").json()
    assert payload["clock"]["remaining_ms"] == {"red": 300000, "blue": 300000}
    assert payload["clock"]["running"] == "red"
    assert (payload["clock"]["control"], payload["clock"]["increment_ms"]) == ("5+3", 3000)
    MONO[0] = 60.0
    payload = post(hub, base + "/move", {"move": first_move(payload)}).json()
    # red spent 10 s and gained 3; the bot (no time on the injected clock) gained 3
    assert payload["clock"]["remaining_ms"] == {"red": 293000, "blue": 303000}
    assert payload["clock"]["running"] == "red"
    MONO[0] = 60.0 + 292.0
    assert hub.handle("GET", base).json()["clock"]["remaining_ms"]["red"] == 1000
    MONO[0] = 60.0 + 294.0  # red's flag falls: seen on the next poll, the game is over
    over = hub.handle("GET", base, {"since": str(payload["version"])})
    assert over.status == 200
    result = over.json()["result"]
    assert (result["winner"], result["reason"], result["you"]) == ("blue", "time", "loss")
    assert result["text"] == "You lose (your time ran out)."
    assert over.json()["clock"]["running"] is None
    assert post(hub, base + "/move", {"move": "a4-a5"}).status == 409
    assert hub.record(created["game"], created["seat"]).count("time") >= 1


def test_the_bot_thinks_on_its_own_clock_and_loses_when_it_runs_out() -> None:
    SEEN_LIMITS.clear()
    hub = _hub(bot="test_web_choices:TimedBot", bot_time=None)
    created = post(hub, "/api/games", {"time": "5+3"}).json()
    post(hub, _seat(created) + "/start")
    payload = post(hub, _seat(created) + "/move", {"move": first_move(
        hub.handle("GET", _seat(created)).json())}).json()
    assert [pytest.approx(think_budget(300.0, 3.0))] == SEEN_LIMITS
    assert payload["phase"] == "play"
    slow = _hub(bot="test_web_choices:SlowBot", bot_time=None)
    created = post(slow, "/api/games", {"time": "1+0", "colour": "blue"}).json()
    over = post(slow, _seat(created) + "/start").json()  # the bot, Red, takes 100 s of 60
    assert over["result"]["reason"] == "time"
    assert over["result"]["winner"] == "blue"


def test_two_people_each_on_their_clock_and_a_game_without_one() -> None:
    hub = _hub()
    created = post(hub, "/api/games", {"opponent": "human", "time": "1+0"}).json()
    red = _seat(created)
    code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
    seat = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()["seat"]
    blue = f"/api/games/{created['game']}/{seat}"
    post(hub, red + "/start")
    payload = post(hub, blue + "/start").json()
    assert payload["clock"]["running"] == "red"
    post(hub, red + "/move", {"move": first_move(hub.handle("GET", red).json())})
    post(hub, blue + "/move", {"move": first_move(hub.handle("GET", blue).json())})
    MONO[0] = 61.0  # red, who moved once, runs out: blue's poll ends the game
    assert hub.handle("GET", blue).json()["result"]["you"] == "win"
    plain = post(hub, "/api/games", {}).json()
    assert hub.handle("GET", _seat(plain)).json()["clock"] is None


def test_an_added_position_may_have_a_clock() -> None:
    hub = _hub()
    position = stratego.from_position(stratego.CLASSIC, {"a4": "M", "j1": "F", "j10": "f",
                                                         "a10": "x"})
    created = hub.add_game(position, time_control="1+0")
    clock = hub.handle("GET", _seat(created)).json()["clock"]
    assert (clock["running"], clock["remaining_ms"]["red"]) == ("red", 60000)
    with pytest.raises(ArgumentError):
        hub.add_game(position, time_control="soon")


def test_clocks_survive_a_restart(tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = _hub(db=db, bot="random")
    created = post(hub, "/api/games", {"time": "15+10"}).json()
    base = _seat(created)
    payload = post(hub, base + "/start").json()
    MONO[0] = 30.0
    payload = post(hub, base + "/move", {"move": first_move(payload)}).json()
    MONO[0] = 40.0
    assert hub.handle("GET", base).json()["clock"]["remaining_ms"]["red"] == 870000
    hub.close()
    MONO[0] = 5000.0  # a new process: its monotonic clock reads anything
    again = GameHub(db=db, monotonic=lambda: MONO[0])
    clock = again.handle("GET", base).json()["clock"]
    assert clock["remaining_ms"] == {"red": 880000, "blue": 910000}  # as last saved
    assert clock["running"] == "red"
    MONO[0] = 5010.0
    assert again.handle("GET", base).json()["clock"]["remaining_ms"]["red"] == 870000


# -- presets and my games --------------------------------------------------------------------


def test_setup_presets_are_generated_setups_then_pages_of_the_recorded_human_setups() -> None:
    hub = _hub()
    created = post(hub, "/api/games", {"colour": "blue"}).json()
    base = _seat(created)
    first = hub.handle("GET", base + "/presets").json()
    human = [p for p in first["presets"] if p["source"] == "human"]
    assert (len(human), first["offset"], first["next"]) == (12, 0, 12)
    assert [p["source"] for p in first["presets"][:4]] == ["model"] * 4  # the setup model's
    assert first["total"] > 12
    rules = stratego.CLASSIC
    for preset in first["presets"]:
        setup = stratego.Setup.parse(preset["text"], Player.BLUE, rules.setup.depth)
        assert not stratego.setup_problems(rules, setup)
    applied = post(hub, base + "/setup", {"text": first["presets"][3]["text"]}).json()
    assert applied["setup"] == first["presets"][3]["text"]
    last = hub.handle("GET", base + "/presets", {"offset": str(first["total"] - 1)}).json()
    assert (len(last["presets"]), last["next"]) == (1, None)
    assert hub.handle("GET", base + "/presets", {"offset": "-1"}).status == 400


def test_a_page_of_presets_costs_no_parsing_once_the_setups_were_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``GET .../presets`` answers from the recorded human setups read once: asking again,
    from any game with the same rules and side, parses none of them again (it costs what a
    poll does, not one parse per bundled setup)."""
    hub = _hub()
    bases = [_seat(post(hub, "/api/games", {"colour": "blue"}).json()) for _ in range(2)]
    first = hub.handle("GET", bases[0] + "/presets", {"offset": "12"}).json()
    parsed: list[str] = []
    parse = stratego.Setup.parse

    def counted(*args: Any, **kwargs: Any) -> stratego.Setup:
        parsed.append(str(args[0]))
        return parse(*args, **kwargs)

    monkeypatch.setattr(stratego.Setup, "parse", counted)
    for base in bases:
        assert hub.handle("GET", base + "/presets", {"offset": "12"}).json() == first
    assert parsed == []


def test_my_games_tell_each_saved_seat_its_opponent_status_and_whose_move() -> None:
    hub = _hub(bots=["Easy=random"])
    mine = post(hub, "/api/games", {}).json()
    post(hub, _seat(mine) + "/start")
    friend = post(hub, "/api/games", {"opponent": "human", "time": "5+3"}).json()
    asked = [{"game": mine["game"], "seat": mine["seat"]},
             {"game": friend["game"], "seat": friend["seat"]},
             {"game": "gone", "seat": "x"},
             {"game": mine["game"], "seat": friend["seat"]}]
    answer = post(hub, "/api/seats", {"seats": asked}).json()
    games = answer["games"]
    assert [g["found"] for g in games] == [True, True, False, False]
    # how long games are kept, for the page to say why a remembered game is gone
    assert answer["expiry"] == "a game nobody opens for 60 minutes is dropped"
    first, second = games[:2]
    assert (first["opponent"], first["opponent_name"], first["phase"]) == ("bot", "Easy", "play")
    assert (first["to_move"], first["your_move"], first["player"]) == ("red", True, "red")
    assert first["url"] == f"/play/{mine['game']}/{mine['seat']}"
    assert (second["opponent_name"], second["phase"], second["to_move"]) == (
        "Human", "setup", None)
    assert second["clock"]["control"] == "5+3"
    assert "seat" in games[2]
    assert games[2]["game"] == "gone"
    assert post(hub, "/api/seats", {"seats": [{}] * 51}).status == 400
    # an id or token that is no ASCII text (a lone surrogate cannot even be written back
    # as UTF-8) is simply not found, never a 500
    odd = post(hub, "/api/seats", {"seats": [{"game": "\ud800", "seat": "é"}]})
    assert odd.status == 200
    assert odd.json()["games"] == [{"game": None, "seat": None, "found": False}]


# -- the bot's draw decision -------------------------------------------------------------------


def _dealt(seed: int) -> stratego.GameState:
    rules = stratego.CLASSIC
    return stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                             stratego.random_setup(rules, Player.BLUE, seed + 1))


class WrongSeatBot:
    """A bot whose ``setup`` answers the other player's army."""

    def __call__(self, view: PlayerView) -> Move:
        return view.legal_moves[0]

    def setup(self, rules: stratego.Rules, player: Player,
              rng: random.Random) -> stratego.Setup:
        return stratego.random_setup(rules, player.opponent, rng)


def test_the_bot_setup_is_seeded_checked_and_refuses_what_is_no_random_source() -> None:
    """The web game's bot army: the bot's own setup for a seed (the same for the same
    seed), a random one when the bot's answer is not a setup of its seat, and
    `ArgumentError` naming the bot setup for anything that is no random source."""
    table = BotTable("heuristic", time_limit=None)
    bot = table.build(0)
    rules = stratego.CLASSIC
    first = table.setup(rules, bot, Player.BLUE, 5)
    assert first == table.setup(rules, bot, Player.BLUE, random.Random(5))
    assert first.player == Player.BLUE
    assert {table.setup(rules, bot, Player.BLUE, seed) for seed in range(6)} != {first}
    fallback = table.setup(rules, WrongSeatBot(), Player.RED, 7)
    assert fallback.player == Player.RED
    assert fallback == table.setup(rules, WrongSeatBot(), Player.RED, 7)
    with pytest.raises(ArgumentError, match="the web game's bot setup"):
        table.setup(rules, bot, Player.BLUE, [1, 2])  # type: ignore[arg-type]


def test_accepts_draw_only_when_behind_and_only_once_a_piece_moved() -> None:
    start = _dealt(3)
    seen = stratego.view(start, Player.BLUE)
    assert material(seen, Player.RED) == material(seen, Player.BLUE)
    assert not accepts_draw(seen)
    behind = stratego.from_position(stratego.CLASSIC, {"a4": "M", "b1": "G", "j1": "F",
                                                       "j10": "f", "a10": "x"})
    assert not accepts_draw(stratego.view(behind, Player.BLUE))  # nothing moved yet
    moved = stratego.apply(behind, Move.parse("a4-a5"))
    assert accepts_draw(stratego.view(moved, Player.BLUE))
    assert not accepts_draw(stratego.view(moved, Player.RED))  # red is ahead
    # pieces captured before a position begins are no move of this game
    captured = stratego.from_position(stratego.CLASSIC, {"a4": "M", "j1": "F", "j10": "f",
                                                         "a10": "m"},
                                      captured=[(Player.BLUE, stratego.Rank.GENERAL)])
    assert not accepts_draw(stratego.view(captured, Player.BLUE))
    won = stratego.apply(stratego.from_position(
        stratego.CLASSIC, {"j9": "M", "j1": "F", "j10": "f", "a10": "m"}), "j9-j10")
    with pytest.raises(ArgumentError, match="no draw to accept: the game is over"):
        accepts_draw(stratego.view(won, Player.BLUE))


@pytest.mark.parametrize("rules", ["classic", "hasbro-2009+silent-defense"])
def test_material_is_public_and_accepts_draw_depends_on_the_view_only(rules: str) -> None:
    """Invariants: `material` counts the same from either side's view (so the bot's
    answer to a draw offer tells nothing hidden), and two states drawn from one view get
    the same answer."""
    r = stratego.editions.by_name(rules)
    for seed in range(6):
        rng = random.Random(seed)
        state = stratego.new_game(r, stratego.random_setup(r, Player.RED, seed),
                                  stratego.random_setup(r, Player.BLUE, seed + 50))
        for _ in range(rng.randrange(20, 160)):
            if state.is_over:
                break
            state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
        views = {p: stratego.view(state, p) for p in Player}
        for side in Player:
            assert material(views[Player.RED], side) == material(views[Player.BLUE], side)
        for p, seen in views.items():
            if state.is_over:  # no draw is offered once the game is over
                continue
            other = stratego.sample_state(seen, seed)
            assert accepts_draw(stratego.view(other, p)) == accepts_draw(seen)


# -- the command line ---------------------------------------------------------------------------


def test_serve_takes_the_lineup_hosts_and_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    import stratego.web.app as app

    seen: dict[str, Any] = {}

    def fake_run(hub: GameHub, **options: Any) -> None:
        seen["hub"], seen["options"] = hub, options

    monkeypatch.setattr(app, "run", fake_run)
    assert main(["serve", "--db", ":memory:", "--bots", "Easy=random", "Strong=heuristic",
                 "--allowed-hosts", "stratego.example", "--forwarded-allow-ips",
                 "10.0.0.5", "--max-client-games", "3", "--move-limit", "20"]) == 0
    hub = seen["hub"]
    assert [c.id for c in hub.lineup.choices] == ["easy", "strong"]
    assert hub.lineup.default == "easy"
    assert hub.allowed_hosts == frozenset({"stratego.example"})
    assert hub.games.max_client_games == 3
    assert hub.move_limiter.limit == 20
    assert seen["options"]["forwarded_allow_ips"] == "10.0.0.5"
    assert main(["serve", "--db", ":memory:", "--host", "192.0.2.7"]) == 0
    assert "192.0.2.7" in seen["hub"].allowed_hosts
    assert seen["options"]["forwarded_allow_ips"] is None
    assert main(["serve", "--bots", "Easy=deep-blue"]) == 2


def test_serve_bot_names_the_default_even_beside_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line docs: `--bot` names the bot a game gets when the request names
    none, an id or spec of the list, or another spec, which joins it (default Medium, or
    the first of `--bots`): `--bot heuristic` beside `--bots` is that, not the default."""
    import stratego.web.app as app

    seen: dict[str, Any] = {}
    monkeypatch.setattr(app, "run", lambda hub, **options: seen.update(hub=hub))
    assert main(["serve", "--db", ":memory:", "--bots", "Easy=random",
                 "Hard=search(simulations=100)", "--bot", "heuristic"]) == 0
    lineup = seen["hub"].lineup
    assert lineup.default == "heuristic"
    assert [c.spec for c in lineup.choices] == ["heuristic", "random", "search(simulations=100)"]
    assert main(["serve", "--db", ":memory:"]) == 0
    assert seen["hub"].lineup.default == "medium"


@pytest.mark.parametrize(("flags", "named"), [
    (["--claim-seconds", "50"], "error: --claim-seconds must be 90 to 86400"),
    (["--max-games", "0"], "error: --max-games must be a positive whole number"),
    (["--max-client-games", "0"], "error: --max-client-games must be a positive"),
    (["--move-limit", "0"], "error: --move-limit must be a positive whole number"),
    (["--bot-time", "0"], "error: --bot-time must be more than 0"),
    (["--bot-setup", "XYZ"], "error: --bot-setup: a setup needs 40 squares"),
    (["--idle-minutes", "-1"], "--idle-minutes must be a positive number, not -1"),
    (["--archive-days", "nan"], "--archive-days must be a positive number, not nan"),
    (["--db", ""], "error: --db needs a file name, not ''"),
])
def test_serve_names_the_flag_it_refuses(capsys: pytest.CaptureFixture[str],
                                         flags: list[str], named: str) -> None:
    """A refused limit of `stratego serve` names the flag typed once, in place of the
    Python argument behind it, and a limit in minutes or days is not told back in
    seconds."""
    assert main(["serve", "--db", ":memory:", *flags]) == 2
    err = capsys.readouterr().err
    assert named in err
    assert "_" not in err.partition(" must ")[0]  # no max_games, bot_setup


def test_serve_refuses_a_default_bot_that_plays_other_rules(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md: "a default bot that plays only other rules than `--rules` (a learned
    bot) is a usage error at start", as `selfplay`, `play` and `match` refuse such a bot,
    rather than a server refusing (400) every game asked for with no bot and no rules."""
    import stratego.web.app as app

    served: list[object] = []
    monkeypatch.setattr(app, "run", lambda hub, **_: served.append(hub))
    assert main(["serve", "--db", ":memory:", "-e", "classic", "-V", "barrage",
                 "--bot", "policy-classic"]) == 2
    assert ("stratego serve: error: --bot 'policy-classic' plays only classic, not "
            "classic+barrage") in capsys.readouterr().err
    assert main(["serve", "--db", ":memory:", "-V", "barrage", "--bots", "policy-classic",
                 "random"]) == 2
    assert "the first of --bots 'policy-classic' plays only classic" in capsys.readouterr().err
    assert served == []
    assert main(["serve", "--db", ":memory:", "--bot", "policy-classic"]) == 0
    assert main(["serve", "--db", ":memory:", "-V", "barrage", "--bots", "random",
                 "policy-classic"]) == 0
    assert len(served) == 2


def test_a_learned_bot_is_offered_with_its_rules_and_refuses_others() -> None:
    """A learned bot plays only the rules of its network: the options say which, and a
    game under other rules is refused (400) instead of failing at the bot's first move."""
    hub = _hub()
    bots = {b["id"]: b for b in hub.handle("GET", "/api/options").json()["bots"]}
    assert bots["policy-barrage"]["rules"] == "classic+barrage"
    assert bots["policy-classic"]["rules"] == "classic"
    assert "rules" not in bots["medium"]
    refused = post(hub, "/api/games", {"bot": "policy-barrage", "rules": "classic"})
    assert refused.status == 400
    assert "plays only classic+barrage" in refused.json()["error"]
    created = post(hub, "/api/games", {"bot": "policy-barrage", "rules": "classic+barrage"})
    assert created.status == 201


def test_the_join_page_is_told_who_invites_and_the_rules_and_clock_but_no_setup() -> None:
    """`stratego.web.lobby.invitation`: what the join page of a game between two people
    holds: the game, the code of its link, the rules, the side the friend plays and the
    inviter's, and the time control (None without a clock); nothing of either army."""
    from stratego.web.lobby import invitation

    hub = _hub()
    for time, clock in (("5+3", {"control": "5+3", "title": "5 min + 3 s"}), ("none", None)):
        created = post(hub, "/api/games", {"opponent": "human", "colour": "blue",
                                           "time": time}).json()
        post(hub, _seat(created) + "/random")
        game = hub.games.get(created["game"])
        assert game.join_code is not None
        data = invitation(game, game.join_code)
        assert data == {"game": created["game"], "code": game.join_code,
                        "rules": "classic", "rules_title": "Classic web rules",
                        "player": "red", "inviter": "blue", "clock": clock}
        army = game.seats[Player.BLUE].setup.text(game.rules.setup.depth)
        assert army.splitlines()[0] not in json.dumps(data)
