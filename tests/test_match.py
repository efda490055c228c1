"""The match runner (`stratego.match`): seeded games between bots, and their totals."""

from __future__ import annotations

import json
import pathlib
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stratego
from strategies import rules_values, seeds
from stratego import Move, Player
from stratego.bots import HeuristicBot, RandomBot
from stratego.editions import CLASSIC, HASBRO_2009, JUMBO_2014, by_name
from stratego.errors import BotSpecError
from stratego.human_setups import human_setups
from stratego.match import (
    ILLEGAL_MOVE,
    ILLEGAL_SETUP,
    BotSpec,
    GameResult,
    MatchLogError,
    MatchResult,
    play_game,
    play_match,
    play_seated,
    read_jsonl,
    side_seed,
)
from stratego.records import GameRecord
from stratego.setup_model import sample_setup
from stratego.views import PlayerView


def test_match_totals_add_up_and_colours_alternate() -> None:
    calls: list[tuple[int, int]] = []
    result = play_match(JUMBO_2014, HeuristicBot(1), RandomBot(2), games=6, seed=4,
                        max_plies=300, progress=lambda done, total, game: calls.append(
                            (done, total)))
    assert isinstance(result, MatchResult)
    assert result.names == ("heuristic", "random")
    assert len(result.games) == 6
    assert sum(result.wins.values()) + result.draws == 6
    assert result.score("heuristic") + result.score("random") == 6
    assert calls == [(i, 6) for i in range(1, 7)]
    assert [g.red for g in result.games] == ["heuristic", "random"] * 3
    assert [g.blue for g in result.games] == ["random", "heuristic"] * 3
    for game in result.games:
        assert 1 <= game.plies <= 300
        assert (game.winner is None) == (game.termination == "ply limit")
        assert game.winner_name in (None, game.red if game.winner is Player.RED else game.blue)
    summary = result.summary()
    assert "6 game(s) under jumbo-2014" in summary
    assert f"draws: {result.draws}" in summary


def test_match_is_deterministic_by_seed() -> None:
    def run(seed: int) -> tuple[GameResult, ...]:
        return play_match(CLASSIC, HeuristicBot(1), RandomBot(2), games=3, seed=seed,
                          max_plies=200).games

    assert run(8) == run(8)
    assert run(8) != run(9)


def test_a_game_depends_only_on_its_seed() -> None:
    """The bots are reset from the game's seed, so a game replays on its own."""
    match = play_match(CLASSIC, HeuristicBot(1), RandomBot(2), games=3, seed=5, max_plies=200)
    last = match.games[2]
    again = play_game(CLASSIC, HeuristicBot(99), RandomBot(98), seed=last.seed, max_plies=200)
    assert (again.winner, again.termination, again.plies) == (
        last.winner, last.termination, last.plies)


def _spec_of(name: str, names: tuple[str, str]) -> str:
    """The spec to replay the bot named `name` with, in a match whose bots are named
    `names`, as docs/self-play.md says: the name itself, or, for a bot played against
    itself (``x-1`` and ``x-2``), the spec without the suffix."""
    first, second = names
    if first.endswith("-1") and second.endswith("-2") and first[:-2] == second[:-2]:
        return first[:-2]
    return name


@pytest.mark.parametrize(("bots", "names"), [
    (("search(simulations=4,  depth=2)", "heuristic"),
     ("search(depth=2, simulations=4)", "heuristic")),
    (("search(simulations=4)", BotSpec("search", {"simulations": 4})),
     ("search(simulations=4)-1", "search(simulations=4)-2")),
    (("random", "random"), ("random-1", "random-2")),
], ids=["options", "one-spec-twice", "one-name-twice"])
def test_the_names_a_match_gives_its_bots_replay_its_games(
        bots: tuple[str, str], names: tuple[str, str], tmp_path: pathlib.Path) -> None:
    """docs/self-play.md: "Bots given by name, spec, `BotSpec` or module-level class are
    named by the spec that rebuilds them, options and all, in one canonical form ..., which
    `play_game` and every command take back. A bot that plays against itself ... is named
    with `-1` and `-2` appended ...: replay such a game with the spec on both colours,
    without the suffix." The results, the file's lines and the records' tags carry those
    names, and each game replays move for move (a bot with options was named by its bare
    name, ``search``, which rebuilds the default search bot: another game)."""
    path = tmp_path / "m.jsonl"
    result = play_match(CLASSIC, *bots, games=2, seed=3, max_plies=40, jsonl=path,
                        record=True)
    assert result.names == names
    recorded = read_jsonl(path).games
    for index, game in enumerate(result.games):
        record = recorded[index].record
        assert record is not None
        assert (record.tags["Red"], record.tags["Blue"]) == (game.red, game.blue)
        assert {game.red, game.blue} == set(names)
        again = play_game(CLASSIC, _spec_of(game.red, result.names),
                          _spec_of(game.blue, result.names), seed=game.seed, max_plies=40,
                          keep_state=True)
        assert again.state is not None
        assert tuple(again.state.moves()) == record.moves
        assert again.digest == game.digest


def test_results_with_the_same_outcome_but_other_moves_are_not_equal(
        tmp_path: pathlib.Path) -> None:
    """docs/self-play.md: "Two `GameResult`s are equal (`==`) only when they are the same
    game move for move: ... each holds `GameResult.digest`, a fingerprint of the game's
    setups and moves (kept in the JSONL file too)". Two games that both reach a 20-ply
    limit compared equal, their setups and moves aside, and so passed the documented
    check."""
    one = play_game(CLASSIC, "random", "random", seed=1, max_plies=20, keep_state=True)
    other = play_game(CLASSIC, "random", "random", seed=1, max_plies=20, setups="human",
                      keep_state=True)
    assert one.state is not None
    assert other.state is not None
    assert one.state.moves() != other.state.moves()
    assert (one.seed, one.red, one.blue, one.winner, one.termination, one.plies) == (
        other.seed, other.red, other.blue, other.winner, other.termination, other.plies)
    assert one != other
    assert one == play_game(CLASSIC, "random", "random", seed=1, max_plies=20)
    # a match's file keeps the digest: the games read back equal the games played
    path = tmp_path / "m.jsonl"
    played = play_match(CLASSIC, "random", "heuristic", games=2, seed=1, max_plies=20,
                        jsonl=path)
    assert read_jsonl(path).result().games == played.games
    assert all(game.digest for game in played.games)


def test_without_swapping_the_first_bot_always_plays_red() -> None:
    result = play_match(HASBRO_2009, RandomBot(1), RandomBot(2), games=3, seed=1, max_plies=50,
                        swap_colours=False)
    assert result.names == ("random-1", "random-2")
    assert all(g.red == "random-1" and g.blue == "random-2" for g in result.games)


def test_a_bot_playing_an_illegal_move_loses_the_game() -> None:
    def cheat(view: PlayerView) -> Move:
        return Move.parse("a1-a9")

    game = play_game(CLASSIC, RandomBot(1), cheat, seed=3, max_plies=100)
    assert game.termination == ILLEGAL_MOVE
    assert game.winner is Player.RED
    assert game.blue == "cheat"
    assert "a1-a9" in game.detail
    assert "illegal move" in str(game)


def test_a_bot_answering_text_is_understood_and_nonsense_loses() -> None:
    def polite(view: PlayerView) -> str:
        return str(view.legal_moves[0])

    def confused(view: PlayerView) -> str:
        return "north"

    game = play_game(CLASSIC, polite, RandomBot(2), seed=1, max_plies=40)  # type: ignore[arg-type]
    assert game.termination != ILLEGAL_MOVE
    game = play_game(CLASSIC, confused, RandomBot(2), seed=1, max_plies=40)  # type: ignore[arg-type]
    assert game.termination == ILLEGAL_MOVE
    assert game.winner is Player.BLUE
    assert "not a move" in game.detail


def test_a_game_needs_a_ply_limit() -> None:
    with pytest.raises(stratego.RulesError, match="ply limit"):
        play_game(CLASSIC, RandomBot(1), RandomBot(2), seed=1, max_plies=None)
    limited = CLASSIC.with_ply_limit(30)
    game = play_game(limited, RandomBot(1), RandomBot(2), seed=1, max_plies=None)
    assert game.plies <= 30


def test_bots_receive_views_of_their_own_side_on_their_turn() -> None:
    seen: list[tuple[Player, Player, bool]] = []

    def watcher(view: PlayerView) -> Move:
        seen.append((view.player, view.to_move, bool(view.legal_moves)))
        assert all(p.rank is None or p.owner == view.player or p.possible == {p.rank}
                   for p in view.pieces)
        return view.legal_moves[0]

    play_game(CLASSIC, watcher, watcher, seed=2, max_plies=20)
    assert seen
    assert all(player == to_move and legal for player, to_move, legal in seen)
    assert {player for player, _, _ in seen} == {Player.RED, Player.BLUE}


def test_keep_state_returns_the_final_state() -> None:
    game = play_game(CLASSIC, RandomBot(1), RandomBot(2), seed=6, max_plies=60, keep_state=True)
    assert game.state is not None
    assert game.state.ply == game.plies
    assert game.state.outcome is not None
    assert game.state.outcome.result() == game.result()


@settings(max_examples=15)
@given(rules=rules_values(), seed=seeds, games=st.integers(min_value=0, max_value=4),
       swap=st.booleans())
def test_totals_always_add_up(rules: stratego.Rules, seed: int, games: int, swap: bool) -> None:
    """Invariant: wins of both bots plus draws is the number of games; each game's winner
    is one of its two bots; the ply limit is respected."""
    result = play_match(rules, RandomBot(1), HeuristicBot(2), games=games, seed=seed,
                        max_plies=40, swap_colours=swap)
    assert len(result.games) == games
    assert sum(result.wins.values()) + result.draws == games
    for game in result.games:
        assert {game.red, game.blue} == {"random", "heuristic"}
        assert game.plies <= 40
        assert game.winner_name in (None, game.red, game.blue)


class _SetupBot(RandomBot):
    """A random mover that places its army with a fixed setup function."""

    def __init__(self, make: object) -> None:
        super().__init__(0)
        self._make = make

    def setup(self, rules: stratego.Rules, player: Player, rng: object) -> object:
        return self._make(rules, player)  # type: ignore[operator]


def test_a_bot_with_a_setup_method_places_its_own_army() -> None:
    """The setup hook: Red's army stands exactly as its bot placed it."""
    chosen: list[stratego.Setup] = []

    def make(rules: stratego.Rules, player: Player) -> stratego.Setup:
        setup = stratego.random_setup(rules, player, 99)
        chosen.append(setup)
        return setup

    game = play_game(CLASSIC, _SetupBot(make), RandomBot(1), seed=4, max_plies=50,
                     keep_state=True)
    assert game.state is not None
    start = game.state.initial_placement()
    assert {sq: p.rank for sq, p in start.items() if p.owner is Player.RED} == chosen[0].as_dict()


@pytest.mark.parametrize("bad", ["not a setup", "blue's setup", "two flags"])
def test_an_illegal_setup_loses_at_once(bad: str) -> None:
    def make(rules: stratego.Rules, player: Player) -> object:
        if bad == "not a setup":
            return "FBBX"
        if bad == "blue's setup":
            return stratego.random_setup(rules, Player.BLUE, 1)
        placement = stratego.random_setup(rules, player, 1).as_dict()
        placement[next(sq for sq, r in placement.items() if r is stratego.Rank.BOMB)] = (
            stratego.Rank.FLAG)
        return stratego.Setup.from_mapping(player, placement)

    game = play_game(CLASSIC, _SetupBot(make), RandomBot(1), seed=4, max_plies=50)
    assert game.termination == ILLEGAL_SETUP
    assert game.winner is Player.BLUE
    assert game.plies == 0
    assert "set up illegally" in game.detail


@pytest.mark.parametrize("setups", ["random", "human"])
def test_a_setup_of_none_takes_the_setup_the_game_deals(setups: str) -> None:
    """`play_game`: a bot's ``setup`` "returns None to take the setup the game deals it,
    as a bot without the method gets (as a program bot answering "setup": null does)":
    the same armies, whatever the source of setups, and no "illegal setup"."""
    plain = play_game(CLASSIC, RandomBot(1), RandomBot(2), seed=4, max_plies=30,
                      keep_state=True, setups=setups)
    dealt = play_game(CLASSIC, _SetupBot(lambda rules, player: None), RandomBot(2), seed=4,
                      max_plies=30, keep_state=True, setups=setups)
    assert dealt.termination == plain.termination == "ply limit"
    assert dealt.state is not None
    assert dealt.state == plain.state
    served = play_game(CLASSIC, f"cmd:{sys.executable} -m stratego.protocol random",
                       RandomBot(2), seed=4, max_plies=2, keep_state=True, setups=setups)
    assert served.state is not None
    assert plain.state is not None
    assert (stratego.record_from_state(served.state).red_setup
            == stratego.record_from_state(plain.state).red_setup)


@settings(max_examples=20)
@given(rules=rules_values(), seed=seeds, player=st.sampled_from(list(Player)))
def test_heuristic_setups_are_valid_and_guard_the_flag(rules: stratego.Rules, seed: int,
                                                       player: Player) -> None:
    """Under every rule set the heuristic bot's setup (the setup model's) is valid, with
    the Flag in its home rows (people mostly put it on the back row: tests/test_setup_model.py
    checks the shares)."""
    setup = HeuristicBot(seed).setup(rules, player, random.Random(seed))
    assert stratego.setup_problems(rules, setup) == []
    flag = next(sq for sq, rank in setup.placement if rank is stratego.Rank.FLAG)
    assert (flag.row if player is Player.RED else 9 - flag.row) < rules.setup.depth


# -- seeds: each side and each bot has its own stream --------------------------------


class _Spy(RandomBot):
    """A random mover that remembers the seed it was reset with."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.resets: list[int | None] = []

    def reset(self, seed: int | None = None) -> None:
        self.resets.append(seed)
        super().reset(seed)


def test_each_setup_and_each_bot_draws_from_its_own_stream() -> None:
    """A side's random setup and a bot's randomness come from separate streams derived
    from (game seed, purpose, side): the setups are exactly the documented ones, and the
    two bots' seeds are neither each other's nor a setup's."""

    red, blue = _Spy(), _Spy()
    game = play_game(CLASSIC, red, blue, seed=12, max_plies=20, keep_state=True)
    assert game.state is not None
    start = game.state.initial_placement()
    for player in Player:
        expected = stratego.random_setup(CLASSIC, player,
                                         random.Random(side_seed(12, "setup", player)))
        assert {sq: p.rank for sq, p in start.items() if p.owner is player} == (
            expected.as_dict())
    assert red.resets == [side_seed(12, "bot", Player.RED)]
    assert blue.resets == [side_seed(12, "bot", Player.BLUE)]
    seeds = {side_seed(12, purpose, player) for purpose in ("setup", "bot", "bot-setup")
             for player in Player}
    assert len(seeds) == 6


def test_a_bots_stream_does_not_follow_the_setups() -> None:
    """A bot's seed depends on (game seed, side) alone, not on what the setups drew: here
    the armies differ in size and the bots' seeds stay the same."""
    barrage = by_name("classic+barrage")
    seen = []
    for rules in (CLASSIC, barrage):
        red, blue = _Spy(), _Spy()
        play_game(rules, red, blue, seed=77, max_plies=10)
        seen.append((red.resets, blue.resets))
    assert seen[0] == seen[1]
    assert seen[0][0] != seen[0][1]


def test_game_seeds_are_too_wide_to_search_and_depend_only_on_the_index() -> None:
    """A bot that knows the scheme could find a 32-bit game seed from its own seed by trying
    them all, and then its opponent's setup: game seeds are 64 bits wide. Game i of a match
    is the game of seed `game_seed(match seed, i)`, whatever games come before it."""
    whole = play_match(CLASSIC, HeuristicBot(), RandomBot(), games=4, seed=3, max_plies=120)
    assert max(g.seed for g in whole.games) >= 2**32
    from stratego.match import game_seed

    assert [g.seed for g in whole.games] == [game_seed(3, i) for i in range(4)]
    assert len({game_seed(3, i) for i in range(100)}) == 100
    alone = play_game(CLASSIC, RandomBot(), HeuristicBot(), seed=game_seed(3, 3),
                      max_plies=120)
    assert (alone.winner, alone.termination, alone.plies) == (
        whole.games[3].winner, whole.games[3].termination, whole.games[3].plies)


def test_bots_can_start_from_the_bundled_human_setups() -> None:
    """`setups="human"`: a bot that does not place its own army gets one of the human
    setups bundled with the library, drawn from its side's own setup stream."""
    bundled = {player: {s.text() for s in human_setups(CLASSIC, player)} for player in Player}
    game = play_game(CLASSIC, RandomBot(), RandomBot(), seed=4, max_plies=20, keep_state=True,
                     setups="human")
    assert game.state is not None
    record = stratego.record_from_state(game.state)
    assert record.red_setup.text() in bundled[Player.RED]
    assert record.blue_setup.text() in bundled[Player.BLUE]
    random_game = play_game(CLASSIC, RandomBot(), RandomBot(), seed=4, max_plies=20,
                            keep_state=True)
    assert random_game.state is not None
    assert stratego.record_from_state(random_game.state).red_setup.text() not in bundled[
        Player.RED]


def test_bots_can_start_from_the_setup_model() -> None:
    """`setups="model"`: a bot that does not place its own army gets the setup the setup
    model (`stratego.setup_model.sample_setup`, as the library's bots set up) draws from
    its side's own setup stream."""
    game = play_game(CLASSIC, RandomBot(), RandomBot(), seed=4, max_plies=20, keep_state=True,
                     setups="model")
    assert game.state is not None
    record = stratego.record_from_state(game.state)
    for player, setup in ((Player.RED, record.red_setup), (Player.BLUE, record.blue_setup)):
        stream = random.Random(side_seed(4, "setup", player))
        assert setup.text() == sample_setup(CLASSIC, player, stream).text()
    random_game = play_game(CLASSIC, RandomBot(), RandomBot(), seed=4, max_plies=20,
                            keep_state=True)
    assert random_game.state is not None
    assert stratego.record_from_state(random_game.state).red_setup != record.red_setup


def test_a_match_from_human_setups_is_the_same_with_two_workers() -> None:
    one = play_match(CLASSIC, "random", "random", games=3, seed=2, max_plies=400,
                     setups="human")
    two = play_match(CLASSIC, "random", "random", games=3, seed=2, max_plies=400,
                     setups="human", workers=2)
    assert one.games == two.games


@pytest.mark.parametrize("call", [play_game, play_match])
def test_an_unknown_setup_source_or_army_is_refused(call: object) -> None:
    bots = (RandomBot(), RandomBot()) if call is play_game else ("random", "random")
    with pytest.raises(stratego.ArgumentError,
                       match="setups must be one of 'random', 'human', 'model'"):
        call(CLASSIC, *bots, max_plies=10, setups="gravon")  # type: ignore[operator]


def test_play_seated_takes_bots_as_matches_do_and_refuses_anything_else() -> None:
    """One seated game: names, specs or bot objects; the second seat plays Red when
    swapped, and the result names each bot by its seat's name."""
    game = play_seated(CLASSIC, ["random", BotSpec("heuristic")], ("a", "b"), 7,
                       max_plies=40)
    swapped = play_seated(CLASSIC, [RandomBot(1), "heuristic"], ("a", "b"), 7,
                          swapped=True, max_plies=40)
    assert (game.red, game.blue) == ("a", "b")
    assert (swapped.red, swapped.blue) == ("b", "a")
    with pytest.raises(BotSpecError, match="bot 2 is neither a bot"):
        play_seated(CLASSIC, ["random", 3], ("a", "b"), 7)  # type: ignore[list-item]
    with pytest.raises(stratego.ArgumentError, match=r"two bots, not \['random'\]"):
        play_seated(CLASSIC, ["random"], ("a", "b"), 7)


def test_a_bots_own_error_says_whose_it_is() -> None:
    """`play_game` lets a bot's own exception through unchanged (its type, its traceback),
    with a note naming the seat, the bot, the ply and the game's seed."""

    def faulty(view: object) -> Move:
        raise ZeroDivisionError("thinking too hard")

    with pytest.raises(ZeroDivisionError) as raised:
        play_game(CLASSIC, "random", faulty, seed=5)
    assert raised.value.__notes__ == [
        "raised by blue (faulty) choosing the move at ply 1 of the game with seed 5"]


def test_games_read_back_from_a_recorded_file_carry_their_record(
        tmp_path: pathlib.Path) -> None:
    """"`read_jsonl` ... the games of a file written with ``record=True`` have their
    `GameResult.record`, a `stratego.records.GameRecord` to replay": it replays to the
    game's end (a forfeit too), names the bots and the result; a file written without
    records gives None, and the results still equal the games played."""

    def stubborn(view: PlayerView) -> Move:
        return Move.parse("a1-a9") if view.ply > 6 else view.legal_moves[0]

    path = tmp_path / "recorded.jsonl"
    played = play_match(CLASSIC, "heuristic", stubborn, games=2, seed=3, max_plies=60,
                        jsonl=path, record=True)
    read = read_jsonl(path)
    assert tuple(read.games[i] for i in range(2)) == played.games
    endings = set()
    for game in read.games.values():
        record = game.record
        assert isinstance(record, GameRecord)
        assert game.record is record  # read once
        final = record.replay()
        assert final.ply == game.plies
        assert record.result == game.result()
        assert (record.tags["Red"], record.tags["Blue"]) == (game.red, game.blue)
        endings.add(game.termination)
    assert endings == {ILLEGAL_MOVE}
    # a rerun resumes from the file as before, and a file without records gives None
    assert play_match(CLASSIC, "heuristic", stubborn, games=2, seed=3, max_plies=60,
                      jsonl=path, record=True).games == played.games
    bare = tmp_path / "bare.jsonl"
    play_match(CLASSIC, "random", "random", games=1, seed=3, max_plies=20, jsonl=bare)
    assert read_jsonl(bare).games[0].record is None
    assert played.games[0].record is None  # the file keeps records, not the results


def test_a_damaged_record_in_a_file_is_named(tmp_path: pathlib.Path) -> None:
    """A line whose record is not an object is refused as a damaged line
    (`MatchLogError`); a record its rules refuse (a setup) raises when asked for, with a
    note naming its game, and one that names an illegal move reads, raising on replay
    (docs/notation.md: "A record that names an illegal move reads fine")."""
    path = tmp_path / "recorded.jsonl"
    play_match(CLASSIC, "random", "random", games=1, seed=3, max_plies=20, jsonl=path,
               record=True)
    header, line = path.read_text(encoding="utf-8").splitlines()
    data = json.loads(line)
    data["record"]["moves"] = ["a1-a9"]
    path.write_text(f"{header}\n{json.dumps(data)}\n", encoding="utf-8")
    damaged = read_jsonl(path).games[0].record
    assert damaged is not None
    with pytest.raises(stratego.IllegalMoveError, match=r"move 1 \(red, ply 1\): a1-a9"):
        damaged.replay()
    data["record"]["red_setup"] = "F" * 40
    path.write_text(f"{header}\n{json.dumps(data)}\n", encoding="utf-8")
    game = read_jsonl(path).games[0]
    with pytest.raises(stratego.SetupError) as raised:
        _ = game.record
    assert raised.value.__notes__ == [
        f"in the record stored with the game with seed {game.seed} (random-1 v random-2)"]
    data["record"] = "1. a4-a5"
    path.write_text(f"{header}\n{json.dumps(data)}\n", encoding="utf-8")
    with pytest.raises(MatchLogError, match=r"line 2 is not a game of a match "
                                            r"\(bad record '1\. a4-a5'"):
        read_jsonl(path)


def test_two_bots_of_one_name_are_told_apart_by_their_specs() -> None:
    """A match names two bots of one kind by their specs when their options differ (the
    same search at two budgets), and by ``-1`` and ``-2`` only when nothing else differs."""
    result = play_match(HASBRO_2009, "search(simulations=2)", "search(simulations=3)",
                        games=2, seed=1, max_plies=6)
    assert result.names == ("search(simulations=2)", "search(simulations=3)")
    assert {g.red for g in result.games} == set(result.names)
    same = play_match(HASBRO_2009, "random", "random", games=1, seed=1, max_plies=6)
    assert same.names == ("random-1", "random-2")
