"""Classic web rules ("Classic Stratego rules"): tests for each paragraph.

The text numbers nothing; test names read ``test_classic_<paragraph>_<what>``
with paragraphs ``objective``, ``setup`` (the army paragraph), ``movement``
("Rules for Movement"), ``important`` (the back-and-forth paragraph marked
"Important"), ``strike`` ("Rules for Strike or Attack", two paragraphs) and
``end`` ("To end the game").

The text prints no rank numbers; `stratego.CLASSIC` uses the modern numbering
(Marshal 10 ... Spy 1), see docs/editions.md.

Rules without mechanical content, which therefore have no test: the Scout's
"valuable for probing" remark, and the strike paragraph's description of
tapping a piece (its mechanical part, both ranks becoming known, is tested).

The rules every edition states alike (Red starts, turns alternate, one square orthogonally,
the lakes, immobile Flag and Bombs, the higher rank wins a strike, equal ranks both go, the
Flag ends the game, no legal move loses) are tested once for every edition, each with this
book's citation, in ``tests/test_rules_common.py``; this file keeps the rest.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import positions
from positions import play, targets
from stratego import (
    CLASSIC,
    JUMBO_2014,
    GameState,
    IllegalMoveError,
    Player,
    Rank,
    Rules,
    Side,
    Termination,
    apply,
    explain_illegal,
    from_position,
    is_legal,
    legal_moves,
    resolve_strike,
)
from stratego.board import home_rows
from stratego.variants import RESCUE

RULES: Rules = CLASSIC


def position(placement: Mapping[str, str], to_move: Player = Player.RED,
             rules: Rules = RULES) -> GameState:
    """A partial classic position (`positions.position`)."""
    return positions.position(rules, placement, to_move)


def game() -> GameState:
    return positions.game(RULES, 9, 10)


# -- Objective and setup ---------------------------------------------------------------


def test_classic_setup_army() -> None:
    """Setup paragraph: 1 Marshal, 1 General, 2 Colonels, 3 Majors, 4 Captains,
    4 Lieutenants, 4 Sergeants, 5 Miners, 8 Scouts, 1 Spy (movable), 6 Bombs and 1 Flag
    (not moveable)."""
    counts = [RULES.army.count(r) for r in (
        Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.MAJOR, Rank.CAPTAIN, Rank.LIEUTENANT,
        Rank.SERGEANT, Rank.MINER, Rank.SCOUT, Rank.SPY, Rank.BOMB, Rank.FLAG)]
    assert counts == [1, 1, 2, 3, 4, 4, 4, 5, 8, 1, 6, 1]
    assert RULES.movable_ranks() == frozenset(Rank) - {Rank.BOMB, Rank.FLAG}


def test_classic_setup_one_piece_in_each_square() -> None:
    """Setup paragraph: one piece in each square of the player's half; the reading is the
    four home rows of the printed books (40 pieces fill 40 squares)."""
    state = game()
    for player in Player:
        assert {sq for sq, _ in state.pieces(player)} == set(home_rows(player, 4))


def test_classic_labels_are_modern_numbering() -> None:
    """The text prints no numbers; the library labels the classic rules like Jumbo 2014."""
    assert RULES.labels == JUMBO_2014.labels
    assert RULES.labels.label(Rank.MARSHAL) == "10"
    assert RULES.labels.label(Rank.SPY) == "1"


# -- Rules for Movement ----------------------------------------------------------------


def test_classic_movement_two_pieces_and_jumping() -> None:
    """Movement: two pieces may not share a square; no moving through or jumping over."""
    state = position({"a1": "X", "a2": "K", "b1": "K", "j10": "k"})
    assert targets(state, "a1") == set()
    with pytest.raises(IllegalMoveError, match="occupied by red's own Captain"):
        apply(state, "a1-a2")
    with pytest.raises(IllegalMoveError, match="blocked at a2"):
        apply(state, "a1-a3")


def test_classic_movement_one_piece_per_turn() -> None:
    """Movement: only one piece is moved in each turn."""
    state = game()
    move = next(m for m in reversed(legal_moves(state)) if state.piece_at(m.to) is None)  # type: ignore[arg-type]
    after = apply(state, move)
    before = {p.id: sq for sq, p in state.pieces()}
    assert [p.id for sq, p in after.pieces() if before[p.id] != sq] == [
        state.piece_at(move.frm).id  # type: ignore[arg-type, union-attr]
    ]


def test_classic_movement_scout_straight_lines() -> None:
    """Movement: the Scout moves any number of open squares in a straight line."""
    state = position({"f4": "X", "j10": "k"})
    assert targets(state, "f4") == {"f5", "f6", "f7", "f8", "f9", "f10", "f3", "f2", "f1",
                                    "e4", "d4", "c4", "b4", "a4", "g4", "h4", "i4", "j4"}


def test_classic_movement_scout_may_move_and_strike() -> None:
    """Movement: the Scout may move and strike in the same turn."""
    state = position({"f4": "X", "f9": "s", "j10": "k"})
    assert "f9" in targets(state, "f4")
    assert "f10" not in targets(state, "f4")
    after = apply(state, "f4-f9")
    assert after.piece_at("f9").rank is Rank.SCOUT  # type: ignore[union-attr]
    assert after.known_ranks(after.piece_at("f9")) == {Rank.SCOUT}  # type: ignore[arg-type]


def test_classic_movement_no_legal_move_loses() -> None:
    """Movement: if there is no legal move with one of his pieces, the game is lost."""
    state = position({"a1": "K", "b1": "B", "b2": "B", "a3": "B", "j10": "k", "j1": "F"})
    state = play(state, "a1-a2", "j10-i10", "a2-a1", "i10-h10", "a1-a2", "h10-g10",
                 "a2-a1", "g10-f10")
    assert state.outcome.termination is Termination.NO_LEGAL_MOVES  # type: ignore[union-attr]
    assert state.outcome.winner is Player.BLUE  # type: ignore[union-attr]


# -- Important: back and forth ----------------------------------------------------------


def test_classic_important_fifth_shuttle_move_illegal() -> None:
    """Important: not back and forth between the same 2 squares in 5 consecutive turns:
    four trips are allowed and the 5th is illegal (reading: docs/editions.md)."""
    state = position({"a1": "K", "j10": "k"})
    blue = iter(["j10-i10", "i10-h10", "h10-g10", "g10-f10"])
    for trip in ["a1-a2", "a2-a1", "a1-a2", "a2-a1"]:
        assert is_legal(state, trip)
        state = play(state, trip, next(blue))
    assert not is_legal(state, "a1-a2")
    with pytest.raises(IllegalMoveError, match=r"back and forth 4 turns.*allow no more than 4"):
        apply(state, "a1-a2")


def test_classic_important_a_scout_s_shorter_step_over_the_same_ground_is_explained() -> None:
    """Important (reading: a Scout's series is judged by the borders it crosses): after
    four trips a2-a6 and back, a2-a3 crosses a border every trip crossed, and the refusal
    says so rather than calling a2-a3 a trip between a2 and a6."""
    state = position({"a2": "X", "a1": "F", "j10": "f", "i10": "n"})
    state = play(state, "a2-a6", "i10-i9", "a6-a2", "i9-i10", "a2-a6", "i10-i9", "a6-a2",
                 "i9-i10")
    assert explain_illegal(state, "a2-a3") == (
        "a2-a3: each of the last 4 moves of the red Scout (2) on a2 crossed the borders "
        "between a2 and a6, and this move would cross one of them again; these rules allow "
        "no more than 4 in a row (classic web rules, Important paragraph, back-and-forth "
        "rule)")
    assert "back and forth 4 turns in a row between a2 and a6" in (
        explain_illegal(state, "a2-a6") or "")


def test_classic_important_strike_is_exempt() -> None:
    """Important (reading): a strike between the same two squares is not a trip."""
    state = play(position({"a1": "K", "c1": "l", "j10": "k"}),
                 "a1-b1", "j10-j9", "b1-a1", "j9-j10", "a1-b1", "j10-j9", "b1-a1")
    assert not is_legal(apply(state, "j9-j10"), "a1-b1")  # the 5th quiet trip
    state = apply(state, "c1-b1")
    assert is_legal(state, "a1-b1")  # the 5th trip, as a strike


def _scout_borders_state(rules: Rules) -> GameState:
    """A Red Scout goes a2-a6, a6-a3, a3-a5, a5-a4 while Blue moves elsewhere: every one
    of the four moves crosses the border a4|a5."""
    state = position({"a2": "X", "j10": "k", "j1": "F"}, rules=rules)
    return play(state, "a2-a6", "j10-i10", "a6-a3", "i10-h10", "a3-a5", "h10-g10", "a5-a4",
                "g10-f10")


def test_classic_important_scout_borders() -> None:
    """Important, Scouts ("two or more same squares in five consecutive turns", reading):
    a Scout's moves count by the borders between squares they cross; after four moves that
    all crossed a4|a5, a fifth crossing it is illegal, while moves crossing only other
    borders stay legal."""
    state = _scout_borders_state(CLASSIC)
    assert targets(state, "a4") == {"a3", "a2", "a1", "b4", "c4", "d4", "e4", "f4", "g4",
                                    "h4", "i4", "j4"}
    with pytest.raises(IllegalMoveError,
                       match="border between a4 and a5, and this move would cross it again"):
        apply(state, "a4-a6")
    assert "back-and-forth" in (explain_illegal(state, "a4-a5") or "")


def test_classic_important_scout_walking_one_way_is_free() -> None:
    """Important, Scouts (reading): a Scout walking steadily one way, a1-a5, a5-a4, a4-a3,
    a3-a2, crosses each border once, so a2-a1 is legal (it is not "back and forth")."""
    state = position({"a1": "X", "j10": "k", "j1": "F"})
    state = play(state, "a1-a5", "j10-i10", "a5-a4", "i10-h10", "a4-a3", "h10-g10",
                 "a3-a2", "g10-f10")
    assert is_legal(state, "a2-a1")


def test_classic_important_scout_borders_is_not_jumbo() -> None:
    """Important, Scouts: Jumbo 2014 counts only trips between the same two squares; there
    each of these Scout moves joined a new pair, so the count never grew."""
    state = _scout_borders_state(JUMBO_2014)
    assert is_legal(state, "a4-a5")


def test_classic_important_scout_new_border_starts_again() -> None:
    """Important, Scouts: a move crossing none of the borders common to the series starts a
    new count."""
    state = position({"a1": "X", "j10": "k", "j1": "F"})
    state = play(state, "a1-a5", "j10-i10", "a5-a3", "i10-h10", "a3-a1", "h10-g10")
    assert state.shuttles[0][3] == 1
    assert is_legal(state, "a1-a5")


# -- Rules for Strike or Attack ------------------------------------------------------------


def test_classic_strike_adjoining_not_diagonal_and_optional() -> None:
    """Strike, paragraph 1: adjoining squares only, no diagonal strikes (cited as the rule
    of striking, not Rules for Movement), striking is not required, and either player may
    strike."""
    state = position({"e3": "K", "e4": "l", "f4": "l", "j10": "k"})
    assert targets(state, "e3") == {"e4", "e2", "d3", "f3"}
    with pytest.raises(IllegalMoveError, match=r"cannot strike diagonally \(classic web "
                                               r"rules, Rules for Strike, paragraph 1\)$"):
        apply(state, "e3-f4")
    after = apply(state, "e3-d3")
    assert "d3" not in targets(after, "e4")  # diagonal again
    after = play(state, "e3-f3")
    assert "f3" in targets(after, "f4")  # Blue, who did not move into place, may strike


def test_classic_strike_ends_the_turn() -> None:
    """Strike, paragraph 1: a player moves or strikes, not both; the struck player moves
    next."""
    after = apply(position({"e3": "K", "e4": "l", "j10": "k"}), "e3-e4")
    assert after.to_move is Player.BLUE


def test_classic_strike_spy_and_marshal() -> None:
    """Strike, paragraph 2: the Spy removes the Marshal only when it strikes first; all
    others remove the Spy."""
    assert resolve_strike(Rank.SPY, Rank.MARSHAL, RULES).winner is Side.ATTACKER
    assert resolve_strike(Rank.MARSHAL, Rank.SPY, RULES).winner is Side.ATTACKER
    for rank in Rank:
        if rank not in (Rank.BOMB, Rank.FLAG, Rank.SPY, Rank.MARSHAL):
            assert resolve_strike(Rank.SPY, rank, RULES).winner is Side.DEFENDER
            assert resolve_strike(rank, Rank.SPY, RULES).winner is Side.ATTACKER


def test_classic_strike_bomb_and_miner() -> None:
    """Strike, paragraph 2: a Bomb removes any striker but a Miner and stays; a Miner
    removes it and moves in; a Bomb cannot strike; the Flag never moves."""
    after = apply(position({"e3": "G", "e4": "b", "j10": "k"}), "e3-e4")
    assert after.piece_at("e4").rank is Rank.BOMB  # type: ignore[union-attr]
    assert after.piece_at("e3") is None
    after = apply(position({"e3": "N", "e4": "b", "j10": "k"}), "e3-e4")
    assert after.piece_at("e4").rank is Rank.MINER  # type: ignore[union-attr]
    state = position({"e3": "B", "e2": "F", "e4": "x", "f2": "x", "a1": "K", "j10": "k"})
    assert targets(state, "e3") == set()
    assert targets(state, "e2") == set()


# -- To end the game ---------------------------------------------------------------------


def test_classic_rescue_zone_is_home_rows() -> None:
    """Rescue added to the classic rules: rescued pieces go on the first four rows
    (docs/editions.md)."""
    rules = RULES.with_variants(RESCUE)
    state = from_position(rules, {"a2": "k", "j10": "F", "j1": "f"}, to_move=Player.BLUE,
                          captured=[(Player.BLUE, Rank.SCOUT)])
    state = apply(state, "a2-a1")
    drops = {str(m.to) for m in legal_moves(state) if m.is_rescue}
    assert "a7" in drops
    assert "a6" not in drops
    assert len(drops) == 39
