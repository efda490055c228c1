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

import itertools
import json
import math
import operator
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import attrs

from stratego.board import BACK_ROWS, SQUARES, Square
from stratego.engine import legal_moves
from stratego.errors import (
    InvalidNotationError,
    PositionError,
    SchemaError,
    _shown,
)
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.repetition import chase_moves
from stratego.rescue import rescue_component
from stratego.rules import Rules
from stratego.state import GameInfo, GameState, Outcome, Termination
from stratego.strike import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS, strike_table

__all__ = ["SCHEMA", "STRIKE_RESULTS", "PlayerView", "SchemaError", "SeenHistory", "SeenPiece",
           "SeenPly", "rank_masks", "view"]

SCHEMA = "stratego.view/1"
"""The value of the ``"schema"`` field written by `PlayerView.to_json`."""

_RESULTS = {ATTACKER_WINS: "attacker", DEFENDER_WINS: "defender", BOTH_REMOVED: "both"}
STRIKE_RESULTS = ("attacker", "defender", "both")
"""The values `SeenPly.result` takes for a strike (None when nothing was struck)."""
_ALL = (1 << len(Rank)) - 1
_FLAG_BIT = 1 << Rank.FLAG
_BOMB_BIT = 1 << Rank.BOMB
_SCOUT_BIT = 1 << Rank.SCOUT


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


class SeenHistory(Sequence[SeenPly]):
    """The public history of a view: an immutable sequence of `SeenPly`, oldest first.

    It behaves as a tuple of plies (length, indexing, slicing into a tuple, iteration,
    equality with another history or a tuple of the same plies, hashing, pickling), but
    the views of one game share one store of plies instead of copying it, so building a
    view costs the same at ply 10 and at ply 10,000. ``SeenHistory(plies)`` builds one
    from any iterable of plies.
    """

    __slots__ = ("_base", "_cut", "_hash", "_tail")

    def __init__(self, plies: Iterable[SeenPly] = ()) -> None:
        self._base: tuple[SeenPly, ...] = tuple(plies)
        self._cut = len(self._base)
        self._tail: tuple[SeenPly, ...] = ()
        self._hash: int | None = None

    @classmethod
    def _shared(cls, base: tuple[SeenPly, ...], cut: int,
                tail: tuple[SeenPly, ...]) -> SeenHistory:
        """``base[:cut] + tail`` without copying `base`."""
        made = cls.__new__(cls)
        made._base, made._cut, made._tail, made._hash = base, cut, tail, None
        return made

    def __len__(self) -> int:
        return self._cut + len(self._tail)

    @overload
    def __getitem__(self, index: int) -> SeenPly: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[SeenPly, ...]: ...

    def __getitem__(self, index: int | slice) -> SeenPly | tuple[SeenPly, ...]:
        cut = self._cut
        if isinstance(index, slice):
            start, stop, step = index.indices(cut + len(self._tail))
            if step != 1:
                return tuple(self)[index]
            if stop <= cut:
                return self._base[start:stop]
            if start >= cut:
                return self._tail[start - cut:stop - cut]
            return self._base[start:cut] + self._tail[:stop - cut]
        try:
            i = operator.index(index)
        except TypeError:
            raise TypeError(f"history indices must be integers or slices, not "
                            f"{type(index).__name__}") from None
        n = cut + len(self._tail)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"history index out of range: {index} (the history has {n} "
                             f"plies)")
        return self._base[i] if i < cut else self._tail[i - cut]

    def __iter__(self) -> Iterator[SeenPly]:
        base = self._base
        if self._cut == len(base):
            yield from base
        else:
            yield from itertools.islice(base, self._cut)
        yield from self._tail

    def __reversed__(self) -> Iterator[SeenPly]:
        yield from reversed(self._tail)
        base = self._base
        for i in range(self._cut - 1, -1, -1):
            yield base[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeenHistory):
            if len(other) != len(self):
                return False
            if other._base is self._base and other._cut == self._cut:
                return other._tail == self._tail
            return all(a == b for a, b in zip(self, other, strict=True))
        if isinstance(other, tuple):
            return len(other) == len(self) and all(
                a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __add__(self, other: object) -> tuple[SeenPly, ...]:
        if isinstance(other, SeenHistory | tuple):
            return tuple(self) + tuple(other)
        return NotImplemented

    def __reduce__(self) -> tuple[Any, ...]:
        return (SeenHistory, (tuple(self),))

    def __repr__(self) -> str:
        return f"<SeenHistory of {len(self)} plies>"


def _history(value: Iterable[SeenPly]) -> SeenHistory:
    return value if isinstance(value, SeenHistory) else SeenHistory(value)


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
    of the current back-and-forth run, then, under a window reading, the squares the
    piece left on those moves, newest first), `rescues` (Rescues made by Red and
    Blue), `rescuers` (ids of pieces that earned a Rescue), `chase` (the
    chasing player + 1, or 0, and how many positions the current chase has
    recorded; Jumbo 2014 and ISF), `last_to` (where the last quiet move ended; under
    ISF 11 also a strike whose striker stays) and `chase_moves` (the quiet moves of
    the current chase, oldest first: both players saw them, and a view of a position
    read without its history still has them).
    """

    player: Player
    rules: Rules
    to_move: Player
    ply: int
    outcome: Outcome | None
    legal_moves: tuple[Move, ...]
    pieces: tuple[SeenPiece, ...]
    captured: tuple[SeenPiece, ...]
    history: SeenHistory = attrs.field(converter=_history)
    pending_rescue: SeenPiece | None
    armies: tuple[tuple[int, ...], tuple[int, ...]]
    first_player: Player = Player.RED
    shuttles: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 0, 0, 0), (0, 0, 0, 0))
    rescues: tuple[int, int] = (0, 0)
    rescuers: frozenset[int] = frozenset()
    chase: tuple[int, int] = (0, 0)
    last_to: Square | None = None
    chase_moves: tuple[Move, ...] = ()

    def __repr__(self) -> str:
        status = str(self.outcome) if self.outcome else f"{self.to_move} to move"
        return (f"<PlayerView of {self.player}, {self.rules.name} ply {self.ply}, {status}, "
                f"{len(self.pieces)} pieces on the board>")

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
        raise InvalidNotationError(f"no piece with id {_shown(piece_id)} in this game")

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

    def final_outcome(self) -> Outcome:
        """The outcome of a finished game, with no `None` to unwrap once `is_over` is
        true (as `GameState.final_outcome`); raises `PositionError` while the game goes
        on."""
        if self.outcome is None:
            raise PositionError(f"the game is not over ({self.to_move} to move, ply {self.ply})")
        return self.outcome

    @property
    def is_my_turn(self) -> bool:
        """Whether the viewer is to move (or to decide a Rescue) in a game that is on."""
        return self.outcome is None and self.to_move == self.player

    # -- JSON ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON-ready data (schema ``"stratego.view/1"``)."""
        from stratego.view_json import view_to_dict

        return view_to_dict(self)

    def to_json(self, indent: int | None = None) -> str:
        """The view as JSON text (schema ``"stratego.view/1"``)."""
        from stratego.view_json import view_to_dict

        if indent is not None and not (isinstance(indent, int) and 0 <= indent <= 16):
            raise SchemaError(f"indent: expected None or 0-16, not {_shown(indent)}")
        return json.dumps(view_to_dict(self), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> PlayerView:
        """Rebuild a view from `to_dict` data; raises `SchemaError` naming the bad field."""
        from stratego.view_json import view_from_dict

        return view_from_dict(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """Rebuild a view from `to_json` text; raises `SchemaError` naming the bad field.

        Only the form is checked (types, squares, moves, ranks, ids), not that
        the position could arise in a game."""
        if not isinstance(text, str | bytes | bytearray):
            raise SchemaError(f"not JSON text: {type(text).__name__}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise SchemaError(f"not JSON: {exc}") from None
        from stratego.view_json import view_from_dict

        return view_from_dict(data)


# ---------------------------------------------------------------------------
# building a view
#
# A view reads the whole public history. So that its cost does not grow with
# the game, the history is folded one entry at a time and the fold is cached
# per history node (`GameState.history` is a persistent linked list shared by
# a state and its successors): the view of a state resumes from the nearest
# ancestor node with a cached `_Snapshot`.
#
# The snapshot of a node is the fold of every entry before the node's own
# entry. Those entries are final: what they show can depend on the entry
# after them (whether a Rescue decision followed), and that one is known. The
# node's own entry, the last one of the state's history, is folded when the
# view is built, on a copy, with what only the state knows (how the game
# ended, whether a Rescue decision is pending).

_Entry = tuple[Move, int, int, int]  # one history entry: move, piece, struck piece, strike code
_W = len(Rank)  # bits per piece in a packed integer of rank masks
_CACHE_SIZE = 4096  # snapshots kept (per history node and player; least recently used go)
_CHECKPOINT = 128  # a long fold also caches a snapshot every this many entries
_TAIL = 64  # entries a snapshot may add to its parent's history tuple before rebasing it
_GAMES_SIZE = 64  # games whose `_Game` tables are kept
_SEEN_SIZE = 2048  # `SeenPiece` values kept per game
_STRIKE_CODES = (ATTACKER_WINS, DEFENDER_WINS, BOTH_REMOVED)

_lock = threading.Lock()
_cache: dict[int, _Snapshot] = {}  # id(node) * 2 + player -> snapshot; it holds the node
_games: dict[int, _Game] = {}  # id(info) -> tables; the tables hold the info
_rank_sets: dict[int, frozenset[Rank]] = {}
_long_tables: dict[bool, tuple[Rank | None, ...]] = {}


_EMPTY_HISTORY = SeenHistory()


def _ranks(mask: int) -> frozenset[Rank]:
    ranks = _rank_sets.get(mask)
    if ranks is None:
        ranks = _rank_sets[mask] = frozenset(r for r in Rank if mask >> r & 1)
    return ranks


def _clear_cache() -> None:
    """Forget every cached history fold (the next views are computed from the start)."""
    with _lock:
        _cache.clear()
        _games.clear()


class _Game:
    """What every view of one game shares: per-piece tables and rule switches."""

    __slots__ = ("armies", "army_mask", "first_player", "flag_wins", "immobile", "info",
                 "long_ranks", "max_rescues", "no_flag", "not_bomb", "own", "owner", "pid_bits",
                 "rank", "relabel", "rescue", "rules", "seen", "shown", "silent", "start",
                 "starts", "table", "zones")

    def __init__(self, info: GameInfo) -> None:
        rules = info.rules
        table = info.pieces
        self.info = info
        self.rules = rules
        self.table = table
        self.silent = rules.disclosure.silent_defense
        self.rescue = rules.rescue.enabled
        # Silent Defense with Rescue: a hidden rescue makes the owner's captured pieces
        # interchangeable for the opponent, whose view then relabels them (`_relabel`)
        self.relabel = self.silent and self.rescue
        self.max_rescues = rules.rescue.max_rescues
        self.flag_wins = rules.flag_on_back_row_wins
        self.immobile = (0 if rules.movement.bombs_move else _BOMB_BIT) | (
            0 if rules.movement.flag_moves else _FLAG_BIT)
        self.army_mask = army_mask = sum(1 << r for r in Rank if rules.army.count(r))
        strike = strike_table(rules.strike)
        shown: list[tuple[Rank | None, ...]] = []
        for a in Rank:  # the defender rank a Silent-Defense strike result still shows
            row: list[Rank | None] = []
            for code in _STRIKE_CODES:
                mask = sum(1 << d for d in Rank if strike[a][d] == code) & army_mask
                row.append(Rank(mask.bit_length() - 1) if mask and not mask & (mask - 1)
                           else None)
            shown.append(tuple(row))
        self.shown = tuple(shown)
        self.owner = tuple(-1 if p is None else int(p.owner) for p in table)
        self.rank = tuple(0 if p is None else int(p.rank) for p in table)
        self.seen: dict[int, SeenPiece] = {}  # by `_seen_pieces` key
        self.long_ranks = _long_ranks(rules.movement.captain_two_step)
        self.pid_bits = len(table).bit_length()
        self.own = tuple(sum(1 << pid for pid, p in enumerate(table)
                             if p is not None and p.owner == who) for who in Player)
        self.not_bomb = sum(1 << pid for pid, p in enumerate(table)
                            if p is not None and p.rank != Rank.BOMB)
        red_army, blue_army = (
            tuple(sum(1 for p in table if p is not None and p.owner == who and p.rank == r)
                  for r in Rank)
            for who in Player
        )
        self.armies = (red_army, blue_army)
        self.first_player = Player(info.initial_turn)
        starts: list[Square | None] = [None] * len(table)
        occupied = 0
        for index, code in enumerate(info.initial_board):
            if code:
                starts[code >> 5] = SQUARES[index]
                occupied |= 1 << index
        self.starts = tuple(starts)
        self.zones = (0, 0)  # the squares a rescued piece may come back to, per player
        component = rescue_component(rules)
        if component is not None:
            red, blue = (sum(1 << sq for sq in zone) for zone in component.zones)
            self.zones = (red, blue)
        walk = _Walk()
        walk.facts = (1 << _W * len(table)) - 1
        # A piece captured when the position was set up is no Flag (`from_position`
        # refuses a captured Flag: capturing it ends the game).
        self.no_flag = sum(_FLAG_BIT << _W * pid for pid in range(1, len(table))
                           if starts[pid] is None)
        walk.ply = 0
        walk.prev = 0
        walk.cap = sum(1 << pid for pid in range(1, len(table)) if starts[pid] is None)
        self.start = _Snapshot(None, self, walk, (), 0, ())


def _game(info: GameInfo) -> _Game:
    game = _games.get(id(info))
    if game is None or game.info is not info:
        game = _Game(info)
        with _lock:
            if len(_games) >= _GAMES_SIZE:
                _games.clear()
            _games[id(info)] = game
    return game


class _Walk:
    """The running fold of history entries.

    * `facts`: per piece, the ranks the public history still allows, beyond
      the engine's records (`_W` bits per piece id);
    * `ply`: the ply shown by the next entry; `prev`: the piece of the last
      entry folded (0 before the first);
    * under Silent Defense with Rescue only (`_Game.relabel`): `cap`, the captured
      pieces (a bit mask of ids); `lab`, the id the viewer knows each piece by (None:
      its own id); `anon`, the captured pieces a hidden rescue made anonymous; `mixed`,
      every piece that was in a pile a hidden rescue came from.
    """

    __slots__ = ("anon", "cap", "facts", "lab", "mixed", "ply", "prev")

    facts: int
    ply: int
    prev: int
    cap: int
    lab: tuple[int, ...] | None
    anon: int
    mixed: int

    def __init__(self) -> None:
        self.cap = 0
        self.lab = None
        self.anon = 0
        self.mixed = 0

    def copy(self) -> _Walk:
        """A copy to fold on; `self` is left as it is."""
        other = _Walk()
        other.facts = self.facts
        other.ply = self.ply
        other.prev = self.prev
        other.cap = self.cap
        other.lab = self.lab
        other.anon = self.anon
        other.mixed = self.mixed
        return other


class _Snapshot:
    """The fold of the history entries before `node`'s own entry (`node` None: the
    start of the game), with the `SeenPly` history of those entries as one player
    saw them: ``base[:cut] + tail``. Never changed once made."""

    __slots__ = ("base", "cut", "game", "node", "tail", "walk")

    def __init__(self, node: Any, game: _Game, walk: _Walk, base: tuple[SeenPly, ...],
                 cut: int, tail: tuple[SeenPly, ...]) -> None:
        self.node = node
        self.game = game
        self.walk = walk
        self.base = base
        self.cut = cut
        self.tail = tail

    def history(self) -> tuple[SeenPly, ...]:
        return self.base[:self.cut] + self.tail


def _step(g: _Game, w: _Walk, entry: _Entry, successor: Move | None, player: int,
          termination: Termination | None = None, pending: int = 0) -> None:
    """Fold `entry` into `w`, for the view of `player`.

    `successor` is the move of the entry after it, or None when `entry` is
    the last one; then `termination` and `pending` are the state's. What an
    entry adds to the facts:

    * a piece removed by a strike while the game went on was not the Flag,
      and the one removed by the last strike of a game won by capturing the
      Flag was the Flag;
    * under "Flag on the back row wins", a piece that reached the opponent's
      back row while the game went on was not the Flag (and the one that ended
      the game that way was);
    * under Rescue, a piece that made a rescue is not a Scout and a rescued
      piece is not a Bomb. (Whether a Rescue decision comes shows nothing: the
      engine offers one on public facts alone, a Scout's owner may only decline.)

    Under Silent Defense with Rescue, an opponent's rescue also relabels the opponent's
    captured pieces (`_relabel`).
    """
    move, pid, dpid, code = entry
    owner = g.owner[pid]
    prev = w.prev
    w.prev = pid
    if move.frm is None:
        w.ply += 1
        if move.rescued is not None:
            if g.relabel:
                if owner != player:
                    _relabel(g, w, pid, owner)
                w.cap &= ~(1 << pid)
            w.facts &= ~(_BOMB_BIT << _W * pid | _SCOUT_BIT << _W * prev)
        return
    if successor is None or successor.frm is not None:
        w.ply += 1  # a move and the Rescue decision it earned share a ply
    to = move.ti
    stays = True
    last = successor is None
    if dpid:
        if g.relabel:
            if code != DEFENDER_WINS:
                w.cap |= 1 << dpid
            if code != ATTACKER_WINS:
                w.cap |= 1 << pid
        if code in (ATTACKER_WINS, BOTH_REMOVED):
            if last and termination is Termination.FLAG_CAPTURED:
                w.facts &= ~((_ALL ^ _FLAG_BIT) << _W * dpid)
            else:
                w.facts &= ~(_FLAG_BIT << _W * dpid)
        if code in (DEFENDER_WINS, BOTH_REMOVED):
            stays = False
    if not stays or to not in BACK_ROWS[owner]:
        return
    ended = last and termination is not None
    if g.flag_wins and not dpid:
        if ended and termination is Termination.FLAG_REACHED_BACK_ROW:
            w.facts &= ~((_ALL ^ _FLAG_BIT) << _W * pid)
            return
        w.facts &= ~(_FLAG_BIT << _W * pid)


def _relabel(g: _Game, w: _Walk, pid: int, owner: int) -> None:
    """Fold a rescue of piece `pid` that its owner's opponent, the viewer, does not see
    (Silent Defense): the viewer saw *some* piece of the owner's face-down pile come
    back, so it may not know which. The pile's pieces trade ids, by a rule that reads
    only public facts: the piece that came back takes the lowest id of the pile, the
    others the remaining ids in the order they had; whatever piece came back, the
    viewer sees the same ids. The pieces left in the pile become anonymous: the view
    shows for each the engine's public record of the whole pile (`_seen_pieces`), and
    for the piece that came back that record without the Bomb (`Rescue.disclosed`)."""
    pile = (w.cap | 1 << pid) & g.own[owner]
    lab = list(w.lab) if w.lab is not None else list(range(len(g.table)))
    members = [x for x in range(pile.bit_length()) if pile >> x & 1]
    labels = sorted(lab[x] for x in members)
    old = lab[pid]
    shifted = dict(itertools.pairwise(labels))
    for x in members:
        if x == pid:
            lab[x] = labels[0]
        elif lab[x] < old:
            lab[x] = shifted[lab[x]]
    w.lab = tuple(lab)
    w.anon = (w.anon | pile) & ~(1 << pid)
    w.mixed |= pile
    w.facts = w.facts & ~(_ALL << _W * pid) | (_ALL ^ _FLAG_BIT) << _W * pid


def _long_move_rank(frm: int, to: int, captain_two_step: bool) -> Rank | None:
    """The rank a move of more than one square shows (a Scout's, or under Ultimate
    Lightning a Captain's two-step off a straight line), else None."""
    fr, ff = divmod(frm, 10)
    tr, tf = divmod(to, 10)
    distance = abs(fr - tr) + abs(ff - tf)
    if distance < 2:
        return None
    straight = fr == tr or ff == tf
    if captain_two_step and distance == 2:
        return None if straight else Rank.CAPTAIN
    return Rank.SCOUT


def _long_ranks(captain_two_step: bool) -> tuple[Rank | None, ...]:
    """`_long_move_rank` for every pair of square indices, by ``100 * frm + to``."""
    table = _long_tables.get(captain_two_step)
    if table is None:
        table = _long_tables[captain_two_step] = tuple(
            _long_move_rank(frm, to, captain_two_step) for frm in range(100) for to in range(100))
    return table


def _seen_ply(g: _Game, entry: _Entry, ply: int, player: Player,
              flag_end: bool = False, lab: tuple[int, ...] | None = None) -> SeenPly:
    """`entry` as `player` saw it; `flag_end`: it is the strike that won the game by
    capturing the Flag; `lab`: the ids `player` knows the pieces by (`_Walk.lab`)."""
    seen = _seen_entry(g, entry, ply, player, flag_end)
    if lab is None:
        return seen
    return attrs.evolve(seen, piece=lab[seen.piece],
                        defender=None if seen.defender is None else lab[seen.defender])


def _seen_entry(g: _Game, entry: _Entry, ply: int, player: Player,
                flag_end: bool) -> SeenPly:
    move, pid, dpid, code = entry
    piece = g.table[pid]
    assert piece is not None
    owner = piece.owner
    rank: Rank | None = piece.rank
    if move.frm is None:
        if owner == player or (move.rescued is not None and not g.silent):
            return SeenPly(ply, owner, move, move.to, pid, None, rank)
        if move.rescued is None:  # a declined Rescue
            return SeenPly(ply, owner, move, None, pid)
        return SeenPly(ply, owner, None, move.to, pid)  # Silent Defense hides the rank
    if dpid:
        defender = g.table[dpid]
        assert defender is not None
        # a strike always reveals the attacker; the defender answers unless Silent
        # Defense keeps it silent (a Scout's strike and the end of the game still show it)
        answer: Rank | None = defender.rank
        if defender.owner != player and g.silent and rank != Rank.SCOUT:
            answer = Rank.FLAG if flag_end else g.shown[piece.rank][code]
        return SeenPly(ply, owner, move, move.to, pid, dpid, rank, answer, _RESULTS[code])
    if owner != player:
        rank = g.long_ranks[move.fi * 100 + move.ti]  # None, unless a long move shows it
    return SeenPly(ply, owner, move, move.to, pid, None, rank)


def _seen_pieces(g: _Game, state: GameState, player: Player, facts: int,
                 pids: list[int], lab: tuple[int, ...] | None = None,
                 anon: int = 0) -> tuple[SeenPiece, ...]:
    """The pieces `pids` of `state` as `player` sees them, given the packed `facts`;
    `lab` and `anon` as `_Walk` has them (the ids the player knows the pieces by, the
    anonymous captured pieces: the engine's public record of their pile, not known to have
    moved)."""
    silent = g.silent
    immobile = g.immobile
    army_mask = g.army_mask
    owners = g.owner
    ranks = g.rank
    known = state.known
    moved_mask = state.moved_mask
    where = state.where
    made = g.seen
    pid_bits = g.pid_bits
    out = []
    for pid in pids:
        mask = known[pid]
        moved = moved_mask >> pid & 1
        index = where[pid]
        if owners[pid] == player or (index < 0 and not silent):
            possible = 1 << ranks[pid]
        elif anon >> pid & 1:
            possible = mask & army_mask & ~_FLAG_BIT
            moved = 0
        else:
            possible = mask & facts >> _W * pid & army_mask
            if moved:
                possible &= ~immobile
        seen_id = pid if lab is None else lab[pid]
        key = (((mask << _W | possible) << 1 | moved) << 7 | index + 1) << pid_bits | seen_id
        piece = made.get(key)
        if piece is None:
            ranks_left = _ranks(possible)
            piece = SeenPiece(seen_id, Player(owners[pid]),
                              SQUARES[index] if index >= 0 else None,
                              next(iter(ranks_left)) if len(ranks_left) == 1 else None,
                              bool(moved), ranks_left, _ranks(mask), g.starts[seen_id])
            if len(made) >= _SEEN_SIZE:
                made.clear()
            made[key] = piece
        out.append(piece)
    return tuple(out)


def _snapshot(info: GameInfo, node: Any, player: Player) -> _Snapshot:
    """The snapshot of `node`, a history node of a game of `info`, for `player`:
    cached, or folded from the nearest ancestor cached for `player`."""
    key = id(node) << 1 | player
    hit = _cache.get(key)
    if hit is not None and hit.node is node and hit.game.info is info:
        with _lock:  # most recently used last
            if _cache.pop(key, None) is hit:
                _cache[key] = hit
        return hit
    path = [node]
    start = None
    ancestor = node[0]
    while ancestor is not None:
        path.append(ancestor)
        hit = _cache.get(id(ancestor) << 1 | player)
        if hit is not None and hit.node is ancestor and hit.game.info is info:
            start = hit
            break
        ancestor = ancestor[0]
    if start is None:
        start = _game(info).start
    g = start.game
    path.reverse()  # path[0]'s snapshot is `start`
    w = start.walk.copy()
    seen: list[SeenPly] = []
    marks: list[tuple[int, _Walk]] = []
    steps = len(path) - 1
    for j in range(steps):
        entry = path[j][1]
        ply = w.ply
        _step(g, w, entry, path[j + 1][1][0], player)
        seen.append(_seen_ply(g, entry, ply, player, lab=w.lab))
        if (j + 1) % _CHECKPOINT == 0 and j + 1 < steps:
            marks.append((j + 1, w.copy()))
    done = start.cut + len(start.tail)
    made = []
    if marks or len(start.tail) + steps >= max(_TAIL, math.isqrt(done + steps)):
        base = start.history() + tuple(seen)
        for j, mark in marks:
            made.append(_Snapshot(path[j], g, mark, base, done + j, ()))
        snap = _Snapshot(node, g, w, base, done + steps, ())
    else:
        snap = _Snapshot(node, g, w, start.base, start.cut, start.tail + tuple(seen))
    made.append(snap)
    with _lock:
        for made_snap in made:
            key = id(made_snap.node) << 1 | player
            _cache.pop(key, None)
            _cache[key] = made_snap
        while len(_cache) > _CACHE_SIZE:
            del _cache[next(iter(_cache))]
    return snap


def view(state: GameState, player: Player) -> PlayerView:
    """What `player` sees of `state`: own ranks, public facts, nothing hidden.

    The opponent's ranks appear only once revealed (by a strike, a long move
    only a Scout can make, or what the game's end shows); under Silent Defense
    the opponent's captured pieces whose rank was never revealed stay hidden.

    Building a view costs about the same at any point of a game: the public
    history is read incrementally, from the views built of earlier states of
    the same game (a bounded cache, safe to share between threads).

    Raises `InvalidNotationError` for a `player` that is not one (``"red"`` and
    ``"blue"`` are read as names) and `PositionError` for a `state` that is not a
    `GameState`.
    """
    if not isinstance(state, GameState):
        raise PositionError(f"not a GameState: {_shown(state)} (build one with "
                            f"stratego.new_game)")
    try:
        player = Player.parse(player) if isinstance(player, str) else Player(player)
    except ValueError:
        raise InvalidNotationError(f"not a player: {_shown(player)} (expected Player.RED or "
                                   f"Player.BLUE)") from None
    node = state.history
    termination = state.outcome.termination if state.outcome is not None else None
    history = _EMPTY_HISTORY
    lab: tuple[int, ...] | None = None
    anon = 0
    if node is None:
        g = _game(state.info)
        facts = g.start.walk.facts
    else:
        snap = _snapshot(state.info, node, player)
        g = snap.game
        w = snap.walk.copy()
        _step(g, w, node[1], None, player, termination, state.pending)
        facts = w.facts
        lab, anon = w.lab, w.anon
        last = _seen_ply(g, node[1], snap.walk.ply, player,
                         termination is Termination.FLAG_CAPTURED, lab)
        history = SeenHistory._shared(snap.base, snap.cut, (*snap.tail, last))
    no_flag = g.no_flag
    if node is None and termination is Termination.FLAG_CAPTURED:
        # a position read after the game ended: the loser's Flag was captured "before" the
        # position, so any captured piece of the loser's that may be a Flag may be it
        winner = state.final_outcome().winner
        loser = winner.opponent if winner is not None else None
        known = state.known
        captured_mask = state.captured_mask
        for pid in range(1, len(g.table)):
            if (captured_mask >> pid & 1 and g.owner[pid] == loser
                    and known[pid] & _FLAG_BIT):
                no_flag &= ~(_FLAG_BIT << _W * pid)
    facts &= ~no_flag
    pieces = _seen_pieces(g, state, player, facts,
                          [code >> 5 for code in state.board if code], lab, anon)
    captured_mask = state.captured_mask
    in_pile = [pid for pid in range(1, len(g.table)) if captured_mask >> pid & 1]
    if lab is not None:
        in_pile.sort(key=lab.__getitem__)
    captured = _seen_pieces(g, state, player, facts, in_pile, lab, anon)
    pending_rescue = None
    if state.pending:
        pending = state.pending if lab is None else lab[state.pending]
        pending_rescue = next(p for p in pieces + captured if p.id == pending)
    my_turn = state.outcome is None and state.to_move == player
    chase = state.chase
    rescuers = state.rescues[2]
    table = g.table
    shuttles = state.shuttles
    if lab is not None:
        rescuers = sum(1 << lab[pid] for pid in range(len(table)) if rescuers >> pid & 1)
        shuttles = ((lab[shuttles[0][0]], *shuttles[0][1:]),
                    (lab[shuttles[1][0]], *shuttles[1][1:]))
    return PlayerView(
        player=player,
        rules=g.rules,
        to_move=state.to_move,
        ply=state.ply,
        outcome=state.outcome,
        legal_moves=legal_moves(state) if my_turn else (),
        pieces=pieces,
        captured=captured,
        history=history,
        pending_rescue=pending_rescue,
        armies=g.armies,
        first_player=g.first_player,
        shuttles=shuttles,
        rescues=(state.rescues[0], state.rescues[1]),
        rescuers=frozenset(pid for pid in range(len(table)) if rescuers >> pid & 1),
        chase=(chase[0], len(chase) - 2) if chase else (0, 0),
        last_to=SQUARES[state.last_to] if state.last_to >= 0 else None,
        chase_moves=tuple(Move(SQUARES[frm], SQUARES[to])
                          for frm, to in chase_moves(state.board, chase)) if chase else (),
    )


def _identities(state: GameState, player: Player) -> tuple[tuple[int, ...] | None, int]:
    """For tests and the sampler's checks: the ids `player`'s view shows the pieces of
    `state` by (indexed by the state's ids; None when they are the state's own ids), and
    the pieces (a bit mask of the state's ids) that were in a pile a hidden rescue came
    from, so that what the view shows of them is not tied to one of them (`_relabel`)."""
    node = state.history
    if node is None:
        return None, 0
    snap = _snapshot(state.info, node, player)
    w = snap.walk.copy()
    termination = state.outcome.termination if state.outcome is not None else None
    _step(snap.game, w, node[1], None, player, termination, state.pending)
    return w.lab, w.mixed


_last_masks: dict[tuple[int, int], tuple[Any, ...]] = {}  # per game and player: the last result
_sides: dict[tuple[int, int], tuple[Any, ...]] = {}  # per game and player: own ranks, opponents


def rank_masks(state: GameState, player: Player) -> tuple[int, ...]:
    """The ranks `player` considers possible for every piece, as bit masks, without
    building the view: entry ``id`` has bit ``r`` set for each `Rank` ``r`` in
    ``view(state, player).piece(id).possible`` (entry 0 is unused and 0). Entries are by
    the state's piece ids; under Silent Defense with Rescue the view may show a piece
    under another id after a hidden rescue (docs/hidden-information.md), and the entry
    is then the mask of the piece the view shows on the same square or in the same pile.

    A table-level companion of `view` for encodings that run at engine speed
    (`stratego.encoding`); it reads the same cached history fold, so it costs a
    fraction of a view, and it returns the same tuple object again while nothing
    it depends on changed (so callers may cache on its identity). Raises like `view`.
    """
    if not isinstance(state, GameState):
        raise PositionError(f"not a GameState: {_shown(state)} (build one with "
                            f"stratego.new_game)")
    if type(player) is not Player:
        try:
            player = Player.parse(player) if isinstance(player, str) else Player(player)
        except ValueError:
            raise InvalidNotationError(f"not a player: {_shown(player)} (expected Player.RED or "
                                       f"Player.BLUE)") from None
    node = state.history
    g = _game(state.info)
    anon = 0
    if node is None:
        facts = g.start.walk.facts
    elif not (g.silent or g.rescue or g.flag_wins):
        # Without these rules the history's facts only concern captured pieces (no Flag
        # among those struck), whose ranks are then public: no fold needed.
        facts = -1
    else:
        termination = state.outcome.termination if state.outcome is not None else None
        snap = _snapshot(state.info, node, player)
        g = snap.game
        w = snap.walk.copy()
        _step(g, w, node[1], None, player, termination, state.pending)
        facts = w.facts
        anon = w.anon
    facts &= ~g.no_flag
    known = state.known
    moved_mask = state.moved_mask
    captured = state.captured_mask
    key = (id(g), player)
    last = _last_masks.get(key)
    silent = g.silent
    immobile = ~g.immobile
    army_mask = g.army_mask
    # `apply` shares the `known` tuple between states while no rank was disclosed: then
    # only the pieces that moved for the first time or were captured may change
    if not anon and last is not None and last[0] is known and last[1] == facts and last[4] is g:
        masks: tuple[int, ...] = last[5]
        changed = (moved_mask ^ last[2]) | (captured ^ last[3])
        if changed:
            out = list(masks)
            owners = g.owner
            while changed:
                low = changed & -changed
                changed ^= low
                pid = low.bit_length() - 1
                if owners[pid] == player:
                    continue
                if not silent and captured & low:
                    out[pid] = 1 << g.rank[pid]
                else:
                    possible = known[pid] & facts >> _W * pid & army_mask
                    out[pid] = possible & immobile if moved_mask & low else possible
            masks = tuple(out)
            _last_masks[key] = (known, facts, moved_mask, captured, g, masks)
        return masks
    sides = _sides.get(key)
    if sides is None or sides[0] is not g:
        owners = g.owner
        bits = [1 << rank for rank in g.rank]
        sides = _sides[key] = (g, [bits[pid] if owners[pid] == player else 0
                                   for pid in range(len(owners))],
                               [(pid, _W * pid, bits[pid]) for pid in range(1, len(owners))
                                if owners[pid] != player])
    out = list(sides[1])
    for pid, shift, bit in sides[2]:
        if not silent and captured >> pid & 1:
            out[pid] = bit
        else:
            possible = known[pid] & facts >> shift & army_mask
            out[pid] = possible & immobile if moved_mask >> pid & 1 else possible
    if anon:
        # the anonymous captured pieces of Silent Defense with Rescue (`_relabel`): as
        # the view shows them, the public record of their pile (not cached: rare)
        for pid in range(anon.bit_length()):
            if anon >> pid & 1:
                out[pid] = known[pid] & army_mask & ~_FLAG_BIT
        return tuple(out)
    masks = tuple(out)
    if len(_last_masks) >= _GAMES_SIZE:
        _last_masks.clear()
        _sides.clear()
    _last_masks[key] = (known, facts, moved_mask, captured, g, masks)
    return masks
