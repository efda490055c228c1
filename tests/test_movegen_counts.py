"""Move-generation counts kept as data (``tests/data/movegen_counts.json``).

Each entry was counted by hand (the reasoning is in its ``comment``); the test
checks `legal_moves` against that number, like the perft files of chess
libraries, so the move generator is checked against numbers, not itself.
"""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import pytest

from stratego import GameState, Player, apply, from_position, is_legal, legal_moves, new_game
from stratego.editions import by_name

DATA = pathlib.Path(__file__).parent / "data" / "movegen_counts.json"
POSITIONS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["positions"]


def build(entry: dict[str, Any]) -> GameState:
    """The position an entry describes, after its prelude moves."""
    rules = by_name(entry["rules"])
    if "setups" in entry:
        state = new_game(rules, entry["setups"]["red"], entry["setups"]["blue"])
    else:
        state = from_position(rules, entry["placement"], to_move=Player.parse(entry["to_move"]))
    for move in entry.get("prelude", []):
        state = apply(state, move)
    return state


def test_data_file_is_well_formed() -> None:
    names = [entry["name"] for entry in POSITIONS]
    assert len(names) == len(set(names))
    assert len(POSITIONS) >= 12
    for entry in POSITIONS:
        assert entry["comment"].strip()
        assert isinstance(entry["expected"], int)
        assert "setups" in entry or "placement" in entry


@pytest.mark.parametrize("entry", POSITIONS, ids=[entry["name"] for entry in POSITIONS])
def test_movegen_count(entry: dict[str, Any]) -> None:
    state = build(entry)
    plies = len(entry.get("prelude", []))
    assert state.to_move is (Player.parse(entry["to_move"]) if plies % 2 == 0
                             else Player.parse(entry["to_move"]).opponent)
    moves = legal_moves(state)
    assert len(moves) == entry["expected"], [str(m) for m in moves]
    assert len(set(moves)) == len(moves)
    for text in entry.get("excluded", []):
        assert not is_legal(state, text), text
    assert state.is_over is (entry["expected"] == 0)


def test_editions_page_references_exist() -> None:
    """docs/editions.md names tests and data entries as evidence for each reading; every
    one of them must exist."""
    page = (pathlib.Path(__file__).parents[1] / "docs" / "editions.md").read_text("utf-8")
    sources = "".join(p.read_text("utf-8") for p in pathlib.Path(__file__).parent.glob("test_*.py"))
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", page))
    assert len(named) > 20
    missing = sorted(n for n in named if f"def {n}(" not in sources)
    assert missing == []
    entries = {entry["name"] for entry in POSITIONS}
    cited = set(re.findall(r"data `([a-z0-9-]+)`", page))
    cited |= set(re.findall(r"`((?:mb1961|hasbro2009|jumbo2014|classic)-[a-z0-9-]+)`", page))
    assert cited
    assert sorted(cited - entries) == []
