"""Value classes and helpers that check what they are given: `Piece`, `Outcome`,
`stratego.board.distance`, the read-only registries of editions and variants, and seeds.

Bad input raises the library's `ArgumentError` naming the field or argument at fault,
never a bare built-in error or a value that holds what no game can (a piece owned by 5).
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from stratego import (
    CLASSIC,
    ArgumentError,
    Outcome,
    Piece,
    Player,
    Rank,
    RulesError,
    Square,
    Termination,
)
from stratego.arguments import optional_seed, random_from, seed_from
from stratego.board import SQUARES, distance
from stratego.editions import EDITIONS, OPTIONS, by_name
from stratego.variants import BARRAGE, VARIANTS

# ---------------------------------------------------------------------------
# Piece


@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(Player),
       st.sampled_from(Rank))
def test_a_piece_of_any_id_owner_and_rank_is_built_and_kept(piece_id: int, owner: Player,
                                                             rank: Rank) -> None:
    """Invariant: the checks take every whole id from 0 up with any player and rank, and
    the piece keeps them (equal, hashable, picklable as before)."""
    piece = Piece(piece_id, owner, rank)
    assert (piece.id, piece.owner, piece.rank) == (piece_id, owner, rank)
    assert pickle.loads(pickle.dumps(piece)) == piece
    assert hash(Piece(piece_id, owner, rank)) == hash(piece)


@pytest.mark.parametrize(("fields", "field", "echoed"), [
    ((-1, Player.RED, Rank.MARSHAL), "id", "-1"),
    ((True, Player.RED, Rank.MARSHAL), "id", "True"),
    ((1.0, Player.RED, Rank.MARSHAL), "id", "1.0"),
    (("3", Player.RED, Rank.MARSHAL), "id", "'3'"),
    ((3, 5, Rank.MARSHAL), "owner", "5"),
    ((3, 0, Rank.MARSHAL), "owner", "0"),
    ((3, "red", Rank.MARSHAL), "owner", "'red'"),
    ((3, None, Rank.MARSHAL), "owner", "None"),
    ((3, Player.RED, 10), "rank", "10"),
    ((3, Player.RED, "M"), "rank", "'M'"),
    ((3, Player.RED, Player.BLUE), "rank", "Player.BLUE"),
    ((3, Player.RED, "x" * 10_000), "rank", "[10000 characters]"),
])
def test_a_piece_refuses_a_bad_field_naming_it(fields: tuple[Any, Any, Any], field: str,
                                               echoed: str) -> None:
    """A `Piece` whose id is not a whole number from 0 up, whose owner is not a `Player` or
    whose rank is not a `Rank` is an `ArgumentError` naming the field and echoing the
    value (cut to readable length), at construction and through `attrs.evolve`."""
    import attrs

    with pytest.raises(ArgumentError, match=rf"^Piece {field} must be") as info:
        Piece(*fields)
    assert echoed in str(info.value)
    assert len(str(info.value)) < 200
    good = Piece(3, Player.RED, Rank.MARSHAL)
    with pytest.raises(ArgumentError, match=rf"^Piece {field} must be"):
        attrs.evolve(good, **{field: fields[("id", "owner", "rank").index(field)]})


# ---------------------------------------------------------------------------
# Outcome


@given(st.sampled_from(Termination), st.sampled_from([Player.RED, Player.BLUE, None]))
def test_an_outcome_takes_a_termination_and_a_player_or_none(termination: Termination,
                                                             winner: Player | None) -> None:
    """Invariant: every termination with either player or None (a draw) is built, and its
    result follows the winner."""
    outcome = Outcome(termination, winner)
    assert outcome.result() == {Player.RED: "1-0", Player.BLUE: "0-1", None: "1/2-1/2"}[winner]


@pytest.mark.parametrize(("termination", "winner", "field"), [
    ("x", Player.RED, "termination"),
    ("flag captured", Player.RED, "termination"),
    (None, None, "termination"),
    (Termination.FLAG_CAPTURED, 5, "winner"),
    (Termination.FLAG_CAPTURED, 0, "winner"),
    (Termination.FLAG_CAPTURED, "red", "winner"),
    (Termination.PLY_LIMIT, "draw", "winner"),
])
def test_an_outcome_refuses_a_bad_field_naming_it(termination: Any, winner: Any,
                                                  field: str) -> None:
    """``Outcome(termination="x", winner=5)`` and the like are an `ArgumentError` naming
    the field, not a value whose `str` or `result` fails later."""
    with pytest.raises(ArgumentError, match=rf"^Outcome {field} must be"):
        Outcome(termination, winner)
    with pytest.raises(ArgumentError, match=rf"^Outcome {field} must be"):
        Outcome(termination=termination, winner=winner)


def test_the_engine_still_ends_games_with_checked_outcomes() -> None:
    """The outcomes the engine and the position reader build pass the checks: seeded
    random games run to their end (a flag captured, a ply limit), and a finished position
    string reads back with its outcome."""
    import random

    for seed, limit in ((3, None), (4, 30)):
        rules = CLASSIC if limit is None else CLASSIC.with_ply_limit(limit)
        rng = random.Random(seed)
        state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, rng),
                                  stratego.random_setup(rules, Player.BLUE, rng))
        while state.outcome is None:
            state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
        assert isinstance(state.outcome.termination, Termination)
        assert (state.outcome.winner is None) == (limit is not None)
        read = stratego.parse_position(stratego.format_position(state))
        assert read.outcome == state.outcome


# ---------------------------------------------------------------------------
# distance


@given(st.sampled_from(SQUARES), st.sampled_from(SQUARES))
def test_distance_counts_orthogonal_steps(a: Square, b: Square) -> None:
    """Invariant: the distance of two squares is the sum of their file and row gaps,
    symmetric, and 0 only from a square to itself."""
    steps = distance(a.index, b.index)
    assert steps == abs(a.file - b.file) + abs(a.row - b.row)
    assert steps == distance(b.index, a.index)
    assert (steps == 0) == (a == b)


def test_distance_takes_numpy_integers() -> None:
    np = pytest.importorskip("numpy")
    assert distance(np.int64(0), np.uint8(99)) == 18
    assert distance(np.int32(42), 43) == 1


@pytest.mark.parametrize(("a", "b", "name", "echoed"), [
    (-1, 0, "a", "-1"), (100, 0, "a", "100"), (0, 100, "b", "100"), (0, -5, "b", "-5"),
    ("a1", 0, "a", "'a1'"), (0, 1.0, "b", "1.0"), (True, 0, "a", "True"),
    (0, None, "b", "None"), (SQUARES[3], 0, "a", "Square.parse('d1') (pass its index)"),
    (10**30, 0, "a", str(10**30)),
])
def test_distance_refuses_what_is_not_a_square_index(a: Any, b: Any, name: str,
                                                     echoed: str) -> None:
    """An index outside 0-99 (which used to give a made-up distance), a text, a float, a
    bool or a `Square` is an `ArgumentError` naming the argument, not a bare TypeError or
    a number."""
    with pytest.raises(ArgumentError, match=rf"^distance: {name} must be a square index") \
            as info:
        distance(a, b)
    assert str(info.value).endswith(echoed)


# ---------------------------------------------------------------------------
# the registries of editions and variants


@pytest.mark.parametrize("registry", [EDITIONS, OPTIONS, VARIANTS],
                         ids=["EDITIONS", "OPTIONS", "VARIANTS"])
def test_the_registries_cannot_be_changed_by_a_caller(registry: Any) -> None:
    """`EDITIONS`, `OPTIONS` and `VARIANTS` are read-only: assigning, deleting or clearing
    an entry raises (a caller used to be able to corrupt `by_name` for the whole
    process), and a copy of one is the caller's own to change."""
    name = next(iter(registry))
    before = dict(registry)
    with pytest.raises(TypeError):
        registry["classic"] = registry[name]
    with pytest.raises(TypeError):
        del registry[name]
    with pytest.raises(AttributeError):
        registry.clear()
    with pytest.raises(AttributeError):
        registry.update({"mine": registry[name]})
    mine = dict(registry)
    mine.clear()
    assert dict(registry) == before


def test_the_registries_still_read_as_documented() -> None:
    """The names keep working as mappings: lookup by name, iteration, `by_name` through
    them, every variant registered for pickling."""
    assert EDITIONS["classic"] is CLASSIC
    assert set(EDITIONS) == {"milton-bradley-1961", "hasbro-2009", "jumbo-2014", "classic",
                             "isf"}
    assert "isf-five-moves" in OPTIONS
    assert by_name("isf-five-moves") is OPTIONS["isf-five-moves"]
    assert VARIANTS["barrage"] is BARRAGE
    assert len(VARIANTS) == 9
    assert by_name("classic+barrage") == CLASSIC.with_variants(BARRAGE)
    assert pickle.loads(pickle.dumps(BARRAGE)) is BARRAGE
    with pytest.raises(RulesError, match="unknown variant 'mine'"):
        by_name("classic+mine")


# ---------------------------------------------------------------------------
# seeds


@pytest.mark.parametrize("seed", [True, False, 1.5, 7.0, "7", b"7", [7], float("nan")])
def test_a_seed_is_a_whole_number_not_a_bool_float_or_text(seed: object) -> None:
    """`seed_from` and `optional_seed` refuse a bool, a float (even a whole one) and a
    text (even of digits) with an `ArgumentError` naming the argument: none stands for
    another seed by a conversion the caller did not ask for."""
    for check in (seed_from, optional_seed):
        with pytest.raises(ArgumentError, match=r"^match_seed must be a whole number or None"):
            check(seed, "match_seed")


def test_a_seed_may_be_a_numpy_integer_and_comes_back_an_int() -> None:
    """NumPy integers (what an array of seeds holds) are whole numbers: taken as their int
    value, so a result records a plain int; a NumPy bool or float is still refused."""
    np = pytest.importorskip("numpy")
    for value in (np.int64(7), np.uint32(7), np.int8(7)):
        for check in (seed_from, optional_seed):
            seed = check(value)
            assert seed == 7
            assert type(seed) is int
    assert optional_seed(None) is None
    for bad in (np.bool_(True), np.float64(7.0)):
        with pytest.raises(ArgumentError, match="seed must be a whole number or None"):
            seed_from(bad)
    game = stratego.play_game(CLASSIC, "random", "random", seed=np.int64(5), max_plies=20)
    assert type(game.seed) is int
    assert game == stratego.play_game(CLASSIC, "random", "random", seed=5, max_plies=20)


def test_a_random_source_still_takes_what_random_random_seeds_with() -> None:
    """`random_from` is documented to take anything `random.Random` seeds with (a text
    seed for `random_setup` is kept working on purpose), unlike the whole-number seeds of
    `seed_from`."""
    import random

    assert random_from("seed", "f").random() == random.Random("seed").random()
    with pytest.raises(ArgumentError, match=r"^f needs a random\.Random"):
        random_from([1], "f")
