"""Behaviour clues (`stratego.sampling.behaviour`) and the beliefs that weigh them.

A clue is read off the public history: a hidden opponent piece that steps up to one of the
viewer's pieces whose rank the opponent knows (advance) or steps away from one that the
viewer just moved up to it (flee). The beliefs multiply the weight of the assignments that
give the clue's piece a favoured rank by the clue's factor; brute force over every
assignment checks that the mixture is exact.
"""

from __future__ import annotations

import collections
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stratego
from strategies import midgame_states, rules_values
from stratego import Player, Rank
from stratego.beliefs import Beliefs
from stratego.board import NEIGHBOURS
from stratego.bots import HeuristicBot, RandomBot
from stratego.editions import CLASSIC, by_name
from stratego.sampling import hidden_assignments, sample_state
from stratego.sampling.behaviour import (
    ADVANCE,
    ADVANCE_FACTOR,
    FLEE,
    FLEE_FACTOR,
    MAX_CLUES,
    Clue,
    clues,
)
from stratego.setup_model import sample_setup
from stratego.state import GameState
from stratego.strike import Side, resolve_strike
from stratego.views import view
from test_beliefs import _assert_draws_follow_the_marginals, _General, _marginals_of

BARRAGE = by_name("classic+barrage")
DUEL = by_name("jumbo-2014+duel")


def _states(rules: stratego.Rules, seed: int, plies: int, bot: type = RandomBot
            ) -> list[GameState]:
    state = stratego.new_game(rules, sample_setup(rules, Player.RED, seed),
                              sample_setup(rules, Player.BLUE, seed + 1000))
    bots = {Player.RED: bot(seed), Player.BLUE: bot(seed + 1)}
    out = [state]
    for _ in range(plies):
        if state.outcome is not None:
            break
        state = stratego.apply(state, bots[state.to_move](view(state, state.to_move)))
        out.append(state)
    return out


# small views with clues (found by playing random games): (rules, seed, plies, viewer)
WITH_CLUES = [(DUEL, 12, 60, Player.RED), (BARRAGE, 23, 90, Player.RED),
              (DUEL, 26, 90, Player.BLUE), (BARRAGE, 10, 90, Player.RED)]


@pytest.mark.parametrize(("rules", "seed", "plies", "viewer"), WITH_CLUES)
@pytest.mark.parametrize("kind", [Beliefs, _General])
def test_the_clues_weigh_exactly(rules: stratego.Rules, seed: int, plies: int, viewer: Player,
                                 kind: type[Beliefs]) -> None:
    """With clues, the weight of an assignment is its weight without them times the
    factor of each clue whose piece takes a favoured rank; the marginals and
    log-probabilities are those of the normalised weights over every assignment (brute
    force), through either chain."""
    state = _states(rules, seed, plies)[-1]
    v = view(state, viewer)
    b, plain = kind(v), kind(v, behaviour=False)
    assert b.clues
    assert not plain.clues
    weighted = []
    for a in hidden_assignments(v):
        expected = plain.weight(a) * math.prod(c.factor for c in b.clues
                                               if a[c.piece] in c.favoured)
        assert b.weight(a) == pytest.approx(expected)
        weighted.append((a, expected))
    total = sum(w for _, w in weighted)
    assert b.log_partition == pytest.approx(math.log(total))
    marg = _marginals_of(weighted)
    got = b.marginals()
    for pid, expected_marg in marg.items():
        for rank in set(expected_marg) | set(got[pid]):
            assert got[pid].get(rank, 0.0) == pytest.approx(expected_marg.get(rank, 0.0),
                                                            abs=1e-9)
    true = {p.id: Rank(p.rank) for p in state.info.pieces if p is not None}
    mine = {pid: true[pid] for pid in marg}
    assert b.log_prob(state) == pytest.approx(
        math.log(b.weight(mine) / total))
    # a clue moves mass toward its favoured ranks
    for c in b.clues:
        assert (sum(q for r, q in got[c.piece].items() if r in c.favoured)
                > sum(q for r, q in plain.marginals()[c.piece].items() if r in c.favoured))


def test_draws_with_clues_follow_the_marginals() -> None:
    """Draws come from the mixture: 2,000 seeded draws give each piece each rank as often
    as the marginals say (within five standard errors)."""
    rules, seed, plies, viewer = WITH_CLUES[0]
    b = Beliefs(view(_states(rules, seed, plies)[-1], viewer))
    assert b.clues
    _assert_draws_follow_the_marginals(b, random.Random(2))


def _wins(attacker: Rank, defender: Rank) -> bool:
    return resolve_strike(attacker, defender, CLASSIC).winner is Side.ATTACKER


def test_each_clue_is_the_step_it_names() -> None:
    """Every clue of every view of three heuristic games (flee clues looked for with a
    factor of 2) is what the module's text says: the
    step at `ply` moved the opponent's hidden `piece` without striking; `toward` is the
    viewer's piece, its rank known to the opponent before the step; an advance ends next
    to it from a square not next to it and favours the ranks that win striking it; a flee
    starts next to it, just after the viewer moved it there, ends away from it, and
    favours the ranks it wins against. At most `MAX_CLUES`, one per piece."""
    seen_kinds: collections.Counter[str] = collections.Counter()
    for seed in (1, 2, 3):
        _check_clues(_states(CLASSIC, seed, 300, HeuristicBot), seen_kinds)
    assert seen_kinds[ADVANCE]
    assert seen_kinds[FLEE]


def _check_clues(states: list[GameState], seen_kinds: collections.Counter[str]) -> None:
    for state in states[1::7]:
        for viewer in Player:
            v = view(state, viewer)
            found = clues(v, flee=2.0)
            assert len(found) <= MAX_CLUES
            assert len({c.piece for c in found}) == len(found)
            hidden = {p.id for p in v.hidden()}
            for c in found:
                seen_kinds[c.kind] += 1
                before, after = states[c.ply], states[c.ply + 1]
                step = v.history[c.ply]
                assert step.player is viewer.opponent
                assert step.piece == c.piece
                assert step.defender is None
                assert c.piece in hidden
                assert len(before.known_ranks(c.toward)) == 1
                assert after.piece_at(after.square_of(c.toward)).owner is viewer  # type: ignore[arg-type,union-attr]
                frm, to = step.move.frm.index, step.to.index  # type: ignore[union-attr]
                there = after.square_of(c.toward).index  # type: ignore[union-attr]
                if c.kind == ADVANCE:
                    assert there in NEIGHBOURS[to]
                    assert there not in NEIGHBOURS[frm]
                    assert c.factor == ADVANCE_FACTOR
                    assert c.favoured == {r for r in Rank if r not in (Rank.FLAG, Rank.BOMB)
                                          and _wins(r, c.rank)}
                else:
                    assert c.kind == FLEE
                    assert c.factor == 2.0
                    assert v.history[c.ply - 1].piece == c.toward
                    assert there in NEIGHBOURS[frm]
                    assert there not in NEIGHBOURS[to]
                    assert c.favoured == {r for r in Rank if _wins(c.rank, r)}


def test_two_states_with_the_same_view_give_the_same_clues() -> None:
    """Hidden-information safety: clues and the beliefs built on them read only the
    view, so a state drawn from the view gives the same clues, marginals and draws."""
    rules, seed, plies, viewer = WITH_CLUES[1]
    state = _states(rules, seed, plies)[-1]
    v = view(state, viewer)
    for k in range(3):
        other = sample_state(v, k)
        w = view(other, viewer)
        assert w == v
        assert clues(w) == clues(v) != ()
        assert Beliefs(w).marginals() == Beliefs(v).marginals()
        assert Beliefs(w).sample_ranks(4) == Beliefs(v).sample_ranks(4)


def test_no_history_no_clues_and_a_limit() -> None:
    """A view with no steps has no clues; `limit` keeps the latest ones; a kind whose
    factor is 1 is not looked for (flee, by default); the beliefs weigh no clue of
    factor 1."""
    state = _states(CLASSIC, 1, 0)[-1]
    assert clues(view(state, Player.RED)) == ()
    rules, seed, plies, viewer = WITH_CLUES[0]
    v = view(_states(rules, seed, plies)[-1], viewer)
    found = clues(v, limit=5)
    assert clues(v, limit=1) == found[-1:]
    assert clues(v, limit=0) == ()
    assert all(isinstance(c, Clue) for c in found)
    assert FLEE_FACTOR == 1.0
    assert all(c.kind == ADVANCE for c in found)
    assert clues(v, advance=1.0) == ()
    assert not Beliefs(v, behaviour=False).clues


@settings(max_examples=60, deadline=None)
@given(state=midgame_states(rules_values()), flee=st.sampled_from([1.0, 2.0]))
def test_clues_hold_their_invariants_under_every_rules(state: GameState, flee: float) -> None:
    """Under every edition and variant (Rescue, moving Bombs, Silent Defense...), the clues
    of either player's view name hidden opponent pieces on the board, at most one each and
    at most `MAX_CLUES`, in the order of their steps, each toward a piece of the viewer's,
    favouring some rank; and they never raise."""
    for viewer in Player:
        v = view(state, viewer)
        found = clues(v, flee=flee)
        assert len(found) <= MAX_CLUES
        assert [c.ply for c in found] == sorted({c.ply for c in found})
        hidden = {p.id for p in v.hidden() if p.square is not None}
        for c in found:
            assert c.piece in hidden
            assert c.favoured
            assert v.history[c.ply].piece == c.piece
            assert v.piece(c.toward).owner is viewer


def test_bad_arguments_are_refused_by_name() -> None:
    """Anything but a view, a negative or fractional limit, or a factor that is not a
    positive number is refused with `ArgumentError`, naming it."""
    from stratego.errors import ArgumentError

    v = view(_states(CLASSIC, 1, 10)[-1], Player.RED)
    with pytest.raises(ArgumentError, match="not a player's view: 'view'"):
        clues("view")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="limit must be"):
        clues(v, limit=-1)
    with pytest.raises(ArgumentError, match="limit must be"):
        clues(v, limit=1.5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="advance must be"):
        clues(v, advance=0)
    with pytest.raises(ArgumentError, match="flee must be"):
        clues(v, flee=float("nan"))
