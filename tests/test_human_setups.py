"""The bundled human setups (`stratego.human_setup`): valid, reproducible from the Gravon
fixtures, licensed, and offered exactly to the armies they fit."""

from __future__ import annotations

import importlib.util
import pathlib
import random
from collections import Counter
from importlib import resources

import attrs
import pytest

import stratego
from stratego import Player, Rank, RulesError, SetupError
from stratego.editions import CLASSIC, EDITIONS, JUMBO_2014, by_name
from stratego.human_setups import human_setups
from stratego.rules import Army

ROOT = pathlib.Path(__file__).resolve().parents[1]
FOLDER = resources.files("stratego") / "data" / "human_setups"

# bundled file -> the rules it was drawn for, and how many setups it holds
BUNDLED = {
    "classic.txt": ("classic", 400),
    "barrage.txt": ("classic+barrage", 400),
    "ultimate-lightning.txt": ("jumbo-2014+ultimate-lightning", 400),
    "duel.txt": ("jumbo-2014+duel", 61),
}


def _lines(name: str) -> list[str]:
    text = (FOLDER / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if not line.startswith("#")]


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_every_bundled_setup_is_valid_for_both_players(name: str) -> None:
    """Each line parses and its rules accept it as Red's and as Blue's setup; no line twice."""
    rules_name, count = BUNDLED[name]
    rules = by_name(rules_name)
    lines = _lines(name)
    assert len(lines) == count == len(set(lines))
    for line in lines:
        for player in Player:
            setup = stratego.Setup.parse(line, player)
            assert stratego.setup_problems(rules, setup) == [], line
    assert [s.text() for s in human_setups(rules, Player.BLUE)] == lines


def test_bundled_files_are_rebuilt_exactly_from_the_gravon_fixtures() -> None:
    """scripts/bundle_human_setups.py, run on tests/data/gravon-archive, writes the same
    files: the data's origin is reproducible."""
    script = ROOT / "scripts" / "bundle_human_setups.py"
    spec = importlib.util.spec_from_file_location("bundle_human_setups", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rebuilt = module.build(out=None)
    assert set(rebuilt) == set(BUNDLED)
    for name, text in rebuilt.items():
        assert (FOLDER / name).read_text(encoding="utf-8") == text, name


def test_the_licences_travel_with_the_data() -> None:
    """Every file names its source and licence, and both licence texts are package data."""
    mit = (FOLDER / "LICENSE_ataraxos_MIT.txt").read_text(encoding="utf-8")
    bsl = (FOLDER / "LICENSE_rhalbersma_gravon_BSL-1.0.txt").read_text(encoding="utf-8")
    assert mit.startswith("MIT License")
    assert bsl.startswith("Boost Software License - Version 1.0")
    for name in BUNDLED:
        header = (FOLDER / name).read_text(encoding="utf-8").splitlines()[1]
        assert header.startswith("# Source: ")
        assert ("MIT licence" in header) or ("Boost Software License 1.0" in header)


def test_human_setups_keep_the_flag_at_the_back_unlike_random_ones() -> None:
    """The point of the data: people hide the Flag on their back row (about 88% of these
    setups), where a random setup puts it only 10 times in 40."""
    rng = random.Random(1)
    human = [stratego.human_setup(CLASSIC, Player.RED, rng) for _ in range(200)]
    on_back_row = sum(1 for s in human if _flag_square(s).row == 0)
    assert on_back_row >= 150


def _flag_square(setup: stratego.Setup) -> stratego.Square:
    return next(sq for sq, rank in setup.placement if rank is Rank.FLAG)


def test_human_setup_is_seeded_and_turned_round_for_blue() -> None:
    """The same seed draws the same formation; Blue's is Red's turned half a circle."""
    red = stratego.human_setup(CLASSIC, Player.RED, 5)
    assert red == stratego.human_setup(CLASSIC, Player.RED, random.Random(5))
    blue = stratego.human_setup(CLASSIC, Player.BLUE, 5)
    assert blue.text() == red.text()
    assert blue.player is Player.BLUE
    assert {sq.row for sq, _ in blue.placement} == {6, 7, 8, 9}
    draws = {stratego.human_setup(CLASSIC, Player.RED, seed).text() for seed in range(30)}
    assert len(draws) > 20
    state = stratego.new_game(CLASSIC, red, blue)
    assert len(stratego.legal_moves(state)) > 0


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_base_edition_gets_the_forty_piece_setups(edition: str) -> None:
    rules = EDITIONS[edition].with_ply_limit(100)
    assert len(human_setups(rules, Player.RED)) == 400


@pytest.mark.parametrize(("variant", "count"),
                         [("barrage", 400), ("ultimate-lightning", 400), ("duel", 61)])
def test_army_variants_get_their_own_setups(variant: str, count: int) -> None:
    for edition in ("jumbo-2014", "classic", "hasbro-2009"):
        rules = by_name(f"{edition}+{variant}")
        setups = human_setups(rules, Player.RED)
        assert len(setups) == count
        assert Counter(r for _, r in setups[0].placement) == Counter(rules.army.ranks())


def test_an_army_without_bundled_setups_is_a_clear_setup_error() -> None:
    rules = attrs.evolve(JUMBO_2014, army=Army.of({Rank.FLAG: 1, Rank.SCOUT: 3}))
    with pytest.raises(SetupError, match=r"no bundled human setups for the army of .*4 pieces"
                                         r".*use stratego.random_setup"):
        stratego.human_setup(rules, Player.RED, 1)
    with pytest.raises(SetupError, match="no bundled human setups"):
        human_setups(rules, Player.BLUE)


def test_bad_arguments_raise_the_library_errors() -> None:
    with pytest.raises(RulesError, match="rules are a Rules value or a rules name"):
        stratego.human_setup(CLASSIC.army, Player.RED, 1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown edition 'clasic'"):
        stratego.human_setup("clasic", Player.RED, 1)


def test_rules_may_be_named_as_everywhere() -> None:
    """`new_game`, `random_setup` and the environments take a rules name: so do the setup
    functions (the same setups as for the `Rules` value)."""
    assert stratego.human_setup("classic", Player.RED, 1) == stratego.human_setup(
        CLASSIC, Player.RED, 1)
    assert human_setups("classic+barrage", Player.BLUE) == human_setups(
        CLASSIC.with_variants(stratego.variants.BARRAGE), Player.BLUE)
    setup = stratego.random_setup(CLASSIC, Player.RED, 3)
    assert stratego.setup_problems("classic", setup) == []
    assert stratego.setup_problems("classic+barrage", setup) != []
    from stratego.setup_model import defensive_setup, held_out_setups, setup_source

    assert held_out_setups("classic", Player.RED) == held_out_setups(CLASSIC, Player.RED)
    assert defensive_setup("classic", Player.RED, 1) == defensive_setup(CLASSIC, Player.RED, 1)
    assert setup_source("human", "classic")(CLASSIC, Player.RED, random.Random(1)) == (
        stratego.human_setup(CLASSIC, Player.RED, random.Random(1)))


def test_bad_arguments_raise_more_library_errors() -> None:
    with pytest.raises(SetupError, match=r"needs a random\.Random"):
        stratego.human_setup(CLASSIC, Player.RED, object())  # type: ignore[arg-type]
    with pytest.raises(stratego.StrategoError):
        stratego.human_setup(CLASSIC, 7, 1)  # type: ignore[arg-type]
