"""Moves as values: ordered, hashable, and compared in C.

`apply` checks `move in legal_moves(state)` on every ply; these tests pin down that a `Move`
brings no Python-level comparison or hash method (the cost that made membership 3.6-4 us),
and that the order and equality users rely on are still the ones of the from square, the to
square and the rescued rank.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from stratego import Move, Square
from stratego.moves import DECLINE_RESCUE, MOVE_TABLE

ALL_MOVES = sorted({m for row in MOVE_TABLE for m in row if m is not None})
RESCUES = [Move.rescue(rank, sq) for rank in stratego.Rank for sq in stratego.SQUARES[:20]]


def _key(move: Move) -> tuple[int, int, int]:
    return (move.fi, move.ti, -1 if move.rescued is None else int(move.rescued))


def test_comparison_and_hash_are_inherited_from_c() -> None:
    """No comparison or hash method of Move is written in Python."""
    for name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__"):
        assert name not in vars(Move), name
        assert getattr(Move, name) is getattr(int, name), name


@given(st.sampled_from(ALL_MOVES + RESCUES + [DECLINE_RESCUE]),
       st.sampled_from(ALL_MOVES + RESCUES + [DECLINE_RESCUE]))
def test_order_and_equality_follow_the_squares(a: Move, b: Move) -> None:
    """Invariant: moves compare as (from square, to square, rescued rank), equal moves are
    the same object, and hash alike."""
    assert (a < b) == (_key(a) < _key(b))
    assert (a == b) == (a is b) == (_key(a) == _key(b))
    if a == b:
        assert hash(a) == hash(b)


def test_a_move_is_never_equal_to_an_action_index() -> None:
    """A bot mixing up action indices and moves gets False, never a false match."""
    assert min(ALL_MOVES + RESCUES + [DECLINE_RESCUE]) > 1 << 20
    assert not any(i in ALL_MOVES for i in range(5000))


def test_moves_stay_readable_and_immutable() -> None:
    move = Move.parse("a4-a5")
    assert str(move) == f"{move}" == "a4-a5"
    assert repr(move) == "Move.parse('a4-a5')"
    assert move.frm == Square.parse("a4")
    assert move.step
    for name in ("fi", "frm", "anything"):
        try:
            setattr(move, name, 3)
        except AttributeError:
            continue
        raise AssertionError(f"set {name}")
    assert json.dumps(str(move)) == '"a4-a5"'


def test_state_to_json_without_history_reads_no_history(monkeypatch: pytest.MonkeyPatch) -> None:
    """`with_history=False` neither replays nor walks the history it does not write."""
    state = stratego.new_game(stratego.CLASSIC,
                              stratego.random_setup(stratego.CLASSIC, stratego.Player.RED, 1),
                              stratego.random_setup(stratego.CLASSIC, stratego.Player.BLUE, 2))
    for _ in range(30):
        state = stratego.apply(state, stratego.legal_moves(state)[0])

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("the history was read")

    monkeypatch.setattr("stratego.saved_state.replay", boom)
    monkeypatch.setattr(stratego.GameState, "moves", boom)
    monkeypatch.setattr(stratego.GameState, "history_records", boom)
    text = stratego.state_to_json(state, with_history=False)
    assert "history" not in json.loads(text)
    assert stratego.state_from_json(text) == state


def test_a_square_takes_any_whole_number_as_rank_and_player_do() -> None:
    """A NumPy integer (an action's square from an array) is a whole number: `Square`
    takes it as its int, as `Rank`, `Player` and the environments' seeds take one; a
    NumPy bool is refused as a bool is. An index outside 0-99 is an
    `InvalidNotationError`, as a square name that names no square is."""
    np = pytest.importorskip("numpy")
    from stratego import InvalidNotationError
    from stratego.board import SQUARES

    square = Square(np.int64(5))
    assert square == SQUARES[5]
    assert type(square.index) is int
    assert Square(np.uint8(99)) == SQUARES[99]
    with pytest.raises(InvalidNotationError, match="a whole number from 0 to 99, not "):
        Square(np.True_)
    with pytest.raises(InvalidNotationError, match=r"out of range: .*100.* \(expected 0-99\)"):
        Square(np.int64(100))


def test_a_move_that_stays_put_and_a_boolean_square_are_refused() -> None:
    """`Move(a1, a1)` built a move that `Move.parse` refuses and no rule allows, and
    `Square(True)` was b1 (a bool is an int): both are `InvalidNotationError`s now."""
    from stratego import InvalidNotationError
    from stratego.board import SQUARES

    with pytest.raises(InvalidNotationError, match="stays on a1"):
        Move(SQUARES[0], SQUARES[0])
    with pytest.raises(InvalidNotationError, match="a whole number from 0 to 99, not True"):
        Square(True)
    for odd in (3.0, None):  # the type at fault, not a range
        with pytest.raises(InvalidNotationError, match=f"whole number from 0 to 99, not {odd}"):
            Square(odd)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError, match="square index out of range: 100"):
        Square(100)
    with pytest.raises(InvalidNotationError, match=r"not a name: 'c5' \(use Square.parse"):
        Square("c5")  # type: ignore[arg-type]
    assert str(Move(SQUARES[0], SQUARES[1])) == "a1-b1"
