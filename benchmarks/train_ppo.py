#!/usr/bin/env python3
"""Train MaskablePPO (sb3-contrib) with a small CNN over the observation planes, and
measure it against the library's bots at marks of CPU time.

For each rule set (by default Barrage, then classic), the agent plays `Stratego-v0`
(`stratego.env.StrategoEnv`, one side against `--opponent`, a bot spec or a comma-separated
league) in `--envs` environments. At each mark of training CPU time (``--marks`` minutes,
`time.process_time` of this process, on one thread: ``torch.set_num_threads(1)``), the
policy plays as a `stratego.bots.PolicyBot` (greedy, masked) in `stratego.match.play_match`
against ``random`` and ``heuristic`` (``--games`` games each, colours swapped), and the
score with its 95% interval and the Elo difference it implies are printed and written to
``--out/curve.json``; evaluation time is not counted as training time. At the end the
curves are drawn into ``--out/curve.svg`` and each model is saved to
``--out/ppo-<rules>.zip``.

    pip install torch sb3-contrib 'stratego[rl]'
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

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from stable_baselines3.common.vec_env import DummyVecEnv
    from torch import nn
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise SystemExit(f"train_ppo.py needs torch, stable-baselines3 and sb3-contrib "
                     f"(pip install torch sb3-contrib): {missing}") from None

from stratego.bots import PolicyBot
from stratego.editions import by_name
from stratego.env import StrategoEnv
from stratego.match import play_match


class PlanesCNN(BaseFeaturesExtractor):  # type: ignore[misc]
    """Three convolutions over the (NUM_PLANES, 10, 10) planes, then one dense layer."""

    def __init__(self, observation_space: Any, features_dim: int = 256, channels: int = 64):
        super().__init__(observation_space, features_dim)
        planes = observation_space.shape[0]
        self.net = nn.Sequential(
            nn.Conv2d(planes, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, 16, 1), nn.ReLU(),
            nn.Flatten(),
            nn.Linear(16 * 10 * 10, features_dim), nn.ReLU(),
        )

    def forward(self, planes: torch.Tensor) -> torch.Tensor:
        return self.net(planes)


def policy_bot(model: Any, seed: int | None = None) -> PolicyBot:
    """The model as a bot: the masked, greedy action of its policy."""

    def act(planes: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(planes, action_masks=mask, deterministic=True)
        return int(action)

    return PolicyBot(act, greedy=True, seed=seed, name="ppo")


def make_bot(seed: int | None = None, **options: Any) -> PolicyBot:
    """A bot factory (``train_ppo:make_bot``) for the model in ``$STRATEGO_PPO_MODEL``."""
    path = options.get("path") or os.environ["STRATEGO_PPO_MODEL"]
    return policy_bot(MaskablePPO.load(path, device="cpu"), seed)


class Marks(BaseCallback):  # type: ignore[misc]
    """Evaluates at each mark of training CPU time and stops after the last one."""

    def __init__(self, rules: Any, marks: list[float], games: int, log: list[dict[str, Any]],
                 max_plies: int) -> None:
        super().__init__()
        self.rules, self.marks, self.games, self.log = rules, marks, games, log
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
            result = play_match(self.rules, policy_bot(self.model), opponent, games=self.games,
                                seed=int(minutes * 1000), max_plies=self.max_plies)
            score = result.tally("ppo")
            low, high = score.interval()
            row[opponent] = {"wins": score.wins, "draws": score.draws, "losses": score.losses,
                             "score": score.score, "low": low, "high": high,
                             "elo": score.elo, "elo_interval": score.elo_interval()}
            print(f"{self.rules.name} {minutes:g} CPU-min ({row['steps']} steps): {score}",
                  flush=True)
        self.log.append(row)


def curve_svg(log: list[dict[str, Any]], path: pathlib.Path) -> None:
    """Score (with its 95% interval) against CPU minutes, one line per rules and opponent."""
    width, height, left, bottom = 640, 360, 50, 40
    top = max((row["minutes"] for row in log), default=1.0)
    colours = {"random": "#c0392b", "heuristic": "#2c3e50"}
    dashes = {}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']

    def x(minutes: float) -> float:
        return left + (width - left - 20) * minutes / top

    def y(score: float) -> float:
        return height - bottom - (height - bottom - 20) * score

    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" x2="{width - 20}" y1="{y(tick)}" y2="{y(tick)}" '
                     f'stroke="#ddd"/><text x="{left - 8}" y="{y(tick) + 4}" '
                     f'text-anchor="end">{tick:.0%}</text>')
    parts.append(f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">training CPU '
                 f'minutes (one thread)</text>')
    for rules in dict.fromkeys(row["rules"] for row in log):
        dashes.setdefault(rules, "" if not dashes else ' stroke-dasharray="6 4"')
        rows = [row for row in log if row["rules"] == rules]
        for opponent, colour in colours.items():
            points = " ".join(f"{x(r['minutes']):.1f},{y(r[opponent]['score']):.1f}"
                              for r in rows)
            parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                         f'stroke-width="2"{dashes[rules]}/>')
            for r in rows:
                parts.append(f'<line x1="{x(r["minutes"]):.1f}" x2="{x(r["minutes"]):.1f}" '
                             f'y1="{y(r[opponent]["low"]):.1f}" y2="{y(r[opponent]["high"]):.1f}" '
                             f'stroke="{colour}"/>')
    legend = [(f"{rules} v {opponent}", colours[opponent], dashes[rules])
              for rules in dashes for opponent in colours]
    for i, (label, colour, dash) in enumerate(legend):
        parts.append(f'<line x1="{left + 10}" x2="{left + 40}" y1="{30 + 16 * i}" '
                     f'y2="{30 + 16 * i}" stroke="{colour}" stroke-width="2"{dash}/>'
                     f'<text x="{left + 46}" y="{34 + 16 * i}">{label}</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["classic+barrage", "classic"])
    parser.add_argument("--marks", default="5,10,20,30", help="CPU minutes of training at "
                        "which to evaluate (default: %(default)s)")
    parser.add_argument("--opponent", default="random",
                        help="training opponent: a bot spec or a comma-separated league")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--games", type=int, default=200, help="games per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("ppo-out"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    log: list[dict[str, Any]] = []
    opponents = args.opponent.split(",")
    for name in args.rules:
        rules = by_name(name)
        max_plies = 400 if rules.army.size <= 10 else 1500

        def build(index: int, rules: Any = rules, max_plies: int = max_plies) -> Any:
            return lambda: StrategoEnv(rules, opponents, player=("red", "blue")[index % 2],
                                       max_plies=max_plies)

        env = DummyVecEnv([build(i) for i in range(args.envs)])
        model = MaskablePPO("MlpPolicy", env, seed=args.seed, device="cpu", verbose=0,
                            n_steps=256, batch_size=256, learning_rate=3e-4, ent_coef=0.01,
                            policy_kwargs={"features_extractor_class": PlanesCNN,
                                           "normalize_images": False,
                                           "net_arch": {"pi": [256], "vf": [256]}})
        marks = [float(m) for m in args.marks.split(",")]
        model.learn(total_timesteps=10**12, callback=Marks(rules, marks, args.games, log,
                                                            max_plies))
        model.save(args.out / f"ppo-{name}.zip")
        (args.out / "curve.json").write_text(json.dumps(log, indent=1), encoding="utf-8")
        curve_svg(log, args.out / "curve.svg")
    print(f"curves: {args.out / 'curve.svg'}, figures: {args.out / 'curve.json'}")


if __name__ == "__main__":
    main()
