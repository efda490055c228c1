"""ISF game rules (International Stratego Federation, the tournament rules): tests for the
two-squares rule (ISF 10) and the more-squares rule (ISF 11).

Test names read ``test_isf_<article>_<what>``; docstrings say the rule in our words. The
ISF rules build on the Jumbo rules (ISF 5), which `test_rules_jumbo_2014.py` covers; the ISF
edition shares their board, armies, movement and strikes, checked here only where the
repetition rules meet them. Our readings are in docs/editions.md ("ISF game rules").
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import pytest

from positions import play, targets
from stratego import (
    ISF,
    GameState,
    IllegalMoveError,
    Player,
    Rules,
    Square,
    apply,
    explain_illegal,
    from_position,
    is_legal,
    legal_moves,
)
from stratego.editions import ISF_FIVE_MOVES, JUMBO_2014, by_name
from stratego.repetition import CHASE_HASHES, Chase

RULES: Rules = ISF


def position(placement: Mapping[str, str], to_move: Player = Player.RED,
             rules: Rules = RULES) -> GameState:
    """A partial position; upper-case symbols are Red, lower-case Blue."""
    return from_position(rules, dict(placement), to_move=to_move)


# -- the edition -------------------------------------------------------------------------


def test_isf_edition_by_name_and_round_trip() -> None:
    """ISF 5: the ISF rules are the Jumbo rules plus the articles below; no ply limit by
    default; `by_name` finds the edition, its five-move option and its variants."""
    assert by_name("isf") is ISF
    assert ISF.ply_limit is None
    assert ISF.movement.scout_strikes_after_move
    assert by_name(ISF.name) == ISF
    assert by_name("isf-five-moves") == ISF_FIVE_MOVES
    assert by_name(ISF_FIVE_MOVES.name) == ISF_FIVE_MOVES
    barrage = by_name("isf+barrage")
    assert barrage.army.size == 8
    assert barrage.repetition == ISF.repetition


# -- ISF 10: the two-squares rule ---------------------------------------------------------


def test_isf_10_1_fourth_move_between_two_squares_is_illegal() -> None:
    """ISF 10.1: a piece may not move more than three times in a row between the same two
    squares, whatever the opponent does; the fourth move is refused and the explanation
    names the rule."""
    state = position({"a1": "K", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a1-a2", "j10-j9", "a2-a1", "j9-j8", "a1-a2", "j8-j7")
    assert not is_legal(state, "a2-a1")
    assert targets(state, "a2") == {"a3", "b2"}
    reason = explain_illegal(state, "a2-a1") or ""
    assert "ISF 10" in reason
    assert "between a1 and a2" in reason
    with pytest.raises(IllegalMoveError, match="ISF 10"):
        apply(state, "a2-a1")


def test_isf_10_1_whatever_the_opponent_does() -> None:
    """ISF 10.1: the count runs whatever the opponent plays, even when the opponent shuttles
    too (each player's own moves are counted)."""
    state = position({"a1": "K", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a1-a2", "j10-j9", "a2-a1", "j9-j10", "a1-a2", "j10-j9")
    assert not is_legal(state, "a2-a1")


def test_isf_10_1_another_piece_ends_the_series() -> None:
    """ISF 10.1 (reading): moving another piece of one's own ends the series, so three
    more trips are allowed afterwards."""
    state = position({"a1": "K", "c1": "L", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a1-a2", "j10-j9", "a2-a1", "j9-j8", "c1-c2", "j8-j7",
                 "a1-a2", "j7-j6", "a2-a1", "j6-j5")
    assert is_legal(state, "a1-a2")


def test_isf_10_1_a_strike_is_a_move_of_the_series() -> None:
    """ISF definitions ("a/to move": to move plus attacking, or to move to an empty square)
    with ISF 10.1: a strike counts in the series like any move. Red's Captain went a6-b6,
    b6-a6, a6-b6; Blue's Sergeant then steps onto a6, and the Captain may not strike it:
    that would be its fourth move in a row between a6 and b6. The explanation names the
    rule."""
    state = position({"a6": "K", "a8": "t", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a6-b6", "a8-a7", "b6-a6", "j10-j9", "a6-b6", "a7-a6")
    assert not is_legal(state, "b6-a6")
    assert targets(state, "b6") == {"b5", "b7"}  # c6 is a lake
    reason = explain_illegal(state, "b6-a6") or ""
    assert "ISF 10" in reason
    assert "between a6 and b6" in reason
    with pytest.raises(IllegalMoveError, match="ISF 10"):
        apply(state, "b6-a6")


def test_isf_10_1_a_striker_that_stays_continues_its_series() -> None:
    """ISF 10.1 with the ISF definitions: a striker left on the target square continues its
    series. Red's Captain went a6-b6, struck Blue's Sergeant that stepped onto a6 (and won),
    went a6-b6 again: b6-a6 would be its fourth move in a row between a6 and b6."""
    state = position({"a6": "K", "a7": "t", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a6-b6", "a7-a6", "b6-a6", "j10-j9", "a6-b6", "j9-j8")
    assert state.shuttles[Player.RED][:4] == (state.shuttles[Player.RED][0],
                                               Square.parse("a6").index,
                                               Square.parse("b6").index, 3)
    assert not is_legal(state, "b6-a6")
    assert "ISF 10" in (explain_illegal(state, "b6-a6") or "")


def test_isf_10_1_a_striker_removed_ends_its_series() -> None:
    """ISF 10.1 (reading): a striker that is removed ends its player's series."""
    state = position({"a6": "K", "a7": "m", "c1": "L", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a6-b6", "j10-j9", "b6-a6", "j9-j8", "a6-a7")  # the Marshal wins
    assert state.shuttles[Player.RED] == (0, 0, 0, 0)


def test_isf_10_2_scout_shuttling_over_several_squares() -> None:
    """ISF 10.2: for a Scout the rule concerns the borders between squares. After a2-a6,
    a6-a3, a3-a5, every one of the three moves crossed the borders a3|a4 and a4|a5, so a
    fourth move crossing either (a5-a4, a5-a3, a5-a1) is refused, while a5-a6 (crossing
    only a5|a6, which a3-a5 did not cross) is allowed."""
    state = position({"a2": "X", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a2-a6", "j10-j9", "a6-a3", "j9-j8", "a3-a5", "j8-j7")
    for refused in ("a5-a4", "a5-a3", "a5-a1"):
        assert not is_legal(state, refused), refused
        assert "ISF 10" in (explain_illegal(state, refused) or "")
    assert is_legal(state, "a5-a6")
    assert is_legal(state, "a5-b5")  # another line


def test_isf_10_2_scout_walking_one_way_is_free() -> None:
    """ISF 10.2: a Scout walking steadily one way crosses each border once: a1-a5, a5-a4,
    a4-a3, a3-a2 and then a2-a1 are all legal."""
    state = position({"a1": "X", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a1-a5", "j10-j9", "a5-a4", "j9-j8", "a4-a3", "j8-j7", "a3-a2",
                 "j7-j6")
    assert is_legal(state, "a2-a1")


def test_isf_10_2_one_square_steps_are_the_three_times_rule() -> None:
    """ISF 10.2: for a Scout stepping one square at a time the border reading is the
    three-times rule between two squares."""
    state = position({"a1": "X", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a1-a2", "j10-j9", "a2-a1", "j9-j8", "a1-a2", "j8-j7")
    assert not is_legal(state, "a2-a1")
    assert is_legal(state, "a2-a3")


def test_isf_10_five_move_option() -> None:
    """ISF 10 (older texts, Gravon): the five-move option allows five moves in a row
    between two squares and refuses the sixth."""
    state = position({"a1": "K", "j10": "l", "e1": "F", "e10": "f"}, rules=ISF_FIVE_MOVES)
    moves = []
    for i in range(5):
        moves += ["a1-a2" if i % 2 == 0 else "a2-a1", f"j{10 - i}-j{9 - i}"]
    state = play(state, *moves)
    assert not is_legal(state, "a2-a1")
    assert ("allow no more than 5 (ISF 10 in its older five-move form, two-squares rule)"
            in (explain_illegal(state, "a2-a1") or ""))


# -- ISF 11: the more-squares rule (continuous chase) --------------------------------------


def test_isf_11_chase_around_a_lake_stops_after_one_lap() -> None:
    """ISF 11.1: Red's Captain follows Blue's Lieutenant round the lake c5-d6, every move
    threatening the piece that just evaded. After one lap, the next chasing move would
    recreate the position after Red's first threat: refused, naming ISF 11 and the ply of
    that position. A move that leaves the chase stays legal."""
    ring = ["b4", "b5", "b6", "b7", "c7", "d7", "e7", "e6", "e5", "e4", "d4", "c4"] * 2
    state = position({ring[0]: "K", ring[1]: "l", "a1": "F", "j10": "f", "j1": "T"},
                     to_move=Player.BLUE)
    for i in range(12):
        state = play(state, f"{ring[i + 1]}-{ring[i + 2]}", f"{ring[i]}-{ring[i + 1]}")
    state = apply(state, "b5-b6")
    assert state.chase[0] == Player.RED + 1
    assert not is_legal(state, "b4-b5")
    reason = explain_illegal(state, "b4-b5") or ""
    assert "ISF 11" in reason
    assert "ply 2 (ISF 11, more-squares rule)" in reason
    assert is_legal(state, "j1-j2")
    assert is_legal(state, "b4-a4")  # not a chasing move


def test_isf_11_chase_with_two_chasing_pieces() -> None:
    """ISF 11.1 and 11.3: one player may chase with several pieces. Red's Captain and Major
    take turns threatening Blue's Captain, which evades every time; when the Captain's
    e8-e7 would bring every piece back to where it stood after Red's first threat (ply 2),
    it is refused. (The Major's h8-h7 straight back is the 11.2 exception.)"""
    state = position({"e7": "k", "e6": "K", "h7": "J", "a1": "F", "a10": "f"},
                     to_move=Player.BLUE)
    state = play(state, "e7-f7", "e6-e7", "f7-f8", "e7-e8", "f8-g8", "h7-h8", "g8-g7",
                 "h8-h7", "g7-f7")
    assert state.chase[0] == Player.RED + 1
    assert len(state.chase) == CHASE_HASHES + 9  # the positions of plies 1-9
    assert not is_legal(state, "e8-e7")
    reason = explain_illegal(state, "e8-e7") or ""
    assert "ISF 11" in reason
    assert "ply 2 (ISF 11, more-squares rule)" in reason
    assert is_legal(state, "e8-e9")  # not a threat: allowed, and it ends the chase
    assert apply(state, "e8-e9").chase == ()


# Two chasing pieces each shuttle next to the piece they chase: Red's Captain on e6/f6
# threatens Blue's Lieutenant on e7/f7; Red's Major on i2/j2 threatens Blue's Sergeant on
# i3/j3; a third pair (Red's Colonel on a2/b2 and Blue's Miner on a3/b3) joins in one test.
_PAIRS = {
    "e6": (("e5", "K"), ("e7", "l"), ("e6", "f6"), ("e7", "f7")),
    "i2": (("i1", "J"), ("i3", "t"), ("i2", "j2"), ("i3", "j3")),
    "b2": (("b1", "C"), ("b3", "n"), ("b2", "a2"), ("b3", "a3")),
}


def _pair_moves(key: str, rounds: int) -> list[tuple[str, str]]:
    """The chaser's and the chased piece's moves of one pair, round by round: the chaser
    steps next to the piece, which steps away along the other square of its shuttle."""
    (start, _), _, (c1, c2), (p1, p2) = _PAIRS[key]
    out = [(f"{start}-{c1}", f"{p1}-{p2}")]
    at, piece = c1, p2
    for _ in range(rounds - 1):
        to = c2 if at == c1 else c1
        goes = p2 if piece == p1 else p1
        out.append((f"{at}-{to}", f"{piece}-{goes}"))
        at, piece = to, goes
    return out


def _pairs_position(*keys: str) -> GameState:
    placement = {"e1": "F", "e10": "f"}
    for key in keys:
        (start, chaser), (square, chased), _, _ = _PAIRS[key]
        placement[start] = chaser
        placement[square] = chased
    return position(placement)


def test_isf_11_two_piece_alternating_chase_must_stop() -> None:
    """ISF 11.1 and 11.3 (a continuous chase threatens "one or more pieces"; a chasing move
    threatens a piece that was evading during the chase): Red's Captain and Major take
    turns, each threatening the Blue piece it follows, and each Blue piece evades. Switching
    between the two chased pieces does not start a new chase, so when the Major's j2-i2 at
    ply 11 would bring every piece back to where it stood after ply 3 (with Blue to move),
    it is refused, naming the ISF 11 rule and ply 3."""
    state = _pairs_position("e6", "i2")
    captain, major = _pair_moves("e6", 3), _pair_moves("i2", 3)
    moves = [m for k in range(3) for pair in (captain[k], major[k]) for m in pair]
    state = play(state, *moves[:10])
    assert state.ply == 10
    assert state.chase[0] == Player.RED + 1
    assert len(state.chase) == CHASE_HASHES + 11  # one chase since the position before ply 1
    assert moves[10] == "j2-i2"
    assert not is_legal(state, "j2-i2")
    reason = explain_illegal(state, "j2-i2") or ""
    assert "(ISF 11, more-squares rule)" in reason
    assert "position of ply 3 (ISF 11, more-squares rule)" in reason
    assert "i3" in reason  # the piece it would threaten again
    with pytest.raises(IllegalMoveError, match="ISF 11"):
        apply(state, "j2-i2")
    assert is_legal(state, "j2-j1")  # a move that threatens nothing: allowed, ends the chase
    assert apply(state, "j2-j1").chase == ()


def test_isf_11_three_piece_chase_must_stop() -> None:
    """ISF 11.1 and 11.3: the same with three chased pieces, each threatened in turn by its
    own chaser: the position after ply 5 (the third chaser's first threat) comes back at
    ply 17, and that move is refused."""
    state = _pairs_position("e6", "i2", "b2")
    pairs = [_pair_moves(key, 3) for key in ("e6", "i2", "b2")]
    moves = [m for k in range(3) for pair in pairs for m in pair[k]]
    state = play(state, *moves[:16])
    assert state.chase[0] == Player.RED + 1
    assert not is_legal(state, moves[16])
    reason = explain_illegal(state, moves[16]) or ""
    assert "ISF 11" in reason
    assert "position of ply 5 (ISF 11, more-squares rule)" in reason


def test_isf_11_threats_move_between_pieces_and_come_back() -> None:
    """ISF 11.3: the chaser may move its threats from one piece to another and back: Red's
    Captain threatens Blue's Lieutenant twice, then the Major threatens Blue's Sergeant, then
    the Captain comes back to the Lieutenant. The chase runs on through every switch (its
    record holds every position since it began), and the Major's j2-i2 at ply 13, which would
    recreate the position after ply 5 (Blue to move), is a chasing move and refused."""
    state = _pairs_position("e6", "i2")
    captain, major = _pair_moves("e6", 4), _pair_moves("i2", 3)
    moves = [*captain[0], *captain[1], *major[0], *captain[2], *major[1], *captain[3]]
    state = play(state, *moves)
    assert state.ply == 12
    assert state.chase[0] == Player.RED + 1
    assert len(state.chase) == CHASE_HASHES + 13  # never restarted
    assert major[2][0] == "j2-i2"
    reason = explain_illegal(state, "j2-i2") or ""
    assert "position of ply 5 (ISF 11, more-squares rule)" in reason
    assert "ISF 11" in reason


def test_isf_11_the_record_keeps_the_pieces_that_evaded() -> None:
    """ISF 11.3: the chase record starts with no piece that evaded (so no move is a chasing
    move yet) and keeps the square of each piece that evades, as it moves."""
    state = _pairs_position("e6")
    state = play(state, "e5-e6")  # threatens the Lieutenant: the chase begins
    assert state.chase[:2] == (Player.RED + 1, 0)
    state = apply(state, "e7-f7")  # it evades
    assert state.chase[1] == 1 << Square.parse("f7").index
    state = play(state, "e6-f6", "f7-e7")
    assert state.chase[1] == 1 << Square.parse("e7").index


def test_isf_11_a_strike_ends_a_chase_and_may_begin_one() -> None:
    """ISF definitions and ISF 11: a strike is a move; it ends the running chase (Blue's
    here), and a striker left next to an opponent's piece threatens it, beginning a new
    chase whose first position is the one right after the strike (ply 2). Red's Captain,
    having struck on e5, follows Blue's Lieutenant round the square e4-f4-f5-e5; its
    e4-e5 at ply 10 would recreate the position of ply 2 and is refused."""
    state = position({"e4": "K", "e6": "t", "f5": "l", "a1": "F", "j10": "f"},
                     to_move=Player.BLUE)
    state = apply(state, "e6-e5")  # Blue's Sergeant threatens Red's Captain
    assert state.chase[0] == Player.BLUE + 1
    state = apply(state, "e4-e5")  # the Captain strikes and wins
    assert state.chase == (Player.RED + 1, 0, 0, 0, state.zhash)
    assert state.last_to == Square.parse("e5").index
    state = play(state, "f5-f4", "e5-f5", "f4-e4", "f5-f4", "e4-e5", "f4-e4", "e5-f5")
    assert state.chase[0] == Player.RED + 1
    assert len(state.chase) == CHASE_HASHES + 8
    assert not is_legal(state, "e4-e5")
    reason = explain_illegal(state, "e4-e5") or ""
    assert "position of ply 2 (ISF 11, more-squares rule)" in reason
    assert "ISF 11" in reason
    assert is_legal(state, "e4-d4")  # threatens nothing: allowed


def test_isf_11_2_moving_back_is_left_to_the_two_squares_rule() -> None:
    """ISF 11.2: a chasing move straight back to the square the piece has just left is
    allowed as far as ISF 10 allows. Blue's Captain shuttles e8-f8 with Red's following on
    e7-f7: Red's third trip repeats a position of the chase and is legal; then Blue, who
    began, has made its three trips and must stop first."""
    state = position({"e8": "k", "e7": "K", "a1": "F", "a10": "f"}, to_move=Player.BLUE)
    state = play(state, "e8-f8", "e7-f7", "f8-e8", "f7-e7", "e8-f8")
    assert state.chase[0] == Player.RED + 1
    assert is_legal(state, "e7-f7")
    state = apply(state, "e7-f7")
    assert not is_legal(state, "f8-e8")
    assert "ISF 10" in (explain_illegal(state, "f8-e8") or "")


def test_isf_11_2_the_exception_is_for_the_same_piece_only() -> None:
    """ISF 11.2: only a move of the *same* piece straight back to the square it left in
    the chaser's previous turn is left to the two-squares rule. Red's Captains on e3 and
    g3 take turns chasing Blue's Lieutenant between f4, g4 and e4; Red's last move was the
    e3 Captain's f3-e3, so the g3 Captain's g3-f3 lands on the square another piece has
    just left: it is a chasing move that recreates the position of ply 1, and refused."""
    state = position({"e3": "K", "g3": "K", "f4": "l", "a1": "F", "j10": "f"})
    state = play(state, "g3-f3", "f4-g4", "f3-g3", "g4-f4", "e3-f3", "f4-e4", "f3-e3",
                 "e4-f4")
    assert state.chase[0] == Player.RED + 1
    assert not is_legal(state, "g3-f3")
    reason = explain_illegal(state, "g3-f3") or ""
    assert reason.endswith("recreate the position of ply 1 (ISF 11, more-squares rule)")
    with pytest.raises(IllegalMoveError, match="ISF 11"):
        apply(state, "g3-f3")
    assert is_legal(state, "e3-f3")  # the piece that left f3 may go straight back


def test_isf_11_3_a_reply_that_does_not_evade_ends_the_chase() -> None:
    """ISF 11.3 (reading): the chase is continuous only while the threatened piece evades;
    when the opponent moves another piece instead, the chase is over."""
    state = position({"e8": "k", "e6": "K", "a1": "F", "a10": "f", "j9": "l"},
                     to_move=Player.BLUE)
    state = play(state, "e8-f8", "e6-e7")  # no threat: e7 is not next to f8
    assert state.chase == ()
    state = play(state, "f8-f7")  # Blue steps next to Red's Captain: Blue threatens
    assert state.chase[0] == Player.BLUE + 1
    state = play(state, "e7-e8")  # Red evades
    assert state.chase[0] == Player.BLUE + 1
    state = play(state, "f7-f8")  # Blue threatens the piece that evaded
    assert len(state.chase) == CHASE_HASHES + 4
    state = apply(state, "e8-d8")  # Red evades again
    assert len(state.chase) == CHASE_HASHES + 5
    state = apply(state, "j9-j8")  # Blue stops threatening
    assert state.chase == ()


def test_isf_11_3_threat_means_next_to_an_opponents_piece() -> None:
    """ISF 11.3: to threaten is to move next to (before, behind or beside) an opponent's
    piece; a move that ends next to none starts no chase."""
    state = position({"e8": "k", "e5": "K", "a1": "F", "a10": "f"})
    assert apply(state, "e5-e6").chase == ()
    assert apply(state, "e5-f5").chase == ()
    state = position({"e8": "k", "e6": "K", "a1": "F", "a10": "f"})
    assert apply(state, "e6-e7").chase[0] == Player.RED + 1


def test_isf_11_3_a_piece_of_ones_own_is_never_threatened() -> None:
    """ISF 11.3: a threat is a move next to an *opponent's* piece; ending next to a piece of
    one's own threatens nothing and begins no chase. Red's Captain steps to e4, beside
    Red's Lieutenant on f4 and no Blue piece."""
    state = position({"e3": "K", "f4": "L", "a1": "F", "j10": "f", "h8": "l"})
    assert apply(state, "e3-e4").chase == ()
    assert apply(state, "f4-f5").chase == ()  # beside nothing at all: the control


@pytest.mark.parametrize("rules", [ISF, JUMBO_2014], ids=["isf", "jumbo-2014"])
def test_isf_11_a_strike_that_removes_the_striker_ends_the_chase(rules: Rules) -> None:
    """ISF definitions and ISF 11 (a strike is a move and ends the chase), and the Jumbo
    2014 chase rule (Moving, bullet 9) read the same way: Red's Captain threatens Blue's
    Lieutenant, which evades; then Red's Scout strikes Blue's Marshal and is removed. The
    chase is over: no record is left, and the strike began none (its striker is gone)."""
    state = position({"e2": "K", "f3": "l", "a5": "X", "a7": "m", "a1": "F", "j10": "f"},
                     rules=rules)
    state = play(state, "e2-e3", "f3-g3")
    assert state.chase[0] == Player.RED + 1
    state = apply(state, "a5-a7")  # the Scout strikes the Marshal and loses
    marshal = state.piece_at("a7")
    assert marshal is not None
    assert marshal.owner is Player.BLUE
    assert state.piece_at("a5") is None
    assert state.chase == ()


def test_isf_11_3_a_move_threatening_no_evaded_piece_is_no_chasing_move() -> None:
    """ISF 11.1 and 11.3: only a *chasing move* (one threatening a piece that evaded during
    the chase) may not recreate a position of the chase. Blue's Lieutenant and Sergeant
    chase Red's Captain and Major, which evade each threat; then the Sergeant's c8-b8 would
    bring back the position of ply 1, but b8 is next to no Red piece: it threatens nothing,
    so it is legal (and ends the chase). The chase component, asked directly, agrees."""
    state = position({"d7": "K", "f6": "J", "e8": "l", "b8": "t", "a1": "F", "j10": "f"},
                     to_move=Player.BLUE)
    ply_1 = apply(state, "e8-e7").zhash
    state = play(state, "e8-e7", "d7-c7", "e7-e6", "f6-f7", "b8-c8", "c7-d7", "e6-e7",
                 "f7-f6")
    assert state.chase[0] == Player.BLUE + 1
    chase = RULES.repetition.components()[1]
    assert chase is not None
    evaded = state.chase[1]
    b8, e6 = Square.parse("b8").index, Square.parse("e6").index
    c8 = Square.parse("c8").index
    assert Chase.quiet_hash(state.board, state.zhash, c8, b8) == ply_1
    assert ply_1 in state.chase[CHASE_HASHES:]
    assert not chase.is_chase_move(evaded, state.last_to, b8)
    assert chase.is_chase_move(evaded, state.last_to, e6)  # next to the Major on f6
    assert not chase.forbids(state.board, state.turn, state.chase, state.zhash,
                             state.last_to, state.shuttles[state.turn], c8, b8)
    assert is_legal(state, "c8-b8")
    assert explain_illegal(state, "c8-b8") is None
    assert apply(state, "c8-b8").chase == ()


def test_isf_11_ply_named_after_declined_rescues() -> None:
    """ISF 11.1 with the Rescue variant (Hasbro 2009, Rescue: a piece reaching the
    opponent's back row may bring back a captured piece). A Rescue decision belongs to the
    turn that earned it, so the ply the explanation names is the ply of the repeated
    position even when the chase went through declined decisions: Red's Captain chases
    Blue's Lieutenant round a ring on rows 9 and 10, declining the Rescue at each arrival on
    row 10; after one lap the next threat would recreate the position after Red's first
    threat, at ply 2 (Blue's a10-b10 is ply 1, Red's a9-a10 with its decision ply 2)."""
    from stratego import Rank
    from stratego.board import Square
    from stratego.variants import RESCUE

    rules = ISF.with_variants(RESCUE)
    ring = ["a9", "a10", "b10", "c10", "c9", "b9"] * 2
    state = from_position(rules, {"a9": "K", "a10": "l", "e1": "F", "j10": "f", "j1": "T"},
                          to_move=Player.BLUE, captured=[(Player.RED, Rank.SERGEANT)])
    declined = 0
    boards = {state.ply: state.board}
    for i in range(7):
        for move in (f"{ring[i + 1]}-{ring[i + 2]}", f"{ring[i]}-{ring[i + 1]}"):
            if i == 6 and move == "a9-a10":
                break
            state = apply(state, move)
            if state.pending:
                assert [str(m) for m in legal_moves(state)][-1] == "--"
                state = apply(state, "--")
                declined += 1
            boards[state.ply] = state.board
    assert declined == 3
    assert state.chase[0] == Player.RED + 1
    assert not is_legal(state, "a9-a10")
    reason = explain_illegal(state, "a9-a10") or ""
    assert "ISF 11" in reason
    named = int(reason.split("position of ply ")[1].split(" ")[0])
    board = boards[named]  # Red's Captain on a10, Blue's Lieutenant on b10, a9 empty
    assert board[Square.parse("a10").index] & 15 == Rank.CAPTAIN
    assert board[Square.parse("b10").index] & 15 == Rank.LIEUTENANT
    assert not board[Square.parse("a9").index]
    assert "ply 2 (ISF 11, more-squares rule)" in reason


def test_isf_11_strike_ends_the_chase() -> None:
    """ISF 11 (reading): a strike ends a continuous chase; the positions before it are no
    longer compared."""
    state = position({"e8": "k", "e6": "K", "d8": "t", "a1": "F", "a10": "f"})
    state = play(state, "e6-e7", "e8-f8", "e7-f7")
    assert state.chase[0] == Player.RED + 1
    state = apply(state, "d8-d7")  # not an evasion: the chase is over
    assert state.chase == ()
    state = play(state, "f7-f8")  # Red's Captain strikes Blue's Captain: both removed
    assert state.chase == ()


def test_isf_11_positions_compared_by_identity() -> None:
    """ISF 11 (reading): positions are compared by which piece stands where, so the
    chaser's legal moves never depend on the ranks of the opponent's hidden pieces:
    two states differing only in the rank of an unrevealed Blue piece that never moved
    have the same legal moves along a whole chase."""
    ring = ["b4", "b5", "b6", "b7", "c7", "d7", "e7", "e6", "e5", "e4", "d4", "c4"] * 2
    states = [position({ring[0]: "K", ring[1]: "l", "a1": "F", "j10": "f", "j1": "T",
                        "h8": other}, to_move=Player.BLUE) for other in ("l", "t")]
    for i in range(12):
        moves = (f"{ring[i + 1]}-{ring[i + 2]}", f"{ring[i]}-{ring[i + 1]}")
        states = [play(s, *moves) for s in states]
        assert legal_moves(states[0]) == legal_moves(states[1])


def test_isf_jumbo_readings_differ_only_in_repetition() -> None:
    """ISF 5: board, armies, movement and strikes are the Jumbo rules' (the explanations
    cite the movement rules as ISF 5 takes them from the Jumbo book)."""
    from stratego import JUMBO_2014

    movement = attrs.evolve(ISF.movement, cited=JUMBO_2014.movement.cited)
    assert movement == JUMBO_2014.movement
    assert ISF.movement.cited.lake == "ISF 5: Jumbo 2014, Moving bullet 6"
    same = ("army", "setup", "strike", "disclosure", "rescue", "labels")
    for field in same:
        assert getattr(ISF, field) == getattr(JUMBO_2014, field), field
    assert attrs.evolve(ISF, edition="x", title="x", repetition=JUMBO_2014.repetition,
                        movement=movement) == attrs.evolve(JUMBO_2014, edition="x", title="x")


def test_isf_11_an_evading_reply_that_threatens_begins_a_chase_of_its_own() -> None:
    """ISF 11: a reply that evades the running chase and threatens a piece at once begins a
    chase of its own, from the position before it: once the first chase has ended, its
    chaser may not recreate that chase's positions, its very first one included."""
    state = position({"c8": "M", "a8": "t", "b9": "n", "a1": "F", "j10": "f"},
                     to_move=Player.BLUE)
    # b9-c9 threatens the Marshal; c8-b8 evades it and threatens the piece on a8, which
    # runs round the Marshal until the Marshal could stand on b8 again beside it on a8
    state = play(state, "b9-c9", "c8-b8", "a8-a7", "b8-b7", "a7-a6", "b7-a7", "a6-b6",
                 "a7-b7", "b6-a6", "b7-b6", "a6-a7", "b6-b7", "a7-a8")
    assert not is_legal(state, "b7-b8")
    assert "recreate the position of ply 2" in (explain_illegal(state, "b7-b8") or "")


def test_isf_11_both_chases_go_on_and_travel_with_the_position() -> None:
    """ISF 11: while both players chase (each move evades the other's threat and threatens),
    each chaser is bound by its own chase; the record travels with a position string (a
    ``*`` before the move that began the second chase), a view (`counter_chase`, and its
    JSON) and a state sampled from that view."""
    from stratego import PlayerView, StrategoError, sample_state, view
    from stratego.notation import format_position, parse_position

    state = position({"a1": "F", "j10": "f", "e7": "K", "c8": "J", "f9": "l", "a9": "t"})
    state = play(state, "c8-d8", "f9-f10", "e7-e8", "a9-b9", "d8-d9", "f10-f9", "e8-f8")
    assert state.chase[:4] == (Player.RED + 1, 0, 0, 0)  # Red threatens the piece on f9
    state = play(state, "f9-e9")  # it evades, and threatens Red's piece on d9
    assert state.chase[0] == Player.RED + 1
    assert state.chase[2] == 2  # Blue's chase from the second position on
    state = play(state, "d9-c9")  # d9 evades, and threatens b9: both chases go on
    assert state.chase[2] == 2
    assert state.chase[3] == 1 << Square.parse("c9").index  # what evaded Blue's chase
    text = format_position(state)
    assert "chase=r:e8-f8,*f9-e9,d9-c9" in text
    assert parse_position(text).chase == state.chase
    for player in Player:
        seen = view(state, player)
        assert seen.chase == (Player.RED + 1, 4)
        assert seen.counter_chase == 3
        assert PlayerView.from_json(seen.to_json()) == seen
        assert sample_state(seen, 3).chase == state.chase
    with pytest.raises(StrategoError, match="a move of the chaser"):
        parse_position(text.replace("*f9-e9,d9-c9", "f9-e9,*d9-c9"))
    with pytest.raises(StrategoError, match="one move at most"):
        parse_position(text.replace("e8-f8,", "*e8-f8,"))
