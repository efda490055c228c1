#!/usr/bin/env python3
"""Train MaskablePPO (sb3-contrib) with a small CNN over the observation planes, and
measure it against the library's bots at marks of CPU time.

For each rule set (by default Barrage, then classic), the agent plays `Stratego-v0`
(`stratego.env.StrategoEnv`, one side against `--opponent`, a bot spec or a comma-separated
league) in `--envs` environments. At each mark of training CPU time (``--marks`` minutes,
`time.process_time` of this process, on one thread: ``torch.set_num_threads(1)``), the
policy plays as a `stratego.bots.PolicyBot` (sampling its masked policy; ``--greedy``: the
best legal action) in `stratego.match.play_match`
against ``random`` and ``heuristic`` (``--games`` games each, colours swapped), and the
score with its 95% interval and the Elo difference it implies are printed and written to
``--out/curve.json``; evaluation time is not counted as training time. At the end the
curves are drawn into ``--out/curve.svg`` and each model is saved to
``--out/ppo-<rules>.zip``, and its policy as a `stratego.nn` weight file,
``--out/ppo-<rules>.npz``, which plays without torch (``stratego.nn.policy_bot(path)``).
The policy head scores the move kinds of `stratego.nn` (`stratego.nn.move_squares`).

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install sb3-contrib
    pip install -e ".[rl]"   # from a checkout of this repository
    python benchmarks/train_ppo.py --rules classic+barrage classic --marks 5,10,20,30

To play a saved model anywhere a bot is named (``module:factory``)::

    STRATEGO_PPO_MODEL=ppo-out/ppo-classic+barrage.zip PYTHONPATH=benchmarks \\
        stratego match --edition classic+barrage --red train_ppo:make_bot --blue heuristic

Needs torch, stable-baselines3 and sb3-contrib, which are not dependencies of the library
or of its CI (the PyPI torch wheel brings gigabytes of CUDA libraries): without them this
script stops at once with a message saying what to install.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import time
from typing import Any

import numpy as np
from curves import curve_svg

from stratego.bots import PolicyBot
from stratego.bots.heuristic import PIECE_VALUES
from stratego.editions import by_name
from stratego.encoding import NUM_ACTIONS, NUM_MOVE_ACTIONS
from stratego.env import StrategoEnv
from stratego.match import play_match
from stratego.nn import KINDS, Network, move_squares
from stratego.pieces import Rank

try:
    import gymnasium
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise SystemExit(f"train_ppo.py needs the rl extra (pip install 'stratego[rl]'): "
                     f"{missing}") from None


def arguments() -> argparse.ArgumentParser:
    """The command line this script reads."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["classic+barrage", "classic"])
    parser.add_argument("--marks", default="5,10,20,30", help="CPU minutes of training at "
                        "which to evaluate (default: %(default)s)")
    parser.add_argument("--opponent", default="random",
                        help="training opponent: a bot spec or a comma-separated league")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--games", type=int, default=200, help="games per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--channels", type=int, default=32, help="CNN channels")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per update")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per env per update")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--greedy", action="store_true", help="evaluate the best legal "
                        "action instead of sampling the policy")
    parser.add_argument("--shaping", type=float, default=0.0, help="weight of the material "
                        "shaping term (0: the game's reward alone)")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("ppo-out"))
    return parser


try:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from stable_baselines3.common.vec_env import DummyVecEnv
    from torch import nn
except ImportError as missing:  # pragma: no cover - depends on the machine
    if __name__ == "__main__":  # --help and bad arguments answer without torch
        arguments().parse_args()
    raise SystemExit(f"train_ppo.py needs torch, stable-baselines3 and sb3-contrib "
                     f"(pip install torch sb3-contrib): {missing}") from None


def _action_squares() -> tuple[np.ndarray, np.ndarray]:
    """For every move action (from the mover's seat): the index of its (kind, from-square)
    and of its (kind, to-square) in the head's flattened maps; the kinds are the move planes
    of the factored action form (4 directions x 9 distances, and Ultimate Lightning's turning
    two-steps): `stratego.nn.move_squares`, the tables of the NumPy forward pass."""
    return move_squares()


class PlanesCNN(BaseFeaturesExtractor):  # type: ignore[misc]
    """Convolutions over the (NUM_PLANES, 10, 10) planes; the features are the last
    layer's maps, flattened (channels x 100), so the policy head can read them square by
    square."""

    def __init__(self, observation_space: Any, channels: int = 32):
        super().__init__(observation_space, channels * 100)
        planes = observation_space.shape[0]
        self.net = nn.Sequential(
            nn.Conv2d(planes, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Flatten(),
        )

    def forward(self, planes: torch.Tensor) -> torch.Tensor:
        return self.net(planes)


class SquareHead(nn.Module):
    """Action logits read square by square: a move's logit is the from-square's score plus
    the to-square's score for the move's direction and distance (two 1x1 convolutions);
    the other actions (Rescue placements) get a linear map of the pooled features."""

    def __init__(self, channels: int):
        super().__init__()
        self.channels = channels
        self.maps = nn.Conv2d(channels, 2 * KINDS, 1)
        self.other = nn.Linear(channels, NUM_ACTIONS - NUM_MOVE_ACTIONS)
        frm, to = _action_squares()
        self.register_buffer("frm_index", torch.as_tensor(frm, dtype=torch.long))
        self.register_buffer("to_index", torch.as_tensor(to, dtype=torch.long))
        for layer in (self.maps, self.other):  # small logits: a near-uniform first policy
            nn.init.orthogonal_(layer.weight, gain=0.01)
            nn.init.zeros_(layer.bias)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        grid = features.view(-1, self.channels, 10, 10)
        maps = self.maps(grid).flatten(1)
        moves = maps[:, self.frm_index] + maps[:, self.to_index]
        return torch.cat([moves, self.other(grid.mean(dim=(2, 3)))], dim=1)


class SquarePolicy(MaskableActorCriticPolicy):  # type: ignore[misc]
    """MaskablePPO's actor-critic with `SquareHead` as the action head."""

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = SquareHead(self.features_extractor.net[0].out_channels)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)


class MaterialShaping(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Adds a potential-based shaping term to the game's reward: ``weight * (gamma *
    phi(next) - phi(now))``, where phi is the agent's material minus the opponent's (the
    heuristic bot's piece values, the Flag left out, divided by one army's worth) and 0 once
    the game is over. Potential-based shaping leaves the best policy unchanged (Ng, Harada
    and Russell, 1999); it only tells the learner sooner that a strike paid. The
    evaluations count game results only."""

    def __init__(self, env: Any, weight: float, gamma: float) -> None:
        super().__init__(env)
        self.weight, self.gamma, self.phi = weight, gamma, 0.0
        army = env.unwrapped.rules.army
        self.worth: float = sum(PIECE_VALUES[rank] * army.count(rank) for rank in Rank
                                if rank is not Rank.FLAG)

    def _material(self) -> float:
        game: Any = self.env.unwrapped
        total = 0.0
        for _, piece in game.game_state.pieces():
            if piece.rank is not Rank.FLAG:
                sign = 1.0 if piece.owner is game.player else -1.0
                total += sign * PIECE_VALUES[piece.rank]
        return total / self.worth

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        self.phi = self._material()
        return obs, info

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = 0.0 if terminated or truncated else self._material()
        reward = float(reward) + self.weight * (self.gamma * phi - self.phi)
        self.phi = phi
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        game: Any = self.env.unwrapped
        masks: np.ndarray = game.action_masks()
        return masks


def policy_bot(model: Any, seed: int | None = None, greedy: bool = False) -> PolicyBot:
    """The model as a bot: its policy's logits, which `PolicyBot` masks, then samples
    (or, with `greedy`, takes the best legal action)."""

    def act(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.as_tensor(planes[None]))
        logits: np.ndarray = dist.distribution.logits[0].numpy()
        return logits

    return PolicyBot(act, greedy=greedy, seed=seed, name="ppo")


def export_network(model: Any, rules: Any, path: pathlib.Path) -> None:
    """Write the model's policy (convolutions and square head) as a `stratego.nn` weight
    file, which plays without torch (`stratego.nn.policy_bot(path)`)."""
    convs = [layer for layer in model.policy.features_extractor.net
             if isinstance(layer, nn.Conv2d)]
    head = model.policy.action_net
    arrays: dict[str, Any] = {}
    for index, conv in enumerate(convs):
        arrays[f"conv.{index}.weight"] = conv.weight.detach().cpu().numpy()
        arrays[f"conv.{index}.bias"] = conv.bias.detach().cpu().numpy()
    arrays["head.maps.weight"] = head.maps.weight.detach().cpu().numpy()[:, :, 0, 0]
    arrays["head.maps.bias"] = head.maps.bias.detach().cpu().numpy()
    arrays["head.other.weight"] = head.other.weight.detach().cpu().numpy()
    arrays["head.other.bias"] = head.other.bias.detach().cpu().numpy()
    Network.from_arrays(arrays, rules).save(path)


def make_bot(seed: int | None = None, **options: Any) -> PolicyBot:
    """A bot factory (``train_ppo:make_bot``) for the model in ``$STRATEGO_PPO_MODEL``."""
    path = options.get("path") or os.environ["STRATEGO_PPO_MODEL"]
    return policy_bot(MaskablePPO.load(path, device="cpu"), seed,
                      greedy=bool(options.get("greedy", False)))


class Marks(BaseCallback):  # type: ignore[misc]
    """Evaluates at each mark of training CPU time and stops after the last one."""

    def __init__(self, rules: Any, marks: list[float], games: int, log: list[dict[str, Any]],
                 max_plies: int, greedy: bool = False) -> None:
        super().__init__()
        self.rules, self.marks, self.games, self.log = rules, marks, games, log
        self.greedy = greedy
        self.max_plies = max_plies
        self.spent = 0.0
        self.clock = time.process_time()

    def _on_step(self) -> bool:
        now = time.process_time()
        self.spent += now - self.clock
        if self.marks and self.spent >= 60 * self.marks[0]:
            self.evaluate(self.marks.pop(0))
        self.clock = time.process_time()  # evaluating is not training
        return bool(self.marks)

    def evaluate(self, minutes: float) -> None:
        row: dict[str, Any] = {"rules": self.rules.name, "minutes": minutes,
                               "steps": int(self.num_timesteps)}
        for opponent in ("random", "heuristic"):
            result = play_match(self.rules, policy_bot(self.model, seed=1, greedy=self.greedy),
                                opponent,
                                games=self.games, seed=int(minutes * 1000),
                                max_plies=self.max_plies)
            score = result.tally("ppo")
            low, high = score.interval()
            row[opponent] = {"wins": score.wins, "draws": score.draws, "losses": score.losses,
                             "score": score.score, "low": low, "high": high,
                             "elo": score.elo, "elo_interval": score.elo_interval()}
            print(f"{self.rules.name} {minutes:g} CPU-min ({row['steps']} steps): {score}",
                  flush=True)
        self.log.append(row)


def main() -> None:
    args = arguments().parse_args()
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    log: list[dict[str, Any]] = []
    opponents = args.opponent.split(",")
    for name in args.rules:
        rules = by_name(name)
        max_plies = 400 if rules.army.size <= 10 else 1500

        def build(index: int, rules: Any = rules, max_plies: int = max_plies) -> Any:
            def make() -> Any:
                env = StrategoEnv(rules, opponents, player=("red", "blue")[index % 2],
                                  max_plies=max_plies)
                return MaterialShaping(env, args.shaping, args.gamma) if args.shaping else env

            return make

        env = DummyVecEnv([build(i) for i in range(args.envs)])
        model = MaskablePPO(SquarePolicy, env, seed=args.seed, device="cpu", verbose=0,
                            n_steps=args.n_steps, batch_size=args.batch_size,
                            n_epochs=args.epochs, gamma=args.gamma, learning_rate=args.lr,
                            ent_coef=0.01,
                            policy_kwargs={"features_extractor_class": PlanesCNN,
                                           "features_extractor_kwargs":
                                               {"channels": args.channels},
                                           "normalize_images": False,
                                           "net_arch": {"pi": [], "vf": [64]}})
        marks = [float(m) for m in args.marks.split(",")]
        model.learn(total_timesteps=10**12, callback=Marks(rules, marks, args.games, log,
                                                            max_plies, args.greedy))
        model.save(args.out / f"ppo-{name}.zip")
        export_network(model, rules, args.out / f"ppo-{name}.npz")
        (args.out / "curve.json").write_text(json.dumps(log, indent=1), encoding="utf-8")
        curve_svg(log, args.out / "curve.svg")
    print(f"curves: {args.out / 'curve.svg'}, figures: {args.out / 'curve.json'}")


if __name__ == "__main__":
    main()
