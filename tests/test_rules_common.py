"""Rules every edition states the same way, tested once under each edition with that book's
own citation (the edition files keep the rules that differ).

Each test takes ``(rules, rule)``: the edition and the rule as its book numbers it, quoted
in every failure message. The books: the classic web rules (paragraphs unnumbered),
Milton Bradley 1961 and Hasbro 2009 (the same numbered rules), Jumbo 2014 (bulleted
sections). The positions use rank symbols (``K`` a Red Captain, ``f`` a Blue Flag), which
are the same in every edition; what an edition prints (its rank labels) is read from it.
"""

from __future__ import annotations

import pytest

from positions import game, play, position, targets
from stratego import (
    CLASSIC,
    HASBRO_2009,
    JUMBO_2014,
    MILTON_BRADLEY_1961,
    IllegalMoveError,
    Player,
    Rank,
    Rules,
    Termination,
    apply,
    is_legal,
    legal_moves,
)

BOOKS = {"classic": CLASSIC, "1961": MILTON_BRADLEY_1961, "2009": HASBRO_2009,
         "jumbo": JUMBO_2014}


def cited(**rule: str) -> list[object]:
    """One parameter per edition: ``(rules, rule)``, with `rule` the citation of that
    edition's book (``classic``, ``mb`` for 1961 and 2009, which share their numbering,
    and ``jumbo``)."""
    return [pytest.param(BOOKS[name], rule["mb" if name in ("1961", "2009") else name],
                         id=BOOKS[name].edition) for name in BOOKS]


@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="Setup paragraph: Red starts first",
    mb="To start the game 2: Red starts first",
    jumbo="Setup bullet 1: the Red army always goes first"))
def test_red_starts_first(rules: Rules, rule: str) -> None:
    state = game(rules)
    assert state.to_move is Player.RED, rule
    assert legal_moves(state), rule
    assert {state.piece_at(m.frm).owner for m in legal_moves(state)} == {  # type: ignore[arg-type, union-attr]
        Player.RED}, rule


@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="Movement: turns alternate, first Red then Blue",
    mb="Movement 1: turns alternate, first Red, then Blue",
    jumbo="Moving, paragraph: Red begins and the players alternate turns"))
def test_turns_alternate(rules: Rules, rule: str) -> None:
    state = position(rules, {"e2": "K", "e9": "k"})
    assert state.to_move is Player.RED, rule
    after = apply(state, "e2-e3")
    assert after.to_move is Player.BLUE, rule
    assert after.ply == 1, rule
    assert play(after, "e9-e8").to_move is Player.RED, rule
    with pytest.raises(IllegalMoveError, match="not blue's"):
        apply(after, "e3-e4")


@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="Movement: one square at a time, forward, backward or sideward, not diagonally",
    mb="Movement 2: one square at a time, forward, backward or sideways; NOT DIAGONALLY",
    jumbo="Moving bullets 1 and 2: one square (Scouts excepted), forward, backward or "
          "sideways, never diagonally"))
def test_one_square_orthogonally(rules: Rules, rule: str) -> None:
    state = position(rules, {"e3": "K", "j10": "k"})
    assert targets(state, "e3") == {"e2", "e4", "d3", "f3"}, rule
    label = rules.labels.label(Rank.CAPTAIN)
    for diagonal in ("e3-f4", "e3-d4"):
        with pytest.raises(IllegalMoveError,
                           match=rf"Captain \({label}\) on e3 cannot move diagonally"):
            apply(state, diagonal)
    with pytest.raises(IllegalMoveError, match="one square at a time"):
        apply(state, "e3-e5")


@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="Movement: the lakes contain no squares; pieces move around them",
    mb="Movement 3: pieces cannot move where there is no square (the lakes)",
    jumbo="Moving bullet 6: pieces may not land in the lakes, nor move through or over them"))
def test_lakes_have_no_squares(rules: Rules, rule: str) -> None:
    state = position(rules, {"c4": "K", "h4": "C", "e5": "L", "j10": "k"})
    assert targets(state, "c4") == {"c3", "b4", "d4"}, rule
    assert targets(state, "h4") == {"h3", "g4", "i4"}, rule
    assert targets(state, "e5") == {"e4", "e6", "f5"}, rule  # between the lakes
    for move, lake in (("c4-c5", "c5"), ("h4-h5", "h5")):
        with pytest.raises(IllegalMoveError, match=f"{lake} is a lake"):
            apply(state, move)


@pytest.mark.parametrize("rank", ["B", "F"])
@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="Movement: the Flag and the Bombs must remain on their square",
    mb="Movement 7: the Flag and the Bombs must remain on their square",
    jumbo="Moving, NOTE: the Flag and the Bombs cannot move"))
def test_flag_and_bombs_cannot_move(rules: Rules, rule: str, rank: str) -> None:
    state = position(rules, {"e3": rank, "e4": "k", "a1": "K", "j10": "k"})
    assert targets(state, "e3") == set(), rule
    with pytest.raises(IllegalMoveError, match="on e3 cannot move"):
        apply(state, "e3-e2")
    assert not is_legal(state, "e3-e4"), rule


@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="Strike, paragraph 2: the lower rank is lost; the winner moves into its square",
    mb="Strike 6: the lower rank is removed and the winner moves into its square; a "
       "lower-ranked striker is lost and the defender stays",
    jumbo="Attacking bullets 4 and 5: a higher rank captures and occupies the square; a "
          "lower rank loses and the defender remains"))
def test_higher_rank_wins_a_strike(rules: Rules, rule: str) -> None:
    after = apply(position(rules, {"e4": "K", "e5": "l", "j10": "k"}), "e4-e5")
    assert after.piece_at("e4") is None, rule
    assert after.piece_at("e5").rank is Rank.CAPTAIN, rule  # type: ignore[union-attr]
    assert [p.rank for p in after.captured(Player.BLUE)] == [Rank.LIEUTENANT], rule
    after = apply(position(rules, {"e4": "L", "e5": "k", "j10": "k"}), "e4-e5")
    assert after.piece_at("e4") is None, rule
    assert after.piece_at("e5").rank is Rank.CAPTAIN, rule  # type: ignore[union-attr]
    assert after.piece_at("e5").owner is Player.BLUE, rule  # type: ignore[union-attr]
    assert [p.rank for p in after.captured(Player.RED)] == [Rank.LIEUTENANT], rule


@pytest.mark.parametrize("symbol", ["N", "J", "G"])
@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="Strike, paragraph 2: equal ranks are both removed",
    mb="Strike 7: when equal ranks strike, both pieces are removed",
    jumbo="Attacking bullet 6: matching ranks: both pieces are captured"))
def test_equal_ranks_are_both_removed(rules: Rules, rule: str, symbol: str) -> None:
    state = position(rules, {"e4": symbol, "e5": symbol.lower(), "j10": "k"})
    after = apply(state, "e4-e5")
    assert after.piece_at("e4") is None, rule
    assert after.piece_at("e5") is None, rule
    assert len(after.captured()) == 2, rule


@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="Objective and To end the game: whoever strikes the opponent's Flag wins",
    mb="To end the game: whoever strikes the opponent's Flag wins; the game ends",
    jumbo="The game ends when bullet 1: the attacker capturing the Flag wins"))
def test_striking_the_flag_wins(rules: Rules, rule: str) -> None:
    after = apply(position(rules, {"e4": "X", "e5": "f", "j10": "k"}), "e4-e5")
    assert after.outcome.termination is Termination.FLAG_CAPTURED, rule  # type: ignore[union-attr]
    assert after.outcome.winner is Player.RED, rule  # type: ignore[union-attr]
    assert after.outcome.result() == "1-0", rule  # type: ignore[union-attr]
    assert legal_moves(after) == (), rule
    with pytest.raises(IllegalMoveError, match="game is over"):
        apply(after, "j10-j9")
    state = position(rules, {"e4": "F", "e5": "x", "a1": "K"}, to_move=Player.BLUE)
    after = apply(state, "e5-e4")
    assert after.outcome.winner is Player.BLUE, rule  # type: ignore[union-attr]
    assert after.outcome.result() == "0-1", rule  # type: ignore[union-attr]


@pytest.mark.parametrize(("rules", "rule"), cited(
    classic="To end the game: a player who cannot move or strike has lost",
    mb="To end the game (note): a player who cannot move or strike loses",
    jumbo="Moving, paragraph, and The game ends when bullet 2: if none of your pieces can "
          "move or attack, your opponent wins"))
def test_no_legal_move_loses(rules: Rules, rule: str) -> None:
    state = position(rules, {"a1": "F", "b1": "B", "a2": "B", "j10": "k"})
    assert state.is_over, rule
    assert state.outcome.termination is Termination.NO_LEGAL_MOVES, rule  # type: ignore[union-attr]
    assert state.outcome.winner is Player.BLUE, rule  # type: ignore[union-attr]
    state = position(rules, {"j10": "f", "i10": "b", "j9": "b", "a1": "K"},
                     to_move=Player.BLUE)
    assert state.outcome.termination is Termination.NO_LEGAL_MOVES, rule  # type: ignore[union-attr]
    assert state.outcome.winner is Player.RED, rule  # type: ignore[union-attr]
