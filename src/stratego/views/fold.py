"""`view` and `rank_masks`: the public history folded into what a player knows.

A view reads the whole public history. So that its cost does not grow with
the game, the history is folded one entry at a time and the fold is cached
per history node (`GameState.history` is a persistent linked list shared by
a state and its successors): the view of a state resumes from the nearest
ancestor node with a cached `Snapshot`.

The snapshot of a node is the fold of every entry before the node's own
entry. Those entries are final: what they show can depend on the entry
after them (whether a Rescue decision followed), and that one is known. The
node's own entry, the last one of the state's history, is folded when the
view is built, on a copy, with what only the state knows (how the game
ended, whether a Rescue decision is pending).

The fold of one entry is `stratego.views.reveal`'s; this module walks the history with it
and keeps the caches (bounded, shared between threads under one lock). A snapshot keeps its
whole game alive (the history chain, the `SeenPly` of every entry, the game's `Game`
tables), so the cache keeps the snapshots of at most `_PINNED_GAMES` games: viewing a new
game once its snapshots would exceed that drops every snapshot of the game least recently
viewed.

A view also gives the quiet moves of a running chase (ISF 11, Jumbo 2014), which
`stratego.repetition.chase_moves` recovers from the chase record's position hashes one
position at a time: they are cached per record (`_chase_cache`), so that the view of the
next position of a chase recovers only its last move.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from stratego._checks import as_player, as_state
from stratego.board import SQUARES
from stratego.engine import legal_moves
from stratego.moves import Move
from stratego.pieces import Player
from stratego.repetition import CHASE_HASHES, chase_moves
from stratego.state import GameInfo, GameState, Termination
from stratego.views.reveal import (
    BITS_PER_PIECE,
    FLAG_BIT,
    Game,
    Snapshot,
    Walk,
    fold_entry,
    seen_pieces,
    seen_ply,
)
from stratego.views.values import PlayerView, SeenHistory, SeenPly

__all__ = ["rank_masks", "view"]

_CACHE_SIZE = 4096  # snapshots kept (per history node and player; least recently used go)
_CHECKPOINT = 128  # a long fold also caches a snapshot every this many entries
_TAIL = 64  # entries a snapshot may add to its parent's history tuple before rebasing it
_GAMES_SIZE = 64  # games whose `Game` tables are kept
_PINNED_GAMES = 256  # games whose snapshots are kept (the least recently viewed go)
_CHASE_SIZE = 64  # chase records whose moves are kept

_lock = threading.Lock()
_cache: dict[int, Snapshot] = {}  # id(node) * 2 + player -> snapshot; it holds the node
_games: dict[int, Game] = {}  # id(info) -> tables; the tables hold the info
# id(snapshot.game) -> the keys of that game's snapshots in `_cache`, least recently viewed
# game first (a game is listed exactly while `_cache` holds one of its snapshots)
_pinned: dict[int, set[int]] = {}
# a chase record's position hashes -> the quiet moves between them
_chase_cache: dict[tuple[int, ...], tuple[Move, ...]] = {}

_EMPTY_HISTORY = SeenHistory()


def _clear_cache() -> None:
    """Forget every cached history fold (the next views are computed from the start)."""
    with _lock:
        _cache.clear()
        _games.clear()
        _pinned.clear()
        _chase_cache.clear()


def _unpin(key: int, snap: Snapshot) -> None:
    """Note that `snap`, cached under `key`, left `_cache` (call with the lock held)."""
    keys = _pinned.get(id(snap.game))
    if keys is not None:
        keys.discard(key)
        if not keys:
            del _pinned[id(snap.game)]


def _game(info: GameInfo) -> Game:
    game = _games.get(id(info))
    if game is None or game.info is not info:
        game = Game(info)
        with _lock:
            if len(_games) >= _GAMES_SIZE:
                _games.clear()
            _games[id(info)] = game
    return game


def _snapshot(info: GameInfo, node: Any, player: Player) -> Snapshot:
    """The snapshot of `node`, a history node of a game of `info`, for `player`:
    cached, or folded from the nearest ancestor cached for `player`."""
    key = id(node) << 1 | player
    hit = _cache.get(key)
    if hit is not None and hit.node is node and hit.game.info is info:
        with _lock:  # most recently used last, and its game most recently viewed
            if _cache.get(key) is hit:
                _cache[key] = _cache.pop(key)
                keys = _pinned.pop(id(hit.game), None)
                if keys is not None:
                    _pinned[id(hit.game)] = keys
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
    marks: list[tuple[int, Walk]] = []
    steps = len(path) - 1
    for j in range(steps):
        entry = path[j][1]
        ply = w.ply
        fold_entry(g, w, entry, path[j + 1][1][0], player)
        seen.append(seen_ply(g, entry, ply, player, lab=w.lab))
        if (j + 1) % _CHECKPOINT == 0 and j + 1 < steps:
            marks.append((j + 1, w.copy()))
    done = start.cut + len(start.tail)
    made = []
    if marks or len(start.tail) + steps >= max(_TAIL, math.isqrt(done + steps)):
        base = start.history() + tuple(seen)
        for j, mark in marks:
            made.append(Snapshot(path[j], g, mark, base, done + j, ()))
        snap = Snapshot(node, g, w, base, done + steps, ())
    else:
        snap = Snapshot(node, g, w, start.base, start.cut, start.tail + tuple(seen))
    made.append(snap)
    gid = id(g)
    with _lock:
        keys = _pinned.pop(gid, None)  # the game is the most recently viewed
        if keys is None:
            keys = set()
        _pinned[gid] = keys
        for made_snap in made:  # most recently used last
            key = id(made_snap.node) << 1 | player
            old = _cache.pop(key, None)
            if old is not None and old.game is not g:
                _unpin(key, old)
            _cache[key] = made_snap
            keys.add(key)
        while len(_cache) > _CACHE_SIZE:
            key = next(iter(_cache))
            _unpin(key, _cache.pop(key))
        while len(_pinned) > _PINNED_GAMES:  # the least recently viewed game goes
            for key in _pinned.pop(next(iter(_pinned))):
                del _cache[key]
    return snap


def _chase_moves(board: tuple[int, ...], chase: tuple[int, ...]) -> tuple[Move, ...]:
    """The quiet moves of the chase record `chase` (not empty) that ends on `board`
    (`stratego.repetition.chase_moves`), oldest first: from the cached moves of the same
    record one position shorter (the chase's previous position) when there are some, so
    that only the last move is recovered."""
    hashes = chase[CHASE_HASHES:]
    moves = _chase_cache.get(hashes)
    if moves is not None:
        return moves
    earlier = _chase_cache.get(hashes[:-1]) if len(hashes) > 1 else None
    if earlier is not None:  # the record's last two positions give its last move
        (frm, to), = chase_moves(board, chase[:CHASE_HASHES] + hashes[-2:])
        moves = (*earlier, Move(SQUARES[frm], SQUARES[to]))
    else:
        moves = tuple(Move(SQUARES[frm], SQUARES[to]) for frm, to in chase_moves(board, chase))
    with _lock:
        if len(_chase_cache) >= _CHASE_SIZE:
            _chase_cache.clear()
        _chase_cache[hashes] = moves
    return moves


def view(state: GameState, player: Player | str) -> PlayerView:
    """What `player` sees of `state`: own ranks, public facts, nothing hidden.

    The opponent's ranks appear only once revealed (by a strike, a long move
    only a Scout can make, or what the game's end shows); under Silent Defense
    the opponent's captured pieces whose rank was never revealed stay hidden.

    Building a view costs about the same at any point of a game: the public
    history is read incrementally, from the views built of earlier states of
    the same game (a bounded cache, safe to share between threads).

    Raises `InvalidNotationError` for a `player` that is not one (``"red"`` and
    ``"blue"`` are read as names) and `ArgumentError` for a `state` that is not a
    `GameState`.
    """
    as_state(state)
    player = as_player(player)
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
        fold_entry(g, w, node[1], None, player, termination, state.pending)
        facts = w.facts
        lab, anon = w.lab, w.anon
        last = seen_ply(g, node[1], snap.walk.ply, player,
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
                    and known[pid] & FLAG_BIT):
                no_flag &= ~(FLAG_BIT << BITS_PER_PIECE * pid)
    facts &= ~no_flag
    pieces = seen_pieces(g, state, player, facts,
                          [code >> 5 for code in state.board if code], lab, anon)
    captured_mask = state.captured_mask
    in_pile = [pid for pid in range(1, len(g.table)) if captured_mask >> pid & 1]
    if lab is not None:
        in_pile.sort(key=lab.__getitem__)
    captured = seen_pieces(g, state, player, facts, in_pile, lab, anon)
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
        chase=(chase[0], len(chase) - CHASE_HASHES) if chase else (0, 0),
        last_to=SQUARES[state.last_to] if state.last_to >= 0 else None,
        chase_moves=_chase_moves(state.board, chase) if chase else (),
        counter_chase=len(chase) - CHASE_HASHES - chase[2] + 1 if chase and chase[2] else 0,
    )


def identities(state: GameState, player: Player) -> tuple[tuple[int, ...] | None, int]:
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
    fold_entry(snap.game, w, node[1], None, player, termination, state.pending)
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
    as_state(state)
    player = as_player(player)
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
        fold_entry(g, w, node[1], None, player, termination, state.pending)
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
                    possible = known[pid] & facts >> BITS_PER_PIECE * pid & army_mask
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
                               [(pid, BITS_PER_PIECE * pid, bits[pid])
                                for pid in range(1, len(owners))
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
                out[pid] = known[pid] & army_mask & ~FLAG_BIT
        return tuple(out)
    masks = tuple(out)
    if len(_last_masks) >= _GAMES_SIZE:
        _last_masks.clear()
        _sides.clear()
    _last_masks[key] = (known, facts, moved_mask, captured, g, masks)
    return masks
