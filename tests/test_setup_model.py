"""The setup model: the bots' setups drawn from human setups, with people's structure.

The statistics a player learns about an opponent's setups (where the Flag stands and
whether Bombs wall it in) must be the human setups' own, within sampling error, for
every library bot that places its own army.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

import stratego
from stratego import Player, Rank
from stratego.bots import HeuristicBot, SearchBot
from stratego.editions import CLASSIC, by_name
from stratego.errors import RulesError, SetupError
from stratego.human_setups import human_setups
from stratego.rules import Army, SetupRule
from stratego.setup_model import (
    SETUP_SOURCES,
    defensive_setup,
    flag_covered,
    flag_walled,
    held_out_setups,
    sample_setup,
    setup_source,
    training_setups,
)

ARMIES = ["classic", "classic+barrage", "jumbo-2014+duel", "jumbo-2014+ultimate-lightning"]


def _flag(setup: stratego.Setup) -> stratego.Square:
    return next(sq for sq, rank in setup.placement if rank is Rank.FLAG)


def _stats(setups: list[stratego.Setup]) -> tuple[float, float, float]:
    """(Flag on the back row, Flag in a back corner, Flag with a Bomb beside it): shares."""
    back = corner = bombed = 0
    for setup in setups:
        flag = _flag(setup)
        where = setup.as_dict()
        own_row = flag.row if setup.player is Player.RED else 9 - flag.row
        back += own_row == 0
        corner += own_row == 0 and flag.file in (0, 9)
        bombed += any(where.get(n) is Rank.BOMB for n in flag.neighbours())
    n = len(setups)
    return back / n, corner / n, bombed / n


HELD_OUT = {"classic": 79, "classic+barrage": 80, "jumbo-2014+duel": 12,
            "jumbo-2014+ultimate-lightning": 80}
"""Held-out setups per army: a fifth of the bundled ones (400, or Duel's 61), less the
40-piece army's one whose mirror image is a training setup."""


def _mirror(text: str) -> str:
    return "/".join(row[::-1] for row in text.split("/"))


@pytest.mark.parametrize("name", ARMIES)
def test_held_out_setups_are_a_fifth_kept_apart(name: str) -> None:
    """Training and held-out setups split the bundled ones, one in five held out, but
    for a setup of that fifth whose mirror image is a training setup: the fits learn
    every training setup mirrored too, so it is left out of both."""
    rules = by_name(name)
    everything = {s.text() for s in human_setups(rules, Player.RED)}
    train = {s.text() for s in training_setups(rules, Player.RED)}
    held = {s.text() for s in held_out_setups(rules, Player.RED)}
    assert len(train) == len(everything) - len(everything) // 5
    assert len(held) == HELD_OUT[name]
    assert train | held <= everything
    left_out = everything - train - held
    assert len(left_out) == len(everything) // 5 - len(held)
    assert all(_mirror(text) in train for text in left_out)


@pytest.mark.parametrize("name", ARMIES)
@pytest.mark.parametrize("player", list(Player))
def test_no_held_out_setup_is_a_training_setup_or_its_mirror(name: str, player: Player) -> None:
    """The prior and the setup model learn every training setup and its mirror image
    (left to right), so no held-out setup may be either: held-out figures are measured
    on setups the fits never saw, in any orientation."""
    rules = by_name(name)
    train = {s.text() for s in training_setups(rules, player)}
    learnt = train | {_mirror(text) for text in train}
    held = [s.text() for s in held_out_setups(rules, player)]
    assert held
    assert learnt.isdisjoint(held)
    assert all(stratego.Setup.parse(_mirror(text), player, rules.setup.depth).text()
               == _mirror(text) for text in held)  # the mirror of the text form is a setup's


@pytest.mark.parametrize("name", ARMIES)
@pytest.mark.parametrize("player", list(Player))
def test_sampled_setups_are_valid_seeded_and_varied(name: str, player: Player) -> None:
    """Every draw is a valid setup of the army, the same for a seed, and draws differ."""
    rules = by_name(name)
    draws = [sample_setup(rules, player, seed) for seed in range(40)]
    for setup in draws:
        assert stratego.setup_problems(rules, setup) == []
        assert setup.player is player
    assert sample_setup(rules, player, random.Random(3)) == sample_setup(rules, player, 3)
    assert len({s.text() for s in draws}) >= 35


def _bot_setup(bot: Callable[[], HeuristicBot | SearchBot]
               ) -> Callable[[stratego.Rules, Player, int], stratego.Setup]:
    return lambda rules, player, seed: bot().setup(rules, player, random.Random(seed))


@pytest.mark.parametrize("draw", [
    lambda rules, player, seed: sample_setup(rules, player, seed),
    _bot_setup(lambda: HeuristicBot(1)),
    _bot_setup(lambda: SearchBot(1, walled=False)),
], ids=["sample_setup", "heuristic", "search-walled-false"])
@pytest.mark.parametrize("name", ["classic", "jumbo-2014+ultimate-lightning"])
def test_bot_setups_match_the_human_placement_statistics(
        draw: Callable[[stratego.Rules, Player, int], stratego.Setup], name: str) -> None:
    """Over 1,500 seeded draws (both colours), the shares of setups with the Flag on the
    back row, in a back corner and beside a Bomb are the human setups' within 0.05."""
    rules = by_name(name)
    human = list(human_setups(rules, Player.RED))
    drawn = [draw(rules, Player(seed % 2), seed) for seed in range(1500)]
    for got, expected in zip(_stats(drawn), _stats(human), strict=True):
        assert got == pytest.approx(expected, abs=0.05)


@pytest.mark.parametrize("name", ARMIES)
def test_the_search_bot_sets_up_behind_a_bomb_wall(name: str) -> None:
    """The search bot draws from the setup model among the human setups whose Flag is
    walled in by Bombs (``walled``, its default): each draw is one `sample_setup` with
    ``walled=True`` gives, every one walled where the army has such setups, and where the
    Flag stands (on the back row, in a back corner) is those human setups' within 0.05.
    ``walled=False`` draws as the setup model does."""
    rules = by_name(name)
    bot, plain = SearchBot(1), SearchBot(1, walled=False)
    drawn = [bot.setup(rules, Player(seed % 2), random.Random(seed)) for seed in range(600)]
    assert drawn[:50] == [sample_setup(rules, Player(seed % 2), random.Random(seed), walled=True)
                          for seed in range(50)]
    assert plain.setup(rules, Player.BLUE, random.Random(7)) == sample_setup(
        rules, Player.BLUE, random.Random(7))
    assert all(flag_covered(s) for s in drawn)  # no first-move Scout lane to the Flag
    walled = [s for s in training_setups(rules, Player.RED) if flag_walled(s)]
    if not walled:  # Barrage: one Bomb walls no Flag, so the draws are the covered ones
        walled = [s for s in training_setups(rules, Player.RED) if flag_covered(s)]
        for got, expected in zip(_stats(drawn)[:2], _stats(walled)[:2], strict=True):
            assert got == pytest.approx(expected, abs=0.05)
        return
    assert all(flag_walled(s) for s in drawn)
    for got, expected in zip(_stats(drawn)[:2], _stats(walled)[:2], strict=True):
        assert got == pytest.approx(expected, abs=0.05)


def test_a_flag_is_covered_when_no_scout_lane_reaches_it() -> None:
    """Classic web rules, "Scout": a Scout moves any number of open squares in a straight
    line and may strike at the end of its move. The rows between the armies are empty at
    the start, so a Flag whose file is open to the opponent's side falls to a Scout's
    first strike; a piece in front of it, or a lake in its file, covers it."""
    barrage = by_name("classic+barrage")
    def setup(text: str, player: Player = Player.RED) -> stratego.Setup:
        return stratego.Setup.parse(text, player, barrage.setup.depth)
    # Setup text: the back row first, in the player's own orientation (a..j from its side).
    assert not flag_covered(setup("F........./.........X/.X.......N/.B....M.GS"))  # a1, a2-a4 open
    assert flag_covered(setup("F........./.........X/X........N/.B....M.GS"))  # X on a3
    assert flag_covered(setup("..F......./.........X/.X.......N/.B....M.GS"))  # c5: a lake
    assert not flag_covered(setup("........../.........X/.X.......N/FB....M.GS"))  # front row
    for text in ("F........./.........X/.X.......N/.B....M.GS",
                 "F........./.........X/X........N/.B....M.GS",
                 "..F......./.........X/.X.......N/.B....M.GS",
                 "........../.........X/.X.......N/FB....M.GS"):
        # the same setup for Blue, and mirrored left to right, is covered alike
        mirrored = "/".join(row[::-1] for row in text.split("/"))
        assert flag_covered(setup(text)) == flag_covered(setup(text, Player.BLUE)) \
            == flag_covered(setup(mirrored))
    assert not flag_covered(stratego.Setup(Player.RED, ()))  # no Flag: nothing to cover
    with pytest.raises(SetupError, match="not a Setup"):
        flag_covered("F........./")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ARMIES)
def test_walled_draws_never_leave_the_flag_to_a_first_move_scout(name: str) -> None:
    """`sample_setup(walled=True)` (the bots' setups): every draw is covered, where the
    plain draws of Barrage and Duel sometimes leave a file open to the Flag."""
    rules = by_name(name)
    assert all(flag_covered(sample_setup(rules, Player(seed % 2), seed, walled=True))
               for seed in range(300))
    if name in ("classic+barrage", "jumbo-2014+duel"):
        assert not all(flag_covered(sample_setup(rules, Player(seed % 2), seed))
                       for seed in range(300))


def test_random_setup_stays_uniform_and_unlike_the_model() -> None:
    """`random_setup` is still the uniform shuffle: its Flag is on the back row about a
    quarter of the time, far less often than in the model's setups."""
    uniform = [stratego.random_setup(CLASSIC, Player.RED, seed) for seed in range(600)]
    model = [sample_setup(CLASSIC, Player.RED, seed) for seed in range(600)]
    assert _stats(uniform)[0] == pytest.approx(0.25, abs=0.06)
    assert _stats(model)[0] > _stats(uniform)[0] + 0.3


def test_an_army_without_human_setups_gets_the_defensive_setup() -> None:
    """An army no bundled file covers falls back to the Flag on the back row behind
    Bombs (`defensive_setup`)."""
    army = Army.of({Rank.FLAG: 1, Rank.BOMB: 2, Rank.SCOUT: 5})
    rules = attrs.evolve(CLASSIC, army=army, setup=SetupRule(depth=4, fill=False))
    setup = sample_setup(rules, Player.BLUE, 2)
    assert setup == defensive_setup(rules, Player.BLUE, 2)
    assert _flag(setup).row == 9
    assert stratego.setup_problems(rules, setup) == []


@pytest.mark.parametrize("seed", range(8))
def test_a_small_army_s_defensive_setup_fills_the_front_rows_first(seed: int) -> None:
    """`defensive_setup` keeps the rest of a small army in front, a row at a time (the
    first square of each row was sorted with the row behind it: a gap on the front row
    while the row behind held more)."""
    rules = stratego.editions.by_name("classic+ultimate-lightning")
    for player in Player:
        setup = defensive_setup(rules, player, seed)
        rows = list(stratego.board.home_rows(player, rules.setup.depth))  # back row first
        filled = [sum(sq in setup.as_dict() for sq in rows[k:k + 10]) for k in range(0, 40, 10)]
        assert filled[3] == 10  # 20 pieces: the front row full, then the one behind it


def test_bad_arguments_are_refused() -> None:
    """Rules by value or by name (the argument convention); a misspelt name, a value that
    is not a rule set, or one that is not a random source, is refused by name."""
    assert sample_setup("classic", Player.RED, 1) == sample_setup(CLASSIC, Player.RED, 1)
    with pytest.raises(RulesError, match="unknown edition 'clasic'"):
        sample_setup("clasic", Player.RED, 1)
    with pytest.raises(RulesError):
        sample_setup(3, Player.RED, 1)  # type: ignore[arg-type]
    with pytest.raises(SetupError, match=r"sample_setup needs a random\.Random"):
        sample_setup(CLASSIC, Player.RED, [1, 2])  # type: ignore[arg-type]


def test_setup_sources_are_named_in_one_place() -> None:
    """`setup_source`: the function behind each name of `SETUP_SOURCES` (which matches,
    the ladder, the command line and the environments take), checked at once."""
    assert setup_source("random", CLASSIC) is stratego.random_setup
    assert setup_source("human", CLASSIC) is stratego.human_setup
    assert setup_source("model", CLASSIC) is sample_setup
    assert SETUP_SOURCES == ("random", "human", "model")
    with pytest.raises(stratego.ArgumentError, match="'random', 'human', 'model', not 'gravon'"):
        setup_source("gravon", CLASSIC)
    army = Army.of({Rank.FLAG: 1, Rank.BOMB: 2, Rank.SCOUT: 5})
    small = attrs.evolve(CLASSIC, army=army, setup=SetupRule(depth=4, fill=False))
    with pytest.raises(SetupError):
        setup_source("human", small)
    assert setup_source("model", small) is sample_setup  # which falls back (above)
    assert setup_source("model", "classic") is sample_setup  # rules by name, as everywhere
    with pytest.raises(RulesError):
        setup_source("model", CLASSIC.army)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ARMIES)
def test_walled_draws_keep_the_flag_walled_in_where_the_army_can(name: str) -> None:
    """``walled=True`` draws only among the training setups whose Flag has a Bomb on
    every square beside it (about 45% of the 40-piece army's); mirroring and swaps keep
    the wall. An army with no such setup (Barrage's one Bomb walls no Flag) draws among
    those whose Flag no Scout strikes on its first move."""
    rules = by_name(name)
    training = training_setups(rules, Player.RED)
    share = sum(map(flag_walled, training)) / len(training)
    drawn = [sample_setup(rules, Player(seed % 2), seed, walled=True) for seed in range(200)]
    if share:
        assert all(flag_walled(s) for s in drawn)
        assert all(stratego.setup_problems(rules, s) == [] for s in drawn)
    else:
        assert all(flag_covered(s) for s in drawn)
    if name == "classic":
        assert share == pytest.approx(0.45, abs=0.03)
        plain = [sample_setup(rules, Player.RED, seed) for seed in range(200)]
        assert 0.3 < sum(map(flag_walled, plain)) / 200 < 0.6


def test_flag_walled_reads_the_squares_beside_the_flag() -> None:
    """A Flag in the back corner a1 with Bombs on a2 and b1 is walled in; with one of
    them another rank, it is not."""
    army = Army.of({Rank.FLAG: 1, Rank.BOMB: 2, Rank.SCOUT: 1})
    rules = attrs.evolve(CLASSIC, army=army, setup=SetupRule(depth=4, fill=False))
    walled = stratego.Setup.from_mapping(Player.RED, {
        stratego.Square.parse("a1"): Rank.FLAG, stratego.Square.parse("a2"): Rank.BOMB,
        stratego.Square.parse("b1"): Rank.BOMB, stratego.Square.parse("c1"): Rank.SCOUT})
    open_flag = stratego.Setup.from_mapping(Player.RED, {
        stratego.Square.parse("a1"): Rank.FLAG, stratego.Square.parse("a2"): Rank.BOMB,
        stratego.Square.parse("b1"): Rank.SCOUT, stratego.Square.parse("c1"): Rank.BOMB})
    assert stratego.setup_problems(rules, walled) == []
    assert flag_walled(walled)
    assert not flag_walled(open_flag)
