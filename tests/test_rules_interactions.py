"""The engine against the five rule books where two rules meet: positions the other
rule tests do not reach, chosen adversarially (the Jumbo 2014 chase
rule and Rescue decisions, back-and-forth runs across strikes, Ultimate Lightning
Captains beside the lakes, the end of the game when both sides are stuck).

Each test cites the book, section and rule (paraphrased); the readings are the
ones documented in docs/editions.md and docs/variants.md.
"""

from __future__ import annotations

import pytest

from positions import play, targets
from stratego import (
    Player,
    PositionError,
    Rank,
    Termination,
    apply,
    explain_illegal,
    from_position,
    is_legal,
    legal_moves,
)
from stratego.board import Square
from stratego.editions import HASBRO_2009, JUMBO_2014, MILTON_BRADLEY_1961
from stratego.variants import RESCUE, ULTIMATE_LIGHTNING

JUMBO_RESCUE = JUMBO_2014.with_variants(RESCUE)


def test_jumbo2014_moving_9_chaser_declining_rescues_must_still_stop() -> None:
    """Jumbo 2014, Moving, bullet 9 (a pursuer must stop before a position repeats),
    with Rescuing Pieces: Red's Captain chases Blue's round the block e9-f9-f10-e10 and
    earns a Rescue decision whenever it steps onto Blue's back row. Declining is part of
    the turn, not a move, so the chase goes on and after one lap e9-f9 (which would
    recreate the position after Red's first chase move) is refused exactly as without
    Rescue. (Before the fix every decision wiped the chase record, so such a chaser
    could repeat positions for ever.)"""
    for rules in (JUMBO_2014, JUMBO_RESCUE):
        state = from_position(
            rules, {"f9": "k", "e9": "K", "a1": "F", "a10": "f"},
            to_move=Player.BLUE, captured=[(Player.RED, Rank.GENERAL)],
        )
        for move in ["f9-f10", "e9-f9", "f10-e10", "f9-f10", "e10-e9", "f10-e10", "e9-f9",
                     "e10-e9", "f9-f10"]:
            state = apply(state, move)
            if state.pending_rescue is not None:  # Red's Captain on f10 or e10
                state = apply(state, "--")
        assert state.chase[0] == Player.RED + 1, rules.name
        assert not is_legal(state, "e9-f9"), rules.name
        assert "chase rule" in (explain_illegal(state, "e9-f9") or "")


def test_jumbo2014_moving_9_chased_piece_on_the_back_row_is_still_protected() -> None:
    """Jumbo 2014, Moving, bullet 9, with Rescuing Pieces: Red's chased Captain flees
    round the block e9-e10-f10-f9, declining the Rescue decision each time it steps along
    Blue's back row. The square its move ended on stays the last quiet move (`last_to`),
    so Blue's moves next to it are chase moves, and after one lap Blue may not recreate
    the position after its first chase move."""
    state = from_position(
        JUMBO_RESCUE, {"e10": "K", "e9": "k", "a1": "F", "a10": "f"},
        captured=[(Player.RED, Rank.GENERAL)],
    )
    state = play(state, "e10-f10", "--")
    assert state.last_to == Square.parse("f10").index
    state = play(state, "e9-e10", "f10-f9", "e10-f10", "f9-e9", "f10-f9", "e9-e10", "--",
                 "f9-e9", "e10-f10", "--")
    assert state.chase[0] == Player.BLUE + 1  # Blue is the chaser
    assert not is_legal(state, "e9-e10")
    assert "chase rule" in (explain_illegal(state, "e9-e10") or "")


def test_jumbo2014_moving_9_a_rescue_ends_the_chase_but_keeps_the_last_move() -> None:
    """Jumbo 2014, Moving, bullet 9, with Rescuing Pieces: a rescued piece changes the
    army on the board, so no position of the chase can come back (until a strike, which
    ends a chase anyway): the chase record ends, and the arrival square stays the last
    quiet move for the opponent's next move."""
    state = from_position(
        JUMBO_RESCUE, {"e9": "k", "e10": "K", "a1": "F", "a10": "f"},
        to_move=Player.BLUE, captured=[(Player.RED, Rank.GENERAL)],
    )
    state = play(state, "e9-f9", "e10-f10", "G@b2")
    assert state.chase == ()
    assert state.last_to == Square.parse("f10").index
    assert state.piece_at("b2") is not None


def test_jumbo2014_moving_9_chase_around_a_lake_stops_after_one_lap() -> None:
    """Jumbo 2014, Moving, bullet 9: a pursuer following a piece round the lake at
    c5-d6 makes a chase move every turn (it always ends next to where the fleeing
    piece just went). After one full lap of the twelve squares around the lake, the
    next move would recreate the position after its first chase move, and it is
    refused; a move that leaves the chase stays legal."""
    ring = ["b4", "b5", "b6", "b7", "c7", "d7", "e7", "e6", "e5", "e4", "d4", "c4"] * 2
    state = from_position(
        JUMBO_2014, {ring[0]: "K", ring[1]: "l", "a1": "F", "j10": "f", "j1": "T"},
        to_move=Player.BLUE,
    )
    for i in range(12):
        state = play(state, f"{ring[i + 1]}-{ring[i + 2]}", f"{ring[i]}-{ring[i + 1]}")
    state = apply(state, "b5-b6")  # Blue goes on round the lake
    assert state.chase[0] == Player.RED + 1
    assert not is_legal(state, "b4-b5")  # Red on b5, Blue on b6: the first chase position
    assert "chase rule" in (explain_illegal(state, "b4-b5") or "")
    assert is_legal(state, "j1-j2")


def test_jumbo2014_moving_8_run_goes_on_across_the_opponents_strike() -> None:
    """Jumbo 2014, Moving, bullet 8: "consecutive turns" are the player's own turns, so
    a strike by the opponent in between neither breaks nor resets the run: after three
    trips a1-a2-a1-a2 the fourth is refused."""
    state = from_position(
        JUMBO_2014,
        {"a1": "K", "e5": "T", "e6": "t", "j10": "f", "a10": "F", "j9": "l", "j1": "L"},
    )
    state = play(state, "a1-a2", "e6-e5", "a2-a1", "j9-j8", "a1-a2", "j8-j9")
    assert targets(state, "a2") == {"a3", "b2"}
    assert "back-and-forth" in (explain_illegal(state, "a2-a1") or "")


def test_1961_end_note_both_sides_stuck_the_player_to_move_loses() -> None:
    """Milton Bradley 1961, To end the game, note: a player who cannot move or strike in
    his turn gives up. When one strike removes the last movable piece of both sides, it
    is the struck side's turn and that side has lost (the literal reading; the books
    print no draw for this case)."""
    state = from_position(MILTON_BRADLEY_1961, {"e4": "T", "e5": "t", "a1": "F", "j10": "f"})
    state = apply(state, "e4-e5")
    assert state.outcome is not None
    assert state.outcome.termination is Termination.NO_LEGAL_MOVES
    assert state.outcome.winner is Player.RED


def test_jumbo2014_ultimate_lightning_captain_beside_a_lake() -> None:
    """Jumbo 2014, Ultimate Lightning, Moving and attacking with the Captain: a Captain
    on b6, beside the lake c5-d6, with an enemy on b7. Its first step may go to b5 or
    a6 (empty) or strike b7 (which ends the move); c6 is lake. Two-square moves need an
    empty first square: a5, a7 (via a6), b4 (via b5); c7 would need b7 or the lake."""
    state = from_position(
        JUMBO_2014.with_variants(ULTIMATE_LIGHTNING),
        {"b6": "K", "a1": "F", "j10": "f", "b7": "t"},
    )
    assert targets(state, "b6") == {"a5", "a6", "a7", "b4", "b5", "b7"}
    assert not any(str(m.to) == "c7" for m in legal_moves(state))


def test_a_captured_flag_is_refused_by_from_position() -> None:
    """Every book, "To end the game": striking the Flag ends the game, so no position of a
    game in progress has a Flag among the captured pieces (and Rescue can never bring one
    back)."""
    with pytest.raises(PositionError, match="red's Flag among the captured pieces"):
        from_position(HASBRO_2009.with_variants(RESCUE),
                      {"a9": "M", "j7": "t", "j10": "f", "a1": "B"},
                      captured=[(Player.RED, Rank.FLAG)])
