"""The playouts of `stratego.bots.SearchBot`: the short games it plays after a candidate
move in a sampled state, the evaluation that scores where they stop, and the opponent's
answers it searches.

A playout is a cheap, fixed policy for both sides: a strike when it pays on average over
what the struck piece may be, as the public record tells the pieces apart
(`PublicCounts`: a piece that has moved is no Bomb, an unmoved one late in the game likely
is), and otherwise a random step. It is cut off after a few plies and scored by
`Playouts.evaluate`: material whose worth changes as pieces fall (`dynamic_value`), less a
share for ranks the opponent knows, plus the threats standing beside a Flag; a finished
game counts `WIN`, and `squash` maps material to the 0-to-1 result the search's UCB1
averages. `Answers` keeps the opponent's answers to one candidate across the sampled
states, for the search to choose the one that hurts the candidate most.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from stratego._checks import as_state
from stratego.arguments import random_from
from stratego.board import NEIGHBOURS, SIZE, distance, paths
from stratego.bots.heuristic import PIECE_VALUES
from stratego.engine import apply, legal_moves
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.strike import ATTACKER_WINS, DEFENDER_REMOVED, DEFENDER_WINS, strike_table

if TYPE_CHECKING:
    from stratego.state import GameState

__all__ = ["RAID_REACH", "WIN", "Answers", "Playouts", "PublicCounts", "dynamic_value",
           "squash"]

_SCALE = 6.0
"""Material (in `PIECE_VALUES` units) that moves a result from 0.5 to about 0.88."""
WIN = 60.0
"""Material a won game counts as (a lost one as its opposite)."""
_RANKS = tuple(Rank)
_REVEALED = 0.1
"""Share of a piece's worth lost once the opponent knows its rank."""
_FLAG_THREAT = 1.5
"""Worth of a movable piece per step closer than three to the opponent's Flag."""
_FLAG = int(Rank.FLAG)
_BOMB = int(Rank.BOMB)
RAID_REACH = 4
"""Moves from a Flag (in the sampled state) within which an opponent piece raids it in a
playout (`Playouts.play`'s `raid`)."""
_FAR = 1 << 10
"""The raid distance of a square farther than `RAID_REACH` from the Flag, or cut off."""


def squash(material: float) -> float:
    """The result, from 0 (lost) to 1 (won), that `material` (`PIECE_VALUES` units, a won
    game counting `WIN`) counts as: 0.5 for none, about 0.88 for a Major's worth."""
    return 0.5 + 0.5 * math.tanh(material / _SCALE)


class Playouts:
    """Playouts and their evaluation, with the tables of the rules last played (the strike
    outcomes, the army's counts, the average gains of strikes and the ranks' worth), so one
    instance serves a bot's whole game and a new `Rules` rebuilds them."""

    __slots__ = ("_breaks", "_counts", "_gains", "_rules", "_stops", "_suspects", "_table",
                 "_values")

    def __init__(self) -> None:
        self._breaks: list[bool] = []
        self._stops: list[bool] = []
        self._suspects = 0
        self._gains: dict[tuple[int, int], float] = {}
        self._rules: Rules | None = None
        self._table: tuple[tuple[int, ...], ...] = ()
        self._counts: list[int] = []
        self._values: dict[tuple[int, int], float] = {}

    def evaluate(self, state: GameState, me: Player) -> float:
        """The worth of `me`'s pieces in `state` minus the opponent's (`PIECE_VALUES`
        units), where

        * a rank is worth more once the opponent has no piece of some rank above it: it
          counts as the rank that many steps higher, from Captain up (a General is worth
          a Marshal once the opponent's Marshal is gone), and a Spy counts little once
          the opponent's Marshal is gone;
        * a piece whose rank the opponent knows (`GameState.known`) loses `_REVEALED` of
          its worth (the value of keeping ranks unknown);
        * a piece that can move and stands within two steps of the opponent's Flag counts
          `_FLAG_THREAT` per step closer than three (Flag safety, both ways).

        Raises `stratego.errors.ArgumentError` for a `state` that is no `GameState` and
        `stratego.errors.InvalidNotationError` for a `me` that is no player.
        """
        board = as_state(state).board
        known = state.known
        mine = int(me if type(me) is Player else Player(me))
        present = [0, 0]
        flags: tuple[list[int], list[int]] = ([], [])
        pieces = []
        for index, code in enumerate(board):
            if code:
                rank = code & 15
                side = (code >> 4) & 1
                present[side] |= 1 << rank
                if rank == _FLAG:
                    flags[side].append(index)
                pieces.append((index, rank, side, code >> 5))
        values = self._values
        total = 0.0
        for index, rank, side, pid in pieces:
            key = (rank, present[1 - side])
            value = values.get(key)
            if value is None:
                value = dynamic_value(rank, present[1 - side])
                values[key] = value
            mask = known[pid]
            if rank != _FLAG and rank != _BOMB and mask & (mask - 1) == 0:
                value *= 1.0 - _REVEALED
            if rank != _FLAG and rank != _BOMB:
                for flag in flags[1 - side]:
                    steps = (abs(index // SIZE - flag // SIZE)
                             + abs(index % SIZE - flag % SIZE))
                    if steps <= 2:
                        value += _FLAG_THREAT * (3 - steps)
            total += value if side == mine else -value
        return total

    def play(self, state: GameState, move: Move, me: Player, base: float,
             rng: random.Random | int | None, public: PublicCounts, *, depth: int,
             answers: Answers | None = None, replies: int | None = None,
             exploration: float = 0.4, raid: float = 0.0,
             follow: int | None = None, flee: float = 0.0,
             defend: float = 0.0) -> float:
        """One playout after `move` in the sampled `state`, `depth` plies long: the
        material won (lost when negative) against `base`, the evaluation of `state`
        before the move (`evaluate`), a won game counting as `WIN`. Each side strikes
        when the strike pays on average over what the struck piece may be, weighed by
        `public` (the counts of the sampled state), and otherwise steps at random. With
        `answers`, the opponent's first answer is recorded there, and once it holds
        `replies` visits that answer is the one it chooses (by UCB1 with `exploration`:
        the answer the opponent has found best so far, or one to try). With `follow`
        too, `me`'s next move after that answer is recorded in ``answers.after(answer)``,
        and once that node holds `follow` visits it is the one the node chooses (on
        `me`'s side of the result): the opponent's answer is then met by the bot's best
        reply found so far rather than a random step, a third ply of the tree.

        With `raid`, at each ply of `me`'s opponent where no strike pays, that opponent
        raids `me`'s Flag with chance `raid` when it can: a piece within `RAID_REACH`
        moves of the Flag in the sampled state (around the Bombs, or through them for a
        piece that removes a Bomb it strikes, such as a Miner) steps closer, strikes a
        Bomb on its way, or strikes the Flag. Random steps almost never make such a walk
        in a few plies, and the real opponent's pieces do: a candidate that leaves a way
        to the Flag open then loses the playouts where the piece beside it is a Miner.
        `me`'s own pieces never raid (they would walk to a Flag the sampled state puts
        where the bot does not know it is).

        With `defend`, at each ply of `me` where no strike pays, `me` defends its own Flag
        with chance `defend` when it must: while a piece of the opponent that may remove
        Bombs by what is public (a Miner, or a hidden piece that may be one) stands within
        `RAID_REACH` moves of `me`'s Flag through the Bombs, `me`'s piece nearest such a
        raider among those that remove a Miner strikes it or steps closer to it
        (`_defend_step`), whatever the raider is in the sampled state.
        `me` knows where its own Flag is, so this walk, unlike a raid of `me`'s, is one
        the bot would make; random steps seldom bring a defender two steps in time, and
        with `defend` a candidate that brings one nearer keeps the Flag in more playouts.
        The dice are thrown only when there is such a raider and such a move, so a
        playout with none plays as without `defend`.

        With `flee`, at each ply where no strike pays and no raid is made, the side to
        move takes, with chance `flee`, a piece that stands beside an opponent piece of
        public rank that beats it to a square where none does (`_flights`), as a player
        moves a threatened piece away instead of leaving it to be struck.

        `rng` is the playout's dice: a `random.Random` (the search reseeds one for each
        playout, so the n-th playouts of its candidates throw the same), a seed, or
        None.

        Raises `stratego.errors.ArgumentError` for an `rng` that is none of these."""
        rng = random_from(rng, "Playouts.play")
        state = apply(state, move)
        rules = state.rules
        if self._rules is not rules:
            self._rules = rules
            self._gains = {}
            self._table = strike_table(rules.strike)
            self._counts = [0] * len(_RANKS)
            for rank in rules.army.ranks():
                self._counts[rank] += 1
            self._breaks = [row[_BOMB] in DEFENDER_REMOVED for row in self._table]
            breakers = [r for r, breaks in enumerate(self._breaks) if breaks]
            self._suspects = sum(1 << r for r in breakers)
            self._stops = [bool(breakers) and all(row[b] in DEFENDER_REMOVED
                                                  for b in breakers)
                           for row in self._table]
        gains = self._gains
        counts = self._counts
        table = self._table
        groups = public.groups
        local = public.gains
        answer: Move | None = None
        node: Answers | None = None  # the bot's answers to the opponent's answer
        reply: Move | None = None
        raider = 1 - int(me)
        raids = public.raid_distances(raider) if raid or defend else None
        breaks = self._breaks
        stops = self._stops
        for ply in range(depth):
            if state.outcome is not None:
                break
            moves = legal_moves(state)
            board = state.board
            known = state.known
            moved = state.moved_mask
            best: Move | None = None
            best_gain = 0.0
            quiet = []
            for m in moves:
                to = m.ti
                if to < 0:
                    quiet.append(m)
                    continue
                target = board[to]
                if not target:
                    quiet.append(m)
                    continue
                ra = board[m.fi] & 15
                pid = target >> 5
                mask = known[pid]
                if mask & (mask - 1):  # a hidden rank: weighed by the pieces like it
                    group = ((target >> 4) & 1, moved >> pid & 1, mask)
                    gain = local.get((ra, group))
                    if gain is None:
                        gain = _gain(table, groups.get(group, counts), ra, mask)
                        local[(ra, group)] = gain
                else:
                    gain = gains.get((ra, mask))
                    if gain is None:
                        gain = _gain(table, counts, ra, mask)
                        gains[(ra, mask)] = gain
                if gain > best_gain:
                    best, best_gain = m, gain
            raided = None
            if best is None and raid and raids is not None and state.turn == raider \
                    and rng.random() < raid:  # a strike that pays comes first
                raided = _raid_step(moves, board, raids, breaks, rng)
            elif best is None and defend and raids is not None and state.turn == me \
                    and (defended := _defend_step(moves, board, known, raids[1],
                                                  self._suspects, stops,
                                                  raider)) is not None \
                    and rng.random() < defend:  # no draw without a raider: dice kept
                raided = defended
            if raided is not None:
                best = raided
            elif best is None and flee and rng.random() < flee and (
                    flights := _flights(quiet, board, known, table)):
                best = flights[rng.randrange(len(flights))]
            elif best is None or rng.random() < 0.1:
                pool = quiet or list(moves)
                best = pool[rng.randrange(len(pool))]
            if ply == 0 and answers is not None:
                if replies is not None and answers.visits >= replies:
                    best = answers.choose(moves, best, exploration)
                answer = best
                if follow is not None:
                    node = answers.after(answer)
            elif ply == 1 and node is not None and state.turn == me:
                if follow is not None and node.visits >= follow:
                    best = node.choose(moves, best, exploration)
                reply = best
            state = apply(state, best)
        outcome = state.outcome
        if outcome is not None and outcome.winner is not None:
            gained = WIN if outcome.winner is me else -WIN
        else:
            gained = max(-WIN, min(WIN, self.evaluate(state, me) - base))
        if answer is not None and answers is not None:
            result = squash(gained)
            answers.record(answer, result)
            if reply is not None and node is not None:
                node.record(reply, result)
        return gained


class PublicCounts:
    """What the playouts of one sampled state weigh a hidden piece's ranks by: the ranks
    of that side's pieces on the board that the public record cannot tell apart from it
    (the same possible ranks, both moved or both unmoved), counted in the sampled state.
    A piece that has moved is then no Bomb, and late in the game an unmoved piece is
    likely one, as a player counting the pieces left would reckon; the strikes' average
    gains are kept per state. Raises `stratego.errors.ArgumentError` for a `state` that
    is not a `GameState`."""

    __slots__ = ("_board", "_raids", "gains", "groups")

    def __init__(self, state: GameState) -> None:
        board = as_state(state).board
        known = state.known
        moved = state.moved_mask
        groups: dict[tuple[int, int, int], list[int]] = {}
        for code in board:
            if code:
                pid = code >> 5
                mask = known[pid]
                if mask & (mask - 1):
                    key = ((code >> 4) & 1, moved >> pid & 1, mask)
                    counts = groups.get(key)
                    if counts is None:
                        counts = groups[key] = [0] * len(_RANKS)
                    counts[code & 15] += 1
        for (side, was_moved, mask), counts in list(groups.items()):
            if not was_moved and (side, 1, mask) not in groups:
                # a piece that moves in the playout: as its unmoved likes, less Bombs
                # and Flags
                stepped = list(counts)
                stepped[_FLAG] = stepped[_BOMB] = 0
                if any(stepped):
                    groups[(side, 1, mask)] = stepped
        self.groups = groups
        self.gains: dict[tuple[int, tuple[int, int, int]], float] = {}
        self._board = board
        self._raids: dict[int, tuple[list[int], list[int]] | None] = {}

    def raid_distances(self, side: Player | int) -> tuple[list[int], list[int]] | None:
        """The moves from each square (by index) to the nearest Flag of `side`'s opponent
        in the sampled state, up to `RAID_REACH` (1024 past it or cut off): for a piece of
        `side` that cannot remove a Bomb (around the Flag owner's Bombs and the lakes) and
        for one that can (through those Bombs); other pieces do not block, as they may
        move or be struck. None when that opponent has no Flag. Worked out at the first
        call for each side. Raises `InvalidNotationError` for a `side` that is no
        player."""
        side = int(side if type(side) is Player else Player(side))
        if side not in self._raids:
            board = self._board
            flags = [i for i, code in enumerate(board)
                     if code and code & 15 == _FLAG and (code >> 4) & 1 != side]
            self._raids[side] = ((_raid_distances(board, flags, False),
                                  _raid_distances(board, flags, True)) if flags else None)
        return self._raids[side]


class Answers:
    """The answers to one move, across the sampled states: how often each was played and
    the bot's summed result (0 to 1) after it.

    By default they are the opponent's answers to a candidate, chosen among the answers
    legal in the state at hand by UCB1 on the opponent's side of the result (one minus the
    bot's); with `mine` they are the bot's own answers (its next move after an answer of
    the opponent), chosen on its own side. An answer never tried counts as one visit at
    the node's mean, so new answers are tried while the ones known look no better for the
    side that chooses. The moves of different sampled states are the same `Move` when
    their squares are, so what an answer did in one state counts for it in all (the
    information-set reading of Monte Carlo tree search). `after` holds the bot's answers
    to each answer of the opponent (`Playouts.play`'s `follow`)."""

    __slots__ = ("count", "mine", "next", "sum", "total", "visits")

    def __init__(self, *, mine: bool = False) -> None:
        self.count: dict[Move, int] = {}
        self.total: dict[Move, float] = {}
        self.visits = 0
        self.sum = 0.0
        self.mine = mine
        self.next: dict[Move, Answers] = {}

    def after(self, move: Move) -> Answers:
        """The answers of the other side to `move`, one of this node's (made empty at the
        first call)."""
        node = self.next.get(move)
        if node is None:
            node = self.next[move] = Answers(mine=not self.mine)
        return node

    def choose(self, moves: tuple[Move, ...], default: Move, exploration: float) -> Move:
        """The answer to play among `moves`: the best for the side that chooses by UCB1
        with `exploration`, `default` (the playout policy's) on ties and before any
        answer was counted."""
        if not self.visits:
            return default
        log = math.log(self.visits)
        count = self.count
        total = self.total
        sign, offset = (1.0, 0.0) if self.mine else (-1.0, 1.0)
        untried = offset + sign * self.sum / self.visits + exploration * math.sqrt(log)

        def key(move: Move) -> float:
            n = count.get(move)
            return (untried if not n
                    else offset + sign * total[move] / n + exploration * math.sqrt(log / n))

        best, best_key = default, key(default)
        for move in moves:
            value = key(move)
            if value > best_key:
                best, best_key = move, value
        return best

    def most_played(self) -> Move | None:
        """The answer played most (the first found on ties); None before any."""
        count = self.count
        return max(count, key=count.__getitem__) if count else None

    def record(self, move: Move, result: float) -> None:
        """Count one playout in which the opponent answered `move` and the bot scored
        `result`."""
        self.count[move] = self.count.get(move, 0) + 1
        self.total[move] = self.total.get(move, 0.0) + result
        self.visits += 1
        self.sum += result



def _beaten(board: tuple[int, ...] | list[int], known: tuple[int, ...] | list[int],
            square: int, code: int, table: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the piece `code`, standing on `square`, would be beside an opponent piece of
    public rank that beats it when it strikes (its own pieces around it, the square it
    steps from among them, do not count)."""
    side = code & 16
    rank = code & 15
    for n in NEIGHBOURS[square]:
        other = board[n]
        if other and other & 16 != side:
            mask = known[other >> 5]
            if not mask & (mask - 1) and table[other & 15][rank] == ATTACKER_WINS:
                return True
    return False


def _flights(quiet: list[Move], board: tuple[int, ...] | list[int],
             known: tuple[int, ...] | list[int],
             table: tuple[tuple[int, ...], ...]) -> list[Move]:
    """The steps among `quiet` that take a piece standing beside an opponent piece of
    public rank that beats it to a square where no such piece stands beside it."""
    threatened: dict[int, bool] = {}
    flights = []
    for m in quiet:
        frm, to = m.fi, m.ti
        if to < 0:
            continue
        code = board[frm]
        here = threatened.get(frm)
        if here is None:
            here = threatened[frm] = _beaten(board, known, frm, code, table)
        if here and not _beaten(board, known, to, code, table):
            flights.append(m)
    return flights


def _raid_distances(board: tuple[int, ...] | list[int], flags: list[int],
                    through_bombs: bool) -> list[int]:
    """Moves from each square to the nearest of `flags` within `RAID_REACH` (`_FAR` past
    it), around the lakes and around the Flag owner's Bombs unless `through_bombs`."""
    owner = (board[flags[0]] >> 4) & 1

    def passable(square: int) -> bool:
        code = board[square]
        return through_bombs or not (code and code & 15 == _BOMB and (code >> 4) & 1 == owner)

    distances = [_FAR] * (SIZE * SIZE)
    for square, moves in paths(flags, passable, RAID_REACH).items():
        distances[square] = moves
    return distances


def _raid_step(moves: tuple[Move, ...], board: tuple[int, ...] | list[int],
               distances: tuple[list[int], list[int]], breaks: list[bool],
               rng: random.Random) -> Move | None:
    """A raiding move among `moves`: a strike on the Flag when there is one, else one drawn
    among the steps of pieces within `RAID_REACH` of the Flag that take them closer and
    the strikes on its Bombs on the way by pieces that remove them; None when there is
    none."""
    walk, breaker = distances
    options = []
    for m in moves:
        to = m.ti
        if to < 0:
            continue
        frm = m.fi
        breaks_bombs = breaks[board[frm] & 15]
        d = breaker if breaks_bombs else walk
        here = d[frm]
        if here > RAID_REACH or d[to] >= here:
            continue
        target = board[to]
        if target:
            struck = target & 15
            if struck == _FLAG:
                return m
            if struck != _BOMB or not breaks_bombs:
                continue  # other strikes are the strike policy's
        options.append(m)
    return options[rng.randrange(len(options))] if options else None


def _defend_step(moves: tuple[Move, ...], board: tuple[int, ...] | list[int],
                 known: tuple[int, ...] | list[int], distances: list[int],
                 suspects: int, stops: list[bool], raider: int) -> Move | None:
    """A defending move among `moves` (of the player whose Flag `distances` measures):
    a strike on a piece of `raider` that may remove Bombs, as far as the public record
    tells (its possible ranks in `known` meet the bit mask `suspects`), and stands
    within `RAID_REACH` moves of that Flag through the Bombs, by a piece that removes a
    Bomb-remover; else a step that takes the player's piece nearest such a raider, among
    those that remove a Bomb-remover, closer to it (by rows and files); None when there
    is no raider or no such move. The sampled ranks are not read: the defender does not
    know which suspect is the Miner, and may strike one that beats it."""
    raiders = [square for square, code in enumerate(board)
               if code and (code >> 4) & 1 == raider and known[code >> 5] & suspects
               and distances[square] <= RAID_REACH]
    if not raiders:
        return None
    chosen: Move | None = None
    nearest = _FAR
    away: dict[int, int] = {}  # each defender's distance to its nearest raider
    for m in moves:
        to = m.ti
        if to < 0:
            continue
        frm = m.fi
        if not stops[board[frm] & 15]:
            continue
        if to in raiders:
            return m
        if board[to]:
            continue  # other strikes are the strike policy's
        here = away.get(frm)
        if here is None:
            here = away[frm] = min(distance(frm, r) for r in raiders)
        if here < nearest and min(distance(to, r) for r in raiders) < here:
            chosen, nearest = m, here
    return chosen


def _gain(table: tuple[tuple[int, ...], ...], counts: list[int], ra: int,
          mask: int) -> float:
    """The average material a piece of rank `ra` wins striking a piece that may be any
    rank in `mask`, each rank weighted by how many the army has (`table` is
    `stratego.strike.strike_table` of the rules)."""
    total = 0.0
    weight = 0
    for rank in _RANKS:
        if mask >> rank & 1 and counts[rank]:
            n = counts[rank]
            weight += n
            code = table[ra][rank]
            attacker_removed = code != ATTACKER_WINS
            defender_removed = code != DEFENDER_WINS
            if defender_removed:
                total += n * PIECE_VALUES[rank]
            if attacker_removed:
                total -= n * PIECE_VALUES[ra]
    return total / weight if weight else 0.0


def dynamic_value(rank: int, opponent: int) -> float:
    """The worth of `rank` when the opponent has the ranks in the bit mask `opponent` on
    the board: an officer from Captain up counts one rank higher for each rank above it
    (up to the Marshal) the opponent no longer has; a Spy worth a Scout once the
    opponent's Marshal is gone."""
    if rank in (_FLAG, _BOMB) or Rank.SCOUT <= rank < Rank.CAPTAIN:
        return PIECE_VALUES[rank]
    if rank == Rank.SPY:
        return PIECE_VALUES[rank] if opponent >> Rank.MARSHAL & 1 else PIECE_VALUES[Rank.SCOUT]
    steps = sum(1 for r in range(rank + 1, Rank.MARSHAL + 1) if not opponent >> r & 1)
    return PIECE_VALUES[min(Rank.MARSHAL, rank + steps)]
