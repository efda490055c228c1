"""Move-generation counts for the variants, read from hand-checked data.

`tests/data/variant_movegen_counts.json` holds positions with Ultimate Lightning
Captains (Jumbo 2014, "Moving and attacking with the Captain (6)") and Rescue
decisions (Hasbro 2009, Additional Tournament Rules, Rescue; Jumbo 2014,
Rescuing Pieces), each with the number of legal moves counted by hand and the
reasoning in its ``comment``. The engine is checked against these numbers, not
against itself.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from stratego import GameState, Player, Rank, Square, apply, from_position, legal_moves
from stratego.editions import by_name

DATA = pathlib.Path(__file__).parent / "data" / "variant_movegen_counts.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def _state(case: dict[str, Any]) -> GameState:
    rules = by_name(case["rules"])
    captured = [(Player.parse(who), Rank.parse(symbol)) for who, symbol in case["captured"]]
    state = from_position(rules, case["position"], to_move=Player.parse(case["to_move"]),
                          captured=captured)
    for move in case["then"]:
        state = apply(state, move)
    return state


def test_data_file_is_well_formed() -> None:
    """At least 8 hand-checked positions, each with a comment and a unique id."""
    assert len(CASES) >= 8
    assert len({case["id"] for case in CASES}) == len(CASES)
    assert sum("ultimate-lightning" in case["rules"] for case in CASES) >= 4
    assert sum("rescue" in case["rules"] for case in CASES) >= 4
    for case in CASES:
        assert case["comment"].strip(), case["id"]
        assert isinstance(case["count"], int)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_variant_movegen_count(case: dict[str, Any]) -> None:
    """The engine generates exactly the hand-counted moves."""
    state = _state(case)
    moves = legal_moves(state)
    if "pending" in case:
        assert (state.pending_rescue is not None) is case["pending"]
        if case["pending"]:
            assert moves[-1].is_decline
            assert all(m.is_rescue for m in moves[:-1])
    if "square" in case:
        origin = Square.parse(case["square"])
        moves = tuple(m for m in moves if m.frm == origin)
    assert len(moves) == case["count"]
    assert len(set(moves)) == len(moves)  # no duplicates (a turning route counted once)
    if "targets" in case:
        assert sorted(str(m.to) for m in moves) == case["targets"]
