"""What each entry of the history shows each player, and the per-game tables it reads.

A history entry is a move, a strike or a Rescue decision as the engine records it. Folding
one entry (`fold_entry`) narrows the ranks the public history still allows each piece (the
*facts*, `BITS_PER_PIECE` bits per piece), `seen_ply` gives the entry as a player saw it
(a `SeenPly`) and `seen_pieces` the pieces as a player sees them given the facts. Under
Silent Defense with Rescue, an opponent's hidden rescue relabels its captured pieces (`_relabel`).
`Game` holds what every view of one game shares, `Walk` the running fold, `Snapshot` a
fold kept for a history node. `stratego.views.fold` walks the history with them and keeps
the caches.
"""

from __future__ import annotations

import itertools
from typing import Any

import attrs

from stratego.board import BACK_ROWS, SQUARES, Square
from stratego.engine import reach_table
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rescue import rescue_component
from stratego.state import GameInfo, GameState, Termination
from stratego.strike import (
    ATTACKER_REMOVED,
    ATTACKER_WINS,
    BOTH_REMOVED,
    DEFENDER_REMOVED,
    DEFENDER_WINS,
    consistent_table,
)
from stratego.views.values import SeenPiece, SeenPly

_RESULTS = {ATTACKER_WINS: "attacker", DEFENDER_WINS: "defender", BOTH_REMOVED: "both"}
_ALL = (1 << len(Rank)) - 1
FLAG_BIT = 1 << Rank.FLAG
_BOMB_BIT = 1 << Rank.BOMB
_SCOUT_BIT = 1 << Rank.SCOUT

_Entry = tuple[Move, int, int, int]  # one history entry: move, piece, struck piece, strike code
BITS_PER_PIECE = len(Rank)  # bits per piece in a packed integer of rank masks
_SEEN_SIZE = 2048  # `SeenPiece` values kept per game
_STRIKE_CODES = (ATTACKER_WINS, DEFENDER_WINS, BOTH_REMOVED)

_rank_sets: dict[int, frozenset[Rank]] = {}
_long_tables: dict[bool, tuple[Rank | None, ...]] = {}


def _ranks(mask: int) -> frozenset[Rank]:
    ranks = _rank_sets.get(mask)
    if ranks is None:
        ranks = _rank_sets[mask] = frozenset(r for r in Rank if mask >> r & 1)
    return ranks


class Game:
    """What every view of one game shares: per-piece tables and rule switches."""

    __slots__ = ("answers", "armies", "army_mask", "first_player", "flag_wins", "immobile",
                 "info", "long_ranks", "max_rescues", "no_flag", "not_bomb", "own", "owner",
                 "pid_bits", "rank", "relabel", "rescue", "rules", "seen", "shown", "silent",
                 "start", "starts", "table", "zones")

    def __init__(self, info: GameInfo) -> None:
        rules = info.rules
        table = info.pieces
        self.info = info
        self.rules = rules
        self.table = table
        self.silent = rules.disclosure.silent_defense
        self.answers = tuple(rules.disclosure.answers(rank) for rank in Rank)
        self.rescue = rules.rescue.enabled
        # Silent Defense with Rescue: a hidden rescue makes the owner's captured pieces
        # interchangeable for the opponent, whose view then relabels them (`_relabel`)
        self.relabel = self.silent and self.rescue
        self.max_rescues = rules.rescue.max_rescues
        self.flag_wins = rules.flag_on_back_row_wins
        self.immobile = (0 if rules.movement.bombs_move else _BOMB_BIT) | (
            0 if rules.movement.flag_moves else FLAG_BIT)
        self.army_mask = army_mask = sum(1 << r for r in Rank if rules.army.count(r))
        consistent = consistent_table(rules.strike)
        # the defender rank a Silent-Defense strike result still shows
        self.shown = tuple(tuple(_one_rank(consistent[a][code] & army_mask)
                                 for code in _STRIKE_CODES) for a in Rank)
        self.owner = tuple(-1 if p is None else int(p.owner) for p in table)
        self.rank = tuple(0 if p is None else int(p.rank) for p in table)
        self.seen: dict[int, SeenPiece] = {}  # by `seen_pieces` key
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
        walk = Walk()
        walk.facts = (1 << BITS_PER_PIECE * len(table)) - 1
        # A piece captured when the position was set up is no Flag (`from_position`
        # refuses a captured Flag: capturing it ends the game).
        self.no_flag = sum(FLAG_BIT << BITS_PER_PIECE * pid for pid in range(1, len(table))
                           if starts[pid] is None)
        if self.flag_wins:  # nor, under Moving Flag, one set up on its opponent's back
            # row: a Flag there would have won (`from_position` refuses it)
            self.no_flag |= sum(FLAG_BIT << BITS_PER_PIECE * (code >> 5)
                                for index, code in enumerate(info.initial_board)
                                if code and index in BACK_ROWS[self.owner[code >> 5]])
        walk.ply = 0
        walk.prev = 0
        walk.cap = sum(1 << pid for pid in range(1, len(table)) if starts[pid] is None)
        self.start = Snapshot(None, self, walk, (), 0, ())


class Walk:
    """The running fold of history entries.

    * `facts`: per piece, the ranks the public history still allows, beyond
      the engine's records (`BITS_PER_PIECE` bits per piece id);
    * `ply`: the ply shown by the next entry; `prev`: the piece of the last
      entry folded (0 before the first);
    * under Silent Defense with Rescue only (`Game.relabel`): `cap`, the captured
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

    def copy(self) -> Walk:
        """A copy to fold on; `self` is left as it is."""
        other = Walk()
        other.facts = self.facts
        other.ply = self.ply
        other.prev = self.prev
        other.cap = self.cap
        other.lab = self.lab
        other.anon = self.anon
        other.mixed = self.mixed
        return other


class Snapshot:
    """The fold of the history entries before `node`'s own entry (`node` None: the
    start of the game), with the `SeenPly` history of those entries as one player
    saw them: ``base[:cut] + tail``. Never changed once made."""

    __slots__ = ("base", "cut", "game", "node", "tail", "walk")

    def __init__(self, node: Any, game: Game, walk: Walk, base: tuple[SeenPly, ...],
                 cut: int, tail: tuple[SeenPly, ...]) -> None:
        self.node = node
        self.game = game
        self.walk = walk
        self.base = base
        self.cut = cut
        self.tail = tail

    def history(self) -> tuple[SeenPly, ...]:
        return self.base[:self.cut] + self.tail


def fold_entry(g: Game, w: Walk, entry: _Entry, successor: Move | None, player: int,
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
            w.facts &= ~(_BOMB_BIT << BITS_PER_PIECE * pid | _SCOUT_BIT << BITS_PER_PIECE * prev)
        return
    if successor is None or successor.frm is not None:
        w.ply += 1  # a move and the Rescue decision it earned share a ply
    to = move.ti
    stays = True
    last = successor is None
    if dpid:
        if code in DEFENDER_REMOVED:
            if g.relabel:
                w.cap |= 1 << dpid
            if last and termination is Termination.FLAG_CAPTURED:
                w.facts &= ~((_ALL ^ FLAG_BIT) << BITS_PER_PIECE * dpid)
            else:
                w.facts &= ~(FLAG_BIT << BITS_PER_PIECE * dpid)
        if code in ATTACKER_REMOVED:
            if g.relabel:
                w.cap |= 1 << pid
            stays = False
    if not stays or to not in BACK_ROWS[owner]:
        return
    ended = last and termination is not None
    if g.flag_wins and not dpid:
        if ended and termination is Termination.FLAG_REACHED_BACK_ROW:
            w.facts &= ~((_ALL ^ FLAG_BIT) << BITS_PER_PIECE * pid)
            return
        w.facts &= ~(FLAG_BIT << BITS_PER_PIECE * pid)


def _relabel(g: Game, w: Walk, pid: int, owner: int) -> None:
    """Fold a rescue of piece `pid` that its owner's opponent, the viewer, does not see
    (Silent Defense): the viewer saw *some* piece of the owner's face-down pile come
    back, so it may not know which. The pile's pieces trade ids, by a rule that reads
    only public facts: the piece that came back takes the lowest id of the pile, the
    others the remaining ids in the order they had; whatever piece came back, the
    viewer sees the same ids. The pieces left in the pile become anonymous: the view
    shows for each the engine's public record of the whole pile (`seen_pieces`), and
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
    w.facts = w.facts & ~(_ALL << BITS_PER_PIECE * pid) | (_ALL ^ FLAG_BIT) << BITS_PER_PIECE * pid


def _one_rank(mask: int) -> Rank | None:
    """The rank of a mask of one rank (bit ``1 << rank``), else None."""
    return Rank(mask.bit_length() - 1) if mask and not mask & (mask - 1) else None


def _long_ranks(captain_two_step: bool) -> tuple[Rank | None, ...]:
    """The rank a quiet move shows of its mover, by ``100 * frm + to``: a Scout's for a
    longer straight move, under Ultimate Lightning a Captain's two-step off a straight
    line, else None (a step, or a straight two-step a Scout or a Captain may make): the
    engine's `reach_table` where it names one rank."""
    table = _long_tables.get(captain_two_step)
    if table is None:
        reach = reach_table(captain_two_step)
        table = _long_tables[captain_two_step] = tuple(
            _one_rank(reach[frm][to]) for frm in range(100) for to in range(100))
    return table


def seen_ply(g: Game, entry: _Entry, ply: int, player: Player,
              flag_end: bool = False, lab: tuple[int, ...] | None = None) -> SeenPly:
    """`entry` as `player` saw it; `flag_end`: it is the strike that won the game by
    capturing the Flag; `lab`: the ids `player` knows the pieces by (`Walk.lab`)."""
    seen = _seen_entry(g, entry, ply, player, flag_end)
    if lab is None:
        return seen
    return attrs.evolve(seen, piece=lab[seen.piece],
                        defender=None if seen.defender is None else lab[seen.defender])


def _seen_entry(g: Game, entry: _Entry, ply: int, player: Player,
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
        if defender.owner != player and not g.answers[piece.rank]:
            answer = Rank.FLAG if flag_end else g.shown[piece.rank][code]
        return SeenPly(ply, owner, move, move.to, pid, dpid, rank, answer, _RESULTS[code])
    if owner != player:
        rank = g.long_ranks[move.fi * 100 + move.ti]  # None, unless a long move shows it
    return SeenPly(ply, owner, move, move.to, pid, None, rank)


def seen_pieces(g: Game, state: GameState, player: Player, facts: int,
                 pids: list[int], lab: tuple[int, ...] | None = None,
                 anon: int = 0) -> tuple[SeenPiece, ...]:
    """The pieces `pids` of `state` as `player` sees them, given the packed `facts`;
    `lab` and `anon` as `Walk` has them (the ids the player knows the pieces by, the
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
            possible = mask & army_mask & ~FLAG_BIT
            moved = 0
        else:
            possible = mask & facts >> BITS_PER_PIECE * pid & army_mask
            if moved:
                possible &= ~immobile
        seen_id = pid if lab is None else lab[pid]
        key = ((((mask << BITS_PER_PIECE | possible) << 1 | moved) << 7 | index + 1) << pid_bits
               | seen_id)
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
