"""The fixed action index and the observation planes.

Book rules behind the layout: MB 1961 "To start the game" 5 (the opponent's
ranks are hidden, so the planes show only what the view knows), Hasbro 2009
"Rescue" (Rescue decisions are actions; a Bomb is never rescued).
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import new_games, random_playout, rules_values, scattered_positions, seeds
from stratego import CLASSIC, Move, Player, Rank, Square
from stratego.encoding import (
    DECLINE_ACTION,
    NUM_ACTIONS,
    NUM_MOVE_ACTIONS,
    NUM_PLANES,
    PLANES,
    MissingDependencyError,
    action_index,
    action_move,
    legal_action_indices,
    legal_action_mask,
    observation_planes,
)
from stratego.views import rank_masks, view

STARTS = st.one_of(new_games(rules_values()), scattered_positions())


@pytest.mark.parametrize("perspective", list(Player))
def test_every_action_index_names_one_move_and_back(perspective: Player) -> None:
    moves = [action_move(i, perspective) for i in range(NUM_ACTIONS)]
    assert len(set(moves)) == NUM_ACTIONS
    assert all(action_index(m, perspective) == i for i, m in enumerate(moves))
    assert action_move(DECLINE_ACTION) == Move.parse("--")
    assert all(m.frm is not None for m in moves[:NUM_MOVE_ACTIONS])


def test_blue_sees_its_moves_as_red_sees_the_turned_board() -> None:
    assert action_index("a7-a6", Player.BLUE) == action_index("j4-j5")
    assert action_index("K@b9", Player.BLUE) == action_index("K@i2")
    assert action_move(action_index("j4-j5"), Player.BLUE) == Move.parse("a7-a6")


def test_impossible_actions_are_refused() -> None:
    with pytest.raises(stratego.InvalidNotationError, match="never rescued"):
        action_index("B@a1")
    with pytest.raises(stratego.InvalidNotationError, match="no piece can ever"):
        action_index(Move(Square.parse("a1"), Square.parse("j10")))
    for bad in (-1, NUM_ACTIONS, True, "3"):
        with pytest.raises(stratego.InvalidNotationError, match="not an action index"):
            action_move(bad)  # type: ignore[arg-type]


@given(STARTS, seeds, st.integers(0, 250), st.sampled_from(list(Player)))
@pytest.mark.extra("numpy")
def test_the_legal_mask_marks_exactly_the_legal_moves(start: stratego.GameState, seed: int,
                                                     plies: int, player: Player) -> None:
    np = pytest.importorskip("numpy")
    state = random_playout(start, seed, plies)[-1]
    mask = legal_action_mask(state)
    legal = stratego.legal_moves(state)
    assert mask.dtype == np.bool_
    assert mask.shape == (NUM_ACTIONS,)
    assert mask.sum() == len(legal)
    assert {action_move(i, state.to_move) for i in np.flatnonzero(mask)} == set(legal)
    assert legal_action_indices(state) == tuple(action_index(m, state.to_move) for m in legal)
    seen = view(state, player)
    view_mask = legal_action_mask(seen, dtype=np.int8)
    assert view_mask.dtype == np.int8
    assert (view_mask == (mask if seen.is_my_turn else np.zeros(NUM_ACTIONS, bool))).all()


@given(STARTS, seeds, st.integers(0, 250), st.sampled_from(list(Player)))
@pytest.mark.extra("numpy")
def test_planes_from_the_state_equal_planes_from_the_view(start: stratego.GameState, seed: int,
                                                          plies: int, player: Player) -> None:
    """Invariant: `observation_planes(state, player)` (engine tables) is exactly
    `observation_planes(view(state, player))`, and `rank_masks` is the view's `possible`."""
    np = pytest.importorskip("numpy")
    state = random_playout(start, seed, plies)[-1]
    seen = view(state, player)
    fast = observation_planes(state, player)
    assert fast.dtype == np.float32
    assert fast.flags.c_contiguous
    assert np.array_equal(fast, observation_planes(seen))
    masks = rank_masks(state, player)
    assert [masks[p.id] for p in seen.all_pieces()] == [
        sum(1 << r for r in p.possible) for p in seen.all_pieces()]
    assert observation_planes(state, player) is not fast  # a fresh array each call


@pytest.mark.extra("numpy")
def test_observation_planes_follow_the_documented_layout() -> None:
    np = pytest.importorskip("numpy")
    state = stratego.from_position(CLASSIC, {"a1": "M", "j10": "b", "e7": "x"})
    state = stratego.apply(state, "a1-a2")
    red = observation_planes(view(state, Player.RED))
    blue = observation_planes(view(state, Player.BLUE))
    assert red.shape == blue.shape == (NUM_PLANES, 10, 10)
    assert red.dtype == np.float32
    assert red[PLANES.index("own/marshal"), 1, 0] == 1  # a2
    assert red[PLANES.index("opponent/unknown"), 9, 9] == 1  # j10, rank unknown to Red
    assert red[:24, 9, 9].sum() == 0  # ... so no rank plane shows it
    assert red[PLANES.index("possible/bomb"), 9, 9] == 1
    assert red[PLANES.index("possible/bomb"), 6, 4] == 1  # e7 has not moved
    assert blue[PLANES.index("own/bomb"), 0, 0] == 1  # j10 is Blue's [0, 0]
    assert blue[PLANES.index("opponent/moved"), 8, 9] == 1  # a2 turned: row 8, file 9
    assert blue[PLANES.index("last/from"), 9, 9] == 1  # a1
    assert red[PLANES.index("lake")].sum() == blue[PLANES.index("lake")].sum() == 8
    assert blue[PLANES.index("to-move")].min() == 1
    assert red[PLANES.index("to-move")].max() == 0
    assert red[PLANES.index("unidentified/bomb")].min() == 1


@given(new_games(rules_values()), seeds, st.integers(0, 250), st.sampled_from(list(Player)))
@pytest.mark.extra("numpy")
def test_planes_are_a_function_of_the_view(start: stratego.GameState, seed: int, plies: int,
                                          player: Player) -> None:
    """Invariant: own pieces fill the own-rank planes, and a square holds at most one piece."""
    pytest.importorskip("numpy")
    state = random_playout(start, seed, plies)[-1]
    planes = observation_planes(view(state, player))
    assert planes[:12].sum() == sum(1 for _ in state.pieces(player))
    assert planes[:24].sum() + planes[PLANES.index("opponent/unknown")].sum() == sum(
        1 for _ in state.pieces())
    assert (planes[:24].sum(axis=0) + planes[PLANES.index("opponent/unknown")]
            + planes[PLANES.index("empty")] + planes[PLANES.index("lake")]).max() == 1


def test_without_numpy_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    state = stratego.from_position(CLASSIC, {"a1": "M", "j10": "m"})
    with pytest.raises(MissingDependencyError, match=r"pip install stratego\[numpy\]"):
        observation_planes(view(state, Player.RED))
    with pytest.raises(MissingDependencyError, match=r"pip install stratego\[numpy\]"):
        legal_action_mask(state)
    assert legal_action_indices(state)  # needs no NumPy
    with pytest.raises(ImportError):
        observation_planes(view(state, Player.RED))
    assert Rank.MARSHAL.symbol == "M"
