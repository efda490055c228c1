"""`stratego.nn`: the policy network's NumPy forward pass, its weight files and its bots.

Checked against a plain reference written here square by square (a 3x3 convolution with
zero padding, ReLU, a move's logit = its from-square's score on its kind's first map plus
its to-square's score on the second, the other actions a linear map of the mean features),
with small random weights. No torch.
"""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from stratego import Player, apply, new_game, view  # noqa: E402
from stratego.editions import by_name  # noqa: E402
from stratego.encoding import (  # noqa: E402
    FACTORED_PLANES,
    NUM_ACTIONS,
    NUM_MOVE_ACTIONS,
    NUM_PLANES,
    action_moves,
    factored_index,
    observation_planes,
)
from stratego.errors import ArgumentError, BotSpecError, RulesError  # noqa: E402
from stratego.nn import (  # noqa: E402
    KINDS,
    Ensemble,
    Network,
    NetworkBot,
    load,
    make_bot,
    policy_bot,
)
from stratego.setups import random_setup  # noqa: E402

BARRAGE = by_name("classic+barrage")
CLASSIC = by_name("classic")


def start(rules: Any, seed: int) -> Any:
    rng = random.Random(seed)
    return new_game(rules, random_setup(rules, Player.RED, rng),
                    random_setup(rules, Player.BLUE, rng))


def reference_logits(arrays: dict[str, Any], planes: Any) -> Any:
    """The network's logits for one view, computed square by square."""
    x = planes.astype(np.float64)
    layer = 0
    while f"conv.{layer}.weight" in arrays:
        w, b = arrays[f"conv.{layer}.weight"], arrays[f"conv.{layer}.bias"]
        out = np.zeros((w.shape[0], 10, 10))
        for row in range(10):
            for file in range(10):
                total = b.astype(np.float64).copy()
                for i in range(3):
                    for j in range(3):
                        r, f = row + i - 1, file + j - 1
                        if 0 <= r < 10 and 0 <= f < 10:
                            total += w[:, :, i, j] @ x[:, r, f]
                out[:, row, file] = np.maximum(total, 0)
        x = out
        layer += 1
    features = x.reshape(x.shape[0], 100)
    maps = arrays["head.maps.weight"] @ features + arrays["head.maps.bias"][:, None]
    logits = np.zeros(NUM_ACTIONS)
    for action, move in enumerate(action_moves(Player.RED)[:NUM_MOVE_ACTIONS]):
        kind = factored_index(action) // 100
        assert move.frm is not None
        assert move.to is not None
        logits[action] = maps[kind, move.frm.index] + maps[KINDS + kind, move.to.index]
    logits[NUM_MOVE_ACTIONS:] = (arrays["head.other.weight"] @ features.mean(axis=1)
                                 + arrays["head.other.bias"])
    return logits


@pytest.mark.parametrize("seed", [0, 1])
def test_the_forward_pass_matches_the_square_by_square_reference(seed: int) -> None:
    net = Network.random(BARRAGE, channels=4, layers=2, seed=seed, scale=0.3)
    state = start(BARRAGE, seed)
    for ply in range(3):
        planes = observation_planes(view(state, state.to_move))
        got = net(planes, None)
        want = reference_logits(net.arrays(), planes)
        assert got.shape == (NUM_ACTIONS,)
        assert np.allclose(got, want, atol=1e-4), np.abs(got - want).max()
        bot = policy_bot(net, seed=ply)
        state = apply(state, bot(view(state, state.to_move)))


def test_the_head_has_one_kind_per_move_plane_of_the_factored_form() -> None:
    assert sum(1 for name in FACTORED_PLANES
                        if not name.startswith("rescue/") and name != "decline") == KINDS


def test_a_batch_and_uint8_planes_give_the_same_logits() -> None:
    net = Network.random(CLASSIC, channels=3, layers=1, seed=2)
    states = [start(CLASSIC, s) for s in range(3)]
    planes = np.stack([observation_planes(s) for s in states])
    batch = net.logits(planes)
    assert batch.shape == (3, NUM_ACTIONS)
    for i in range(3):
        assert np.allclose(batch[i], net(planes[i]), atol=1e-5)
    from stratego.encoding import compact_planes

    assert np.allclose(net.logits(compact_planes(planes)), batch, atol=1e-2)


def test_a_weight_file_round_trips_and_is_read_once(tmp_path: pathlib.Path) -> None:
    net = Network.random(BARRAGE, channels=4, layers=2, seed=3)
    path = tmp_path / "barrage.npz"
    net.save(path)
    loaded = load(path)
    assert isinstance(loaded, Network)  # one network's file (an ensemble's: Ensemble)
    assert load(str(path)) is loaded  # the cache: one read per process
    planes = observation_planes(start(BARRAGE, 4))
    assert np.array_equal(loaded(planes), net(planes))
    assert loaded.rules == BARRAGE
    assert loaded.layers == 2
    assert loaded.channels == 4
    with np.load(path) as archive:
        meta = json.loads(str(archive["meta"]))
    assert meta["rules"] == "classic+barrage"
    assert meta["observation"]["shape"] == [NUM_PLANES, 10, 10]
    assert meta["actions"]["size"] == NUM_ACTIONS
    Network.random(BARRAGE, channels=2, layers=1, seed=4).save(path)  # a new file
    again = load(path)
    assert again is not loaded
    assert isinstance(again, Network)
    assert again.channels == 2


def test_a_weight_file_is_saved_at_exactly_the_path_given(tmp_path: pathlib.Path) -> None:
    """`save(path)` then `load(path)` with a name without ``.npz``: NumPy would have
    written ``path.npz`` and `load(path)` found nothing there."""
    net = Network.random(CLASSIC, channels=2, layers=1, seed=5)
    path = tmp_path / "weights"
    net.save(path)
    assert path.exists()
    assert not (tmp_path / "weights.npz").exists()
    planes = observation_planes(start(CLASSIC, 2))
    assert np.array_equal(load(path)(planes), net(planes))


def test_weights_that_are_not_finite_are_refused(tmp_path: pathlib.Path) -> None:
    """A diverged training run's weights (NaN) choose no move: refused when read, not at
    the first move of a match."""
    net = Network.random(CLASSIC, channels=2, layers=1, seed=6)
    arrays = net.arrays()
    first = sorted(arrays)[0]
    arrays[first] = np.full_like(arrays[first], np.nan)
    path = tmp_path / "nan.npz"
    np.savez(path, meta=np.array(json.dumps(net.meta)), **arrays)
    with pytest.raises(BotSpecError, match=f"{first} holds values that are not finite"):
        load(path)


def test_the_greedy_flag_is_true_or_false(tmp_path: pathlib.Path) -> None:
    net = Network.random(CLASSIC, channels=2, layers=1, seed=7)
    with pytest.raises(ArgumentError, match="greedy must be True or False, not 'no'"):
        policy_bot(net, greedy="no")  # type: ignore[arg-type]
    path = tmp_path / "net.npz"
    net.save(path)
    with pytest.raises(ArgumentError, match="greedy must be True or False, not 'no'"):
        make_bot(1, path=str(path), greedy="no")


def test_a_barrage_model_refuses_to_play_classic(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "barrage.npz"
    Network.random(BARRAGE, channels=2, layers=1, seed=5).save(path)
    bot = policy_bot(path, seed=0)
    assert isinstance(bot, NetworkBot)
    assert bot.rules == BARRAGE
    state = start(BARRAGE, 6)
    assert bot(view(state, state.to_move)) in view(state, state.to_move).legal_moves
    classic = start(CLASSIC, 6)
    with pytest.raises(RulesError, match=r"trained under classic\+barrage.*does not play "
                                         r"classic"):
        bot(view(classic, classic.to_move))


def rewrite_meta(path: pathlib.Path, change: Any) -> None:
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files}
    meta = json.loads(str(arrays.pop("meta")))
    change(meta)
    np.savez(path, meta=np.array(json.dumps(meta)), **arrays)


@pytest.mark.parametrize(("change", "message"), [
    (lambda m: m.update(format="stratego.nn/0"), "format"),
    (lambda m: m["observation"]["planes"].reverse(), "observation layout \\(planes"),
    (lambda m: m["actions"].update(size=10), "action layout \\(size"),
    (lambda m: m["actions"].update(digest="0"), "action layout \\(digest"),
    (lambda m: m.update(rules="no-such-rules"), "rules 'no-such-rules'"),
])
def test_a_weight_file_of_another_layout_is_refused(tmp_path: pathlib.Path, change: Any,
                                                    message: str) -> None:
    path = tmp_path / "net.npz"
    Network.random(CLASSIC, channels=2, layers=1, seed=7).save(path)
    rewrite_meta(path, change)
    with pytest.raises(BotSpecError, match=message):
        load(path)


def test_files_that_are_no_weight_files_are_refused(tmp_path: pathlib.Path) -> None:
    with pytest.raises(BotSpecError, match="no network weights"):
        load(tmp_path / "missing.npz")
    text = tmp_path / "text.npz"
    text.write_text("not a zip")
    with pytest.raises(BotSpecError, match="not a network weight file"):
        load(text)
    bare = tmp_path / "bare.npz"
    np.savez(bare, x=np.zeros(3))
    with pytest.raises(BotSpecError, match="meta"):
        load(bare)
    # text where the weights' numbers go, and a meta record nested too deep to parse
    words = tmp_path / "words.npz"
    Network.random(CLASSIC, channels=2, layers=1, seed=7).save(words)
    with np.load(words) as archive:
        arrays = {name: archive[name] for name in archive.files}
    arrays["head.maps.bias"] = np.array(["x"] * arrays["head.maps.bias"].size)
    np.savez(words, **arrays)
    with pytest.raises(BotSpecError, match=r"head\.maps\.bias holds no numbers"):
        load(words)
    deep = tmp_path / "deep.npz"
    np.savez(deep, meta=np.array("[" * 100_000))
    with pytest.raises(BotSpecError, match="'meta' record is not JSON"):
        load(deep)


def test_the_bot_factory_takes_a_path(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "net.npz"
    Network.random(CLASSIC, channels=2, layers=1, seed=8).save(path)
    bot = make_bot(1, path=str(path), greedy=True)
    assert bot.greedy
    assert bot.network is load(path)
    with pytest.raises(BotSpecError, match="path"):
        make_bot(1)


def test_the_bot_factory_path_is_quoted_in_a_spec(tmp_path: pathlib.Path) -> None:
    """A spec's options are Python literals: the path is written ``path='...'``, and the
    factory says so when it gets a path that is no text."""
    from stratego.bots import make_bot as bot_from_spec

    path = tmp_path / "net.npz"
    Network.random(CLASSIC, channels=2, layers=1, seed=8).save(path)
    bot = bot_from_spec(f"stratego.nn:make_bot(path={str(path)!r}, greedy=True)", seed=1)
    assert isinstance(bot, NetworkBot)
    assert bot.network is load(path)
    assert "stratego.nn:make_bot(path='weights.npz')" in (make_bot.__doc__ or "")
    for value in (3, 1.5, ["net.npz"]):
        with pytest.raises(BotSpecError, match=r"quote the path: path='\.\.\.'"):
            make_bot(1, path=value)
    with pytest.raises(BotSpecError, match=r"takes path='FILE\.npz' \(quoted\)"):
        make_bot(1, weights=str(path))
    with pytest.raises(BotSpecError, match=r"quote the path: path='/.*net\.npz'"):
        bot_from_spec(f"stratego.nn:make_bot(path={path})", seed=1)  # unquoted
    with pytest.raises(BotSpecError, match=r"quote the text: mode='fast'"):
        bot_from_spec("stratego.nn:make_bot(greedy=True, mode=fast)", seed=1)
    with pytest.raises(BotSpecError) as caught:  # nothing bare to quote: no hint
        bot_from_spec("stratego.nn:make_bot(greedy=True, 3)", seed=1)
    assert "quote" not in str(caught.value)


def members(rules: Any, seeds: tuple[int, ...]) -> list[Any]:
    return [Network.random(rules, channels=3 + s % 2, layers=1 + s % 2, seed=s, scale=0.3)
            for s in seeds]


@pytest.mark.parametrize("seeds", [(1,), (2, 3), (4, 5, 6)])
def test_an_ensemble_is_the_mean_of_its_members_log_probabilities(seeds: tuple[int, ...]) -> None:
    """`Ensemble`: the logits are the mean of the members' log-softmax, so its masked policy
    is that of the members' masked log-probabilities averaged (each normaliser shifts all
    actions alike), and a bot over it picks the best move of that mean."""
    nets = members(CLASSIC, seeds)
    ensemble = Ensemble(nets)
    state = start(CLASSIC, 9)
    seen = view(state, state.to_move)
    planes = observation_planes(seen)
    from stratego.encoding import legal_action_mask

    mask = legal_action_mask(seen)

    def masked_log_probs(logits: Any) -> Any:
        legal = np.where(mask, logits.astype(np.float64), -np.inf)
        return legal - np.log(np.exp(legal - legal.max()).sum()) - legal.max()

    expected = masked_log_probs(np.mean([masked_log_probs(net(planes)) for net in nets],
                                        axis=0))
    got = masked_log_probs(ensemble(planes))
    assert np.allclose(got[mask], expected[mask], atol=1e-4)
    assert np.allclose(ensemble.logits(planes[None])[0], ensemble(planes))
    bot = policy_bot(ensemble, greedy=True)
    assert bot(seen) == action_moves(seen.player)[int(np.argmax(np.where(mask, expected,
                                                                           -np.inf)))]
    if len(nets) == 1:
        assert np.argmax(np.where(mask, nets[0](planes), -np.inf)) == np.argmax(
            np.where(mask, ensemble(planes), -np.inf))


def test_an_ensemble_weight_file_round_trips(tmp_path: pathlib.Path) -> None:
    ensemble = Ensemble(members(BARRAGE, (7, 8)))
    path = tmp_path / "ensemble.npz"
    ensemble.save(path)
    loaded = load(path)
    assert isinstance(loaded, Ensemble)
    assert load(path) is loaded  # read once per process
    assert loaded.rules == BARRAGE
    assert [(m.channels, m.layers) for m in loaded.members] == [(4, 2), (3, 1)]
    planes = observation_planes(start(BARRAGE, 10))
    assert np.array_equal(loaded(planes), ensemble(planes))
    bot = make_bot(1, path=str(path), greedy=True)
    assert bot.network is loaded
    classic = start(CLASSIC, 6)
    with pytest.raises(RulesError, match="does not play classic"):
        bot(view(classic, classic.to_move))


@pytest.mark.parametrize("scale", [10**400, float("inf"), float("nan"), -0.1, 1001, "0.1"])
def test_random_weights_of_a_scale_no_float_holds_are_refused(scale: object) -> None:
    """`Network.random` draws normal weights of standard deviation `scale`: one no
    float holds (or a negative one) raised a bare OverflowError or ValueError, or gave
    infinite weights."""
    from stratego.errors import ArgumentError

    with pytest.raises(ArgumentError, match="scale must be a number from 0 to 1000"):
        Network.random(CLASSIC, channels=2, layers=1, scale=scale)  # type: ignore[arg-type]
    assert Network.random(CLASSIC, channels=2, layers=1, scale=1000).channels == 2


def test_ensembles_of_nothing_or_of_other_rules_are_refused() -> None:
    from stratego.errors import ArgumentError

    for wrong in ([], None, 3, "net.npz", [Network.random(CLASSIC, channels=2, layers=1), 7]):
        with pytest.raises(ArgumentError, match="one or more Networks"):
            Ensemble(wrong)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="share their rules, not classic, classic\\+barrage"):
        Ensemble([*members(CLASSIC, (1,)), *members(BARRAGE, (2,))])


@pytest.mark.parametrize(("change", "message"), [
    (lambda meta, arrays: meta["network"].update(members=[{}, {}, {}]), "no arrays member.2"),
    (lambda meta, arrays: meta["network"].update(members=[{}]), "outside its 1 members"),
    (lambda meta, arrays: meta["network"].update(members=7), "not a list"),
    (lambda meta, arrays: arrays.pop("member.1.conv.0.bias"), "member 1: .*lack conv.0.bias"),
    (lambda meta, arrays: arrays.update(stray=np.zeros(2)), "outside its 2 members: 'stray'"),
])
def test_an_ensemble_file_that_disagrees_with_its_meta_is_refused(
        tmp_path: pathlib.Path, change: Any, message: str) -> None:
    path = tmp_path / "ensemble.npz"
    Ensemble(members(CLASSIC, (1, 2))).save(path)
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files}
    meta = json.loads(str(arrays.pop("meta")))
    change(meta, arrays)
    np.savez(path, meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(BotSpecError, match=message):
        load(path)
