"""The hidden-information guarantee, tested differentially (docs/hidden-information.md).

For a player P, everything P can observe (its view and the view's JSON and repr; when P is
to move, `legal_moves` and their order, `is_legal`, the action mask, the text of
`explain_illegal` and of `IllegalMoveError`, the line protocol's move message and the
search bot's choice) is a function of P's view alone. So two states
with the same view of P must look the same to P in every one of these ways. The other
states come from two independent sources:

* the sampler (`stratego.sampling.Sampler`), and
* a replay of the same game from the same start with P's opponent's unrevealed pieces
  permuted among themselves where the view allows it (each piece keeps a rank its
  `SeenPiece.possible` allows).

The sweep runs every edition with every compatible set of variants; the property runs
random rules and positions.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from positions import scattered
from strategies import hidden_pieces, random_playout, rules_values, scattered_positions, seeds
from stratego import GameState, IllegalMoveError, Move, Player, Rank, Rules
from stratego.board import LANES, NEIGHBOURS, SQUARES
from stratego.bots import SearchBot
from stratego.editions import EDITIONS, OPTIONS
from stratego.encoding import legal_action_mask
from stratego.explain import explain_illegal
from stratego.protocol import move_message
from stratego.sampling import Sampler
from stratego.variants import VARIANTS
from stratego.views import PlayerView, SeenPiece, view

HAS_NUMPY = importlib.util.find_spec("numpy") is not None
"""Whether the legal-action mask can be compared (it is in CI, which installs every extra)."""
HAS_RL = HAS_NUMPY and all(importlib.util.find_spec(name) is not None
                           for name in ("gymnasium", "pettingzoo"))
"""Whether the environments' texts can be compared (in CI too)."""


def _combinations() -> list[Rules]:
    out: dict[str, Rules] = {}  # by name: some sets give the same rules
    names = sorted(VARIANTS)
    for edition in EDITIONS.values():
        for k in range(len(names) + 1):
            for chosen in itertools.combinations(names, k):
                try:
                    rules = edition.with_variants(*(VARIANTS[n] for n in chosen))
                except stratego.RulesError:
                    continue
                out.setdefault(rules.name, rules)
    # the editions' options (the five-move ISF reading, the half-board Rescue zone): alone,
    # with each variant, and with Rescue beside Silent Defense (what the half zone changes)
    for option in OPTIONS.values():
        for chosen in [(), *((n,) for n in names), ("rescue", "silent-defense")]:
            try:
                rules = option.with_variants(*(VARIANTS[n] for n in chosen))
            except stratego.RulesError:
                continue
            out.setdefault(rules.name, rules)
    return list(out.values())


COMBINATIONS = _combinations()


# -- building other states with the same view -------------------------------------------


def replay_with(state: GameState, ranks: dict[int, Rank]) -> GameState | None:
    """`state`'s game replayed from its start with the pieces' ranks replaced by `ranks`
    (by id); None if the start is then no position of the game (under Moving Flag, a Flag
    on the opponent's back row) or a move of the record is illegal then (no such game)."""
    start = state.initial_placement()
    on_board = {p.id for p in start.values()}
    try:
        other = stratego.from_position(
            state.rules, {sq: (p.owner, ranks[p.id]) for sq, p in start.items()},
            to_move=Player(state.info.initial_turn),
            captured=[(p.owner, ranks[p.id]) for p in state.all_pieces()
                      if p.id not in on_board])
    except stratego.PositionError:
        return None
    for record in state.history_records():
        move = record.move
        if move.is_rescue and move.to is not None:
            move = Move.rescue(ranks[record.piece.id], move.to)
        try:
            other = stratego.apply(other, move)
        except IllegalMoveError:
            return None
    return other


def _allowed(ranks: dict[int, Rank], x: SeenPiece, y: SeenPiece) -> bool:
    return ranks[x.id] != ranks[y.id] and ranks[x.id] in y.possible and ranks[y.id] in x.possible


def permutations(state: GameState, v: PlayerView, rng: random.Random,
                 every_swap: bool = False) -> list[dict[int, Rank]]:
    """Rank assignments with the opponent's unrevealed pieces permuted as the view allows:
    every single swap (`every_swap`), else one random product of swaps."""
    real = {p.id: p.rank for p in state.all_pieces()}
    hidden = hidden_pieces(state, v)
    if every_swap:
        out = []
        for x, y in itertools.combinations(hidden, 2):
            if _allowed(real, x, y):
                out.append({**real, x.id: real[y.id], y.id: real[x.id]})
        return out
    ranks = dict(real)
    swapped = False
    for _ in range(2 * len(hidden) if len(hidden) >= 2 else 0):
        x, y = rng.sample(hidden, 2)
        if _allowed(ranks, x, y):
            ranks[x.id], ranks[y.id] = ranks[y.id], ranks[x.id]
            swapped = True
    return [ranks] if swapped else []


def candidate_moves(state: GameState, v: PlayerView, rng: random.Random,
                    count: int = 40) -> list[Move]:
    """Moves to try, most of them illegal: steps and lane moves of the viewer's pieces
    (onto hidden pieces too), moves of the opponent's pieces and from empty squares,
    Rescue decisions."""
    moves: list[Move] = []
    for piece in v.pieces:
        assert piece.square is not None
        frm = piece.square.index
        targets = set(NEIGHBOURS[frm]) | {to for lane in LANES[frm] for to in lane}
        targets |= {to for to in range(100) if abs(to // 10 - frm // 10) == 1
                    and abs(to % 10 - frm % 10) == 1}
        moves.extend(Move(SQUARES[frm], SQUARES[to]) for to in sorted(targets))
    empty = [sq for sq in SQUARES if v.piece_at(sq) is None and not sq.is_lake]
    for sq in rng.sample(empty, min(3, len(empty))):
        moves.append(Move(sq, SQUARES[NEIGHBOURS[sq.index][0]]))
    for rank in Rank:
        for sq in rng.sample(empty, min(2, len(empty))):
            moves.append(Move.rescue(rank, sq))
    moves.append(Move.parse("--"))
    picked = rng.sample(moves, min(count, len(moves)))
    return [*picked, *stratego.legal_moves(state)[:3]]


def observed(state: GameState, player: Player, moves: list[Move],
             texts: bool = True) -> dict[str, object]:
    """Everything `player` can observe of `state` (`texts`: the view's JSON and repr too)."""
    v = view(state, player)
    seen: dict[str, object] = {"view": v}
    if texts:
        seen["json"] = v.to_json()
        seen["repr"] = repr(v)
    if v.is_my_turn:
        seen["legal_moves"] = stratego.legal_moves(state)
        if HAS_NUMPY:  # the mask needs the `numpy` extra; the rest is compared without it
            seen["mask"] = legal_action_mask(state).tolist()
        if HAS_RL:  # what an environment's info says of an illegal action
            from stratego.encoding import action_index, action_move
            from stratego.env.common import illegal_reason

            reasons = []
            for move in moves:  # the moves an action index stands for, from the mover's seat
                with contextlib.suppress(stratego.StrategoError):
                    index = action_index(move, player)
                    if action_move(index, player) == move:
                        reasons.append(illegal_reason(state, index, player))
            seen["env reasons"] = reasons
        seen["is_legal"] = [stratego.is_legal(state, m) for m in moves]
        seen["explain"] = [explain_illegal(state, m) for m in moves]
        errors: list[str | None] = []
        for move in moves:
            if seen["is_legal"][len(errors)]:  # type: ignore[index]
                errors.append(None)
                continue
            try:
                stratego.apply(state, move)
            except IllegalMoveError as exc:
                errors.append(str(exc))
            else:  # pragma: no cover - is_legal said it was not legal
                errors.append("applied")
        seen["errors"] = errors
        # what a program bot is sent (the line protocol's move message)
        seen["protocol"] = json.dumps(move_message(v))
        # the search bot reads nothing but the view: its sampled states, playouts and
        # choice are the same for every state the player cannot tell apart
        seen["search"] = SearchBot(7, simulations=6, depth=4)(v)
        seen["search raiding"] = SearchBot(7, simulations=6, depth=4, raid=1.0)(v)
        # the searched answers and replies and the fleeing pieces read the sampled states
        # only: a tree three plies deep, from the first visit
        seen["search tree"] = SearchBot(7, simulations=12, depth=4, candidates=2, replies=0,
                                        follow=0, flee=1.0)(v)
    return seen


def check_state(state: GameState, player: Player, rng: random.Random, samples: int = 1,
                every_swap: bool = False, texts: bool = True, moves: int = 40) -> int:
    """Compare what `player` observes of `state` with what it observes of sampled and
    permuted states of the same view; the number of other states compared."""
    v = view(state, player)
    tried = candidate_moves(state, v, rng, moves)
    expected = observed(state, player, tried, texts)
    others: list[GameState] = []
    sampler = Sampler(v)
    others.extend(sampler.sample(rng) for _ in range(samples))
    for ranks in permutations(state, v, rng, every_swap):
        other = replay_with(state, ranks)
        # a permutation the per-piece facts allow but the game's record refuses (a move
        # illegal then, or the player to move left without a move) is no other state of
        # this view: the per-piece facts then say less than the player knows, no leak
        if other is not None and other.outcome == state.outcome:
            others.append(other)
    for other in others:
        got = observed(other, player, tried, texts)
        for key, value in expected.items():
            assert got[key] == value, f"{key} differs between two states of the same view"
    return len(others)


# -- the Jumbo 2014 chase: two hidden pieces of one rank ----------------------------------

_CHASE_START: dict[stratego.Square | str, tuple[Player, Rank] | str] = {
    "e7": "M", "h7": "G", "a1": "F", "f8": "x", "g8": "x", "a10": "n", "j10": "f"}
# Red chases (every Red move threatens, every Blue reply evades); Blue's two Scouts (one
# step at a time) trade places, so the position after Blue's last move, e8-f8, has Blue's
# Scouts on each other's squares of the chase position after g8-f8.
_CHASE_MOVES = ["f8-f9", "h7-g7", "g8-f8", "g7-g8", "f8-f7", "g8-g9", "f9-f8", "g9-g8",
                "f8-e8", "g8-g7", "f7-f8", "e7-f7", "f8-f9", "f7-e7", "e8-f8"]


def chase_state(rules: Rules) -> GameState | None:
    """The position after `_CHASE_MOVES` (None if the army lacks a piece of it)."""
    try:
        state = stratego.from_position(rules, _CHASE_START, to_move=Player.BLUE)
        for move in _CHASE_MOVES:
            state = stratego.apply(state, move)
    except (stratego.PositionError, IllegalMoveError):
        return None
    return state


def _id(rules: Rules) -> str:
    return rules.name


@pytest.mark.parametrize("rules", COMBINATIONS, ids=_id)
def test_states_with_the_same_view_look_the_same(rules: Rules) -> None:
    """Every edition with every compatible set of variants: a chase position with two
    hidden Scouts (every swap of Blue's hidden pieces tried), and a state of a random game
    from a scattered position (Rescues, back-row arrivals, captured pieces)."""
    rng = random.Random(rules.name)
    chase = chase_state(rules)
    if chase is not None:
        check_state(chase, Player.RED, rng, every_swap=True, texts=False, moves=20)
    game = random_playout(scattered(rules, rng), rng.randrange(2**32), rng.randrange(20, 60))
    check_state(game[-1], rng.choice(list(Player)), rng, texts=False, moves=20)


@given(st.one_of(scattered_positions(rules_values()), scattered_positions(rules_values(),
                                                                          max_on_board=4)),
       seeds, st.integers(0, 150), st.sampled_from(list(Player)), seeds)
def test_property_states_with_the_same_view_look_the_same(
        start: GameState, seed: int, plies: int, player: Player, check_seed: int) -> None:
    """Invariant: for random rules and reachable states, sampled and permuted states of
    the player's view give the same view, JSON, repr, legal moves, mask and illegal-move
    texts."""
    state = random_playout(start, seed, plies)[-1]
    check_state(state, player, random.Random(check_seed), samples=2)


def test_the_chase_scenario_is_a_chase() -> None:
    """The sweep's chase position is what it claims: Red is chasing and Red sees none of
    Blue's ranks."""
    from stratego.editions import JUMBO_2014

    state = chase_state(JUMBO_2014)
    assert state is not None
    assert state.chase
    assert state.chase[0] == Player.RED + 1
    v = view(state, Player.RED)
    blue = [p for p in v.pieces if p.owner is Player.BLUE]
    assert len(blue) == 4
    assert all(p.rank is None for p in blue)
