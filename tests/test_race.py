"""`stratego.bots.race`: the Flag races the search bot plans, counted on paths over the
board from what the player's view and chances say."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stratego
from stratego import Move, Player, Rank
from stratego.bots import RandomBot, SearchBot
from stratego.bots import search as search_module
from stratego.bots.race import FAR, SLIP, plan_race
from stratego.editions import CLASSIC
from stratego.errors import ArgumentError
from stratego.views import PlayerView, view


def _view(placement: Mapping[str, str], moves: tuple[str, ...] = ()) -> PlayerView:
    """Red's view of `placement` after `moves` (played alternately, Red first)."""
    state = stratego.from_position(CLASSIC, placement, to_move=Player.RED)
    for text in moves:
        state = stratego.apply(state, Move.parse(text))
    return view(state, Player.RED)


def _id(seen: PlayerView, square: str) -> int:
    piece = seen.piece_at(square)
    assert piece is not None
    return piece.id


def _flag_at(seen: PlayerView, square: str, chance: float = 0.9) -> dict[int, dict[Rank, float]]:
    """Chances that make `square` the opponent's Flag with `chance` (the rest a Bomb)."""
    return {_id(seen, square): {Rank.FLAG: chance, Rank.BOMB: 1.0 - chance}}


def test_the_attacker_is_the_piece_that_strikes_the_likeliest_flag_first() -> None:
    """Every book: a player wins by striking the opponent's Flag, one square a move around
    the lakes. The Colonel on e4 needs nine moves to strike j8 (e5 ... e8, f8 ... i8,
    then the strike), the General on a4 thirteen; the Colonel goes."""
    seen = _view({"a4": "G", "e4": "C", "a1": "F", "j8": "f", "b9": "x"})
    plan = plan_race(seen, _flag_at(seen, "j8"))
    assert plan.attack is not None
    assert plan.target == stratego.Square.parse("j8").index
    assert plan.flag_chance == pytest.approx(0.9)
    assert plan.attack.piece == stratego.Square.parse("e4").index
    assert plan.attack.steps == 9
    alone = _view({"a4": "G", "a1": "F", "j8": "f", "b9": "x"})
    general = plan_race(alone, _flag_at(alone, "j8"))
    assert general.attack is not None
    assert general.attack.steps == 13
    assert plan.attack.progress(Move.parse("e4-f4")) == 1
    assert plan.attack.progress(Move.parse("e4-d4")) == -1
    assert plan.attack.progress(Move.parse("a4-a5")) == 0


def test_no_attack_when_no_piece_is_likely_enough_the_flag() -> None:
    """Without chances, a hidden piece is weighed by counts: one Flag among five pieces."""
    seen = _view({"e4": "C", "a1": "F", "j8": "f", "b9": "x", "g9": "b", "h9": "b",
                  "i9": "b"})
    assert plan_race(seen).attack is None
    assert plan_race(seen, _flag_at(seen, "j8", 0.4)).attack is None
    assert plan_race(seen, _flag_at(seen, "j8", 0.4), least=0.3).attack is not None


def test_a_miner_passes_a_wall_of_likely_bombs_a_general_does_not() -> None:
    """Every book: a Miner defuses a Bomb; any other piece striking one is removed. The
    Flag on j10 is walled by likely Bombs on i10 and j9: only the Miner has a path."""
    seen = _view({"j5": "G", "a5": "N", "a1": "F", "j10": "f", "i10": "b", "j9": "b",
                  "c9": "x"})
    chances = {**_flag_at(seen, "j10"), _id(seen, "i10"): {Rank.BOMB: 1.0},
               _id(seen, "j9"): {Rank.BOMB: 1.0}}
    plan = plan_race(seen, chances)
    assert plan.attack is not None
    assert plan.attack.piece == stratego.Square.parse("a5").index


def test_a_guard_takes_the_entrance_a_runner_would_use() -> None:
    """Every book: a higher rank wins a strike. An opponent Sergeant that has moved is six
    moves from b1, the only way in to Red's Flag on a1 (a Bomb holds a2), and seven from
    striking the Flag; Red's Captain, which beats it, can stand on b1 in three moves: it
    is the guard, and it heads for b1 rather than for the Sergeant."""
    seen = _view({"a1": "F", "a2": "B", "e1": "K", "h3": "t", "j10": "f"},
                 moves=("e1-f1", "h3-g3", "f1-e1", "g3-f3"))
    runner = _id(seen, "f3")
    plan = plan_race(seen, {runner: {Rank.SERGEANT: 1.0}})
    assert [g.piece for g in plan.guards] == [stratego.Square.parse("e1").index]
    guard = plan.guards[0]
    assert guard.goals == frozenset({stratego.Square.parse("b1").index})
    assert plan.pull(Move.parse("e1-d1"), hunt=0.0, guard=6.0) == 6.0
    assert plan.pull(Move.parse("e1-f1"), hunt=0.0, guard=6.0) == -6.0
    assert guard.steps == 3
    assert plan.their_steps == 7


def test_a_weaker_piece_is_no_guard() -> None:
    """A Scout loses to a Sergeant: it guards nothing against one."""
    seen = _view({"a1": "F", "a2": "B", "e1": "X", "h3": "t", "j10": "f"},
                 moves=("e1-f1", "h3-g3", "f1-e1", "g3-f3"))
    plan = plan_race(seen, {_id(seen, "f3"): {Rank.SERGEANT: 1.0}})
    assert plan.guards == ()


def test_a_runner_that_may_be_a_miner_is_guarded_against_by_its_chance() -> None:
    """Every book: only a Miner defuses a Bomb. Red's Flag on a1 is walled in by Bombs on
    a2 and b1; an opponent piece that has moved stands four moves from striking one of
    them and is a Miner with chance 0.2. No way in is sure, so the guard is weighed by that
    chance: the Captain, which beats it either way, heads for the squares beside the Bomb,
    its steps worth a fifth of a sure runner's (`slip=0.1`). With `slip=1` (the default)
    or a chance below `slip`, no guard."""
    seen = _view({"a1": "F", "a2": "B", "b1": "B", "e1": "K", "h3": "t", "j10": "f"},
                 moves=("e1-f1", "h3-g3", "f1-e1", "g3-f3", "e1-f1", "f3-e3", "f1-e1",
                        "e3-d3"))
    runner = _id(seen, "d3")
    chances = {runner: {Rank.MINER: 0.2, Rank.SERGEANT: 0.8}}
    plan = plan_race(seen, chances, slip=0.1)
    assert [g.piece for g in plan.guards] == [stratego.Square.parse("e1").index]
    guard = plan.guards[0]
    assert guard.weight == pytest.approx(0.2)
    assert stratego.Square.parse("b2").index in guard.goals
    assert plan.pull(Move.parse("e1-d1"), hunt=0.0, guard=6.0) == pytest.approx(1.2)
    assert plan.pull(Move.parse("e1-f1"), hunt=0.0, guard=6.0) == pytest.approx(-1.2)
    assert plan_race(seen, chances, slip=1.0).guards == ()
    unlikely = {runner: {Rank.MINER: 0.05, Rank.SERGEANT: 0.95}}
    assert plan_race(seen, unlikely, slip=0.1).guards == ()
    assert plan_race(seen, chances).guards == ()  # the default, SLIP = 1: none
    assert plan_race(seen, unlikely, slip=0.04).guards[0].weight == pytest.approx(0.05)


def test_the_search_bot_sends_the_guard_by_the_runners_chance() -> None:
    """The position above, searched, the runner one of Blue's four hidden movable pieces,
    one a Miner (a chance of 0.25 by counts): the Captain's step toward the wall scores
    the guard's pull (`intercept` times that chance) more with `slip=0.1` than with the
    default (1), and its step away as much less."""
    seen = _view({"a1": "F", "a2": "B", "b1": "B", "e1": "K", "i1": "T", "h3": "t",
                  "j10": "f", "j9": "n", "i9": "t", "h9": "t"},
                 moves=("i1-i2", "h3-g3", "i2-i1", "g3-f3", "i1-i2", "f3-e3", "i2-i1",
                        "e3-d3"))
    scores = {}
    for slip in (0.1, SLIP):
        bot = SearchBot(1, simulations=16, slip=slip, use_beliefs=False, candidates=20)
        bot(seen)
        scores[slip] = {c.move: c.score for c in bot.searched}
    toward, away = Move.parse("e1-d1"), Move.parse("e1-f1")
    pull = search_module.INTERCEPT * 0.25
    assert scores[0.1][toward] - scores[SLIP][toward] == pytest.approx(pull)
    assert scores[SLIP][away] - scores[0.1][away] == pytest.approx(pull)
    for bad in (-0.5, 1.5, "0.1", True):
        with pytest.raises(ArgumentError, match="slip"):
            SearchBot(1, slip=bad)  # type: ignore[arg-type]


def test_a_won_race_is_played_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Colonel strikes the likely Flag in nine moves and no opponent piece can move:
    the bot walks toward it without spending its simulations; with `commit=None` it
    searches."""
    seen = _view({"a4": "G", "e4": "C", "a1": "F", "j8": "f", "b9": "b"})
    chances = _flag_at(seen, "j8")
    plan = plan_race(seen, chances)
    assert plan.their_steps == FAR
    assert plan.won(0.8)
    assert not plan.won(0.95)

    class Known:
        """A source of chances that draws no states (the won race needs none)."""

        def marginals(self) -> dict[int, dict[Rank, float]]:
            return chances

        def sample(self, rng: object) -> stratego.GameState:
            raise AssertionError("a won race draws no state")

    monkeypatch.setattr(search_module, "_source", lambda v: Known())
    bot = SearchBot(1, simulations=50)
    move = bot(seen)
    assert bot.simulations_done == 0
    assert plan.attack is not None
    assert plan.attack.progress(move) == 1
    with pytest.raises(AssertionError, match="draws no state"):
        SearchBot(1, simulations=50, commit=None)(seen)


def test_bad_chances_are_refused() -> None:
    seen = _view({"e4": "C", "a1": "F", "j8": "f"})
    with pytest.raises(ArgumentError, match="chances must map"):
        plan_race(seen, "flag")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="must be a number from 0 to 1"):
        plan_race(seen, {_id(seen, "j8"): {Rank.FLAG: 2.0}})
    for bad in ({"least": 1.5}, {"least": "half"}, {"reach": -1}, {"reach": 2.5},
                {"reach": True}, {"slip": -0.1}, {"slip": None}):
        with pytest.raises(ArgumentError, match=r"(least|reach|slip) must"):
            plan_race(seen, **bad)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 120))
def test_plan_invariants(seed: int, plies: int) -> None:
    """For any view: the attacker and the guards are movable pieces of the player, the
    target an opponent piece; the attacker's steps are its paths' distance; a move's pull
    is at most one step's worth of each walk that moves it, a guard's weighed by the chance
    that its runner gets through (at least the 0.1 asked as `slip`)."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, seed),
                              stratego.random_setup(CLASSIC, Player.BLUE, seed + 1))
    bots = (RandomBot(seed), RandomBot(seed + 1))
    while state.ply < plies and state.outcome is None:
        state = stratego.apply(state, bots[state.to_move](view(state, state.to_move)))
    if state.outcome is not None:
        return
    seen = view(state, state.to_move)
    flags = {p.id: {Rank.FLAG: 0.6, Rank.BOMB: 0.4} for p in seen.pieces
             if p.owner != seen.player and not p.moved}
    plan = plan_race(seen, flags, slip=0.1)
    mine = {p.square.index: p.rank for p in seen.pieces
            if p.owner == seen.player and p.square is not None}
    movable = CLASSIC.movable_ranks()
    assert plan.their_steps >= 1
    if plan.attack is not None:
        assert mine[plan.attack.piece] in movable
        assert plan.target in plan.opponents
        assert plan.attack.distances[plan.target] == 0
        assert 1 <= plan.attack.steps < FAR
    for guard in plan.guards:
        assert mine[guard.piece] in movable
        assert 0.1 <= guard.weight <= 1.0
    for move in seen.legal_moves:
        walks = (plan.attack is not None and move.frm is not None
                 and move.frm.index == plan.attack.piece)
        guards = sum(1 for g in plan.guards if move.frm is not None
                     and move.frm.index == g.piece)
        assert abs(plan.pull(move, hunt=1.0, guard=1.0)) <= walks * plan.flag_chance + guards
