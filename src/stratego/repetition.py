"""The repetition rules as components: the back-and-forth rule and the chase rule.

Every edition forbids some repetitions, and the books differ in what they count. Each
rule here is a small component with one interface, used alike by the engine (which
moves are legal, how a move changes the record) and by `stratego.explain` (why a move is
not). The components sit below the engine: they read only the narrow facts the engine
hands them (the board as a tuple of codes ``piece id << 5 | owner << 4 | rank``, the player
to move, the records below, the position hash, the square the last move ended on), never a
game state.

* the **record** it keeps (public information: both players see every move that feeds
  it);
* `after_quiet` / `after_strike` / `after`: how a move changes that record;
* `forbids`: whether it forbids a move of the player to move, and `drop_forbidden`, the
  engine's fast form over a list of candidate moves;
* `explain`: why, naming the rule, or None.

`BackAndForth` keeps, per player, a record ``(piece id, lo, hi, count, *trail)``
(`NO_SHUTTLE` when none): the piece's current *series* of consecutive moves and what they
have in common. A move of another piece of the same player ends the series; so does a
strike, unless the rules count strikes as moves (``strikes``: the ISF definitions, "a/to
move" is moving or attacking), when a striker that stays on the target square continues
its series and a striker removed ends it. It reads a Scout's record in one of four ways
(`ScoutReading`):

* `ScoutReading.SQUARES`: the series are trips between the same two squares ``lo`` and
  ``hi`` (1961, 2009, Jumbo 2014);
* `ScoutReading.SPAN`: a Scout's moves continue the series while they start and end on
  the segment ``lo``-``hi`` of its first trip (an older reading of the classic web rules);
* `ScoutReading.BORDERS`: think of the borders between squares; a series is made of
  consecutive moves of the piece along one line, each crossing a border that every
  earlier move of the series crossed; ``lo``-``hi`` is the stretch of those common
  borders;
* `ScoutReading.WINDOW`: a window over the piece's last `BackAndForth.limit` moves: a move
  is illegal when some border it would cross was crossed by each of them (ISF 10.2, "more
  than 3 times non-stop"; the classic web rules' "in 5 consecutive turns"). The record's
  ``trail`` holds the squares the piece left on its last moves, newest first (as many as
  `count`), ``count`` how many of its last moves (at most the limit) share a border, and
  ``lo``-``hi`` those common borders. Every piece keeps such a record under this reading,
  so that the record never tells a Scout's one-square moves from another piece's. For a
  piece that steps one square each reading is the rule between two squares.

The chase rule (`Chase`) keeps the chase record ``(chaser + 1, evaded, counter,
counter_evaded, *hashes)`` (``()`` when no chase runs): the chasing player, the squares (a
bit mask over square indices) of the opponent's pieces that moved during the chase, and the
position hashes of the chase, oldest first. Both players may chase at once (ISF 11 counts
every player threatening pieces that evade): a reply that evades the running chase and
threatens a piece begins a chase of the other player's, whose positions are the last ones
of the record, from index ``counter - 1`` on (``counter`` 0: none), with its own evaded
squares ``counter_evaded``; when the older chase ends, the newer one becomes the record.
Positions are compared by which piece stands where
(`position_hash`), never by rank, so the rule is decided from what both players can see.
Two definitions of the chase exist (`Chase.threats`):

* The narrow reading (`threat_chase=False`, no edition's default): a *chase move* is a
  quiet move that ends next to the square the opponent's last quiet move ended on; the
  chase lasts while the chaser keeps making chase moves, whatever the chased side plays.
* ISF 11 (more-squares rule), which the Jumbo 2014 chase rule (Moving, bullet 9) also
  reads: a move *threatens* the opponent's pieces next to the square
  it ends on; the opponent *evades* when its reply moves away a piece the chaser's
  previous move threatened; a continuous chase lasts while the chaser's every move
  threatens at least one piece and the opponent's every reply evades. A *chasing move* is
  a chaser's move that threatens a piece that evaded at some time during the chase (any of
  them, not only the last one). A strike (either side's) ends the chase, and a striker
  left next to an opponent's piece threatens: its chase begins with the position right
  after the strike.

In both, the chaser may not make a chase (chasing) move that recreates a position of the
current chase, except moving a piece straight back to the square it left in the player's
previous turn (left to the back-and-forth rule).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from stratego.board import NEIGHBOURS, SIZE, SQUARES
from stratego.errors import ArgumentError, PositionError, not_a_member, shown

if TYPE_CHECKING:
    from stratego.moves import Move

__all__ = [
    "CHASE_HASHES",
    "NO_SHUTTLE",
    "ZOBRIST_KEYS",
    "ZOBRIST_SIDE",
    "BackAndForth",
    "Chase",
    "ScoutReading",
    "chase_moves",
    "chase_position",
    "chase_record",
    "position_hash",
]

CHASE_HASHES = 4
"""Where a chase record's position hashes begin: after ``chaser + 1, evaded, counter,
counter_evaded``."""

NO_SHUTTLE: tuple[int, int, int, int] = (0, 0, 0, 0)
"""The empty back-and-forth record (no piece has id 0)."""

Record = tuple[int, ...]
"""A back-and-forth record ``(piece id, lo, hi, count, *trail)``."""

_zrng = random.Random(0x5EED)
ZOBRIST_KEYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_zrng.getrandbits(63) for _ in range(SIZE * SIZE)) for _ in range(128)
)
"""Position-hash keys by ``[piece id][square index]`` (fixed seed: stable across runs).

Keyed by the piece's identity, not its rank: positions are compared by which piece stands
where, which both players can see (see `position_hash`)."""
ZOBRIST_SIDE: int = _zrng.getrandbits(63)
"""Position-hash key for Blue to move."""

# _NEAR[square]: the bit mask of the squares next to it (before, behind, beside)
_NEAR: tuple[int, ...] = tuple(sum(1 << n for n in NEIGHBOURS[sq]) for sq in range(SIZE * SIZE))


def position_hash(board: Iterable[int], turn: int) -> int:
    """The Zobrist hash of a raw board (`GameState.board`) with `turn` to move.

    Pieces count by identity (which piece stands where), never by rank: two
    positions that differ only by swapping two pieces of the same rank hash
    differently, so a rule comparing positions by this hash (the chase rules,
    `GameState.zhash`) decides from what both players can see.
    """
    h = ZOBRIST_SIDE if turn else 0
    for index, code in enumerate(board):
        if code:
            h ^= ZOBRIST_KEYS[code >> 5][index]
    return h


def chase_position(zhash: int, pending: bool) -> int:
    """The hash a chase record keeps for the position `zhash` (`GameState.zhash`): the
    board after the last move with the mover's opponent to move, also while the mover
    decides a Rescue (`pending`), when the state hashes the mover to move (declining
    leaves the position the chase recorded)."""
    return zhash ^ ZOBRIST_SIDE if pending else zhash


# Zobrist keys by value, to recover the moves of a chase from its position hashes.
_ZINDEX: tuple[dict[int, int], ...] = tuple(
    {key: index for index, key in enumerate(row)} for row in ZOBRIST_KEYS
)


def chase_moves(board: Sequence[int], chase: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The quiet moves of a chase record, oldest first, as ``(from, to)`` square indices:
    recovered from the record's position hashes (``GameState.chase``) and the board they
    end on. Raises `stratego.PositionError` when the hashes are not the positions of such moves."""
    hashes = chase[CHASE_HASHES:]
    work = list(board)
    moves: list[tuple[int, int]] = []
    for k in range(len(hashes) - 1, 0, -1):
        target = hashes[k - 1] ^ hashes[k] ^ ZOBRIST_SIDE
        for to, code in enumerate(work):
            if not code:
                continue
            frm = _ZINDEX[code >> 5].get(target ^ ZOBRIST_KEYS[code >> 5][to])
            if frm is not None and frm != to and not work[frm]:
                break
        else:
            raise PositionError("the chase record's positions are not those of quiet moves")
        work[frm], work[to] = work[to], 0
        moves.append((frm, to))
    moves.reverse()
    return tuple(moves)


def chase_record(chaser: int, moves: Sequence[tuple[int, int]], board: Sequence[int],
                 zhash: int, counter: int | None = None) -> tuple[int, ...]:
    """The chase record (``GameState.chase``) of `chaser` (1 Red, 2 Blue) whose quiet
    moves, oldest first, are `moves` (none for a chase a strike began) and end on `board`,
    whose hash is `zhash`: the inverse of `chase_moves`. `counter` is the index in `moves`
    of the move that began the other player's chase during it (None: none). Raises
    `PositionError` naming the first move (undoing them from the last) that does not lead
    to the board, or a counter-chase that is not begun by a move of the other player."""
    if counter is not None and not (0 <= counter < len(moves)):
        raise PositionError(f"the counter-chase begins at move {counter + 1} of a chase of "
                            f"{len(moves)} moves")
    work = list(board)
    hashes = [zhash]
    h = zhash
    moved: set[int] = set()
    answered: set[int] = set()  # the chaser's pieces that moved after the counter began
    for index in range(len(moves) - 1, -1, -1):
        frm, to = moves[index]
        code = work[to]
        if not code or work[frm]:
            raise PositionError(f"{SQUARES[frm]}-{SQUARES[to]} does not lead to this board "
                             f"(undoing the chase moves from the last)")
        keys = ZOBRIST_KEYS[code >> 5]
        h ^= keys[frm] ^ keys[to] ^ ZOBRIST_SIDE
        work[frm], work[to] = code, 0
        hashes.append(h)
        mine = (code >> 4 & 1) == chaser - 1
        if not mine:
            moved.add(code >> 5)
        elif counter is not None and index > counter:
            answered.add(code >> 5)
        if counter == index and mine:
            raise PositionError(f"{SQUARES[frm]}-{SQUARES[to]} cannot begin the other "
                                f"player's chase: it is a move of the chaser")
    hashes.reverse()
    evaded = sum(1 << sq for sq, code in enumerate(board) if code and code >> 5 in moved)
    if counter is None:
        return (chaser, evaded, 0, 0, *hashes)
    counter_evaded = sum(1 << sq for sq, code in enumerate(board)
                         if code and code >> 5 in answered)
    return (chaser, evaded, counter + 1, counter_evaded, *hashes)


class ScoutReading(enum.Enum):
    """What counts as moving "between the same squares" for a piece that moves far."""

    SQUARES = "squares"
    """The same two squares, literally (1961, 2009, Jumbo 2014)."""
    SPAN = "span"
    """Moves within the segment of the Scout's first trip (an older classic reading)."""
    BORDERS = "borders"
    """A series of moves each crossing again a border every earlier one crossed."""
    WINDOW = "window"
    """The piece's last moves, as many as the limit, all crossing one border the next
    move would cross again (ISF 10.2; the classic web rules' Scout sentence)."""

    @classmethod
    def _missing_(cls, value: object) -> ScoutReading:
        raise not_a_member(cls, value)


def _in_span(lo: int, hi: int, square: int) -> bool:
    """Whether `square` lies on the straight segment from `lo` to `hi` (lo < hi)."""
    if lo // SIZE == hi // SIZE:
        return square // SIZE == lo // SIZE and lo <= square <= hi
    if lo % SIZE == hi % SIZE:
        return square % SIZE == lo % SIZE and lo <= square <= hi
    return square in (lo, hi)


def _overlap(lo: int, hi: int, frm: int, to: int) -> tuple[int, int] | None:
    """The common borders of segment lo-hi and move frm-to, as a segment; None if none."""
    a, b = (frm, to) if frm < to else (to, frm)
    if lo // SIZE == hi // SIZE:
        if a // SIZE != lo // SIZE or b // SIZE != lo // SIZE:
            return None
    elif a % SIZE != lo % SIZE or b % SIZE != lo % SIZE:
        return None
    start, end = max(lo, a), min(hi, b)
    return (start, end) if start < end else None


def _common(lo: int, hi: int, frm: int, to: int) -> tuple[int, int] | None:
    """What segment lo-hi and move frm-to have in common for the window reading: their
    common borders when both are straight; else the two squares when they are the same two
    (a two-step Captain's move round a corner crosses no single line of borders)."""
    if (lo // SIZE == hi // SIZE or lo % SIZE == hi % SIZE) and (
            frm // SIZE == to // SIZE or frm % SIZE == to % SIZE):
        return _overlap(lo, hi, frm, to)
    return (lo, hi) if (frm, to) in ((lo, hi), (hi, lo)) else None


def came_from(record: Sequence[int], pid: int, at: int) -> int:
    """The square piece `pid`, standing on `at`, left in its player's previous turn, as a
    back-and-forth `record` of that player tells it; -1 when it did not move then."""
    if record[0] != pid or not record[3]:
        return -1
    if len(record) > 4:
        return record[4]
    lo, hi = record[1], record[2]
    return lo if at == hi else hi if at == lo else -1


@attrs.frozen
class BackAndForth:
    """The back-and-forth (two-squares) rule: at most `limit` consecutive moves in one
    series; the next move that would continue the series is illegal.

    `reading` says what a series is for a Scout (`ScoutReading`); `name` is the rule's
    name in explanations; `strikes` makes a strike count as a move of the series (the
    ISF definitions). A move of another piece of the same player ends the series.
    """

    limit: int
    reading: ScoutReading = ScoutReading.SQUARES
    name: str = "back-and-forth rule"
    strikes: bool = False
    _trail: bool = attrs.field(init=False, eq=False, repr=False)
    """Whether the record keeps a trail (the window reading): read on every quiet move."""

    @_trail.default
    def _keeps_trail(self) -> bool:
        return self.reading is ScoutReading.WINDOW

    def continues(self, record: Sequence[int], pid: int, frm: int, to: int,
                  scout: bool) -> bool:
        """Whether piece `pid` (a Scout if `scout`) moving frm -> to continues `record`
        (for the window reading: crosses a border its recorded moves all crossed)."""
        spid, lo, hi, count = record[0], record[1], record[2], record[3]
        if spid != pid or count == 0:
            return False
        if self.reading is ScoutReading.WINDOW:
            return _common(lo, hi, frm, to) is not None
        if scout and self.reading is ScoutReading.BORDERS:
            return _overlap(lo, hi, frm, to) is not None
        if scout and self.reading is ScoutReading.SPAN:
            return _in_span(lo, hi, frm) and _in_span(lo, hi, to)
        return (frm == lo and to == hi) or (frm == hi and to == lo)

    def after_quiet(self, record: Record, pid: int, frm: int, to: int,
                    scout: bool) -> Record:
        """The player's record after piece `pid` moved frm -> to without striking."""
        if record[0] != pid or not record[3]:  # a new series (the usual case, first)
            if self._trail:
                return (pid, frm, to, 1, frm) if frm < to else (pid, to, frm, 1, frm)
            return (pid, frm, to, 1) if frm < to else (pid, to, frm, 1)
        if self._trail:
            return self._window(record, pid, frm, to)
        if record[0] == pid and self.continues(record, pid, frm, to, scout):
            if scout and self.reading is ScoutReading.BORDERS:
                common = _overlap(record[1], record[2], frm, to)
                assert common is not None
                return (pid, common[0], common[1], record[3] + 1)
            return (pid, record[1], record[2], record[3] + 1)
        return (pid, frm, to, 1) if frm < to else (pid, to, frm, 1)

    def _window(self, record: Record, pid: int, frm: int, to: int) -> Record:
        """The window record after piece `pid` moved frm -> to (`ScoutReading.WINDOW`):
        its last moves, newest first, as long as they all share a border, at most
        `limit` of them. Kept alike for every piece, so that the record (public) never
        tells a Scout's one-square moves from another piece's."""
        lo, hi = (frm, to) if frm < to else (to, frm)
        if record[0] != pid or not record[3]:
            return (pid, lo, hi, 1, frm)
        trail = [frm]
        end = frm
        for start in record[4:]:
            if len(trail) >= self.limit:
                break
            common = _common(lo, hi, start, end)
            if common is None:
                break
            lo, hi = common
            trail.append(start)
            end = start
        return (pid, lo, hi, len(trail), *trail)

    def after_strike(self, record: Record, pid: int, frm: int, to: int, scout: bool,
                     stays: bool) -> Record:
        """The striking player's record after piece `pid` struck from frm on to (`stays`:
        it won and now stands on to): no series, unless strikes count as moves and the
        striker stays, when the strike counts as a move frm -> to."""
        if self.strikes and stays:
            return self.after_quiet(record, pid, frm, to, scout)
        return NO_SHUTTLE

    def forbids(self, record: Record, pid: int, frm: int, to: int, scout: bool) -> bool:
        """Whether the move frm -> to of piece `pid` would exceed the limit (callers
        ask only for quiet moves unless `strikes`)."""
        return record[3] >= self.limit and self.continues(record, pid, frm, to, scout)

    def drop_forbidden(self, moves: list[Move], record: Record, board: Sequence[int],
                       at: int) -> list[Move]:
        """`moves` (the candidates of the player whose record is `record`) without those
        `forbids` refuses; `at` is where the record's piece stands (-1: captured)."""
        if record[3] < self.limit or at < 0:
            return moves
        pid = record[0]
        scout = board[at] & 15 == _SCOUT_VALUE
        continues = self.continues
        strikes = self.strikes
        return [m for m in moves
                if m.fi != at or (board[m.ti] and not strikes)
                or not continues(record, pid, at, m.ti, scout)]

    def explain(self, board: Sequence[int], turn: int, ply: int, shuttles: Sequence[Record],
                chase: Sequence[int], zhash: int, last_to: int, frm: int, to: int, name: str,
                title: str) -> str | None:
        """Why the move frm -> to of the player to move (`turn`) breaks this rule (None
        if it does not), as an English sentence ending with the rule's `name` (which cites
        it by book and number); `name` describes the moving piece, `title` the rules (kept
        for the shared interface: the rule's name says which rules)."""
        code = board[frm]
        record = shuttles[turn]
        scout = code & 15 == _SCOUT_VALUE
        if (not code or (board[to] and not self.strikes)
                or not self.forbids(record, code >> 5, frm, to, scout)):
            return None
        move = f"{SQUARES[frm]}-{SQUARES[to]}"
        lo, hi, count = SQUARES[record[1]], SQUARES[record[2]], record[3]
        allows = f"these rules allow no more than {self.limit}"
        if self.reading is ScoutReading.WINDOW and len(record) > 4 and any(
                sq not in (record[1], record[2]) for sq in (*record[4:], frm, to)):
            borders = _borders(record[1], record[2])
            last = "the last move" if count == 1 else f"each of the last {count} moves"
            crossed = (f"moved between {lo} and {hi}" if not borders
                       else f"crossed the border between {lo} and {hi}" if borders == 1
                       else f"crossed the borders between {lo} and {hi}")
            again = "move between them" if not borders else (
                "cross it" if borders == 1 else "cross one of them")
            return (f"{move}: {last} of the {name} {crossed}, and this move would "
                    f"{again} again; {allows} in a row ({self.name})")
        if scout and self.reading is ScoutReading.BORDERS:
            across = ("the border" if _borders(record[1], record[2]) == 1 else "the borders")
            return (f"{move}: this would be move {count + 1} in a row of the {name} across "
                    f"{across} between {lo} and {hi}, and {allows} ({self.name})")
        turns = "turn" if count == 1 else "turns"
        return (f"{move}: the {name} has moved back and forth {count} {turns} in a row "
                f"between {lo} and {hi}, and {allows} ({self.name})")


_SCOUT_VALUE = 2  # Rank.SCOUT


def _borders(lo: int, hi: int) -> int:
    """How many borders between squares the straight segment lo-hi (lo < hi) crosses; 0
    when the two squares are not on one line (a two-step Captain's move round a corner)."""
    if lo // SIZE == hi // SIZE:
        return hi - lo
    if lo % SIZE == hi % SIZE:
        return (hi - lo) // SIZE
    return 0


def threatens(board: Sequence[int], to: int, player: int) -> bool:
    """Whether a piece of `player` standing on `to` is next to an opponent's piece."""
    mine = player << 4
    for n in NEIGHBOURS[to]:
        code = board[n]
        if code and code & 16 != mine:
            return True
    return False


def _evaded(evaded: int, frm: int, to: int) -> int:
    """The evaded squares after the chased piece on frm moved to `to`."""
    return (evaded & ~(1 << frm)) | (1 << to)


def _after_threats(board: Sequence[int], player: int, chase: Sequence[int], zhash: int,
                   new_hash: int, last_to: int, frm: int, to: int) -> tuple[int, ...]:
    """The chase record after `player`'s quiet move frm -> to under the ISF 11
    definitions (`Chase.after`): each running chase goes on, its chaser's when the move
    threatens a piece, the other player's when it evades (moves a piece the last move
    threatened); a threat of a player not chasing begins its chase, from the position
    before the move (`zhash`), beside a chase that goes on."""
    threat = threatens(board, to, player)
    mover = player + 1
    if not chase:
        return (mover, 0, 0, 0, zhash, new_hash) if threat else ()
    evade = last_to >= 0 and frm in NEIGHBOURS[last_to]
    if not chase[2]:  # one chase runs (the common case, without the general walk below)
        if chase[0] == mover:
            return (*chase, new_hash) if threat else ()
        if evade:  # a threat too begins the mover's chase beside it, from its last position
            return (chase[0], _evaded(chase[1], frm, to),
                    len(chase) - CHASE_HASHES if threat else 0, 0,
                    *chase[CHASE_HASHES:], new_hash)
        return (mover, 0, 0, 0, zhash, new_hash) if threat else ()
    positions: Sequence[int] = chase[CHASE_HASHES:]
    kept: list[tuple[int, int, int]] = []  # (chaser + 1, evaded, first index), oldest first
    if chase:
        runs = [(chase[0], chase[1], 0)]
        if chase[2]:
            runs.append((3 - chase[0], chase[3], chase[2] - 1))
        for chaser, evaded, first in runs:
            if chaser == mover:
                if threat:
                    kept.append((chaser, evaded, first))
            elif evade:
                kept.append((chaser, _evaded(evaded, frm, to), first))
    if threat and not any(chaser == mover for chaser, _, _ in kept):
        if kept:  # beside a chase that goes on: its last position is the one before
            kept.append((mover, 0, len(positions) - 1))
        else:
            positions, kept = (zhash,), [(mover, 0, 0)]
    if not kept:
        return ()
    (chaser, evaded, first), *newer = kept
    counter, counter_evaded = (newer[0][2] - first + 1, newer[0][1]) if newer else (0, 0)
    return (chaser, evaded, counter, counter_evaded, *positions[first:], new_hash)


@attrs.frozen
class Chase:
    """The chase rule: the chaser may not recreate a position of the current chase.

    `threats` selects the ISF 11 definitions (threaten, evade, chasing moves against any
    piece that evaded during the chase), which the ISF and Jumbo 2014 editions use, over
    the narrower reading in which a chase move ends next to the opponent's last quiet move
    (kept for rules built with ``threat_chase=False``); `name` is the rule's name in
    explanations.
    """

    threats: bool = False
    name: str = "chase rule"

    @staticmethod
    def _own(chase: Sequence[int], player: int) -> tuple[int, Sequence[int]] | None:
        """The chase of `player` in the record `chase`, as ``(evaded, positions)`` (its
        evaded squares and its position hashes, oldest first), or None when `player` is
        not chasing."""
        if not chase:
            return None
        if chase[0] == player + 1:
            return chase[1], chase[CHASE_HASHES:]
        if chase[2]:  # the other player chases, and so does `player`, since counter - 1
            return chase[3], chase[CHASE_HASHES + chase[2] - 1:]
        return None

    def is_chase_move(self, evaded: int, last_to: int, to: int) -> bool:
        """Whether the chaser's quiet move ending on `to` is a chase move: under ISF 11 it
        threatens a piece that evaded during the chase (on the squares `evaded`), under the
        narrow reading it ends next to the square the opponent's last quiet move ended on
        (`last_to`)."""
        if not 0 <= to < SIZE * SIZE:
            raise ArgumentError(f"no square index {shown(to)} (expected 0-99)")
        if self.threats:
            return bool(evaded & _NEAR[to])
        return last_to >= 0 and to in NEIGHBOURS[last_to]

    @staticmethod
    def quiet_hash(board: Sequence[int], zhash: int, frm: int, to: int) -> int:
        """The position hash after the quiet move frm -> to from the position `board`
        whose hash is `zhash`."""
        z = ZOBRIST_KEYS[board[frm] >> 5]
        return zhash ^ z[frm] ^ z[to] ^ ZOBRIST_SIDE

    def forbids(self, board: Sequence[int], turn: int, chase: Sequence[int], zhash: int,
                last_to: int, shuttle: Record, frm: int, to: int) -> bool:
        """Whether the chase rule forbids the move frm -> to of the player to move
        (`turn`), whose back-and-forth record is `shuttle`.

        Only the chaser's chase moves are restricted; a move straight back to the square
        the same piece came from in the player's previous turn is left to the
        back-and-forth rule (ISF 11.2; Jumbo 2014 Moving bullet 8 decides a two-square
        chase). A strike never recreates a position of the chase (it removes a piece).
        """
        own = self._own(chase, turn)
        if own is None or board[to]:
            return False
        evaded, positions = own
        if not self.is_chase_move(evaded, last_to, to):
            return False
        if came_from(shuttle, board[frm] >> 5, frm) == to:
            return False
        return self.quiet_hash(board, zhash, frm, to) in positions

    def drop_forbidden(self, moves: list[Move], board: Sequence[int], turn: int,
                       chase: Sequence[int], zhash: int, last_to: int,
                       shuttle: Record) -> list[Move]:
        """`moves` (the player to move's candidates) without those `forbids` refuses; the
        engine's fast form of `forbids`, looking only at the moves that could be chase
        moves."""
        own = self._own(chase, turn)
        if own is None:
            return moves
        forbids = self.forbids
        if self.threats:
            evaded = own[0]
            if not evaded:
                return moves
            near = _NEAR
            drop = [m for m in moves if near[m.ti] & evaded and not board[m.ti]
                    and forbids(board, turn, chase, zhash, last_to, shuttle, m.fi, m.ti)]
        else:
            if last_to < 0:
                return moves
            around = NEIGHBOURS[last_to]
            drop = [m for m in moves if m.ti in around and not board[m.ti]
                    and forbids(board, turn, chase, zhash, last_to, shuttle, m.fi, m.ti)]
        if not drop:
            return moves
        return [m for m in moves if m not in drop]

    def after(self, board: Sequence[int], turn: int, chase: tuple[int, ...], zhash: int,
              last_to: int, attacker: int, defender: int, result: int, frm: int,
              to: int) -> tuple[int, tuple[int, ...], int]:
        """The position hash, the chase record and the square the last move ended on (for
        the chase rules: -1 after a strike, except under ISF 11 when the striker stays)
        after the player `turn` moved frm -> to.

        `attacker`/`defender` are the board codes on `frm`/`to` before the move, `result`
        the code left on `to` and `board` the board after it; `chase`, `zhash` and
        `last_to` are those before the move.
        """
        player = turn
        z = ZOBRIST_KEYS
        new_hash = zhash ^ ZOBRIST_SIDE ^ z[attacker >> 5][frm]
        if defender:
            new_hash ^= z[defender >> 5][to]
        if result:
            new_hash ^= z[result >> 5][to]
        if defender:  # a strike ends every chase
            if self.threats and result == attacker:  # the striker stays: a threat?
                if threatens(board, to, player):
                    return new_hash, (player + 1, 0, 0, 0, new_hash), to
                return new_hash, (), to
            return new_hash, (), -1
        if self.threats:
            return new_hash, _after_threats(board, player, chase, zhash, new_hash, last_to,
                                            frm, to), to
        if last_to >= 0 and to in NEIGHBOURS[last_to]:
            if chase and chase[0] == player + 1:
                return new_hash, (*chase, new_hash), to
            return new_hash, (player + 1, 0, 0, 0, zhash, new_hash), to
        if chase and chase[0] == 2 - player:  # the chased piece's side fled
            return new_hash, (chase[0], _evaded(chase[1], frm, to), 0, 0,
                              *chase[CHASE_HASHES:], new_hash), to
        return new_hash, (), to

    def explain(self, board: Sequence[int], turn: int, ply: int, shuttles: Sequence[Record],
                chase: Sequence[int], zhash: int, last_to: int, frm: int, to: int, name: str,
                title: str) -> str | None:
        """Why the move frm -> to of the player to move (`turn`) breaks this rule (None
        if it does not); `name` describes the moving piece, `ply` is the current ply."""
        if not self.forbids(board, turn, chase, zhash, last_to, shuttles[turn], frm, to):
            return None
        move = f"{SQUARES[frm]}-{SQUARES[to]}"
        target = self.quiet_hash(board, zhash, frm, to)
        own = self._own(chase, turn)
        assert own is not None  # forbids found it
        evaded, positions = own
        index = list(positions).index(target)
        then = ply - (len(positions) - 1 - index)
        if self.threats:
            chased = sorted((SQUARES[n] for n in NEIGHBOURS[to] if evaded >> n & 1),
                            key=lambda sq: (sq.name[0], int(sq.name[1:])))
            names = [str(sq) for sq in chased]
            if len(names) == 1:
                pieces = f"the piece on {names[0]}, which has evaded"
            else:
                listed = f"{', '.join(names[:-1])} and {names[-1]}"
                pieces = f"the pieces on {listed}, which have evaded"
            return (f"{move}: the {name} would threaten again {pieces} during this chase, "
                    f"and recreate the position of ply {then} ({self.name})")
        return (f"{move}: the {name} is chasing the piece on {SQUARES[last_to]} and this "
                f"move would recreate the position of ply {then}, during the chase "
                f"({self.name})")
