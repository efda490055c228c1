"""Hypothesis strategies shared by every property test.

Add new strategies here (append at the end) rather than in test files.
"""

from __future__ import annotations

import random

import attrs
from hypothesis import strategies as st

import stratego
from stratego import GameState, Player, Rules
from stratego.editions import EDITIONS
from stratego.variants import VARIANTS

BASE_EDITIONS: list[Rules] = list(EDITIONS.values())

editions = st.sampled_from(BASE_EDITIONS)
"""One of the four base editions."""

variant_sets = st.sets(st.sampled_from(sorted(VARIANTS)), max_size=3)
"""A small set of variant names (may contain incompatible ones)."""


@st.composite
def rules_values(draw: st.DrawFn, with_variants: bool = True) -> Rules:
    """An edition with a compatible random set of variants."""
    rules = draw(editions)
    if not with_variants:
        return rules
    for name in sorted(draw(variant_sets)):
        try:
            rules = rules.with_variants(VARIANTS[name])
        except stratego.RulesError:
            continue
    return rules


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def new_games(draw: st.DrawFn, rules: st.SearchStrategy[Rules] | None = None) -> GameState:
    """A new game with random setups (seeded, so shrinking works on the seed)."""
    chosen = draw(rules if rules is not None else editions)
    seed = draw(seeds)
    return stratego.new_game(
        chosen,
        stratego.random_setup(chosen, Player.RED, seed),
        stratego.random_setup(chosen, Player.BLUE, seed + 1),
    )


def random_playout(state: GameState, seed: int, plies: int) -> list[GameState]:
    """States of a seeded random playout of at most `plies` plies, starting with `state`."""
    rng = random.Random(seed)
    states = [state]
    for _ in range(plies):
        moves = stratego.legal_moves(state)
        if not moves:
            break
        state = stratego.apply(state, rng.choice(moves))
        states.append(state)
    return states


@st.composite
def midgame_states(draw: st.DrawFn, rules: st.SearchStrategy[Rules] | None = None,
                   max_plies: int = 300) -> GameState:
    """A state reached by a random playout of up to `max_plies` plies."""
    start = draw(new_games(rules))
    plies = draw(st.integers(min_value=0, max_value=max_plies))
    return random_playout(start, draw(seeds), plies)[-1]


Placement = dict[stratego.Square | str, tuple[Player, stratego.Rank] | str]


@st.composite
def scattered_placements(draw: st.DrawFn, rules: st.SearchStrategy[Rules] | None = None,
                         max_on_board: int = 12, flag_anywhere: bool = False,
                         ) -> tuple[Rules, Placement, Player, list[tuple[Player, stratego.Rank]]]:
    """The arguments of `from_position` (rules, placement, player to move, captured) for
    `scattered_positions`; with `flag_anywhere`, a Flag may also stand on the opponent's
    back row under Moving Flag, where it has already won."""
    chosen = draw(rules if rules is not None else rules_values())
    rng = random.Random(draw(seeds))
    free = [sq for sq in stratego.SQUARES if not sq.is_lake]
    rng.shuffle(free)
    placement: Placement = {}
    captured: list[tuple[Player, stratego.Rank]] = []
    for player in Player:
        ranks = chosen.army.ranks()
        rng.shuffle(ranks)
        ranks.sort(key=lambda rank: rank != stratego.Rank.FLAG)  # a captured Flag ends a game
        count = rng.randint(1, min(max_on_board, len(ranks)))
        for rank in ranks[:count]:
            square = free.pop()
            if rank == stratego.Rank.FLAG and chosen.flag_on_back_row_wins and not flag_anywhere:
                # Moving Flag: a Flag on the opponent's back row has already won
                back = 9 if player is Player.RED else 0
                while square.row == back:
                    free.insert(0, square)
                    square = free.pop()
            placement[square] = (player, rank)
        captured.extend((player, rank) for rank in ranks[count:])
    return chosen, placement, rng.choice(list(Player)), captured


@st.composite
def scattered_positions(draw: st.DrawFn, rules: st.SearchStrategy[Rules] | None = None,
                        max_on_board: int = 12) -> GameState:
    """A position with a few pieces of each side scattered anywhere on the board (so they
    soon reach the opponent's back row) and the rest of each army captured: the positions
    where Rescue decisions, Moving Flag wins and Captain two-steps happen often."""
    chosen, placement, to_move, captured = draw(scattered_placements(rules, max_on_board))
    return stratego.from_position(chosen, placement, to_move=to_move, captured=captured)


def hidden_pieces(state: GameState, v: stratego.PlayerView) -> list[stratego.SeenPiece]:
    """`v.hidden()` under `state`'s own piece ids, without the pieces of a pile a hidden
    rescue came from (Silent Defense with Rescue): the view shows those
    under ids that do not follow them, with what is known of the pile as a whole, so a
    swap of their ranks that the shown sets allow may be one the game's record refuses."""
    from stratego.views.fold import identities

    labels, mixed = identities(state, v.player)
    if labels is None:
        return list(v.hidden())
    true_of = {label: pid for pid, label in enumerate(labels)}
    return [attrs.evolve(p, id=true_of[p.id]) for p in v.hidden()
            if not mixed >> true_of[p.id] & 1]
