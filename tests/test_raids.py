"""Flag raids (`stratego.bots.raids`): whether a Miner near the Flag takes it by force.

Every book: a Miner removes a Bomb it strikes (classic "Attacking": the Miner is the only
piece that defuses a Bomb) and the higher rank wins a strike, so a Flag walled in by Bombs
falls to a Miner that strikes a Bomb and then the Flag unless a piece of the owner that
outranks it strikes it first. The position: Red's Flag on a1 walled in by Bombs on a2 and
b1; a known Blue Miner on c3, four moves from the Flag (a step to b3, a step to a3 or b2,
the Bomb, the Flag); one Red Sergeant, which removes a Miner it strikes.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from positions import play, position, reveal
from stratego import GameState, Move, Player, Rank, Square
from stratego.bots import SearchBot
from stratego.bots.raids import HORIZON, Raids, flag_raids
from stratego.editions import by_name
from stratego.sampling import Sampler

C3 = Square.parse("c3").index


def _raided(sergeant: str, miner: str = "c4", known: bool = True, **more: str) -> GameState:
    """Red to move after Blue's Miner stepped from `miner` one square down the board."""
    placement = {"a1": "F", "a2": "B", "b1": "B", sergeant: "T", "j1": "X",
                 miner: "n", "e10": "f", "d10": "x", "f10": "k", **more}
    state = position(by_name("classic"), placement)
    if known:
        state = reveal(state, miner, Rank.MINER)
    below = f"{miner[0]}{int(miner[1:]) - 1}"
    return play(state, "j1-j2", f"{miner}-{below}")


def _raids(state: GameState) -> Raids:
    return flag_raids(stratego.view(state, Player.RED))


def test_a_guard_that_steps_now_is_in_time_and_a_pass_is_not() -> None:
    """The Sergeant on d1 is three steps from b2, the square beside a2: if Red plays
    elsewhere the Miner walks b3, a3 and strikes a2 before the Sergeant stands beside it.
    A step toward the wall now (c1 or d2) is in time: the Sergeant then reaches b2 or
    strikes the Miner on the way. A step away, or elsewhere, leaves the raid forced."""
    raids = _raids(_raided("d1"))
    assert dict(raids.forced) == {C3: 1.0}
    assert raids.danger == 1.0
    assert raids.saves(Move.parse("d1-c1")) == 1.0
    assert raids.saves(Move.parse("d1-d2")) == 1.0
    assert raids.saves(Move.parse("d1-e1")) == 0.0
    assert raids.saves(Move.parse("j2-j3")) == 0.0
    assert set(raids.saving(stratego.view(_raided("d1"), Player.RED).legal_moves)) == \
        {Move.parse("d1-c1"), Move.parse("d1-d2")}


def test_a_guard_too_far_saves_nothing() -> None:
    """From e1 the Sergeant is four steps from b2: whatever Red plays, the Miner strikes
    a2 and then the Flag first."""
    state = _raided("e1")
    raids = _raids(state)
    assert dict(raids.forced) == {C3: 1.0}
    assert raids.saving(stratego.view(state, Player.RED).legal_moves) == []


def test_a_guard_in_time_may_not_step_away() -> None:
    """From c1 (beside b1) the Sergeant answers every walk of the Miner in time: no raid
    is forced. Its step to d1 loses that tempo, and the raid is forced again."""
    raids = _raids(_raided("c1"))
    assert dict(raids.forced) == {}
    assert raids.saves(Move.parse("c1-d1")) == -1.0
    assert raids.saves(Move.parse("c1-c2")) == 0.0
    assert raids.saves(Move.parse("j2-j3")) == 0.0


def test_a_guard_beside_the_raider_strikes_it() -> None:
    """A Sergeant on c2, beside the Miner, strikes it: no raid is forced, and the strike
    is no loss of tempo."""
    raids = _raids(_raided("d2", miner="c4", e3="T"))
    assert raids.danger == 0.0
    beside = _raids(_raided("b2"))
    assert dict(beside.forced) == {}
    assert beside.saves(Move.parse("b2-c2")) <= 0.0


def test_a_miner_of_the_owner_trades_with_the_raider() -> None:
    """Classic: equal ranks both leave the board, so Red's own Miner stops the raid as a
    Sergeant would; a Scout, which the Miner beats, is only a piece in its way."""
    assert _raids(_raided("d1")).saves(Move.parse("d1-c1")) == 1.0
    miner = _raids(_raided("j9", d1="N"))
    assert miner.saves(Move.parse("d1-c1")) == 1.0
    scout = _raids(_raided("j9", d1="X"))
    assert dict(scout.forced) == {C3: 1.0}
    assert scout.saves(Move.parse("d1-c1")) == 0.0


def test_a_hidden_piece_counts_with_its_chance_and_a_known_captain_not_at_all() -> None:
    """A hidden piece that moved raids with its chance of being a Miner (by the counts of
    what Blue may still have hidden); a piece known to be a Captain removes no Bomb."""
    hidden = _raids(_raided("d1", known=False))
    chance = hidden.forced[C3]
    assert 0.0 < chance < 1.0
    assert hidden.saves(Move.parse("d1-c1")) == pytest.approx(chance)
    captain = position(by_name("classic"), {"a1": "F", "a2": "B", "b1": "B", "d1": "T",
                                           "j1": "X", "c4": "k", "e10": "f", "d10": "x",
                                           "f10": "n"})
    captain = play(reveal(captain, "c4", Rank.CAPTAIN), "j1-j2", "c4-c3")
    assert _raids(captain).danger == 0.0


def test_a_raider_beyond_the_horizon_is_not_searched() -> None:
    """A Miner on d3, five moves from the Flag, is past `HORIZON` (4): nothing is forced
    yet; with a horizon of 5 it is searched, and with Red's Sergeant far away on j9 it
    takes the Flag."""
    state = _raided("j9", miner="d4")
    assert HORIZON == 4
    assert _raids(state).danger == 0.0
    seen = stratego.view(state, Player.RED)
    assert flag_raids(seen, horizon=5).danger == 1.0


def test_the_raids_depend_only_on_what_red_may_know() -> None:
    """Differential: states drawn for Red's view (other hidden Blue ranks) give the same
    raids and the same score for every Red move."""
    state = _raided("d1", known=False, e7="j", f7="t")
    seen = stratego.view(state, Player.RED)
    expected = flag_raids(seen)
    assert expected.danger > 0.0
    rng = random.Random(5)
    for _ in range(5):
        other = stratego.view(Sampler(seen).sample(rng), Player.RED)
        raids = flag_raids(other)
        assert raids == expected
        assert {m: raids.saves(m) for m in seen.legal_moves} == \
            {m: expected.saves(m) for m in seen.legal_moves}


def test_the_search_bot_leaves_a_post_to_be_in_time() -> None:
    """Red's Sergeant on c1 stands beside b1, and the known Miner on a4 walks a3, strikes
    a2 and then the Flag: from c1 the Sergeant never reaches a square beside a2 in time,
    from c2 it does (b2). The Bomb walls charge the step c1-c2 for leaving b1's post, so
    with one candidate and the race's pulls off the search bot stays; with
    ``raids=True`` it steps."""
    seen = stratego.view(_raided("c1", miner="a5"), Player.RED)
    step = Move.parse("c1-c2")
    raids = flag_raids(seen)
    assert dict(raids.forced) == {Square.parse("a4").index: 1.0}
    assert raids.saving(seen.legal_moves) == [step]
    for on in (False, True):
        bot = SearchBot(1, simulations=20, candidates=1, hunt=0.0, intercept=0.0, raids=on)
        assert (bot(seen) == step) is on


def test_the_saving_moves_join_the_candidates() -> None:
    """With ``raids=True`` the moves that stop a forced raid are searched whatever their
    heuristic score."""
    seen = stratego.view(_raided("d1"), Player.RED)
    bot = SearchBot(1, simulations=40, candidates=1, raids=True)
    bot(seen)
    assert {Move.parse("d1-c1"), Move.parse("d1-d2")} <= {c.move for c in bot.searched}


def test_a_longer_horizon_brings_the_guard_in_time() -> None:
    """The known Miner on d3 is five moves from the Flag and Red's Sergeant on e1 four
    steps from b2: past the default horizon the search bot sees nothing to save; with
    ``raids_horizon=5`` the Sergeant's steps toward the wall (e1-d1, e1-e2), the only
    ones in time, are searched among the candidates."""
    seen = stratego.view(_raided("e1", miner="d4"), Player.RED)
    saving = {Move.parse("e1-d1"), Move.parse("e1-e2")}
    assert set(flag_raids(seen, horizon=5).saving(seen.legal_moves)) == saving
    for horizon, seen_in_time in ((HORIZON, False), (5, True)):
        bot = SearchBot(1, simulations=40, candidates=1, raids=True,
                        raids_horizon=horizon)
        bot(seen)
        assert (saving <= {c.move for c in bot.searched}) is seen_in_time


@pytest.mark.parametrize("horizon", [0, 2.5, "5", True])
def test_a_bad_raids_horizon_is_refused(horizon: object) -> None:
    """`raids_horizon` is a whole number of moves, 1 or more: anything else is an
    ArgumentError naming it."""
    with pytest.raises(stratego.ArgumentError, match="raids_horizon must be a whole number"):
        SearchBot(1, raids=True, raids_horizon=horizon)  # type: ignore[arg-type]


@pytest.mark.parametrize("horizon", [0, -1, 2.5, "4", True])
def test_a_bad_horizon_is_refused(horizon: object) -> None:
    """`horizon` is a whole number of moves, 1 or more: anything else is an ArgumentError
    naming it."""
    seen = stratego.view(_raided("d1"), Player.RED)
    with pytest.raises(stratego.ArgumentError, match="horizon must be a whole number"):
        flag_raids(seen, horizon=horizon)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [1, "yes", None])
def test_the_raids_switch_is_a_bool(value: object) -> None:
    """`raids` is True or False: anything else is an ArgumentError naming it."""
    with pytest.raises(stratego.ArgumentError, match="raids must be True or False"):
        SearchBot(1, raids=value)  # type: ignore[arg-type]


_GUARDS = "TLKJCGMN"  # the Red ranks that remove a Miner they strike (classic)


@st.composite
def _raid_positions(draw: st.DrawFn) -> GameState:
    """A classic position with Red to move: Red's Flag on its first two rows, Bombs on
    some of its sides, a few Red guards and Scouts on the first four rows, a known Blue
    Miner on rows two to six, Blue's Flag and a spare Blue piece far away."""
    flag = Square(draw(st.integers(0, 19)))
    placement = {str(flag): "F", "j10": "f", "a10": "x"}
    taken = {flag.index}
    for n in stratego.board.NEIGHBOURS[flag.index]:
        if draw(st.booleans()):
            placement[str(Square(n))] = "B"
            taken.add(n)
    free = [i for i in range(40) if i not in taken and i not in stratego.board.LAKE_INDICES]
    squares = draw(st.lists(st.sampled_from(free), min_size=1, max_size=4, unique=True))
    ranks = draw(st.permutations(_GUARDS + "X"))
    for i, rank in zip(squares, ranks, strict=False):
        placement[str(Square(i))] = rank
        taken.add(i)
    spots = [i for i in range(10, 60) if i not in taken
             and i not in stratego.board.LAKE_INDICES]
    miner = Square(draw(st.sampled_from(spots)))
    placement[str(miner)] = "n"
    state = position(by_name("classic"), placement)
    return reveal(state, str(miner), Rank.MINER)


@given(_raid_positions())
def test_property_raids_are_bounded_and_grow_with_the_horizon(state: GameState) -> None:
    """Invariants: the danger is at most the number of raiders; every move's count after
    it lies between 0 and that number; a raid forced within h moves is forced within
    h + 1; a forced raider with a guard beside it is stopped by the guard's strike."""
    seen = stratego.view(state, Player.RED)
    raids = flag_raids(seen)
    assert 0.0 <= raids.danger <= 1.0
    for move in seen.legal_moves:
        assert -1.0 <= raids.saves(move) <= raids.danger
    longer = flag_raids(seen, horizon=HORIZON + 1)
    assert set(raids.forced) <= set(longer.forced)
    board = state.board
    for square in raids.forced:
        for n in stratego.board.NEIGHBOURS[square]:
            code = board[n]
            if code and (code >> 4) & 1 == Player.RED and code & 15 in range(3, 11):
                assert raids.saves(Move(Square(n), Square(square))) == raids.danger
