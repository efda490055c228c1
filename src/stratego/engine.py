"""The engine: building games, legal moves, applying moves, game end.

Everything here is a pure function of immutable values. The hot path
(`legal_moves`, `apply`) reads precomputed tables (`stratego.board`,
`stratego.moves.MOVE_TABLE`, the strike table of the rules) and copies a
fixed amount of data per ply, whatever the length of the game. Move generation and
its tables live in the internal `stratego._movegen`, which `GameState.legal_moves` and
`stratego.explain` use too; this module builds games and applies moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast, overload

import attrs

from stratego._checks import as_bool, as_move, as_square_index, as_state, not_a_state
from stratego._movegen import ENDS as _ENDS
from stratego._movegen import Tables as _Tables
from stratego._movegen import flags_home as _flags_home
from stratego._movegen import game_tables as _tab
from stratego._movegen import generate as _generate
from stratego._movegen import piece_lists as _squares
from stratego._movegen import rescue_facts as _rescue_facts
from stratego._movegen import rescue_options as _rescue_options
from stratego._movegen import rules_tables as _tables
from stratego.arguments import rules_from
from stratego.board import SIZE, Square
from stratego.errors import (
    ArgumentError,
    IllegalMoveError,
    InvalidNotationError,
    PositionError,
    SetupError,
    shown,
)
from stratego.movement import REACH
from stratego.moves import HasLegalMoves, Move
from stratego.pieces import Piece, Player, Rank
from stratego.repetition import NO_SHUTTLE, ZOBRIST_SIDE, position_hash
from stratego.rescue import RescueFacts
from stratego.rules import Rules, as_rules
from stratego.setups import Setup, check_setup
from stratego.state import GameInfo, GameState, Outcome, Termination
from stratego.strike import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS

__all__ = [
    "apply",
    "from_position",
    "generate_moves",
    "initial_rank_mask",
    "initial_state",
    "is_legal",
    "legal_moves",
    "make_info",
    "new_game",
    "position_hash",
    "reach_mask",
    "reach_table",
    "rescue_facts",
]

_FLAG, _SCOUT = Rank.FLAG, Rank.SCOUT

def reach_table(captain_two_step: bool) -> tuple[tuple[int, ...], ...]:
    """`reach_mask` for every pair of square indices, ``table[frm][to]``: the one table of
    what a quiet move shows of its mover (`stratego.movement.REACH`), for the views and
    the batched engine. Raises `ArgumentError` for a flag that is not a bool."""
    return REACH[as_bool(captain_two_step, "captain_two_step")]


def reach_mask(frm: int, to: int, captain_two_step: bool) -> int:
    """The ranks (bit ``1 << rank``) that could have made the quiet move from square index
    `frm` to `to`, as the engine's knowledge records keep them: every rank for a step of
    one square, the Scout for a longer straight move, and with two-step Captains (Ultimate
    Lightning) the Captain too for a move of two squares. Raises `ArgumentError` for an
    index outside 0-99 or a flag that is not a bool."""
    as_square_index(frm)
    as_square_index(to)
    return REACH[as_bool(captain_two_step, "captain_two_step")][frm][to]



def rescue_facts(state: GameState) -> RescueFacts:
    """What the Rescue rule reads of `state` (`stratego.rescue.RescueFacts`), as the
    engine hands it to the rule's component. Raises `ArgumentError` for a `state` that
    is not a `GameState`."""
    return _rescue_facts(as_state(state))


# ---------------------------------------------------------------------------
# building games


def make_info(rules: Rules, cells: list[tuple[int, Player, Rank]],
              captured: Iterable[tuple[Player, Rank]], turn: int) -> GameInfo:
    """The `GameInfo` of a game whose board holds `cells` (square index, owner, rank) and
    whose `captured` pieces are out of play, `turn` to move first. Pieces are numbered
    Red first, each side by square, then the captured ones. Used by the readers and the
    sampler that rebuild games; `initial_state` turns it into a state."""
    pieces: list[Piece | None] = [None]
    board = [0] * (SIZE * SIZE)
    for owner in (Player.RED, Player.BLUE):
        for index, who, rank in sorted(cells):
            if who is owner:
                piece = Piece(len(pieces), owner, rank)
                pieces.append(piece)
                board[index] = piece.id << 5 | owner << 4 | rank
    captured = list(captured)
    if len(pieces) + len(captured) > 127:
        raise PositionError("at most 126 pieces fit the engine's board encoding")
    for owner, rank in captured:
        piece = Piece(len(pieces), Player(owner), Rank(rank))
        pieces.append(piece)
    movable = rules.movable_ranks()
    mobile = tuple(
        tuple(p.id for p in pieces if p is not None and p.owner == who and p.rank in movable)
        for who in (Player.RED, Player.BLUE)
    )
    start_known = initial_rank_mask(rules, pieces)
    info = GameInfo(
        rules=rules,
        pieces=tuple(pieces),
        initial_board=tuple(board),
        initial_turn=turn,
        mobile=(mobile[0], mobile[1]),
        start_known=start_known,
    )
    _tab(info)
    return info


def initial_rank_mask(rules: Rules, pieces: Iterable[Piece | None]) -> int:
    """The bit mask (bit = `Rank` value) of the ranks a player may at first think an
    opponent's piece has: every rank of the army, and any rank present in `pieces`.
    Raises `ArgumentError` for `pieces` that are not pieces (or None)."""
    as_rules(rules)
    present = set()
    for piece in pieces:
        if piece is not None and not isinstance(piece, Piece):
            raise ArgumentError(f"not a piece: {shown(piece)}")
        if piece:
            present.add(piece.rank)
    mask = 0
    for rank in {r for r in Rank if rules.army.count(r)} | present:
        mask |= 1 << rank
    return mask


def initial_state(info: GameInfo) -> GameState:
    """The state a game starts from: `info`'s pieces on their first squares (the pieces
    not on the board are captured), nothing moved or known yet, the outcome decided if
    the player to move has no move. Used by the readers that rebuild games. Raises
    `ArgumentError` for an `info` that is not a `GameInfo`."""
    if not isinstance(info, GameInfo):
        raise ArgumentError(f"not a GameInfo: {shown(info)} (take it from a state's "
                            f"`info`)")
    board = info.initial_board
    placed = {code >> 5 for code in board if code}
    tables = _tables(info.rules)
    turn = info.initial_turn
    state = GameState(
        info=info,
        board=board,
        turn=turn,
        ply=0,
        captured_mask=sum(1 << pid for pid in range(1, len(info.pieces)) if pid not in placed),
        known=(0,) + (info.start_known,) * (len(info.pieces) - 1),
        moved_mask=0,
        shuttles=(NO_SHUTTLE, NO_SHUTTLE),
        pending=0,
        rescues=(0, 0, 0),
        chase=(),
        zhash=position_hash(board, turn) if tables.chase is not None else 0,
        last_to=-1,
        outcome=None,
    )
    moves = _generate(state)
    object.__setattr__(state, "cached_moves", moves)
    if not moves:
        object.__setattr__(
            state, "outcome", Outcome(Termination.NO_LEGAL_MOVES, Player(turn).opponent)
        )
    return state


def new_game(
    rules: Rules | str,
    red_setup: Setup | str | Mapping[Square, Rank | str] | Mapping[str, Rank | str]
    | Mapping[Square | str, Rank | str],
    blue_setup: Setup | str | Mapping[Square, Rank | str] | Mapping[str, Rank | str]
    | Mapping[Square | str, Rank | str],
) -> GameState:
    """A new game under `rules` from the two players' setups (Red moves first).

    A setup may be a `Setup`, its text form, or a mapping ``{square: rank}``
    (`Setup.from_mapping`). Raises `SetupError` listing every problem of either
    setup. `rules` is a `Rules` value or a rules name (``"classic"``,
    ``"jumbo-2014+barrage"``: `stratego.editions.by_name`); an unknown name raises
    `RulesError`.
    """
    rules = rules_from(rules)
    setups = []
    for player, setup in ((Player.RED, red_setup), (Player.BLUE, blue_setup)):
        if isinstance(setup, str):
            setup = Setup.parse(setup, player, rules.setup.depth)
        elif isinstance(setup, Mapping):
            setup = Setup.from_mapping(player, setup)
        if not isinstance(setup, Setup):
            raise SetupError(f"not a setup for {player}: {shown(setup)} (expected a Setup, "
                             f"its text, or a mapping {{square: rank}})")
        if setup.player is not player:
            raise SetupError(f"the {player} setup was made for {setup.player}")
        setups.append(setup)
    problems: list[str] = []
    for setup in setups:
        try:
            check_setup(rules, setup)
        except SetupError as exc:
            problems.extend(f"{setup.player}: {p}" for p in exc.problems)
    if problems:
        raise SetupError("invalid setup: " + "; ".join(problems), tuple(problems))
    cells = [(sq.index, s.player, rank) for s in setups for sq, rank in s.placement]
    return initial_state(make_info(rules, cells, (), Player.RED))


def _captured_pieces(captured: object, problems: list[str]) -> list[tuple[Player, Rank]]:
    """`captured` as (player, rank) pairs; what is not one goes to `problems`."""
    if captured is None or isinstance(captured, str | bytes | Mapping):
        problems.append(f"captured pieces must be a list of (player, rank) pairs, not "
                        f"{shown(captured)}")
        return []
    pieces = []
    try:
        items = list(captured)  # type: ignore[call-overload]
    except TypeError:
        problems.append(f"captured pieces must be a list of (player, rank) pairs, not "
                        f"{shown(captured)}")
        return []
    for item in items:
        try:
            owner, rank = item
            pieces.append((Player(owner), Rank(rank)))
        except (InvalidNotationError, ValueError, TypeError):
            problems.append(f"not a captured piece: {shown(item)} (expected (player, rank))")
    return pieces


def from_position(
    rules: Rules | str,
    placement: Mapping[Square, tuple[Player, Rank] | str] | Mapping[str, tuple[Player, Rank] | str]
    | Mapping[Square | str, tuple[Player, Rank] | str],
    to_move: Player | str = Player.RED,
    captured: Iterable[tuple[Player, Rank]] = (),
) -> GameState:
    """A game starting from an arbitrary, possibly partial position.

    `placement` maps squares (or names) to ``(player, rank)`` or to a rank
    symbol whose case gives the owner (``"M"`` a Red Marshal, ``"m"`` a Blue
    one; a rank name such as ``"Marshal"``, which gives no owner, is refused).
    `captured` lists pieces already out of play (Rescue can bring them
    back). Raises `PositionError` listing every problem: lakes, unknown
    symbols, more pieces of a rank than the army has, and, under Moving Flag, a Flag on
    the opponent's back row (it won as it arrived: `stratego.validation.check_state`
    refuses such a position too). `rules` is a `Rules` value or a rules name, as for
    `new_game`.
    """
    rules = rules_from(rules)
    problems: list[str] = []
    cells: list[tuple[int, Player, Rank]] = []
    if not isinstance(placement, Mapping):
        raise PositionError(f"a placement maps squares to pieces, not {type(placement).__name__}")
    named: dict[int, object] = {}
    for key, value in placement.items():
        try:
            square = key if isinstance(key, Square) else Square.parse(key)
        except InvalidNotationError as exc:
            problems.append(str(exc))
            continue
        if square.index in named:
            problems.append(f"more than one piece on {square} (given as "
                            f"{shown(named[square.index])} and {shown(key)})")
            continue
        named[square.index] = key
        if isinstance(value, str) and len(value.strip()) > 1:
            problems.append(_rank_name_problem(square, value))
            continue
        try:
            if isinstance(value, str):
                owner = Player.RED if value.strip().isupper() else Player.BLUE
                rank = Rank.parse(value)
                piece = True
            else:
                owner, rank = Player(value[0]), Rank(value[1])
                piece = len(value) == 2  # ("red", Rank.MARSHAL, "extra") is no piece
        except (InvalidNotationError, ValueError, TypeError, IndexError, KeyError):
            piece = False
        if not piece:
            problems.append(f"{square}: not a piece: {shown(value)} (expected (player, rank) or a "
                            f"rank symbol such as 'M' or 'm')")
            continue
        if square.is_lake:
            problems.append(f"{rank.title} on {square}: a lake, where no piece may stand")
            continue
        cells.append((square.index, owner, rank))
    captured = _captured_pieces(captured, problems)
    problems.extend(
        f"{owner}'s Flag among the captured pieces: capturing the Flag ends the game"
        for owner, rank in captured if rank == Rank.FLAG
    )
    for owner in Player:
        for rank in Rank:
            count = sum(1 for _, o, r in cells if o is owner and r == rank)
            count += sum(1 for o, r in captured if o is owner and r == rank)
            if count > rules.army.count(rank):
                problems.append(
                    f"{owner} has {count} {rank.title}(s), the army has {rules.army.count(rank)}"
                )
    # the check of the readers of saved positions too (`state_problems`), so that what
    # `from_position` accepts comes back from its position string
    problems.extend(_flags_home(rules, cells))
    if problems:
        raise PositionError("invalid position: " + "; ".join(problems), tuple(problems))
    try:
        turn = Player(to_move)  # type: ignore[arg-type]  # Player reads names too
    except ValueError:
        raise PositionError(f"not a player to move: {shown(to_move)}") from None
    return initial_state(make_info(rules, cells, captured, turn))


def _rank_name_problem(square: Square, value: str) -> str:
    """The problem of a text longer than a rank symbol given as a piece of `from_position`:
    a rank name says nothing of the owner (its case would decide it by accident)."""
    try:
        symbol = Rank.parse(value).symbol
    except InvalidNotationError:
        return (f"{square}: not a piece: {shown(value)} (expected (player, rank) or a rank "
                f"symbol such as 'M' or 'm')")
    return (f"{square}: not a piece: {shown(value)} is a rank's name or label, which gives "
            f"no owner (write the symbol {symbol!r} for Red's or {symbol.lower()!r} for "
            f"Blue's, or a (player, rank) pair)")


# ---------------------------------------------------------------------------
# legal moves


@overload
def legal_moves(state: GameState) -> tuple[Move, ...]: ...
@overload
def legal_moves(state: HasLegalMoves) -> tuple[Move, ...]: ...
def legal_moves(state: Any) -> tuple[Move, ...]:
    """Every legal move of the player to move, in a deterministic order (of a `PlayerView`,
    or anything `HasLegalMoves`: its own `legal_moves` tuple).

    Empty once the game is over. During a Rescue decision, the moves are the
    possible rescues (``"K@b2"``) and declining (``"--"``).
    """
    try:
        moves: tuple[Move, ...] | None = state.cached_moves
    except AttributeError:
        moves = getattr(state, "legal_moves", None)  # a PlayerView lists its own
        if isinstance(moves, tuple):
            return moves
        raise not_a_state(state) from None
    if moves is None:
        moves = _generate(state) if state.outcome is None else ()
        object.__setattr__(state, "cached_moves", moves)
    return moves


def is_legal(state: GameState, move: Move | str) -> bool:
    """Whether `move` (a `Move` or its text) is legal: False for anything else (text that
    is no move, or a number, which a `Move` only compares equal to), never an error for the
    move. Raises `ArgumentError` when `state` is not a `GameState`, whatever the move."""
    moves = legal_moves(state)  # the state's own check, before the move is looked at
    if isinstance(move, str):
        try:
            move = Move.parse(move)
        except InvalidNotationError:
            return False
    elif type(move) is not Move:
        return False
    return move in moves


def generate_moves(state: GameState) -> tuple[Move, ...]:
    """The legal moves of `state` computed afresh (not read from or stored in its cache),
    whether or not the game is over; `legal_moves` is the cached form. Raises
    `ArgumentError` for a `state` that is not a `GameState`."""
    return _generate(as_state(state))


# ---------------------------------------------------------------------------
# apply


def apply(state: GameState, move: Move | str) -> GameState:
    """The state after the player to move plays `move` (a `Move` or its text).

    `state` is not changed. Raises `InvalidNotationError` for text that is not
    a move and `IllegalMoveError`, naming the square, piece and rule at
    fault, for a move the rules do not allow here.
    """
    if type(move) is not Move:  # the common case stays inline on this hot path
        move = as_move(move, rescue=isinstance(state, GameState) and state.rules.rescue.enabled)
    try:
        moves = state.cached_moves
    except AttributeError:
        raise not_a_state(state) from None
    if moves is None:
        moves = legal_moves(state)
    if move not in moves:
        from stratego.explain import explain_illegal  # only on the error path

        raise IllegalMoveError(explain_illegal(state, move) or f"{move} is not legal here")
    if state.pending:
        return _apply_rescue(state, move)
    return _apply_move(state, move)


def _finish(state: GameState, new: Any, flag_taken: bool, flag_home: bool,
            t: _Tables) -> GameState:
    """Set the new state's outcome and legal moves (generated now: the game ends when
    the player to move has none) and make the `_Build` `new` a `GameState`."""
    mover = state.turn
    if flag_taken:
        outcome: Outcome | None = Outcome(Termination.FLAG_CAPTURED, Player(mover))
        moves: tuple[Move, ...] = ()
    elif flag_home:
        outcome = Outcome(Termination.FLAG_REACHED_BACK_ROW, Player(mover))
        moves = ()
    else:
        moves = _generate(new)
        outcome = None
        if not moves:
            outcome = Outcome(Termination.NO_LEGAL_MOVES, Player(new.turn).opponent)
        else:
            limit = t.ply_limit
            if limit is not None and new.ply >= limit and not new.pending:
                outcome = Outcome(Termination.PLY_LIMIT, None)
                moves = ()
    new.outcome = outcome
    new.cached_moves = moves
    new.__class__ = GameState
    return cast(GameState, new)


_new = object.__new__


class _Build(GameState):
    """A `GameState` under construction: the same slots, written by plain attribute stores.

    The engine builds each new state as a `_Build` (whose `__setattr__` is `object`'s, so
    every store is a direct slot write instead of a call through the frozen class's guard),
    then turns it into a `GameState` by assigning its class (same layout, no copy). No
    `_Build` ever leaves this module."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__  # shares the type slot with __setattr__: both plain


def _state(state: GameState, **fields: object) -> Any:
    """A `_Build` holding `state`'s fields, those in `fields` replaced (`_finish` ends it)."""
    new: Any = _new(_Build)
    for name in _FIELDS:
        setattr(new, name, fields[name] if name in fields else getattr(state, name))
    return new


_FIELDS = tuple(a.name for a in attrs.fields(GameState))

def _set_rescues(new: Any, rescues: tuple[int, int, int]) -> None:
    new.rescues = rescues


_S_RESCUES = _set_rescues  # the rescue record's store on a `_Build`


def _apply_move(state: GameState, move: Move) -> GameState:
    info = state.info
    t = info.tables or _tab(info)
    player = state.turn
    frm, to = _ENDS[move]
    board = list(state.board)
    lists = list(state.squares or _squares(state))
    a = board[frm]
    d = board[to]
    apid = a >> 5
    ra = a & 15
    board[frm] = 0
    known = state.known
    captured_mask = state.captured_mask
    flag_taken = False
    mover_list = t.list_of[apid]
    pieces = list(lists[mover_list])
    shuttles = state.shuttles
    if d == 0:
        board[to] = a
        pieces[pieces.index(frm)] = to
        lists[mover_list] = tuple(pieces)
        mask = known[apid]
        if mask & t.reach[frm][to] != mask:  # a move no other rank could make
            k = list(known)
            k[apid] = mask & t.reach[frm][to]
            known = tuple(k)
        shuttle = t.shuttle.after_quiet(shuttles[player], apid, frm, to, ra == _SCOUT)
        entry: tuple[Move, int, int, int] = (move, apid, 0, -1)
        last_to = to
    else:
        dpid = d >> 5
        rd = d & 15
        code = t.strike[ra][rd]
        k = list(known)
        k[apid] = 1 << ra
        if t.answers[ra]:
            k[dpid] = 1 << rd
        else:  # a silent defender: only what the result tells of it
            k[dpid] &= t.consistent[ra][code]
        known = tuple(k)
        if code == ATTACKER_WINS:
            board[to] = a
            pieces[pieces.index(frm)] = to
            captured_mask |= 1 << dpid
            flag_taken = rd == _FLAG
        else:
            pieces.remove(frm)
            captured_mask |= 1 << apid
            if code == BOTH_REMOVED:
                board[to] = 0
                captured_mask |= 1 << dpid
        lists[mover_list] = tuple(pieces)
        if code != DEFENDER_WINS:
            defender_list = t.list_of[dpid]
            if defender_list >= 0:
                lists[defender_list] = tuple(sq for sq in lists[defender_list] if sq != to)
        shuttle = t.shuttle.after_strike(shuttles[player], apid, frm, to, ra == _SCOUT,
                                         code == ATTACKER_WINS)
        entry = (move, apid, dpid, code)
        last_to = -1
    pending = 0
    flag_home = False
    if t.arrivals and not flag_taken and board[to] == a:
        if ra == 0 and t.flag_wins and to in t.back_rows[player]:  # 0: the Flag
            flag_home = True
        elif (t.rescue is not None and to in t.back_rows[player]
              and t.rescue.owed(RescueFacts(player, state.pending, info.pieces, board,
                                            captured_mask, state.known, state.rescues,
                                            state.history), apid)):
            pending = apid
    zhash = state.zhash
    chase = state.chase
    if t.chase is not None:
        zhash, chase, last_to = t.chase.after(board, player, chase, zhash, state.last_to, a, d,
                                              board[to], frm, to)
        if pending:
            zhash ^= ZOBRIST_SIDE  # the same player decides the Rescue
    new: Any = _new(_Build)
    new.info = info
    new.board = tuple(board)
    new.captured_mask = captured_mask
    new.known = known
    new.moved_mask = state.moved_mask | 1 << apid
    new.shuttles = (shuttle, shuttles[1]) if player == 0 else (shuttles[0], shuttle)
    rescues = state.rescues
    if rescues[2] & captured_mask and t.rescue is not None:
        rescues = t.rescue.after_captures(rescues, captured_mask)  # a captured rescuer
    _S_RESCUES(new, rescues)
    new.chase = chase
    new.zhash = zhash
    new.last_to = last_to
    new._where = None
    new.squares = tuple(lists)
    new.history = (state.history, entry)
    new.pending = pending
    if pending:
        new.turn = player
        new.ply = state.ply
        new.outcome = None
        new.cached_moves = _rescue_options(new)
        new.__class__ = GameState
        return cast(GameState, new)
    ply = state.ply + 1
    new.turn = 1 - player
    new.ply = ply
    if flag_taken or flag_home:
        new.outcome = Outcome(
            Termination.FLAG_CAPTURED if flag_taken else Termination.FLAG_REACHED_BACK_ROW,
            Player(player),
        )
        new.cached_moves = ()
        new.__class__ = GameState
        return cast(GameState, new)
    moves = _generate(new)
    if not moves:
        new.outcome = Outcome(Termination.NO_LEGAL_MOVES, Player(player))
    elif t.ply_limit is not None and ply >= t.ply_limit:
        new.outcome = Outcome(Termination.PLY_LIMIT, None)
        moves = ()
    else:
        new.outcome = None
    new.cached_moves = moves
    new.__class__ = GameState
    return cast(GameState, new)


def _apply_rescue(state: GameState, move: Move) -> GameState:
    t = state.info.tables or _tab(state.info)
    player = state.turn
    rescuer = state.pending
    board = list(state.board)
    known = state.known
    captured_mask = state.captured_mask
    moved_mask = state.moved_mask
    rescues = state.rescues
    if move.is_rescue:
        assert t.rescue is not None
        assert move.rescued is not None
        to = move.ti
        facts = _rescue_facts(state)
        piece = t.rescue.returning(facts, move.rescued)
        board[to] = piece.id << 5 | player << 4 | piece.rank
        k = list(known)
        if t.silent:
            # Silent Defense: the opponent saw some piece of the face-down pile come back,
            # not which, so its public record of every piece of the pile becomes what it
            # knew of the pile as a whole
            pile = [p.id for p in state.info.pieces
                    if p is not None and p.owner == player and captured_mask >> p.id & 1]
            union = 0
            for pid in pile:
                union |= known[pid]
            for pid in pile:
                k[pid] = union
        k[piece.id] = t.rescue.disclosed(facts, piece)
        known = tuple(k)
        captured_mask &= ~(1 << piece.id)
        counts = [rescues[0], rescues[1]]
        counts[player] += 1
        if t.silent:
            # Silent Defense: the piece comes from a face-down pile the opponent cannot
            # tell apart, so it comes back fresh, as unmoved (what it did before its
            # capture is tied to an identity no one else sees)
            moved_mask &= ~(1 << piece.id)
        rescues = (counts[0], counts[1], rescues[2] | 1 << rescuer)
        entry = (move, piece.id, 0, -1)
    else:
        entry = (move, rescuer, 0, -1)
    # The decision is part of the turn that earned it, not a move: the move that reached
    # the back row stays the player's last quiet move (`last_to`), and declining leaves a
    # chase going on (its last position is already the board after the arrival). A rescue
    # ends the chase: no earlier position can return before a strike, which ends it too.
    zhash = 0
    chase: tuple[int, ...] = ()
    if t.chase is not None:
        zhash = position_hash(board, 1 - player)
        if not move.is_rescue:
            chase = state.chase
    new = _state(
        state,
        board=tuple(board),
        turn=1 - player,
        ply=state.ply + 1,
        captured_mask=captured_mask,
        known=known,
        moved_mask=moved_mask,
        pending=0,
        rescues=rescues,
        chase=chase,
        zhash=zhash,
        last_to=state.last_to,
        outcome=None,
        history=(state.history, entry),
        cached_moves=None,
        _where=None,
        squares=None,
    )
    return _finish(state, new, False, False, t)
