"""Readings settled edition by edition.

Each test states the reading in our words and cites, per edition, the rule it rests on;
docs/editions.md ("Readings shared by every edition") and docs/variants.md give the
argument.
"""

from __future__ import annotations

import attrs
import pytest

from positions import play
from stratego import (
    CLASSIC,
    JUMBO_2014,
    Player,
    Rank,
    Rules,
    Termination,
    apply,
    explain_illegal,
    from_position,
    is_legal,
)
from stratego.editions import EDITIONS
from stratego.rules import RepetitionRule

# The rule each edition's reading rests on, for the test ids and the docs.
DEFENDER_RULE = {
    "milton-bradley-1961": "Strike 6 (and 10)",
    "hasbro-2009": "Strike 6 (and 10)",
    "jumbo-2014": "Attacking, bullet 5",
    "classic": "Rules for Strike, paragraph 2",
    "isf": "ISF 5 (Jumbo Attacking, bullet 5)",
}
NO_MOVE_RULE = {
    "milton-bradley-1961": "To end the game, note",
    "hasbro-2009": "To end the game, note",
    "jumbo-2014": "The game ends when, bullet 2",
    "classic": "Rules for Movement, last sentences",
    "isf": "ISF 5 (Jumbo The game ends when, bullet 2)",
}


def test_every_edition_has_its_readings_cited() -> None:
    """Each edition names the rule of both readings below (a new edition must too)."""
    assert set(DEFENDER_RULE) == set(EDITIONS) == set(NO_MOVE_RULE)


@pytest.mark.parametrize("rules", list(EDITIONS.values()), ids=list(EDITIONS))
def test_winning_defender_stays_on_its_square(rules: Rules) -> None:
    """A defender that wins stays where it stood and the attacker's square is left empty,
    in every edition (the tournament reading; see docs/editions.md for the 1961/2009/
    classic wording, which can be read to move the winner into the loser's square)."""
    state = from_position(rules, {"e4": "T", "e5": "c", "a1": "F", "j10": "f", "j1": "L"})
    defender = state.piece_at("e5")
    assert defender is not None
    after = apply(state, "e4-e5")
    assert after.piece_at("e5") == defender
    assert after.piece_at("e4") is None
    assert after.square_of(defender) is not None
    assert str(after.square_of(defender)) == "e5"


@pytest.mark.parametrize("rules", list(EDITIONS.values()), ids=list(EDITIONS))
def test_both_unable_to_move_the_struck_side_loses(rules: Rules) -> None:
    """When one strike removes the last movable piece of both sides, it is the struck
    side's turn and it cannot move: it loses, whoever caused it, in every edition (each
    book says a player who cannot move in its turn loses; none prints a draw)."""
    state = from_position(rules, {"e4": "T", "e5": "t", "a1": "F", "j10": "f"})
    after = apply(state, "e4-e5")
    assert after.outcome is not None
    assert after.outcome.termination is Termination.NO_LEGAL_MOVES
    assert after.outcome.winner is Player.RED


@pytest.mark.parametrize("rules", list(EDITIONS.values()), ids=list(EDITIONS))
def test_known_ranks_a_one_square_move_narrows_nothing(rules: Rules) -> None:
    """`GameState.known_ranks` records what strikes, long moves and rescues told; a
    one-square move leaves it whole (Bomb and Flag included: that the piece moved is
    `has_moved`, and combining the two is inference left to the caller)."""
    state = from_position(rules, {"e4": "K", "j7": "l", "a1": "F", "j10": "f"})
    after = apply(state, "e4-e5")
    piece = after.piece_at("e5")
    assert piece is not None
    assert after.has_moved(piece)
    assert {Rank.BOMB, Rank.FLAG} <= after.known_ranks(piece)
    assert after.known_ranks(piece) == state.known_ranks(piece)


def test_the_earlier_classic_span_reading_stays_available() -> None:
    """`RepetitionRule(scout_span=True)` keeps the earlier classic reading (every move inside
    the segment of the Scout's first trip counts): after a1-a5, a5-a3, a3-a1, a1-a4 a move
    inside a1..a5 is refused and one leaving it is not; the border reading allows both."""
    span = attrs.evolve(CLASSIC, repetition=RepetitionRule(max_shuttle_moves=4, scout_span=True))
    for rules, inside_legal in ((span, False), (CLASSIC, True)):
        state = from_position(rules, {"a1": "X", "j10": "k"})
        for move in ("a1-a5", "j10-i10", "a5-a3", "i10-h10", "a3-a1", "h10-g10", "a1-a4",
                     "g10-f10"):
            state = apply(state, move)
        assert is_legal(state, "a4-a2") is inside_legal
        assert is_legal(state, "a4-a6")


def test_the_borders_reading_keeps_only_the_borders_every_move_crossed() -> None:
    """`RepetitionRule(scout_borders=True)` keeps the *series* reading of the classic web
    rules' Important paragraph (`ScoutReading.BORDERS`): a Scout's series is made of moves
    each crossing a border every earlier move of the series crossed. After a2-a6 and
    a6-a4 only the borders between a4 and a6 were crossed by both, so with two moves
    allowed a4-a5 and a4-a6 are refused, while a4-a3 and a4-a2, which cross only borders
    the first move crossed, are not."""
    rules = attrs.evolve(CLASSIC, repetition=RepetitionRule(max_shuttle_moves=2,
                                                            scout_borders=True))
    state = from_position(rules, {"a2": "X", "a1": "F", "j10": "f", "i10": "n"})
    state = play(state, "a2-a6", "i10-i9", "a6-a4", "i9-i10")
    assert not is_legal(state, "a4-a5")
    assert not is_legal(state, "a4-a6")
    assert is_legal(state, "a4-a3")
    assert is_legal(state, "a4-a2")
    assert "across the borders between a4 and a6" in (explain_illegal(state, "a4-a5") or "")


# The narrow chase reading, kept as an option (`RepetitionRule(threat_chase=False)`, no
# edition's default; docs/editions.md, Jumbo 2014 Moving bullet 9, names it the earlier
# reading): a chase move is a quiet move ending next to the square the opponent's last quiet
# move ended on; the chase lasts while the chaser keeps making chase moves, whatever the
# chased side plays; the chaser may not make a chase move that recreates a position of it.
NARROW = attrs.evolve(JUMBO_2014, repetition=attrs.evolve(JUMBO_2014.repetition,
                                                          threat_chase=False))


def test_the_narrow_chase_reading_lasts_while_the_chaser_follows() -> None:
    """Under the narrow reading a move next to the opponent's last move begins Red's chase;
    Blue's replies, a flight or a move of another piece far away, never end it; Red's
    next move that ends next to no square Blue's last move ended on does."""
    state = from_position(NARROW, {"e6": "K", "e9": "l", "j1": "T", "a10": "t", "a1": "F",
                                   "j10": "f"}, to_move=Player.BLUE)
    state = play(state, "e9-e8", "e6-e7")  # next to e8: Red's chase begins
    assert state.chase[:1] == (Player.RED + 1,)
    assert len(state.chase) == 4 + 2
    state = apply(state, "e8-f8")  # Blue flees: the chase goes on
    assert state.chase[:1] == (Player.RED + 1,)
    assert len(state.chase) == 4 + 3
    state = apply(state, "e7-f7")  # next to f8: a chase move
    state = apply(state, "a10-a9")  # Blue moves another piece far away: still Red's chase
    assert state.chase[:1] == (Player.RED + 1,)
    assert len(state.chase) == 4 + 5
    state = apply(state, "j1-j2")  # not next to a9: the chase is over
    assert state.chase == ()


def test_the_narrow_chase_reading_stops_a_chase_round_a_lake() -> None:
    """Under the narrow reading Red's Captain follows Blue's Lieutenant round the lake
    c5-d6, each move ending next to the square the Lieutenant has just reached; after one
    lap the next one would recreate the position after Red's first chase move (ply 2) and
    is refused, while a move ending next to nothing Blue just moved stays legal."""
    ring = ["b4", "b5", "b6", "b7", "c7", "d7", "e7", "e6", "e5", "e4", "d4", "c4"] * 2
    state = from_position(NARROW, {ring[0]: "K", ring[1]: "l", "a1": "F", "j10": "f",
                                   "j1": "T"}, to_move=Player.BLUE)
    for i in range(12):
        state = play(state, f"{ring[i + 1]}-{ring[i + 2]}", f"{ring[i]}-{ring[i + 1]}")
    state = apply(state, "b5-b6")
    assert state.chase[:1] == (Player.RED + 1,)
    assert not is_legal(state, "b4-b5")
    assert explain_illegal(state, "b4-b5") == (
        "b4-b5: the red Captain (6) on b4 is chasing the piece on b6 and this move would "
        "recreate the position of ply 2, during the chase (Jumbo 2014, Moving bullet 9, "
        "chase rule)")
    assert is_legal(state, "b4-a4")
    assert is_legal(state, "j1-j2")
