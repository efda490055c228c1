"""Validation of whole game states: is this a state some game of its rules can reach?

The readers that build a `GameState` from outside data (`stratego.notation.parse_position`,
`GameState.from_json`, which reads a position string) check the form of each
field as they parse it; this module checks that the fields agree with each other and with the
rules: the outcome with the board, the Rescue bookkeeping with the Rescue rule, the
back-and-forth record with the edition's limit, what has moved with what can move, the known
ranks with the army. `state_problems` lists every problem at once, `check_state` raises
`PositionError` listing them.

Legal but unusual states stay accepted: endgames with few pieces, puzzles, partial boards,
any ply count, either player to move.
"""

from __future__ import annotations

import attrs

from stratego._checks import as_state
from stratego._movegen import flags_home
from stratego.board import BACK_ROWS, LAKE_INDICES, SIZE, SQUARES
from stratego.engine import initial_rank_mask, legal_moves, rescue_facts
from stratego.errors import PositionError, shown
from stratego.moves import MOVE_TABLE
from stratego.pieces import Piece, Player, Rank
from stratego.repetition import ScoutReading
from stratego.rescue import rescue_component
from stratego.state import GameState, Outcome, Termination

__all__ = ["check_state", "state_problems"]


def _rescue_zone(state: GameState, player: int) -> tuple[int, ...]:
    component = rescue_component(state.rules)
    return component.zones[player] if component is not None else ()


def _moves_if_going_on(state: GameState) -> tuple[object, ...]:
    """The legal moves of the player to move, as if the game had no outcome yet."""
    if state.outcome is None:
        return legal_moves(state)
    going_on = attrs.evolve(state, outcome=None, cached_moves=None)
    return legal_moves(going_on)


def _piece(state: GameState, pid: int) -> Piece | None:
    pieces = state.info.pieces
    return pieces[pid] if 0 < pid < len(pieces) else None


def _name(piece: Piece) -> str:
    return f"{piece.owner}'s {piece.rank.title} (id {piece.id})"


def state_problems(state: GameState) -> list[str]:
    """Every reason no game of `state`'s rules can reach `state`; empty when it can.

    Checks the outcome against the board and the moves left, the pending
    Rescue, the rescue counts, the back-and-forth records, the last move, the
    pieces marked as moved and the ranks each piece may be thought to have.
    """
    as_state(state)
    broken = _structure_problems(state)
    if broken:  # what follows reads these fields as the engine writes them
        return broken
    problems: list[str] = []
    rules = state.rules
    pieces = [p for p in state.info.pieces if p is not None]
    where = state.where
    turn = state.turn
    movable = rules.movable_ranks()
    start_known = initial_rank_mask(rules, state.info.pieces)

    # -- pieces ------------------------------------------------------------
    for piece in pieces:
        pid = piece.id
        if state.moved_mask >> pid & 1 and piece.rank not in movable:
            problems.append(f"{_name(piece)} is marked as moved, but a {piece.rank.title} "
                            f"cannot move under {rules.name}")
        mask = state.known[pid]
        if not mask >> piece.rank & 1:
            problems.append(f"{_name(piece)}: the ranks its opponent considers possible leave "
                            f"out its own rank")
        outside = [r.title for r in Rank if (mask & ~start_known) >> r & 1]
        if outside:
            problems.append(f"{_name(piece)} is thought to be possibly a {', '.join(outside)}, "
                            f"a rank no piece of this game has")
    counts: dict[tuple[Player, Rank], int] = {}
    for piece in pieces:
        counts[piece.owner, piece.rank] = counts.get((piece.owner, piece.rank), 0) + 1
    for (owner, rank), count in sorted(counts.items()):
        if count > rules.army.count(rank):
            problems.append(f"{owner} has {count} {rank.title}(s), the army of {rules.name} "
                            f"has {rules.army.count(rank)}")
    flags_out = {p.owner for p in pieces if p.rank == Rank.FLAG and where[p.id] < 0}

    # -- the outcome ---------------------------------------------------------
    outcome = state.outcome
    if len(flags_out) == 2:
        problems.append("both Flags are captured: the first capture ends the game")
    if outcome is None:
        if flags_out:
            problems.append(f"{' and '.join(str(p) for p in sorted(flags_out))}'s Flag is "
                            "captured but the game is not over")
        if not legal_moves(state):
            problems.append(f"{Player(turn)} has no legal move, yet the game is not over "
                            f"(it ends: {Termination.NO_LEGAL_MOVES.value})")
        problems.extend(flags_home(rules, ((where[p.id], p.owner, p.rank) for p in pieces
                                           if where[p.id] >= 0)))
        limit = rules.ply_limit
        if limit is not None and state.ply >= limit and not state.pending:
            problems.append(f"ply {state.ply} reaches the ply limit {limit}, yet the game is "
                            "not over")
    else:
        winner, why = outcome.winner, outcome.termination
        mover = Player(1 - turn)
        if state.pending:
            problems.append("a Rescue is pending in a finished game")
        if why is Termination.PLY_LIMIT:
            if rules.ply_limit is None:
                problems.append(f"a ply-limit outcome, but {rules.name} has no ply limit")
            elif state.ply < rules.ply_limit:
                problems.append(f"a ply-limit outcome at ply {state.ply}, before the limit "
                                f"{rules.ply_limit}")
            if winner is not None:
                problems.append("a ply-limit outcome is a draw, not a win")
        elif winner is None:
            problems.append(f"a game that ends by {why.value} has a winner")
        elif why is Termination.NO_LEGAL_MOVES:
            if winner is not mover:
                problems.append(f"the outcome says {winner} won because {winner.opponent} had "
                                f"no move, but it is {Player(turn)}'s turn")
            elif _moves_if_going_on(state):
                problems.append(f"the outcome says {Player(turn)} had no legal move, but it has")
        elif why is Termination.FLAG_CAPTURED:
            if winner.opponent not in flags_out:
                problems.append(f"the outcome says {winner} captured {winner.opponent}'s Flag, "
                                f"but no Flag of {winner.opponent} is captured")
            if winner in flags_out:
                problems.append(f"the outcome says {winner} won, but {winner}'s own Flag is "
                                "captured")
            if winner is not mover:
                problems.append(f"{winner} captured the Flag, so it is {winner.opponent}'s "
                                f"turn, not {winner}'s")
        elif why is Termination.FLAG_REACHED_BACK_ROW:
            if not rules.flag_on_back_row_wins:
                problems.append(f"the outcome says a Flag reached the back row, but "
                                f"{rules.name} has no Moving Flag rule")
            elif not any(p.owner is winner and p.rank == Rank.FLAG
                         and where[p.id] in BACK_ROWS[winner] for p in pieces):
                problems.append(f"the outcome says {winner}'s Flag reached the back row, but "
                                "no Flag of theirs stands there")
            if winner is not mover:
                problems.append(f"{winner} moved its Flag home, so it is {winner.opponent}'s "
                                f"turn, not {winner}'s")

    # -- Rescue ----------------------------------------------------------------
    red, blue, rescuers = state.rescues
    if not rules.rescue.enabled:
        if red or blue or rescuers:
            problems.append(f"rescues are recorded, but {rules.name} has no Rescue rule")
    else:
        limit = rules.rescue.max_rescues
        for player, made in ((Player.RED, red), (Player.BLUE, blue)):
            if made > limit:
                problems.append(f"{player} made {made} rescues, the limit is {limit}")
            by = [p for p in pieces if rescuers >> p.id & 1 and p.owner is player]
            # under Silent Defense a rescued piece comes back free to earn a Rescue again,
            # so a piece that rescued may be rescued and leave the record
            if len(by) > made or (len(by) < made and not rules.disclosure.silent_defense):
                problems.append(f"{player} made {made} rescue(s) but {len(by)} of its pieces "
                                "are recorded as rescuers")
        if rescuers >> len(state.info.pieces):
            problems.append("a rescuer id names no piece")
        for piece in pieces:
            if rescuers >> piece.id & 1 and (
                    piece.rank == Rank.SCOUT or piece.rank not in movable
                    or not state.moved_mask >> piece.id & 1):
                problems.append(f"{_name(piece)} is recorded as a rescuer, but it cannot have "
                                "reached the back row to rescue")
    if state.pending:
        rescuer = _piece(state, state.pending)
        if rescuer is not None and rules.rescue.enabled:
            square = where[rescuer.id]
            # a Scout's owner gets the decision too (it may only decline)
            if square not in BACK_ROWS[rescuer.owner]:
                problems.append(f"a Rescue is pending for {_name(rescuer)}, which is not on "
                                f"{rescuer.owner.opponent}'s back row")
            if not state.moved_mask >> rescuer.id & 1:
                problems.append(f"a Rescue is pending for {_name(rescuer)}, which never moved")
            if state.rescues[rescuer.owner] >= rules.rescue.max_rescues:
                problems.append(f"a Rescue is pending, but {rescuer.owner} already made "
                                f"{state.rescues[rescuer.owner]} rescue(s)")
            if rescuers >> rescuer.id & 1:
                problems.append(f"a Rescue is pending for {_name(rescuer)}, which already rescued")
            component = rescue_component(rules)
            if component is not None and not component.may_bring_back(rescue_facts(state)):
                # the rule's own test: a Bomb captured silently still earns the decision
                problems.append(f"a Rescue is pending, but {rescuer.owner} has no captured piece "
                                "that can be rescued")
            if all(state.board[sq] for sq in _rescue_zone(state, rescuer.owner)):
                problems.append(f"a Rescue is pending, but {rescuer.owner}'s rescue zone is full")
            if state.last_to >= 0 and state.last_to != square:
                problems.append(f"a Rescue is pending for {_name(rescuer)}, but the last move "
                                f"ended on {SQUARES[state.last_to]}")

    # -- back-and-forth records ------------------------------------------------
    limit = rules.repetition.max_shuttle_moves
    for player, shuttle in zip(Player, state.shuttles, strict=True):
        pid, lo, hi, count = shuttle[:4]
        if pid == 0 and count == 0:
            continue
        named = _piece(state, pid)
        if named is None:
            problems.append(f"{player}'s back-and-forth record names no piece (id {pid})")
            continue
        if named.owner is not player:
            problems.append(f"{player}'s back-and-forth record names {_name(named)}")
        if named.rank not in movable or not state.moved_mask >> pid & 1:
            problems.append(f"{player}'s back-and-forth record names {_name(named)}, which "
                            "has not moved")
        if count > limit:
            problems.append(f"{player}'s back-and-forth count {count} is above the limit "
                            f"{limit} of {rules.name}")
        if not (0 <= lo < hi < SIZE * SIZE) or MOVE_TABLE[lo][hi] is None:
            problems.append(f"{player}'s back-and-forth record: no piece moves between "
                            "those squares")
            continue
        trail = shuttle[4:]
        if trail and (rules.repetition.components()[0].reading is not ScoutReading.WINDOW
                      or len(trail) != count
                      or not all(0 <= sq < SIZE * SIZE for sq in trail)):
            problems.append(f"{player}'s back-and-forth record: squares left by a piece are "
                            "kept only under a window reading, one per move counted")
            continue
        square = where[pid]
        # a piece that moves more than one square (a Scout, a two-step Captain) may keep
        # a series that is a span or the borders it crossed (the rules' reading); any
        # other piece moves between the two squares and stands on one
        if (square >= 0 and square not in (lo, hi)
                and not rules.movement.moves_far(named.rank)):
            problems.append(f"{player}'s back-and-forth record: {_name(named)} stands on "
                            f"{SQUARES[square]}, off {SQUARES[lo]}-{SQUARES[hi]}")

    # -- the last move ---------------------------------------------------------
    last = state.last_to
    if last >= 0:
        code = state.board[last]
        last_mover = turn if state.pending else 1 - turn
        if not code:
            problems.append(f"the last move ended on {SQUARES[last]}, which is empty")
        else:
            standing = _piece(state, code >> 5)
            if standing is not None and (standing.owner != last_mover
                                         or not state.moved_mask >> standing.id & 1):
                fault = ("has never moved" if standing.owner == last_mover
                         else "is not the last mover's")
                problems.append(f"the last move ended on {SQUARES[last]}, but "
                                f"{_name(standing)} there {fault}")
    return problems


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _structure_problems(state: GameState) -> list[str]:
    """What no state the engine makes can hold (a state built by hand): a turn or ply out
    of range, a board that is not 100 squares of this game's pieces, a piece on a lake,
    a last move off the board, an outcome that is no `Outcome`."""
    problems: list[str] = []
    pieces = state.info.pieces
    if not _whole(state.turn) or state.turn not in (0, 1):
        problems.append(f"the turn {shown(state.turn)} is neither Red's (0) nor Blue's (1)")
    if not _whole(state.ply) or state.ply < 0:
        problems.append(f"the ply {shown(state.ply)} is not a whole number >= 0")
    if not _whole(state.last_to) or not -1 <= state.last_to < SIZE * SIZE:
        problems.append(f"the last move's square {shown(state.last_to)} is off the board")
    if state.outcome is not None and not isinstance(state.outcome, Outcome):
        problems.append(f"the outcome {shown(state.outcome)} is no Outcome")
    board = state.board
    if (not isinstance(board, tuple) or len(board) != SIZE * SIZE
            or not all(_whole(code) and code >= 0 for code in board)):
        problems.append("the board is not 100 squares of piece codes")
        return problems
    placed: set[int] = set()
    for index, code in enumerate(board):
        if not code:
            continue
        pid = code >> 5
        piece = pieces[pid] if 0 < pid < len(pieces) else None
        if piece is None or code != pid << 5 | int(piece.owner) << 4 | piece.rank:
            problems.append(f"{SQUARES[index]} holds no piece of this game")
        elif pid in placed:
            problems.append(f"{_name(piece)} stands on two squares")
        elif index in LAKE_INDICES:
            problems.append(f"{_name(piece)} stands on the lake square {SQUARES[index]}")
        placed.add(pid)
    return problems


def check_state(state: GameState) -> GameState:
    """`state` itself if some game of its rules can reach it; else raise `PositionError`
    listing every problem (see `state_problems`)."""
    problems = state_problems(state)
    if problems:
        raise PositionError("impossible position: " + "; ".join(problems), tuple(problems))
    return state
