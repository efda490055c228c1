"""Readings settled edition by edition.

Each test states the reading in our words and cites, per edition, the rule it rests on;
docs/editions.md ("Readings shared by every edition") and docs/variants.md give the
argument.
"""

from __future__ import annotations

import attrs
import pytest

from stratego import (
    CLASSIC,
    Player,
    Rank,
    Rules,
    Termination,
    apply,
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
