"""`stratego.nn.torch_net`: the policy network as a torch module, the same network as the
NumPy `stratego.nn.Network` the shipped weights play through.

torch is no dependency of the library or of CI: the tests marked `torch` run with
``pytest --torch`` after installing its CPU build; the message for a missing torch is
checked in every run."""

from __future__ import annotations

import builtins
import importlib
import pathlib
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stratego
from stratego.errors import MissingDependencyError

np = pytest.importorskip("numpy")


def test_without_torch_the_import_names_the_cpu_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing torch is the library's `MissingDependencyError` with the install line of
    the CPU build, not a bare ImportError from deep inside."""
    real_import = builtins.__import__

    def no_torch(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "torch" or name.startswith("torch."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_torch)
    monkeypatch.delitem(sys.modules, "stratego.nn.torch_net", raising=False)
    with pytest.raises(MissingDependencyError, match=r"download\.pytorch\.org/whl/cpu"):
        importlib.import_module("stratego.nn.torch_net")
    monkeypatch.delitem(sys.modules, "stratego.nn.torch_net", raising=False)


def _planes(seed: int, batch: int = 3) -> Any:
    rng = np.random.default_rng(seed)
    return ((rng.random((batch, stratego.encoding.NUM_PLANES, 10, 10)) < 0.3) * 255
            ).astype(np.uint8)


@pytest.mark.torch
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16), layers=st.integers(1, 3), channels=st.sampled_from([4, 8]))
def test_the_module_computes_the_numpy_networks_logits(seed: int, layers: int,
                                                        channels: int) -> None:
    """Invariant: a `PolicyNet` made from a `Network` gives its logits (float tolerance),
    and exports back to the same arrays."""
    from stratego.nn import Network
    from stratego.nn.torch_net import PolicyNet, as_input

    network = Network.random("classic", channels=channels, layers=layers, seed=seed)
    net = PolicyNet.from_network(network)
    planes = _planes(seed)
    logits, value = net(as_input(planes))
    assert logits.shape == (3, stratego.encoding.NUM_ACTIONS)
    assert value.shape == (3,)
    np.testing.assert_allclose(logits.detach().numpy(), network.logits(planes),
                               rtol=1e-4, atol=1e-4)
    back = net.to_network("classic")
    for name, array in network.arrays().items():
        np.testing.assert_array_equal(back.arrays()[name], array, err_msg=name)


@pytest.mark.torch
def test_an_exported_module_plays_as_a_bot_under_its_rules(tmp_path: pathlib.Path) -> None:
    """What the module learned is saved as a weight file that plays without torch, under the
    rules it was trained for only."""
    from stratego.nn import load, policy_bot
    from stratego.nn.torch_net import PolicyNet

    path = tmp_path / "mine.npz"
    PolicyNet(channels=8, layers=2).to_network("classic+barrage").save(path)
    assert load(path).rules.name == "classic+barrage"
    bot = policy_bot(path, seed=1)
    result = stratego.play_match("classic+barrage", bot, "random", games=2, seed=3)
    assert len(result.games) == 2
    with pytest.raises(stratego.RulesError):
        stratego.play_match("classic", bot, "random", games=1)


@pytest.mark.torch
def test_masked_logits_put_no_probability_on_illegal_actions() -> None:
    """A masked categorical over `masked` logits never draws an illegal action."""
    import torch

    from stratego.encoding import fill_empty_rows
    from stratego.nn.torch_net import PolicyNet, as_input, masked

    state = stratego.new_game(stratego.CLASSIC, stratego.random_setup(
        stratego.CLASSIC, stratego.Player.RED, 1), stratego.random_setup(
        stratego.CLASSIC, stratego.Player.BLUE, 2))
    planes = stratego.encoding.observation_planes(stratego.view(state, state.to_move))[None]
    legal = stratego.encoding.legal_action_mask(state)[None]
    empty = np.zeros_like(legal)
    mask = torch.from_numpy(fill_empty_rows(np.concatenate([legal, empty])))
    logits, _ = PolicyNet(channels=4, layers=1)(as_input(np.concatenate([planes, planes])))
    probs = torch.softmax(masked(logits, mask), dim=1).detach().numpy()
    assert probs[0][~legal[0]].sum() < 1e-6
    assert abs(probs[0][legal[0]].sum() - 1) < 1e-5
    assert probs[1].argmax() == stratego.encoding.DECLINE_ACTION


@pytest.mark.torch
def test_a_module_of_no_size_is_refused() -> None:
    from stratego.nn.torch_net import PolicyNet

    with pytest.raises(stratego.StrategoError, match="channels=0"):
        PolicyNet(channels=0)


@pytest.mark.torch
def test_an_ensemble_is_fine_tuned_member_by_member() -> None:
    from stratego.nn import Ensemble, Network
    from stratego.nn.torch_net import PolicyNet

    members = [Network.random("classic", channels=2, layers=1, seed=s) for s in (1, 2)]
    with pytest.raises(stratego.ArgumentError, match="one of its members"):
        PolicyNet.from_network(Ensemble(members))
    assert PolicyNet.from_network(Ensemble(members).members[1]).channels == 2


RECIPES = pathlib.Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.parametrize(("recipe", "flag"), [("selfplay.py", "--league"),
                                             ("distill.py", "--simulations"),
                                             ("train_ppo.py", "--n-steps")])
def test_the_torch_recipes_list_their_options_without_torch(recipe: str, flag: str) -> None:
    """``--help`` of a training recipe lists its options whether or not torch is installed
    (a reader decides from them whether to install it), and a run without torch stops at
    once with the install line, after the arguments were checked."""
    helped = subprocess.run([sys.executable, str(RECIPES / recipe), "--help"],
                            capture_output=True, text=True, timeout=120)
    assert helped.returncode == 0, helped.stderr
    assert flag in helped.stdout
    wrong = subprocess.run([sys.executable, str(RECIPES / recipe), "--no-such-flag"],
                           capture_output=True, text=True, timeout=120)
    assert wrong.returncode == 2
    assert f"{recipe}: error:" in wrong.stderr


@pytest.mark.torch
def test_the_distillation_recipe_runs_and_resumes(tmp_path: pathlib.Path) -> None:
    """`benchmarks/distill.py` (the search bot teaching a policy on its own games) writes a
    weight file that plays under its rules, and a second call with --resume finds the round
    done and gathers nothing more."""
    from stratego.nn import learned_weights, load

    out = tmp_path / "distill"
    start = learned_weights("policy-classic")
    command = [sys.executable, str(RECIPES / "distill.py"), "--rules", "classic",
               "--start", str(start), "--out", str(out), "--rounds", "1", "--gather",
               "0.02", "--workers", "1", "--simulations", "20", "--epochs", "1"]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=600)
    shards = sorted((out / "data").glob("*.npz"))
    assert shards
    network = load(out / "round-1.npz")
    assert network.rules.name == "classic"
    again = subprocess.run([*command, "--resume"], check=True, capture_output=True,
                           text=True, timeout=600)
    assert "round 1" not in again.stdout
    assert sorted((out / "data").glob("*.npz")) == shards
    refused = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert refused.returncode != 0
    assert "--resume" in refused.stderr
