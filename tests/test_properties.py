"""Invariants of the engine over random setups and random legal playouts.

Every property runs in each of the four base editions (`strategies.editions`),
from random setups (`strategies.new_games`) through seeded random playouts of
at most 300 plies (`strategies.random_playout`).
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from collections import Counter
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import editions, new_games, random_playout, seeds
from stratego import (
    SQUARES,
    GameState,
    Player,
    PlyRecord,
    Rank,
    Square,
    Termination,
    apply,
    legal_moves,
)
from stratego.board import LAKE_INDICES, LAKES, SIZE, distance, paths
from stratego.moves import MOVE_TABLE

MAX_PLIES = 300
FULL_GAME = 4000
plies = st.integers(min_value=0, max_value=MAX_PLIES)


def _fields(state: GameState) -> dict[str, object]:
    return {a.name: getattr(state, a.name) for a in attrs.fields(GameState)}


@given(new_games(editions), seeds, plies)
def test_pieces_are_conserved_by_id(start: GameState, seed: int, n: int) -> None:
    """Every piece is either on the board or captured, never both, never lost; the
    pieces of the game are exactly the two armies."""
    army = Counter(start.rules.army.ranks())
    all_pieces = start.all_pieces()
    for player in Player:
        assert Counter(p.rank for p in all_pieces if p.owner is player) == army
    ids = {p.id for p in all_pieces}
    for state in random_playout(start, seed, n):
        on_board = [p.id for _, p in state.pieces()]
        captured = [p.id for p in state.captured()]
        assert len(on_board) == len(set(on_board))
        assert not set(on_board) & set(captured)
        assert set(on_board) | set(captured) == ids
        for square, piece in state.pieces():
            assert state.square_of(piece) == square
        for piece in state.captured():
            assert state.square_of(piece) is None


@given(new_games(editions), seeds, plies)
def test_no_piece_on_a_lake(start: GameState, seed: int, n: int) -> None:
    for state in random_playout(start, seed, n):
        assert not {sq for sq, _ in state.pieces()} & LAKES
        assert all(m.to not in LAKES for m in legal_moves(state))


@given(new_games(editions), seeds, plies)
def test_bombs_and_flag_never_move(start: GameState, seed: int, n: int) -> None:
    """MB 1961 Movement 7 and every base book: Bombs and the Flag stay where placed."""
    home = {p.id: sq for sq, p in start.pieces() if p.rank in (Rank.BOMB, Rank.FLAG)}
    for state in random_playout(start, seed, n):
        for pid, square in home.items():
            assert state.square_of(pid) in (square, None)
            assert not state.has_moved(pid)
        for move in legal_moves(state):
            assert state.piece_at(move.frm).rank not in (  # type: ignore[arg-type, union-attr]
                Rank.BOMB, Rank.FLAG)


@given(new_games(editions), seeds, plies)
def test_apply_never_changes_its_input(start: GameState, seed: int, n: int) -> None:
    """`apply` is pure: every field of the input keeps its identity and value, and the
    input's equality and hash do not change."""
    state = random_playout(start, seed, n)[-1]
    if state.is_over:
        return
    twin = pickle.loads(pickle.dumps(state))
    identity = _fields(state)
    values = {k: copy.deepcopy(v) for k, v in identity.items() if k not in ("info", "history")}
    digest = hash(state)
    moves = legal_moves(state)
    for move in moves[:: max(1, len(moves) // 8)]:
        apply(state, move)
    after = _fields(state)
    for name, value in identity.items():
        assert after[name] is value, name
    for name, value in values.items():
        assert after[name] == value, name
    assert hash(state) == digest
    assert state == twin


@given(new_games(editions), seeds, plies)
def test_every_legal_move_applies(start: GameState, seed: int, n: int) -> None:
    """Each move `legal_moves` returns is accepted by `apply`, and each result is a
    consistent next state (the other player to move, one more ply)."""
    states = random_playout(start, seed, n)
    for state in states[:: max(1, len(states) // 6)]:
        for move in legal_moves(state):
            assert stratego.is_legal(state, move)
            assert stratego.explain_illegal(state, move) is None
            after = apply(state, move)
            assert after.ply == state.ply + 1
            assert after.to_move is state.to_move.opponent
            assert after.moves()[-1] == move


@given(new_games(editions), seeds, plies)
def test_legal_moves_deterministic_and_equal_states_equal_moves(start: GameState, seed: int,
                                                                n: int) -> None:
    """The same playout gives equal states with identical move lists in identical order;
    a state rebuilt without its move cache generates the same list."""
    first = random_playout(start, seed, n)
    again = random_playout(start, seed, n)
    assert len(first) == len(again)
    for a, b in zip(first, again, strict=True):
        assert a == b
        assert hash(a) == hash(b)
        assert legal_moves(a) == legal_moves(b)
    last = first[-1]
    rebuilt = pickle.loads(pickle.dumps(last))
    assert rebuilt.cached_moves is None
    assert legal_moves(rebuilt) == legal_moves(last)


@given(new_games(editions), seeds)
def test_same_seed_same_game(start: GameState, seed: int) -> None:
    a = random_playout(start, seed, MAX_PLIES)[-1]
    b = random_playout(start, seed, MAX_PLIES)[-1]
    assert a.moves() == b.moves()
    assert a == b


@given(editions, seeds, st.integers(min_value=1, max_value=120))
def test_game_ends_within_ply_limit(rules: stratego.Rules, seed: int, limit: int) -> None:
    limited = rules.with_ply_limit(limit)
    start = stratego.new_game(limited, stratego.random_setup(limited, Player.RED, seed),
                              stratego.random_setup(limited, Player.BLUE, seed + 1))
    states = random_playout(start, seed, limit + 10)
    last = states[-1]
    assert last.is_over
    assert last.ply <= limit
    assert all(not s.is_over for s in states[:-1])
    if last.ply < limit:
        assert last.outcome.termination is not Termination.PLY_LIMIT  # type: ignore[union-attr]
    else:
        assert last.outcome.termination in (  # type: ignore[union-attr]
            Termination.PLY_LIMIT, Termination.FLAG_CAPTURED, Termination.NO_LEGAL_MOVES)
    assert legal_moves(last) == ()


@given(new_games(editions), seeds, plies)
def test_pickle_round_trip(start: GameState, seed: int, n: int) -> None:
    state = random_playout(start, seed, n)[-1]
    back = pickle.loads(pickle.dumps(state))
    assert back == state
    assert hash(back) == hash(state)
    assert back.moves() == state.moves()
    assert back.outcome == state.outcome
    assert [str(m) for m in legal_moves(back)] == [str(m) for m in legal_moves(state)]


@given(new_games(editions), seeds, plies)
def test_struck_pieces_are_known_exactly(start: GameState, seed: int, n: int) -> None:
    """MB 1961 Strike 5 (both ranks are named): once a piece has taken part in a strike,
    `known_ranks` is exactly its rank, for the rest of the game."""
    state = random_playout(start, seed, n)[-1]
    for record in state.history_records():
        if record.defender is None:
            continue
        for piece in (record.piece, record.defender):
            assert state.known_ranks(piece) == {piece.rank}
            assert state.is_revealed(piece)


@given(new_games(editions), seeds, plies)
def test_the_last_record_is_the_last_of_the_history(start: GameState, seed: int,
                                                     n: int) -> None:
    """`last_record` is the last turn `history_records` gives, None before the first."""
    state = random_playout(start, seed, n)[-1]
    records = state.history_records()
    assert state.last_record() == (records[-1] if records else None)


@given(new_games(editions), seeds, plies)
def test_known_ranks_always_contain_the_true_rank(start: GameState, seed: int, n: int) -> None:
    """What the opponent believes never excludes the truth."""
    state = random_playout(start, seed, n)[-1]
    for piece in state.all_pieces():
        assert piece.rank in state.known_ranks(piece)


@given(new_games(editions), seeds)
def test_end_of_game_is_consistent(start: GameState, seed: int) -> None:
    """A game is over exactly when no move is offered; a captured Flag means the striker
    won, no legal move means the player to move lost. Random games last a few hundred to
    about two thousand plies (some 20 ms each), so this one property plays whole games."""
    states = random_playout(start, seed, FULL_GAME)
    assert states[-1].is_over or len(states) == FULL_GAME + 1
    for state in states:
        assert state.is_over is (legal_moves(state) == ())
        if state.outcome is None:
            continue
        if state.outcome.termination is Termination.FLAG_CAPTURED:
            loser = state.outcome.winner.opponent  # type: ignore[union-attr]
            assert any(p.rank is Rank.FLAG for p in state.captured(loser))
        elif state.outcome.termination is Termination.NO_LEGAL_MOVES:
            assert state.outcome.winner is state.to_move.opponent


# -- an independent reference move generator ------------------------------------------

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _reference_moves(state: GameState) -> set[str]:
    """Legal moves recomputed from the books and the move history, without the engine's
    tables or its incremental bookkeeping (the Jumbo chase rule left out)."""
    rules = state.rules
    me = state.to_move
    out: dict[str, tuple[Square, Square]] = {}
    for square, piece in state.pieces(me):
        if piece.rank in (Rank.BOMB, Rank.FLAG):
            continue
        for d_row, d_file in _STEPS:
            row, file, steps = square.row, square.file, 0
            while True:
                row, file, steps = row + d_row, file + d_file, steps + 1
                if not (0 <= row < 10 and 0 <= file < 10):
                    break
                to = Square.at(file, row)
                if to.is_lake:
                    break
                other = state.piece_at(to)
                if other is None:
                    out[f"{square}-{to}"] = (square, to)
                    if piece.rank is Rank.SCOUT:
                        continue
                    break
                if other.owner is not me and (
                        steps == 1 or rules.movement.scout_strikes_after_move):
                    out[f"{square}-{to}"] = (square, to)
                break
    # back-and-forth: replay this player's own moves
    if rules.repetition.scout_window:
        return _window_reference(state, rules, me, out)
    borders = rules.repetition.scout_borders
    run: tuple[int, set[Square], int] | None = None  # piece id, squares of the run, trips
    crossed: tuple[int, set[frozenset[Square]], int] | None = None  # ISF 10.2 borders
    for record, frm, to in _own_moves(state, me):
        if record.defender is not None:
            run = crossed = None
            continue
        if borders and record.piece.rank is Rank.SCOUT:
            these = _borders(frm, to)
            if crossed is not None and crossed[0] == record.piece.id and crossed[1] & these:
                crossed = (crossed[0], crossed[1] & these, crossed[2] + 1)
            else:
                crossed = (record.piece.id, these, 1)
            run = None
            continue
        crossed = None
        if run is not None and run[0] == record.piece.id and {frm, to} <= run[1]:
            run = (run[0], run[1], run[2] + 1)
        else:
            squares = {frm, to}
            if rules.repetition.scout_span and record.piece.rank is Rank.SCOUT:
                squares = _segment(frm, to)
            run = (record.piece.id, squares, 1)
    if run is not None and run[2] >= rules.repetition.max_shuttle_moves:
        where = state.square_of(run[0])
        for text, (frm, to) in list(out.items()):
            if frm == where and state.piece_at(to) is None and {frm, to} <= run[1]:
                del out[text]
    if crossed is not None and crossed[2] >= rules.repetition.max_shuttle_moves:
        where = state.square_of(crossed[0])
        for text, (frm, to) in list(out.items()):
            if frm == where and state.piece_at(to) is None and crossed[1] & _borders(frm, to):
                del out[text]
    return set(out)


def _window_reference(state: GameState, rules: stratego.Rules, me: Player,
                      out: dict[str, tuple[Square, Square]]) -> set[str]:
    """The window reading (ISF 10.2, classic): a move is refused when each of the piece's
    last `max_shuttle_moves` consecutive moves crossed a border it would cross; under the
    ISF definitions a strike is a move (a striker removed ends the run), elsewhere a strike
    ends the run and is never refused."""
    limit = rules.repetition.max_shuttle_moves
    strikes = rules.repetition.strikes_are_moves
    runner = 0
    run: list[set[frozenset[Square]]] = []
    for record, frm, to in _own_moves(state, me):
        if record.strike is not None and (not strikes or record.strike.attacker_removed):
            runner, run = 0, []
            continue
        if record.piece.id != runner:
            runner, run = record.piece.id, []
        run.append(_borders(frm, to))
    if len(run) < limit:
        return set(out)
    common = set.intersection(*run[-limit:])
    where = state.square_of(runner)
    for text, (frm, to) in list(out.items()):
        if frm == where and (strikes or state.piece_at(to) is None) and common & _borders(
                frm, to):
            del out[text]
    return set(out)


def _own_moves(state: GameState, me: Player) -> Iterator[tuple[PlyRecord, Square, Square]]:
    """`me`'s played moves, oldest first: each history record with its two squares."""
    for record in state.history_records():
        if record.player is me:
            frm, to = record.move.frm, record.move.to
            assert frm is not None
            assert to is not None
            yield record, frm, to


def _borders(a: Square, b: Square) -> set[frozenset[Square]]:
    """The borders (pairs of neighbouring squares) a straight move from `a` to `b` crosses."""
    line = sorted(_segment(a, b), key=lambda sq: sq.index)
    return {frozenset(pair) for pair in itertools.pairwise(line)}


def _segment(a: Square, b: Square) -> set[Square]:
    """The squares of the straight segment from `a` to `b`, both included."""
    if a.row == b.row:
        return {Square.at(f, a.row) for f in range(min(a.file, b.file), max(a.file, b.file) + 1)}
    return {Square.at(a.file, r) for r in range(min(a.row, b.row), max(a.row, b.row) + 1)}


@given(new_games(editions), seeds, plies)
def test_legal_moves_match_reference_generator(start: GameState, seed: int, n: int) -> None:
    """Every book's movement rules, recomputed naively: the engine's moves equal the
    reference's; in Jumbo 2014 and ISF the engine may leave out only quiet moves that its
    chase rule forbids."""
    states = random_playout(start, seed, n)
    for state in states[:: max(1, len(states) // 10)]:
        if state.is_over:
            continue
        engine = {str(m) for m in legal_moves(state)}
        reference = _reference_moves(state)
        assert engine <= reference, sorted(engine - reference)
        extra = reference - engine
        if not state.rules.repetition.chase:
            assert extra == set()
        for text in extra:
            reason = stratego.explain_illegal(state, text) or ""
            assert state.rules.repetition.chase_name in reason


@given(new_games(editions), seeds, plies)
def test_is_legal_and_explain_agree_with_legal_moves(start: GameState, seed: int,
                                                     n: int) -> None:
    """For every from-to pair on the board: `is_legal` answers as `legal_moves` does,
    never raising, and `explain_illegal` returns None exactly for legal moves, and for an
    illegal one names the rule it breaks (never its generic fallback)."""
    state = random_playout(start, seed, n)[-1]
    legal = set(legal_moves(state))
    rng = random.Random(seed)
    mine = [sq for sq, _ in state.pieces(state.to_move)]
    others = [(rng.choice(SQUARES), rng.choice(SQUARES)) for _ in range(300)]
    pairs = [(frm, to) for frm in mine for to in SQUARES] + others
    for frm, to in pairs:
        if frm == to or frm.is_lake:
            continue
        move = MOVE_TABLE[frm.index][to.index] or stratego.Move(frm, to)
        assert stratego.is_legal(state, move) is (move in legal)
        assert stratego.is_legal(state, str(move)) is (move in legal)
        reason = stratego.explain_illegal(state, move)
        assert (reason is None) is (move in legal)
        if reason is not None and not state.is_over:
            assert str(move) in reason
            # a rule of its own names why, never the fallbacks: the explanation's rules
            # agree with the move generator's
            assert ": not legal here" not in reason, reason
            assert ": not legal for the " not in reason, reason


_land = st.integers(0, SIZE * SIZE - 1).filter(lambda i: i not in LAKE_INDICES)


@given(_land, _land, st.sets(st.integers(0, SIZE * SIZE - 1), max_size=30))
def test_paths_are_shortest_walks_around_lakes_and_walls(a: int, b: int,
                                                         walls: set[int]) -> None:
    """Invariant of `stratego.board.paths`: on the open board every land square is reached,
    never in fewer moves than the steps between them as the crow flies (the lakes only
    lengthen a walk), the same both ways; shutting squares never shortens a walk."""
    open_from_a = paths([a], lambda n: True)
    assert set(open_from_a) == set(range(SIZE * SIZE)) - LAKE_INDICES
    assert open_from_a[b] >= distance(a, b)
    assert open_from_a[b] == paths([b], lambda n: True)[a]
    walled = paths([a], lambda n: n not in walls)
    assert all(walled[square] >= open_from_a[square] for square in walled)
    assert not set(walled) & (walls - {a})
    near = paths([a], lambda n: n not in walls, limit=4)
    assert near == {square: moves for square, moves in walled.items() if moves <= 4}


def test_paths_refuse_what_is_no_square_index() -> None:
    """Bad starts and a passable test that cannot be called are the library's error,
    naming the argument."""
    for bad in ([100], [-1], [True], ["a1"], 5):
        with pytest.raises(stratego.errors.ArgumentError, match="start"):
            paths(bad, lambda n: True)  # type: ignore[arg-type]
    with pytest.raises(stratego.errors.ArgumentError, match="passable"):
        paths([0], None)  # type: ignore[arg-type]
    for limit in (-1, 1.5, "4"):
        with pytest.raises(stratego.errors.ArgumentError, match="limit"):
            paths([0], lambda n: True, limit)  # type: ignore[arg-type]
