"""The benchmark opponent `benchmarks/baselines/minimax.py:MinimaxBot` plays legal moves and
reads nothing but its view.

Its scores against the search bot are the library's strength figures against a program of
another kind (docs/performance.md); a bot that peeked at the hidden ranks would make them
worthless, so it gets the same differential check as the library's bots: states the player
cannot tell apart (other states drawn for the same view) get the same move.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import stratego
from benchmark_modules import load_benchmark
from stratego.bots import RandomBot
from stratego.editions import by_name
from stratego.pieces import Player
from stratego.sampling import Sampler


@pytest.fixture(scope="module")
def minimax() -> Any:
    return load_benchmark("baselines/minimax.py", "minimax_baseline")


def _midgame(seed: int, plies: int) -> stratego.GameState:
    rules = by_name("classic")
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                              stratego.random_setup(rules, Player.BLUE, seed + 1))
    bots = {Player.RED: RandomBot(seed), Player.BLUE: RandomBot(seed + 1)}
    while state.outcome is None and state.ply < plies:
        state = stratego.apply(state, bots[state.to_move](stratego.view(state, state.to_move)))
    return state


def test_it_plays_legal_moves_to_the_end_of_a_game(minimax: Any) -> None:
    """Every move it chooses is one of the view's legal moves (CLASSIC 4: one move a turn;
    an illegal one would raise in `apply`)."""
    rules = by_name("classic")
    bot = minimax.MinimaxBot(3, samples=2, draws=4, depth=1)
    opponent = RandomBot(4)
    setups = {p: bot.setup(rules, p, random.Random(int(p))) for p in Player}
    state = stratego.new_game(rules, setups[Player.RED], setups[Player.BLUE])
    bots = {Player.RED: bot, Player.BLUE: opponent}
    while state.outcome is None and state.ply < 120:
        seen = stratego.view(state, state.to_move)
        move = bots[state.to_move](seen)
        assert move in seen.legal_moves
        state = stratego.apply(state, move)
    assert state.ply > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_states_with_the_same_view_get_the_same_move(minimax: Any, seed: int) -> None:
    """Differential: the bot's move depends on the view alone, so a state drawn for the same
    view (other hidden ranks, same public record) gets the same move from the same seed."""
    state = _midgame(seed, 40 + 2 * seed)
    assert state.outcome is None
    player = state.to_move
    seen = stratego.view(state, player)
    expected = minimax.MinimaxBot(9, samples=2, draws=4, depth=2)(seen)
    rng = random.Random(seed)
    others = [Sampler(seen).sample(rng) for _ in range(3)]
    assert any(o.board != state.board for o in others)
    for other in others:
        other_view = stratego.view(other, player)
        assert other_view == seen
        assert minimax.MinimaxBot(9, samples=2, draws=4, depth=2)(other_view) == expected
