"""The torch-free training path ends in a bot: `benchmarks/numpy_reinforce.py --out FILE`
saves the trained weights (with the rules and the observation and action layouts, as
`stratego.nn`'s weight files record theirs), and its factory
``benchmarks/numpy_reinforce.py:make_bot(path='FILE')`` plays them wherever a bot spec is
taken. The loop docs/train.md shows (train, save, rate in a match) is run as written."""

from __future__ import annotations

import json
import pathlib
import re
import shlex
import sys
from typing import Any

import pytest

pytestmark = pytest.mark.extra("numpy")

np = pytest.importorskip("numpy")

from benchmark_modules import load_benchmark  # noqa: E402
from stratego.bots import make_bot as bot_from_spec  # noqa: E402
from stratego.bots.base import check_bot_rules  # noqa: E402
from stratego.editions import by_name  # noqa: E402
from stratego.encoding import PLANES  # noqa: E402
from stratego.engine import new_game  # noqa: E402
from stratego.errors import BotSpecError, RulesError  # noqa: E402
from stratego.match import play_match  # noqa: E402
from stratego.nn import Network, action_digest  # noqa: E402
from stratego.pieces import Player  # noqa: E402
from stratego.setups import random_setup  # noqa: E402
from stratego.views import view  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
RECIPE = ROOT / "benchmarks" / "numpy_reinforce.py"
SPEC = "benchmarks/numpy_reinforce.py:make_bot"
BARRAGE = by_name("classic+barrage")


@pytest.fixture(scope="module")
def recipe() -> Any:
    yield load_benchmark("numpy_reinforce.py", "numpy_reinforce_tools")
    del sys.modules["numpy_reinforce_tools"]


def weights(recipe: Any, seed: int = 0) -> Any:
    theta = np.random.default_rng(seed).normal(0, 1, recipe.FEATURES)
    theta[-2] = 2.0  # forward
    return theta


def test_the_weights_round_trip_with_their_layout(recipe: Any, tmp_path: pathlib.Path) -> None:
    theta = weights(recipe)
    path = tmp_path / "linear"  # no .npz: written at exactly that name
    recipe.save(theta, "classic+barrage", path)
    assert path.exists()
    assert not (tmp_path / "linear.npz").exists()
    loaded, rules = recipe.load(path)
    assert np.array_equal(loaded, theta)
    assert rules == BARRAGE
    with np.load(path, allow_pickle=False) as archive:
        assert sorted(archive.files) == ["meta", "theta"]
        meta = json.loads(str(archive["meta"]))
    assert meta["format"] == recipe.FORMAT == "numpy_reinforce/1"
    assert meta["rules"] == "classic+barrage"
    assert meta["observation"] == {"planes": list(PLANES), "shape": [58, 10, 10],
                                   "dtype": "float32"}
    assert meta["actions"]["digest"] == action_digest()
    assert meta["policy"] == {"kind": "linear", "features": 170, "targets": 14}
    with pytest.raises(Exception, match="170 finite numbers"):
        recipe.save(theta[:5], "classic", tmp_path / "short.npz")


def _rewrite(path: pathlib.Path, **changes: Any) -> None:
    with np.load(path, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    meta = json.loads(str(arrays["meta"]))
    for key, value in changes.items():
        if key == "theta":
            arrays["theta"] = value
        else:
            meta[key] = value
    arrays["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as out:
        np.savez(out, **arrays)


def test_a_file_of_another_kind_or_layout_is_refused(recipe: Any,
                                                     tmp_path: pathlib.Path) -> None:
    with pytest.raises(BotSpecError, match=r"no weights at .*no such file"):
        recipe.load(tmp_path / "missing.npz")
    network = tmp_path / "network.npz"
    Network.random("classic", channels=2, layers=1, seed=1).save(network)
    with pytest.raises(BotSpecError, match=r"a stratego\.nn network, played by the bot spec "
                                           r"stratego\.nn:make_bot\(path='.*network\.npz'\)"):
        recipe.load(network)
    text = tmp_path / "text.npz"
    text.write_text("not an archive", encoding="utf-8")
    with pytest.raises(BotSpecError, match=r"not a weight file \(\.npz\)"):
        recipe.load(text)
    for change, message in (
            ({"observation": {"planes": ["own/flag"], "shape": [1, 10, 10], "dtype": "float32"}},
             r"another observation layout \(planes, shape"),
            ({"actions": {"size": 7, "moves": 7, "digest": "0"}},
             r"another action layout \(digest, moves, size"),
            ({"policy": {"kind": "linear", "features": 9, "targets": 14}},
             r"another policy layout \(features: not this recipe.s\)"),
            ({"rules": "chess"}, "its rules 'chess' are not known here"),
            ({"theta": np.zeros(9)}, "'theta' is not 170 finite numbers"),
            ({"theta": np.full(170, np.nan)}, "'theta' is not 170 finite numbers")):
        path = tmp_path / "changed.npz"
        recipe.save(weights(recipe), "classic+barrage", path)
        _rewrite(path, **change)
        with pytest.raises(BotSpecError, match=message):
            recipe.load(path)


def test_the_factory_plays_the_weights_by_spec(recipe: Any, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "linear.npz"
    recipe.save(weights(recipe), "classic+barrage", path)
    bot: Any = bot_from_spec(f"{RECIPE}:make_bot(path={str(path)!r}, greedy=True)", seed=3)
    assert bot.name == "linear"
    assert bot.greedy
    assert bot.rules == BARRAGE
    result = play_match(BARRAGE, f"{RECIPE}:make_bot(path={str(path)!r})", "random",
                        games=2, seed=1, max_plies=200)
    assert len(result.games) == 2
    assert all(g.termination not in ("illegal move", "bad answer") for g in result.games)
    # only the rules it was trained under (as a stratego.nn network bot)
    classic = by_name("classic")
    with pytest.raises(RulesError, match="plays classic\\+barrage"):
        check_bot_rules(bot, classic)
    check_bot_rules(bot, BARRAGE.with_ply_limit(50))
    rng = np.random.default_rng(0)
    state = new_game(classic, random_setup(classic, Player.RED, int(rng.integers(99))),
                     random_setup(classic, Player.BLUE, int(rng.integers(99))))
    with pytest.raises(RulesError, match="trained under classic\\+barrage; they do not play "
                                         "classic"):
        bot(view(state, Player.RED))
    with pytest.raises(BotSpecError, match=r"needs the weight file, quoted: "
                                           r"make_bot\(path='reinforce\.npz'\)"):
        bot_from_spec(f"{RECIPE}:make_bot", seed=1)
    with pytest.raises(BotSpecError):  # unquoted, the spec's options do not parse
        bot_from_spec(f"{RECIPE}:make_bot(path={path})", seed=1)


def test_out_names_a_folder_that_exists(recipe: Any, tmp_path: pathlib.Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        recipe.main(["--steps", "1", "--out", str(tmp_path / "no" / "w.npz")])
    assert exit_.value.code == 2
    assert "no such folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        recipe.main(["--steps", "1", "--marks", "5"])  # one or the other


@pytest.mark.parametrize(("argv", "message"), [
    (["--steps", "-3"], "--steps is a positive number of steps, not -3"),
    (["--marks", "abc"], "--marks is a comma-separated list of increasing positive CPU "
                         "seconds (such as 10,20,40), not 'abc'"),
    (["--marks", "20,10"], "not '20,10'"),
    (["--marks", "0"], "not '0'"),
    (["--steps", "1", "--num-envs", "0"], "--num-envs is a positive whole number, not 0"),
    (["--games", "0"], "--games is an even number of games, 2 or more"),
    (["--games", "3"], "(half played as Red, half as Blue), not 3"),
    (["--steps", "1", "--max-plies", "0"], "--max-plies is a positive whole number, not 0"),
    (["--steps", "1", "--seed", "-1"], "--seed is a whole number >= 0, not -1"),
    (["--steps", "1", "--rules", "klassic"], "--rules klassic: unknown edition 'klassic'"),
])
def test_bad_arguments_are_refused_by_the_parser(recipe: Any, argv: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Arguments the recipe cannot run with are argparse errors (exit status 2), before any
    training: ``--steps -3`` printed "trained -3 steps", ``--marks abc`` ended in a bare
    ValueError, ``--num-envs 0`` and ``--games 0`` in the library's tracebacks."""
    with pytest.raises(SystemExit) as exit_:
        recipe.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "error: --" in err


def test_a_mark_below_one_second_is_labelled_as_it_is(recipe: Any,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The table's "CPU s" of a mark of 0.5 s reads 0.50, not "1" (rounded to a whole
    second)."""
    clock = iter(float(tick) / 4 for tick in range(1000))
    monkeypatch.setattr(recipe.time, "process_time", lambda: next(clock))
    monkeypatch.setattr(recipe, "evaluate", lambda *args, **kwargs: np.array([1, 1, 0]))

    def train(steps: int, *, marks: Any, **options: Any) -> Any:
        step = 0
        while not marks(np.zeros(recipe.FEATURES), step):
            step += 1
        return np.zeros(recipe.FEATURES)

    monkeypatch.setattr(recipe, "train", train)
    recipe.main(["--marks", "0.5", "--games", "2"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[2].split()[:2] == ["0.50", "2"]


def documented_loop() -> list[list[str]]:
    """The commands of docs/train.md's block that trains with ``--steps`` and ``--out``:
    one argument list per command (continued lines joined)."""
    text = (ROOT / "docs" / "train.md").read_text(encoding="utf-8")
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        if "numpy_reinforce.py --steps" in block and "--out" in block:
            joined = re.sub(r"\\\n\s*", " ", block)
            return [shlex.split(line) for line in joined.splitlines()
                    if line.strip() and not line.lstrip().startswith("#")]
    raise AssertionError("docs/train.md shows no loop with numpy_reinforce.py --steps --out")


@pytest.mark.extra("vector", "rl")
def test_the_documented_loop_trains_saves_and_rates_a_bot(
        recipe: Any, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/train.md's commands, run in a folder of their own (where ``benchmarks/`` is
    the repository's): the training writes the weight file, and ``stratego match`` plays
    it by its spec against the random bot."""
    pytest.importorskip("numba")
    from stratego.cli import main as stratego_main

    (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    train, match = documented_loop()
    assert train[:2] == ["python", "benchmarks/numpy_reinforce.py"]
    out = train[train.index("--out") + 1]
    recipe.main(train[2:])
    theta, rules = recipe.load(out)
    assert rules.name == "classic+barrage"
    assert theta.shape == (recipe.FEATURES,)
    capsys.readouterr()
    assert match[:2] == ["stratego", "match"]
    assert f"{SPEC}(path={out!r})" in match
    assert stratego_main(match[1:]) == 0
    printed = capsys.readouterr().out
    games = int(match[match.index("--games") + 1])
    assert f"{games} game(s) under classic+barrage" in printed
    # the bot is named by the spec that rebuilds it
    named = re.escape(f"{SPEC}(path={out!r})")
    assert re.search(rf"^{named}: \+\d+ =\d+ -\d+, score", printed, re.M), printed
