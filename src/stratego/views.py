"""What one player sees: `view(state, player)` and the `PlayerView` value.

A `PlayerView` is everything one player may know about a game and nothing
more. It holds no `GameState` and no rank the player may not know: the
boundary is the type. An opponent's piece whose rank the player has not
learned has ``rank=None`` and a `SeenPiece.possible` set of the ranks the
facts seen so far still allow (strikes, long moves, Silent Defense results,
pieces that moved, how the game ended); counting pieces against the army is
left to the caller (`PlayerView.armies` says how many of each rank each
player has in the game).

A view also carries the public bookkeeping the rules depend on (which piece
started where, which pieces moved, the back-and-forth and chase records, the
Rescue counts), so that `stratego.sampling.sample_state` can rebuild a full
`GameState` that the same player would see the same way.

`PlayerView.to_json` and `PlayerView.from_json` convert a view to and from
JSON (schema ``"stratego.view/1"``, described in the documentation page
"Hidden information").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from stratego.board import SQUARES, Square, home_rows
from stratego.engine import legal_moves
from stratego.errors import InvalidNotationError, RulesError, StrategoError
from stratego.moves import DECLINE_RESCUE, MOVE_TABLE, Move
from stratego.pieces import Player, Rank
from stratego.rules import RescueZone, Rules
from stratego.state import GameState, Outcome, Termination
from stratego.strike import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS, strike_table

__all__ = ["SCHEMA", "PlayerView", "SchemaError", "SeenPiece", "SeenPly", "view"]

SCHEMA = "stratego.view/1"
"""The value of the ``"schema"`` field written by `PlayerView.to_json`."""

_RESULTS = {ATTACKER_WINS: "attacker", DEFENDER_WINS: "defender", BOTH_REMOVED: "both"}
_CODES = {name: code for code, name in _RESULTS.items()}
_ALL = (1 << len(Rank)) - 1
_FLAG_BIT = 1 << Rank.FLAG
_BOMB_BIT = 1 << Rank.BOMB
_SCOUT_BIT = 1 << Rank.SCOUT
_BACK_ROWS = (range(90, 100), range(10))  # the row each player's pieces reach to win/rescue


class SchemaError(StrategoError, ValueError):
    """JSON that is not a valid ``stratego.view/1`` document; the message names the field."""


def _ranks(mask: int) -> frozenset[Rank]:
    return frozenset(r for r in Rank if mask >> r & 1)


@attrs.frozen
class SeenPiece:
    """One piece as the viewer knows it.

    * `rank` is None when the viewer does not know it (always set for the
      viewer's own pieces, and whenever `possible` holds a single rank).
    * `possible` are the ranks still possible from the facts seen (``{rank}``
      when known). It does not count pieces against the army.
    * `disclosed` is the public record the engine keeps for this piece: the
      ranks the owner's opponent still considers possible from strikes and
      long moves (`stratego.GameState.known_ranks`). Both players saw the same
      events, so it is public; for the viewer's own pieces it tells what the
      opponent has learned.
    * `start` is the square the piece started the game on (None for a piece
      that was already captured when the position was set up).
    * `square` is None once the piece is captured.
    """

    id: int
    owner: Player
    square: Square | None
    rank: Rank | None
    moved: bool
    possible: frozenset[Rank]
    disclosed: frozenset[Rank] = frozenset()
    start: Square | None = None

    @property
    def is_known(self) -> bool:
        """Whether the viewer knows this piece's rank."""
        return self.rank is not None


@attrs.frozen
class SeenPly:
    """One turn of the public history, as the viewer saw it.

    * `ply`: the game's ply count before this turn (a Rescue decision shares
      the ply of the move that earned it).
    * `move`: the move played; None only for an opponent's Rescue whose rank
      the rules hide (Silent Defense), in which case `to` still says where the
      piece came back.
    * `to`: the square the moved or rescued piece went to (None for a declined
      Rescue).
    * `piece`: the id of the piece that moved (for a Rescue, the piece brought
      back; for a declined Rescue, the piece that earned it); `defender`: the
      id of the struck piece, or None.
    * `rank`, `defender_rank`: the ranks this turn showed the viewer (a strike
      shows the attacker's, a long move a Scout's; the viewer's own pieces'
      ranks are always given), None if hidden.
    * `result`: what a strike did: ``"attacker"`` (the attacker won),
      ``"defender"`` (the defender won) or ``"both"`` (both removed); None
      when nothing was struck.
    """

    ply: int
    player: Player
    move: Move | None
    to: Square | None
    piece: int
    defender: int | None = None
    rank: Rank | None = None
    defender_rank: Rank | None = None
    result: str | None = None


@attrs.frozen
class PlayerView:
    """Everything `player` knows about a game, and nothing more.

    Build one with `view`. Pieces are `SeenPiece` values: `pieces` are those
    on the board in square order, `captured` the captured ones in id order.
    `legal_moves` is empty unless it is `player`'s turn (Rescue decisions
    included) and the game is on.

    The remaining fields are the public bookkeeping the rules read:
    `armies` (how many pieces of each rank, by `Rank` value, each player has
    in this game, captured ones included), `first_player` (who moved first),
    `shuttles` (per player: piece id, lower and higher square index and count
    of the current back-and-forth run), `rescues` (Rescues made by Red and
    Blue), `rescuers` (ids of pieces that earned a Rescue), `chase` (the
    chasing player + 1, or 0, and how many positions the current chase has
    recorded; Jumbo 2014) and `last_to` (where the last quiet move ended).
    """

    player: Player
    rules: Rules
    to_move: Player
    ply: int
    outcome: Outcome | None
    legal_moves: tuple[Move, ...]
    pieces: tuple[SeenPiece, ...]
    captured: tuple[SeenPiece, ...]
    history: tuple[SeenPly, ...]
    pending_rescue: SeenPiece | None
    armies: tuple[tuple[int, ...], tuple[int, ...]]
    first_player: Player = Player.RED
    shuttles: tuple[tuple[int, int, int, int], tuple[int, int, int, int]] = (
        (0, 0, 0, 0), (0, 0, 0, 0))
    rescues: tuple[int, int] = (0, 0)
    rescuers: frozenset[int] = frozenset()
    chase: tuple[int, int] = (0, 0)
    last_to: Square | None = None

    # -- queries ------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The board as this player sees it, as SVG (notebooks show it as a picture)."""
        from stratego.svg import board_svg  # the picture layer sits above the views

        return board_svg(self).svg

    def piece_at(self, square: Square | str) -> SeenPiece | None:
        """The piece on `square` (a `Square` or its name), or None."""
        sq = square if isinstance(square, Square) else Square.parse(square)
        for piece in self.pieces:
            if piece.square == sq:
                return piece
        return None

    def piece(self, piece_id: int) -> SeenPiece:
        """The piece with id `piece_id`, on the board or captured.

        Raises `InvalidNotationError` if there is no such piece."""
        for piece in self.pieces:
            if piece.id == piece_id:
                return piece
        for piece in self.captured:
            if piece.id == piece_id:
                return piece
        raise InvalidNotationError(f"no piece with id {piece_id!r} in this game")

    def all_pieces(self) -> tuple[SeenPiece, ...]:
        """Every piece of the game, on the board or captured, by id."""
        return tuple(sorted(self.pieces + self.captured, key=lambda p: p.id))

    def hidden(self) -> tuple[SeenPiece, ...]:
        """The opponent's pieces (on the board or captured) whose rank the viewer
        does not know, by id."""
        return tuple(p for p in self.all_pieces() if p.rank is None)

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    @property
    def is_my_turn(self) -> bool:
        """Whether the viewer is to move (or to decide a Rescue) in a game that is on."""
        return self.outcome is None and self.to_move == self.player

    # -- JSON ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON-ready data (schema ``"stratego.view/1"``)."""
        return _to_dict(self)

    def to_json(self, indent: int | None = None) -> str:
        """The view as JSON text (schema ``"stratego.view/1"``)."""
        return json.dumps(_to_dict(self), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> PlayerView:
        """Rebuild a view from `to_dict` data; raises `SchemaError` naming the bad field."""
        return _from_dict(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """Rebuild a view from `to_json` text; raises `SchemaError` naming the bad field.

        Only the form is checked (types, squares, moves, ranks, ids), not that
        the position could arise in a game."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise SchemaError(f"not JSON: {exc}") from None
        return _from_dict(data)


# ---------------------------------------------------------------------------
# building a view


def _history_entries(state: GameState) -> list[tuple[Move, int, int, int]]:
    entries = []
    node = state.history
    while node is not None:
        node, entry = node
        entries.append(entry)
    entries.reverse()
    return entries


def _facts(state: GameState, entries: list[tuple[Move, int, int, int]]) -> dict[int, int]:
    """Rank masks implied by the public history beyond the engine's records.

    * a piece removed by a strike while the game went on was not the Flag,
      and the one removed by the last strike of a game won by capturing the
      Flag was the Flag;
    * under "Flag on the back row wins", a piece that reached the opponent's
      back row while the game went on was not the Flag (and the one that ended
      the game that way was);
    * under Rescue, a piece that earned a Rescue decision is not a Scout, a
      piece that reached the back row when a Rescue was surely possible but
      earned none is a Scout, and a rescued piece is not a Bomb.
    """
    facts = _walk(state, entries, {})
    if state.rules.rescue.enabled:
        facts = _walk(state, entries, facts)
    return facts


def _walk(state: GameState, entries: list[tuple[Move, int, int, int]],
          before: dict[int, int]) -> dict[int, int]:
    rules = state.rules
    table = state.info.pieces
    facts: dict[int, int] = {}
    immobile = (0 if rules.movement.bombs_move else _BOMB_BIT) | (
        0 if rules.movement.flag_moves else _FLAG_BIT)

    def narrow(pid: int, mask: int) -> None:
        facts[pid] = facts.get(pid, _ALL) & mask

    silent = rules.disclosure.silent_defense

    def not_bomb(pid: int) -> bool:  # publicly known not to be a Bomb (`pid` is captured)
        if not silent:
            return table[pid].rank != Rank.BOMB  # type: ignore[union-attr]
        mask = state.known[pid] & before.get(pid, _ALL)
        if state.moved_mask >> pid & 1:
            mask &= ~immobile
        return not mask & _BOMB_BIT

    rescue = rules.rescue
    zones: tuple[tuple[int, ...], ...] = ()
    if rescue.enabled:
        depth = 5 if rescue.zone is RescueZone.HALF else rules.setup.depth
        zones = tuple(tuple(sq.index for sq in home_rows(who, depth)) for who in Player)
    occupied = {index for index, code in enumerate(state.info.initial_board) if code}
    placed = {code >> 5 for code in state.info.initial_board if code}
    captured = {pid for pid in range(1, len(table)) if pid not in placed}
    rescues = [0, 0]
    rescuers: set[int] = set()
    last = len(entries) - 1
    termination = state.outcome.termination if state.outcome is not None else None
    for i, (move, pid, dpid, code) in enumerate(entries):
        piece = table[pid]
        assert piece is not None
        owner = piece.owner
        if move.frm is None:
            if move.rescued is not None:
                narrow(pid, ~_BOMB_BIT)
                assert move.to is not None
                occupied.add(move.to.index)
                captured.discard(pid)
                rescues[owner] += 1
                rescuers.add(entries[i - 1][1] if i else 0)
            continue
        assert move.to is not None
        frm, to = move.frm.index, move.to.index
        occupied.discard(frm)
        stays = True
        if dpid:
            if code in (ATTACKER_WINS, BOTH_REMOVED):
                captured.add(dpid)
                if i == last and termination is Termination.FLAG_CAPTURED:
                    narrow(dpid, _FLAG_BIT)
                else:
                    narrow(dpid, ~_FLAG_BIT)
            if code in (DEFENDER_WINS, BOTH_REMOVED):
                captured.add(pid)
                stays = False
            if code == BOTH_REMOVED:
                occupied.discard(to)
        else:
            occupied.add(to)
        if not stays or to not in _BACK_ROWS[owner]:
            continue
        ended = i == last and termination is not None
        if rules.flag_on_back_row_wins and not dpid:
            if ended and termination is Termination.FLAG_REACHED_BACK_ROW:
                narrow(pid, _FLAG_BIT)
                continue
            narrow(pid, ~_FLAG_BIT)
        if not rescue.enabled or (ended and termination in (
                Termination.FLAG_CAPTURED, Termination.FLAG_REACHED_BACK_ROW)):
            continue
        earned = (entries[i + 1][0].frm is None) if i < last else (state.pending == pid)
        if earned:
            narrow(pid, ~_SCOUT_BIT)
        elif (rescues[owner] < rescue.max_rescues and pid not in rescuers
              and any(sq not in occupied for sq in zones[owner])
              and any(table[q].owner == owner and not_bomb(q)  # type: ignore[union-attr]
                      for q in captured)):
            narrow(pid, _SCOUT_BIT)
    return facts


def _long_move_rank(frm: int, to: int, rules: Rules) -> Rank | None:
    """The rank a move of more than one square shows (a Scout's, or under Ultimate
    Lightning a Captain's two-step off a straight line), else None."""
    fr, ff = divmod(frm, 10)
    tr, tf = divmod(to, 10)
    distance = abs(fr - tr) + abs(ff - tf)
    if distance < 2:
        return None
    straight = fr == tr or ff == tf
    if rules.movement.captain_two_step and distance == 2:
        return None if straight else Rank.CAPTAIN
    return Rank.SCOUT


def view(state: GameState, player: Player) -> PlayerView:
    """What `player` sees of `state`: own ranks, public facts, nothing hidden.

    The opponent's ranks appear only once revealed (by a strike, a long move
    only a Scout can make, or what the game's end shows); under Silent Defense
    the opponent's captured pieces whose rank was never revealed stay hidden.
    """
    try:
        player = Player.parse(player) if isinstance(player, str) else Player(player)
    except ValueError:
        raise InvalidNotationError(f"not a player: {player!r} (expected Player.RED or "
                                   f"Player.BLUE)") from None
    rules = state.rules
    silent = rules.disclosure.silent_defense
    entries = _history_entries(state)
    facts = _facts(state, entries)
    table = state.info.pieces
    immobile = (0 if rules.movement.bombs_move else _BOMB_BIT) | (
        0 if rules.movement.flag_moves else _FLAG_BIT)
    army_mask = sum(1 << r for r in Rank if rules.army.count(r))
    start_of: dict[int, int] = {}
    for index, code in enumerate(state.info.initial_board):
        if code:
            start_of[code >> 5] = index

    def seen(pid: int) -> SeenPiece:
        piece = table[pid]
        assert piece is not None
        known = state.known[pid]
        moved = bool(state.moved_mask >> pid & 1)
        where = state.where[pid]
        square = SQUARES[where] if where >= 0 else None
        start = start_of.get(pid)
        rank: Rank | None
        if piece.owner == player or (square is None and not silent):
            rank = piece.rank
            possible = frozenset((rank,))
        else:
            mask = known & facts.get(pid, _ALL) & army_mask
            if moved:
                mask &= ~immobile
            possible = _ranks(mask)
            rank = next(iter(possible)) if len(possible) == 1 else None
        return SeenPiece(pid, piece.owner, square, rank, moved, possible, _ranks(known),
                         SQUARES[start] if start is not None else None)

    pieces = tuple(seen(code >> 5) for code in state.board if code)
    captured = tuple(seen(pid) for pid in range(1, len(table)) if state.captured_mask >> pid & 1)
    by_id = {p.id: p for p in pieces + captured}

    strike = strike_table(rules.strike)
    consistent = [[sum(1 << d for d in Rank if strike[a][d] == c) for c in range(3)]
                  for a in Rank]
    history = []
    ply = 0
    last = len(entries) - 1
    for i, (move, pid, dpid, code) in enumerate(entries):
        piece = table[pid]
        assert piece is not None
        own = piece.owner == player
        shown: Move | None = move
        rank: Rank | None = piece.rank if own else None
        defender_rank: Rank | None = None
        result = None
        if move.frm is None:
            to = move.to
            if move.rescued is not None and not own:
                if silent:
                    shown = None
                else:
                    rank = piece.rank
        else:
            to = move.to
            assert to is not None
            if not dpid and not own and _long_move_rank(move.frm.index, to.index, rules):
                rank = _long_move_rank(move.frm.index, to.index, rules)
            if dpid:
                defender = table[dpid]
                assert defender is not None
                result = _RESULTS[code]
                rank = piece.rank  # a strike always reveals the attacker
                if defender.owner == player or not silent or piece.rank == Rank.SCOUT:
                    defender_rank = defender.rank
                elif (i == last and state.outcome is not None
                        and state.outcome.termination is Termination.FLAG_CAPTURED):
                    defender_rank = Rank.FLAG  # the end of the game shows it
                else:
                    shown_mask = consistent[piece.rank][code] & army_mask
                    if shown_mask and shown_mask & (shown_mask - 1) == 0:
                        defender_rank = Rank(shown_mask.bit_length() - 1)
        history.append(SeenPly(ply, piece.owner, shown, to, pid, dpid or None, rank,
                               defender_rank, result))
        if not (move.frm is not None and ((i < last and entries[i + 1][0].frm is None)
                                           or (i == last and state.pending))):
            ply += 1

    my_turn = state.outcome is None and state.to_move == player
    armies = tuple(
        tuple(sum(1 for p in table if p is not None and p.owner == who and p.rank == r)
              for r in Rank)
        for who in Player
    )
    chase = state.chase
    return PlayerView(
        player=player,
        rules=rules,
        to_move=state.to_move,
        ply=state.ply,
        outcome=state.outcome,
        legal_moves=legal_moves(state) if my_turn else (),
        pieces=pieces,
        captured=captured,
        history=tuple(history),
        pending_rescue=by_id[state.pending] if state.pending else None,
        armies=(armies[0], armies[1]),
        first_player=Player(state.info.initial_turn),
        shuttles=state.shuttles,
        rescues=(state.rescues[0], state.rescues[1]),
        rescuers=frozenset(pid for pid in range(len(table)) if state.rescues[2] >> pid & 1),
        chase=(chase[0], len(chase) - 1) if chase else (0, 0),
        last_to=SQUARES[state.last_to] if state.last_to >= 0 else None,
    )


# ---------------------------------------------------------------------------
# JSON


def _square_name(square: Square | None) -> str | None:
    return None if square is None else square.name


def _rank_symbol(rank: Rank | None) -> str | None:
    return None if rank is None else rank.symbol


def _symbols(ranks: frozenset[Rank]) -> str:
    return "".join(r.symbol for r in sorted(ranks))


def _piece_dict(piece: SeenPiece) -> dict[str, Any]:
    return {
        "id": piece.id,
        "owner": str(piece.owner),
        "square": _square_name(piece.square),
        "start": _square_name(piece.start),
        "rank": _rank_symbol(piece.rank),
        "moved": piece.moved,
        "possible": _symbols(piece.possible),
        "disclosed": _symbols(piece.disclosed),
    }


def _ply_dict(ply: SeenPly) -> dict[str, Any]:
    return {
        "ply": ply.ply,
        "player": str(ply.player),
        "move": None if ply.move is None else str(ply.move),
        "to": _square_name(ply.to),
        "piece": ply.piece,
        "defender": ply.defender,
        "rank": _rank_symbol(ply.rank),
        "defender_rank": _rank_symbol(ply.defender_rank),
        "result": ply.result,
    }


def _to_dict(v: PlayerView) -> dict[str, Any]:
    outcome = None
    if v.outcome is not None:
        outcome = {
            "termination": v.outcome.termination.value,
            "winner": None if v.outcome.winner is None else str(v.outcome.winner),
        }
    return {
        "schema": SCHEMA,
        "player": str(v.player),
        "rules": v.rules.name,
        "ply_limit": v.rules.ply_limit,
        "to_move": str(v.to_move),
        "ply": v.ply,
        "outcome": outcome,
        "legal_moves": [str(m) for m in v.legal_moves],
        "pieces": [_piece_dict(p) for p in v.pieces],
        "captured": [_piece_dict(p) for p in v.captured],
        "history": [_ply_dict(h) for h in v.history],
        "pending_rescue": None if v.pending_rescue is None else v.pending_rescue.id,
        "armies": {
            str(who): {r.symbol: v.armies[who][r] for r in Rank if v.armies[who][r]}
            for who in Player
        },
        "first_player": str(v.first_player),
        "shuttles": [list(s) for s in v.shuttles],
        "rescues": list(v.rescues),
        "rescuers": sorted(v.rescuers),
        "chase": {
            "chaser": None if not v.chase[0] else str(Player(v.chase[0] - 1)),
            "positions": v.chase[1],
        },
        "last_to": _square_name(v.last_to),
    }


class _Reader:
    """Typed access to untrusted JSON data, naming the path of every error."""

    def __init__(self, data: Any, path: str) -> None:
        self.data = data
        self.path = path

    def fail(self, message: str) -> SchemaError:
        return SchemaError(f"{self.path or 'view'}: {message}")

    def obj(self) -> Mapping[str, Any]:
        if not isinstance(self.data, dict):
            raise self.fail(f"expected an object, not {_kind(self.data)}")
        return self.data

    def field(self, name: str) -> _Reader:
        data = self.obj()
        if name not in data:
            raise SchemaError(f"{self.path + '.' if self.path else ''}{name}: missing")
        return _Reader(data[name], f"{self.path + '.' if self.path else ''}{name}")

    def items(self) -> list[_Reader]:
        if not isinstance(self.data, list):
            raise self.fail(f"expected a list, not {_kind(self.data)}")
        return [_Reader(x, f"{self.path}[{i}]") for i, x in enumerate(self.data)]

    def is_null(self) -> bool:
        return self.data is None

    def int(self, minimum: int = 0) -> int:
        if isinstance(self.data, bool) or not isinstance(self.data, int):
            raise self.fail(f"expected a whole number, not {_kind(self.data)}")
        if self.data < minimum:
            raise self.fail(f"expected a number >= {minimum}, not {self.data}")
        return self.data

    def bool(self) -> bool:
        if not isinstance(self.data, bool):
            raise self.fail(f"expected true or false, not {_kind(self.data)}")
        return self.data

    def str(self) -> str:
        if not isinstance(self.data, str):
            raise self.fail(f"expected a string, not {_kind(self.data)}")
        return self.data

    def player(self) -> Player:
        text = self.str()
        if text not in ("red", "blue"):
            raise self.fail(f"expected 'red' or 'blue', not {text!r}")
        return Player.parse(text)

    def square(self) -> Square | None:
        if self.data is None:
            return None
        try:
            return Square.parse(self.str())
        except InvalidNotationError as exc:
            raise self.fail(str(exc)) from None

    def rank(self) -> Rank | None:
        if self.data is None:
            return None
        text = self.str()
        if len(text) != 1:
            raise self.fail(f"expected a rank symbol such as 'M', not {text!r}")
        try:
            return Rank.parse(text)
        except InvalidNotationError as exc:
            raise self.fail(str(exc)) from None

    def ranks(self) -> frozenset[Rank]:
        out = set()
        for ch in self.str():
            try:
                out.add(Rank.parse(ch))
            except InvalidNotationError as exc:
                raise self.fail(str(exc)) from None
        return frozenset(out)

    def move(self) -> Move | None:
        if self.data is None:
            return None
        try:
            move = Move.parse(self.str())
        except InvalidNotationError as exc:
            raise self.fail(str(exc)) from None
        if move.frm is not None and move.to is not None:
            interned = MOVE_TABLE[move.frm.index][move.to.index]
            if interned is None:
                raise self.fail(f"no piece can ever move {move}")
            return interned
        return DECLINE_RESCUE if move.is_decline else move


def _non_null_move(r: _Reader) -> Move:
    move = r.move()
    if move is None:
        raise r.fail("expected a move, not null")
    return move


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def _read_piece(r: _Reader) -> SeenPiece:
    return SeenPiece(
        id=r.field("id").int(1),
        owner=r.field("owner").player(),
        square=r.field("square").square(),
        rank=r.field("rank").rank(),
        moved=r.field("moved").bool(),
        possible=r.field("possible").ranks(),
        disclosed=r.field("disclosed").ranks(),
        start=r.field("start").square(),
    )


def _read_ply(r: _Reader) -> SeenPly:
    result = r.field("result")
    if not result.is_null() and result.str() not in _CODES:
        raise result.fail(f"expected 'attacker', 'defender', 'both' or null, not {result.data!r}")
    defender = r.field("defender")
    return SeenPly(
        ply=r.field("ply").int(),
        player=r.field("player").player(),
        move=r.field("move").move(),
        to=r.field("to").square(),
        piece=r.field("piece").int(1),
        defender=None if defender.is_null() else defender.int(1),
        rank=r.field("rank").rank(),
        defender_rank=r.field("defender_rank").rank(),
        result=None if result.is_null() else result.str(),
    )


def _from_dict(data: Any) -> PlayerView:
    from stratego.editions import by_name

    root = _Reader(data, "")
    schema = root.field("schema")
    if schema.data != SCHEMA:
        raise schema.fail(f"expected {SCHEMA!r}, not {schema.data!r}")
    rules_field = root.field("rules")
    try:
        rules = by_name(rules_field.str())
    except RulesError as exc:
        raise rules_field.fail(str(exc)) from None
    limit = root.field("ply_limit")
    if not limit.is_null():
        rules = rules.with_ply_limit(limit.int(1))
    outcome_field = root.field("outcome")
    outcome = None
    if not outcome_field.is_null():
        term = outcome_field.field("termination")
        try:
            termination = Termination(term.str())
        except ValueError:
            raise term.fail(
                f"expected one of {', '.join(repr(t.value) for t in Termination)}, "
                f"not {term.data!r}") from None
        winner = outcome_field.field("winner")
        outcome = Outcome(termination, None if winner.is_null() else winner.player())
    pieces = tuple(_read_piece(r) for r in root.field("pieces").items())
    captured = tuple(_read_piece(r) for r in root.field("captured").items())
    ids = [p.id for p in pieces + captured]
    if len(set(ids)) != len(ids):
        raise root.fail("a piece id appears twice among pieces and captured")
    for where, group, on_board in (("pieces", pieces, True), ("captured", captured, False)):
        for i, p in enumerate(group):
            if (p.square is not None) != on_board:
                raise SchemaError(f"{where}[{i}].square: "
                                  + ("a piece on the board needs a square" if on_board
                                     else "a captured piece has no square (null)"))
            if p.rank is not None and p.possible != frozenset((p.rank,)):
                raise SchemaError(f"{where}[{i}].possible: a known rank's only possibility")
    squares = [p.square for p in pieces]
    if len(set(squares)) != len(squares):
        raise root.fail("two pieces stand on the same square")
    history = tuple(_read_ply(r) for r in root.field("history").items())
    pending_field = root.field("pending_rescue")
    pending = None
    if not pending_field.is_null():
        pid = pending_field.int(1)
        pending = next((p for p in pieces if p.id == pid), None)
        if pending is None:
            raise pending_field.fail(f"no piece with id {pid} on the board")
    armies_field = root.field("armies")
    armies = []
    for who in Player:
        counts = [0] * len(Rank)
        army = armies_field.field(str(who))
        for symbol in army.obj():
            rank = _Reader(symbol, f"{army.path}.{symbol}").rank()
            assert rank is not None
            counts[rank] = army.field(symbol).int()
        armies.append(tuple(counts))
    shuttles = []
    for r in root.field("shuttles").items():
        values = [x.int() for x in r.items()]
        if len(values) != 4:
            raise r.fail("expected [piece id, low square, high square, count]")
        shuttles.append((values[0], values[1], values[2], values[3]))
    if len(shuttles) != 2:
        raise root.field("shuttles").fail("expected one entry for Red and one for Blue")
    rescues = [x.int() for x in root.field("rescues").items()]
    if len(rescues) != 2:
        raise root.field("rescues").fail("expected [Red's rescues, Blue's rescues]")
    chase_field = root.field("chase")
    chaser = chase_field.field("chaser")
    chase = (0 if chaser.is_null() else chaser.player() + 1, chase_field.field("positions").int())
    return PlayerView(
        player=root.field("player").player(),
        rules=rules,
        to_move=root.field("to_move").player(),
        ply=root.field("ply").int(),
        outcome=outcome,
        legal_moves=tuple(_non_null_move(x) for x in root.field("legal_moves").items()),
        pieces=pieces,
        captured=captured,
        history=history,
        pending_rescue=pending,
        armies=(armies[0], armies[1]),
        first_player=root.field("first_player").player(),
        shuttles=(shuttles[0], shuttles[1]),
        rescues=(rescues[0], rescues[1]),
        rescuers=frozenset(x.int(1) for x in root.field("rescuers").items()),
        chase=chase,
        last_to=root.field("last_to").square(),
    )
