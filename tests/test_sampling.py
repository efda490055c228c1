"""Sampling full states from one player's view.

The oracle for the small positions below is the rules themselves: an
assignment of ranks to the opponent's pieces is consistent when replaying the
game's moves from a start with those ranks gives the same view (MB 1961
"Striking" 5 and Movement 7; Hasbro 2009 "Silent Defense").
"""

from __future__ import annotations

import collections
import itertools
import math
import random
from collections.abc import Callable

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import stratego
from positions import play
from strategies import new_games, random_playout, rules_values, scattered_positions, seeds
from stratego import CLASSIC, HASBRO_2009, Player, Rank
from stratego.editions import by_name
from stratego.errors import ArgumentError
from stratego.sampling import (
    Sampler,
    SamplingError,
    build_state,
    count_assignments,
    hidden_assignments,
    sample_state,
)
from stratego.variants import MOVING_BOMBS, RESCUE, SILENT_DEFENSE
from stratego.views import PlayerView, view

SILENT = HASBRO_2009.with_variants(SILENT_DEFENSE)
STARTS = st.one_of(new_games(rules_values()), scattered_positions())

RED_PIECES = {"a4": "K", "j1": "T", "a1": "F"}
BLUE_PIECES = {"a5": "l", "b9": "n", "i10": "f", "j10": "b", "e7": "x", "h9": "m"}


def replay(rules: stratego.Rules, blue: dict[str, str], moves: list[str]) -> stratego.GameState:
    state = stratego.from_position(rules, {**RED_PIECES, **blue})
    for move in moves:
        state = stratego.apply(state, move)
    return state


def oracle(rules: stratego.Rules, moves: list[str]) -> tuple[PlayerView, set[tuple[Rank, ...]]]:
    """Red's view after `moves`, and every Blue rank assignment (by piece id) that gives it."""
    real = replay(rules, BLUE_PIECES, moves)
    seen = view(real, Player.RED)
    squares = sorted(BLUE_PIECES, key=lambda name: stratego.Square.parse(name).index)
    consistent = set()
    for ranks in set(itertools.permutations(BLUE_PIECES[sq] for sq in squares)):
        try:
            other = replay(rules, dict(zip(squares, ranks, strict=True)), moves)
        except stratego.IllegalMoveError:
            continue
        if view(other, Player.RED) == seen:
            consistent.add(tuple(p.rank for p in other.all_pieces() if p.owner is Player.BLUE))
    return seen, consistent


def blue_ranks(state: stratego.GameState) -> tuple[Rank, ...]:
    return tuple(p.rank for p in state.all_pieces() if p.owner is Player.BLUE)


SMALL_GAMES = pytest.mark.parametrize(
    ("rules", "moves"),
    [
        (CLASSIC, ["j1-i1", "b9-b8", "i1-j1", "e7-e6"]),
        (SILENT, ["a4-a5", "b9-b8", "j1-i1", "h9-h8"]),
        (SILENT, ["j1-i1", "a5-a4"]),
    ],
    ids=["moved-pieces", "silent-strike", "silent-defender-wins"],
)
"""Small positions whose information sets the oracle enumerates exhaustively."""


@SMALL_GAMES
def test_samples_cover_exactly_the_consistent_assignments(rules: stratego.Rules,
                                                          moves: list[str]) -> None:
    seen, consistent = oracle(rules, moves)
    assert 1 < len(consistent) < 720
    enumerated = {tuple(a[pid] if pid in a else seen.piece(pid).rank for pid in sorted(
        p.id for p in seen.all_pieces() if p.owner is Player.BLUE))
        for a in hidden_assignments(seen)}
    assert enumerated == consistent
    assert count_assignments(seen) == len(consistent)
    sampler = Sampler(seen)
    rng = random.Random(7)
    drawn = {blue_ranks(sampler.sample(rng)) for _ in range(40 * len(consistent))}
    assert drawn == consistent


# chi-square critical values at p = 0.001 by degrees of freedom (to 60; above, the
# Wilson-Hilferty approximation); a fixed seed keeps the test deterministic
def _chi2_critical(df: int) -> float:
    z = 3.090232  # the normal quantile of 0.999
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@SMALL_GAMES
def test_samples_are_uniform_over_the_consistent_assignments(rules: stratego.Rules,
                                                             moves: list[str]) -> None:
    """The documented distribution: every assignment consistent with the view is equally
    likely. A chi-square test of 60 draws per assignment against the uniform distribution
    over the exhaustive enumeration (the oracle), at the 0.1% level."""
    seen, consistent = oracle(rules, moves)
    sampler = Sampler(seen)
    rng = random.Random(2024)
    per_cell = 60
    counts = collections.Counter(blue_ranks(sampler.sample(rng))
                                 for _ in range(per_cell * len(consistent)))
    assert set(counts) == consistent
    statistic = sum((counts[a] - per_cell) ** 2 / per_cell for a in consistent)
    assert statistic < _chi2_critical(len(consistent) - 1), (
        f"chi-square {statistic:.1f} over {len(consistent)} assignments")


SILENT_RESCUE = HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE)
_SR_SQUARES = ("e4", "a9", "h9", "j1")
_SR_BLUE: dict[stratego.Square | str, str] = {"e5": "m", "j7": "t", "j10": "f"}


def _silent_rescue_game(red: tuple[Rank, ...], rescues: tuple[Rank, ...]) -> stratego.GameState:
    """Red's pieces `red` on `_SR_SQUARES` and one captured; Red's first piece strikes
    Blue's Marshal and loses, then Red rescues `rescues` (one rank per Rescue)."""
    placement: dict[stratego.Square | str, tuple[Player, Rank] | str] = {
        sq: (Player.RED, r) for sq, r in zip(_SR_SQUARES, red, strict=False)}
    start = stratego.from_position(SILENT_RESCUE, {**placement, **_SR_BLUE},
                                   captured=[(Player.RED, red[-1])])
    state = play(start, "e4-e5", "j7-j6", "a9-a10", f"{rescues[0].symbol}@a2", "j6-j5")
    if len(rescues) > 1:
        state = play(state, "h9-h10", f"{rescues[1].symbol}@b2")
    return state


def _identity(state: stratego.GameState) -> tuple[object, ...]:
    """A hidden state of the small Silent Defense + Rescue games: Red's ranks by id and
    where each of Red's pieces is (so which one came back where)."""
    red = [p for p in state.all_pieces() if p.owner is Player.RED]
    return tuple(p.rank for p in red), tuple(state.square_of(p) for p in red)


@pytest.mark.parametrize("rescues", [1, 2], ids=["one-rescue", "two-rescues"])
def test_hasbro_silent_defense_with_rescue_samples_every_piece_that_may_have_come_back(
        rescues: int) -> None:
    """Rescue piles: Blue saw some piece of Red's face-down pile (its Major, named in
    a strike, and a piece captured before the game) come back, not which. The oracle is
    the rules: every assignment of Red's ranks and every choice of rescued ranks, replayed,
    that gives Blue's view. The sampler draws exactly those hidden states (which piece
    came back included), each about equally often (chi-square at the 0.1% level)."""
    army = (Rank.MAJOR, Rank.COLONEL, Rank.CAPTAIN, Rank.FLAG, Rank.LIEUTENANT)
    real = _silent_rescue_game(army, (Rank.LIEUTENANT, Rank.MAJOR)[:rescues])
    seen = view(real, Player.BLUE)
    consistent = set()
    for red in set(itertools.permutations(army)):
        for chosen in itertools.product(army, repeat=rescues):
            try:
                other = _silent_rescue_game(red, chosen)
            except (stratego.IllegalMoveError, stratego.PositionError):
                continue
            if view(other, Player.BLUE) == seen:
                consistent.add(_identity(other))
    assert len({squares for _, squares in consistent}) == 2  # either piece came back first
    sampler = Sampler(seen)
    assert sampler.count >= len(consistent) > 2
    # the hidden states counted, listed one by one by the view's ids (an answer to which
    # piece came back and the ranks), each within the view's sets
    listed = list(hidden_assignments(seen))
    assert len(listed) == count_assignments(seen) == sampler.count
    hidden = {p.id: p.possible for p in seen.hidden()}
    assert all(a.keys() == hidden.keys() and all(r in hidden[i] for i, r in a.items())
               for a in listed)
    rng = random.Random(11)
    per_cell = 60
    counts = collections.Counter(_identity(sampler.sample(rng))
                                 for _ in range(per_cell * len(consistent)))
    assert set(counts) == consistent
    statistic = sum((counts[a] - per_cell) ** 2 / per_cell for a in consistent)
    assert statistic < _chi2_critical(len(consistent) - 1)


def test_a_sample_is_seen_as_the_view_and_seeds_repeat() -> None:
    state = replay(SILENT, BLUE_PIECES, ["a4-a5", "b9-b8"])
    seen = view(state, Player.RED)
    one, two = sample_state(seen, 3), sample_state(seen, random.Random(3))
    assert one == two
    assert blue_ranks(one) == blue_ranks(two)
    assert view(one, Player.RED) == seen


def test_an_inconsistent_view_raises_sampling_error() -> None:
    seen = view(replay(CLASSIC, BLUE_PIECES, []), Player.RED)
    too_many = attrs.evolve(seen, armies=(seen.armies[0], (0,) * 10 + (7, 0)))
    with pytest.raises(SamplingError, match="army"):
        sample_state(too_many, 1)
    no_marshal = tuple(
        attrs.evolve(p, possible=p.possible - {Rank.MARSHAL}) if p.owner is Player.BLUE else p
        for p in seen.pieces)
    with pytest.raises(SamplingError, match="no assignment"):
        sample_state(attrs.evolve(seen, pieces=no_marshal), 1)
    with pytest.raises(ValueError, match="ids"):
        sample_state(attrs.evolve(seen, pieces=seen.pieces[1:]), 1)


# -- properties ---------------------------------------------------------------------


@given(STARTS, seeds, st.integers(0, 300), st.sampled_from(list(Player)), seeds)
def test_every_sample_is_seen_as_the_view(start: stratego.GameState, seed: int, plies: int,
                                         player: Player, draw_seed: int) -> None:
    """Invariant: view(sample_state(v), v.player) == v."""
    state = random_playout(start, seed, plies)[-1]
    seen = view(state, player)
    sampler = Sampler(seen)
    rng = random.Random(draw_seed)
    for _ in range(2):
        assert view(sampler.sample(rng), player) == seen


def rebuilt(state: stratego.GameState) -> stratego.GameState:
    """Replay `state`'s moves from its own starting position."""
    placement = state.initial_placement()
    on_board = {p.id for p in placement.values()}
    start = stratego.from_position(
        state.rules,
        {sq: (p.owner, p.rank) for sq, p in placement.items()},
        to_move=Player(state.info.initial_turn),
        captured=[(p.owner, p.rank) for p in state.all_pieces() if p.id not in on_board],
    )
    for move in state.moves():
        start = stratego.apply(start, move)
    return start


def summary(state: stratego.GameState) -> tuple[object, ...]:
    return (state.board, state.turn, state.ply, state.captured_mask,
            tuple(k & 0xFFF for k in state.known), state.moved_mask, state.shuttles,
            state.pending, state.rescues, state.chase, state.zhash, state.last_to, state.outcome,
            [(r.piece.id, r.defender and r.defender.id) for r in state.history_records()])


@given(STARTS, seeds, st.integers(0, 300), st.sampled_from(list(Player)), seeds)
def test_every_sample_is_a_reachable_state(start: stratego.GameState, seed: int, plies: int,
                                           player: Player, draw_seed: int) -> None:
    """Invariant: replaying a sample's history from its starting position gives the sample:
    the sampled ranks could have produced every strike, move and Rescue seen."""
    state = random_playout(start, seed, plies)[-1]
    sample = sample_state(view(state, player), draw_seed)
    assert summary(rebuilt(sample)) == summary(sample)
    assert stratego.legal_moves(rebuilt(sample)) == stratego.legal_moves(sample)


def rescuing_playout(state: stratego.GameState, seed: int, plies: int) -> stratego.GameState:
    """A seeded random playout that mostly moves forward and makes a Rescue whenever it
    may (so that pieces reach the back rows and piles of captured pieces come back)."""
    rng = random.Random(seed)
    for _ in range(plies):
        moves = stratego.legal_moves(state)
        if not moves:
            break
        ahead = 1 if state.turn == Player.RED else -1
        forward = [m for m in moves if m.frm is not None and m.to is not None
                   and (m.to.index // 10 - m.frm.index // 10) * ahead > 0]
        rescues = [m for m in moves if m.is_rescue]
        state = stratego.apply(state, rng.choice(
            rescues or (forward if forward and rng.random() < 0.6 else moves)))
    return state


@pytest.mark.parametrize("edition", ["jumbo-2014", "isf"])
@pytest.mark.parametrize("seed", [0, 1, 3])
def test_a_sample_while_a_rescue_is_pending_hashes_the_side_to_move(seed: int,
                                                                    edition: str) -> None:
    """Jumbo 2014 and ISF, Rescue and the chase rule (Moving, bullet 9; ISF 11): the player
    whose piece reached the back row decides the Rescue, so moves again; a sample drawn
    then hashes its position for that side, as the engine does, and a chase the arrival
    threatens keeps as its last position the board with the opponent to move (what
    declining leaves), as the engine records it."""
    rules = by_name(edition).with_variants(RESCUE)
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                              stratego.random_setup(rules, Player.BLUE, seed + 1))
    for n in range(400):
        state = rescuing_playout(state, seed * 1000 + n, 1)
        if state.pending:
            break
    assert state.pending
    sample = sample_state(view(state, state.to_move), 1)
    assert sample.zhash == rebuilt(sample).zhash
    assert summary(rebuilt(sample)) == summary(sample)


_RESCUING_RULES = (SILENT_RESCUE, CLASSIC.with_variants(RESCUE, SILENT_DEFENSE),
                   HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE, MOVING_BOMBS))


@pytest.mark.parametrize("seed", [0, 3, 5, 12, 34, 41])
def test_silent_defense_with_rescue_samples_are_seen_as_the_view_and_reachable(
        seed: int) -> None:
    """Invariant, on games with hidden Rescues (one or two): a sample
    gives the view back and replays from its own start."""
    rules = _RESCUING_RULES[seed % 3]
    start = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                              stratego.random_setup(rules, Player.BLUE, seed + 1))
    state = rescuing_playout(start, seed, 250)
    player = Player(seed % 2)
    seen = view(state, player)
    assert any(p.move is None for p in seen.history)
    sampler = Sampler(seen)
    rng = random.Random(seed)
    for _ in range(3):
        sample = sampler.sample(rng)
        assert view(sample, player) == seen
        assert summary(rebuilt(sample)) == summary(sample)


# -- every view of every state the library accepts ----------------------------------------


@given(STARTS, seeds, st.integers(0, 200), st.sampled_from(list(Player)), seeds,
       st.sampled_from(["text", "json"]))
def test_views_of_read_positions_sample(start: stratego.GameState, seed: int, plies: int,
                                        player: Player, draw_seed: int, how: str) -> None:
    """Invariant: a position read back from its text (`parse_position`) or its JSON
    without history (`state_from_json`) keeps the game's piece ids; its views sample, and
    the sample gives the view back, a live chase included (the view carries its moves)."""
    from stratego.notation import format_position, parse_position
    from stratego.records import state_from_json, state_to_json

    state = random_playout(start, seed, plies)[-1]
    if how == "text":
        read = parse_position(format_position(state))
    else:
        read = state_from_json(state_to_json(state, with_history=False))
    seen = view(read, player)
    assert view(sample_state(seen, draw_seed), player) == seen


def forgeries(seen: PlayerView) -> list[tuple[str, PlayerView]]:
    """Views no game gives, each with the words the refusal must use."""
    blue = [p for p in seen.pieces if p.owner is Player.BLUE]
    red = [p for p in seen.pieces if p.owner is Player.RED]
    lake = stratego.Square.parse("c5")
    flag = next(p for p in red if p.rank is Rank.FLAG)
    out = [
        ("lake", attrs.evolve(seen, pieces=tuple(
            attrs.evolve(p, square=lake) if p is blue[0] else p for p in seen.pieces))),
        ("Flag", attrs.evolve(seen, armies=(
            tuple(n + 1 if r == Rank.FLAG else n for r, n in enumerate(seen.armies[0])),
            seen.armies[1]))),
        ("pieces in the view", attrs.evolve(seen, armies=(
            seen.armies[0], tuple(n + 1 if r == Rank.MINER else n
                                  for r, n in enumerate(seen.armies[1]))))),
        ("cannot move", attrs.evolve(seen, pieces=tuple(
            attrs.evolve(p, moved=True) if p is flag else p for p in seen.pieces))),
        ("Flag was captured", attrs.evolve(seen, outcome=stratego.Outcome(
            stratego.Termination.FLAG_CAPTURED, Player.BLUE))),
        ("rescues", attrs.evolve(seen, rescues=(3, 0))),
    ]
    return out


@pytest.mark.parametrize("index", range(6))
def test_forged_views_are_refused_naming_the_fault(index: int) -> None:
    """A view edited into one no game gives (a piece on a lake, two Flags, pieces that do
    not add up to the army, a moved Flag, a captured Flag still standing, impossible Rescue
    counts) is refused with `SamplingError` naming the fault, never sampled."""
    state = replay(CLASSIC, BLUE_PIECES, ["a4-a5", "b9-b8"])
    seen = view(state, Player.RED)
    words, forged = forgeries(seen)[index]
    with pytest.raises(SamplingError, match=words):
        Sampler(forged)
    with pytest.raises((SamplingError, stratego.views.SchemaError), match=words):
        sample_state(PlayerView.from_json(forged.to_json()), 1)


@pytest.mark.parametrize("edition", ["jumbo-2014", "isf"])
def test_a_position_read_mid_chase_samples(edition: str) -> None:
    """A position read from its text in the middle of a chase (Jumbo 2014 chase rule; ISF
    11): its views carry the chase's quiet moves, equal to those of the game's own views,
    and sample to states with the same chase record."""
    from stratego.editions import by_name
    from stratego.notation import format_position, parse_position

    rules = by_name(edition)
    found = None
    for seed in range(200):
        start = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                                  stratego.random_setup(rules, Player.BLUE, seed + 1))
        found = next((s for s in random_playout(start, seed, 400) if len(s.chase) >= 7), None)
        if found is not None:
            break
    assert found is not None
    read = parse_position(format_position(found))
    assert read.chase == found.chase
    for player in Player:
        seen = view(read, player)
        assert len(seen.chase_moves) == seen.chase[1] - 1 >= 2
        assert seen.chase_moves == view(found, player).chase_moves
        assert list(seen.chase_moves) == found.moves()[-len(seen.chase_moves):]
        sample = sample_state(seen, 5)
        assert sample.chase == read.chase
        assert view(sample, player) == seen
        assert PlayerView.from_json(seen.to_json()) == seen


ENDED_SILENT = (
    "milton-bradley-1961+aggressor-advantage+silent-defense ....J8*...../...K11*...l17*!../"
    "......f16.../........../..~~..~~../..~~..~~../........../.C6*......../b13..M3*[CGMB]..."
    "..K5*!/L2*J1*...X7*!.... r 98 x=X4*!,F9[FSXNTL],N10[FSXNTL],N12*!,s14[FSXNTLK],j15*!,"
    "T18,L19,L20,S21,X22,G23,N24,B25,J26,X27,X28,X29,N30,B31,X32,B33,T34,T35,C36,L37,X38,N39,"
    "B40,B41,B42,T43,K44,K45,x46,n47,k48,b49,n50,k51,m52,l53,x54,b55,b56,t57,x58,k59,n60,l61,"
    "x62,t63,t64,l65,b66,t67,n68,j69,x70,k71,j72,x73,n74,c75,b76,c77,x78,x79,g80 "
    "shuttles=3:d2-d3:1,- end=flag-captured:b")


@pytest.mark.parametrize("player", list(Player))
def test_a_position_read_after_its_flag_was_captured_samples(player: Player) -> None:
    """A finished game read from its position string (1961 + Silent Defense: the captured
    Red Flag is one of Red's captured pieces whose rank Blue never learned): the loser's
    captured pieces that may be a Flag stay possible Flags, and the view samples (it was
    refused with "no rank left fits ... the captured pile")."""
    from stratego.notation import parse_position

    read = parse_position(ENDED_SILENT)
    seen = view(read, player)
    flags = [p.id for p in seen.captured if p.owner is Player.RED and Rank.FLAG in p.possible]
    assert 9 in flags if player is Player.BLUE else flags == [9]
    sample = sample_state(seen, 3)
    assert view(sample, player) == seen
    assert sample.outcome == read.outcome


# -- counting and drawing assignments on arbitrary possible sets ---------------------------
#
# The counter (`stratego.sampling.counting.Problem`) must be exact for any per-piece sets, not only
# the ones games give (its speed relies on those nesting, its result must not). Views with
# their hidden pieces' `possible` sets edited stand in for arbitrary sets: they are not views
# a game gives (`Sampler` would refuse them at its verification), but counting reads only
# the sets and the army.

MIXED: dict[stratego.Square | str, tuple[Player, Rank]] = {
    "a7": (Player.BLUE, Rank.SCOUT), "b7": (Player.BLUE, Rank.SCOUT),
    "c7": (Player.BLUE, Rank.SCOUT), "d7": (Player.BLUE, Rank.MINER),
    "e7": (Player.BLUE, Rank.MINER), "f7": (Player.BLUE, Rank.BOMB),
    "g7": (Player.BLUE, Rank.LIEUTENANT), "h7": (Player.BLUE, Rank.MARSHAL),
    "i10": (Player.BLUE, Rank.FLAG), "a4": (Player.RED, Rank.CAPTAIN),
    "a1": (Player.RED, Rank.FLAG)}


def _with_sets(masks: list[int]) -> PlayerView:
    """Red's view of the `MIXED` position with Blue's nine hidden pieces given the sets
    `masks` (bit ``1 << rank``), in piece order."""
    seen = view(stratego.from_position(CLASSIC, MIXED), Player.RED)
    blue = iter(masks)
    pieces = []
    for p in seen.pieces:
        if p.owner is Player.BLUE:
            mask = next(blue)
            p = attrs.evolve(p, possible=frozenset(r for r in Rank if mask >> r & 1))
        pieces.append(p)
    return attrs.evolve(seen, pieces=tuple(pieces))


def _brute_force(seen: PlayerView) -> set[tuple[tuple[int, Rank], ...]]:
    hidden = sorted(seen.hidden(), key=lambda p: p.id)
    army = [r for r in Rank for _ in range(seen.armies[Player.BLUE][r])]
    return {tuple(zip((p.id for p in hidden), ranks, strict=True))
            for ranks in set(itertools.permutations(army))
            if all(r in p.possible for p, r in zip(hidden, ranks, strict=True))}


_RANKS_OF_MIXED = [Rank.SCOUT, Rank.MINER, Rank.BOMB, Rank.LIEUTENANT, Rank.MARSHAL, Rank.FLAG]
_MASKS = st.lists(st.sampled_from(_RANKS_OF_MIXED), min_size=1, unique=True).map(
    lambda ranks: sum(1 << r for r in ranks))


@given(st.lists(_MASKS, min_size=9, max_size=9), seeds)
def test_counts_and_draws_fit_exhaustive_enumeration_for_any_sets(masks: list[int],
                                                                  seed: int) -> None:
    """Invariant: for any per-piece sets (crossing ones included), `count_assignments` is
    the number of rank assignments that fit the sets and the army, `hidden_assignments`
    lists exactly them, every draw is one of them, and one is found without counting
    exactly when there is one."""
    seen = _with_sets(masks)
    expected = _brute_force(seen)
    assert count_assignments(seen) == len(expected)
    assert {tuple(sorted(a.items())) for a in hidden_assignments(seen)} == expected
    problem = stratego.sampling.counting.Problem(seen)
    some = problem.some()  # one assignment without counting (a maximum flow)
    assert (some is None) == (not expected)
    if expected:
        assert tuple(sorted(some.items())) in expected  # type: ignore[union-attr]
        rng = random.Random(seed)
        for _ in range(5):
            assert tuple(sorted(problem.draw(rng).items())) in expected


def test_draws_are_uniform_over_crossing_sets() -> None:
    """The distribution where sets cross (no order places them one inside the other, so
    the counter keeps several rank classes apart): a chi-square test of 60 draws per
    assignment against the uniform distribution, at the 0.1% level."""
    scout, miner, bomb, lieutenant, marshal, flag = (1 << r for r in _RANKS_OF_MIXED)
    masks = [scout | miner, miner | bomb, bomb | lieutenant | scout, lieutenant | marshal,
             marshal | scout | flag, flag | scout | miner, scout | miner | bomb,
             lieutenant | scout | marshal, flag | bomb | scout | miner]
    seen = _with_sets(masks)
    expected = _brute_force(seen)
    assert 20 < len(expected) < 500
    problem = stratego.sampling.counting.Problem(seen)
    rng = random.Random(11)
    per_cell = 60
    counts = collections.Counter(tuple(sorted(problem.draw(rng).items()))
                                 for _ in range(per_cell * len(expected)))
    assert set(counts) == expected
    statistic = sum((counts[a] - per_cell) ** 2 / per_cell for a in expected)
    assert statistic < _chi2_critical(len(expected) - 1), (
        f"chi-square {statistic:.1f} over {len(expected)} assignments")


def test_nested_sets_count_in_one_state_per_group() -> None:
    """What makes counting polynomial: when the possible sets nest (what strikes teach,
    "higher than X", and moves, "not a Bomb or the Flag"), the counter keeps one state
    per group of pieces (the Ferrers-board product), here for 40 hidden pieces in 11
    groups; the count is that product."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    seen = view(state, Player.RED)
    order = [Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.MAJOR, Rank.CAPTAIN,
             Rank.LIEUTENANT, Rank.SERGEANT, Rank.MINER, Rank.SCOUT, Rank.SPY]
    pieces = []
    for p in seen.pieces:
        if p.owner is Player.BLUE:
            real = state.info.pieces[p.id].rank  # type: ignore[union-attr]
            # "this rank or higher" (Bombs and the Flag: anything)
            above = frozenset(order[:order.index(real) + 1]) if real in order else p.possible
            p = attrs.evolve(p, possible=above)
        pieces.append(p)
    seen = attrs.evolve(seen, pieces=tuple(pieces))
    problem = stratego.sampling.counting.Problem(seen)
    assert len(problem.masks) == 11
    expected = 1
    placed = 0
    army = CLASSIC.army
    for k, rank in enumerate(order):  # the pieces of the highest ranks choose first
        slots = sum(army.count(r) for r in order[:k + 1])
        for _ in range(army.count(rank)):
            expected *= slots - placed
            placed += 1
    free = 40 - placed
    expected *= math.factorial(free)  # Bombs and the Flag: any slot left
    expected //= math.prod(math.factorial(army.count(r)) for r in Rank)
    assert problem.total() == expected == count_assignments(seen)
    assert problem.ways.cache_info().currsize <= len(problem.masks) + 1


def test_a_piece_that_came_back_and_rescued_again_was_not_the_spent_one() -> None:
    """Hasbro 2009, Rescue Restriction 4 (one piece cannot make both rescues) with Silent
    Defense: Red's Marshal made a rescue and was captured; a hidden rescue brought back a
    piece of Red's face-down pile (the Marshal, or a piece the first hidden rescue left
    there: to Blue, the Colonel, Major or Captain), and the piece that came back then made
    a rescue itself. Blue's view
    cannot tell them apart by ids, but the rules can: it was not the Marshal. Every sample
    says so, gives the view back and replays from its start."""
    rules = attrs.evolve(SILENT_RESCUE, rescue=attrs.evolve(SILENT_RESCUE.rescue,
                                                            max_rescues=3))
    state = stratego.from_position(
        rules, {"a9": "M", "c9": "C", "b8": "m", "j7": "t", "j10": "f"},
        captured=[(Player.RED, Rank.MAJOR), (Player.RED, Rank.CAPTAIN)])
    state = play(state, "a9-a10", "J@a2", "b8-b9", "a10-b10", "b9-b10",  # Marshals trade
                 "c9-c10", "K@a4",  # the Colonel rescues the Captain, hidden from Blue
                 "j7-j6", "a4-a5", "j6-i6", "a5-a6", "i6-i7", "a6-a7", "i7-j7", "a7-a8",
                 "j7-j6", "a8-a9", "j6-i6", "a9-a10", "M@a1")  # the Captain rescues the Marshal
    seen = view(state, Player.BLUE)
    sampler = Sampler(seen)
    rng = random.Random(5)
    came_back = set()
    for _ in range(30):
        sample = sampler.sample(rng)
        assert view(sample, Player.BLUE) == seen
        came_back.add(sample.piece_at("a10").rank)  # type: ignore[union-attr]
        assert summary(rebuilt(sample)) == summary(sample)
    assert Rank.MARSHAL not in came_back
    assert len(came_back) > 1


def test_a_view_with_edited_sets_is_refused_before_counting() -> None:
    """Forged views: `possible` sets edited into a view (here random sets of seven ranks
    for 40 hidden pieces, which would take far too long to count) are refused at once,
    naming a piece, since a view's sets follow from its record."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    seen = view(state, Player.RED)
    rng = random.Random(3)
    sets = [frozenset(rng.sample(list(Rank), 6)) for _ in range(16)]
    pieces = tuple(
        attrs.evolve(p, possible=sets[p.id % 16] | {state.info.pieces[p.id].rank})  # type: ignore[union-attr]
        if p.owner is Player.BLUE else p for p in seen.pieces)
    forged = attrs.evolve(seen, pieces=pieces)
    with pytest.raises(SamplingError, match=r"pieces: piece \d+ may be .* but its record "
                                            r"allows .*: no game gives this view"):
        Sampler(forged)
    with pytest.raises(SamplingError, match="no game gives this view"):
        sample_state(forged, 1)


@given(STARTS, seeds, st.integers(0, 300), st.sampled_from(list(Player)))
def test_the_views_games_give_pass_the_check_of_their_sets(start: stratego.GameState,
                                                           seed: int, plies: int,
                                                           player: Player) -> None:
    """Invariant: the check `Sampler` makes of views whose count grows large (their sets
    are the ones their record gives) never refuses a view a game gives; it runs here on
    every view, whatever its count."""
    from stratego.sampling.counting import Problem
    from stratego.sampling.hidden_rescues import hidden_rescues
    from stratego.sampling.rebuild import check_sets

    state = random_playout(start, seed, plies)[-1]
    seen = view(state, player)
    assume(not hidden_rescues(seen))  # checked per answer to which piece came back
    check_sets(seen, Problem(seen))


def test_build_state_refuses_ranks_no_game_gives() -> None:
    """`build_state` never makes a state no game reaches: ranks that give the opponent's
    army other counts than the game's (two Marshals), or a piece a rank its view rules out
    (a piece that has moved as a Bomb), raise `SamplingError`; the true ranks rebuild
    a state with the same view."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    for _ in range(30):
        state = stratego.apply(state, stratego.legal_moves(state)[0])
    seen = view(state, Player.RED)
    hidden = seen.hidden()
    true = {p.id: state.info.pieces[p.id].rank for p in hidden}  # type: ignore[union-attr]
    assert view(build_state(seen, true), Player.RED) == seen
    still = next(p for p in hidden if not p.moved and true[p.id] is not Rank.MARSHAL)
    with pytest.raises(SamplingError, match="army other than the game's"):
        build_state(seen, {**true, still.id: Rank.MARSHAL})  # two Marshals
    moved = next(p for p in hidden if p.moved)
    bomb = next(p for p in hidden if true[p.id] is Rank.BOMB)
    swapped = {**true, moved.id: Rank.BOMB, bomb.id: true[moved.id]}
    with pytest.raises(SamplingError, match=f"rules out .* hidden piece {moved.id}"):
        build_state(seen, swapped)


def quiet_game(rules: stratego.Rules, seed: int, plies: int) -> stratego.GameState:
    """A seeded game in which both sides make random moves onto empty squares when they
    can, so that it lasts `plies` plies."""
    rng = random.Random(seed)
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, rng),
                              stratego.random_setup(rules, Player.BLUE, rng))
    for _ in range(plies):
        moves = stratego.legal_moves(state)
        quiet = [m for m in moves if m.to is not None and state.piece_at(m.to) is None]
        state = stratego.apply(state, rng.choice(quiet or moves))
    return state


def counting_checks(monkeypatch: pytest.MonkeyPatch) -> list[PlayerView]:
    """The views `check_view` checks from now on, in order."""
    from stratego.sampling import rebuild

    checked: list[PlayerView] = []
    check = rebuild.check_view

    def counted(v: PlayerView) -> None:
        checked.append(v)
        check(v)

    monkeypatch.setattr(rebuild, "check_view", counted)
    return checked


def test_a_sampler_checks_its_view_once_and_its_draws_share_the_history(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/performance.md, Sampling from a view: a `Sampler` reused for one view pays "the
    counts, the checks of the view and the first verification" once, so a draw costs the
    same late in a long game as early. The history, which no hidden rank changes without a
    hidden Rescue, is one chain shared by the draws; each draw is still the state that
    `build_state` rebuilds for its ranks and that its moves replay to, plays on as that
    state does (its views included), and the sampler pickles after its draws."""
    import pickle

    state = quiet_game(CLASSIC, 3, 1200)
    seen = view(state, state.to_move)
    checked = counting_checks(monkeypatch)
    sampler = Sampler(seen)
    rng = random.Random(4)
    draws = [sampler.sample(rng) for _ in range(20)]
    assert checked == [seen]
    assert len(set(draws)) > 1
    assert all(d.history is draws[0].history for d in draws)
    for d in draws[:2]:
        fresh = build_state(seen, {p.id: Rank(d.info.pieces[p.id].rank)  # type: ignore[union-attr]
                                   for p in seen.hidden()})
        assert fresh == d
        assert fresh.history is not d.history
        assert fresh.history_records() == d.history_records()
        assert summary(rebuilt(d)) == summary(d)
        move = stratego.legal_moves(d)[0]
        after, fresh_after = stratego.apply(d, move), stratego.apply(fresh, move)
        assert after == fresh_after
        assert after.history_records() == fresh_after.history_records()
        for player in Player:
            assert view(after, player) == view(fresh_after, player)
    copy = pickle.loads(pickle.dumps(sampler))
    assert copy.sample(random.Random(9)) == sampler.sample(random.Random(9))


def test_a_sampler_checks_the_view_of_each_answer_to_a_hidden_rescue_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After hidden Rescues under Silent Defense (Hasbro 2009, Silent Defense and Rescue)
    a draw rebuilds the view under the state's own ids of one answer to which piece came
    back: each such view is checked once, however often it is drawn."""
    army = (Rank.MAJOR, Rank.COLONEL, Rank.CAPTAIN, Rank.FLAG, Rank.LIEUTENANT)
    seen = view(_silent_rescue_game(army, (Rank.LIEUTENANT, Rank.MAJOR)), Player.BLUE)
    checked = counting_checks(monkeypatch)
    sampler = Sampler(seen)
    rng = random.Random(2)
    for _ in range(40):
        assert view(sampler.sample(rng), Player.BLUE) == seen
    assert len({id(v) for v in checked}) == len(checked)
    assert checked[0] is seen
    assert 1 < len(checked) < 40


# -- wrong arguments are ArgumentError, not the SamplingError a bot falls back on ---------


def _sampling_called_wrongly(seen: PlayerView) -> list[tuple[str, Callable[[], object]]]:
    from stratego.sampling import clues
    from stratego.sampling.prior import setup_prior

    prior = setup_prior(CLASSIC)
    return [
        ("max_draws must be a positive whole number, not 0",
         lambda: sample_state(seen, 1, max_draws=0)),
        ("max_draws must be a positive whole number, not 2.5",
         lambda: Sampler(seen).sample(1, max_draws=2.5)),  # type: ignore[arg-type]
        ("sample_state \\(Sampler.sample\\) needs a random.Random",
         lambda: Sampler(seen).sample([])),  # type: ignore[arg-type]
        ("ranks map hidden pieces' ids to ranks, not None",
         lambda: build_state(seen, None)),  # type: ignore[arg-type]
        (r"ranks must map piece ids to ranks, not piece \d+ to 'T'",
         lambda: build_state(seen, {p.id: "T" for p in seen.hidden()})),  # type: ignore[misc]
        ("not a cell of the setup area: 400", lambda: prior.weights(400)),
        ("limit must be a whole number >= 0, not -1", lambda: clues(seen, limit=-1)),
        ("advance must be a positive number, not 0", lambda: clues(seen, advance=0)),
        ("flee must be a positive number, not nan",
         lambda: clues(seen, flee=float("nan"))),
    ]


def test_wrong_arguments_to_the_samplers_are_argument_errors() -> None:
    """A wrong argument (a `max_draws`, an `rng`, ranks that are no mapping or map a piece
    to what is no rank, a cell off the setup area, a clue's `limit` or factor) is a
    programming error: `ArgumentError` naming it, never the `SamplingError` a bot catches
    to fall back (which would swallow it)."""
    seen = view(replay(CLASSIC, BLUE_PIECES, ["a4-a5", "b9-b8"]), Player.RED)
    for words, call in _sampling_called_wrongly(seen):
        with pytest.raises(ArgumentError, match=words) as caught:
            call()
        assert not isinstance(caught.value, SamplingError), words


def test_beliefs_keep_sampling_error_for_a_hidden_rescue() -> None:
    """What the beliefs cannot cover is still a `SamplingError` (a bot falls back to the
    uniform sampler on it): a view with a hidden Rescue under Silent Defense; the uniform
    sampler draws it."""
    from stratego.beliefs import Beliefs

    seen = view(_silent_rescue_game(
        (Rank.MAJOR, Rank.COLONEL, Rank.CAPTAIN, Rank.FLAG, Rank.LIEUTENANT),
        (Rank.LIEUTENANT,)), Player.BLUE)
    with pytest.raises(SamplingError, match="beliefs do not cover a hidden Rescue") as caught:
        Beliefs(seen)
    assert not isinstance(caught.value, ArgumentError)
    assert view(Sampler(seen).sample(1), Player.BLUE) == seen


def test_hasbro_silent_defense_with_rescue_which_piece_came_back_is_drawn_by_its_count() -> None:
    """Hasbro 2009 Silent Defense with Rescue: Red's pile holds its Major (named when it
    struck) and a Lieutenant; Red brings one back unseen. Of the assignments
    that fit Blue's view, half have the Major back on a2; `Sampler` draws uniformly over
    them, so about half its draws do (a seeded count: a 3-to-1 bias lies far outside)."""
    rules = HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE)
    state = play(stratego.from_position(
        rules, {"e4": "J", "a9": "C", "j1": "F", "e5": "m", "j7": "t", "j10": "f"},
        captured=[(Player.RED, Rank.LIEUTENANT)]), "e4-e5", "j7-j6", "a9-a10", "J@a2")
    seen = view(state, Player.BLUE)
    returned = seen.piece_at("a2")
    assert returned is not None
    answers = [ranks[returned.id] for ranks in hidden_assignments(seen)]
    assert len(answers) == count_assignments(seen) == 4
    assert answers.count(Rank.MAJOR) == 2
    sampler = Sampler(seen)
    rng = random.Random(1)
    draws = 600
    majors = sum(sampler.sample(rng).piece_at("a2").rank is Rank.MAJOR  # type: ignore[union-attr]
                 for _ in range(draws))
    assert 0.4 * draws < majors < 0.6 * draws  # 1/2 expected; sd about 0.02 * draws
