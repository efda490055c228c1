"""The learned bots the package ships (`stratego.bots.learned`, `stratego.nn.LEARNED`):
named like any other bot, their weight files read once per process, each playing only the
rules its network was trained under, with setups from the setup model."""

from __future__ import annotations

import os
import pathlib
import random
import subprocess
import sys
import zipfile

import attrs
import pytest

np = pytest.importorskip("numpy")

import stratego  # noqa: E402
from stratego import Player, Rank, view  # noqa: E402
from stratego.bots import BOTS, make_bot  # noqa: E402
from stratego.bots.base import check_bot_rules  # noqa: E402
from stratego.editions import by_name  # noqa: E402
from stratego.errors import BotSpecError, RulesError  # noqa: E402
from stratego.match import BotSpec, play_match  # noqa: E402
from stratego.nn import LEARNED, NetworkBot, learned_weights, load, policy_bot  # noqa: E402
from stratego.setup_model import flag_covered, flag_walled, sample_setup  # noqa: E402
from stratego.setups import random_setup  # noqa: E402

pytestmark = pytest.mark.extra("numpy")

NAMES = sorted(LEARNED)


def test_both_learned_bots_ship() -> None:
    assert NAMES == ["policy-barrage", "policy-classic"]


@pytest.mark.parametrize("name", NAMES)
def test_a_learned_bot_is_a_named_bot_of_its_rules(name: str) -> None:
    assert name in BOTS
    bot = make_bot(name, seed=3)
    assert isinstance(bot, NetworkBot)
    assert bot.rules.name == LEARNED[name]
    assert BotSpec(name).describe() == name


@pytest.mark.parametrize("name", NAMES)
def test_a_shipped_weight_file_records_its_rules_and_stays_small(name: str) -> None:
    path = learned_weights(name)
    assert len(path.read_bytes()) < 4 * 2**20  # a wheel of reasonable size
    assert load(path).rules.name == LEARNED[name]


def test_an_unknown_learned_bot_is_refused_with_the_known_ones() -> None:
    with pytest.raises(BotSpecError, match="policy-barrage, policy-classic"):
        learned_weights("policy-duel")


def test_the_learned_bots_play_from_a_zip_archive(tmp_path: pathlib.Path) -> None:
    """The weights are package data read through `importlib.resources`, as the human
    setups are: the learned bots play when the package is imported from a zip archive
    (a wheel on ``PYTHONPATH``), where no weight file has a path."""
    package = pathlib.Path(stratego.__file__).resolve().parent
    archive = tmp_path / "stratego.zip"
    with zipfile.ZipFile(archive, "w") as written:
        for file in sorted(package.rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                written.write(file, file.relative_to(package.parent).as_posix())
    code = ("import stratego, zipfile\n"
            "from stratego.bots import make_bot\n"
            "from stratego.nn import learned_weights, load\n"
            f"assert stratego.__file__.startswith({str(archive)!r}), stratego.__file__\n"
            "bot = make_bot('policy-classic', seed=1)\n"
            "assert bot.network is make_bot('policy-classic', seed=2).network\n"
            "weights = learned_weights('policy-barrage')\n"
            "assert isinstance(weights, zipfile.Path), weights\n"
            "print(bot.rules.name, load(weights).rules.name)\n")
    # -S: no site-packages, so no editable install's finder ahead of the archive
    found = [str(archive)] + [str(pathlib.Path(str(module.__file__)).parent.parent)
                              for module in (np, attrs)]
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(found)},
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["classic", "classic+barrage"]


def test_a_weight_file_read_from_an_archive_is_read_once(tmp_path: pathlib.Path) -> None:
    """`load` takes a file of `importlib.resources` that is no path (an entry of a zip
    archive), read once per process like a file; a missing entry is a `BotSpecError`."""
    archive = tmp_path / "weights.zip"
    with zipfile.ZipFile(archive, "w") as written:
        written.writestr("policy-classic.npz", learned_weights("policy-classic").read_bytes())
    entry = zipfile.Path(archive, "policy-classic.npz")
    network = load(entry)
    assert network.rules.name == "classic"
    # a bot plays it as it plays a file on disk, named after the file
    bot = policy_bot(zipfile.Path(archive, "policy-classic.npz"), greedy=True)
    assert bot.network is network
    assert bot.name == "policy-classic"
    assert load(zipfile.Path(archive, "policy-classic.npz")) is network
    with pytest.raises(BotSpecError, match=r"no network weights at .*: FileNotFoundError"):
        load(zipfile.Path(archive, "policy-duel.npz"))


def test_the_weights_are_read_once_per_process() -> None:
    first, second = make_bot("policy-barrage", seed=1), make_bot("policy-barrage", seed=2)
    assert isinstance(first, NetworkBot)
    assert isinstance(second, NetworkBot)
    assert first.network is second.network


@pytest.mark.parametrize("name", NAMES)
def test_a_learned_bot_plays_a_match_under_a_ply_limit(name: str) -> None:
    # a match adds a ply limit to the rules: still the game the network learned
    result = play_match(LEARNED[name], name, "random", games=2, seed=5, max_plies=120)
    assert len(result.games) == 2
    assert all(game.detail == "" for game in result.games)


def test_a_barrage_network_does_not_play_classic() -> None:
    classic = by_name("classic")
    rng = random.Random(0)
    from stratego import new_game

    state = new_game(classic, random_setup(classic, Player.RED, rng),
                     random_setup(classic, Player.BLUE, rng))
    with pytest.raises(RulesError, match=r"classic\+barrage.*does not play classic"):
        make_bot("policy-barrage")(view(state, Player.RED))
    with pytest.raises(RulesError, match="plays classic\\+barrage"):
        check_bot_rules(make_bot("policy-barrage"), classic)
    check_bot_rules(make_bot("policy-barrage"), by_name("classic+barrage").with_ply_limit(50))


@pytest.mark.parametrize("name", NAMES)
def test_a_learned_bot_sets_up_from_the_setup_model(name: str) -> None:
    """A learned bot draws its setups from the setup model, among the human setups
    whose Flag is walled in by Bombs: in classic every draw is walled; Barrage has no
    such setups, so its draws are those whose Flag no Scout strikes on its first move."""
    bot = make_bot(name)
    rules = by_name(LEARNED[name])
    for seed in range(20):
        setup = bot.setup(rules, Player(seed % 2), random.Random(seed))  # type: ignore[attr-defined]
        assert setup == sample_setup(rules, Player(seed % 2), random.Random(seed), walled=True)
        assert flag_covered(setup)
        if rules.army.count(Rank.BOMB) > 1:
            assert flag_walled(setup)


@pytest.mark.extra("vector", "rl")
def test_an_environment_refuses_a_learned_bot_of_other_rules_by_name() -> None:
    from stratego.vector.env import BatchVectorEnv

    with pytest.raises(RulesError, match="plays classic\\+barrage"):
        BatchVectorEnv(2, "classic", opponent="policy-barrage")
    env = BatchVectorEnv(2, "classic+barrage", opponent="policy-barrage")
    env.reset(seed=1)
    env.close()


def test_a_learned_bot_plays_its_best_move_unless_asked_to_sample() -> None:
    assert make_bot("policy-classic").greedy  # type: ignore[attr-defined]
    assert not make_bot("policy-classic", greedy=False).greedy  # type: ignore[attr-defined]
    assert not BotSpec("policy-barrage(greedy=False)").build().greedy  # type: ignore[attr-defined]
