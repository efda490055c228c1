"""Golden playthroughs: seeded games recorded ply by ply (see `tests/playthrough.py`)."""

from __future__ import annotations

import os
import pathlib
import re

import pytest

from playthrough import GAMES, file_name, playthrough_text

DATA = pathlib.Path(__file__).resolve().parent / "data" / "playthroughs"


@pytest.mark.parametrize(("rules_name", "seed"), GAMES, ids=[f"{r}-{s}" for r, s in GAMES])
def test_playthrough_matches_golden_file(rules_name: str, seed: int) -> None:
    """Legal moves and both players' views, ply by ply, are exactly as recorded."""
    path = DATA / file_name(rules_name, seed)
    text = playthrough_text(rules_name, seed)
    if os.environ.get("STRATEGO_REGENERATE_PLAYTHROUGHS"):
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} differs: regenerate only after an intended change"


def test_views_in_playthroughs_hide_the_opponents_ranks() -> None:
    """In every golden file, Blue's picture of the start shows no Red rank, and vice versa."""
    for rules_name, seed in GAMES:
        text = (DATA / file_name(rules_name, seed)).read_text(encoding="utf-8")
        first = text.split("\nplay ", 1)[0]
        red_view = first.split("view red:", 1)[1].split("view blue:", 1)[0]
        blue_view = first.split("view blue:", 1)[1]
        assert re.findall(r"(?<!\S)b[^?\s]+", red_view) == []
        assert re.findall(r"(?<!\S)r[^?\s]+", blue_view) == []
        assert re.findall(r"(?<!\S)r[^?\s]+", red_view)  # the check can see a rank
