"""Silent Defense with Rescue: which piece of the face-down pile a hidden Rescue brought back.

Under Silent Defense with Rescue the viewer sees *some* piece of the opponent's face-down pile
come back, and its view relabels the pile. The hidden state also holds which piece it was:
`latent_choices` folds the view's public history once per answer (a `Latent`), with exact
per-piece rank sets and the count of assignments each answer leaves, and `latent_view` gives
the view under the state's own ids for an answer, which `build_state` rebuilds.
"""

from __future__ import annotations

import attrs

from stratego.engine import initial_rank_mask, reach_mask
from stratego.pieces import Player, Rank
from stratego.sampling.counting import Problem, SamplingError
from stratego.sampling.rebuild import CODES
from stratego.strike import ATTACKER_WINS, DEFENDER_WINS, consistent_table
from stratego.views import PlayerView, SeenPiece, SeenPly


def hidden_rescues(v: PlayerView) -> bool:
    """Whether the view holds an opponent's rescue whose piece it does not see."""
    return any(ply.move is None for ply in v.history)


_FIELDS = ("true_of", "ident", "moved", "ever", "rescued", "noscout", "mixed", "spent")


class Latent:
    """One answer to "which piece of the pile came back?" for every hidden rescue of a
    view (see `latent_choices`): per id the view shows (a label), the piece behind it
    and what the public record tells of that piece itself, with the count of rank
    assignments it leaves."""

    __slots__ = (
        "alias",
        "choices",
        "cut",
        "ever",
        "ident",
        "mixed",
        "moved",
        "noscout",
        "pieces",
        "problem",
        "rescued",
        "spent",
        "true_of",
        "view",
        "weight",
    )

    true_of: list[int]
    ident: list[int]
    moved: list[bool]
    ever: list[bool]
    rescued: list[bool]
    noscout: list[bool]
    mixed: list[bool]
    spent: list[bool]

    def __init__(self) -> None:
        self.choices: tuple[int, ...] = ()
        self.cut: list[tuple[int, list[int]]] = []  # per hidden rescue: ply, true_of after
        self.problem: Problem | None = None
        self.pieces: list[tuple[int, int]] = []  # (the state's id, possible ranks) to place
        self.alias: dict[int, int] = {}  # the problem's piece ids -> this answer's
        self.weight = 0
        self.view: PlayerView | None = None

    def branch(self, j: int, pile: list[int]) -> Latent:
        """A copy in which the piece labelled ``pile[j]`` came back and took ``pile[0]``."""
        other = Latent()
        other.choices = (*self.choices, j)
        other.cut = list(self.cut)
        for name in _FIELDS:
            old = getattr(self, name)
            new = list(old)
            new[pile[0]] = old[pile[j]]
            for i in range(j):
                new[pile[i + 1]] = old[pile[i]]
            setattr(other, name, new)
        return other


def latent_choices(v: PlayerView) -> list[Latent]:
    """Every answer to which piece each hidden rescue brought back, weighted.

    Under Silent Defense with Rescue the viewer sees *some* piece of the opponent's
    face-down pile come back, and its view relabels the pile (the piece that came back
    takes the pile's lowest id: `stratego.views.reveal._relabel`) and shows the pile's pieces
    with what was known of the pile as a whole. The hidden state holds which piece it
    was; this folds the view's public history once per answer (the record of strikes
    and long moves, as the engine keeps it, follows each piece under its ids), giving
    per answer the state's ids behind the view's and exact per-piece rank sets, and
    counts the rank assignments each answer leaves. Drawing an answer in proportion to
    its count, then an assignment uniformly, draws uniformly over the hidden states."""
    rules = v.rules
    me = v.player
    opponent = me.opponent
    everyone = v.all_pieces()
    n = len(everyone) + 1
    owner: list[Player | None] = [None, *(p.owner for p in everyone)]
    consistent = consistent_table(rules.strike)
    start = initial_rank_mask(rules, ())
    for army in v.armies:
        for rank in Rank:
            if army[rank]:
                start |= 1 << rank
    captain2 = rules.movement.captain_two_step
    root = Latent()
    root.true_of = list(range(n))
    root.ident = [start] * n
    root.moved = [False] * n
    root.ever = [False] * n
    root.rescued = [False] * n
    root.noscout = [False] * n
    root.mixed = [False] * n
    root.spent = [False] * n  # made a rescue (one piece cannot make both)
    captured0 = {p.id for p in everyone if p.start is None}
    leaves: list[Latent] = []

    def fold(node: Latent, i: int, captured: set[int], prev: int) -> None:
        history = v.history
        while i < len(history):
            ply = history[i]
            pid = ply.piece
            move = ply.move
            if move is None:  # a rescue the viewer does not see
                if ply.player is not opponent:
                    raise SamplingError(f"history[{i}]: only the opponent's rescue is hidden")
                pile = sorted(q for q in captured if owner[q] is opponent)
                if not pile or pid != pile[0]:
                    raise SamplingError(f"history[{i}]: a hidden rescue shows the lowest id of "
                                        f"the pile it came from")
                rest = captured - {pid}
                if node.spent[prev]:  # this answer has one piece make both rescues
                    return
                for j in range(len(pile)):
                    other = node.branch(j, pile)
                    other.moved[pid] = False
                    other.rescued[pid] = True
                    other.noscout[prev] = True
                    other.spent[prev] = True
                    for q in pile:
                        other.mixed[q] = True
                    other.cut.append((i, list(other.true_of)))
                    fold(other, i + 1, set(rest), pid)
                return
            if move.frm is None:  # a rescue the viewer sees, or a declined one
                if move.is_rescue:
                    if node.spent[prev]:
                        return
                    captured.discard(pid)
                    node.rescued[pid] = True
                    node.noscout[prev] = True
                    node.spent[prev] = True
                    node.moved[pid] = False
            elif ply.defender is None:
                node.ident[pid] &= reach_mask(move.frm.index, move.to.index, captain2)  # type: ignore[union-attr]
                node.moved[pid] = node.ever[pid] = True
            else:
                dpid = ply.defender
                code = CODES[ply.result] if ply.result is not None else -1
                if ply.rank is None or code < 0:
                    raise SamplingError(f"history[{i}]: a strike shows the attacker's rank "
                                        f"and its result")
                node.ident[pid] &= 1 << ply.rank
                node.moved[pid] = node.ever[pid] = True
                if not rules.disclosure.answers(ply.rank):
                    node.ident[dpid] &= consistent[ply.rank][code]
                elif ply.defender_rank is not None:
                    node.ident[dpid] &= 1 << ply.defender_rank
                if code != DEFENDER_WINS:
                    captured.add(dpid)
                if code != ATTACKER_WINS:
                    captured.add(pid)
            prev = pid
            i += 1
        leaves.append(node)

    fold(root, 0, set(captured0), 0)
    counts = list(v.armies[opponent])
    for p in everyone:
        if p.owner is opponent and p.rank is not None:
            counts[p.rank] -= 1
    if any(c < 0 for c in counts):
        raise SamplingError(f"the view shows more {opponent} pieces of a rank than its army has")
    available = sum(1 << r for r in Rank if counts[r])
    army_mask = sum(1 << r for r in Rank if rules.army.count(r))
    immobile = (0 if rules.movement.bombs_move else 1 << Rank.BOMB) | (
        0 if rules.movement.flag_moves else 1 << Rank.FLAG)
    # answers often leave the same sets (but for which ids have them): count them once
    shared: dict[tuple[int, ...], Latent] = {}
    for leaf in leaves:
        pieces = []
        fits = True
        for p in everyone:
            if p.owner is not opponent:
                continue
            mask = sum(1 << r for r in p.possible)
            label = p.id
            if leaf.mixed[label]:
                mask &= leaf.ident[label] & army_mask & ~(1 << Rank.FLAG)
                if leaf.rescued[label]:
                    mask &= ~(1 << Rank.BOMB)
                if leaf.noscout[label]:
                    mask &= ~(1 << Rank.SCOUT)
                if leaf.ever[label]:
                    mask &= ~immobile
            if p.rank is not None:
                fits = fits and bool(mask >> p.rank & 1)
            else:
                mask &= available
                fits = fits and bool(mask)
                pieces.append((leaf.true_of[label], mask))
        if fits:
            leaf.pieces = sorted(pieces, key=lambda item: (item[1], item[0]))
            key = tuple(mask for _, mask in leaf.pieces)
            first = shared.get(key)
            if first is None:
                first = shared[key] = leaf
                leaf.problem = Problem.from_sets(tuple(counts), leaf.pieces)
                leaf.weight = leaf.problem.total()
            else:  # pieces with the same set are interchangeable: same count, ids mapped
                leaf.problem = first.problem
                leaf.weight = first.weight
            leaf.alias = {a: b for (a, _), (b, _) in zip(first.pieces, leaf.pieces,
                                                         strict=True)}
    return [leaf for leaf in leaves if leaf.weight]


def latent_view(v: PlayerView, leaf: Latent) -> PlayerView:
    """The view `v` under the state's own ids for the answer `leaf`: a view of the same
    game that `build_state` rebuilds into a state whose view is `v`."""
    if leaf.view is not None:
        return leaf.view
    true_of = leaf.true_of
    starts = {p.id: p.start for p in v.all_pieces()}

    def piece(p: SeenPiece) -> SeenPiece:
        x = true_of[p.id]
        moved = leaf.moved[p.id] if leaf.mixed[p.id] else p.moved
        return attrs.evolve(p, id=x, moved=moved, start=starts[x])

    cuts = leaf.cut
    plies: list[SeenPly] = []
    labels = list(range(len(true_of)))
    c = 0
    for i, ply in enumerate(v.history):
        if c < len(cuts) and cuts[c][0] == i:
            labels = cuts[c][1]
            c += 1
        if labels is not None and (labels[ply.piece] != ply.piece or (
                ply.defender is not None and labels[ply.defender] != ply.defender)):
            ply = attrs.evolve(ply, piece=labels[ply.piece], defender=(
                None if ply.defender is None else labels[ply.defender]))
        plies.append(ply)
    pieces = tuple(piece(p) for p in v.pieces)
    captured = tuple(sorted((piece(p) for p in v.captured), key=lambda p: p.id))
    pending = None
    if v.pending_rescue is not None:
        pending = next(p for p in pieces + captured if p.id == true_of[v.pending_rescue.id])
    red, blue = ((true_of[s[0]], *s[1:]) if s[0] else s for s in v.shuttles)
    shuttles = (red, blue)
    leaf.view = attrs.evolve(
        v, pieces=pieces, captured=captured, history=tuple(plies), pending_rescue=pending,
        rescuers=frozenset(true_of[pid] for pid in v.rescuers),
        shuttles=shuttles)
    return leaf.view
