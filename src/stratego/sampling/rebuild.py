"""Rebuilding a full state from a view, and checking a view against the states it describes.

`build_state` rebuilds the `GameState` a view describes once its hidden pieces have ranks
(no replay: the view's public record holds everything the rules depend on). The checks
refuse a view no game gives, naming the field at fault: its form (`check_view`,
`_check_army`), its pieces' sets once their count grows large (`check_sets`), and the view
of a rebuilt state (`verify`); `fits_whole_state` holds the whole-state facts a sampled state must
also meet (moves to make, Rescues that brought back the lowest id of their rank).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from stratego.engine import (
    generate_moves,
    initial_rank_mask,
    legal_moves,
    position_hash,
)
from stratego.errors import ArgumentError, shown
from stratego.moves import Move
from stratego.pieces import Piece, Player, Rank
from stratego.repetition import chase_position, chase_record
from stratego.sampling.counting import Problem, SamplingError
from stratego.state import GameInfo, GameState, Termination
from stratego.strike import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS
from stratego.views import PlayerView, SeenPly, as_view, view

__all__ = ["build_state"]

CODES = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "both": BOTH_REMOVED}


def build_state(v: PlayerView, ranks: dict[int, Rank]) -> GameState:
    """The full state the view describes, with `ranks` for its hidden pieces.

    `ranks` maps the id of every hidden piece to a rank (`sample_state` draws them).
    Raises `ArgumentError` if `ranks` is no mapping or maps a hidden piece to what is no
    `Rank`, `SamplingError` if it gives a
    hidden piece no rank or one the view rules out for it (`SeenPiece.possible`), or
    gives a player's army other counts than the game's (`PlayerView.armies`: a state no
    game reaches), or if the view's record does not describe a game."""
    as_view(v)
    if not isinstance(ranks, Mapping):
        raise ArgumentError(f"ranks map hidden pieces' ids to ranks, not {shown(ranks)}")
    return Rebuild(v).state(ranks)


class Rebuild:
    """`build_state` for one view, to rebuild many states from it (the samplers' draws):
    the view is checked once (`check_view`), and what does not depend on the hidden ranks
    is made once and shared by every state rebuilt: the history chain up to the first
    hidden Rescue (whose move names the drawn rank of the piece that came back: from it
    on, the chain is made per state) and the chase's quiet moves."""

    __slots__ = ("_chase_moves", "_cut", "_prefix", "view")

    def __init__(self, v: PlayerView) -> None:
        check_view(v)
        self.view = v
        # the plies before the first hidden Rescue, and their chain (made on first use)
        self._cut = next((i for i, ply in enumerate(v.history) if ply.move is None),
                         len(v.history))
        self._prefix: Any = None
        self._chase_moves: list[tuple[int, int]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        # without the shared chain, made again on first use: pickle (and deepcopy) would
        # recurse once per ply
        return {"view": self.view, "_cut": self._cut}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.view, self._cut = state["view"], state["_cut"]
        self._prefix = self._chase_moves = None

    def state(self, ranks: Mapping[int, Rank]) -> GameState:
        """The state `build_state` gives for the view and `ranks` (a mapping)."""
        return _state(self, ranks)

    def history(self, rank_of: dict[int, Rank]) -> Any:
        """The history chain of the state with the ranks `rank_of`: the shared chain of
        the plies before the first hidden Rescue, then a chain of this state's own."""
        history = self.view.history
        node = self._prefix
        if node is None and self._cut:
            for ply in history[:self._cut]:
                assert ply.move is not None  # the plies before the first hidden Rescue
                node = (node, _entry(ply, ply.move))
            self._prefix = node
        for ply in history[self._cut:]:
            move = ply.move
            if move is None:
                assert ply.to is not None  # check_view refuses a hidden Rescue without it
                move = Move.rescue(rank_of[ply.piece], ply.to)
            node = (node, _entry(ply, move))
        return node

    def chase_moves(self, positions: int) -> list[tuple[int, int]]:
        """The chase's quiet moves read off the history, oldest first: the latest
        `positions` - 1 moves but declined Rescues (a declined Rescue leaves a chase on)."""
        if self._chase_moves is None:
            picked: list[Move | None] = []
            for ply in reversed(self.view.history):
                if len(picked) >= positions - 1:
                    break
                if ply.move is None or not ply.move.is_decline:  # None: a hidden Rescue
                    picked.append(ply.move)
            moves = []
            for move in reversed(picked):
                if move is None or move.frm is None or move.to is None:
                    raise SamplingError("the view's chase record spans a Rescue")
                moves.append((move.frm.index, move.to.index))
            self._chase_moves = moves
        return self._chase_moves


def _entry(ply: SeenPly, move: Move) -> tuple[Move, int, int, int]:
    """The history entry of `ply`, `move` its move (a hidden Rescue's, with the drawn rank)."""
    return (move, ply.piece, ply.defender or 0, CODES[ply.result] if ply.result is not None
            else -1)


def _state(rebuild: Rebuild, ranks: Mapping[int, Rank]) -> GameState:
    """`Rebuild.state`."""
    v = rebuild.view
    rules = v.rules
    everyone = v.all_pieces()
    rank_of: dict[int, Rank] = {}
    counts = ([0] * len(Rank), [0] * len(Rank))
    for p in everyone:
        rank = p.rank if p.rank is not None else ranks.get(p.id)
        if rank is None:
            raise SamplingError(f"no rank given for the hidden piece {p.id}")
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < len(Rank):
            raise ArgumentError(f"ranks must map piece ids to ranks, not piece {p.id} to "
                                f"{shown(rank)}")
        if p.rank is None and rank not in p.possible:
            raise SamplingError(f"the view rules out {shown(rank)} for the hidden piece "
                                f"{p.id}")
        rank_of[p.id] = Rank(rank)
        counts[p.owner][rank] += 1
    for player in Player:
        if counts[player] != list(v.armies[player]):
            raise SamplingError(f"the ranks given make {player}'s army other than the "
                                f"game's (PlayerView.armies)")
    info = _info(v, rank_of)
    table = info.pieces
    board = [0] * 100
    where = [-1] * len(table)
    for p in v.pieces:
        assert p.square is not None
        board[p.square.index] = p.id << 5 | p.owner << 4 | rank_of[p.id]
        where[p.id] = p.square.index
    captured_mask = sum(1 << p.id for p in v.captured)
    known = (0, *(sum(1 << r for r in p.disclosed) for p in everyone))
    moved_mask = sum(1 << p.id for p in everyone if p.moved)
    node = rebuild.history(rank_of)
    turn = int(v.to_move)
    zhash = 0
    chase: tuple[int, ...] = ()
    if rules.repetition.chase:
        # the side to move, as the engine hashes it: the player who decides a pending
        # Rescue moves again, so the side is not always the one after the last mover
        zhash = position_hash(board, turn)
        last = chase_position(zhash, v.pending_rescue is not None)
        chaser, positions = v.chase
        # the move that began the other player's chase within this one (None: none)
        counter = positions - v.counter_chase if v.counter_chase else None
        if chaser and v.chase_moves:
            try:
                chase = chase_record(chaser, [(m.frm.index, m.to.index) for m in v.chase_moves
                                              if m.frm is not None and m.to is not None],
                                     board, last, counter)
            except ValueError as exc:
                raise SamplingError(f"chase: {exc}") from None
        elif chaser:
            moves = rebuild.chase_moves(positions)
            try:
                chase = chase_record(chaser, moves, board, last, counter)
            except ValueError as exc:
                raise SamplingError(f"chase: {exc}") from None
    rescuer_mask = sum(1 << pid for pid in v.rescuers)
    pending = v.pending_rescue.id if v.pending_rescue is not None else 0
    return GameState(
        info=info,
        board=tuple(board),
        turn=turn,
        ply=v.ply,
        captured_mask=captured_mask,
        known=known,
        moved_mask=moved_mask,
        shuttles=v.shuttles,
        pending=pending,
        rescues=(v.rescues[0], v.rescues[1], rescuer_mask),
        chase=chase,
        zhash=zhash,
        last_to=v.last_to.index if v.last_to is not None else -1,
        outcome=v.outcome,
        where=tuple(where),
        history=node,
    )


def _info(v: PlayerView, rank_of: dict[int, Rank]) -> GameInfo:
    """The game's fixed part with the view's own piece ids (a position read from text or
    JSON keeps the ids of the game it came from) and starting squares."""
    rules = v.rules
    everyone = v.all_pieces()
    pieces: list[Piece | None] = [None] * (len(everyone) + 1)
    board = [0] * 100
    for p in everyone:
        piece = Piece(p.id, p.owner, rank_of[p.id])
        pieces[p.id] = piece
        if p.start is not None:
            if p.start.is_lake:
                raise SamplingError(f"piece {p.id}: starts on {p.start}, a lake")
            if board[p.start.index]:
                raise SamplingError(f"piece {p.id}: starts on {p.start}, where piece "
                                    f"{board[p.start.index] >> 5} starts too")
            board[p.start.index] = p.id << 5 | p.owner << 4 | piece.rank
    movable = rules.movable_ranks()
    mobile = tuple(
        tuple(q.id for q in pieces if q is not None and q.owner == who and q.rank in movable)
        for who in (Player.RED, Player.BLUE))
    info = GameInfo(rules=rules, pieces=tuple(pieces), initial_board=tuple(board),
                    initial_turn=int(v.first_player), mobile=(mobile[0], mobile[1]),
                    start_known=initial_rank_mask(rules, pieces))
    return info


def _check_army(v: PlayerView) -> None:
    """The forgeries a game cannot give, each named: pieces on lakes, armies larger than
    the rules' army, pieces that do not add up to the armies, ranks that moved although
    they cannot, a Flag on the board after it was captured, impossible Rescue counts."""
    rules = v.rules
    for p in v.pieces:
        if p.square is not None and p.square.is_lake:
            raise SamplingError(f"pieces: piece {p.id} stands on {p.square}, a lake")
    movable = rules.movable_ranks()
    for who in Player:
        army = v.armies[who]
        for rank in Rank:
            if army[rank] > rules.army.count(rank):
                raise SamplingError(
                    f"armies: {who} has {army[rank]} {rank.title}(s); the {rules.name} army "
                    f"has {rules.army.count(rank)}")
        mine = [p for p in v.all_pieces() if p.owner is who]
        if len(mine) != sum(army):
            raise SamplingError(f"armies: {who} has {len(mine)} pieces in the view, its army "
                                f"counts {sum(army)}")
        for rank in Rank:
            count = sum(1 for p in mine if p.rank is rank)
            if count > army[rank] or (who is v.player and count != army[rank]):
                raise SamplingError(f"armies: the view shows {count} {who} {rank.title}(s), "
                                    f"the army counts {army[rank]}")
        for p in mine:
            if p.rank is not None and p.moved and p.rank not in movable:
                raise SamplingError(f"pieces: {who}'s {p.rank.title} (piece {p.id}) moved, "
                                    f"but a {p.rank.title} cannot move under {rules.name}")
    outcome = v.outcome
    if outcome is not None and outcome.termination is Termination.FLAG_CAPTURED:
        loser = outcome.winner.opponent if outcome.winner is not None else None
        if loser is None or any(p.owner is loser and p.rank is Rank.FLAG for p in v.pieces):
            raise SamplingError(f"outcome: the Flag was captured but {loser}'s Flag is "
                                f"still on the board")
        if not any(p.owner is loser and (p.rank is Rank.FLAG or Rank.FLAG in p.possible)
                   for p in v.captured):
            raise SamplingError(f"outcome: the Flag was captured but no captured piece of "
                                f"{loser} is its Flag: both Flags stand")
    made = sum(1 for ply in v.history if ply.to is not None and (
        ply.move is None or ply.move.is_rescue))
    if not rules.rescue.enabled and (any(v.rescues) or v.rescuers or made):
        raise SamplingError(f"rescues: {rules.name} has no Rescue rule")
    if any(n < 0 or n > rules.rescue.max_rescues for n in v.rescues):
        raise SamplingError(f"rescues: {list(v.rescues)}; each player makes at most "
                            f"{rules.rescue.max_rescues}")
    if made > sum(v.rescues) or len(v.rescuers) > sum(v.rescues):
        raise SamplingError(f"rescues: {list(v.rescues)} made, but the history shows {made} "
                            f"and {len(v.rescuers)} pieces made one")


def check_view(v: PlayerView) -> None:
    """The checks of the view's record that `build_state` relies on: piece ids numbered
    1, 2, 3, ... and every id, square and count of the bookkeeping in range."""
    count = len(v.all_pieces())
    if [p.id for p in v.all_pieces()] != list(range(1, count + 1)):
        raise SamplingError("the view's piece ids are not numbered 1, 2, 3, ... without gaps")

    def check_id(pid: int | None, where: str) -> None:
        if pid is not None and not 1 <= pid <= count:
            raise SamplingError(f"{where}: no piece has the id {pid} (the view has {count})")

    for i, ply in enumerate(v.history):
        check_id(ply.piece, f"history[{i}].piece")
        check_id(ply.defender, f"history[{i}].defender")
        if ply.move is None and ply.to is None:
            raise SamplingError(f"history[{i}]: a hidden Rescue needs its square")
        if (ply.defender is None) != (ply.result is None):
            raise SamplingError(f"history[{i}]: a strike has both a defender and a result, "
                                f"other moves neither")
        if ply.defender is not None and (ply.move is None or ply.move.frm is None):
            raise SamplingError(f"history[{i}]: only a move from a square strikes")
    for who, shuttle in zip(("red", "blue"), v.shuttles, strict=True):
        pid, lo, hi, turns = shuttle[:4]
        if shuttle != (0, 0, 0, 0) and not (1 <= pid <= count and 0 <= lo < hi < 100
                                            and turns >= 1
                                            and all(0 <= sq < 100 for sq in shuttle[4:])):
            raise SamplingError(f"shuttles ({who}): {list(shuttle)} is not [piece id, lower "
                                f"square index, higher square index, count >= 1, then "
                                f"square indices]")
    for pid in sorted(v.rescuers):
        check_id(pid, "rescuers")
    if v.pending_rescue is not None and not (
            v.rules.rescue.enabled and v.pending_rescue.owner == v.to_move):
        raise SamplingError(f"pending_rescue: piece {v.pending_rescue.id} cannot owe a Rescue "
                            f"decision ({v.rules.name}, {v.to_move} to move)")
    chaser, positions = v.chase
    if v.chase_moves and positions != len(v.chase_moves) + 1:
        raise SamplingError(f"chase: {positions} positions, but {len(v.chase_moves)} chase "
                            f"moves")
    if chaser and not (v.rules.repetition.chase and chaser in (1, 2)
                       and 1 <= positions <= max(len(v.history), len(v.chase_moves)) + 1):
        raise SamplingError(f"chase: {positions} positions of a chase by "
                            f"{'red' if chaser == 1 else 'blue'} do not fit {v.rules.name} "
                            f"and a history of {len(v.history)} turns")
    if v.counter_chase and not (chaser and 2 <= v.counter_chase <= positions):
        raise SamplingError(f"chase: a chase within the chase of {v.counter_chase} positions "
                            f"does not fit a chase of {positions}")
    _check_army(v)


def verify(v: PlayerView, state: GameState, *, skip: frozenset[str] = frozenset()) -> None:
    """Raise `SamplingError` naming the first field (and, in the pieces, the first piece)
    where the view of `state` is not `v` (a view that no game explains: only its form was
    checked when it was read); the fields in `skip` are not compared."""
    seen = view(state, v.player)
    for field in attrs.fields(PlayerView):
        if field.name in skip:
            continue
        got, want = getattr(seen, field.name), getattr(v, field.name)
        if got != want:
            where = ""
            if field.name in ("pieces", "captured"):
                for g, w in zip(got, want, strict=False):
                    diff = next((f.name for f in attrs.fields(type(w))
                                 if getattr(g, f.name) != getattr(w, f.name)), None)
                    if diff is not None:
                        where = (f" (piece {w.id}: "
                                 f"{_difference(diff, getattr(w, diff), getattr(g, diff))})")
                        break
            raise SamplingError(
                f"the view's {field.name} does not fit the rest of its record{where}: no "
                f"game gives this view"
            )


def _difference(name: str, want: object, got: object) -> str:
    """How a field of a seen piece in the view differs from what its record gives."""
    if isinstance(want, frozenset) and isinstance(got, frozenset):
        parts = [f"{name}: {whose} {', '.join(r.title for r in sorted(extra))}, "
                 f"which {other} rules out"
                 for whose, other, extra in (("the view allows", "its record", want - got),
                                             ("its record allows", "the view", got - want))
                 if extra]
        return "; ".join(parts)
    return f"{name} is {shown(want)} in the view, {shown(got)} by its record"


def check_record(rebuild: Rebuild, problem: Problem) -> bool:
    """Refuse a view that no game gives before anything is drawn from it: `SamplingError`
    when no assignment fits its pieces' sets and army (`problem`, the view's), or when the
    state rebuilt with one that does (`Problem.some`, rebuilt by `rebuild`, the view's)
    does not show the view again (`verify`). Every field is compared but the legal moves
    under a chase rule, which may depend on the hidden ranks (the pieces' sets, marks and
    the rest of the record do not); returns whether they were compared too, so that a
    draw need not be verified again."""
    v = rebuild.view
    ranks = problem.some()
    if ranks is None:
        raise SamplingError(f"no assignment of ranks to the {len(v.hidden())} hidden pieces "
                            f"fits the view")
    chase = bool(v.rules.repetition.chase)
    verify(v, rebuild.state(ranks),
           skip=frozenset({"legal_moves"}) if chase else frozenset())
    return not chase


CHECK_AFTER = 20_000
"""Counted states after which `Sampler` first checks that the view's sets are the ones its
record gives (`check_sets`): natural views count in far fewer, and the check costs about
a view built from scratch."""


def check_sets(v: PlayerView, problem: Problem) -> None:
    """Refuse, before counting further, a view whose pieces' `possible` sets are not the ones its
    record gives (an edited view; counting sets that no game gives can take very long):
    the view's pieces are a function of its public record, so the state rebuilt with any
    assignment that fits the sets must show them again."""
    ranks = problem.some()
    if ranks is None:
        return  # nothing fits: the count is 0, and `sample` says so
    try:
        seen = view(build_state(v, ranks), v.player)
    except SamplingError:
        return  # a record that some assignments cannot rebuild: left to `sample`
    for got, want in zip(seen.all_pieces(), v.all_pieces(), strict=True):
        if got.possible != want.possible:
            names = ", ".join(r.title for r in sorted(want.possible))
            record = ", ".join(r.title for r in sorted(got.possible))
            raise SamplingError(
                f"pieces: piece {want.id} may be {shown(names)} in the view, but its record "
                f"allows {shown(record)}: no game gives this view")


def rescue_rivals(v: PlayerView) -> list[tuple[int, tuple[int, ...]]]:
    """For each Rescue: the rescued piece and the captured pieces of its owner
    with a lower id at that moment (the engine brings back the lowest id of
    the chosen rank, so none of them had the rescued piece's rank)."""
    owner = {p.id: p.owner for p in v.all_pieces()}
    captured = {p.id for p in v.all_pieces() if p.start is None}
    out = []
    for ply in v.history:
        if ply.result in ("attacker", "both") and ply.defender is not None:
            captured.add(ply.defender)
        if ply.result in ("defender", "both"):
            captured.add(ply.piece)
        if ply.to is not None and (ply.move is None or ply.move.is_rescue):
            rivals = tuple(q for q in captured
                           if q < ply.piece and owner.get(q) == owner.get(ply.piece))
            if rivals:
                out.append((ply.piece, rivals))
            captured.discard(ply.piece)
    return out


def fits_whole_state(v: PlayerView, state: GameState,
          rivals: list[tuple[int, tuple[int, ...]]]) -> bool:
    """The whole-state facts: moves to make, or none when the game ended so;
    Rescues that brought back the lowest id of their rank."""
    pieces = state.info.pieces
    for pid, lower in rivals:
        rank = pieces[pid].rank  # type: ignore[union-attr]
        if any(pieces[q].rank == rank for q in lower):  # type: ignore[union-attr]
            return False
    if v.outcome is None:
        moves = legal_moves(state)
        if not moves:
            return False
        return not (v.to_move == v.player and moves != v.legal_moves)
    termination = v.outcome.termination
    if termination is Termination.NO_LEGAL_MOVES:
        return not generate_moves(state)
    if termination is Termination.PLY_LIMIT:
        return bool(generate_moves(state))
    return True


def check_max_draws(max_draws: object) -> int:
    """`max_draws` of a sampler's ``sample``, a positive whole number; raises
    `ArgumentError` for anything else."""
    if isinstance(max_draws, bool) or not isinstance(max_draws, int) or max_draws < 1:
        raise ArgumentError(f"max_draws must be a positive whole number, not "
                            f"{shown(max_draws)}")
    return max_draws


class WholeStates:
    """Full states of one view from drawn ranks, for the samplers: each draw is built
    into a state (`rebuild`, the view's `Rebuild`, which checked the view) and kept only
    when the whole-state facts hold (`fits_whole_state`); the first state kept is also
    checked against the view once (`verify`)."""

    __slots__ = ("_verified", "rebuild", "rivals", "view")

    def __init__(self, rebuild: Rebuild) -> None:
        self.rebuild = rebuild
        self.view = rebuild.view
        self.rivals = rescue_rivals(self.view)
        self._verified = False

    def verified(self) -> None:
        """Take the view as checked against a rebuilt state already (`check_record`)."""
        self._verified = True

    def first(self, draw: Callable[[], dict[int, Rank]], max_draws: int) -> GameState:
        """The state of the first of up to `max_draws` calls of `draw` whose ranks pass;
        raises `SamplingError` when none does."""
        for _ in range(max_draws):
            state = self.rebuild.state(draw())
            if fits_whole_state(self.view, state, self.rivals):
                if not self._verified:
                    verify(self.view, state)
                    self._verified = True
                return state
        raise SamplingError(f"no consistent state found in {max_draws} draws")
