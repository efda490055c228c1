"""The Scout's window of moves (ISF 10.2; the classic web rules' Scout sentence, "Important"
paragraph): a Scout's move is illegal when some border it would cross was crossed by each
of its last moves, as many as the edition allows in a row (ISF 3, its five-move option 5,
the classic web rules 4), no other own piece moving in between. Our readings are in
docs/editions.md."""

from __future__ import annotations

import pytest

from positions import play
from stratego import CLASSIC, ISF, Player, Rules, explain_illegal, from_position, is_legal
from stratego.editions import ISF_FIVE_MOVES

BLUE_WALK = [f"j{10 - i}-j{9 - i}" for i in range(8)]


def _scout_moves(limit: int) -> list[str]:
    """a3-c3, c3-b3, b3-d3 and then d3-c3, c3-d3, ... until `limit` moves in a row have
    crossed the border c3|d3, and the next move, which would cross it again."""
    moves = ["a3-c3", "c3-b3", "b3-d3"]
    at = "d3"
    for _ in range(limit):
        to = "c3" if at == "d3" else "d3"
        moves.append(f"{at}-{to}")
        at = to
    return moves


@pytest.mark.parametrize(("rules", "limit"), [(ISF, 3), (ISF_FIVE_MOVES, 5), (CLASSIC, 4)],
                         ids=["isf", "isf-five-moves", "classic"])
def test_scout_window_counts_the_last_moves(rules: Rules, limit: int) -> None:
    """b3-d3 and the moves that follow between d3 and c3 all cross the border c3|d3; once
    `limit` of them were made in a row, the next crossing is refused, even though d3-c3
    crossed no border the first three moves all shared (a series reading, which forgot the
    moves before d3-c3, allowed it)."""
    moves = _scout_moves(limit)
    state = from_position(rules, {"a3": "X", "j10": "l", "e1": "F", "e10": "f"})
    for red, blue in zip(moves[:-1], BLUE_WALK, strict=False):
        state = play(state, red, blue)
    refused = moves[-1]
    assert not is_legal(state, refused)
    reason = explain_illegal(state, refused) or ""
    assert f"last {limit} moves" in reason
    assert "between c3 and d3" in reason
    at = refused[:2]
    assert is_legal(state, f"{at}-{at[0]}4")  # another line


def test_isf_10_2_the_issue_example() -> None:
    """ISF 10.2: after a3-c3, c3-b3, b3-d3, d3-c3, c3-d3 the move d3-c3 is the fourth move in
    a row across c3|d3 (b3-d3, d3-c3 and c3-d3 crossed it): refused, naming ISF 10."""
    state = from_position(ISF, {"a3": "X", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a3-c3", "j10-j9", "c3-b3", "j9-j8", "b3-d3", "j8-j7", "d3-c3",
                 "j7-j6", "c3-d3", "j6-j5")
    assert not is_legal(state, "d3-c3")
    assert "(ISF 10, two-squares rule)" in (explain_illegal(state, "d3-c3") or "")
    assert is_legal(state, "d3-e3")  # crosses d3|e3, which c3-d3 did not


def test_scout_window_one_way_walk_is_free() -> None:
    """ISF 10.2: a Scout walking one way crosses each border once."""
    state = from_position(ISF, {"a1": "X", "j10": "l", "e1": "F", "e10": "f"},
                          to_move=Player.RED)
    state = play(state, "a1-a5", "j10-j9", "a5-a4", "j9-j8", "a4-a3", "j8-j7", "a3-a2",
                 "j7-j6")
    assert is_legal(state, "a2-a1")
