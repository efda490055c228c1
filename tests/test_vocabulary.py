"""The edition-independent vocabulary: players, ranks, squares, moves, labels.

Each parser is checked against its formatter (round trips) and against
malformed input, which must raise `InvalidNotationError` naming the input.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratego import (
    CLASSIC,
    HASBRO_2009,
    JUMBO_2014,
    LAKES,
    MILTON_BRADLEY_1961,
    SQUARES,
    InvalidNotationError,
    Move,
    Piece,
    Player,
    Rank,
    Square,
    StrategoError,
)
from stratego.board import LANES, NEIGHBOURS, TWO_STEPS, home_rows
from stratego.moves import MOVE_TABLE

# -- players ------------------------------------------------------------------


def test_red_is_zero_and_opponents_swap() -> None:
    """Every book: one player takes Red, the other Blue (Red is player 0, moving first)."""
    assert Player.RED == 0  # type: ignore[comparison-overlap]
    assert Player.BLUE == 1  # type: ignore[comparison-overlap]
    assert Player.RED.opponent is Player.BLUE
    assert Player.BLUE.opponent is Player.RED


@pytest.mark.parametrize(("text", "player"), [("red", Player.RED), (" B ", Player.BLUE),
                                              ("RED", Player.RED), ("r", Player.RED)])
def test_player_parse(text: str, player: Player) -> None:
    assert Player.parse(text) is player


def test_player_parse_rejects_other_text() -> None:
    with pytest.raises(InvalidNotationError, match="'green'"):
        Player.parse("green")


def test_player_str_and_repr() -> None:
    assert str(Player.BLUE) == "blue"
    assert repr(Player.RED) == "Player.RED"


# -- ranks --------------------------------------------------------------------


def test_rank_values_are_strengths() -> None:
    """Strike 8 (1961/2009): Marshal > General > Colonel ... down to the Spy."""
    order = [Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.MAJOR, Rank.CAPTAIN,
             Rank.LIEUTENANT, Rank.SERGEANT, Rank.MINER, Rank.SCOUT, Rank.SPY]
    assert order == sorted(order, reverse=True)
    assert [int(r) for r in reversed(order)] == list(range(1, 11))
    assert Rank.FLAG == 0  # type: ignore[comparison-overlap]
    assert Rank.BOMB == 11  # type: ignore[comparison-overlap]


def test_rank_symbols_are_distinct_and_parse_back() -> None:
    symbols = [rank.symbol for rank in Rank]
    assert len(set(symbols)) == len(Rank)
    for rank in Rank:
        assert Rank.parse(rank.symbol) is rank
        assert Rank.parse(rank.symbol.lower()) is rank
        assert Rank.parse(rank.name.lower()) is rank
        assert Rank.parse(str(rank)) is rank


def test_rank_symbols_documented() -> None:
    assert Rank.MARSHAL.symbol == "M"
    assert Rank.MAJOR.symbol == "J"
    assert Rank.SCOUT.symbol == "X"
    assert Rank.MINER.symbol == "N"
    assert Rank.SERGEANT.symbol == "T"


@pytest.mark.parametrize("text", ["Q", "", "marshall", "10"])
def test_rank_parse_rejects_unknown(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="not a rank"):
        Rank.parse(text)


def test_piece_is_a_hashable_value() -> None:
    a = Piece(3, Player.BLUE, Rank.SPY)
    assert a == Piece(3, Player.BLUE, Rank.SPY)
    assert len({a, Piece(3, Player.BLUE, Rank.SPY)}) == 1
    assert eval(repr(a)) == a
    assert pickle.loads(pickle.dumps(a)) == a


# -- rank labels per edition ----------------------------------------------------


@pytest.mark.parametrize("rules", [MILTON_BRADLEY_1961, HASBRO_2009])
def test_labels_1961_2009_marshal_1_spy_s(rules: object) -> None:
    """MB 1961 / Hasbro 2009, To start the game 3: Marshal 1 (highest) ... Scout 9, Spy "S"."""
    labels = rules.labels  # type: ignore[attr-defined]
    expected = {Rank.MARSHAL: "1", Rank.GENERAL: "2", Rank.COLONEL: "3", Rank.MAJOR: "4",
                Rank.CAPTAIN: "5", Rank.LIEUTENANT: "6", Rank.SERGEANT: "7", Rank.MINER: "8",
                Rank.SCOUT: "9", Rank.SPY: "S"}
    for rank, label in expected.items():
        assert labels.label(rank) == label
        assert labels.parse(label) is rank


@pytest.mark.parametrize("rules", [JUMBO_2014, CLASSIC])
def test_labels_jumbo_and_classic_marshal_10_spy_1(rules: object) -> None:
    """Jumbo 2014, The playing pieces: Marshal 10 ... Spy 1 (classic web rules use the
    same modern numbering, see docs/editions.md)."""
    labels = rules.labels  # type: ignore[attr-defined]
    for rank in Rank:
        if rank not in (Rank.BOMB, Rank.FLAG):
            assert labels.label(rank) == str(int(rank))
            assert labels.parse(str(int(rank))) is rank
    assert labels.label(Rank.MARSHAL) == "10"
    assert labels.label(Rank.SPY) == "1"


def test_labels_accept_names_and_reject_unknown() -> None:
    assert JUMBO_2014.labels.parse("marshal") is Rank.MARSHAL
    assert MILTON_BRADLEY_1961.labels.parse("s") is Rank.SPY
    with pytest.raises(InvalidNotationError, match="not a rank label: '12'"):
        JUMBO_2014.labels.parse("12")


# -- squares and the board ------------------------------------------------------


def test_square_parse_is_interned_and_indexed() -> None:
    assert Square.parse("a1") is SQUARES[0]
    assert Square.parse("J10") is SQUARES[99]
    assert Square.parse("c5").index == 42
    sq = Square.parse("e7")
    assert (sq.file, sq.row) == (4, 6)
    assert Square.at(4, 6) is sq


@given(st.sampled_from(SQUARES))
def test_square_name_round_trip(square: Square) -> None:
    assert Square.parse(square.name) is square
    assert Square.parse(square.name.upper()) is square
    assert eval(repr(square)) is square


@pytest.mark.parametrize("text", ["", "k1", "a0", "a11", "a01", "1a", "aa", "a10x"])
def test_square_parse_rejects_malformed(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="not a square"):
        Square.parse(text)


def test_square_at_out_of_range() -> None:
    with pytest.raises(InvalidNotationError, match="file 10"):
        Square.at(10, 0)


def test_lakes_are_the_eight_centre_squares() -> None:
    """MB 1961 Movement 3: two lakes in the centre of the board contain no squares."""
    assert {sq.name for sq in LAKES} == {"c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6"}
    assert all(sq.is_lake for sq in LAKES)
    assert sum(sq.is_lake for sq in SQUARES) == 8


def test_neighbours_are_orthogonal_and_avoid_lakes() -> None:
    """MB 1961 Movement 2-3: one square forward, backward or sideways; never into a lake."""
    assert {s.name for s in Square.parse("a1").neighbours()} == {"a2", "b1"}
    assert {s.name for s in Square.parse("e5").neighbours()} == {"e4", "e6", "f5"}
    assert {s.name for s in Square.parse("c4").neighbours()} == {"b4", "d4", "c3"}
    for sq in SQUARES:
        for n in NEIGHBOURS[sq.index]:
            assert abs(n // 10 - sq.row) + abs(n % 10 - sq.file) == 1
            assert not SQUARES[n].is_lake
    assert all(NEIGHBOURS[sq.index] == () for sq in LAKES)


def test_lanes_stop_at_lakes_and_edges() -> None:
    """MB 1961 Movement 8: a Scout's straight line; it cannot cross a lake (Movement 3)."""
    lanes = {tuple(SQUARES[i].name for i in lane) for lane in LANES[Square.parse("c3").index]}
    assert lanes == {("c4",), ("c2", "c1"), ("d3", "e3", "f3", "g3", "h3", "i3", "j3"),
                     ("b3", "a3")}
    e5 = {tuple(SQUARES[i].name for i in lane) for lane in LANES[Square.parse("e5").index]}
    assert ("f5",) in e5  # g5 is a lake


def test_two_steps_lists_middle_squares() -> None:
    routes = dict(TWO_STEPS[Square.parse("a1").index])
    assert set(routes) == {Square.parse(n).index for n in ("a3", "b2", "c1")}
    assert set(routes[Square.parse("b2").index]) == {Square.parse("a2").index,
                                                      Square.parse("b1").index}


@pytest.mark.parametrize(("player", "first", "last"), [(Player.RED, "a1", "j4"),
                                                       (Player.BLUE, "a10", "j7")])
def test_home_rows(player: Player, first: str, last: str) -> None:
    """MB 1961 To start the game 4: 10 per row, 4 rows deep."""
    squares = list(home_rows(player))
    assert len(squares) == 40
    assert squares[0] == Square.parse(first)
    assert squares[-1] == Square.parse(last)
    assert len(list(home_rows(player, 5))) == 46  # the row next to the lakes has 6 squares


# -- moves ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["a4-a5", "a4a5", "a4xa5", " a4-a5 ", "A4-A5"])
def test_move_parse_forms(text: str) -> None:
    move = Move.parse(text)
    assert move == Move(Square.parse("a4"), Square.parse("a5"))
    assert str(move) == "a4-a5"


def test_move_parse_ten() -> None:
    assert str(Move.parse("a10a9")) == "a10-a9"
    assert str(Move.parse("a9a10")) == "a9-a10"
    assert Move.parse("j10-j9").frm is SQUARES[99]


def test_move_parse_is_interned() -> None:
    assert Move.parse("b2-b3") is MOVE_TABLE[11][21]


def test_rescue_and_decline_notation() -> None:
    rescue = Move.parse("K@b2")
    assert rescue.is_rescue
    assert not rescue.is_decline
    assert rescue == Move.rescue(Rank.CAPTAIN, Square.parse("b2"))
    assert str(rescue) == "K@b2"
    decline = Move.parse("--")
    assert decline.is_decline
    assert not decline.is_rescue
    assert decline == Move.decline_rescue()
    assert str(decline) == "--"


@pytest.mark.parametrize("text", ["a4-a5", "K@b2", "--", "j10-j1"])
def test_move_repr_round_trip(text: str) -> None:
    move = Move.parse(text)
    assert eval(repr(move)) == move
    assert Move.parse(str(move)) == move
    assert hash(Move.parse(str(move))) == hash(move)


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "not a move"),
    ("a11-a1", "'a11'"),
    ("z1-a2", "'z1'"),
    ("a1-a1", "starts and ends on a1"),
    ("K@z9", "not a rescue"),
    ("Q@a1", "'Q'"),
    ("hello", "not a move"),
])
def test_move_parse_rejects_malformed(text: str, fragment: str) -> None:
    with pytest.raises(InvalidNotationError, match=fragment):
        Move.parse(text)


def test_move_parse_rejects_non_text() -> None:
    with pytest.raises(InvalidNotationError):
        Move.parse(42)  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    """Callers may catch the built-in `ValueError` as well as `StrategoError`."""
    with pytest.raises(ValueError):
        Square.parse("q7")
    with pytest.raises(StrategoError):
        Square.parse("q7")
