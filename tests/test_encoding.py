"""The fixed action index and the observation planes.

Book rules behind the layout: MB 1961 "To start the game" 5 (the opponent's
ranks are hidden, so the planes show only what the view knows), Hasbro 2009
"Rescue" (Rescue decisions are actions; a Bomb is never rescued).
"""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import new_games, random_playout, rules_values, scattered_positions, seeds
from stratego import CLASSIC, HASBRO_2009, Move, Player, Rank, Square
from stratego.encoding import (
    DECLINE_ACTION,
    FACTORED_PLANES,
    FACTORED_SHAPE,
    NUM_ACTIONS,
    NUM_FACTORED_PLANES,
    NUM_MOVE_ACTIONS,
    NUM_PLANES,
    PLANES,
    MissingDependencyError,
    action_index,
    action_move,
    action_moves,
    compact_planes,
    factored_action,
    factored_index,
    fill_empty_rows,
    from_factored,
    legal_action_indices,
    legal_action_mask,
    move_given_as_action,
    observation_planes,
    to_factored,
)
from stratego.errors import ArgumentError
from stratego.setups import random_setup
from stratego.variants import MOVING_BOMBS, MOVING_FLAG, RESCUE, SILENT_DEFENSE
from stratego.views import rank_masks, view
from stratego.views.fold import identities

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


@given(st.integers(0, NUM_ACTIONS - 1), st.sampled_from(list(Player)))
def test_a_move_given_for_an_action_is_named_with_the_conversion(action: int,
                                                                  player: Player) -> None:
    """A `Move` is an int (its value 2**24 or more), so a Move passed where an action index
    belongs used to be quoted by that value ("16827968 is not an action"): the message
    names the Move, given as itself or as its integer value (NumPy and OpenSpiel pass it
    on so), and says how to convert it; `action_move` and `factored_index` say the same."""
    move = action_move(action, player)
    for given_ in (move, int(move)):
        text = move_given_as_action(given_)
        assert text is not None
        assert f"the Move {move}," in text
        assert "stratego.encoding.action_index(move, player)" in text
        assert (str(int(move)) in text) is (type(given_) is int)  # its value only when given
        for call in (action_move, factored_index):
            with pytest.raises(stratego.InvalidNotationError) as refused:
                call(given_)
            assert str(refused.value) == text
    assert action_index(move, player) == action  # the conversion the message names
    assert move_given_as_action(action) is None  # an action index is no Move


_MOVE_VALUES = sorted({int(m) for m in action_moves(Player.RED)})


@given(st.one_of(st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=5),
                 st.none(), st.booleans(),
                 st.builds(int.__add__, st.sampled_from(_MOVE_VALUES), st.integers(-3, 3))))
def test_what_is_no_move_gets_no_move_message(value: object) -> None:
    """Only a Move, or the integer value of one, is named as a Move: any other int (an
    action, a negative one, one next to a move's value that no move has), text, float or
    None is not."""
    moves = set(_MOVE_VALUES)
    assert (move_given_as_action(value) is not None) is (
        type(value) is int and value in moves)


def test_a_move_without_an_action_is_still_named() -> None:
    """A Move that has no action (the Rescue of a Bomb, a move no piece makes) given as
    itself is named too; as a bare int it is no action's move, so nothing is said."""
    for move in (Move.parse("B@a1"), Move(Square.parse("a1"), Square.parse("j10"))):
        text = move_given_as_action(move)
        assert text is not None
        assert f"the Move {move}," in text
        assert move_given_as_action(int(move)) is None


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
    `observation_planes(view(state, player))`, and `rank_masks` is the view's `possible`:
    entry ``id`` (a state's id) is the set of the piece the view shows for it, under the
    view's own id after a hidden rescue (Silent Defense with Rescue relabels the pile)."""
    np = pytest.importorskip("numpy")
    state = random_playout(start, seed, plies)[-1]
    seen = view(state, player)
    fast = observation_planes(state, player)
    assert fast.dtype == np.float32
    assert fast.flags.c_contiguous
    assert np.array_equal(fast, observation_planes(seen))
    masks = rank_masks(state, player)
    labels, _ = identities(state, player)
    true_of = ({p.id: p.id for p in seen.all_pieces()} if labels is None
               else {label: pid for pid, label in enumerate(labels)})
    assert {true_of[p.id]: masks[true_of[p.id]] for p in seen.all_pieces()} == {
        true_of[p.id]: sum(1 << r for r in p.possible) for p in seen.all_pieces()}
    assert observation_planes(state, player) is not fast  # a fresh array each call
    assert np.array_equal(observation_planes(seen, player), fast)  # its own player: taken
    with pytest.raises(ArgumentError, match=f"this is {player}'s view, not "
                                            f"{player.opponent}'s"):
        observation_planes(seen, player.opponent)  # never the other seat, silently


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
    with pytest.raises(MissingDependencyError, match=r"pip install 'stratego\[numpy\]'"):
        observation_planes(view(state, Player.RED))
    with pytest.raises(MissingDependencyError, match=r"pip install 'stratego\[numpy\]'"):
        legal_action_mask(state)
    assert legal_action_indices(state)  # needs no NumPy
    with pytest.raises(ImportError):
        observation_planes(view(state, Player.RED))
    assert Rank.MARSHAL.symbol == "M"


# -- the factored form: from-square x direction x distance planes ---------------------------

_STEPS = {"forward": 10, "back": -10, "right": 1, "left": -1, "forward-right": 11,
          "forward-left": 9, "back-right": -9, "back-left": -11}


def _turned(index: int, player: Player) -> int:
    return 99 - index if player is Player.BLUE else index


@given(STARTS, seeds, st.integers(0, 250))
def test_every_legal_move_has_one_cell_of_the_factored_form_and_back(
        start: stratego.GameState, seed: int, plies: int) -> None:
    """Invariant: a legal move's cell names its geometry from the mover's seat (the
    from-square, the direction and the distance; a Rescue's rank and square), and the
    cell converts back to the same action."""
    state = random_playout(start, seed, plies)[-1]
    mover = state.to_move
    for move in stratego.legal_moves(state):
        action = action_index(move, mover)
        cell = factored_index(action)
        assert factored_action(cell) == action
        plane, square = divmod(cell, 100)
        name = FACTORED_PLANES[plane]
        if move.rescued is not None:
            assert move.to is not None
            assert name == f"rescue/{move.rescued.name.lower()}"
            assert square == _turned(move.to.index, mover)
        elif move.frm is None:
            assert name == "decline"
            assert square == 0
        else:
            assert move.to is not None
            frm, to = _turned(move.frm.index, mover), _turned(move.to.index, mover)
            direction, _, distance = name.partition("/")
            assert square == frm
            assert frm + _STEPS[direction] * int(distance or 1) == to


def test_the_factored_form_has_every_action_once_and_refuses_other_cells() -> None:
    cells = [factored_index(a) for a in range(NUM_ACTIONS)]
    assert len(set(cells)) == NUM_ACTIONS
    assert len(FACTORED_PLANES) == NUM_FACTORED_PLANES == 52
    assert FACTORED_PLANES[:2] == ("forward/1", "forward/2")
    assert FACTORED_PLANES[-1] == "decline"
    with pytest.raises(stratego.InvalidNotationError, match="no action"):
        factored_action(FACTORED_PLANES.index("forward/9") * 100 + 10)  # a2: off the board
    with pytest.raises(stratego.InvalidNotationError, match="no action"):
        factored_action(FACTORED_PLANES.index("left/1") * 100)  # a1 has no square left of it
    for bad in (-1, NUM_FACTORED_PLANES * 100, "3"):
        with pytest.raises(stratego.InvalidNotationError, match="not a cell"):
            factored_action(bad)  # type: ignore[arg-type]


def test_masks_and_logits_convert_to_the_factored_form_and_back() -> None:
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(0)
    mask = rng.random((3, NUM_ACTIONS)) < 0.1
    planes = to_factored(mask, fill=False)
    assert planes.shape == (3, *FACTORED_SHAPE)
    assert planes.dtype == np.bool_
    assert planes.sum() == mask.sum()
    assert (from_factored(planes) == mask).all()
    logits = rng.standard_normal(NUM_ACTIONS).astype(np.float32)
    spread = to_factored(logits, fill=-np.inf)
    assert np.isneginf(spread).sum() == NUM_FACTORED_PLANES * 100 - NUM_ACTIONS
    assert (from_factored(spread.reshape(-1)) == logits).all()
    with pytest.raises(ArgumentError, match="shape"):
        to_factored(np.zeros(5))
    with pytest.raises(ArgumentError, match="shape"):
        from_factored(np.zeros((3, 7)))


def test_a_finished_games_empty_mask_row_gets_one_placeholder_action() -> None:
    """A masked categorical over a row of all -inf logits gives NaN probabilities: the
    helper sets one action (by default declining) in empty rows only."""
    np = pytest.importorskip("numpy")
    mask = np.zeros((3, NUM_ACTIONS), np.bool_)
    mask[1, 7] = True
    filled = fill_empty_rows(mask)
    assert filled is not mask
    assert filled[:, DECLINE_ACTION].tolist() == [True, False, True]
    assert filled.sum() == 3
    assert fill_empty_rows(mask, action=5, out=mask) is mask
    assert mask[0, 5]
    assert mask[2, 5]
    assert not mask[1, 5]
    single = fill_empty_rows(np.zeros(NUM_ACTIONS, np.bool_))
    assert single[DECLINE_ACTION]
    assert single.sum() == 1
    with pytest.raises(ArgumentError, match="bool or integer mask"):
        fill_empty_rows(np.zeros((2, NUM_ACTIONS), np.float32))
    with pytest.raises(ArgumentError, match="not an action"):
        fill_empty_rows(mask, action=NUM_ACTIONS)


def test_fill_empty_rows_takes_the_int8_masks_of_the_environments() -> None:
    """docs/env.md: `fill_empty_rows` takes "the int8 masks of 0s and 1s of `Stratego-v0`
    and the PettingZoo environment" and "returns the dtype it was given"; it refused
    them (a bool mask only)."""
    np = pytest.importorskip("numpy")
    mask = np.zeros((2, NUM_ACTIONS), np.int8)
    mask[0, 7] = 1
    filled = fill_empty_rows(mask)
    assert filled.dtype == np.int8
    assert filled[:, DECLINE_ACTION].tolist() == [0, 1]
    assert filled.sum() == 2
    assert fill_empty_rows(mask, out=mask) is mask
    assert mask[1, DECLINE_ACTION] == 1
    assert fill_empty_rows(np.zeros(NUM_ACTIONS, np.uint8))[DECLINE_ACTION] == 1
    mask[0, 9] = 2
    with pytest.raises(ArgumentError, match=r"a mask of 0s and 1s, not 2$"):
        fill_empty_rows(mask)
    with pytest.raises(ArgumentError, match="dtype int8"):
        fill_empty_rows(np.zeros(NUM_ACTIONS, np.int8), out=np.zeros(NUM_ACTIONS, np.bool_))


def test_compact_planes_round_exact_halves_up() -> None:
    """A share of 5/6 (five of six Bombs not yet identified) times 255 is 212.5: half up
    gives 213, although float32's 5/6 times 255 falls just below the half."""
    np = pytest.importorskip("numpy")
    values = np.array([0.0, 1.0, 5 / 6, 1 / 6, 0.5, 1 / 3], np.float32)
    assert compact_planes(values).tolist() == [0, 255, 213, 43, 128, 85]
    rng = random.Random(0)
    state = stratego.new_game(CLASSIC, random_setup(CLASSIC, Player.RED, rng),
                              random_setup(CLASSIC, Player.BLUE, rng))
    floats = observation_planes(state)
    assert (compact_planes(floats)[:46] == floats[:46] * 255).all()


@pytest.mark.parametrize("perspective", [[], 7, "green"])
def test_a_perspective_that_is_no_player_is_refused(perspective: object) -> None:
    """A list (unhashable), a number or a text given as the perspective: the library's
    ArgumentError naming the accepted players, not a bare TypeError or ValueError from a
    table lookup."""
    from stratego.encoding import action_moves

    state = stratego.new_game(CLASSIC, random_setup(CLASSIC, Player.RED, 1),
                              random_setup(CLASSIC, Player.BLUE, 2))
    seen = stratego.view(state, Player.RED)
    with pytest.raises(ArgumentError, match=r"a player is Player.RED \(0\) or Player.BLUE"):
        action_moves(perspective)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"a player is Player.RED \(0\) or Player.BLUE"):
        legal_action_indices(seen, perspective)  # type: ignore[arg-type]


RELABELLED = (
    'milton-bradley-1961+aggressor-advantage+rescue+silent-defense .C9.x20....../G8..'
    '......./l19X7......../...t18.N5..B6./..~~f16k17~~../..~~..~~../..J4.x15...../...'
    '...j13..l14/..s12..B2.F3../x10..k11....J1. b 0 x=K21,N22,C23,N24,N25,L26,T27,X28'
    ',X29,X30,K31,N32,T33,L34,T35,L36,K37,X38,X39,T40,J41,X42,M43,L44,S45,B46,K47,X48'
    ',B49,B50,B51,c52,j53,t54,l55,b56,l57,b58,n59,n60,b61,k62,b63,c64,x65,t66,t67,j68'
    ',n69,k70,x71,g72,x73,n74,m75,b76,b77,n78,x79,x80'
)
"""A Milton Bradley 1961 position with Aggressor Advantage, Rescue and Silent Defense and a
pile of Blue's pieces holding Bombs, found by the property above."""


@pytest.mark.extra("numpy")
def test_rank_masks_follow_the_pieces_through_a_hidden_rescue() -> None:
    """Silent Defense with Rescue: Blue brings back a Captain Red does not see, so Red's
    view shows the returned piece under the pile's lowest id (docs/hidden-information.md).
    `rank_masks` stays by the state's ids: the returned piece's entry is what the view
    shows on its square (no Bomb: a Bomb is not brought back), the pile's what it shows of
    the pile (a Bomb possible)."""
    state = stratego.parse_position("".join(RELABELLED))
    for move in ("a1-a4", "b8-e8", "d1-c1", "K@g10"):
        state = stratego.apply(state, move)
    seen = view(state, Player.RED)
    labels, _ = identities(state, Player.RED)
    assert labels is not None
    assert labels[62] != 62
    masks = rank_masks(state, Player.RED)
    on_g10 = seen.piece_at(stratego.Square.parse("g10"))
    assert on_g10 is not None
    assert Rank.BOMB not in on_g10.possible
    assert masks[62] == sum(1 << r for r in on_g10.possible)  # the rescued Captain's entry
    assert masks[62] >> Rank.BOMB & 1 == 0


def _fast_paths_match_the_view(state: stratego.GameState) -> None:
    """`rank_masks` and the planes built from the state (the engine-speed paths an env
    calls every ply) against the view both are documented to equal, for both players."""
    np = pytest.importorskip("numpy")
    for player in Player:
        seen = view(state, player)
        masks = rank_masks(state, player)
        labels, _ = identities(state, player)
        true_of = ({p.id: p.id for p in seen.all_pieces()} if labels is None
                   else {label: pid for pid, label in enumerate(labels)})
        for piece in seen.all_pieces():
            assert masks[true_of[piece.id]] == sum(1 << r for r in piece.possible), (
                state.ply, player, piece)
        fast = observation_planes(state, player)
        slow = observation_planes(seen)
        differ = sorted({PLANES[i] for i in np.argwhere(fast != slow)[:, 0]})
        assert not differ, (state.ply, player, differ)


WALKED_RULES = (
    CLASSIC,
    stratego.ISF,
    stratego.JUMBO_2014.with_variants(MOVING_FLAG),
    HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE),
    CLASSIC.with_variants(RESCUE),
    CLASSIC.with_variants(MOVING_BOMBS),
)


@pytest.mark.extra("numpy")
@pytest.mark.parametrize("rules", WALKED_RULES, ids=lambda rules: rules.name)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_engine_speed_paths_equal_the_view_at_every_ply_of_a_game(rules: stratego.Rules,
                                                                   seed: int) -> None:
    """Invariant, along one game ply by ply as an env calls them (so a stale cache
    shows): `rank_masks(state, player)` is the view's `possible` for every piece, and
    `observation_planes(state, player)` equals `observation_planes(view(state, player))`,
    for both players, the player not to move too."""
    start = stratego.new_game(rules, random_setup(rules, Player.RED, seed),
                              random_setup(rules, Player.BLUE, seed + 9))
    for state in random_playout(start, seed, 300):
        _fast_paths_match_the_view(state)


@pytest.mark.extra("numpy")
@pytest.mark.parametrize("bring_back", ["J@b2", "L@b2"])
def test_engine_speed_paths_equal_the_view_through_hidden_rescues(bring_back: str) -> None:
    """Hasbro 2009 Silent Defense with Rescue, ply by ply: Red brings back a piece Blue
    cannot name (the pile holds its Major and a Lieutenant), the piece walks to Blue's
    back row and earns another Rescue. The fast paths equal the view at every ply,
    through the rescue (a Rescue is the last move), the relabelled pile and the pending
    Rescue of the returned piece."""
    rules = HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE)
    state = stratego.from_position(
        rules, {"e4": "J", "a9": "C", "h9": "K", "j1": "F", "e5": "m", "j7": "t",
                "j10": "f"},
        captured=[(Player.RED, Rank.LIEUTENANT)])
    blue = ["j6-j5", "j5-j4", "j4-j3", "j3-i3", "i3-h3", "h3-g3", "g3-f3", "f3-e3"]
    moves = ["e4-e5", "j7-j6", "a9-a10", bring_back]
    for step, row in enumerate(range(2, 10)):
        moves += [blue[step], f"b{row}-b{row + 1}"]
    _fast_paths_match_the_view(state)
    for move in moves:
        state = stratego.apply(state, move)
        _fast_paths_match_the_view(state)
    assert state.pending  # the returned piece on b10 earned a Rescue


@pytest.mark.extra("numpy")
def test_engine_speed_paths_equal_the_view_when_a_piece_reaches_the_back_row() -> None:
    """Jumbo 2014 "Moving Flag" (moving the Flag onto the opponent's back row wins), ply
    by ply: Red's Spy steps onto Blue's back row and the game goes on, so Blue learns it
    is not the Flag; the fast paths, warmed on the ply before, learn it too."""
    rules = CLASSIC.with_variants(MOVING_FLAG)
    state = stratego.from_position(
        rules, {"e9": "S", "a1": "F", "j1": "B", "a10": "f", "j8": "b", "c3": "s"})
    _fast_paths_match_the_view(state)
    for move in ("e9-e10", "c3-b3", "e10-d10", "b3-b4"):
        state = stratego.apply(state, move)
        _fast_paths_match_the_view(state)
    assert state.outcome is None


@pytest.mark.extra("numpy")
def test_a_pending_rescue_on_a1_is_on_the_rescue_plane() -> None:
    """Hasbro 2009 "Rescue": Blue's Captain steps onto a1, Red's back row, and earns a
    Rescue; the ``rescue/pending`` plane marks a1 (square index 0) for both players,
    from the state as from the view."""
    np = pytest.importorskip("numpy")
    rules = HASBRO_2009.with_variants(RESCUE)
    state = stratego.from_position(
        rules, {"a2": "c", "j10": "f", "e8": "k", "j1": "F", "e3": "C", "h3": "K"},
        captured=[(Player.BLUE, Rank.LIEUTENANT)], to_move=Player.BLUE)
    state = stratego.apply(state, "a2-a1")
    assert state.pending
    plane = PLANES.index("rescue/pending")
    for player, cell in ((Player.RED, [[0, 0]]), (Player.BLUE, [[9, 9]])):
        fast = observation_planes(state, player)
        assert np.argwhere(fast[plane]).tolist() == cell
        assert np.array_equal(fast, observation_planes(view(state, player)))


@pytest.mark.extra("numpy")
def test_planes_from_the_state_count_the_opponents_army_when_armies_differ() -> None:
    """`from_position` allows unequal armies: the ``unidentified/*`` planes share out the
    ranks of the opponent's army (what it has left that is not yet identified), from the
    state as from the view."""
    np = pytest.importorskip("numpy")
    state = stratego.from_position(
        CLASSIC, {"a1": "F", "b1": "B", "c1": "S", "d2": "M", "j10": "f", "e8": "k"})
    for player in Player:
        fast = observation_planes(state, player)
        slow = observation_planes(view(state, player))
        assert sorted({PLANES[i] for i in np.argwhere(fast != slow)[:, 0]}) == []
    red = observation_planes(state, Player.RED)
    assert red[PLANES.index("unidentified/marshal")].max() == 0  # Blue has no Marshal
    assert red[PLANES.index("unidentified/captain")].max() > 0
