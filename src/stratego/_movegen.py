"""Move generation over the engine's packed tables (internal).

The engine's hot path: the per-square step, lane and two-step tables, the per-rules and
per-game tables (`Tables`), and `generate`, which lists the legal moves of a position from
its packed fields. It sits below `stratego.state` (whose `GameState.legal_moves` calls it)
and `stratego.engine` (which calls it after each move), and reads a position only through
the fields `Position` names, so that neither needs the other: the one module of the engine
layer that both the state and the engine build on. The rules of movement it reads are
those of their component (`stratego.movement.movement_component`: its parameters and the
`reach` of a quiet move); its tables of interned moves are built from the board's `LANES`
and `TWO_STEPS`, the geometry the component's explanations read too.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, Protocol

import attrs

from stratego.board import BACK_ROWS, LANES, NEIGHBOURS, SIZE, SQUARES, TWO_STEPS
from stratego.movement import movement_component
from stratego.moves import MOVE_TABLE, Move
from stratego.pieces import Piece, Player, Rank
from stratego.repetition import BackAndForth, Chase
from stratego.rescue import Rescue, RescueFacts, rescue_component
from stratego.rules import Rules
from stratego.strike import consistent_table, strike_table

__all__ = [
    "ENDS",
    "GameInfoLike",
    "Kinds",
    "Position",
    "Tables",
    "flags_home",
    "game_tables",
    "generate",
    "piece_lists",
    "rescue_facts",
    "rescue_options",
    "rules_tables",
]


class GameInfoLike(Protocol):
    """What move generation reads of a game's `stratego.state.GameInfo`."""

    @property
    def rules(self) -> Rules: ...
    @property
    def pieces(self) -> tuple[Piece | None, ...]: ...
    @property
    def mobile(self) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
    @property
    def tables(self) -> Any: ...


class Position(Protocol):
    """What move generation reads of a `stratego.state.GameState` (its packed fields)."""

    @property
    def info(self) -> GameInfoLike: ...
    @property
    def board(self) -> tuple[int, ...]: ...
    @property
    def turn(self) -> int: ...
    @property
    def pending(self) -> int: ...
    @property
    def captured_mask(self) -> int: ...
    @property
    def known(self) -> tuple[int, ...]: ...
    @property
    def rescues(self) -> tuple[int, int, int]: ...
    @property
    def shuttles(self) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
    @property
    def chase(self) -> tuple[int, ...]: ...
    @property
    def zhash(self) -> int: ...
    @property
    def last_to(self) -> int: ...
    @property
    def where(self) -> tuple[int, ...]: ...
    @property
    def squares(self) -> tuple[tuple[int, ...], ...] | None: ...
    @property
    def history(self) -> Any: ...


_FLAG, _SPY, _SCOUT, _CAPTAIN, _BOMB = Rank.FLAG, Rank.SPY, Rank.SCOUT, Rank.CAPTAIN, Rank.BOMB

def _move(frm: int, to: int) -> Move:
    move = MOVE_TABLE[frm][to]
    assert move is not None
    return move


# Precomputed (destination, interned Move) pairs per square, read by the move generator.
_STEP_MOVES: tuple[tuple[tuple[int, Move], ...], ...] = tuple(
    tuple((to, _move(frm, to)) for to in NEIGHBOURS[frm]) for frm in range(SIZE * SIZE)
)
_SCOUT_MOVES: tuple[tuple[tuple[int, Move, tuple[tuple[int, Move], ...]], ...], ...] = tuple(
    tuple(
        (lane[0], _move(frm, lane[0]), tuple((to, _move(frm, to)) for to in lane[1:]))
        for lane in lanes
    )
    for frm, lanes in enumerate(LANES)
)
# Two-step routes as (destination, move, first middle square, second middle square); the two
# middle squares are the same square when only one route leads there.
_TWO_STEP_MOVES: tuple[tuple[tuple[int, Move, int, int], ...], ...] = tuple(
    tuple((to, _move(frm, to), vias[0], vias[-1]) for to, vias in TWO_STEPS[frm])
    for frm in range(SIZE * SIZE)
)

ENDS: dict[Move, tuple[int, int]] = {
    move: (move.fi, move.ti) for row in MOVE_TABLE for move in row if move is not None
}
"""The square indices ``(from, to)`` of every board move (`MOVE_TABLE`'s), by move: one
dictionary look-up where reading the two attributes of a `Move` (an `int` with a
``__dict__``) costs two slower ones."""

# _OPEN_TO[player][code]: may a piece of `player` move onto a square holding `code`
# (empty, or an opponent's piece)? Codes are below 128 << 5.
_OPEN_TO = tuple(
    tuple(code == 0 or (code >> 4) & 1 != player for code in range(128 << 5)) for player in (0, 1)
)

@attrs.frozen
class Tables:
    """Per-rules constants read by the hot path (one instance per `Rules` value)."""

    scout_strike: bool
    captain2: bool
    max_shuttle: int
    shuttle: BackAndForth
    chase: Chase | None
    strike: tuple[tuple[int, ...], ...]
    consistent: tuple[tuple[int, ...], ...]
    silent: bool
    answers: tuple[bool, ...]
    """`Disclosure.answers` by attacker rank: whether a strike shows the defender's rank."""
    rescue: Rescue | None
    back_rows: tuple[frozenset[int], frozenset[int]]
    flag_wins: bool
    ply_limit: int | None
    arrivals: bool
    reach: tuple[tuple[int, ...], ...] = ()
    """The movement component's `reach` (`stratego.movement.REACH` for these rules): the
    ranks a quiet move from one square to another shows."""
    pieces: tuple[Piece | None, ...] | None = None
    kinds: tuple[Kinds, Kinds] | None = None
    list_of: tuple[int, ...] = ()


@functools.cache
def rules_tables(rules: Rules) -> Tables:
    strike = strike_table(rules.strike)
    consistent = consistent_table(rules.strike)
    shuttle, chase = rules.repetition.components()
    movement = movement_component(rules)
    return Tables(
        scout_strike=movement.movement.scout_strikes_after_move,
        captain2=movement.movement.captain_two_step,
        max_shuttle=rules.repetition.max_shuttle_moves,
        shuttle=shuttle,
        chase=chase,
        strike=strike,
        consistent=consistent,
        silent=rules.disclosure.silent_defense,
        answers=tuple(rules.disclosure.answers(rank) for rank in Rank),
        rescue=rescue_component(rules),
        back_rows=BACK_ROWS,
        flag_wins=rules.flag_on_back_row_wins,
        ply_limit=rules.ply_limit,
        arrivals=rules.flag_on_back_row_wins or rules.rescue.enabled,
        reach=movement.reach,
    )


def game_tables(info: GameInfoLike) -> Tables:
    """The tables of one game: those of its rules plus its pieces split by how they move.

    Computed on first use (also for infos built outside the engine) and kept in `info`.
    """
    tables = rules_tables(info.rules)
    kinds = _kinds(info, tables)
    list_of = [-1] * len(info.pieces)
    for player in (0, 1):
        for kind, group in enumerate(kinds[player]):
            for pid in group:
                list_of[pid] = player << 2 | kind
    tables = attrs.evolve(tables, pieces=info.pieces, kinds=kinds, list_of=tuple(list_of))
    object.__setattr__(info, "tables", tables)
    return tables


def generate(state: Position) -> tuple[Move, ...]:
    """`generate_moves` without the argument check, for the engine's own hot path."""
    if state.pending:
        return rescue_options(state)
    info = state.info
    t = info.tables or game_tables(info)
    board = state.board
    player = state.turn
    mine = player << 4
    step_moves = _STEP_MOVES
    squares = state.squares or piece_lists(state)
    base = player << 2
    open_to = _OPEN_TO[player]
    out: list[Move] = []  # `out.append(m)`, not a saved bound method: CPython 3.11 runs it inline
    for frm in squares[base + 1]:
        for to, move in step_moves[frm]:
            if open_to[board[to]]:
                out.append(move)
    scout_strike = t.scout_strike
    scout_moves = _SCOUT_MOVES
    for frm in squares[base]:
        for head, head_move, tail in scout_moves[frm]:
            w = board[head]
            if w:
                if w & 16 != mine:
                    out.append(head_move)
                continue
            out.append(head_move)
            for to, move in tail:
                w = board[to]
                if not w:
                    out.append(move)
                    continue
                if scout_strike and w & 16 != mine:
                    out.append(move)
                break
    for frm in squares[base + 2]:
        for to, move in step_moves[frm]:
            if open_to[board[to]]:
                out.append(move)
        for to, move, via, other_via in _TWO_STEP_MOVES[frm]:
            if open_to[board[to]] and (not board[via] or not board[other_via]):
                out.append(move)
    for frm in squares[base + 3]:
        for to, move in step_moves[frm]:
            if not board[to]:  # Bombs and the Flag never strike
                out.append(move)
    shuttle = state.shuttles[player]
    if shuttle[3] >= t.max_shuttle and state.where[shuttle[0]] >= 0:
        out = t.shuttle.drop_forbidden(out, shuttle, board, state.where[shuttle[0]])
    chase = t.chase
    if chase is not None and state.chase:  # drop_forbidden: only if the player chases
        out = chase.drop_forbidden(out, board, player, state.chase, state.zhash, state.last_to,
                                   shuttle)
    return tuple(out)


Kinds = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def piece_lists(state: Position) -> tuple[tuple[int, ...], ...]:
    """The piece lists of `state` (see `GameState.squares`), built from the board and kept."""
    info = state.info
    t = info.tables or game_tables(info)
    kinds = t.kinds if t.kinds is not None and info.pieces is t.pieces else _kinds(info, t)
    where = state.where
    squares = tuple(
        tuple(where[pid] for pid in group if where[pid] >= 0)
        for player in (0, 1) for group in kinds[player]
    )
    object.__setattr__(state, "squares", squares)
    return squares


def _kinds(info: GameInfoLike, t: Tables) -> tuple[Kinds, Kinds]:
    """Movable piece ids per player, split by how they move: Scouts, one-steppers,
    two-step Captains, and moving Bombs/Flags (which never strike)."""
    result = []
    for player in (0, 1):
        groups: list[list[int]] = [[], [], [], []]
        for pid in info.mobile[player]:
            piece = info.pieces[pid]
            assert piece is not None
            rank = piece.rank
            if rank == _SCOUT:
                groups[0].append(pid)
            elif rank == _CAPTAIN and t.captain2:
                groups[2].append(pid)
            elif rank in (_BOMB, _FLAG):
                groups[3].append(pid)
            else:
                groups[1].append(pid)
        result.append((tuple(groups[0]), tuple(groups[1]), tuple(groups[2]), tuple(groups[3])))
    return result[0], result[1]


def rescue_options(state: Position) -> tuple[Move, ...]:
    """The Rescue decision's moves (`stratego.rescue.Rescue.options`)."""
    t = state.info.tables or game_tables(state.info)
    assert t.rescue is not None
    return t.rescue.options(rescue_facts(state))


def flags_home(rules: Rules, cells: Iterable[tuple[int, Player, Rank]]) -> list[str]:
    """Under Moving Flag (`Rules.flag_on_back_row_wins`), a problem for each Flag of
    `cells` (square index, owner, rank) that stands on its opponent's back row while the
    game goes on: it won as it arrived. The one check of `stratego.engine.from_position`
    and `stratego.validation.state_problems`."""
    if not rules.flag_on_back_row_wins:
        return []
    return [f"{owner}'s Flag stands on {SQUARES[square]}, on {owner.opponent}'s back row, "
            "yet the game is not over (Moving Flag: a Flag reaching that row wins)"
            for square, owner, rank in cells
            if rank == Rank.FLAG and square in BACK_ROWS[owner]]


def rescue_facts(state: Position) -> RescueFacts:
    """What the Rescue rule reads of `state` (`stratego.rescue.RescueFacts`)."""
    return RescueFacts(state.turn, state.pending, state.info.pieces, state.board,
                       state.captured_mask, state.known, state.rescues, state.history)
