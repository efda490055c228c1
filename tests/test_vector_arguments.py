"""`stratego.vector.Batch`'s arguments: what it refuses, by name, and what a seed fixes.

A seed fixes everything, with `setups` as without; the rows of `reset` are numbered as
`to_state` numbers games (no counting from the end); `where` is a bool per game, not
anything NumPy can read as a truth value; an action is reported as it was given; square
codes no batch writes are refused instead of failing inside NumPy; and a batch with a
thread pool copies and pickles.
"""

from __future__ import annotations

import copy
import pickle

import pytest

import stratego

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from stratego import Player  # noqa: E402
from stratego.editions import CLASSIC  # noqa: E402
from stratego.encoding import NUM_ACTIONS  # noqa: E402
from stratego.errors import ArgumentError, IllegalMoveError, PositionError  # noqa: E402
from stratego.vector import CODES_WIDTH, MASK_BYTES, Batch, planes_from_codes  # noqa: E402

pytestmark = pytest.mark.extra("vector")

RULES = CLASSIC.with_ply_limit(2)  # every game over after two plies: reset_done deals again


def pairs(count: int) -> list[tuple[stratego.Setup, stratego.Setup]]:
    return [(stratego.random_setup(CLASSIC, Player.RED, 2 * i),
             stratego.random_setup(CLASSIC, Player.BLUE, 2 * i + 1)) for i in range(count)]


def states(batch: Batch) -> list[stratego.GameState]:
    return [batch.to_state(i) for i in range(len(batch))]


# -- a seed fixes everything -----------------------------------------------------------------


def dealt_after_resets(batch: Batch) -> list[stratego.GameState]:
    """The games `reset([0])` and then `reset_done` (after every game ends) deal, without
    a seed of their own: from the batch's generator."""
    batch.reset([0])
    dealt = [batch.to_state(0)]
    for step in range(2):
        batch.step(batch.sample_actions(step))
    assert batch.done.all()
    batch.reset_done()
    return dealt + states(batch)


def test_a_seed_fixes_the_resets_of_a_batch_built_from_setups() -> None:
    """"`seed` seeds the generator the later resets draw from, as without `setups`":
    `Batch.new(rules, 4, seed=7, setups=pairs)` deals the same games at every later
    unseeded `reset` and `reset_done` in every run (they drew from fresh entropy)."""
    given = pairs(4)
    one = dealt_after_resets(Batch.new(RULES, 4, seed=7, setups=given))
    two = dealt_after_resets(Batch.new(RULES, 4, seed=7, setups=given))
    assert one == two
    other = dealt_after_resets(Batch.new(RULES, 4, seed=8, setups=given))
    assert other != one
    with pytest.raises(ArgumentError, match="seed"):
        Batch.new(RULES, 4, seed=1.5, setups=given)  # type: ignore[arg-type]


# -- reset's rows ----------------------------------------------------------------------------


def test_reset_refuses_minus_one_as_to_state_does() -> None:
    """"no counting from the end: -1 is no game's number": `reset([-1])` restarted the last
    game; now it raises `PositionError` naming the row, as `to_state(-1)` does, and no
    game restarts."""
    batch = Batch.new(CLASSIC, 4, seed=3)
    batch.step(batch.sample_actions(0))
    before = states(batch)
    for rows in ([-1], -1, [0, -4], np.array([1, 4]), np.array([2**63 + 5], np.uint64)):
        with pytest.raises(PositionError, match="no game"):
            batch.reset(rows)
    with pytest.raises(PositionError, match="no game -1"):
        batch.to_state(-1)
    for rows in (True, np.array([True, False]), [0.0], ["0"], [[0]]):  # not game numbers
        with pytest.raises(PositionError, match="rows are game numbers"):
            batch.reset(rows)
    assert states(batch) == before
    batch.reset([])  # no rows: nothing restarts
    assert states(batch) == before
    batch.reset(np.array([False, True, False, True]))
    batch.reset(np.int64(2))
    after = states(batch)
    assert after[0] == before[0]
    assert all(after[i].ply == 0 for i in (1, 2, 3))


# -- step's where and actions ---------------------------------------------------------------


@pytest.mark.parametrize("where", [np.array(["no", "", "", ""]), [1, 0, 0, 0],
                                   np.array([0.5, 0.0, 0.0, 0.0]), [None] * 4, "yes"])
def test_where_is_a_bool_per_game(where: object) -> None:
    """"`where` a bool array": texts, ints and floats were read as truth values (``"no"``
    stepped game 0, 0.5 was True); now they raise `ArgumentError` and no game moves."""
    batch = Batch.new(CLASSIC, 4, seed=4)
    before = states(batch)
    with pytest.raises(ArgumentError, match="where is one bool per game"):
        batch.step(batch.sample_actions(1), where=where)  # type: ignore[arg-type]
    assert states(batch) == before
    batch.step(batch.sample_actions(1), where=[True, False, False, False])  # bools: fine
    assert [s.ply for s in states(batch)] == [1, 0, 0, 0]


def test_an_action_past_int64_is_reported_as_given() -> None:
    """A uint64 action of 2**63 + 5 was reported as "-9223372036854775803 is not an
    action"; now the message names the value given, and with ``ignore_illegal`` that game
    alone stays (the value no longer wraps to a number that might be legal)."""
    batch = Batch.new(CLASSIC, 3, seed=5)
    before = states(batch)
    actions = batch.sample_actions(2).astype(np.uint64)
    actions[1] = 2**63 + 5
    with pytest.raises(IllegalMoveError, match=rf"game 1: {2**63 + 5} is not an action"):
        batch.step(actions)
    assert states(batch) == before
    assert batch.step(actions, ignore_illegal=True) == 1
    after = states(batch)
    assert after[1] == before[1]
    assert after[0].ply == after[2].ply == 1
    wrapped = actions.copy()
    wrapped[1] = 2**64 - 1  # -1 as an int64: no action either
    with pytest.raises(IllegalMoveError, match=rf"game 1: {2**64 - 1} is not an action"):
        batch.step(wrapped)


def test_a_move_given_as_an_action_is_an_argument_error_naming_it() -> None:
    """A `Move` is an int, so `step([move] * n)` raised `IllegalMoveError` "game 0:
    16827968 is not an action" (and with ``ignore_illegal`` ignored the games quietly):
    now a Move in a game that is on raises `ArgumentError` naming the game, the Move and
    the conversion, whatever `ignore_illegal`, given as itself (a list, a tuple, an
    object array) or as its value in an integer array, and no game moves. A plain int
    outside the actions stays an illegal action, as documented, and so is a game outside
    `where` left alone whatever its action."""
    from stratego import Move

    batch = Batch.new(CLASSIC, 4, seed=6)
    before = states(batch)
    legal = batch.sample_actions(3)
    move = Move.parse("a4-a5")
    as_move, as_value = "the Move a4-a5", f"{int(move)}, the integer value of the Move a4-a5"
    cases = [([move] * 4, 0, as_move), ((move,) * 4, 0, as_move),
             (np.array([move] * 4, dtype=object), 0, as_move),
             (np.array([move] * 4), 0, as_value),
             ([*legal[:2].tolist(), move, legal[3]], 2, as_move),
             (np.array([*legal[:3].tolist(), move]), 3, as_value)]
    for actions, game, got in cases:
        for ignore in (False, True):
            with pytest.raises(ArgumentError) as refused:
                batch.step(actions, ignore_illegal=ignore)
            assert str(refused.value) == (
                f"game {game}: got {got}, not an action index (a whole number 0 to "
                f"{NUM_ACTIONS - 1}, seen from the seat of the player to move): convert a "
                f"move with stratego.encoding.action_index(move, player)")
    assert states(batch) == before
    assert batch.illegal_count == 0
    with pytest.raises(IllegalMoveError, match=rf"game 1: {int(move) + 3} is not an action"):
        batch.step([legal[0], int(move) + 3, legal[2], legal[3]])  # the value of no Move
    # a game the step does not play (outside `where`) has its action ignored, a Move too
    with pytest.raises(IllegalMoveError, match="game 1: 5000 is not an action"):
        batch.step([move, 5000, legal[2], legal[3]], where=np.array([False, True, True, True]))
    batch.step([int(a) for a in legal])
    assert [s.ply for s in states(batch)] == [1] * 4


@pytest.mark.parametrize("game", [stratego.Square.parse("a1"), "0", 1.0, True, None, [0]])
def test_to_state_takes_a_game_index_a_whole_number(game: object) -> None:
    """`to_state(Square.parse("a1"))` raised `PositionError` "no game Square.parse('a1')":
    a game index of the wrong kind is now an `ArgumentError` saying what one is; a whole
    number outside the batch stays a `PositionError`, as documented, and a NumPy integer
    is a game index."""
    batch = Batch.new(CLASSIC, 3, seed=7)
    with pytest.raises(ArgumentError, match=r"to_state takes a game index, a whole number "
                                            r"from 0 to 2, not "):
        batch.to_state(game)  # type: ignore[arg-type]
    for outside in (-1, 3, np.int64(3)):
        with pytest.raises(PositionError, match=f"no game {outside} in a batch of 3"):
            batch.to_state(outside)
    assert batch.to_state(np.int64(2)) == batch.to_state(2)


# -- planes, masks, setups -------------------------------------------------------------------


def test_a_dtype_that_is_no_dtype_is_refused_by_name() -> None:
    """``observation_planes(out=buf, dtype="junk")`` raised NumPy's bare TypeError; now
    `ArgumentError` naming the dtype, as without `out`."""
    batch = Batch.new(CLASSIC, 2, seed=6)
    buffer = np.empty(batch.planes_shape, np.float32)
    for junk in ("junk", object()):
        with pytest.raises(ArgumentError, match="planes are float32 or uint8"):
            batch.observation_planes(out=buffer, dtype=junk)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match="planes are float32 or uint8"):
            batch.observation_planes(dtype=junk)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="differs from out's dtype"):
        batch.observation_planes(out=buffer, dtype=np.uint8)
    assert batch.observation_planes(out=buffer, dtype="float32") is buffer


@pytest.mark.parametrize("setups", [[1], 5, "ab", [("a",)], [(None, None, None)], [b"rb"]])
def test_setups_that_are_not_pairs_are_refused_by_name(setups: object) -> None:
    """``Batch.new("classic", 1, setups=[1])`` raised a bare TypeError ("cannot unpack
    non-iterable int object"); now `ArgumentError` saying what `setups` is."""
    with pytest.raises(ArgumentError, match=r"setups are a sequence of \(red_setup, "
                                            r"blue_setup\) pairs"):
        Batch.new("classic", 1 if not isinstance(setups, str) else 2,
                  setups=setups)  # type: ignore[arg-type]


def test_packed_true_with_a_bool_buffer_is_a_contradiction() -> None:
    """``action_mask(out=bool_buf, packed=True)`` returned the unpacked bool mask,
    ignoring `packed`; now it raises `ArgumentError` (a uint8 buffer gets the bits)."""
    batch = Batch.new(CLASSIC, 3, seed=7)
    plain = np.empty((3, NUM_ACTIONS), np.bool_)
    with pytest.raises(ArgumentError, match="packed=True asks for the mask packed as bits"):
        batch.action_mask(out=plain, packed=True)
    bits = np.empty((3, MASK_BYTES), np.uint8)
    assert batch.action_mask(out=bits, packed=True) is bits
    assert np.array_equal(bits, np.packbits(batch.action_mask(), axis=1))
    assert batch.action_mask(out=plain) is plain


def test_planes_from_codes_refuses_codes_no_batch_writes() -> None:
    """A last-move entry past the board raised a bare IndexError from NumPy; now
    `ArgumentError` naming the game and the entry. A buffer the planes cannot be written
    into in place (not C-contiguous) was written as a copy and returned unwritten; now
    refused."""
    codes = Batch.new(CLASSIC, 3, seed=8).observation_codes()
    for entry, value in ((100, 101), (101, 65535), (102, 200)):
        bad = codes.copy()
        bad[2, entry] = value
        with pytest.raises(ArgumentError, match=f"game 2: entry {entry} is {value}"):
            planes_from_codes(bad)
    codes[:, 100] = 100  # the last square, plus one: fine
    planes_from_codes(codes)
    strided = np.empty((10, 10, 58, 3), np.float32).T
    with pytest.raises(ArgumentError, match="out must be a writable C-contiguous"):
        planes_from_codes(codes, out=strided)
    with pytest.raises(ArgumentError, match="out must be"):
        planes_from_codes(codes, out=[0.0])  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="float32 or uint8"):
        planes_from_codes(codes, dtype="junk")
    assert codes.shape[1] == CODES_WIDTH


# -- copies ------------------------------------------------------------------------------------


@pytest.mark.parametrize("threads", [1, 2])
def test_a_batch_with_threads_copies_and_pickles(threads: int) -> None:
    """`copy.deepcopy(batch)` failed with "cannot pickle '_queue.SimpleQueue'" once
    ``threads > 1``; now the copy (deep, or through pickle) holds the same games and
    generator, runs its own thread pool, and moves on its own."""
    batch, plain = Batch.new(RULES, 8, seed=9), Batch.new(RULES, 8, seed=9)
    batch.threads = threads
    for each in (batch, plain):
        each.step(each.sample_actions(1))
    plain.step(plain.sample_actions(2))  # what a copy should reach
    for twin in (copy.deepcopy(batch), pickle.loads(pickle.dumps(batch))):
        assert twin.threads == threads
        assert (twin._pool is None) == (threads == 1)
        assert twin._pool is not batch._pool or threads == 1
        assert states(twin) == states(batch)
        twin.step(twin.sample_actions(2))
        assert all(s.ply == 1 for s in states(batch))  # the original did not move
        assert states(twin) == states(plain)
        assert (twin.observation_planes() == plain.observation_planes()).all()
    one, two = copy.deepcopy(batch), copy.deepcopy(batch)
    for twin in (one, two):
        twin.step(twin.sample_actions(3))
        twin.reset_done()  # from the copied generator: the same deals
    assert states(one) == states(two)


# -- seeds >= 0 and no bools as actions, as the environments take them -----------------------


@pytest.mark.parametrize("call", [
    lambda: Batch.new(CLASSIC, 2, seed=-1),
    lambda: Batch.new(CLASSIC, 2, seed=np.int64(-5), setups=pairs(2)),
    lambda: Batch.new(CLASSIC, 2).reset([0], seed=-1),
    lambda: Batch.new(CLASSIC, 2).reset_done(seed=-2),
    lambda: Batch.new(CLASSIC, 2).sample_actions(-3),
])
def test_a_negative_seed_is_refused_as_the_environments_refuse_it(call: object) -> None:
    """The environments take "a whole number >= 0 or None" as a seed (Gymnasium's and
    NumPy's seeds), while `Batch.new(seed=-1)` drew a stream of its own: a batch now refuses
    a negative seed too, with the `ArgumentError` naming the argument."""
    assert callable(call)
    with pytest.raises(ArgumentError, match=r"^(seed|rng) .*whole number >= 0.*-\d"):
        call()


@pytest.mark.parametrize("actions", [[True, 1], (np.True_, 1), [0, False]])
def test_a_bool_is_no_action(actions: object) -> None:
    """"Actions are whole numbers": a bool array was refused, but a list holding a bool
    became the integer array NumPy makes of it, and ``True`` played action 1. Now a bool
    anywhere in the actions is refused by name, and no game moves."""
    state = stratego.from_position("classic", {"a1": "X", "e3": "F", "j10": "f", "j9": "n"})
    batch = Batch.from_states([state, state])
    assert batch.action_mask()[:, :2].all()  # actions 0 and 1 legal in both games
    with pytest.raises(ArgumentError,
                       match=r"^game \d: a bool is no action: (np\.)?(True|False)"):
        batch.step(actions)  # type: ignore[arg-type]
    assert (batch.ply == 0).all()
    batch.step([1, 0])
    assert (batch.ply == 1).all()


@pytest.mark.parametrize("past", [NUM_ACTIONS, NUM_ACTIONS + 1, 2**63 + 5])
def test_the_first_number_past_the_actions_is_no_action(past: int) -> None:
    """`Batch.step`: "an action outside 0 to ``NUM_ACTIONS - 1`` is an illegal action",
    also just past the end and as a uint64 (which reads as ``NUM_ACTIONS``), and even when
    the next game's action 0 is legal (the number is not read from the next game's row)."""
    other = stratego.from_position(CLASSIC, {"e1": "F", "c3": "M", "j10": "f", "e7": "t"})
    corner = stratego.from_position(CLASSIC, {"e1": "F", "a1": "M", "j10": "f", "e7": "t"})
    batch = Batch.from_states([other, corner])
    assert batch.action_mask()[1, 0]  # a1-b1, action 0, is legal in game 1
    for kind in (np.uint64,) if past > 2**63 else (np.int64, np.uint64):
        actions = np.array([past, 0], kind)
        with pytest.raises(IllegalMoveError, match=rf"game 0: {past} is not an action"):
            batch.step(actions)
        assert states(batch) == [other, corner]
