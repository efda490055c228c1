"""Milton Bradley 1961 and Hasbro 2009: one test or more per numbered rule.

The 2009 Onyx Edition book repeats the 1961 rules with the same numbering, so every test here
runs against both editions (`MILTON_BRADLEY_1961` and `HASBRO_2009`, the test ids say which).
Test names read ``test_1961_2009_<section>_<rule number>_<what>``; sections are
``start`` ("To start the game" 1-6), ``movement`` ("Rules for movement" 1-11),
``strike`` ("Rules for strike or attack" 1-12) and ``end`` ("To end the game").

Rules without mechanical content, which therefore have no test:

* To start the game 1: where the board lies on the table.
* To start the game 5: pieces stand with their emblems towards their owner
  (what the opponent may see is tested instead: at the start no piece's rank
  is known to the opponent, see ``test_1961_2009_start_5_opponent_knows_no_rank``).
* To start the game 6: advice to read the other rules first.
* Movement 9: a move is final once the hand is removed; a move passed to
  `stratego.apply` is atomic, so there is nothing to take back.
* "Some suggestions for strategy": advice only.

The rules every edition states alike (Red starts, turns alternate, one square orthogonally,
the lakes, immobile Flag and Bombs, the higher rank wins a strike, equal ranks both go, the
Flag ends the game, no legal move loses) are tested once for every edition, each with this
book's citation, in ``tests/test_rules_common.py``; this file keeps the rest.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Mapping

import pytest

import positions
from positions import play, targets
from stratego import (
    HASBRO_2009,
    MILTON_BRADLEY_1961,
    GameState,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    Player,
    Rank,
    Rules,
    Setup,
    SetupError,
    Side,
    Square,
    Termination,
    apply,
    explain_illegal,
    from_position,
    is_legal,
    legal_moves,
    new_game,
    random_setup,
    resolve_strike,
    setup_problems,
)
from stratego.board import home_rows
from stratego.variants import RESCUE

RULES: Rules = MILTON_BRADLEY_1961
"""The book under test; the `book` fixture sets it to each edition in turn."""


@pytest.fixture(autouse=True, params=[MILTON_BRADLEY_1961, HASBRO_2009],
                ids=lambda rules: rules.edition)
def book(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Rules:
    """Run every test of this module under both books."""
    rules: Rules = request.param
    monkeypatch.setattr(sys.modules[__name__], "RULES", rules)
    return rules


def position(placement: Mapping[str, str], to_move: Player = Player.RED,
             rules: Rules | None = None) -> GameState:
    """A partial position of the book under test (`positions.position`)."""
    return positions.position(rules or RULES, placement, to_move)


def game() -> GameState:
    return positions.game(RULES, 1, 2)


# -- To start the game ---------------------------------------------------------


def test_1961_2009_start_3_army_of_40() -> None:
    """To start the game 3: 1 Marshal, 1 General, 2 Colonels, 3 Majors, 4 Captains,
    4 Lieutenants, 4 Sergeants, 5 Miners, 8 Scouts, 1 Spy, 6 Bombs, 1 Flag."""
    counts = [RULES.army.count(r) for r in (
        Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.MAJOR, Rank.CAPTAIN, Rank.LIEUTENANT,
        Rank.SERGEANT, Rank.MINER, Rank.SCOUT, Rank.SPY, Rank.BOMB, Rank.FLAG)]
    assert counts == [1, 1, 2, 3, 4, 4, 4, 5, 8, 1, 6, 1]
    state = game()
    for player in Player:
        assert sorted(p.rank for _, p in state.pieces(player)) == sorted(RULES.army.ranks())


def test_1961_2009_start_3_labels_marshal_1_spy_s() -> None:
    """To start the game 3: the Marshal is ranked 1 (highest), the General 2, ...,
    the Spy is marked "S"."""
    labels = RULES.labels
    assert [labels.label(r) for r in (Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.SCOUT,
                                      Rank.SPY)] == ["1", "2", "3", "9", "S"]
    assert labels.parse("1") is Rank.MARSHAL
    assert labels.parse("S") is Rank.SPY


def test_1961_2009_start_3_bombs_and_flag_not_moveable() -> None:
    """To start the game 3: the 6 Bombs and the Flag are not moveable."""
    state = game()
    movers = {state.piece_at(m.frm).rank for m in legal_moves(state)}  # type: ignore[arg-type, union-attr]
    assert Rank.BOMB not in movers
    assert Rank.FLAG not in movers


def test_1961_2009_start_4_four_full_rows() -> None:
    """To start the game 4: one piece in each square, 10 per row, 4 rows deep; the two
    middle rows are left unoccupied."""
    state = game()
    for player in Player:
        squares = {sq for sq, _ in state.pieces(player)}
        assert squares == set(home_rows(player, 4))
    assert all(state.piece_at(Square.at(f, r)) is None for f in range(10) for r in (4, 5))


def test_1961_2009_start_4_setup_problems_all_reported() -> None:
    """To start the game 4: a setup with a piece in the middle rows, a piece on a lake
    and an empty home square is rejected, with every problem listed."""
    where = random_setup(RULES, Player.RED, 3).as_dict()
    rank_a4, rank_b4 = where.pop(Square.parse("a4")), where.pop(Square.parse("c4"))
    where[Square.parse("a5")] = rank_a4
    where[Square.parse("c5")] = rank_b4
    bad = Setup.from_mapping(Player.RED, where)
    problems = setup_problems(RULES, bad)
    assert len(problems) == 3
    assert any("a5" in p and "outside" in p for p in problems)
    assert any("c5" in p and "lake" in p for p in problems)
    assert any("a4, c4" in p and "empty" in p for p in problems)
    with pytest.raises(SetupError) as info:
        new_game(RULES, bad, random_setup(RULES, Player.BLUE, 4))
    assert len(info.value.problems) == 3


def test_1961_2009_start_5_opponent_knows_no_rank() -> None:
    """To start the game 5: the opponent does not know the arrangement: every piece
    may still be any rank of the army."""
    state = game()
    everything = frozenset(Rank)
    for _, piece in state.pieces():
        assert state.known_ranks(piece) == everything
        assert not state.is_revealed(piece)


# -- Rules for movement ----------------------------------------------------------


def test_1961_2009_movement_1_cannot_move_opponents_piece() -> None:
    """Movement 1: in Red's turn only Red moves."""
    state = position({"e2": "K", "e9": "k"})
    assert not is_legal(state, "e9-e8")
    with pytest.raises(IllegalMoveError, match=r"the piece on e9 is blue's, not red's"):
        apply(state, "e9-e8")


def test_1961_2009_movement_4_no_two_pieces_on_a_square() -> None:
    """Movement 4: a piece may not move onto a square its own side occupies."""
    state = position({"e3": "K", "e4": "L", "j10": "k"})
    assert "e4" not in targets(state, "e3")
    with pytest.raises(IllegalMoveError, match="e4 is occupied by red's own Lieutenant"):
        apply(state, "e3-e4")


def test_1961_2009_movement_5_no_moving_through_pieces() -> None:
    """Movement 5: a piece may not move through or jump over a piece (Scout lane)."""
    state = position({"a1": "X", "a3": "T", "j10": "k"})
    assert targets(state, "a1") == {"a2", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1"}
    with pytest.raises(IllegalMoveError, match="path is blocked at a3"):
        apply(state, "a1-a4")


def test_1961_2009_movement_5_no_jumping_over_enemy() -> None:
    """Movement 5: an enemy piece blocks a lane too."""
    state = position({"a1": "X", "a3": "t", "j10": "k"})
    assert not is_legal(state, "a1-a4")
    with pytest.raises(IllegalMoveError, match="blocked at a3"):
        apply(state, "a1-a4")


def test_1961_2009_movement_6_one_piece_per_turn() -> None:
    """Movement 6: only one piece is moved in each turn."""
    state = game()
    for move in legal_moves(state)[:10]:
        after = apply(state, move)
        before = {p.id: sq for sq, p in state.pieces()}
        now = {p.id: sq for sq, p in after.pieces()}
        assert [pid for pid in before if before[pid] != now[pid]] == [
            state.piece_at(move.frm).id  # type: ignore[arg-type, union-attr]
        ]


def test_1961_2009_movement_8_scout_any_number_of_open_squares() -> None:
    """Movement 8: the Scout moves any number of open squares in a straight line, and
    lakes bound its lanes (Movement 3)."""
    state = position({"c3": "X", "j10": "k"})
    assert targets(state, "c3") == {"c4", "c2", "c1", "b3", "a3", "d3", "e3", "f3", "g3", "h3",
                                    "i3", "j3"}


def test_1961_2009_movement_8_scout_not_diagonally() -> None:
    """Movement 8: the Scout moves only in a straight line."""
    state = position({"a1": "X", "j10": "k"})
    with pytest.raises(IllegalMoveError, match="straight line"):
        apply(state, "a1-c3")


def test_1961_2009_movement_8_scout_may_not_move_and_strike() -> None:
    """Movement 8: the Scout MAY NOT MOVE & STRIKE in the same turn; it strikes only an
    adjacent piece."""
    state = position({"a1": "X", "a5": "t", "b1": "t", "j10": "k"})
    assert targets(state, "a1") == {"a2", "a3", "a4", "b1"}
    with pytest.raises(IllegalMoveError, match="may not move and strike in the same turn"):
        apply(state, "a1-a5")
    after = apply(state, "a1-b1")  # adjacent strike: Scout (9) loses to the Sergeant (7)
    assert after.piece_at("b1").rank is Rank.SERGEANT  # type: ignore[union-attr]


def test_1961_2009_movement_8_long_scout_move_reveals_it() -> None:
    """Movement 8: moving several squares reveals the Scout; one square keeps it hidden."""
    state = position({"a1": "X", "b1": "X", "j10": "k", "j9": "k"})
    scout_a, scout_b = state.piece_at("a1"), state.piece_at("b1")
    after = play(state, "a1-a4", "j10-i10", "b1-b2")
    assert after.known_ranks(scout_a) == {Rank.SCOUT}  # type: ignore[arg-type]
    assert after.is_revealed(scout_a)  # type: ignore[arg-type]
    assert Rank.MARSHAL in after.known_ranks(scout_b)  # type: ignore[arg-type]


def test_1961_2009_movement_10_third_shuttle_move_illegal() -> None:
    """Movement 10: not back and forth between the same 2 squares in 3 consecutive turns:
    the 3rd such move is illegal (reading: docs/editions.md)."""
    state = position({"a1": "K", "j10": "k", "j1": "F"})
    state = play(state, "a1-a2", "j10-j9", "a2-a1", "j9-j10")
    assert not is_legal(state, "a1-a2")
    assert targets(state, "a1") == {"b1"}
    with pytest.raises(IllegalMoveError,
                       match=(r"a1-a2: .*back and forth 2 turns.*allow no more than 2 "
                              r"\(.*Movement 10, back-and-forth rule\)$")):
        apply(state, "a1-a2")


def test_1961_2009_movement_10_applies_to_blue_too() -> None:
    """Movement 10: the rule binds each player; Blue's third shuttle move is illegal."""
    state = position({"a1": "K", "j10": "k"})
    state = play(state, "a1-b1", "j10-j9", "b1-c1", "j9-j10", "c1-d1")
    assert not is_legal(state, "j10-j9")
    assert is_legal(state, "j10-i10")


def test_1961_2009_movement_10_other_piece_breaks_the_run() -> None:
    """Movement 10: the turns must be consecutive; moving another piece in between starts
    the count again."""
    state = position({"a1": "K", "e1": "K", "j10": "k"})
    state = play(state, "a1-a2", "j10-i10", "a2-a1", "i10-h10", "e1-e2", "h10-g10")
    assert is_legal(state, "a1-a2")
    state = play(state, "a1-a2", "g10-f10", "a2-a1", "f10-e10")
    assert not is_legal(state, "a1-a2")


def test_1961_2009_movement_10_new_square_pair_starts_again() -> None:
    """Movement 10: the rule concerns the same 2 squares; moving on to a third square
    starts a new count."""
    state = position({"a1": "K", "j10": "k"})
    state = play(state, "a1-a2", "j10-i10", "a2-a3", "i10-h10", "a3-a2", "h10-g10")
    # a1-a2 does not count with a2-a3, a3-a2: a2-a1 is legal, a2-a3 would be the 3rd
    assert is_legal(state, "a2-a1")
    assert not is_legal(state, "a2-a3")


def test_1961_2009_movement_10_strike_is_exempt() -> None:
    """Movement 10 (reading): a strike is not a move between two squares; it is allowed
    even as the 3rd trip, and it resets the count."""
    state = position({"a1": "K", "c1": "l", "j10": "k"})
    state = play(state, "a1-b1", "j10-j9", "b1-a1")
    assert not is_legal(apply(state, "j9-j10"), "a1-b1")  # the 3rd quiet trip
    state = apply(state, "c1-b1")
    assert is_legal(state, "a1-b1")  # the same trip as a strike
    after = apply(state, "a1-b1")
    assert after.piece_at("b1").rank is Rank.CAPTAIN  # type: ignore[union-attr]
    assert after.shuttles[0] == (0, 0, 0, 0)


def test_1961_2009_movement_10_last_move_removed_loses() -> None:
    """Movement 10 with To end the game (note): when the back-and-forth rule removes a
    player's last move, that player cannot move and loses."""
    state = position({"a1": "K", "b1": "B", "b2": "B", "a3": "B", "j10": "k", "j1": "F"})
    state = play(state, "a1-a2", "j10-j9", "a2-a1", "j9-j10")
    assert state.is_over
    assert state.outcome.termination is Termination.NO_LEGAL_MOVES  # type: ignore[union-attr]
    assert state.outcome.winner is Player.BLUE  # type: ignore[union-attr]
    assert legal_moves(state) == ()


def test_1961_2009_movement_11_pass_is_not_a_move() -> None:
    """Movement 11: a player must either move or strike; there is no pass."""
    state = position({"a1": "K", "j10": "k"})
    assert not is_legal(state, "--")
    with pytest.raises(IllegalMoveError, match=r"^--: these rules have no Rescue, so there is "
                                               r"no rescue to make or decline$"):
        apply(state, "--")


# -- Rules for strike or attack ----------------------------------------------------


def test_1961_2009_strike_1_adjoining_squares() -> None:
    """Strike 1: pieces on adjoining squares may strike; no diagonal strikes. The refusal
    is a strike's, citing Strike 1, not the rule of movement (Movement 2)."""
    state = position({"e3": "K", "e4": "l", "f4": "l", "d2": "l", "j10": "k"})
    assert targets(state, "e3") == {"e4", "e2", "d3", "f3"}
    book = {"milton-bradley-1961": "Milton Bradley 1961", "hasbro-2009": "Hasbro 2009"}
    cited = f" on e3 cannot strike diagonally ({book[RULES.edition]}, Strike 1)"
    with pytest.raises(IllegalMoveError, match=re.escape(cited) + "$"):
        apply(state, "e3-f4")
    assert (explain_illegal(state, "e3-d2") or "").endswith(cited)


def test_1961_2009_strike_2_strike_ends_the_turn() -> None:
    """Strike 2: a player moves or strikes, not both; the strike ends the turn and the
    struck player moves next."""
    state = position({"e4": "K", "e5": "l", "j10": "k"})
    after = apply(state, "e4-e5")
    assert after.to_move is Player.BLUE
    assert after.ply == 1
    with pytest.raises(IllegalMoveError):
        apply(after, "e5-e6")  # Red cannot continue


def test_1961_2009_strike_3_strike_is_optional() -> None:
    """Strike 3: striking is not required; quiet moves stay legal beside an enemy."""
    state = position({"e4": "K", "e5": "l", "j10": "k"})
    assert {"e3", "d4", "f4"} <= targets(state, "e4")


def test_1961_2009_strike_4_either_player_may_strike() -> None:
    """Strike 4: not only the player who moved into position may strike."""
    state = position({"e3": "K", "e5": "l", "j10": "k"})
    after = apply(state, "e3-e4")
    assert "e4" in targets(after, "e5")


def test_1961_2009_strike_5_both_ranks_declared() -> None:
    """Strike 5: the striker declares its rank and the opponent names his: both become
    known."""
    state = position({"e4": "K", "e5": "c", "j10": "k"})
    captain, colonel = state.piece_at("e4"), state.piece_at("e5")
    after = apply(state, "e4-e5")
    assert after.known_ranks(captain) == {Rank.CAPTAIN}  # type: ignore[arg-type]
    assert after.known_ranks(colonel) == {Rank.COLONEL}  # type: ignore[arg-type]
    record = after.history_records()[-1]
    assert record.defender == colonel
    assert record.strike is not None
    assert record.strike.winner is Side.DEFENDER


@pytest.mark.parametrize(("attacker", "defender"), [("c", "K"), ("m", "S"), ("k", "K")],
                         ids=["attacker-wins", "marshal-takes-spy", "tie"])
def test_1961_2009_strike_5_a_losing_defender_is_named_too(attacker: str,
                                                          defender: str) -> None:
    """Strike 5: the opponent names its rank whatever the strike's result; a defender
    that loses (or ties) is known exactly, not only as "lower than the striker"."""
    state = position({"e5": attacker, "e4": defender, "a1": "F", "j10": "f", "j1": "T",
                      "a10": "t"},
                     to_move=Player.BLUE)
    struck = state.piece_at("e4")
    assert struck is not None
    after = apply(state, "e5-e4")
    record = after.history_records()[-1]
    assert record.strike is not None
    assert record.strike.defender_removed
    assert struck in after.captured()
    assert after.known_ranks(struck) == {struck.rank}
    assert after.is_revealed(struck)


def test_1961_2009_strike_8_rank_order() -> None:
    """Strike 8: Marshal removes General, General removes Colonel, ... down to the Spy."""
    order = [Rank.SPY, Rank.SCOUT, Rank.MINER, Rank.SERGEANT, Rank.LIEUTENANT, Rank.CAPTAIN,
             Rank.MAJOR, Rank.COLONEL, Rank.GENERAL, Rank.MARSHAL]
    for low, high in itertools.pairwise(order):
        assert resolve_strike(high, low, RULES).winner is Side.ATTACKER
        if (low, high) != (Rank.SPY, Rank.MARSHAL):
            assert resolve_strike(low, high, RULES).winner is Side.DEFENDER


def test_1961_2009_strike_9_spy_removes_marshal_when_striking() -> None:
    """Strike 9: the Spy removes the Marshal if the Spy strikes first."""
    state = position({"e4": "S", "e5": "m", "j10": "k"})
    after = apply(state, "e4-e5")
    assert after.piece_at("e5").rank is Rank.SPY  # type: ignore[union-attr]
    assert [p.rank for p in after.captured()] == [Rank.MARSHAL]


def test_1961_2009_strike_9_marshal_striking_spy_wins() -> None:
    """Strike 9: if the Marshal strikes first, the Spy is removed."""
    state = position({"e4": "s", "e5": "M", "j10": "k"})
    after = apply(state, "e5-e4")
    assert after.piece_at("e4").rank is Rank.MARSHAL  # type: ignore[union-attr]


def test_1961_2009_strike_9_others_remove_the_spy_either_way() -> None:
    """Strike 9: all other pieces remove the Spy regardless of who strikes; the Spy
    loses its own strikes on anything but the Marshal."""
    state = position({"e4": "S", "e5": "g", "j10": "k"})
    assert apply(state, "e4-e5").piece_at("e5").rank is Rank.GENERAL  # type: ignore[union-attr]
    state = position({"e4": "s", "e5": "X", "j10": "k"})
    assert apply(state, "e5-e4").piece_at("e4").rank is Rank.SCOUT  # type: ignore[union-attr]


def test_1961_2009_strike_10_bomb_removes_striker_and_stays() -> None:
    """Strike 10: any piece but a Miner striking a Bomb is lost; the Bomb stays."""
    state = position({"e4": "M", "e5": "b", "j10": "k"})
    after = apply(state, "e4-e5")
    assert after.piece_at("e4") is None
    assert after.piece_at("e5").rank is Rank.BOMB  # type: ignore[union-attr]
    assert [p.rank for p in after.captured()] == [Rank.MARSHAL]


def test_1961_2009_strike_10_miner_defuses_bomb() -> None:
    """Strike 10: a Miner striking a Bomb removes it and moves into its square."""
    state = position({"e4": "N", "e5": "b", "j10": "k"})
    after = apply(state, "e4-e5")
    assert after.piece_at("e5").rank is Rank.MINER  # type: ignore[union-attr]
    assert [p.rank for p in after.captured()] == [Rank.BOMB]


def test_1961_2009_strike_11_bomb_cannot_strike() -> None:
    """Strike 11: a Bomb cannot strike; it waits to be struck."""
    state = position({"e4": "B", "e5": "x", "a1": "K", "j10": "k"})
    assert targets(state, "e4") == set()
    with pytest.raises(IllegalMoveError, match="Bomb"):
        apply(state, "e4-e5")
    with pytest.raises(IllegalMoveError, match="cannot strike"):
        resolve_strike(Rank.BOMB, Rank.SCOUT, RULES)


def test_1961_2009_strike_12_flag_never_moves_or_strikes() -> None:
    """Strike 12: the Flag can never be moved (so never strikes)."""
    state = position({"e4": "F", "e5": "x", "a1": "K", "j10": "k"})
    assert targets(state, "e4") == set()
    with pytest.raises(IllegalMoveError, match=r"Flag \(F\) on e4 cannot move"):
        apply(state, "e4-e5")
    with pytest.raises(IllegalMoveError, match="cannot strike"):
        resolve_strike(Rank.FLAG, Rank.SCOUT, RULES)


# -- To end the game -------------------------------------------------------------


def test_1961_2009_end_no_move_after_last_piece_lost() -> None:
    """To end the game (note): losing the last moveable piece in a strike loses the game
    at once if the player cannot move."""
    state = position({"a1": "F", "e4": "k", "e5": "L", "j10": "b"}, to_move=Player.BLUE)
    after = apply(state, "e4-e5")  # Blue's Captain takes Red's last moveable piece
    assert after.outcome.winner is Player.BLUE  # type: ignore[union-attr]
    assert after.outcome.termination is Termination.NO_LEGAL_MOVES  # type: ignore[union-attr]


# -- the library around the rules ----------------------------------------------------


def test_1961_2009_ply_limit_draw() -> None:
    """Not a book rule: `Rules.with_ply_limit(n)` ends the game as a draw after n plies."""
    state = position({"a1": "K", "j10": "k"}, rules=RULES.with_ply_limit(3))
    state = play(state, "a1-a2", "j10-j9")
    assert not state.is_over
    state = apply(state, "a2-a3")
    assert state.outcome.termination is Termination.PLY_LIMIT  # type: ignore[union-attr]
    assert state.outcome.winner is None  # type: ignore[union-attr]
    assert state.outcome.result() == "1/2-1/2"  # type: ignore[union-attr]
    assert legal_moves(state) == ()


def test_1961_2009_apply_accepts_text_and_moves() -> None:
    state = position({"a1": "K", "j10": "k"})
    assert apply(state, "a1-a2") == apply(state, Move.parse("a1-a2"))
    assert apply(state, "a1a2") == apply(state, "a1xa2")


@pytest.mark.parametrize("text", ["a1-a11", "hello", "", "a1-a1"])
def test_1961_2009_malformed_text_raises_invalid_notation(text: str) -> None:
    state = position({"a1": "K", "j10": "k"})
    with pytest.raises(InvalidNotationError):
        apply(state, text)
    assert is_legal(state, text) is False


@pytest.mark.parametrize("junk", [None, 42, "a1-", "K@z1", "x" * 200])
def test_1961_2009_is_legal_never_raises(junk: object) -> None:
    state = position({"a1": "K", "j10": "k"})
    assert is_legal(state, junk) is False  # type: ignore[arg-type]


def test_1961_2009_apply_rejects_non_move() -> None:
    state = position({"a1": "K", "j10": "k"})
    with pytest.raises(InvalidNotationError, match="not a move"):
        apply(state, 42)  # type: ignore[arg-type]


def test_1961_2009_empty_square_named() -> None:
    state = position({"a1": "K", "j10": "k"})
    with pytest.raises(IllegalMoveError, match="there is no piece on e4"):
        apply(state, "e4-e5")
    assert explain_illegal(state, "a1-a2") is None


def test_1961_2009_rescue_zone_is_the_setup_half() -> None:
    """Rescue (Hasbro 2009 tournament rules), also added to 1961: a rescued piece goes on
    any empty square of the player's half, which To Start the Game 4 fills four rows deep:
    rows 1-4 for Red (docs/editions.md)."""
    rules = RULES.with_variants(RESCUE)
    state = from_position(rules, {"a9": "K", "j1": "F", "j10": "f"},
                          captured=[(Player.RED, Rank.LIEUTENANT)])
    state = apply(state, "a9-a10")
    drops = {str(m.to) for m in legal_moves(state) if m.is_rescue}
    assert "a4" in drops
    assert "a5" not in drops
    assert "j1" not in drops
    assert len(drops) == 39  # 40 squares of rows 1-4, one occupied


def test_a_ply_limit_is_a_plain_whole_number() -> None:
    """`Rules.with_ply_limit` takes a whole number from 1 up or None: a rank (an int by
    type, a `Rank` by meaning) is refused, as a bool and a float are."""
    from stratego import Rank, RulesError

    for odd in (Rank.MARSHAL, True, 3.0, 0):
        with pytest.raises(RulesError, match="a ply limit must be a whole number"):
            RULES.with_ply_limit(odd)  # type: ignore[arg-type]
    assert RULES.with_ply_limit(10).ply_limit == 10
