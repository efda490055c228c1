"""Example tests for every variant the rulebooks print, sentence by sentence.

Each test names the book and the variant section it checks:

* Hasbro 2009 Onyx Edition, "Additional Tournament Rules": Aggressor
  Advantage, Silent Defense, Rescue (with its "Restrictions").
* Jumbo 2014 Nostalgic Edition, variants page: Attacker's Advantage, Exploding
  Bombs, Moving Bombs, Moving Flag, Rescuing Pieces (with its "Restrictions"),
  Silent Defense, Stratego Barrage, Stratego Duel, Ultimate Lightning Stratego
  ("Moving and attacking with the Captain (6)").

The readings chosen for ambiguous sentences are documented in docs/variants.md.
"""

from __future__ import annotations

import fnmatch
import itertools
import pathlib
import re
import subprocess
import sys

import attrs
import pytest

import stratego
from positions import play, position, targets
from stratego import (
    GameState,
    IllegalMoveError,
    Move,
    Player,
    Rank,
    Rules,
    RulesError,
    Square,
    Termination,
    Variant,
    apply,
    explain_illegal,
    from_position,
    legal_moves,
    resolve_strike,
)
from stratego.editions import (
    CLASSIC,
    EDITIONS,
    HASBRO_2009,
    JUMBO_2014,
    MILTON_BRADLEY_1961,
    by_name,
)
from stratego.rules import Army, RescueZone
from stratego.setups import Setup, random_setup, setup_problems
from stratego.strike import Side
from stratego.variants import (
    AGGRESSOR_ADVANTAGE,
    BARRAGE,
    DUEL,
    EXPLODING_BOMBS,
    MOVING_BOMBS,
    MOVING_FLAG,
    RESCUE,
    SILENT_DEFENSE,
    ULTIMATE_LIGHTNING,
    VARIANTS,
)
from stratego.views import view

RED, BLUE = Player.RED, Player.BLUE
ALL_EDITIONS = list(EDITIONS.values())
FIGHTERS = [r for r in Rank if r not in (Rank.BOMB, Rank.FLAG)]


def rank_of(state: GameState, square: str) -> Rank | None:
    piece = state.piece_at(square)
    return None if piece is None else piece.rank


# ---------------------------------------------------------------------------
# Aggressor Advantage (Hasbro 2009) / Attacker's Advantage (Jumbo 2014)


@pytest.mark.parametrize("rank", FIGHTERS)
def test_hasbro2009_aggressor_advantage_same_rank_attacker_wins(rank: Rank) -> None:
    """Hasbro 2009, Additional Tournament Rules, Aggressor Advantage: equal ranks, attacker wins."""
    result = resolve_strike(rank, rank, HASBRO_2009.with_variants(AGGRESSOR_ADVANTAGE))
    assert result.winner is Side.ATTACKER
    assert result.occupant is Side.ATTACKER
    assert not result.attacker_removed
    assert result.defender_removed


@pytest.mark.parametrize("rank", FIGHTERS)
def test_jumbo2014_attackers_advantage_same_rank_attacker_wins(rank: Rank) -> None:
    """Jumbo 2014, variants, Attacker's Advantage: equal ranks, attacker wins."""
    result = resolve_strike(rank, rank, JUMBO_2014.with_variants(AGGRESSOR_ADVANTAGE))
    assert result.winner is Side.ATTACKER


@pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda r: r.edition)
def test_aggressor_advantage_on_the_board_attacker_moves_in(edition: Rules) -> None:
    """Aggressor Advantage in play: a Major striking a Major takes its square."""
    rules = edition.with_variants(AGGRESSOR_ADVANTAGE)
    state = play(position(rules, {"e4": "J", "e5": "j", "a1": "F", "j10": "f"}), "e4-e5")
    assert rank_of(state, "e5") is Rank.MAJOR
    assert state.piece_at("e5").owner is RED  # type: ignore[union-attr]
    assert [p.rank for p in state.captured(BLUE)] == [Rank.MAJOR]
    assert state.captured(RED) == ()


@pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda r: r.edition)
def test_without_aggressor_advantage_equal_ranks_both_go(edition: Rules) -> None:
    """Control: without the variant every book removes both equal pieces."""
    state = play(position(edition, {"e4": "J", "e5": "j", "a1": "F", "j10": "f"}), "e4-e5")
    assert state.piece_at("e5") is None
    assert len(state.captured()) == 2


@pytest.mark.parametrize(
    ("attacker", "defender", "winner"),
    [
        (Rank.SPY, Rank.MARSHAL, Side.ATTACKER),
        (Rank.MARSHAL, Rank.SPY, Side.ATTACKER),
        (Rank.SCOUT, Rank.MARSHAL, Side.DEFENDER),
        (Rank.GENERAL, Rank.BOMB, Side.DEFENDER),
        (Rank.MINER, Rank.BOMB, Side.ATTACKER),
    ],
)
def test_aggressor_advantage_changes_only_equal_ranks(attacker: Rank, defender: Rank,
                                                      winner: Side) -> None:
    """Hasbro 2009 / Jumbo 2014, Aggressor Advantage: the sentence speaks of equal ranks only."""
    for edition in (HASBRO_2009, JUMBO_2014):
        rules = edition.with_variants(AGGRESSOR_ADVANTAGE)
        assert resolve_strike(attacker, defender, rules).winner is winner


# ---------------------------------------------------------------------------
# Exploding Bombs (Jumbo 2014)


@pytest.mark.parametrize("attacker", [r for r in FIGHTERS if r != Rank.MINER])
def test_jumbo2014_exploding_bombs_non_miner_and_bomb_both_removed(attacker: Rank) -> None:
    """Jumbo 2014, Exploding Bombs: any piece but a Miner striking a Bomb: both are removed."""
    result = resolve_strike(attacker, Rank.BOMB, JUMBO_2014.with_variants(EXPLODING_BOMBS))
    assert result.attacker_removed
    assert result.defender_removed
    assert result.occupant is None


def test_jumbo2014_exploding_bombs_on_the_board_square_left_empty() -> None:
    """Jumbo 2014, Exploding Bombs: both pieces leave the board and are captured."""
    rules = JUMBO_2014.with_variants(EXPLODING_BOMBS)
    state = play(position(rules, {"e4": "G", "e5": "b", "a1": "F", "j10": "f"}), "e4-e5")
    assert state.piece_at("e5") is None
    assert state.piece_at("e4") is None
    assert [p.rank for p in state.captured(RED)] == [Rank.GENERAL]
    assert [p.rank for p in state.captured(BLUE)] == [Rank.BOMB]


def test_jumbo2014_exploding_bombs_scout_striking_from_afar_explodes() -> None:
    """Jumbo 2014, Exploding Bombs with the Jumbo Scout rule: a Scout's long strike explodes too."""
    rules = JUMBO_2014.with_variants(EXPLODING_BOMBS)
    state = play(position(rules, {"e2": "X", "e7": "b", "a1": "F", "j10": "f"}), "e2-e7")
    assert state.piece_at("e7") is None
    assert len(state.captured()) == 2


def test_jumbo2014_exploding_bombs_miner_removes_bomb_and_stays() -> None:
    """Jumbo 2014, Exploding Bombs: a Miner striking a Bomb captures it and stays on the board
    (it moves into the Bomb's square, as in the base rules, Attacking with a Miner)."""
    rules = JUMBO_2014.with_variants(EXPLODING_BOMBS)
    state = play(position(rules, {"e4": "N", "e5": "b", "a1": "F", "j10": "f"}), "e4-e5")
    assert rank_of(state, "e5") is Rank.MINER
    assert state.captured(RED) == ()
    assert [p.rank for p in state.captured(BLUE)] == [Rank.BOMB]


def test_without_exploding_bombs_bomb_stays() -> None:
    """Control (Jumbo 2014, Attacking a Bomb): the attacker loses and the Bomb stays."""
    state = play(position(JUMBO_2014, {"e4": "G", "e5": "b", "a1": "F", "j10": "f"}), "e4-e5")
    assert rank_of(state, "e5") is Rank.BOMB
    assert [p.rank for p in state.captured()] == [Rank.GENERAL]


# ---------------------------------------------------------------------------
# Moving Bombs (Jumbo 2014)


def test_jumbo2014_moving_bombs_plays_like_exploding_bombs() -> None:
    """Jumbo 2014, Moving Bombs, sentence 1: played as Exploding Bombs (the variant implies it)."""
    rules = JUMBO_2014.with_variants(MOVING_BOMBS)
    assert rules.has_variant(EXPLODING_BOMBS)
    assert rules.strike.bombs_explode
    assert rules == JUMBO_2014.with_variants(MOVING_BOMBS, EXPLODING_BOMBS)
    assert rules.name == "jumbo-2014+exploding-bombs+moving-bombs"
    result = resolve_strike(Rank.MARSHAL, Rank.BOMB, rules)
    assert result.attacker_removed
    assert result.defender_removed


def test_jumbo2014_moving_bombs_bomb_moves_one_square_like_other_pieces() -> None:
    """Jumbo 2014, Moving Bombs: Bombs move like the other pieces: one square, not diagonally."""
    rules = JUMBO_2014.with_variants(MOVING_BOMBS)
    state = position(rules, {"e4": "B", "a1": "F", "j10": "f"})
    assert targets(state, "e4") == {"e5", "e3", "d4", "f4"}
    after = apply(state, "e4-e5")
    bomb = after.piece_at("e5")
    assert bomb is not None
    assert bomb.rank is Rank.BOMB
    assert after.has_moved(bomb)


def test_jumbo2014_moving_bombs_bomb_may_not_strike() -> None:
    """Jumbo 2014, Moving Bombs, sentence 2: a moving Bomb never strikes."""
    rules = JUMBO_2014.with_variants(MOVING_BOMBS)
    state = position(rules, {"e4": "B", "e5": "m", "a1": "F", "j10": "f"})
    assert "e5" not in targets(state, "e4")
    reason = explain_illegal(state, "e4-e5")
    assert reason is not None
    assert "cannot strike" in reason
    with pytest.raises(IllegalMoveError):
        apply(state, "e4-e5")


def test_jumbo2014_moving_bombs_flag_still_cannot_move() -> None:
    """Jumbo 2014, Moving Bombs, sentence 1: the Flag is the exception; it still cannot move."""
    rules = JUMBO_2014.with_variants(MOVING_BOMBS)
    state = position(rules, {"e4": "F", "a1": "B", "j10": "f"})
    assert targets(state, "e4") == set()
    assert targets(state, "a1") == {"a2", "b1"}
    reason = explain_illegal(state, "e4-e5")
    assert reason is not None
    assert "cannot move" in reason


def test_jumbo2014_moving_bombs_moved_bomb_still_explodes_and_yields_to_miner() -> None:
    """Jumbo 2014, Moving Bombs: a Bomb that moved is still a Bomb when struck."""
    rules = JUMBO_2014.with_variants(MOVING_BOMBS)
    state = position(rules, {"e4": "B", "e6": "c", "f5": "n", "a1": "F", "j10": "f"})
    state = apply(state, "e4-e5")
    exploded = apply(state, "e6-e5")
    assert exploded.piece_at("e5") is None
    assert len(exploded.captured()) == 2
    defused = apply(state, "f5-e5")
    assert rank_of(defused, "e5") is Rank.MINER


def test_without_moving_bombs_bombs_stay() -> None:
    """Control (Jumbo 2014, Moving, note on stationary pieces): without the variant Bombs stay."""
    state = position(JUMBO_2014.with_variants(EXPLODING_BOMBS), {"e4": "B", "a1": "F", "j10": "f"})
    assert targets(state, "e4") == set()


# ---------------------------------------------------------------------------
# Moving Flag (Jumbo 2014)


def test_jumbo2014_moving_flag_flag_moves_one_square() -> None:
    """Jumbo 2014, Moving Flag, sentence 1: the Flag may move (one square, like other pieces)."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = position(rules, {"e4": "F", "j10": "f"})
    assert targets(state, "e4") == {"e5", "e3", "d4", "f4"}
    assert not apply(state, "e4-e5").is_over


def test_jumbo2014_moving_flag_flag_may_not_strike() -> None:
    """Jumbo 2014, Moving Flag, with the base rule that the Flag and Bombs never attack
    (Attacking, last bullet): the variant only lifts the ban on moving (docs/variants.md)."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = position(rules, {"e4": "F", "e5": "s", "j10": "f"})
    assert "e5" not in targets(state, "e4")
    reason = explain_illegal(state, "e4-e5")
    assert reason is not None
    assert "cannot strike" in reason


def test_jumbo2014_moving_flag_reaching_opponents_back_row_wins() -> None:
    """Jumbo 2014, Moving Flag, sentence 2: moving one's Flag onto the opponent's back row wins."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = position(rules, {"e9": "F", "j10": "f", "a2": "m"})
    end = apply(state, "e9-e10")
    assert end.outcome is not None
    assert end.outcome.termination is Termination.FLAG_REACHED_BACK_ROW
    assert end.outcome.winner is RED
    assert legal_moves(end) == ()


def test_jumbo2014_moving_flag_blue_flag_reaching_rank_one_wins() -> None:
    """Jumbo 2014, Moving Flag: the opponent's back row of Blue is rank 1."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = position(rules, {"j2": "f", "a1": "F", "a9": "M"}, to_move=BLUE)
    end = apply(state, "j2-j1")
    assert end.outcome is not None
    assert end.outcome.termination is Termination.FLAG_REACHED_BACK_ROW
    assert end.outcome.winner is BLUE


@pytest.mark.parametrize(("placement", "square"), [
    ({"a10": "F", "j10": "f", "e4": "K"}, "a10"),
    ({"a10": "F", "e1": "f", "e4": "K"}, "e1"),
])
def test_jumbo2014_moving_flag_no_game_goes_on_with_a_flag_on_the_back_row(
        placement: dict[str, str], square: str) -> None:
    """Jumbo 2014, Moving Flag, sentence 2: a Flag moved onto the opponent's back row wins,
    so a game going on with a Flag there is no position of this game (docs/variants.md):
    `from_position` refuses it as the readers of saved positions do, naming the square."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    with pytest.raises(stratego.PositionError, match=f"Flag stands on {square}.*Moving Flag"):
        from_position(rules, placement)
    # under the base rules the Flag never moves, so nothing is won by standing there
    assert not from_position(JUMBO_2014, placement).is_over


def test_jumbo2014_moving_flag_a_piece_set_up_on_the_back_row_is_seen_as_no_flag() -> None:
    """Jumbo 2014, Moving Flag, sentence 2: a position going on with a piece on its
    opponent's back row holds no Flag there (`from_position` refuses one), so the
    opponent's view leaves Flag out of that piece's possible ranks, as it does for a piece
    that walked there; elsewhere a hidden piece may still be the Flag."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = position(rules, {"c1": "k", "j10": "f", "a1": "F", "e5": "M"}, to_move=BLUE)
    seen = view(state, RED)
    placed, flag = seen.piece_at("c1"), seen.piece_at("j10")
    assert placed is not None
    assert flag is not None
    assert Rank.FLAG not in placed.possible
    assert Rank.FLAG in flag.possible
    base = view(position(JUMBO_2014, {"c1": "k", "j10": "f", "a1": "F", "e5": "M"},
                         to_move=BLUE), RED).piece_at("c1")
    assert base is not None
    assert Rank.FLAG in base.possible


def test_jumbo2014_moving_flag_a_piece_that_walked_onto_the_back_row_is_seen_as_no_flag(
) -> None:
    """Jumbo 2014, Moving Flag, sentence 2: a Flag moved onto its opponent's back row wins,
    so a piece that walks there while the game goes on is no Flag: the opponent's view,
    which still allowed the Flag for it before the move (under Moving Flag the Flag moves),
    leaves it out afterwards."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = position(rules, {"c2": "k", "j10": "f", "a1": "F", "e5": "M", "h8": "m"},
                     to_move=BLUE)
    before = view(state, RED).piece_at("c2")
    assert before is not None
    assert Rank.FLAG in before.possible
    state = apply(state, "c2-c1")
    assert not state.is_over
    walked, flag = view(state, RED).piece_at("c1"), view(state, RED).piece_at("j10")
    assert walked is not None
    assert flag is not None
    assert Rank.FLAG not in walked.possible
    assert Rank.FLAG in flag.possible


def test_jumbo2014_moving_flag_other_pieces_on_back_row_do_not_win() -> None:
    """Jumbo 2014, Moving Flag: only the Flag wins by reaching the back row; a Flag on its
    own back row or in the middle does not end the game."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = position(rules, {"e9": "M", "a1": "F", "j10": "f", "a8": "t"})
    assert not apply(state, "e9-e10").is_over
    assert not apply(state, "a1-a2").is_over


def test_jumbo2014_moving_flag_capturing_the_flag_still_wins() -> None:
    """Jumbo 2014, Moving Flag, sentence 2: capturing the opponent's Flag still wins as well."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    end = apply(position(rules, {"e4": "X", "e5": "f", "a1": "F"}), "e4-e5")
    assert end.outcome is not None
    assert end.outcome.termination is Termination.FLAG_CAPTURED


def test_moving_flag_bombs_still_cannot_move() -> None:
    """Jumbo 2014, Moving Flag: the variant lets the Flag move, not the Bombs."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    assert targets(position(rules, {"e4": "B", "a1": "F", "j10": "f"}), "e4") == set()


def test_moving_flag_and_moving_bombs_together() -> None:
    """Jumbo 2014, Moving Bombs + Moving Flag: both may move, neither may strike."""
    rules = CLASSIC.with_variants(MOVING_FLAG, MOVING_BOMBS)
    state = position(rules, {"e4": "B", "f4": "F", "e5": "m", "f5": "g", "j10": "f"})
    assert targets(state, "e4") == {"e3", "d4"}
    assert targets(state, "f4") == {"f3", "g4"}


# ---------------------------------------------------------------------------
# Rescue (Hasbro 2009) / Rescuing Pieces (Jumbo 2014)

HASBRO_RESCUE = HASBRO_2009.with_variants(RESCUE)
JUMBO_RESCUE = JUMBO_2014.with_variants(RESCUE)
RESCUE_RULES = [HASBRO_RESCUE, JUMBO_RESCUE]
RESCUE_IDS = ["hasbro", "jumbo"]


def rescue_start(rules: Rules, captured: tuple[tuple[Player, Rank], ...] = ((RED, Rank.GENERAL),),
                 extra: dict[str, str] | None = None) -> GameState:
    """Red Marshal on a9 next to Blue's back row; Blue has a Sergeant on j7 to move with."""
    cells = {"a9": "M", "c9": "C", "j7": "t", "j10": "f"}
    cells.update(extra or {})
    return position(rules, cells, captured=captured)


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_moving_onto_back_row_offers_a_decision(rules: Rules) -> None:
    """Hasbro 2009, Rescue / Jumbo 2014, Rescuing Pieces: moving onto a square of the opponent's
    back row gives the option of rescuing: the same player decides, with rescues and "--"."""
    state = apply(rescue_start(rules), "a9-a10")
    assert state.pending_rescue is not None
    assert state.pending_rescue.rank is Rank.MARSHAL
    assert state.to_move is RED
    moves = legal_moves(state)
    assert moves[-1] == Move.parse("--")
    assert all(m.is_rescue for m in moves[:-1])
    assert Move.parse("G@b2") in moves
    assert {m.rescued for m in moves[:-1]} == {Rank.GENERAL}


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_after_winning_a_strike_on_the_back_row(rules: Rules) -> None:
    """Hasbro 2009, Rescue, sentence 1: moving onto a square of the opponent's back row includes
    a piece that wins a strike there and moves in (reading, docs/variants.md)."""
    state = apply(rescue_start(rules, extra={"a10": "s"}), "a9-a10")
    assert state.pending_rescue is not None


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_decision_is_optional(rules: Rules) -> None:
    """Hasbro 2009, Rescue, sentence 1 / Jumbo 2014, Rescuing Pieces, sentence 1: the rescue is
    optional; "--" declines it."""
    state = play(rescue_start(rules), "a9-a10", "--")
    assert state.to_move is BLUE
    assert state.pending_rescue is None
    assert state.rescues_made(RED) == 0
    assert [p.rank for p in state.captured(RED)] == [Rank.GENERAL]
    assert state.ply == 1


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_returns_the_piece_and_ends_the_turn(rules: Rules) -> None:
    """Hasbro 2009, Rescue, sentences 2-3 / Jumbo 2014, Rescuing Pieces, sentence 3: the piece goes
    back on the board and the turn is over."""
    start = rescue_start(rules)
    lost = start.captured(RED)[0]
    state = play(start, "a9-a10", "G@b2")
    assert state.piece_at("b2") == lost  # the same piece comes back
    assert state.square_of(lost) == Square.parse("b2")
    assert state.captured(RED) == ()
    assert state.to_move is BLUE
    assert state.ply == 1
    assert state.rescues_made(RED) == 1
    assert state.is_revealed(lost)  # the opponent held it: its rank is public


def test_hasbro2009_rescue_place_on_your_half_its_four_rows() -> None:
    """Hasbro 2009, Rescue, sentence 3: an unoccupied square of the player's half. The same
    book's To Start the Game 4 fills "their half of the board" with one piece a square, 10
    per row and 4 rows deep, the two middle rows left empty: so the half is the four home
    rows, and the lake row is no one's. The geometric half (`RescueZone.HALF`, five rows,
    lakes excluded) stays an option."""
    state = apply(rescue_start(HASBRO_RESCUE), "a9-a10")
    squares = {str(m.to) for m in legal_moves(state) if m.is_rescue}
    assert HASBRO_RESCUE.rescue.zone is RescueZone.HOME_ROWS
    assert len(squares) == 40
    assert {"a1", "j4", "e4"} <= squares
    assert not squares & {"a5", "e5", "c5", "a6"}
    geometric = attrs.evolve(HASBRO_RESCUE, rescue=attrs.evolve(HASBRO_RESCUE.rescue,
                                                                 zone=RescueZone.HALF))
    state = apply(rescue_start(geometric), "a9-a10")
    squares = {str(m.to) for m in legal_moves(state) if m.is_rescue}
    assert len(squares) == 46  # 50 squares of ranks 1-5 less 4 lake squares
    assert {"a5", "b5", "e5", "f5", "i5", "j5", "a1", "j4"} <= squares
    assert not squares & {"c5", "d5", "g5", "h5", "a6", "e6"}


def test_jumbo2014_rescuing_pieces_place_in_first_four_rows() -> None:
    """Jumbo 2014, Rescuing Pieces, sentence 2: an unoccupied square of the first four rows."""
    state = apply(rescue_start(JUMBO_RESCUE), "a9-a10")
    squares = {str(m.to) for m in legal_moves(state) if m.is_rescue}
    assert JUMBO_RESCUE.rescue.zone is RescueZone.HOME_ROWS
    assert len(squares) == 40
    assert "a5" not in squares
    assert "j4" in squares
    with pytest.raises(IllegalMoveError, match="a5"):
        apply(state, "G@a5")


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_only_on_unoccupied_squares(rules: Rules) -> None:
    """Hasbro 2009, Rescue, sentence 3: only unoccupied squares; own and enemy pieces block."""
    state = apply(rescue_start(rules, extra={"b2": "F", "c2": "t"}), "a9-a10")
    squares = {str(m.to) for m in legal_moves(state) if m.is_rescue}
    assert "b2" not in squares
    assert "c2" not in squares
    assert "d2" in squares
    assert not stratego.is_legal(state, "G@b2")


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_any_captured_piece_may_be_picked(rules: Rules) -> None:
    """Hasbro 2009, Rescue, sentence 2: any of the player's own captured pieces may be picked."""
    captured = ((RED, Rank.SPY), (RED, Rank.MAJOR), (RED, Rank.SCOUT), (BLUE, Rank.GENERAL))
    state = apply(rescue_start(rules, captured), "a9-a10")
    ranks = {m.rescued for m in legal_moves(state) if m.is_rescue}
    assert ranks == {Rank.SPY, Rank.MAJOR, Rank.SCOUT}  # never the opponent's General


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_scouts_cannot_make_a_rescue(rules: Rules) -> None:
    """Hasbro 2009, Rescue Restriction 1 / Jumbo 2014, Rescuing Pieces Restriction 3: a Scout
    arriving on the back row makes no rescue. Its owner still gets the decision, with
    declining as the only move, so that the decision shows nothing of the piece's rank
    (docs/hidden-information.md, "Rescue")."""
    for start, move in (("e8", "e8-e10"), ("e9", "e9-e10")):
        state = apply(rescue_start(rules, extra={start: "X"}), move)
        assert state.pending_rescue is not None
        assert state.pending_rescue.rank is Rank.SCOUT
        assert legal_moves(state) == (Move.parse("--"),)
        reason = explain_illegal(state, "N@b2")
        assert reason is not None
        assert "Scout" in reason
        assert "cannot make a rescue" in reason
        assert apply(state, "--").to_move is BLUE


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_a_bomb_cannot_be_rescued(rules: Rules) -> None:
    """Hasbro 2009, Rescue Restriction 2 / Jumbo 2014, Rescuing Pieces Restriction 2: Bombs are
    never rescued."""
    state = apply(rescue_start(rules, ((RED, Rank.BOMB), (RED, Rank.MINER))), "a9-a10")
    ranks = {m.rescued for m in legal_moves(state) if m.is_rescue}
    assert ranks == {Rank.MINER}
    reason = explain_illegal(state, "B@b2")
    assert reason is not None
    assert "Bomb cannot be rescued" in reason


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_no_decision_when_only_bombs_or_nothing_captured(rules: Rules) -> None:
    """Hasbro 2009, Rescue: with nothing that may be rescued there is no option to offer."""
    for captured in ((), ((RED, Rank.BOMB), (RED, Rank.BOMB)), ((BLUE, Rank.MAJOR),)):
        state = apply(rescue_start(rules, captured), "a9-a10")
        assert state.pending_rescue is None
        assert state.to_move is BLUE


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_each_player_only_two_rescues(rules: Rules) -> None:
    """Hasbro 2009, Rescue Restriction 3 / Jumbo 2014, Rescuing Pieces Restriction 1: at most two
    rescues a player."""
    captured = ((RED, Rank.MAJOR), (RED, Rank.CAPTAIN), (RED, Rank.LIEUTENANT))
    state = rescue_start(rules, captured, extra={"e9": "G"})
    state = play(state, "a9-a10", "J@a2", "j7-j6", "c9-c10", "K@b2", "j6-i6")
    assert state.rescues_made(RED) == 2
    state = apply(state, "e9-e10")  # a third, fresh piece
    assert state.pending_rescue is None
    assert state.to_move is BLUE
    assert [p.rank for p in state.captured(RED)] == [Rank.LIEUTENANT]


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_same_piece_cannot_make_both_rescues(rules: Rules) -> None:
    """Hasbro 2009, Rescue Restriction 4 / Jumbo 2014, Rescuing Pieces Restriction 4: the two
    rescues are made by two different pieces (that piece, by identity)."""
    captured = ((RED, Rank.MAJOR), (RED, Rank.CAPTAIN))
    state = play(rescue_start(rules, captured), "a9-a10", "J@a2", "j7-j6")
    again = apply(state, "a10-b10")  # the Marshal reaches another back-row square
    assert again.pending_rescue is None
    assert again.to_move is BLUE
    other = apply(state, "c9-c10")  # a different piece still may
    assert other.pending_rescue is not None
    assert other.pending_rescue.rank is Rank.COLONEL


@pytest.mark.parametrize("rules", RESCUE_RULES, ids=RESCUE_IDS)
def test_rescue_a_piece_that_declined_may_rescue_later(rules: Rules) -> None:
    """Hasbro 2009, Rescue Restrictions count rescues made; declining makes none, and every move
    onto a back-row square (also along it) is a new arrival (readings, docs/variants.md)."""
    state = play(rescue_start(rules), "a9-a10", "--", "j7-j6", "a10-b10")
    assert state.pending_rescue is not None
    assert state.pending_rescue.rank is Rank.MARSHAL


def test_rescue_identity_survives_capture_and_rescue() -> None:
    """Hasbro 2009, Rescue Restriction 4 (two rescues, two different pieces):
    the piece is tracked by identity, so a rescuer that is captured and later rescued still
    counts as having rescued. With two rescues a player this only shows with a larger
    `RescueRule.max_rescues`, which we set here to isolate the identity rule."""
    rules = attrs.evolve(HASBRO_RESCUE, rescue=attrs.evolve(HASBRO_RESCUE.rescue, max_rescues=3))
    state = rescue_start(rules, ((RED, Rank.MAJOR),), extra={"b8": "m"})
    state = play(state, "a9-a10", "J@a2", "b8-b9", "a10-b10", "b9-b10")  # the Marshals trade
    assert [p.rank for p in state.captured(RED)] == [Rank.MARSHAL]
    state = play(state, "c9-c10", "M@a4")  # the Colonel rescues the Marshal
    state = play(state, "j7-j6", "a4-a5", "j6-i6", "a5-a6", "i6-i7", "a6-a7", "i7-j7", "a7-a8",
                 "j7-j6", "a8-a9", "j6-i6", "a9-a10")
    assert rank_of(state, "a10") is Rank.MARSHAL
    assert state.rescues_made(RED) == 2
    assert state.pending_rescue is None  # this Marshal made a rescue before its capture


def test_silent_defense_rescue_a_spent_rescuer_that_came_back_may_only_decline() -> None:
    """Hasbro 2009, Rescue Restriction 4 (one piece cannot make both rescues) with Silent
    Defense sentence 3 (captured pieces stay face down with their owner): the opponent
    cannot tell which piece of the pile came back, so the decision comes on public facts
    (as for a Scout), and the owner of a piece that made a rescue before its capture may
    only decline. Blue's view is the one it has when a fresh piece arrives."""
    base = HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE)
    rules = attrs.evolve(base, rescue=attrs.evolve(base.rescue, max_rescues=3))
    state = rescue_start(rules, ((RED, Rank.MAJOR), (RED, Rank.CAPTAIN)), extra={"b8": "m"})
    state = play(state, "a9-a10", "J@a2", "b8-b9", "a10-b10", "b9-b10")  # the Marshals trade
    state = play(state, "c9-c10", "M@a4")  # the Colonel rescues the Marshal (hidden rank)
    assert [p.rank for p in state.captured(RED)] == [Rank.CAPTAIN]
    state = play(state, "j7-j6", "a4-a5", "j6-i6", "a5-a6", "i6-i7", "a6-a7", "i7-j7", "a7-a8",
                 "j7-j6", "a8-a9", "j6-i6", "a9-a10")
    assert rank_of(state, "a10") is Rank.MARSHAL
    assert state.pending_rescue is not None  # offered: Blue cannot tell it made a rescue
    assert legal_moves(state) == (stratego.Move.parse("--"),)
    reason = stratego.explain_illegal(state, "K@a1")
    assert reason is not None
    assert "made a rescue already" in reason
    with pytest.raises(stratego.IllegalMoveError, match="may only decline"):
        apply(state, "K@a1")
    declined = apply(state, "--")
    assert declined.rescues_made(RED) == 2


def test_silent_defense_rescue_a_captured_rescuer_leaves_the_mark_and_stays_spent() -> None:
    """Hasbro 2009, Rescue Restriction 4 (the same playing piece cannot make both rescues)
    is about the piece, whatever happens to it; Silent Defense sentence 3 (players keep their
    own captured pieces) hides which piece of the pile comes back. So a rescuer that is
    captured leaves the public record of rescuers (`rescues[2]`) while the count of rescues
    made (Restriction 3) stays, and once it is rescued and arrives again its owner may only
    decline: the record counts two rescues by two pieces, with one piece marked."""
    base = HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE)
    rules = attrs.evolve(base, rescue=attrs.evolve(base.rescue, max_rescues=3))
    state = rescue_start(rules, ((RED, Rank.MAJOR), (RED, Rank.CAPTAIN)), extra={"b8": "m"})
    state = play(state, "a9-a10", "J@a2")  # the Marshal rescues the Major
    marshal = state.piece_at("a10")
    assert marshal is not None
    assert state.rescues[2] == 1 << marshal.id
    state = play(state, "b8-b9", "a10-b10", "b9-b10")  # the Marshals trade
    assert marshal in state.captured(RED)
    assert state.rescues_made(RED) == 1
    assert state.rescues[2] == 0
    state = play(state, "c9-c10", "M@a4")  # the Colonel rescues the Marshal
    colonel = state.piece_at("c10")
    assert colonel is not None
    assert state.rescues_made(RED) == 2
    assert state.rescues[2] == 1 << colonel.id
    state = play(state, "j7-j6", "a4-a5", "j6-i6", "a5-a6", "i6-i7", "a6-a7", "i7-j7", "a7-a8",
                 "j7-j6", "a8-a9", "j6-i6", "a9-a10")
    assert state.piece_at("a10") == marshal
    assert legal_moves(state) == (stratego.Move.parse("--"),)  # spent: may only decline


def test_rescue_no_decision_when_the_zone_is_full() -> None:
    """Jumbo 2014, Rescuing Pieces, sentence 2 (an unoccupied square of the first four rows):
    if none is left there is nowhere to place a piece and no decision, and so under the
    Hasbro 2009 zone (its "half", four rows deep); the geometric half (`RescueZone.HALF`)
    still has rank 5."""
    ranks = list(stratego.rules.STANDARD_ARMY.ranks())
    ranks.remove(Rank.MARSHAL)
    ranks.remove(Rank.GENERAL)
    home = list(stratego.board.home_rows(RED, 4))
    cells = {sq.name: rank.symbol for sq, rank in zip(home, ranks, strict=False)}
    cells.update({home[38].name: "b", home[39].name: "b", "a9": "M", "j10": "f", "j7": "t"})
    assert len(cells) == 43
    geometric = attrs.evolve(HASBRO_RESCUE, rescue=attrs.evolve(HASBRO_RESCUE.rescue,
                                                                 zone=RescueZone.HALF))
    for rules, decision in ((JUMBO_RESCUE, False), (HASBRO_RESCUE, False), (geometric, True)):
        state = apply(position(rules, cells, captured=((RED, Rank.GENERAL),)), "a9-a10")
        assert (state.pending_rescue is not None) is decision


def test_rescue_miner_defusing_a_bomb_on_back_row_rescues_exploding_does_not() -> None:
    """Jumbo 2014, Rescuing Pieces with Exploding Bombs: only a piece that ends on the back row."""
    rules = JUMBO_2014.with_variants(RESCUE, EXPLODING_BOMBS)
    cells = {"a9": "N", "b9": "G", "a10": "b", "b10": "b", "j10": "f", "j7": "t"}
    captured = ((RED, Rank.MAJOR),)
    miner = apply(position(rules, cells, captured=captured), "a9-a10")
    assert miner.pending_rescue is not None
    general = apply(position(rules, cells, captured=captured), "b9-b10")
    assert general.pending_rescue is None
    assert general.piece_at("b10") is None


def test_rescue_moving_bomb_may_rescue() -> None:
    """Jumbo 2014, Rescuing Pieces + Moving Bombs: only Scouts are barred from rescuing."""
    rules = JUMBO_2014.with_variants(RESCUE, MOVING_BOMBS)
    state = apply(position(rules, {"a9": "B", "j10": "f", "j7": "t"},
                           captured=((RED, Rank.MAJOR),)), "a9-a10")
    assert state.pending_rescue is not None
    assert state.pending_rescue.rank is Rank.BOMB


def test_rescue_moving_flag_reaching_back_row_wins_instead() -> None:
    """Jumbo 2014, Moving Flag + Rescuing Pieces: the Flag's arrival ends the game."""
    rules = JUMBO_2014.with_variants(RESCUE, MOVING_FLAG)
    state = apply(position(rules, {"a9": "F", "j10": "f", "j7": "t"},
                           captured=((RED, Rank.MAJOR),)), "a9-a10")
    assert state.outcome is not None
    assert state.outcome.termination is Termination.FLAG_REACHED_BACK_ROW


def test_rescue_ultimate_lightning_captain_two_step_arrival() -> None:
    """Jumbo 2014, Rescuing Pieces + Ultimate Lightning: a Captain's two-square move counts."""
    rules = JUMBO_2014.with_variants(RESCUE, ULTIMATE_LIGHTNING)
    state = apply(position(rules, {"a8": "K", "j10": "f", "j7": "t"},
                           captured=((RED, Rank.SCOUT),)), "a8-a10")
    assert state.pending_rescue is not None
    assert len(legal_moves(state)) == 40 + 1


def test_rescue_decision_blocks_ordinary_moves() -> None:
    """Common brief: during the decision only rescues and "--" are legal."""
    state = apply(rescue_start(HASBRO_RESCUE), "a9-a10")
    reason = explain_illegal(state, "c9-c10")
    assert reason is not None
    assert "Rescue" in reason
    with pytest.raises(IllegalMoveError):
        apply(state, "c9-c10")
    no_decision = rescue_start(HASBRO_RESCUE)
    reason = explain_illegal(no_decision, "G@b2")
    assert reason is not None
    assert "no Rescue" in reason


def test_rescue_blue_rescues_onto_its_own_half() -> None:
    """Hasbro 2009, Rescue for Blue: Blue's half is its four rows, ranks 7-10."""
    state = position(HASBRO_RESCUE, {"j2": "m", "a1": "F", "a4": "T"}, to_move=BLUE,
                     captured=((BLUE, Rank.SPY),))
    state = apply(state, "j2-j1")
    squares = {m.to.row for m in legal_moves(state) if m.is_rescue}  # type: ignore[union-attr]
    assert squares == {6, 7, 8, 9}
    state = apply(state, "S@a7")
    assert state.piece_at("a7") is not None
    assert state.to_move is RED


def test_rescue_decision_is_part_of_the_turn_for_the_ply_limit() -> None:
    """A Rescue decision belongs to the turn that earned it (Hasbro 2009, Rescue, sentence 3:
    the turn is over after the placement), so a ply limit waits for it."""
    rules = HASBRO_RESCUE.with_ply_limit(1)
    state = apply(rescue_start(rules), "a9-a10")
    assert not state.is_over
    assert state.ply == 0
    final = apply(state, "G@b2")
    assert final.outcome is not None
    assert final.outcome.termination is Termination.PLY_LIMIT
    assert final.piece_at("b2") is not None


def test_without_rescue_no_decision() -> None:
    """Control: without the variant, reaching the back row is an ordinary move."""
    state = apply(rescue_start(HASBRO_2009), "a9-a10")
    assert state.pending_rescue is None
    assert state.to_move is BLUE


def test_rescue_flag_capture_on_back_row_ends_the_game_without_decision() -> None:
    """Hasbro 2009, Rescue with To End the Game: capturing the Flag on the back row ends the game;
    no Rescue decision is pending afterwards, and the ply count advances as for any move.
    (Regression: the engine once left the decision pending on the finished game.)"""
    state = apply(rescue_start(HASBRO_RESCUE, extra={"a10": "f", "j10": "b"}), "a9-a10")
    assert state.outcome is not None
    assert state.outcome.termination is Termination.FLAG_CAPTURED
    assert state.pending_rescue is None
    assert state.ply == 1
    assert state.to_move is BLUE


# ---------------------------------------------------------------------------
# Silent Defense (Hasbro 2009, Jumbo 2014)

SILENT = [HASBRO_2009.with_variants(SILENT_DEFENSE), JUMBO_2014.with_variants(SILENT_DEFENSE)]
SILENT_IDS = ["hasbro", "jumbo"]


def strike(rules: Rules, attacker: str, defender: str) -> tuple[GameState, int, int]:
    """Red `attacker` on e4 strikes Blue `defender` on e5; returns state and the piece ids."""
    state = position(rules, {"e4": attacker, "e5": defender, "a1": "F", "j10": "f"})
    a = state.piece_at("e4")
    d = state.piece_at("e5")
    assert a is not None
    assert d is not None
    return apply(state, "e4-e5"), a.id, d.id


@pytest.mark.parametrize("rules", SILENT, ids=SILENT_IDS)
def test_silent_defense_attacker_declares_its_rank(rules: Rules) -> None:
    """Hasbro 2009 / Jumbo 2014, Silent Defense: the attacker declares its rank."""
    for defender in ("s", "j", "m"):
        state, a, _ = strike(rules, "J", defender)
        assert state.known_ranks(a) == {Rank.MAJOR}


@pytest.mark.parametrize("rules", SILENT, ids=SILENT_IDS)
def test_silent_defense_winning_defender_stays_hidden(rules: Rules) -> None:
    """Hasbro 2009, Silent Defense, sentence 2: the defender keeps its rank to itself: a
    defender that beats a Major is only known to be stronger than a Major (or a Bomb)."""
    state, _, d = strike(rules, "J", "m")
    assert rank_of(state, "e5") is Rank.MARSHAL
    assert state.known_ranks(d) == {Rank.COLONEL, Rank.GENERAL, Rank.MARSHAL, Rank.BOMB}
    assert not state.is_revealed(d)


@pytest.mark.parametrize("rules", SILENT, ids=SILENT_IDS)
def test_silent_defense_the_defenders_owner_still_sees_its_own_rank(rules: Rules) -> None:
    """Hasbro 2009 / Jumbo 2014, Silent Defense: the defender keeps its rank from the
    *opponent*; its owner knows its own piece. In Blue's view the strike its Major
    defended names the Major, while Red's view of the same strike does not."""
    state, _, d = strike(rules, "K", "j")
    assert rank_of(state, "e5") is Rank.MAJOR
    blue, red = view(state, BLUE).history[-1], view(state, RED).history[-1]
    assert blue.defender_rank is Rank.MAJOR
    assert red.defender_rank is None
    assert blue.rank is red.rank is Rank.CAPTAIN
    assert blue.defender == red.defender == d


@pytest.mark.parametrize("rules", SILENT, ids=SILENT_IDS)
def test_silent_defense_losing_defender_stays_hidden(rules: Rules) -> None:
    """Hasbro 2009, Silent Defense, sentence 3 (each player keeps its own captured pieces): a
    captured defender's rank stays hidden; only "lower than the attacker" is known."""
    state, _, d = strike(rules, "J", "t")
    assert state.known_ranks(d) == {Rank.FLAG, Rank.SPY, Rank.SCOUT, Rank.MINER, Rank.SERGEANT,
                                    Rank.LIEUTENANT, Rank.CAPTAIN}
    assert Rank.SERGEANT in {p.rank for p in state.captured(BLUE)}  # the full state knows


@pytest.mark.parametrize("rules", SILENT, ids=SILENT_IDS)
def test_silent_defense_tie_reveals_the_rank(rules: Rules) -> None:
    """Hasbro 2009, Silent Defense: both pieces removed means the same rank (it is implied)."""
    state, _, d = strike(rules, "J", "j")
    assert state.known_ranks(d) == {Rank.MAJOR}


@pytest.mark.parametrize("rules", SILENT, ids=SILENT_IDS)
def test_silent_defense_scout_strike_reveals_defender(rules: Rules) -> None:
    """Hasbro 2009 / Jumbo 2014, Silent Defense, the Scout exception (last sentence): when a Scout
    strikes, the defender names its rank."""
    state, a, d = strike(rules, "X", "m")
    assert state.known_ranks(d) == {Rank.MARSHAL}
    assert state.known_ranks(a) == {Rank.SCOUT}


@pytest.mark.parametrize("rules", [*SILENT, HASBRO_2009, JUMBO_2014],
                         ids=[*SILENT_IDS, "hasbro-open", "jumbo-open"])
def test_the_disclosure_rule_is_what_a_strike_records(rules: Rules) -> None:
    """Silent Defense and its Scout exception, asked through `Disclosure.answers`: a
    General struck by each rank that may strike is named exactly when the rule says the
    defender answers (Marshal, General and Spy left out: a result alone names it then)."""
    for attacker in (Rank.COLONEL, Rank.MAJOR, Rank.CAPTAIN, Rank.LIEUTENANT,
                     Rank.SERGEANT, Rank.MINER, Rank.SCOUT):
        state, _, d = strike(rules, attacker.symbol, "g")
        named = state.known_ranks(d) == {Rank.GENERAL}
        assert named is rules.disclosure.answers(attacker), attacker
        assert named is (not rules.disclosure.silent_defense or attacker is Rank.SCOUT)


def test_silent_defense_scout_long_strike_reveals_defender() -> None:
    """Jumbo 2014, Silent Defense exception with the Jumbo Scout that moves and strikes."""
    rules = JUMBO_2014.with_variants(SILENT_DEFENSE)
    state = position(rules, {"e2": "X", "e8": "c", "a1": "F", "j10": "f"})
    d = state.piece_at("e8")
    assert d is not None
    after = apply(state, "e2-e8")
    assert after.known_ranks(d) == {Rank.COLONEL}


@pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda r: r.edition)
def test_without_silent_defense_defender_is_revealed(edition: Rules) -> None:
    """Control: the base rules name both ranks in a strike."""
    state, _, d = strike(edition, "J", "m")
    assert state.known_ranks(d) == {Rank.MARSHAL}


def test_silent_defense_with_exploding_bombs_and_aggressor_advantage() -> None:
    """Jumbo 2014, Silent Defense composed: what is known follows the composed strike rule."""
    rules = JUMBO_2014.with_variants(SILENT_DEFENSE, EXPLODING_BOMBS, AGGRESSOR_ADVANTAGE)
    state, _, d = strike(rules, "J", "b")  # both go: the defender was a Bomb
    assert state.known_ranks(d) == {Rank.BOMB}
    state, _, d = strike(rules, "J", "j")  # attacker wins ties: defender is Major or lower
    assert state.known_ranks(d) == {Rank.FLAG, Rank.SPY, Rank.SCOUT, Rank.MINER, Rank.SERGEANT,
                                    Rank.LIEUTENANT, Rank.CAPTAIN, Rank.MAJOR}


def test_silent_defense_spy_striking_marshal() -> None:
    """Hasbro 2009, Silent Defense: a Spy that wins learns only: Marshal or Flag."""
    rules = HASBRO_2009.with_variants(SILENT_DEFENSE)
    state = position(rules, {"e4": "S", "e5": "m", "a1": "F", "j10": "f", "j7": "t"})
    d = state.piece_at("e5")
    assert d is not None
    state = apply(state, "e4-e5")
    # "Consistent with the result" includes the Flag; that it was not (the game goes on) is
    # inference, which `known_ranks` leaves to the caller.
    assert state.known_ranks(d) == {Rank.FLAG, Rank.MARSHAL}
    assert not state.is_over


# ---------------------------------------------------------------------------
# Army variants: Stratego Barrage, Stratego Duel, Ultimate Lightning (Jumbo 2014)

BARRAGE_ARMY = {Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.MINER: 1, Rank.SCOUT: 2, Rank.SPY: 1,
                Rank.BOMB: 1, Rank.FLAG: 1}
DUEL_ARMY = {**BARRAGE_ARMY, Rank.MINER: 2, Rank.BOMB: 2}
ULTIMATE_ARMY = {Rank.FLAG: 1, Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.COLONEL: 1, Rank.MAJOR: 1,
                 Rank.CAPTAIN: 2, Rank.LIEUTENANT: 2, Rank.SERGEANT: 2, Rank.MINER: 2,
                 Rank.SCOUT: 4, Rank.SPY: 1, Rank.BOMB: 2}


@pytest.mark.parametrize(
    ("variant", "army", "size"),
    [(BARRAGE, BARRAGE_ARMY, 8), (DUEL, DUEL_ARMY, 10), (ULTIMATE_LIGHTNING, ULTIMATE_ARMY, 20)],
    ids=["barrage", "duel", "ultimate-lightning"],
)
@pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda r: r.edition)
def test_jumbo2014_army_variants_piece_counts(variant: Variant, army: dict[Rank, int], size: int,
                                              edition: Rules) -> None:
    """Jumbo 2014, Stratego Barrage (8 pieces), Stratego Duel (Barrage plus a Bomb and a Miner: 10),
    Ultimate Lightning Stratego (20 pieces): the printed piece lists."""
    rules = edition.with_variants(variant)
    assert rules.army == Army.of(army)
    assert rules.army.size == size
    assert rules.setup.depth == 4
    assert not rules.setup.fill


@pytest.mark.parametrize("variant", [BARRAGE, DUEL, ULTIMATE_LIGHTNING], ids=str)
def test_jumbo2014_army_variants_set_up_anywhere_in_four_rows(variant: Variant) -> None:
    """Jumbo 2014, Barrage (setup paragraph): the pieces go anywhere in the 40 squares of the first
    four rows; Duel is set up as Barrage; Ultimate Lightning (first paragraph) likewise."""
    rules = HASBRO_2009.with_variants(variant)
    ranks = rules.army.ranks()
    squares = list(stratego.board.home_rows(RED, 4))
    # The back rows filled from a1, gaps everywhere else.
    setup = Setup(RED, tuple(sorted(zip(squares, ranks, strict=False))))
    assert setup_problems(rules, setup) == []
    forward = Setup(RED, tuple(sorted(zip(squares[40 - len(ranks):], ranks, strict=True))))
    assert setup_problems(rules, forward) == []
    too_far = dict(setup.placement)
    too_far[Square.parse("a5")] = too_far.pop(Square.parse("a1"))
    problems = setup_problems(rules, Setup(RED, tuple(sorted(too_far.items()))))
    assert any("a5" in p for p in problems)


def test_jumbo2014_barrage_flag_in_a_corner_surrounded() -> None:
    """Jumbo 2014, Barrage, setup paragraph: the book's example, the Flag in a corner with the
    other pieces around it, is a valid setup (the book warns it is easy to find)."""
    rules = JUMBO_2014.with_variants(BARRAGE)
    setup = Setup.from_mapping(RED, {"a1": "F", "b1": "B", "a2": "M", "b2": "G", "c1": "N",
                                     "a3": "X", "c2": "X", "b3": "S"})
    assert setup_problems(rules, setup) == []


def test_jumbo2014_duel_flag_in_a_corner_between_two_bombs() -> None:
    """Jumbo 2014, Stratego Duel, sentence 3: with two Bombs the Flag can sit in a corner
    between them, its only two neighbours."""
    rules = JUMBO_2014.with_variants(DUEL)
    setup = Setup.from_mapping(BLUE, {"j10": "F", "i10": "B", "j9": "B", "e7": "M", "f7": "G",
                                      "a7": "N", "b7": "N", "c7": "X", "d7": "X", "g7": "S"})
    assert setup_problems(rules, setup) == []
    state = stratego.new_game(rules, random_setup(rules, RED, 5), setup)
    assert {p.rank for p in (state.piece_at("i10"), state.piece_at("j9")) if p} == {Rank.BOMB}


@pytest.mark.parametrize("variant", [BARRAGE, DUEL, ULTIMATE_LIGHTNING], ids=str)
def test_jumbo2014_army_variants_exact_army_required(variant: Variant) -> None:
    """Jumbo 2014, army variants: each player has exactly the printed pieces."""
    rules = JUMBO_2014.with_variants(variant)
    setup = random_setup(rules, BLUE, 3)
    assert setup_problems(rules, setup) == []
    fewer = dict(setup.placement)
    fewer.pop(next(iter(fewer)))
    assert setup_problems(rules, Setup(BLUE, tuple(sorted(fewer.items()))))


def test_jumbo2014_barrage_all_other_rules_the_same() -> None:
    """Jumbo 2014, Barrage, sentence 2: other rules unchanged: only army and setup change."""
    rules = JUMBO_2014.with_variants(BARRAGE)
    assert rules.movement == JUMBO_2014.movement
    assert rules.strike == JUMBO_2014.strike
    assert rules.repetition == JUMBO_2014.repetition


@pytest.mark.parametrize(("a", "b"), list(itertools.permutations(
    [BARRAGE, DUEL, ULTIMATE_LIGHTNING], 2)), ids=str)
def test_army_variants_exclude_each_other(a: Variant, b: Variant) -> None:
    """Two army variants contradict each other: RulesError naming both."""
    with pytest.raises(RulesError) as info:
        JUMBO_2014.with_variants(a, b)
    assert str(a) in str(info.value)
    assert str(b) in str(info.value)
    with pytest.raises(RulesError) as info:
        JUMBO_2014.with_variants(a).with_variants(b)
    assert str(a) in str(info.value)
    assert str(b) in str(info.value)
    with pytest.raises(RulesError):
        by_name(f"jumbo-2014+{a}+{b}")


# ---------------------------------------------------------------------------
# Ultimate Lightning Captains (Jumbo 2014)

UL = JUMBO_2014.with_variants(ULTIMATE_LIGHTNING)


def test_jumbo2014_ultimate_lightning_captain_moves_two_squares_straight_or_turning() -> None:
    """Jumbo 2014, Ultimate Lightning, Moving and attacking with the Captain, sentence 1: two
    squares, straight on or turning after the first; one square is still a move."""
    state = position(UL, {"e2": "K", "j10": "f"})
    assert targets(state, "e2") == {"e3", "e1", "d2", "f2",  # one square
                                    "e4", "c2", "g2",  # straight
                                    "d3", "f3", "d1", "f1"}  # turning


def test_jumbo2014_ultimate_lightning_captain_first_step_must_be_empty() -> None:
    """Jumbo 2014, Ultimate Lightning: a Captain cannot pass through an occupied square."""
    state = position(UL, {"e2": "K", "e3": "T", "d2": "T", "f2": "t", "j10": "f"})
    assert targets(state, "e2") == {"e1", "f2", "d1", "f1"}
    reason = explain_illegal(state, "e2-e4")
    assert reason is not None
    assert "empty square" in reason


def test_jumbo2014_ultimate_lightning_captain_strikes_on_second_step() -> None:
    """Jumbo 2014, Ultimate Lightning, Captain sentence 2: like a Scout, a Captain may move and
    strike in one turn: a strike two squares away, through an empty square."""
    state = position(UL, {"e2": "K", "e4": "t", "g2": "s", "d3": "x", "j10": "f"})
    assert {"e4", "g2", "d3"} <= targets(state, "e2")
    after = apply(state, "e2-e4")
    assert rank_of(after, "e4") is Rank.CAPTAIN
    assert rank_of(after, "e2") is None


def test_jumbo2014_ultimate_lightning_captain_attacks_only_once() -> None:
    """Jumbo 2014, Ultimate Lightning, Captain sentence 3 (one strike a turn): a strike on the
    first step ends the move, so the square behind an enemy is out of reach."""
    state = position(UL, {"e2": "K", "e3": "t", "j10": "f"})
    moves = targets(state, "e2")
    assert "e3" in moves
    assert "e4" not in moves
    after = apply(state, "e2-e3")
    assert rank_of(after, "e3") is Rank.CAPTAIN
    assert after.to_move is BLUE


def test_jumbo2014_ultimate_lightning_captain_cannot_end_where_it_started() -> None:
    """Jumbo 2014, Ultimate Lightning: two spaces are a move; e2-e3-e2 is no move at all."""
    state = position(UL, {"e2": "K", "j10": "f"})
    assert "e2" not in targets(state, "e2")


def test_jumbo2014_ultimate_lightning_captain_not_through_lakes() -> None:
    """Jumbo 2014 base rules (Moving: no piece enters a lake) apply to the Captain's steps too."""
    state = position(UL, {"c4": "K", "j10": "f"})
    assert targets(state, "c4") == {"c3", "b4", "d4", "c2", "a4", "e4", "b5", "b3", "d3"}


def test_ultimate_lightning_captain_moves_and_strikes_even_in_hasbro_2009() -> None:
    """Jumbo 2014, Ultimate Lightning gives Captains move-and-strike themselves, so it holds
    composed with an edition whose Scouts may not (reading, docs/variants.md)."""
    rules = HASBRO_2009.with_variants(ULTIMATE_LIGHTNING)
    state = position(rules, {"e2": "K", "e4": "t", "e1": "X", "e6": "t", "j10": "f"})
    assert "e4" in targets(state, "e2")
    assert "e6" not in targets(state, "e1")  # the Hasbro Scout still may not


def test_ultimate_lightning_captain_long_move_reveals_what_it_can() -> None:
    """A two-square straight move could be a Scout or a Captain; a turning one only a Captain."""
    state = position(UL, {"e2": "K", "f2": "K", "j10": "f"})
    straight = apply(state, "e2-e4")
    captain = state.piece_at("e2")
    assert captain is not None
    assert straight.known_ranks(captain) == {Rank.SCOUT, Rank.CAPTAIN}
    turning = apply(state, "e2-d3")
    assert turning.known_ranks(captain) == {Rank.CAPTAIN}


def test_ultimate_lightning_captain_two_step_shuttle_counts() -> None:
    """Milton Bradley 1961, Movement 10 (back-and-forth rule) with Ultimate Lightning: a Captain's
    two-square moves between the same two squares count like any other piece's moves."""
    rules = MILTON_BRADLEY_1961.with_variants(ULTIMATE_LIGHTNING)
    state = position(rules, {"e2": "K", "j7": "t", "j10": "f", "a1": "F"})
    state = play(state, "e2-e4", "j7-j6", "e4-e2", "j6-i6")
    assert not stratego.is_legal(state, "e2-e4")
    assert stratego.is_legal(state, "e2-d3")


def test_ultimate_lightning_explain_illegal_names_back_and_forth_rule() -> None:
    """Why a Captain's two-square move is illegal names the rule that forbids it: here the
    back-and-forth rule, not the Captain's path (its first square is empty).
    (Regression: `explain_illegal` once blamed the path.)"""
    rules = MILTON_BRADLEY_1961.with_variants(ULTIMATE_LIGHTNING)
    state = position(rules, {"e2": "K", "j7": "t", "j10": "f", "a1": "F"})
    state = play(state, "e2-e4", "j7-j6", "e4-e2", "j6-i6")
    reason = explain_illegal(state, "e2-e4")
    assert reason is not None
    assert "back and forth" in reason


def test_without_ultimate_lightning_captain_moves_one_square() -> None:
    """Control: in every base edition a Captain moves one square."""
    for edition in ALL_EDITIONS:
        state = position(edition, {"e2": "K", "j10": "f"})
        assert targets(state, "e2") == {"e3", "e1", "d2", "f2"}


def test_ultimate_lightning_other_pieces_unchanged() -> None:
    """Jumbo 2014, Ultimate Lightning: apart from the listed adjustments, the original rules."""
    state = position(UL, {"e2": "J", "e1": "X", "j10": "f"})
    assert targets(state, "e2") == {"e3", "d2", "f2"}
    assert targets(state, "e1") == {"d1", "c1", "b1", "a1", "f1", "g1", "h1", "i1", "j1"}


# ---------------------------------------------------------------------------
# Composition


@pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda r: r.edition)
@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=str)
def test_every_variant_composes_with_every_edition(edition: Rules, variant: Variant) -> None:
    """Every variant of either book with every edition; name stable and parseable."""
    rules = edition.with_variants(variant)
    assert rules.has_variant(variant)
    assert rules.edition == edition.edition
    assert by_name(rules.name) == rules
    assert rules.name.startswith(edition.edition + "+")
    assert rules.with_variants(variant) == rules


def test_composition_example_from_the_docs() -> None:
    """docs/variants.md: Hasbro 2009 with two of its tournament rules."""
    rules = HASBRO_2009.with_variants(AGGRESSOR_ADVANTAGE, RESCUE)
    assert rules.name == "hasbro-2009+aggressor-advantage+rescue"
    assert rules == by_name("hasbro-2009+rescue+aggressor-advantage")
    assert rules == HASBRO_2009.with_variants(RESCUE).with_variants(AGGRESSOR_ADVANTAGE)
    assert rules.strike.attacker_wins_ties
    assert rules.rescue.enabled
    assert rules.rescue.zone is RescueZone.HOME_ROWS


def test_composition_order_independent_all_permutations() -> None:
    """Composition is order-independent: all orders, one call or several, compare equal."""
    chosen = [AGGRESSOR_ADVANTAGE, MOVING_BOMBS, MOVING_FLAG, RESCUE, SILENT_DEFENSE, DUEL]
    for edition in ALL_EDITIONS:
        results = {edition.with_variants(*order) for order in itertools.permutations(chosen)}
        stepwise = edition
        for variant in reversed(chosen):
            stepwise = stepwise.with_variants(variant)
        results.add(stepwise)
        assert len(results) == 1
        (rules,) = results
        assert rules.name == (f"{edition.edition}+aggressor-advantage+duel+exploding-bombs+"
                              "moving-bombs+moving-flag+rescue+silent-defense")
        assert by_name(rules.name) == rules
        assert hash(by_name(rules.name)) == hash(rules)


def test_composition_by_name_errors() -> None:
    """Unknown edition or variant names raise RulesError naming them."""
    with pytest.raises(RulesError, match="no-such-variant"):
        by_name("jumbo-2014+no-such-variant")
    with pytest.raises(RulesError, match="no-such-edition"):
        by_name("no-such-edition+rescue")


def test_a_variant_named_as_the_rules_is_told_to_name_an_edition_first() -> None:
    """A variant varies an edition (``classic+barrage``): a rules name that begins with a
    variant is told so, with a name that works; a misspelt edition or variant is offered
    the close names."""
    for name, works in (("barrage", "classic+barrage"), ("duel+rescue", "classic+duel+rescue"),
                        ("ultimate-lightning+barrage", "classic+ultimate-lightning")):
        with pytest.raises(RulesError, match="is a variant, not an edition") as refused:
            by_name(name)
        assert f"as in {works!r}" in str(refused.value)
        by_name(works)
    with pytest.raises(RulesError, match="did you mean 'classic'"):
        by_name("clasic")
    with pytest.raises(RulesError, match="did you mean 'barrage'"):
        by_name("jumbo-2014+barage")


def test_a_variant_given_by_name_is_told_what_works() -> None:
    """`Rules.with_variants` takes `Variant` values; a name is refused with code that works
    for it: the variant of that name (`VARIANTS`) and the whole rules by name, built on
    the rules at hand (Jumbo 2014 with Barrage, not classic), or, for a name no variant
    holds, its close matches and every known name."""
    rules = JUMBO_2014.with_variants(BARRAGE)
    with pytest.raises(RulesError) as known:
        rules.with_variants("Rescue")  # type: ignore[arg-type]
    assert str(known.value) == (
        "not a variant: 'Rescue' (with_variants takes Variant values, not names: "
        "stratego.variants.VARIANTS['rescue'] is this one; or take the whole rules by name, "
        "stratego.editions.by_name('jumbo-2014+barrage+rescue'))")
    assert VARIANTS["rescue"] is RESCUE
    assert by_name("jumbo-2014+barrage+rescue") == rules.with_variants(RESCUE)
    with pytest.raises(RulesError) as unknown:
        CLASSIC.with_variants("rescu")  # type: ignore[arg-type]
    assert "did you mean 'rescue'? the known variants are 'aggressor-advantage', " in str(
        unknown.value)
    assert all(repr(name) in str(unknown.value) for name in VARIANTS)
    assert "classic+" not in str(unknown.value)
    assert "VARIANTS['rescu']" not in str(unknown.value)


def test_the_known_variants_are_named_in_a_fresh_process() -> None:
    """The names come from the variants' registry, which importing any part of the
    package fills (`stratego.variants` registers them), not only `stratego.variants`."""
    code = ("from stratego.editions import CLASSIC\n"
            "try:\n    CLASSIC.with_variants('foo')\n"
            "except Exception as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert "the known variants are 'aggressor-advantage'," in done.stdout


def test_variant_metadata_names_the_books() -> None:
    """Each variant records the books that print it (docs/variants.md table)."""
    hasbro_and_jumbo = {"aggressor-advantage", "rescue", "silent-defense"}
    assert set(VARIANTS) == hasbro_and_jumbo | {"exploding-bombs", "moving-bombs", "moving-flag",
                                                "barrage", "duel", "ultimate-lightning"}
    for name, variant in VARIANTS.items():
        assert variant.name == name
        assert str(variant) == name
        assert any("Jumbo 2014" in book for book in variant.books)
        assert any("Hasbro 2009" in book for book in variant.books) == (name in hasbro_and_jumbo)
        assert variant.summary
        assert variant.title


def test_rescue_zone_follows_the_edition() -> None:
    """Rescue's zone parameter: the first four rows in every edition (Hasbro 2009's "your
    half" is its setup's four rows; Jumbo 2014 says four rows); HALF, the geometric half,
    is an option no edition takes."""
    assert MILTON_BRADLEY_1961.with_variants(RESCUE).rescue.zone is RescueZone.HOME_ROWS
    assert HASBRO_2009.with_variants(RESCUE).rescue.zone is RescueZone.HOME_ROWS
    assert JUMBO_2014.with_variants(RESCUE).rescue.zone is RescueZone.HOME_ROWS
    assert CLASSIC.with_variants(RESCUE).rescue.zone is RescueZone.HOME_ROWS


def test_silent_defense_rescue_hides_which_piece_came_back() -> None:
    """Hasbro 2009, Silent Defense sentence 3 (each player keeps its own captured pieces) with
    Rescue: the player picks the rescued piece from its own captured pieces, so the opponent
    cannot tell which one came back. `known_ranks` of the rescued piece must allow every rank
    it could have been (here Major or Lieutenant), not the rank it showed before its capture.
    (Regression: the engine once kept the pre-capture knowledge, revealing the choice.)
    """
    rules = HASBRO_2009.with_variants(SILENT_DEFENSE, RESCUE)
    state = position(rules, {"e4": "J", "e5": "m", "a9": "C", "j7": "t", "j10": "f"},
                     captured=((RED, Rank.LIEUTENANT),))
    major = state.piece_at("e4")
    assert major is not None
    state = play(state, "e4-e5", "j7-j6")  # the Major declares itself and loses
    assert state.known_ranks(major) == {Rank.MAJOR}
    state = play(state, "a9-a10", "J@a2")
    assert state.piece_at("a2") == major
    assert {Rank.MAJOR, Rank.LIEUTENANT} <= state.known_ranks(major)


def test_docs_variants_page_names_existing_tests() -> None:
    """docs/variants.md cites tests by name; each name (or pattern) matches a test here."""
    root = pathlib.Path(__file__).resolve().parent
    page = (root.parent / "docs" / "variants.md").read_text(encoding="utf-8")
    source = "".join((root / name).read_text(encoding="utf-8")
                     for name in ("test_variants.py", "test_variant_properties.py"))
    defined = re.findall(r"def (test_\w+)", source)
    cited = set(re.findall(r"`(test_[A-Za-z0-9_*]+)`", page))
    assert cited
    assert [name for name in sorted(cited) if not fnmatch.filter(defined, name)] == []


def test_silent_defense_tie_reveals_only_what_the_result_allows() -> None:
    """Silent Defense with Exploding Bombs: both pieces removed is what a tie does, and
    also what a Bomb does to any striker but a Miner, so such a result tells the
    attacker only "same rank or Bomb" (Jumbo 2014, Silent Defense and Exploding Bombs)."""
    rules = JUMBO_2014.with_variants(SILENT_DEFENSE, EXPLODING_BOMBS)
    for defender in ("t", "b"):
        state = from_position(rules, {"e4": "T", "e5": defender, "a1": "F", "j10": "f",
                                      "j1": "L", "a10": "l"})
        piece = state.piece_at("e5")
        after = apply(state, "e4-e5")
        assert after.piece_at("e5") is None
        assert after.known_ranks(piece) == {Rank.SERGEANT, Rank.BOMB}  # type: ignore[arg-type]
    plain = JUMBO_2014.with_variants(SILENT_DEFENSE)
    state = from_position(plain, {"e4": "T", "e5": "t", "a1": "F", "j10": "f", "j1": "L"})
    piece = state.piece_at("e5")
    assert apply(state, "e4-e5").known_ranks(piece) == {Rank.SERGEANT}  # type: ignore[arg-type]


def test_registered_variants_pickle_as_their_names_and_names_stay_theirs() -> None:
    """The book variants are registered (each pickles as its name and comes back as the
    same value); another variant may not take a registered name, and an unknown name
    is refused by name."""
    import pickle

    import attrs

    from stratego.errors import RulesError
    from stratego.rules import register_variant, registered_variant
    from stratego.variants import BARRAGE

    assert registered_variant("barrage") is BARRAGE
    assert pickle.loads(pickle.dumps(BARRAGE)) is BARRAGE
    register_variant(BARRAGE)  # again, the same value: nothing changes
    with pytest.raises(RulesError, match="a variant named 'barrage' is registered already"):
        register_variant(attrs.evolve(BARRAGE, title="Another Barrage"))
    with pytest.raises(RulesError, match="no variant is registered as 'fog'"):
        registered_variant("fog")
    with pytest.raises(RulesError, match="not a Variant: 'barrage'"):
        register_variant("barrage")  # type: ignore[arg-type]


def test_has_variant_takes_a_variant_or_its_name() -> None:
    from stratego.editions import CLASSIC
    from stratego.errors import RulesError
    from stratego.variants import BARRAGE

    barrage = CLASSIC.with_variants(BARRAGE)
    assert barrage.has_variant(BARRAGE)
    assert barrage.has_variant("barrage")
    assert not CLASSIC.has_variant("barrage")
    with pytest.raises(RulesError, match="has_variant takes a Variant or a variant's name"):
        CLASSIC.has_variant([])  # type: ignore[arg-type]
