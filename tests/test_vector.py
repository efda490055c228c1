"""`stratego.vector`: the batched engine plays exactly the scalar engine's rules.

Lockstep: games advanced in a `Batch` and with `stratego.apply` side by side, with a policy
that favours moving the same piece back and forth and chasing the piece the opponent just
moved, so that the back-and-forth rule (every book) and the chase rule (Jumbo 2014, Moving
bullet 9; ISF 11) fire; masks, states, planes and outcomes must be equal at every ply. The
games start mid-game and from scattered positions, and the batch is rebuilt from the
scalar states in the middle of a chase. Besides the named rule sets, the lockstep plays
readings that no edition uses but `stratego.vector.supports` accepts: the Scout span
(`RepetitionRule.scout_span`) and the chase read by answers to the opponent's last move
(`threat_chase=False`).

Fixed positions check what random play seldom reaches; the Scout's window and the ISF
readings are played in tests/test_vector_isf.py.
"""

from __future__ import annotations

import importlib
import random
import sys

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

import stratego  # noqa: E402
from positions import scattered  # noqa: E402
from strategies import midgame_states, random_playout, scattered_positions  # noqa: E402
from stratego import Player, apply, legal_moves, view  # noqa: E402
from stratego.editions import CLASSIC, JUMBO_2014, by_name  # noqa: E402
from stratego.encoding import (  # noqa: E402
    NUM_ACTIONS,
    action_index,
    action_move,
    legal_action_mask,
    observation_planes,
)
from stratego.errors import ArgumentError  # noqa: E402
from stratego.notation import format_position, parse_position  # noqa: E402
from stratego.sampling import SamplingError, sample_state  # noqa: E402
from stratego.vector import SUPPORTED, Batch, supports  # noqa: E402

pytestmark = pytest.mark.extra("vector")

RULE_SETS = [
    "classic",
    "milton-bradley-1961",
    "hasbro-2009",
    "jumbo-2014",
    "classic+barrage",
    "jumbo-2014+ultimate-lightning",
    "classic+ultimate-lightning",
    "isf+ultimate-lightning",
    "hasbro-2009+aggressor-advantage+silent-defense",
    "jumbo-2014+moving-bombs+moving-flag",
    "classic+duel+silent-defense",
    "isf",
    "isf-five-moves+barrage",
]


def _isf_repetition(rules: stratego.Rules) -> stratego.Rules:
    """`rules` with the ISF repetition rules: Scout series read by the borders crossed
    (ISF 10.2) and the chase by threats and evasions (ISF 11.3)."""
    return attrs.evolve(rules, repetition=attrs.evolve(
        rules.repetition, scout_span=False, scout_borders=True, chase=True, threat_chase=True))


RULES = {name: by_name(name) for name in RULE_SETS}
RULES["classic with ISF repetition"] = _isf_repetition(CLASSIC)
RULES["jumbo-2014+barrage with ISF repetition"] = _isf_repetition(by_name("jumbo-2014+barrage"))
# a Scout's moves within the line its first back-and-forth move covered count as the same
# squares (`RepetitionRule.scout_span`), in place of the classic web rules' window
SCOUT_SPAN = attrs.evolve(CLASSIC, repetition=attrs.evolve(
    CLASSIC.repetition, scout_span=True, scout_window=False))
RULES["classic with the Scout span"] = SCOUT_SPAN
# the chase read by answers to the opponent's last move, not by threats and evasions
ANSWER_CHASE = attrs.evolve(JUMBO_2014, repetition=attrs.evolve(
    JUMBO_2014.repetition, threat_chase=False))
RULES["jumbo-2014 with the chase by answers"] = ANSWER_CHASE
SUPPORTED_RULES = list(RULES.values())


def _without_chase(state: stratego.GameState) -> stratego.GameState:
    return attrs.evolve(state, chase=(), cached_moves=None)


def _adjacent(a: int, b: int) -> bool:
    return abs(a - b) == 10 or (abs(a - b) == 1 and a // 10 == b // 10)


def chase_move(state: stratego.GameState, rng: random.Random) -> stratego.Move:
    """Red chases the piece Blue just moved; Blue flees with the piece Red came next to."""
    moves = legal_moves(state)
    quiet = [m for m in moves if not state.board[m.ti]]
    last = state.last_to
    if last >= 0 and rng.random() < 0.95:
        if state.turn == Player.RED:
            options = [m for m in quiet if _adjacent(m.ti, last)]
        else:
            options = [m for m in quiet if _adjacent(m.fi, last) and not _adjacent(m.ti, last)]
        if options:
            return rng.choice(options)
    return rng.choice(quiet or moves)


def biased_move(state: stratego.GameState, rng: random.Random) -> stratego.Move:
    """A legal move, most often the same piece back again or a chase of the piece the
    opponent just moved, so that the repetition rules come into play."""
    moves = legal_moves(state)
    roll = rng.random()
    pid, lo, hi, count = state.shuttles[state.turn][:4]
    if roll < 0.5 and count:
        at = state.where[pid]
        back = [m for m in moves if m.fi == at and m.ti in (lo, hi) and m.ti != at]
        if back:
            return rng.choice(back)
    if roll < 0.85 and state.last_to >= 0:
        near = [m for m in moves if not state.board[m.ti]
                and abs(m.ti - state.last_to) in (1, 10)]
        if near:
            return rng.choice(near)
    return rng.choice(moves)


class Stats:
    """What the lockstep run saw, so that a test proves the rules it claims to check fired."""

    def __init__(self) -> None:
        self.shuttle_limits = 0
        self.chase_bans = 0
        self.rebuilt_mid_chase = 0
        self.endings = 0


def _position(state: stratego.GameState) -> str:
    """The position string of `state`, for comparing and for messages; rules built by hand
    here (with ISF repetition) have no name to save, so it is written under the name of
    the rules they were built from."""
    named = by_name(state.rules.name)
    if named != state.rules:
        state = attrs.evolve(state, info=attrs.evolve(state.info, rules=named))
    return format_position(state)


def check_same(batch: Batch, states: list[stratego.GameState], planes: bool = True) -> None:
    """The batch and the scalar states agree: masks, states, positions, outcomes, planes."""
    mask = batch.action_mask()
    seen = batch.observation_planes() if planes else None
    assert mask.shape == (len(states), NUM_ACTIONS)
    for i, state in enumerate(states):
        expected = np.array(legal_action_mask(state))
        assert (mask[i] == expected).all(), (i, _position(state))
        mine = batch.to_state(i)
        assert mine == state, (i, _position(mine), _position(state))
        assert _position(mine) == _position(state)
        assert mine.outcome == state.outcome
        assert bool(batch.done[i]) == state.is_over
        assert batch.to_move[i] == state.turn
        if seen is not None:
            want = observation_planes(view(state, state.to_move))
            assert (seen[i] == want).all(), (i, np.argwhere(seen[i] != want)[:4])


def lockstep(states: list[stratego.GameState], plies: int, seed: int, stats: Stats) -> None:
    rng = random.Random(seed)
    batch = Batch.from_states(states)
    check_same(batch, states)
    for _ in range(plies):
        if all(s.is_over for s in states):
            break
        actions = np.full(len(states), -1, np.int64)
        for i, state in enumerate(states):
            if state.is_over:
                continue
            rules = state.rules
            if state.shuttles[state.turn][3] >= rules.repetition.max_shuttle_moves:
                stats.shuttle_limits += 1
            if state.chase and len(legal_moves(_without_chase(state))) > len(legal_moves(state)):
                stats.chase_bans += 1
            move = chase_move(state, rng) if i >= CHASERS else biased_move(state, rng)
            actions[i] = action_index(move, state.to_move)
            states[i] = apply(state, move)
            stats.endings += states[i].is_over
        batch.step(actions)
        if any(len(s.chase) >= 5 for s in states) and not stats.rebuilt_mid_chase:
            stats.rebuilt_mid_chase += 1
            batch = Batch.from_states(states)  # a batch that starts in the middle of a chase
        check_same(batch, states)


CHASERS = 5  # games from this index on play `chase_move`


def start_states(rules: stratego.Rules, seed: int) -> list[stratego.GameState]:
    """Two games well under way, three scattered positions of a few pieces (back and
    forth), and three of two pieces a side in the middle of the board (chases)."""
    rng = random.Random(seed)
    states = []
    for _ in range(2):
        start = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, rng),
                                  stratego.random_setup(rules, Player.BLUE, rng))
        states.append(random_playout(start, rng.randrange(2**32), rng.randrange(150))[-1])
    for _ in range(3):
        states.append(scattered(rules, rng, (2, 5)))
    for _ in range(3):
        states.append(_duel(rules, rng))
    return states


def _duel(rules: stratego.Rules, rng: random.Random) -> stratego.GameState:
    free = [sq for sq in stratego.SQUARES if not sq.is_lake and 3 <= sq.row <= 6]
    rng.shuffle(free)
    placement: dict[stratego.Square | str, tuple[Player, stratego.Rank]] = {
        "a1": (Player.RED, stratego.Rank.FLAG), "j10": (Player.BLUE, stratego.Rank.FLAG)}
    strong = [rank for rank in (stratego.Rank.MARSHAL, stratego.Rank.GENERAL,
                                stratego.Rank.COLONEL, stratego.Rank.MINER)
              if rules.army.count(rank)]
    for player in Player:
        for rank in rng.sample(strong, 2):
            placement[free.pop()] = (player, rank)
    return stratego.from_position(rules, placement, to_move=rng.choice(list(Player)))


@pytest.mark.parametrize("name", list(RULES))
def test_lockstep_with_the_scalar_engine(name: str) -> None:
    rules = RULES[name]
    stats = Stats()
    lockstep(start_states(rules, 2), 60, 11, stats)
    # the test can fail: the back-and-forth limit was reached (every book's Movement rule)
    assert stats.shuttle_limits > 0
    if rules.repetition.chase:
        # Jumbo 2014 chase rule: a chase move was forbidden, and a batch started mid-chase
        assert stats.chase_bans > 0
        assert stats.rebuilt_mid_chase > 0


def _beside(state: stratego.GameState, moves: list[str]) -> tuple[Batch, stratego.GameState]:
    """`moves` played from `state` in a one-game batch and with `stratego.apply` side by
    side; masks and states are compared at every ply."""
    batch = Batch.from_states([state])
    check_same(batch, [state], planes=False)
    for move in moves:
        batch.step([action_index(move, state.to_move)])
        state = apply(state, move)
        check_same(batch, [state], planes=False)
    return batch, state


def _allows(batch: Batch, state: stratego.GameState, move: str) -> bool:
    return bool(batch.action_mask()[0][action_index(move, state.to_move)])


def test_a_piece_at_its_back_and_forth_limit_may_still_strike() -> None:
    """Hasbro 2009, Movement 10: pieces may not go back and forth between the same two
    squares in three consecutive turns (strikes are exempt). A Scout back on a4 after
    a4-a5-a4 may not go to a5 again, but may strike the Sergeant next to it."""
    state = stratego.from_position(
        "hasbro-2009", {"e1": "F", "a4": "X", "j10": "f", "b4": "t", "j7": "n"})
    batch, state = _beside(state, ["a4-a5", "j7-j6", "a5-a4", "j6-j7"])
    assert not stratego.is_legal(state, "a4-a5")
    assert stratego.is_legal(state, "a4-b4")
    assert _allows(batch, state, "a4-b4")


def test_a_piece_taken_at_its_back_and_forth_limit_leaves_no_moves_behind() -> None:
    """Hasbro 2009, Movement 10 (not back and forth between the same two squares in three
    consecutive turns): the Lieutenant that went a4-a5-a4, the limit, is taken on a4;
    Red's record still names it, and no move starts from a square without a piece."""
    state = stratego.from_position(
        "hasbro-2009", {"e1": "F", "a4": "L", "g2": "T", "j10": "f", "b4": "m", "j7": "n"})
    batch, state = _beside(state, ["a4-a5", "j7-j6", "a5-a4", "b4-a4"])
    assert state.where[state.shuttles[Player.RED][0]] < 0  # the limited piece is gone
    starts = {action_move(int(a), state.to_move).fi
              for a in np.flatnonzero(batch.action_mask()[0])}
    assert starts == {stratego.Square.parse("g2").index}


def test_a_scout_run_read_by_its_span() -> None:
    """`RepetitionRule.scout_span`: a Scout's moves within the line its first
    back-and-forth move covered (a4 to d4) count as the same squares; d4-a4, back to the
    span's end, continues the run."""
    state = stratego.from_position(SCOUT_SPAN, {"j1": "F", "a4": "X", "j10": "f", "a10": "t"})
    _, state = _beside(state, ["a4-d4", "a10-b10", "d4-a4"])
    assert state.shuttles[Player.RED][3] == 2


def test_a_captain_two_step_back_round_a_corner_continues_its_run() -> None:
    """Classic web rules (back-and-forth rule) with the Ultimate Lightning Captain's
    two-step: the Blue Captain's two-step j5-i6, round a corner between the two squares
    its run names, continues that run."""
    state = parse_position(
        "classic+ultimate-lightning .l37.l38.g39c40..t36*/...x33....t35./..b27..m34*!j29b30../"
        "..n21n22f23...k24*!x25*!/..~~..~~../..~~..~~.k31*!/.T15N16G12*..L18..X5*!/N10*!....B13"
        "M14X19*../K11*C6*.L7X8*[XK]...B9./..K1J2T3F4.... b 47 x=X17*!,S20*!,x26*!,s28!,x32*! "
        "shuttles=5:j1-j4:1:j1,31:j5-i6:1:i6 last=j4")
    _, state = _beside(state, ["j5-i6"])
    assert state.shuttles[Player.BLUE][3] == 2


def test_a_captain_two_step_strike_may_not_continue_a_run_at_its_limit() -> None:
    """ISF 10 with strikes as moves (two-squares rule) and the Ultimate Lightning Captain's
    two-step: the Captain's strike j8-h8 would continue its run at the limit."""
    state = parse_position(
        "isf+ultimate-lightning b38....g34*...t40/........m35*j37/..n32*....K18*!.k36*[XK]/"
        "x21.b23.....f26l31*/..~~..~~../.c22*~~..~~../F16..G17....L19./.N12*.T13....N11*T15/"
        ".X7.M8.B10..../.B1S2L3...J4C5X6 b 121 x=X9!,K14*!,X20*!,n24!,k25!,x27!,x28*!,"
        "l29*!,s30!,t33*!,x39*! shuttles=18:g7-h8:1:g7,36:i8-j8:3:i8/j8/i8 last=h8")
    batch, state = _beside(state, [])
    assert not stratego.is_legal(state, "j8-h8")
    assert not _allows(batch, state, "j8-h8")


def test_a_captain_two_step_may_not_recreate_a_position_of_a_chase() -> None:
    """Jumbo 2014, Moving bullet 9 (chase rule) with the Ultimate Lightning Captain's
    two-step: the quiet two-step j9-h9 would recreate a position of Red's chase."""
    state = parse_position(
        "jumbo-2014+ultimate-lightning ..b38k35*!..t40x37*!c31*./n32.l33*x39*m34x36*s30*..K12*!"
        "/f25..b27g28..k29*!X19*!./t21*.l26*n22*j23*...../..~~..~~../..~~..~~.x24*!/.C18*......"
        ".B20/K7*!.L13X14B15.T16M17*../N6..X8J9.L10*X11*../.G1S2T3N4F5.... r 124 "
        "shuttles=12:j8-j9:1,29:h8-i9:1 chase=r:i5-i8,j8-j9,j6-j8,j9-j10,j8-j9,j10-i10,j9-i9,"
        "h9-g9,i9-h9,h8-i7,h9-h7,i7-j7,h7-i7,j7-j8,i7-j7,j8-j9,j7-j8,j9-i9,j8-j9,*i9-h8 last=h8")
    batch, state = _beside(state, [])
    assert not stratego.is_legal(state, "j9-h9")
    assert not _allows(batch, state, "j9-h9")


def test_a_chase_by_answers_that_ends_on_a1() -> None:
    """The chase rule read by answers to the opponent's last move (`threat_chase=False`):
    Blue's last move ends on a1, the first square, and Red's chase of it may not recreate
    a position of that chase with b2-b1."""
    state = stratego.from_position(
        ANSWER_CHASE, {"j1": "F", "c1": "L", "j10": "f", "a2": "t"}, to_move=Player.BLUE)
    batch, state = _beside(state, ["a2-a1", "c1-b1", "a1-a2", "b1-a1", "a2-b2", "a1-a2",
                                   "b2-b1", "a2-b2", "b1-a1"])
    assert not stratego.is_legal(state, "b2-b1")
    assert not _allows(batch, state, "b2-b1")


def test_a_chase_by_answers_that_goes_round_and_begins_again() -> None:
    """The chase rule read by answers to the opponent's last move (`threat_chase=False`):
    a Red Lieutenant follows a Blue one up and down the j and i files, chases begin and
    end, and the chase record stays the scalar engine's at every ply (the last move, a
    Sergeant's j3-j4, begins a chase afresh)."""
    state = stratego.from_position(
        ANSWER_CHASE, {"a1": "F", "j10": "f", "j4": "L", "j3": "T", "j7": "l"})
    _beside(state, ["j4-j5", "j7-j6", "j5-i5", "j6-j7", "i5-j5", "j7-j6", "j5-i5", "j6-j5",
                    "i5-i6", "j5-j6", "i6-i5", "j6-j5", "j3-j4"])


@pytest.mark.parametrize(("placement", "to_move", "move", "winner"), [
    ({"a9": "F", "e1": "M", "j10": "f", "f10": "t"}, Player.RED, "a9-a10", Player.RED),
    ({"a1": "F", "e10": "m", "j2": "f", "f1": "T"}, Player.BLUE, "j2-j1", Player.BLUE),
])
def test_a_moving_flag_on_the_back_row_wins(placement: dict[stratego.Square | str, str],
                                            to_move: Player, move: str,
                                            winner: Player) -> None:
    """Moving Flag: a Flag that reaches the opponent's back row wins, on its first square
    (a10 for Red) and its last (j1 for Blue)."""
    state = stratego.from_position(by_name("jumbo-2014+moving-flag"), placement,
                                   to_move=to_move)
    batch, state = _beside(state, [move])
    assert state.outcome is not None
    assert state.outcome.winner == winner
    assert batch.done[0]
    assert batch.winner[0] == winner


def test_lockstep_to_the_end_with_a_ply_limit() -> None:
    # a ply limit ends games in a draw (Rules.with_ply_limit); Flag captures end others
    rules = CLASSIC.with_ply_limit(40)
    stats = Stats()
    lockstep(start_states(rules, 3), 45, 5, stats)
    assert stats.endings > 0


@pytest.mark.parametrize("rules", [JUMBO_2014, CLASSIC])
def test_new_games_match_new_game_and_play_on(rules: stratego.Rules) -> None:
    """A new game in a batch is `new_game` from the same setups, the position's hash
    included, with a chase rule (Jumbo 2014) and without one (classic)."""
    batch = Batch.new(rules, 6, seed=4)
    states = [batch.to_state(i) for i in range(6)]
    for state in states:
        assert state.ply == 0
        assert state.turn == Player.RED
        rebuilt = stratego.new_game(rules, *(
            stratego.Setup(who, tuple(sorted((sq, p.rank) for sq, p in state.pieces(who))))
            for who in Player))
        assert rebuilt == state
        assert rebuilt.zhash == state.zhash
    check_same(batch, states)
    for step in range(30):
        actions = batch.sample_actions(step)
        for i, state in enumerate(states):
            if not state.is_over:
                states[i] = apply(state, action_move(int(actions[i]), state.to_move))
        batch.step(actions)
        check_same(batch, states, planes=step % 10 == 0)


def test_same_seed_same_games() -> None:
    one, two = Batch.new(CLASSIC, 3, seed=9), Batch.new(CLASSIC, 3, seed=9)
    assert [one.to_state(i) for i in range(3)] == [two.to_state(i) for i in range(3)]
    assert Batch.new(CLASSIC, 3, seed=10).to_state(0) != one.to_state(0)


@pytest.mark.parametrize(("seed", "other"), [(0, 2**32), (2**32 - 1, 2**64 - 1),
                                             (5, 2**64 + 5)])
def test_distinct_seeds_deal_distinct_games(seed: int, other: int) -> None:
    """No seed stands for another (`stratego.arguments.seed_sequence`): seeds that a
    modulo 2**32 or 2**64 would fold together deal different armies and draw different
    actions; a seed draws NumPy's own stream for it (negative seeds are refused, as the
    environments refuse them)."""
    one, two = Batch.new(CLASSIC, 20, seed=seed), Batch.new(CLASSIC, 20, seed=other)
    assert [one.to_state(i) for i in range(20)] != [two.to_state(i) for i in range(20)]
    assert not (one.sample_actions(seed) == one.sample_actions(other)).all()
    assert (one.sample_actions(7) == one.sample_actions(np.random.default_rng(7))).all()


def test_reset_done_starts_new_games_in_finished_rows_only() -> None:
    batch = Batch.new(CLASSIC.with_ply_limit(6), 5, seed=1)
    for step in range(5):
        batch.step(batch.sample_actions(step))
    assert not batch.done.any()
    batch.step(batch.sample_actions(99))
    assert batch.done.all()
    assert (batch.outcome == 0).all()
    assert (batch.rewards == 0).all()
    assert not batch.action_mask().any()
    kept = Batch.from_states([batch.to_state(0), batch.to_state(1)])
    assert kept.done.all()
    reset = batch.reset_done(seed=3)
    assert list(reset) == [0, 1, 2, 3, 4]
    assert not batch.done.any()
    assert (batch.ply == 0).all()
    states = [batch.to_state(i) for i in range(5)]
    check_same(batch, states)
    assert list(kept.reset_done(seed=3)) == [0, 1]
    assert kept.to_state(0) == batch.to_state(0)


def test_unseeded_resets_continue_the_batch_generator() -> None:
    """`Batch.new`'s seed makes a whole run reproducible: resets without a seed draw from
    the batch's own generator (new armies each time); a seed reseeds it."""
    rules = CLASSIC.with_ply_limit(2)

    def armies_after_resets(batch: Batch, seeds: list[int | None]) -> list[stratego.GameState]:
        dealt = []
        for seed in seeds:
            batch.step(batch.sample_actions(0))
            batch.step(batch.sample_actions(1))
            assert batch.done.all()
            batch.reset_done(seed)
            dealt.append(batch.to_state(0))
        return dealt

    one = armies_after_resets(Batch.new(rules, 2, seed=5), [None, None, None])
    two = armies_after_resets(Batch.new(rules, 2, seed=5), [None, None, None])
    assert one == two
    assert len({state.board for state in one}) == 3  # a new deal at every reset
    reseeded = armies_after_resets(Batch.new(rules, 2, seed=6), [None, 7, None])
    again = armies_after_resets(Batch.new(rules, 2, seed=8), [None, 7, None])
    assert reseeded[1:] == again[1:]
    assert reseeded[0] != again[0]


def test_flag_capture_sets_outcome_and_rewards() -> None:
    state = stratego.from_position(CLASSIC, {"a1": "F", "b1": "M", "b2": "f", "j10": "s"})
    batch = Batch.from_states([state])
    batch.step([action_index("b1-b2", Player.RED)])
    assert batch.done[0]
    assert batch.winner[0] == 0
    assert batch.outcome[0] == 1
    assert batch.rewards.tolist() == [[1.0, -1.0]]
    assert batch.to_state(0) == apply(state, "b1-b2")


def test_an_illegal_action_names_the_game_and_changes_nothing() -> None:
    batch = Batch.new(CLASSIC, 3, seed=2)
    before = [batch.to_state(i) for i in range(3)]
    actions = batch.sample_actions(0)
    actions[1] = int(np.flatnonzero(~batch.action_mask()[1])[0])
    with pytest.raises(stratego.IllegalMoveError, match="game 1"):
        batch.step(actions)
    assert [batch.to_state(i) for i in range(3)] == before
    with pytest.raises(stratego.IllegalMoveError, match="game 0"):
        batch.step(np.array([NUM_ACTIONS + 5, -1, -1]))
    with pytest.raises(ArgumentError, match="one action per game"):
        batch.step([0, 1])
    # an action is a whole number: a float would be cut and a text parsed, so both are refused
    for wrong in (actions + 0.7, actions.astype(float), np.array([str(a) for a in actions]),
                  [0.5, 1, 2], np.ones((3, NUM_ACTIONS))):
        with pytest.raises(ArgumentError, match=r"whole numbers|one action per game"):
            batch.step(wrong)
    with pytest.raises(ArgumentError, match="one bool per game"):
        batch.step(actions, where=[True, False])
    # the switches are True or False, not arrays whose truth NumPy cannot tell
    with pytest.raises(ArgumentError, match="ignore_illegal is True or False"):
        batch.step(actions, np.zeros(3))
    with pytest.raises(ArgumentError, match="packed is True or False"):
        batch.action_mask(packed=np.zeros(3))
    assert [batch.to_state(i) for i in range(3)] == before  # nothing moved
    for no_game in (-1, 3):
        with pytest.raises(stratego.PositionError, match="no game"):
            batch.to_state(no_game)
    with pytest.raises(ArgumentError, match="a game index, a whole number"):  # not a number
        batch.to_state("0")  # type: ignore[arg-type]
    assert Batch.new("classic", 2, seed=2).rules == CLASSIC  # a rules name, as the envs take
    assert batch.step(actions, ignore_illegal=True) == 1
    assert batch.illegal_count == 1
    assert batch.to_state(1) == before[1]
    assert batch.to_state(0) != before[0]


def test_unsupported_rules_fail_at_construction_naming_what_is_supported() -> None:
    rules = by_name("hasbro-2009+rescue")
    assert not supports(rules)
    assert supports(CLASSIC)
    with pytest.raises(stratego.RulesError, match=r"Rescue.*supported: every base edition"):
        Batch.new(rules, 2)
    with pytest.raises(stratego.RulesError, match="supported"):
        Batch.from_states([stratego.from_position(rules, {"a1": "F", "j10": "f", "b1": "M"})])
    assert "Rescue" in SUPPORTED


def test_supports_takes_a_rules_name_as_batch_new_does() -> None:
    """batched-training.md: `Batch.new` "takes the rules or their name", and
    `stratego.vector.supports(rules)` "asks without raising" whether a batch plays them."""
    assert supports("classic")
    assert supports("jumbo-2014+barrage")
    assert len(Batch.new("classic", 2, seed=0)) == 2
    assert not supports("hasbro-2009+rescue")  # for its Rescue, not for being a name
    with pytest.raises(stratego.RulesError, match="Rescue"):
        Batch.new("hasbro-2009+rescue", 2)
    for not_rules in ("clasic", "barrage", "", 42, None):  # Batch.new raises RulesError
        assert supports(not_rules) is False
        with pytest.raises(stratego.RulesError):
            Batch.new(not_rules, 2)  # type: ignore[arg-type]


def test_a_batch_holds_one_rule_set() -> None:
    a = stratego.from_position(CLASSIC, {"a1": "F", "j10": "f", "b1": "M"})
    b = stratego.from_position(JUMBO_2014, {"a1": "F", "j10": "f", "b1": "M"})
    with pytest.raises(stratego.RulesError, match="game 1"):
        Batch.from_states([a, b])
    with pytest.raises(stratego.PositionError):
        Batch.from_states([])
    with pytest.raises(ArgumentError, match="positive number"):
        Batch.new(CLASSIC, 0)


def test_without_numba_the_import_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    saved = {name: mod for name, mod in sys.modules.items() if name.startswith("stratego.vector")}
    for name in saved:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "numba", None)
    with pytest.raises(stratego.MissingDependencyError, match=r"stratego\[vector\]"):
        importlib.import_module("stratego.vector")
    monkeypatch.undo()
    sys.modules.update(saved)


any_supported = st.sampled_from(SUPPORTED_RULES)


@given(st.one_of(midgame_states(any_supported, max_plies=120),
                 scattered_positions(any_supported)))
def test_any_state_loads_exactly(state: stratego.GameState) -> None:
    # property: a batch built from any state has its mask, planes and state
    check_same(Batch.from_states([state]), [state])


@given(midgame_states(st.just(CLASSIC), max_plies=120), st.integers(0, 2**16))
def test_load_puts_a_state_into_one_row_and_leaves_the_others(state: stratego.GameState,
                                                               seed: int) -> None:
    # property: after Batch.load, the loaded row holds the state exactly (mask, planes,
    # state) and the other rows are the games they were, whatever the row held before
    batch = Batch.new(CLASSIC, 3, seed=seed)
    for _ in range(seed % 7):
        batch.step(batch.sample_actions(seed))
    before = [batch.to_state(i) for i in (0, 2)]
    planes = batch.observation_planes()
    batch.load([1], [state])
    check_same(batch, [before[0], state, before[1]], planes=False)
    after = batch.observation_planes()
    assert (after[[0, 2]] == planes[[0, 2]]).all()
    assert (after[1] == Batch.from_states([state]).observation_planes()[0]).all()


def test_load_takes_a_state_in_the_middle_of_a_long_chase() -> None:
    """A chase record longer than a new batch keeps room for (16 entries, in a Jumbo 2014
    chase, Moving bullet 8) loads into a row as `from_states` holds it: the record's
    storage grows, as a step grows it, where it was refused as not fitting the batch."""
    rng = random.Random(0)
    state = _duel(JUMBO_2014, rng)
    while len(state.chase) < 16:
        assert state.outcome is None
        state = apply(state, chase_move(state, rng))
    batch = Batch.new(JUMBO_2014, 2, seed=1)
    kept = batch.to_state(0)
    batch.load([1], [state])
    check_same(batch, [kept, state])
    move = chase_move(state, rng)
    batch.step([-1, action_index(move, state.to_move)], where=np.array([False, True]))
    check_same(batch, [kept, apply(state, move)])


def test_load_refuses_a_row_outside_the_batch_or_other_rules() -> None:
    batch = Batch.new(CLASSIC, 2, seed=1)
    other = stratego.new_game(JUMBO_2014, stratego.random_setup(JUMBO_2014, Player.RED, 1),
                              stratego.random_setup(JUMBO_2014, Player.BLUE, 2))
    with pytest.raises(ArgumentError, match="row 5 is outside"):
        batch.load([5], [batch.to_state(0)])
    with pytest.raises(stratego.RulesError, match="row 0"):
        batch.load([0], [other])


@given(midgame_states(any_supported, max_plies=120), st.integers(0, 2**16))
def test_masks_and_planes_depend_only_on_the_movers_view(state: stratego.GameState,
                                                        seed: int) -> None:
    # hidden information: another state with the same view for the player to move gives
    # the same mask and planes
    assume(not state.is_over)
    try:
        other = sample_state(view(state, state.to_move), seed)
    except SamplingError:
        assume(False)
        raise
    batch = Batch.from_states([state, other])
    mask = batch.action_mask()
    planes = batch.observation_planes()
    assert (mask[0] == mask[1]).all()
    assert (planes[0] == planes[1]).all()


def test_threads_split_the_games_without_changing_them() -> None:
    one, two = Batch.new(JUMBO_2014, 8, seed=6), Batch.new(JUMBO_2014, 8, seed=6)
    two.threads = 2
    for step in range(40):
        actions = one.sample_actions(step)
        one.step(actions)
        two.step(actions)
    assert [one.to_state(i) for i in range(8)] == [two.to_state(i) for i in range(8)]
    assert (one.observation_planes() == two.observation_planes()).all()
    with pytest.raises(ArgumentError, match="threads"):
        two.threads = 0


def test_where_limits_a_step_to_some_games() -> None:
    batch = Batch.new(CLASSIC, 4, seed=8)
    before = [batch.to_state(i) for i in range(4)]
    actions = batch.sample_actions(1)
    actions[2] = -1  # not checked: game 2 does not move
    batch.step(actions, where=np.array([True, True, False, True]))
    after = [batch.to_state(i) for i in range(4)]
    assert after[2] == before[2]
    assert all(after[i] == apply(before[i], action_move(int(actions[i]), Player.RED))
               for i in (0, 1, 3))
    batch.reset([1], seed=4)
    assert batch.to_state(1).ply == 0
    assert batch.to_state(0) == after[0]
    with pytest.raises(stratego.PositionError):
        batch.reset([7])


@given(st.one_of(midgame_states(any_supported, max_plies=120),
                 scattered_positions(any_supported)))
def test_planes_for_either_player(state: stratego.GameState) -> None:
    # property: planes from a given seat equal those of that player's view
    batch = Batch.from_states([state])
    for player in Player:
        planes = batch.observation_planes(player=int(player))
        assert (planes[0] == observation_planes(view(state, player))).all()


gymnasium = pytest.importorskip("gymnasium")


def test_vector_env_against_random_moves() -> None:
    from stratego.vector.env import ENV_ID, BatchVectorEnv

    env = gymnasium.make_vec(ENV_ID, num_envs=4, rules="classic", player="blue",
                             max_plies=40)
    assert isinstance(env, BatchVectorEnv)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = np.zeros(4, np.bool_)
    finished = 0
    for _ in range(120):
        assert env.observation_space.contains(obs)
        mask = info["action_mask"]
        on = ~env.batch.done & (env.batch.ply < 40)  # (a game at the limit: Red to move)
        assert (info["to_move"][on] == Player.BLUE).all()  # the agent moves in every game on
        assert (mask[on] == env.batch.action_mask()[on]).all()
        assert not mask[~on].any()  # never the opponent's moves
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        obs, rewards, terminated, truncated, info = env.step(actions)
        # NEXT_STEP autoreset: a game that ended last step restarts, reward 0
        assert not (terminated | truncated)[ended].any()
        assert (rewards[ended] == 0).all()
        assert (env.batch.ply[ended] <= 1).all()
        assert (np.abs(rewards[terminated]) == 1).all()
        ended = terminated | truncated
        finished += int(ended.sum())
    assert finished > 0
    env.close()


def test_vector_env_self_play_rewards_the_mover() -> None:
    from stratego.vector.env import BatchVectorEnv

    state = stratego.from_position(CLASSIC, {"a1": "F", "b1": "M", "b2": "f", "j10": "s"})
    env = BatchVectorEnv(1, opponent="self", max_plies=None)
    env.reset(seed=0)
    env.batch = Batch.from_states([state])
    _, rewards, terminated, truncated, _ = env.step(
        np.array([action_index("b1-b2", Player.RED)]))
    assert terminated[0]
    assert rewards[0] == 1.0
    assert not truncated[0]
    with pytest.raises(stratego.StrategoError, match="unknown bot"):
        BatchVectorEnv(2, opponent="no-such-bot")  # (the heuristic bot is an opponent now)
