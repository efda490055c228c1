"""Cross-checks against the rulebook texts themselves. The texts are not part of the
repository, so these tests run only with ``pytest --rulebooks=DIR`` (`.ci/run` passes
``../shared/rulebooks`` when it exists); the rest of the suite never reads them."""

from __future__ import annotations

import pathlib
import re

import pytest

from stratego import Rank
from stratego.rules import STANDARD_ARMY
from stratego.variants import VARIANTS

pytestmark = pytest.mark.rulebooks

BOOKS = ["milton-bradley-1961.txt", "hasbro-2009-onyx-edition.txt",
         "jumbo-2014-nostalgic-edition.txt", "classic-web-rules.txt",
         "hasbro-web-with-tournament-rules.txt"]

# how the books spell each rank, singular and plural
NAMES = {Rank.MARSHAL: "Marshals?", Rank.GENERAL: "Generals?", Rank.COLONEL: "Colonels?",
         Rank.MAJOR: "Majors?", Rank.CAPTAIN: "Captains?", Rank.LIEUTENANT: "Lieutenants?",
         Rank.SERGEANT: "Sergeants?", Rank.MINER: "Miners?", Rank.SCOUT: "Scouts?",
         Rank.SPY: "Spy|Spies", Rank.BOMB: "Bombs?", Rank.FLAG: "Flags?"}


def test_every_book_is_there(rulebooks_dir: pathlib.Path) -> None:
    for name in BOOKS:
        assert (rulebooks_dir / name).read_text(encoding="utf-8").strip(), name


@pytest.mark.parametrize("book", ["milton-bradley-1961.txt", "classic-web-rules.txt"])
def test_the_army_counts_are_the_books(rulebooks_dir: pathlib.Path, book: str) -> None:
    """Milton Bradley 1961, rule 3, and the classic web rules' piece list: the counts of the
    40-piece army (`STANDARD_ARMY`) as the book lists them ("8 Scouts", "1 Spy", ...)."""
    text = " ".join((rulebooks_dir / book).read_text(encoding="utf-8").split())
    for rank, name in NAMES.items():
        counts = {int(n) for n in re.findall(rf"\b(\d+) (?:{name})\b", text)}
        assert STANDARD_ARMY.count(rank) in counts, (book, rank, counts)


def test_every_jumbo_variant_has_its_section(rulebooks_dir: pathlib.Path) -> None:
    """Every variant the library offers has a section heading in the Jumbo 2014 book."""
    text = (rulebooks_dir / "jumbo-2014-nostalgic-edition.txt").read_text(encoding="utf-8")
    headings = {line.strip() for line in text.splitlines() if line.strip().isupper()}
    words = {"aggressor-advantage": None, "exploding-bombs": "EXPLODING BOMBS",
             "moving-bombs": "MOVING BOMBS", "moving-flag": "MOVING FLAG",
             "rescue": "RESCUING PIECES", "silent-defense": "SILENT DEFENSE",
             "barrage": "STRATEGO BARRAGE", "duel": "STRATEGO DUEL",
             "ultimate-lightning": "ULTIMATE LIGHTNING STRATEGO"}
    assert set(words) == set(VARIANTS)
    for heading in words.values():
        if heading is not None:
            assert heading in headings, heading
