"""Bomb walls (`stratego.bots.walls`): a cover beside each Bomb next to the Flag that a
Miner nears.

Every book: a Miner removes a Bomb it strikes (classic "Attacking": the Miner is the only
piece that defuses a Bomb), so a Flag walled in by Bombs falls to a Miner in two strikes,
the Bomb and then the Flag, with one move of the defender in between. The position: Red's
Flag on a1 walled in by Bombs on a2 and b1; a Blue Miner three moves from both Bombs.
"""

from __future__ import annotations

import random

import pytest

import stratego
from positions import play, position, reveal
from stratego import GameState, Move, Player, Rank
from stratego.bots import SearchBot
from stratego.bots.walls import WallWatch, watch_walls
from stratego.editions import by_name
from stratego.sampling import Sampler

A2, B1 = stratego.Square.parse("a2").index, stratego.Square.parse("b1").index


def _walled(sergeant: str = "c2", miner: str = "c4", **more: str) -> GameState:
    placement = {"a1": "F", "a2": "B", "b1": "B", sergeant: "T", "j1": "X",
                 miner: "n", "e10": "f", "d10": "x", "f10": "k", **more}
    return position(by_name("classic"), placement)


def _watch(state: GameState) -> WallWatch:
    return watch_walls(stratego.view(state, Player.RED))


def test_a_known_miner_near_the_wall_asks_for_a_cover_of_each_bomb() -> None:
    """A known Miner on c4 strikes b1 or a2 within three moves: each Bomb is threatened
    with chance 1. b2 stands beside both Bombs, c1 beside b1 only; a step elsewhere covers
    nothing, and a coverer leaving its post uncovers."""
    state = play(reveal(_walled(), "c4", Rank.MINER), "j1-j2", "c4-c3")
    watch = _watch(state)
    assert dict(watch.threats) == {A2: 1.0, B1: 1.0}
    assert watch.cover(Move.parse("c2-b2")) == 2.0
    assert watch.cover(Move.parse("c2-c1")) == 1.0
    assert watch.cover(Move.parse("c2-d2")) == 0.0
    held = play(reveal(_walled("b2"), "c4", Rank.MINER), "j1-j2", "c4-c3")
    assert _watch(held).cover(Move.parse("b2-b3")) == -2.0
    assert _watch(held).cover(Move.parse("j2-j3")) == 0.0


def test_only_a_piece_that_removes_a_miner_covers() -> None:
    """Classic: a Scout loses to a Miner it strikes, a Miner trades with it. A Scout
    stepping beside the Bombs covers nothing; a Miner does."""
    for rank, covers in (("X", 0.0), ("N", 2.0)):
        placement = {"a1": "F", "a2": "B", "b1": "B", "c2": rank, "j1": "X",
                     "c3": "n", "e10": "f", "d10": "x", "f10": "k"}
        state = reveal(position(by_name("classic"), placement), "c3", Rank.MINER)
        assert _watch(state).cover(Move.parse("c2-b2")) == covers


def test_a_cover_that_leaves_its_post_uncovers_even_to_strike() -> None:
    """A cover leaves its post when it strikes the Miner next to it as when it steps
    away: the watch counts both as uncovering (what the strike wins is its own score's
    to weigh). The Miner on b3 reaches a2 by a3; b1 is four moves away past b2."""
    state = play(reveal(_walled("b2", miner="b4"), "b4", Rank.MINER), "j1-j2", "b4-b3")
    watch = _watch(state)
    assert dict(watch.threats) == {A2: 1.0}
    assert watch.cover(Move.parse("b2-b3")) == -1.0
    assert watch.cover(Move.parse("b2-c2")) == -1.0


def test_a_far_or_beaten_piece_is_no_threat() -> None:
    """A Miner four moves away, or a piece known to be no Miner, threatens no Bomb."""
    far = reveal(_walled(miner="e4"), "e4", Rank.MINER)
    assert dict(_watch(far).threats) == {}
    captain = reveal(_walled(miner="c3"), "c3", Rank.CAPTAIN)
    assert dict(_watch(captain).threats) == {}


def test_a_hidden_piece_threatens_with_its_chance_of_being_a_miner() -> None:
    """A hidden piece that moved counts with its chance of being a Miner (by the counts
    of what Blue may still have hidden, without chances given)."""
    state = play(_walled(miner="c4"), "j1-j2", "c4-c3")
    watch = _watch(state)
    assert set(watch.threats) == {A2, B1}
    assert 0.0 < watch.threats[A2] < 1.0
    assert watch.cover(Move.parse("c2-b2")) == pytest.approx(2 * watch.threats[A2])


def test_the_watch_depends_only_on_what_red_may_know() -> None:
    """Differential: states drawn for Red's view (other hidden Blue ranks) give the same
    watch and the same cover and hold for every Red move."""
    state = play(_walled(miner="c4", e7="j", f7="t"), "j1-j2", "c4-c3")
    seen = stratego.view(state, Player.RED)
    expected = watch_walls(seen)
    rng = random.Random(3)
    for _ in range(5):
        other = stratego.view(Sampler(seen).sample(rng), Player.RED)
        watch = watch_walls(other)
        assert watch == expected
        assert watch.approaches(other.legal_moves) == expected.approaches(seen.legal_moves)
        for strikes in (False, True):
            assert {m: (watch.cover(m, strikes=strikes), watch.hold(m, strikes=strikes))
                    for m in seen.legal_moves} == \
                {m: (expected.cover(m, strikes=strikes), expected.hold(m, strikes=strikes))
                 for m in seen.legal_moves}


def test_the_search_bot_covers_the_wall() -> None:
    """A known Miner on a5 strikes a2 within three moves, and it is no intruder yet (four
    steps from the Flag). Red's own Miner on c2, which trades with it, has nothing to
    walk toward: with one candidate (no playouts to weigh) the search bot steps it beside
    a2 to cover the wall, and without the wall's score it plays the Scout."""
    state = position(by_name("classic"), {"a1": "F", "a2": "B", "b1": "B", "c2": "N",
                                          "j1": "X", "a6": "n", "e10": "f", "d10": "x",
                                          "f10": "k"})
    state = play(reveal(state, "a6", Rank.MINER), "j1-i1", "a6-a5")
    seen = stratego.view(state, Player.RED)
    assert dict(watch_walls(seen).threats) == {A2: 1.0}
    assert SearchBot(1, simulations=20, candidates=1)(seen) == Move.parse("c2-b2")
    assert SearchBot(1, simulations=20, candidates=1, wall=0)(seen).frm == \
        stratego.Square.parse("i1")


@pytest.mark.parametrize("reach", [-1, 2.5, "3", True])
def test_a_bad_reach_is_refused(reach: object) -> None:
    """`reach` is a whole number of moves, 0 or more: anything else is an ArgumentError
    naming it."""
    seen = stratego.view(_walled(), Player.RED)
    with pytest.raises(stratego.ArgumentError, match="reach must be a whole number"):
        watch_walls(seen, reach=reach)  # type: ignore[arg-type]
    assert watch_walls(seen, reach=0).threats == {}


def test_a_threat_is_held_only_when_every_bomb_it_reaches_is_covered() -> None:
    """Every book lets the Miner strike any Bomb it reaches, so a Miner on c3 that reaches
    both a2 and b1 strikes the one without a cover. Covering b1 alone (c2-c1) holds
    nothing; b2, beside both Bombs, holds the Miner. `cover` counts Bombs one by one and
    scores c2-c1 as half of b2; `hold` counts the threat, held or not."""
    state = play(reveal(_walled(miner="c4"), "c4", Rank.MINER), "j1-j2", "c4-c3")
    watch = _watch(state)
    assert set(watch.pieces) == {stratego.Square.parse("c3").index}
    assert watch.cover(Move.parse("c2-c1")) == 1.0
    assert watch.hold(Move.parse("c2-c1")) == 0.0
    assert watch.cover(Move.parse("c2-b2")) == 2.0
    assert watch.hold(Move.parse("c2-b2")) == 1.0
    assert watch.hold(Move.parse("j2-j3")) == 0.0


def test_leaving_a_post_that_holds_nothing_costs_nothing() -> None:
    """A Red Colonel on c1 covers b1, but the Miner on c3 also reaches a2, which no piece
    covers: the threat is loose whether the Colonel stays or goes. `cover` charges its
    step away as uncovering b1; `hold` does not. Its step to b2, beside both Bombs, holds
    the Miner in both counts (by one threat; by one more Bomb covered)."""
    state = play(reveal(_walled("c1", miner="c4"), "c4", Rank.MINER), "j1-j2", "c4-c3")
    watch = _watch(state)
    assert watch.cover(Move.parse("c1-d1")) == -1.0
    assert watch.hold(Move.parse("c1-d1")) == 0.0
    assert watch.cover(Move.parse("c1-b2")) == 1.0
    assert watch.hold(Move.parse("c1-b2")) == 1.0
    held = play(reveal(_walled("b2", miner="c4"), "c4", Rank.MINER), "j1-j2", "c4-c3")
    assert _watch(held).hold(Move.parse("b2-b3")) == -1.0


def test_each_threat_counts_with_its_own_chance() -> None:
    """Two threats: a known Miner on a4 reaching a2 only, and a hidden piece on c3
    reaching both Bombs with its chance of being a Miner. A cover on a3 holds the
    first and not the second; b2 holds both."""
    state = play(reveal(_walled("b3", miner="a5", c4="n"), "a5", Rank.MINER),
                 "j1-j2", "a5-a4", "j2-j1", "c4-c3")
    watch = _watch(state)
    a4, c3 = (stratego.Square.parse(s).index for s in ("a4", "c3"))
    assert watch.pieces[a4] == (1.0, frozenset({A2}))
    chance, bombs = watch.pieces[c3]
    assert 0.0 < chance < 1.0
    assert bombs == frozenset({A2, B1})
    assert watch.hold(Move.parse("b3-a3")) == pytest.approx(1.0)
    assert watch.hold(Move.parse("b3-b2")) == pytest.approx(1.0 + chance)


def test_the_search_bot_counts_threats_held_when_asked() -> None:
    """The known Miner on c3 reaches both Bombs. Red's Sergeant on d1 can step to c1
    beside b1 only. With the race's pulls toward the Miner off (so only the wall speaks
    for the step) and one candidate: counted by Bombs, c1 covers half the wall and the
    search bot plays it; counted by threats it holds nothing, and the bot plays the
    Scout."""
    state = play(reveal(_walled("d1", miner="c4"), "c4", Rank.MINER), "j1-j2", "c4-c3")
    seen = stratego.view(state, Player.RED)
    step = Move.parse("d1-c1")
    for threats in (False, True):
        bot = SearchBot(1, simulations=20, candidates=1, hunt=0.0, intercept=0.0,
                        wall_threats=threats)
        played = bot(seen)
        assert (played == step) is not threats
        assert played.frm == (stratego.Square.parse("j2") if threats else step.frm)


@pytest.mark.parametrize("value", [1, "yes", None])
@pytest.mark.parametrize("name", ["wall_threats", "wall_strikes"])
def test_the_wall_switches_are_bools(name: str, value: object) -> None:
    """`wall_threats` and `wall_strikes` are True or False: anything else is an
    ArgumentError naming the option."""
    with pytest.raises(stratego.ArgumentError, match=f"{name} must be True or False"):
        SearchBot(1, **{name: value})  # type: ignore[arg-type]


def _striking() -> GameState:
    """Red's Sergeant on c1 covers b1; the known Miner on c2, beside it, reaches a2 (no
    cover) and b1 within two moves."""
    return play(reveal(_walled("c1", miner="c3"), "c3", Rank.MINER), "j1-j2", "c3-c2")


def test_a_cover_that_strikes_the_threat_removes_it_when_asked() -> None:
    """Every book: the Sergeant removes a Miner it strikes (classic "Attacking": the
    higher rank wins). Struck, the Miner threatens nothing, so with `strikes` the strike
    lowers both counts by the whole threat; without, it counts as the Sergeant leaving
    b1's post. A step away still uncovers b1 either way."""
    watch = _watch(_striking())
    strike, away = Move.parse("c1-c2"), Move.parse("c1-d1")
    assert dict(watch.threats) == {A2: 1.0, B1: 1.0}
    assert (watch.cover(strike), watch.hold(strike)) == (-1.0, 0.0)
    assert (watch.cover(strike, strikes=True), watch.hold(strike, strikes=True)) == (1.0, 1.0)
    assert (watch.cover(away, strikes=True), watch.hold(away, strikes=True)) == (-1.0, 0.0)


def test_a_struck_threat_leaves_the_others() -> None:
    """Two threats: the known Miner on a4 reaching a2, and a hidden piece on c3 reaching
    both Bombs. Red's Sergeant on b3, beside a2's threat, strikes it: the hidden piece
    still threatens a2 and b1 with its own chance, which the counts keep."""
    state = play(reveal(_walled("b3", miner="a5", c4="n"), "a5", Rank.MINER),
                 "j1-j2", "a5-a4", "j2-j1", "c4-c3")
    watch = _watch(state)
    chance = watch.pieces[stratego.Square.parse("c3").index][0]
    strike = Move.parse("b3-a4")
    assert watch.hold(strike, strikes=True) == pytest.approx(1.0)
    assert watch.cover(strike, strikes=True) == pytest.approx(watch.uncovered - 2 * chance)


def _beside_the_wall(known: bool) -> GameState:
    """Blue's piece on b2 stands beside both Bombs, a known Blue Miner on a4 reaches a2,
    and Red's Sergeant on c2, beside b2, covers neither Bomb. Blue's hidden pieces that
    have moved are a Spy, a Scout, a Miner, a Captain and a Colonel."""
    state = _walled("c2", miner="b4", a5="n", h7="c", i7="s")
    if known:
        state = reveal(state, "b4", Rank.MINER)
    state = reveal(state, "a5", Rank.MINER)
    return play(state, "j1-j2", "b4-b3", "j2-j1", "b3-b2", "j1-j2", "a5-a4")


def test_a_cover_that_strikes_beside_the_wall_stands_there_if_it_survives() -> None:
    """Classic "Attacking": the higher rank wins, equal ranks both go. The Sergeant that
    strikes b2 stands beside both Bombs only if it survives: always against the known
    Miner, so with `strikes` both Bombs end covered and the whole count is gained; against
    the hidden piece only when it is the Spy, the Scout or the Miner (3 of 5), and else
    the known Miner on a4 still reaches a2 without a cover. Without `strikes` a strike is
    no cover."""
    strike = Move.parse("c2-b2")
    c2, b2 = stratego.Square.parse("c2").index, stratego.Square.parse("b2").index
    known = _watch(_beside_the_wall(True))
    assert known.survival(c2, b2) == 1.0
    assert known.cover(strike, strikes=True) == known.uncovered == 2.0
    assert known.hold(strike, strikes=True) == known.loose == 2.0
    hidden = _watch(_beside_the_wall(False))
    assert dict(hidden.threats) == pytest.approx({A2: 1.0, B1: 0.2})
    survives = hidden.survival(c2, b2)
    assert survives == pytest.approx(0.6)
    assert hidden.cover(strike, strikes=True) == pytest.approx(1.2 - (1 - survives))
    assert hidden.cover(strike) == hidden.hold(strike) == 0.0
    assert hidden.survival(c2, stratego.Square.parse("c3").index) == 1.0  # a step


def test_the_search_bot_strikes_the_miner_beside_its_wall_when_asked() -> None:
    """In the position above, with one candidate (the heuristic's best) and the race's
    pulls off: counted as leaving b1's post, the Sergeant's strike on the known Miner is
    charged the wall's weight and the bot plays something else; with ``wall_strikes=True``
    it strikes."""
    seen = stratego.view(_striking(), Player.RED)
    strike = Move.parse("c1-c2")
    for strikes in (False, True):
        bot = SearchBot(1, simulations=20, candidates=1, hunt=0.0, intercept=0.0,
                        wall_strikes=strikes)
        assert (bot(seen) == strike) is strikes


def test_the_nearest_guard_of_an_uncovered_bomb_approaches_it() -> None:
    """The known Miner on b3 reaches a2 and b1 (by a3 or b2). Red's Sergeant on d3, which
    removes a Miner it strikes, is three steps from both Bombs' posts: its approach is
    one step that brings it nearer (to c3 or d2), named once. Once a piece
    of Red's stands on a post the Bomb is covered and nothing needs to approach; a step
    onto a post is the cover's to score, not an approach."""
    state = play(reveal(_walled("d3", miner="b4"), "b4", Rank.MINER), "j1-j2", "b4-b3")
    seen = stratego.view(state, Player.RED)
    watch = watch_walls(seen)
    assert dict(watch.threats) == {A2: 1.0, B1: 1.0}
    assert watch.approaches(seen.legal_moves) in ([Move.parse("d3-c3")],
                                                  [Move.parse("d3-d2")])
    covered = play(reveal(_walled("d3", miner="b4", b2="T"), "b4", Rank.MINER),
                   "j1-j2", "b4-b3")
    seen = stratego.view(covered, Player.RED)
    assert watch_walls(seen).approaches(seen.legal_moves) == []
    near = play(reveal(_walled("c2", miner="b4"), "b4", Rank.MINER), "j1-j2", "b4-b3")
    seen = stratego.view(near, Player.RED)
    assert watch_walls(seen).approaches(seen.legal_moves) == []  # c2-b2 is a cover


def test_a_defending_search_bot_weighs_the_approach() -> None:
    """In the position above, with one candidate (the heuristic's best, another move):
    with `defend` the Sergeant's approach joins it, to be weighed by the playouts;
    without, the heuristic's best is weighed alone."""
    state = play(reveal(_walled("d3", miner="b4"), "b4", Rank.MINER), "j1-j2", "b4-b3")
    seen = stratego.view(state, Player.RED)
    [approach] = watch_walls(seen).approaches(seen.legal_moves)
    for defend in (0.0, 0.5):
        bot = SearchBot(1, simulations=20, candidates=1, defend=defend)
        bot(seen)
        weighed = [c.move for c in bot.searched]
        assert (approach in weighed) is (defend > 0)
