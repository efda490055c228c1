"""Jumbo 2014 Nostalgic Edition ("Stratego Original"): tests for its bulleted sections.

The book numbers nothing, so test names read ``test_jumbo2014_<section>_<what>``
with sections ``pieces`` (The playing pieces), ``setup`` (the set-up bullets),
``moving`` (Moving: the paragraph and its bullets, and the NOTE), ``attacking``
(Attacking), ``bomb`` (Attacking a Bomb), ``end`` (The game ends when),
``scout`` (The Scout (2)), ``miner`` (The Miner (3)) and ``spy`` (The Spy (1)).
Docstrings cite the bullet by its position in the section (bullet 1 = first).

Rules without mechanical content, which therefore have no test:

* Setup bullet 2 (the board's sides face their players) and bullet 4 (the ranks
  are illustrated on the board), bullet 6 (advice to read the rules first).
* Setup bullet 5 (pieces face their owner): tested as "no rank is known to the
  opponent at the start" instead.
* Moving bullet 7: a moved piece cannot be taken back once the hand is removed;
  `stratego.apply` is atomic.
* Attacking bullet 7's storage trays (both players see the captured pieces):
  tested as `GameState.captured` listing them.
* "Game tips" and "Attacking and defending": advice only.

The rules every edition states alike (Red starts, turns alternate, one square orthogonally,
the lakes, immobile Flag and Bombs, the higher rank wins a strike, equal ranks both go, the
Flag ends the game, no legal move loses) are tested once for every edition, each with this
book's citation, in ``tests/test_rules_common.py``; this file keeps the rest.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import pytest

import positions
from positions import play, targets
from stratego import (
    JUMBO_2014,
    GameState,
    IllegalMoveError,
    Player,
    Rank,
    Rules,
    Termination,
    apply,
    explain_illegal,
    from_position,
    is_legal,
    legal_moves,
    resolve_strike,
)
from stratego.board import home_rows
from stratego.repetition import CHASE_HASHES
from stratego.rules import RepetitionRule
from stratego.variants import RESCUE

RULES: Rules = JUMBO_2014


def position(placement: Mapping[str, str], to_move: Player = Player.RED,
             rules: Rules = RULES) -> GameState:
    """A partial Jumbo 2014 position (`positions.position`)."""
    return positions.position(rules, placement, to_move)


def game() -> GameState:
    return positions.game(RULES, 5, 6)


# -- The playing pieces ----------------------------------------------------------------


def test_jumbo2014_pieces_army_and_numbers() -> None:
    """The playing pieces: Marshal (x1) ... Spy (x1), Bomb (x6), Flag (x1); the number on
    a piece is its rank, Marshal 10 the most powerful, Spy 1 the lowest."""
    expected = {Rank.MARSHAL: (1, "10"), Rank.GENERAL: (1, "9"), Rank.COLONEL: (2, "8"),
                Rank.MAJOR: (3, "7"), Rank.CAPTAIN: (4, "6"), Rank.LIEUTENANT: (4, "5"),
                Rank.SERGEANT: (4, "4"), Rank.MINER: (5, "3"), Rank.SCOUT: (8, "2"),
                Rank.SPY: (1, "1"), Rank.BOMB: (6, "B"), Rank.FLAG: (1, "F")}
    for rank, (count, label) in expected.items():
        assert RULES.army.count(rank) == count
        assert RULES.labels.label(rank) == label
        assert RULES.labels.parse(label) is rank
    assert RULES.army.size == 40


def test_jumbo2014_pieces_stationary_pieces() -> None:
    """The playing pieces: the Bombs and the Flag cannot be moved during the game."""
    assert RULES.movable_ranks() == frozenset(Rank) - {Rank.BOMB, Rank.FLAG}


# -- Setup -----------------------------------------------------------------------------


def test_jumbo2014_setup_3_first_four_rows_filled() -> None:
    """Setup bullet 3: one piece on each square of the first four rows; the two middle
    rows stay empty."""
    state = game()
    for player in Player:
        assert {sq for sq, _ in state.pieces(player)} == set(home_rows(player, 4))
    assert RULES.setup.depth == 4
    assert RULES.setup.fill


def test_jumbo2014_setup_5_ranks_hidden_at_start() -> None:
    """Setup bullet 5: only the owner sees the pieces; no rank is known to the opponent."""
    state = game()
    assert all(state.known_ranks(p) == frozenset(Rank) for _, p in state.pieces())


# -- Moving ----------------------------------------------------------------------------


def test_jumbo2014_moving_1_one_piece_per_turn() -> None:
    """Moving bullet 1: only one piece moves during each turn."""
    state = game()
    move = legal_moves(state)[0]
    after = apply(state, move)
    before = {p.id: sq for sq, p in state.pieces()}
    moved = [p.id for sq, p in after.pieces() if before[p.id] != sq]
    assert moved == [state.piece_at(move.frm).id]  # type: ignore[arg-type, union-attr]


def test_jumbo2014_moving_3_no_two_pieces_on_a_square() -> None:
    """Moving bullet 3: two pieces cannot occupy the same square."""
    state = position({"e3": "K", "e4": "N", "j10": "k"})
    assert "e4" not in targets(state, "e3")
    with pytest.raises(IllegalMoveError, match="occupied by red's own Miner"):
        apply(state, "e3-e4")


def test_jumbo2014_moving_4_no_jumping() -> None:
    """Moving bullet 4: pieces cannot jump over or move through an occupied square."""
    state = position({"a1": "X", "a2": "n", "j10": "k"})
    assert "a3" not in targets(state, "a1")
    with pytest.raises(IllegalMoveError, match="blocked at a2"):
        apply(state, "a1-a3")


def test_jumbo2014_moving_5_rivers_can_be_crossed() -> None:
    """Moving bullet 5: pieces move over the rivers (rows 5 and 6 beside the lakes)."""
    state = position({"a5": "K", "e5": "L", "i5": "T", "j10": "k"})
    assert {"a6", "e6", "i6"} <= targets(state, "a5") | targets(state, "e5") | targets(state, "i5")
    assert apply(state, "e5-e6").piece_at("e6").rank is Rank.LIEUTENANT  # type: ignore[union-attr]


def test_jumbo2014_moving_6_not_into_or_over_lakes() -> None:
    """Moving bullet 6: pieces may not land in the lakes, nor move through or over them."""
    state = position({"d4": "K", "b5": "X", "j10": "k"})
    assert targets(state, "d4") == {"d3", "c4", "e4"}
    with pytest.raises(IllegalMoveError, match="d5 is a lake"):
        apply(state, "d4-d5")
    assert "e5" not in targets(state, "b5")  # the Scout cannot cross the lake
    with pytest.raises(IllegalMoveError, match="lake"):
        apply(state, "b5-e5")


def test_jumbo2014_moving_8_fourth_shuttle_move_illegal() -> None:
    """Moving bullet 8: no more than three consecutive back-and-forth turns: the 4th is
    illegal (reading: docs/editions.md)."""
    state = position({"a1": "K", "j10": "k"})
    state = play(state, "a1-a2", "j10-i10", "a2-a1", "i10-h10", "a1-a2", "h10-g10")
    assert is_legal(play(position({"a1": "K", "j10": "k"}), "a1-a2", "j10-i10", "a2-a1",
                         "i10-h10"), "a1-a2")  # the 3rd is still legal
    assert not is_legal(state, "a2-a1")
    assert targets(state, "a2") == {"a3", "b2"}
    with pytest.raises(IllegalMoveError, match=r"back and forth 3 turns.*allow no more than 3"):
        apply(state, "a2-a1")


def test_jumbo2014_moving_8_starter_must_stop_first() -> None:
    """Moving bullet 8: the player who starts moving back and forth must be the first to
    stop: counting each player's own turns, Red (who started) is stopped while Blue's
    answering shuttle is still legal."""
    state = position({"a1": "K", "j10": "k"})
    state = play(state, "a1-a2", "j10-j9", "a2-a1", "j9-j10", "a1-a2", "j10-j9")
    assert not is_legal(state, "a2-a1")  # Red's 4th
    state = apply(state, "a2-a3")
    assert not is_legal(state, "j9-j10")  # and then Blue's 4th
    assert is_legal(state, "j9-j8")


def test_jumbo2014_moving_8_strike_is_exempt() -> None:
    """Moving bullet 8 (reading): a strike between the same two squares is not a
    back-and-forth move."""
    state = play(position({"a1": "K", "a3": "l", "j10": "k"}),
                 "a1-b1", "j10-j9", "b1-a1", "a3-a2", "a1-b1")
    assert not is_legal(apply(state, "a2-a3"), "b1-a1")  # the 4th quiet trip
    state = apply(state, "a2-a1")
    assert is_legal(state, "b1-a1")  # the 4th trip, as a strike
    assert apply(state, "b1-a1").piece_at("a1").rank is Rank.CAPTAIN  # type: ignore[union-attr]


def _chase_start() -> GameState:
    """Blue's Captain runs round the empty block e7-f7-f8-e8 and Red's Captain follows it,
    every Red move ending next to Blue's new square."""
    state = position({"f7": "k", "e7": "K", "a1": "F", "a10": "f"}, to_move=Player.BLUE)
    return play(state, "f7-f8", "e7-f7", "f8-e8", "f7-f8", "e8-e7", "f8-e8", "e7-f7", "e8-e7",
                "f7-f8")


def test_jumbo2014_moving_9_chaser_may_not_repeat_position() -> None:
    """Moving bullet 9: a piece pursuing an enemy piece must stop before a position of the
    chase repeats. After one lap round the block, Red's e7-f7 would recreate the position
    after Red's first chase move; no back-and-forth rule forbids it (no two squares
    repeat)."""
    state = _chase_start()
    assert not is_legal(state, "e7-f7")
    # e8, where Red's Captain came from, stays open (see the two-square chase test)
    assert targets(state, "e7") == {"e8", "e6", "d7"}
    no_chase = attrs.evolve(RULES, repetition=RepetitionRule(max_shuttle_moves=3, chase=False))
    other = from_position(no_chase, {"f7": "k", "e7": "K", "a1": "F", "a10": "f"},
                          to_move=Player.BLUE)
    assert is_legal(play(other, "f7-f8", "e7-f7", "f8-e8", "f7-f8", "e8-e7", "f8-e8", "e7-f7",
                         "e8-e7", "f7-f8"), "e7-f7")
    with pytest.raises(IllegalMoveError,
                       match=(r"threaten again the piece on f8.*"
                              r"\(Jumbo 2014, Moving bullet 9, chase rule\)$")):
        apply(state, "e7-f7")


def test_jumbo2014_moving_8_and_9_two_square_chase_starter_stops_first() -> None:
    """Moving bullets 8 and 9 together: Blue's Captain shuttles e8-f8 and Red's follows on
    e7-f7. Bullet 8 says the player who began moving back and forth (Blue) must be the
    first to stop, possibly losing the piece; so a chase move straight back to the square
    the chaser came from is left to the back-and-forth rule (as in the ISF rules): Red's
    third trip e7-f7 is legal although it repeats a position of the chase, and then Blue's
    fourth trip f8-e8 is not."""
    state = position({"e8": "k", "e7": "K", "a1": "F", "a10": "f"}, to_move=Player.BLUE)
    state = play(state, "e8-f8", "e7-f7", "f8-e8", "f7-e7", "e8-f8")
    assert state.chase[0] == Player.RED + 1
    assert is_legal(state, "e7-f7")
    state = apply(state, "e7-f7")
    assert not is_legal(state, "f8-e8")
    assert "back-and-forth" in (explain_illegal(state, "f8-e8") or "")
    # Red, too, has used its three trips
    state = apply(state, "f8-g8")
    assert not is_legal(state, "f7-e7")


def test_jumbo2014_moving_9_chase_message_names_chase_rule() -> None:
    """Moving bullet 9: the error names the chase rule, not the back-and-forth rule."""
    assert "chase rule" in (explain_illegal(_chase_start(), "e7-f7") or "")


def test_jumbo2014_moving_9_chased_piece_may_repeat() -> None:
    """Moving bullet 9: only the attacker (the chaser) must stop; the chased piece's moves
    that recreate a position stay legal."""
    start = position({"e8": "k", "e7": "K", "a1": "F", "a10": "f"}, to_move=Player.BLUE)
    first = apply(start, "e8-f8")
    before = play(first, "e7-f7", "f8-e8", "f7-e7")
    assert before.chase[0] == Player.RED + 1  # Red is chasing
    assert is_legal(before, "e8-f8")
    after = apply(before, "e8-f8")
    assert after.board == first.board  # Blue recreated a position of the chase
    assert after.to_move is first.to_move


def test_jumbo2014_moving_9_chase_needs_adjacency() -> None:
    """Moving bullet 9 (reading, the ISF 11 definitions): a chase begins with a threat, a
    move ending next to an opponent's piece; moves that stay a square apart start no chase
    and are not restricted by it."""
    state = position({"e8": "k", "e6": "K", "a1": "F", "a10": "f"}, to_move=Player.BLUE)
    state = play(state, "e8-f8", "e6-f6", "f8-e8", "f6-e6", "e8-f8")
    assert state.chase == ()
    assert is_legal(state, "e6-f6")  # 3rd back-and-forth trip, allowed in Jumbo 2014


def test_jumbo2014_moving_9_strike_ends_the_chase() -> None:
    """Moving bullet 9 (reading): a strike ends the chase record (a striker left next to
    no opponent's piece begins none)."""
    state = position({"e8": "k", "e7": "K", "a1": "F", "a10": "f", "d8": "t"},
                     to_move=Player.BLUE)
    state = play(state, "e8-f8", "e7-f7")
    assert state.chase != ()
    state = play(state, "d8-d7", "f7-f8")
    assert state.chase == ()


def test_jumbo2014_moving_9_a_chaser_taking_turns_between_two_pursuits_must_stop() -> None:
    """Moving bullet 9: a pursuing piece must stop before a position repeats, also when the
    chaser moves another pursuer in between. Red's General follows Blue's Lieutenant round
    the block a8-a9-b9-b8 while Red's Colonel follows Blue's Sergeant round i8-i9-j9-j8,
    turn about. Read as "a chase move ends next to the opponent's last move" no move here
    was one (each ends next to the piece Blue did not just move) and the cycle went on for
    ever; read with the ISF 11 definitions (every Red move threatens a piece that evaded
    during the chase, every Blue reply evades) it is one chase, and the first move that
    would recreate one of its positions is refused."""
    state = position({"a8": "G", "b9": "l", "i8": "C", "j9": "t", "e1": "F", "e10": "f"})
    lap = ["a8-a9", "b9-b8", "i8-i9", "j9-j8", "a9-b9", "b8-a8", "i9-j9", "j8-i8",
           "b9-b8", "a8-a9", "j9-j8", "i8-i9", "b8-a8", "a9-b9", "j8-i8", "i9-j9"]
    for move in lap[:-1]:
        state = apply(state, move)
        assert state.chase[0] == Player.RED + 1
    state = apply(state, lap[-1])
    assert not is_legal(state, "a8-a9")
    assert "(Jumbo 2014, Moving bullet 9, chase rule)" in (explain_illegal(state, "a8-a9") or "")


@pytest.mark.parametrize("second", ["t", "l"])
def test_jumbo2014_moving_9_positions_compared_by_identity(second: str) -> None:
    """Moving bullet 9 (reading): positions of a chase are compared by which piece stands
    where, never by rank. Blue's two pieces change places round the squares d9-e9-e8-f9
    while Red's Captains chase them (every Red move threatens, every Blue reply evades);
    Red's e10-f10 then recreates the board after Red's first chase move, e6-e7, except
    that Blue's two pieces stand on each other's squares. That is a new position whether
    or not the two share a rank, so Red's legal moves cannot tell two hidden Sergeants from
    a Sergeant and a Lieutenant."""
    state = position({"a1": "F", "a10": "f", "e6": "K", "f10": "K", "d8": "t", "f9": second},
                     to_move=Player.BLUE)
    first = play(state, "d8-e8", "e6-e7")
    state = play(first, "e8-e9", "f10-e10", "e9-d9", "e10-f10", "f9-e9", "f10-e10", "e9-e8",
                 "e10-d10", "d9-e9", "d10-e10", "e9-f9")
    assert state.chase[0] == Player.RED + 1  # one chase all along
    assert len(state.chase) == CHASE_HASHES + 13  # thirteen positions
    assert is_legal(state, "e10-f10")
    after = apply(state, "e10-f10")
    squares = {sq: p.owner for sq, p in after.pieces()}
    assert squares == {sq: p.owner for sq, p in first.pieces()}
    assert {sq: p.id for sq, p in after.pieces()} != {sq: p.id for sq, p in first.pieces()}
    assert after.chase[0] == Player.RED + 1


# -- Attacking -------------------------------------------------------------------------


def test_jumbo2014_attacking_1_front_side_behind_not_diagonal() -> None:
    """Attacking bullet 1: attack a piece in front, beside or behind; not diagonally (the
    refusal cites this bullet, not Moving bullet 2); attacking is optional."""
    state = position({"e4": "K", "e5": "l", "f4": "l", "e3": "l", "f5": "l", "j10": "k"})
    assert targets(state, "e4") == {"e5", "f4", "e3", "d4"}
    with pytest.raises(IllegalMoveError, match=r"cannot strike diagonally \(Jumbo 2014, "
                                               r"Attacking bullet 1\)$"):
        apply(state, "e4-f5")


def test_jumbo2014_attacking_3_both_ranks_called_out() -> None:
    """Attacking bullet 3: the attacker calls out its rank and the defender answers."""
    state = position({"e4": "K", "e5": "c", "j10": "k"})
    captain, colonel = state.piece_at("e4"), state.piece_at("e5")
    after = apply(state, "e4-e5")
    assert after.known_ranks(captain) == {Rank.CAPTAIN}  # type: ignore[arg-type]
    assert after.known_ranks(colonel) == {Rank.COLONEL}  # type: ignore[arg-type]


def test_jumbo2014_attacking_7_captured_pieces_are_listed() -> None:
    """Attacking bullet 7: captured pieces leave the board and both players see them."""
    state = position({"e4": "G", "e5": "g", "j10": "k"})
    after = apply(state, "e4-e5")
    assert [p.rank for p in after.captured(Player.RED)] == [Rank.GENERAL]
    assert [p.rank for p in after.captured(Player.BLUE)] == [Rank.GENERAL]
    assert all(after.square_of(p) is None for p in after.captured())


def test_jumbo2014_attacking_8_flag_and_bombs_cannot_attack() -> None:
    """Attacking bullet 8: the Flag and the Bombs cannot attack."""
    state = position({"e4": "B", "e5": "x", "f5": "x", "f4": "F", "a1": "K", "j10": "k"})
    assert targets(state, "e4") == set()
    assert targets(state, "f4") == set()
    for rank in (Rank.BOMB, Rank.FLAG):
        with pytest.raises(IllegalMoveError, match="cannot strike"):
            resolve_strike(rank, Rank.SCOUT, RULES)


# -- Attacking a Bomb ------------------------------------------------------------------


@pytest.mark.parametrize("attacker", ["M", "X", "S", "K"])
def test_jumbo2014_bomb_1_attacker_loses_bomb_stays(attacker: str) -> None:
    """Attacking a Bomb bullet 1: the attacker loses and the Bomb stays."""
    state = position({"e4": attacker, "e5": "b", "j10": "k"})
    after = apply(state, "e4-e5")
    assert after.piece_at("e4") is None
    assert after.piece_at("e5").rank is Rank.BOMB  # type: ignore[union-attr]


def test_jumbo2014_bomb_2_only_miner_defuses() -> None:
    """Attacking a Bomb bullet 2: only a Miner (3) defuses a Bomb."""
    for attacker in Rank:
        if attacker in (Rank.BOMB, Rank.FLAG):
            continue
        result = resolve_strike(attacker, Rank.BOMB, RULES)
        assert result.defender_removed is (attacker is Rank.MINER)


# -- The game ends when ----------------------------------------------------------------


def test_jumbo2014_end_2_cannot_move_loses() -> None:
    """The game ends when bullet 2: a player who cannot move or attack loses; also when
    the back-and-forth rule removes the last move."""
    state = position({"a1": "K", "b1": "B", "b2": "B", "a3": "B", "j10": "k", "j1": "F"})
    state = play(state, "a1-a2", "j10-i10", "a2-a1", "i10-h10", "a1-a2", "h10-g10")
    assert state.outcome.termination is Termination.NO_LEGAL_MOVES  # type: ignore[union-attr]
    assert state.outcome.winner is Player.BLUE  # type: ignore[union-attr]


# -- The Scout (2) ---------------------------------------------------------------------


def test_jumbo2014_scout_moves_any_number_of_open_squares() -> None:
    """The Scout: any number of open squares in a straight line, not across the lakes."""
    state = position({"c4": "X", "j10": "k"})
    assert targets(state, "c4") == {"c3", "c2", "c1", "b4", "a4", "d4", "e4", "f4", "g4", "h4",
                                    "i4", "j4"}


def test_jumbo2014_scout_may_move_and_attack() -> None:
    """The Scout: Scouts can move and attack in the same turn, in a straight line."""
    state = position({"a1": "X", "a7": "t", "j10": "k"})
    assert "a7" in targets(state, "a1")
    assert "a8" not in targets(state, "a1")
    after = apply(state, "a1-a7")
    assert after.piece_at("a7").rank is Rank.SERGEANT  # type: ignore[union-attr]
    assert [p.rank for p in after.captured()] == [Rank.SCOUT]


def test_jumbo2014_scout_captures_spy_from_afar() -> None:
    """The Spy: "Scouts can capture the Spy from a great distance"."""
    state = position({"a1": "X", "a9": "s", "j10": "k"})
    after = apply(state, "a1-a9")
    assert after.piece_at("a9").rank is Rank.SCOUT  # type: ignore[union-attr]


def test_jumbo2014_scout_long_move_reveals_it() -> None:
    """The Scout, NOTE: moving more than one square reveals the Scout."""
    state = position({"a1": "X", "b1": "X", "j10": "k", "j9": "k"})
    far, near = state.piece_at("a1"), state.piece_at("b1")
    after = play(state, "a1-a5", "j10-i10", "b1-b2")
    assert after.known_ranks(far) == {Rank.SCOUT}  # type: ignore[arg-type]
    assert not after.is_revealed(near)  # type: ignore[arg-type]
    assert {Rank.SCOUT, Rank.MARSHAL} <= after.known_ranks(near)  # type: ignore[arg-type]


# -- The Miner (3), The Spy (1) --------------------------------------------------------


def test_jumbo2014_miner_defuses_and_moves_in() -> None:
    """The Miner: the Bomb is removed and the Miner moves into its square."""
    state = position({"e4": "N", "e5": "b", "j10": "k"})
    after = apply(state, "e4-e5")
    assert after.piece_at("e5").rank is Rank.MINER  # type: ignore[union-attr]
    assert after.piece_at("e4") is None


def test_jumbo2014_spy_attacking_marshal_wins() -> None:
    """The Spy: a Spy attacking the Marshal (10) captures it."""
    after = apply(position({"e4": "S", "e5": "m", "j10": "k"}), "e4-e5")
    assert after.piece_at("e5").rank is Rank.SPY  # type: ignore[union-attr]


def test_jumbo2014_spy_attacked_by_marshal_loses() -> None:
    """The Spy: if the Marshal attacks the Spy first, the Spy is captured."""
    after = apply(position({"e4": "s", "e5": "M", "j10": "k"}), "e5-e4")
    assert after.piece_at("e4").rank is Rank.MARSHAL  # type: ignore[union-attr]


@pytest.mark.parametrize("other", ["g", "x", "n"])
def test_jumbo2014_spy_attacked_by_any_piece_loses(other: str) -> None:
    """The Spy: the Spy has the lowest rank; any attacker captures it."""
    state = position({"e4": "S", "e5": other, "j10": "k"}, to_move=Player.BLUE)
    after = apply(state, "e5-e4")
    assert after.piece_at("e4").owner is Player.BLUE  # type: ignore[union-attr]


# -- Rescuing pieces (variant): the zone default of this book --------------------------


def test_jumbo2014_rescue_zone_is_first_four_rows() -> None:
    """Rescuing pieces (variant page): the rescued piece goes on any unoccupied square of
    the player's first four rows (not row 5, unlike Hasbro 2009)."""
    rules = RULES.with_variants(RESCUE)
    state = from_position(rules, {"a9": "K", "j1": "F", "j10": "f"},
                          captured=[(Player.RED, Rank.LIEUTENANT)])
    state = apply(state, "a9-a10")
    drops = {str(m.to) for m in legal_moves(state) if m.is_rescue}
    assert "a4" in drops
    assert "a5" not in drops
    assert len(drops) == 39
