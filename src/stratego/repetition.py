"""The repetition rules as components: the back-and-forth rule and the chase rule.

Every edition forbids some repetitions, and the books differ in what they count. Each
rule here is a small component with one interface, used alike by the engine (which
moves are legal, how a move changes the record) and by `stratego.explain` (why a move is
not):

* the **record** it keeps in `GameState` (public information: both players see every
  move that feeds it);
* `after_quiet` / `after_strike`: how a move changes that record;
* `forbids(state, frm, to)`: whether it forbids a quiet move of the player to move;
* `explain(state, frm, to, name)`: why, naming the rule, or None.

`BackAndForth` keeps, per player, a record ``(piece id, lo, hi, count)`` (`NO_SHUTTLE`
when none): the piece's current *series* of consecutive moves and what they have in
common. It reads the record in one of three ways (`ScoutReading`):

* `ScoutReading.SQUARES`: the series are trips between the same two squares ``lo`` and
  ``hi`` (1961, 2009, Jumbo 2014);
* `ScoutReading.SPAN`: a Scout's moves continue the series while they start and end on
  the segment ``lo``-``hi`` of its first trip (the classic web rules' wording);
* `ScoutReading.BORDERS`: think of the borders between squares; a series is made of
  consecutive moves of the piece along one line, each crossing a border that every
  earlier move of the series crossed; ``lo``-``hi`` is the stretch of those common
  borders (ISF 10.2). For a piece that steps one square this is the two-squares rule.

The chase rule (`Chase`) keeps the chasing player and the position hashes of the current
chase (`GameState.chase`), the hash of the position (`GameState.zhash`) and the square
the last quiet move ended on (`GameState.last_to`). Positions are compared by which piece
stands where (`position_hash`), never by rank, so the rule is decided from what both
players can see. Two definitions of the chase exist (`Chase.threats`):

* Jumbo 2014 (Moving, bullet 9): a *chase move* is a quiet move that ends next to the
  square the opponent's last quiet move ended on; the chase lasts while the chaser keeps
  making chase moves, whatever the chased side plays.
* ISF 11 (more-squares rule): a move *threatens* the opponent's pieces next to the square
  it ends on; the opponent *evades* when its next move moves one of those pieces away; a
  continuous chase lasts while one player keeps threatening the piece that just evaded
  and the other keeps evading. Any threat may start one.

In both, the chaser may not make a chase move that recreates a position of the current
chase, except moving a piece straight back to the square it left in the player's
previous turn (left to the back-and-forth rule). A strike ends a chase.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from stratego.board import NEIGHBOURS, SIZE, SQUARES

if TYPE_CHECKING:
    from stratego.moves import Move
    from stratego.state import GameState

__all__ = [
    "NO_SHUTTLE",
    "ZOBRIST_KEYS",
    "ZOBRIST_SIDE",
    "BackAndForth",
    "Chase",
    "ScoutReading",
    "chase_moves",
    "chase_record",
    "position_hash",
]

NO_SHUTTLE: tuple[int, int, int, int] = (0, 0, 0, 0)
"""The empty back-and-forth record (no piece has id 0)."""

_zrng = random.Random(0x5EED)
ZOBRIST_KEYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_zrng.getrandbits(63) for _ in range(SIZE * SIZE)) for _ in range(128)
)
"""Position-hash keys by ``[piece id][square index]`` (fixed seed: stable across runs).

Keyed by the piece's identity, not its rank: positions are compared by which piece stands
where, which both players can see (see `position_hash`)."""
ZOBRIST_SIDE: int = _zrng.getrandbits(63)
"""Position-hash key for Blue to move."""


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


# Zobrist keys by value, to recover the moves of a chase from its position hashes.
_ZINDEX: tuple[dict[int, int], ...] = tuple(
    {key: index for index, key in enumerate(row)} for row in ZOBRIST_KEYS
)


def chase_moves(board: Sequence[int], chase: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The quiet moves of a chase record, oldest first, as ``(from, to)`` square indices:
    recovered from the record's position hashes (``GameState.chase``) and the board they
    end on. Raises `ValueError` when the hashes are not the positions of such moves."""
    hashes = chase[1:]
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
            raise ValueError("the chase record's positions are not those of quiet moves")
        work[frm], work[to] = work[to], 0
        moves.append((frm, to))
    moves.reverse()
    return tuple(moves)


def chase_record(chaser: int, moves: Sequence[tuple[int, int]], board: Sequence[int],
                 zhash: int) -> tuple[int, ...]:
    """The chase record (``GameState.chase``) of `chaser` (1 Red, 2 Blue) whose quiet
    moves, oldest first, are `moves` and end on `board`, whose hash is `zhash`: the
    inverse of `chase_moves`. Raises `ValueError` naming the first move (undoing them from
    the last) that does not lead to the board."""
    work = list(board)
    hashes = [zhash]
    h = zhash
    for frm, to in reversed(moves):
        code = work[to]
        if not code or work[frm]:
            raise ValueError(f"{SQUARES[frm]}-{SQUARES[to]} does not lead to this board "
                             f"(undoing the chase moves from the last)")
        keys = ZOBRIST_KEYS[code >> 5]
        h ^= keys[frm] ^ keys[to] ^ ZOBRIST_SIDE
        work[frm], work[to] = code, 0
        hashes.append(h)
    hashes.reverse()
    return (chaser, *hashes)


class ScoutReading(enum.Enum):
    """What counts as moving "between the same squares" for a piece that moves far."""

    SQUARES = "squares"
    """The same two squares, literally (1961, 2009, Jumbo 2014)."""
    SPAN = "span"
    """Moves within the segment of the Scout's first trip (classic web rules)."""
    BORDERS = "borders"
    """Moves crossing again a border every move of the series crossed (ISF 10.2)."""


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


@attrs.frozen
class BackAndForth:
    """The back-and-forth (two-squares) rule: at most `limit` consecutive moves in one
    series; the next move that would continue the series is illegal.

    `reading` says what a series is for a Scout (`ScoutReading`); `name` is the rule's
    name in explanations. A strike, or a move of another piece of the same player, ends
    the series.
    """

    limit: int
    reading: ScoutReading = ScoutReading.SQUARES
    name: str = "back-and-forth rule"

    def continues(self, record: tuple[int, int, int, int], pid: int, frm: int, to: int,
                  scout: bool) -> bool:
        """Whether piece `pid` (a Scout if `scout`) moving frm -> to continues `record`."""
        spid, lo, hi, count = record
        if spid != pid or count == 0:
            return False
        if scout and self.reading is ScoutReading.BORDERS:
            return _overlap(lo, hi, frm, to) is not None
        if scout and self.reading is ScoutReading.SPAN:
            return _in_span(lo, hi, frm) and _in_span(lo, hi, to)
        return (frm == lo and to == hi) or (frm == hi and to == lo)

    def after_quiet(self, record: tuple[int, int, int, int], pid: int, frm: int, to: int,
                    scout: bool) -> tuple[int, int, int, int]:
        """The player's record after piece `pid` moved frm -> to without striking."""
        if record[0] == pid and self.continues(record, pid, frm, to, scout):
            if scout and self.reading is ScoutReading.BORDERS:
                common = _overlap(record[1], record[2], frm, to)
                assert common is not None
                return (pid, common[0], common[1], record[3] + 1)
            return (pid, record[1], record[2], record[3] + 1)
        return (pid, frm, to, 1) if frm < to else (pid, to, frm, 1)

    @staticmethod
    def after_strike() -> tuple[int, int, int, int]:
        """The striking player's record after a strike: no series."""
        return NO_SHUTTLE

    def forbids(self, record: tuple[int, int, int, int], pid: int, frm: int, to: int,
                scout: bool) -> bool:
        """Whether the quiet move frm -> to of piece `pid` would exceed the limit."""
        return record[3] >= self.limit and self.continues(record, pid, frm, to, scout)

    def explain(self, state: GameState, frm: int, to: int, name: str) -> str | None:
        """Why the quiet move frm -> to breaks this rule (None if it does not); `name`
        describes the moving piece."""
        code = state.board[frm]
        record = state.shuttles[state.turn]
        scout = code & 15 == _SCOUT_VALUE
        if not code or state.board[to] or not self.forbids(record, code >> 5, frm, to, scout):
            return None
        move = f"{SQUARES[frm]}-{SQUARES[to]}"
        lo, hi, count = SQUARES[record[1]], SQUARES[record[2]], record[3]
        if scout and self.reading is ScoutReading.BORDERS:
            return (f"{move}: move {count + 1} in a row of the {name} across the borders "
                    f"between {lo} and {hi}; {state.rules.title} allows {self.limit} "
                    f"({self.name})")
        return (f"{move}: the {name} has moved back and forth {count} turns in a row "
                f"(between {lo} and {hi}); {state.rules.title} allows {self.limit} "
                f"({self.name})")


_SCOUT_VALUE = 2  # Rank.SCOUT


def threatens(board: tuple[int, ...] | list[int], to: int, player: int) -> bool:
    """Whether a piece of `player` standing on `to` is next to an opponent's piece."""
    mine = player << 4
    for n in NEIGHBOURS[to]:
        code = board[n]
        if code and code & 16 != mine:
            return True
    return False


@attrs.frozen
class Chase:
    """The chase rule: the chaser may not recreate a position of the current chase.

    `threats` selects the ISF 11 definitions (threaten and evade) over the Jumbo 2014
    ones (a chase move ends next to the opponent's last quiet move); `name` is the
    rule's name in explanations.
    """

    threats: bool = False
    name: str = "chase rule"

    @staticmethod
    def is_chase_move(state: GameState, to: int) -> bool:
        """Whether a quiet move ending on `to` answers the opponent's last quiet move
        (ends next to the square it ended on)."""
        last = state.last_to
        return last >= 0 and to in NEIGHBOURS[last]

    @staticmethod
    def quiet_hash(state: GameState, frm: int, to: int) -> int:
        """The position hash after the quiet move frm -> to."""
        z = ZOBRIST_KEYS[state.board[frm] >> 5]
        return state.zhash ^ z[frm] ^ z[to] ^ ZOBRIST_SIDE

    def forbids(self, state: GameState, frm: int, to: int) -> bool:
        """Whether the chase rule forbids the move frm -> to of the player to move.

        Only the chaser's chase moves are restricted; a move straight back to the square
        the same piece came from in the player's previous turn is left to the
        back-and-forth rule (ISF 11.2; Jumbo 2014 Moving bullet 8 decides a two-square
        chase).
        """
        chase = state.chase
        board = state.board
        if not chase or chase[0] != state.turn + 1 or board[to]:
            return False
        if not self.is_chase_move(state, to):
            return False
        spid, lo, hi, count = state.shuttles[state.turn]
        if count and spid == board[frm] >> 5 and (
                (frm == lo and to == hi) or (frm == hi and to == lo)):
            return False
        return self.quiet_hash(state, frm, to) in chase[1:]

    def drop_forbidden(self, state: GameState, moves: list[Move]) -> list[Move]:
        """`moves` (the player to move's candidates) without those `forbids` refuses; the
        engine's fast form of `forbids`, looking only at moves that end next to the
        opponent's last quiet move."""
        chase = state.chase
        last = state.last_to
        if not chase or chase[0] != state.turn + 1 or last < 0:
            return moves
        near = NEIGHBOURS[last]
        board = state.board
        drop = [m for m in moves if m.ti in near and not board[m.ti]
                and self.forbids(state, m.fi, m.ti)]
        if not drop:
            return moves
        return [m for m in moves if m not in drop]

    def after(self, state: GameState, attacker: int, defender: int, result: int, frm: int,
              to: int, board: list[int]) -> tuple[int, tuple[int, ...]]:
        """The position hash after a move and the new chase record.

        `attacker`/`defender` are the board codes on `frm`/`to` before the move,
        `result` the code left on `to` and `board` the board after it.
        """
        player = state.turn
        z = ZOBRIST_KEYS
        new_hash = state.zhash ^ ZOBRIST_SIDE ^ z[attacker >> 5][frm]
        if defender:
            new_hash ^= z[defender >> 5][to]
        if result:
            new_hash ^= z[result >> 5][to]
        if defender:
            return new_hash, ()
        chase = state.chase
        last_to = state.last_to
        if self.threats:
            if chase and chase[0] == 2 - player:  # the chased side: does it evade?
                if last_to >= 0 and frm in NEIGHBOURS[last_to]:
                    return new_hash, (*chase, new_hash)
            elif chase and last_to >= 0 and to in NEIGHBOURS[last_to]:
                return new_hash, (*chase, new_hash)  # threatens the piece that evaded
            if threatens(board, to, player):
                return new_hash, (player + 1, state.zhash, new_hash)
            return new_hash, ()
        if last_to >= 0 and to in NEIGHBOURS[last_to]:
            if chase and chase[0] == player + 1:
                return new_hash, (*chase, new_hash)
            return new_hash, (player + 1, state.zhash, new_hash)
        if chase and chase[0] == 2 - player:  # the chased piece's side fled
            return new_hash, (*chase, new_hash)
        return new_hash, ()

    def explain(self, state: GameState, frm: int, to: int, name: str) -> str | None:
        """Why the move frm -> to breaks this rule (None if it does not); `name`
        describes the moving piece."""
        if not self.forbids(state, frm, to):
            return None
        move = f"{SQUARES[frm]}-{SQUARES[to]}"
        target = self.quiet_hash(state, frm, to)
        positions = state.chase[1:]
        index = positions.index(target)
        ply = state.ply - (len(positions) - 1 - index)
        return (f"{move}: the {name} is chasing the piece on {SQUARES[state.last_to]} and this "
                f"move would recreate the position of ply {ply}, during the chase "
                f"({self.name})")
