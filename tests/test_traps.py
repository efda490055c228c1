"""Traps (`stratego.bots.traps`): the repetition rules as a weapon, and as a danger.

The position: a Blue Sergeant whose rank Red knows goes back and forth between a10 and
a9 (Blue Bombs on b10 and b9 shut its other ways), while a Red Lieutenant waits on a7.
Once the back-and-forth rule forbids the Sergeant to go back to a10, Red's a7-a8 leaves
it no way out: a8 holds the Lieutenant, which beats it. The books differ in how many
moves between two squares they allow, and the trap follows each book's count:

* classic web rules (Important): the fifth move between the same two squares is illegal;
* Milton Bradley 1961 and Hasbro 2009 (Movement 10): the third;
* Jumbo 2014 (Moving 8) and ISF 10.1: the fourth.
"""

from __future__ import annotations

import random

import pytest

import stratego
from positions import play, position, reveal
from stratego import GameState, Move, Player, Rank
from stratego.bots import SearchBot
from stratego.bots.traps import trapped, traps_for
from stratego.editions import by_name
from stratego.sampling import Sampler

# the move that forbids the next return, by edition: the Sergeant's moves before it
ALLOWED_BEFORE_THE_TRAP = {"classic": 4, "hasbro-2009": 2, "milton-bradley-1961": 2,
                           "jumbo-2014": 3, "isf": 3}
TEMPO = ["e1-e2", "e2-e3", "e3-e4", "e4-f4", "f4-f5", "f5-f6", "f6-f7"]
TRAP = Move.parse("a7-a8")
A9 = stratego.Square.parse("a9")


def _start(name: str, sergeant: str, *, known_sergeant: bool = True,
           known_lieutenant: bool = False, hunter: str = "L") -> GameState:
    placement = {sergeant: "t", "b10": "b", "b9": "b", "j10": "f", "c10": "x",
                 "a7": hunter, "j1": "F", "e1": "K"}
    state = position(by_name(name), placement)
    if known_sergeant:
        state = reveal(state, sergeant, Rank.SERGEANT)
    if known_lieutenant:
        state = reveal(state, "a7", Rank.LIEUTENANT)
    return state


def _shuttle(state: GameState, moves: int) -> GameState:
    """Red's tempo moves and `moves` back-and-forth moves of the Sergeant, ending with
    the Sergeant on a9 and Red to move."""
    at = "a9" if state.piece_at("a9") is not None else "a10"
    for i in range(moves):
        there = "a10" if at == "a9" else "a9"
        state = play(state, TEMPO[i], f"{at}-{there}")
        at = there
    return state


@pytest.mark.parametrize("name", sorted(ALLOWED_BEFORE_THE_TRAP))
def test_the_back_and_forth_rule_shuts_the_last_way_out(name: str) -> None:
    """Each book's back-and-forth count: a7-a8 traps the Sergeant on a9 exactly when its
    moves between a10 and a9 have used up what the book allows, and not one move sooner."""
    allowed = ALLOWED_BEFORE_THE_TRAP[name]
    start = "a9" if allowed % 2 == 0 else "a10"  # the Sergeant ends on a9
    fresh = _start(name, "a9")
    assert trapped(fresh, TRAP) == ()  # it can go back to a10
    for moves in range(allowed % 2, allowed + 1, 2):
        state = _shuttle(_start(name, start), moves)
        assert state.piece_at("a9") is not None
        after = play(state, "a7-a8")
        way_back = Move.parse("a9-a10") in stratego.legal_moves(after)
        if moves < allowed:
            assert way_back
            assert trapped(state, TRAP) == ()
        else:
            assert not way_back
            assert trapped(state, TRAP) == (A9,)


def test_only_a_public_rank_beaten_by_the_mover_is_trapped() -> None:
    """A piece is hunted only when the hunter knows its rank and beats it (classic: the
    higher rank wins); a hidden Sergeant or a Miner hunter traps nothing."""
    allowed = ALLOWED_BEFORE_THE_TRAP["classic"]
    assert trapped(_shuttle(_start("classic", "a9"), allowed), TRAP) == (A9,)
    hidden = _shuttle(_start("classic", "a9", known_sergeant=False), allowed)
    assert trapped(hidden, TRAP) == ()
    weaker = _shuttle(_start("classic", "a9", hunter="N"), allowed)
    assert trapped(weaker, TRAP) == ()
    assert trapped(_shuttle(_start("classic", "a9"), allowed), Move.parse("f1-f2")) == ()


def test_a_trap_depends_only_on_what_both_players_know() -> None:
    """Differential: states drawn for Red's view (other hidden ranks) give the same
    answer for every Red move."""
    state = _shuttle(_start("isf", "a10"), 3)
    seen = stratego.view(state, Player.RED)
    expected = {m: trapped(state, m) for m in seen.legal_moves}
    assert expected[TRAP] == (A9,)
    rng = random.Random(5)
    for _ in range(5):
        other = Sampler(seen).sample(rng)
        assert {m: trapped(other, m) for m in seen.legal_moves} == expected


def test_a_move_that_walks_into_a_trap_is_seen_when_the_hunter_is_known() -> None:
    """ISF 10.1: the Sergeant's third move between a10 and a9 leaves it on a9 with its
    fourth forbidden; when Blue knows the Lieutenant on a7, that move walks into a7-a8."""
    for known, expected in ((True, (A9,)), (False, ())):
        state = _start("isf", "a10", known_lieutenant=known)
        state = play(state, TEMPO[0], "a10-a9", TEMPO[1], "a9-a10", TEMPO[2])
        assert traps_for(play(state, "a10-a9")) == expected
        assert traps_for(play(state, "c10-c9")) == ()


def test_the_search_bot_scores_the_trap() -> None:
    """The search bot adds the trapped piece's worth to the trapping move's score: the
    move its scores rank first (one candidate, no playouts to weigh) is the trap, where
    without the bonus it is the first of the moves the heuristic scores alike."""
    state = _shuttle(_start("isf", "a10"), 3)
    seen = stratego.view(state, Player.RED)
    assert SearchBot(1, simulations=40, candidates=1)(seen) == TRAP
    assert SearchBot(1, simulations=40, candidates=1, trap=0)(seen) != TRAP


def test_a_piece_that_wins_striking_the_hunter_is_not_trapped() -> None:
    """Classic (and every book): the Spy takes the Marshal only when it strikes; struck
    by the Marshal it loses. A Spy stepping next to a known Marshal with no other way out
    traps nothing: the Marshal strikes first."""
    state = position(by_name("classic"), {"a9": "m", "b10": "b", "b9": "b", "a10": "t",
                                          "j10": "f", "c10": "x", "a7": "S", "j1": "F",
                                          "e1": "K"})
    state = reveal(state, "a9", Rank.MARSHAL)
    assert trapped(state, TRAP) == ()
    lieutenant = position(by_name("classic"), {"a9": "t", "b10": "b", "b9": "b", "a10": "x",
                                               "j10": "f", "c10": "x", "a7": "L", "j1": "F",
                                               "e1": "K"})
    assert trapped(reveal(lieutenant, "a9", Rank.SERGEANT), TRAP) == (A9,)
