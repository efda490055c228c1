#!/usr/bin/env python3
"""Self-play PPO on the batched engine: the recipe of the shipped `policy-barrage` and
`policy-classic` weights.

One file in the style of a CleanRL script. The network is the one `stratego.nn` plays
without torch: convolutions over the observation planes, then each move's logit read off
the board (its from-square's score plus its to-square's score for its move kind), with a
value head beside it for training only.

1. **Imitation** (``--imitate`` CPU minutes, optional): the network first learns to play
   like the `heuristic` bot, from positions of heuristic-against-heuristic games
   (cross-entropy on the heuristic's move). A cheap start; PPO then has to beat its
   teacher.
2. **PPO self-play** on `stratego.vector.BatchVectorEnv`: two batched environments, one
   seating the learner as Red and one as Blue, so it plays both seats of every deal.
   Each game's opponent is drawn from a league: the current network (self-play), a
   past checkpoint (the league grows at every mark), and the library's bots
   (``--bots``, by default ``heuristic``). Rewards are the game result (+1, -1, 0 for a
   draw or the ply limit) plus a potential-based material term (``--shaping``: the
   learner's material minus the opponent's, both read off the learner's own
   observation planes, so nothing hidden leaks into training; it leaves the best
   policy unchanged).
3. **Marks** (``--marks`` CPU minutes of training, this process's
   `time.process_time` on one thread): at each mark the policy is exported as a
   `stratego.nn` weight file, evaluated with `stratego.match.play_match` against
   ``random`` and ``heuristic`` (evaluation time is not training time), and a checkpoint
   is written (atomically: model, optimizer, league, generators, curve). ``--resume``
   continues from the checkpoint after a kill; the checkpoint records the rules, the
   observation layout and the action layout, and a resume under other ones is refused.

    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    pip install -e ".[numpy,rl]"          # from a checkout of this repository
    python benchmarks/selfplay.py --rules classic+barrage --imitate 6 \\
        --marks 10,20,30,45,60 --out runs/barrage
    python benchmarks/selfplay.py --rules classic+barrage --out runs/barrage --resume

The weight file of the last mark (``<out>/policy.npz``) is what
``src/stratego/nn/weights/`` ships. Needs torch, which is not a dependency of the library
or of its CI: without it this script stops at once with a message saying what to install.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import pathlib
import random
import time
from typing import Any

import numpy as np

from stratego import apply, new_game, random_setup
from stratego.bots import make_bot
from stratego.bots.heuristic import PIECE_VALUES
from stratego.editions import by_name
from stratego.encoding import (
    NUM_ACTIONS,
    NUM_PLANES,
    PLANES,
    action_index,
    observation_planes,
)
from stratego.errors import MissingDependencyError
from stratego.match import play_match
from stratego.nn import action_digest, policy_bot
from stratego.pieces import Player, Rank
from stratego.views import view

try:
    from stratego.vector.env import BatchVectorEnv
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise SystemExit(f"selfplay.py needs the rl and vector extras "
                     f"(pip install 'stratego[rl,vector]'): {missing}") from None


def arguments() -> argparse.ArgumentParser:
    """The command line this script reads."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic+barrage")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--resume", action="store_true", help="continue from <out>/checkpoint.pt")
    parser.add_argument("--marks", default="10,20,30,45,60",
                        help="CPU minutes of training at which to export, evaluate and "
                             "checkpoint (default: %(default)s)")
    parser.add_argument("--imitate", type=float, default=0.0,
                        help="CPU minutes of imitating the heuristic first (0: none)")
    parser.add_argument("--bots", default="heuristic", help="library bots in the league")
    parser.add_argument("--league", default="self:4,past:2,bots:3",
                        help="league weights (default: %(default)s)")
    parser.add_argument("--setups", default="random",
                        help="the armies of training games: random, model (the setup model, "
                             "as the library's bots set up) or human (default: %(default)s)")
    parser.add_argument("--envs", type=int, default=64, help="games per seat")
    parser.add_argument("--steps", type=int, default=64, help="steps per game per update")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--minibatch", type=int, default=1024)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--shaping", type=float, default=1.0)
    parser.add_argument("--max-plies", type=int, default=None)
    parser.add_argument("--games", type=int, default=20, help="evaluation games per opponent")
    parser.add_argument("--seed", type=int, default=0)
    return parser


try:
    import torch
    from torch import nn

    from stratego.nn.torch_net import PolicyNet as Net
    from stratego.nn.torch_net import as_input, masked
except (ImportError, MissingDependencyError) as missing:  # pragma: no cover - the machine
    if __name__ == "__main__":  # --help and bad arguments answer without torch
        arguments().parse_args()
    raise SystemExit(f"selfplay.py needs torch (the CPU build: pip install torch --index-url "
                     f"https://download.pytorch.org/whl/cpu): {missing}") from None


# -- the network: stratego.nn.torch_net.PolicyNet ------------------------------------------

def export(net: Net, rules: Any, path: pathlib.Path) -> None:
    """The policy as a `stratego.nn` weight file (written atomically)."""
    partial = path.with_suffix(".part.npz")
    net.to_network(rules).save(partial)
    os.replace(partial, path)


class TorchPolicy:
    """A frozen network as a batched league opponent: ``fn(planes, mask) -> actions``."""

    def __init__(self, net: Net, seed: int) -> None:
        self.nets = [net]
        self.generator = torch.Generator().manual_seed(seed)

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        net = self.nets[int(torch.randint(len(self.nets), (1,), generator=self.generator))]
        with torch.no_grad():
            logits, _ = net(as_input(planes))
            probs = torch.softmax(masked(logits, torch.from_numpy(mask)), dim=1)
            picked = torch.multinomial(probs, 1, generator=self.generator).squeeze(1)
            actions: np.ndarray = picked.numpy()
            return actions


# -- material shaping, read off the learner's own planes ----------------------------------------

def material_weights(rules: Any) -> tuple[np.ndarray, np.ndarray, float]:
    """Per-plane weights of the material potential: own pieces by rank (planes 0-11),
    known opponent pieces (12-23), and the opponent's unidentified pieces, whose count per
    rank is the army's count times the ``unidentified/<rank>`` share (a captured piece was
    always shown in its strike, so the unidentified ones are alive)."""
    army = rules.army
    values = np.array([0.0 if rank is Rank.FLAG else PIECE_VALUES[rank] for rank in Rank])
    counts = np.array([army.count(rank) for rank in Rank], dtype=np.float64)
    worth = float((values * counts).sum())
    assert PLANES[0] == "own/flag"
    assert PLANES[46] == "unidentified/flag"
    return values, counts, worth


def potential(planes: np.ndarray, weights: tuple[np.ndarray, np.ndarray, float]) -> np.ndarray:
    values, counts, worth = weights
    p = planes.astype(np.float32)
    if planes.dtype == np.uint8:
        p /= 255
    own = p[:, 0:12].sum(axis=(2, 3)) @ values
    known = p[:, 12:24].sum(axis=(2, 3)) @ values
    hidden = (p[:, 46:58, 0, 0] * counts) @ values
    phi: np.ndarray = ((own - known - hidden) / worth).astype(np.float32)
    return phi


# -- imitation: play like the heuristic -----------------------------------------------------

def imitation_positions(rules: Any, seconds: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions of heuristic-against-heuristic games (random setups, as the learner gets)
    and the heuristic's action in each, for `seconds` of CPU time."""
    planes: list[np.ndarray] = []
    actions: list[int] = []
    rng = random.Random(seed)
    start = time.process_time()
    while time.process_time() - start < seconds:
        bots = [make_bot("heuristic", seed=rng.randrange(2**31)) for _ in range(2)]
        state = new_game(rules, random_setup(rules, Player.RED, rng),
                         random_setup(rules, Player.BLUE, rng))
        while not state.is_over and state.ply < 600:
            mover = state.to_move
            move = bots[mover](view(state, mover))
            planes.append((observation_planes(state, mover) * 255).round().astype(np.uint8))
            actions.append(action_index(move, mover))
            state = apply(state, move)
    return np.stack(planes), np.array(actions, dtype=np.int64)


def imitate(net: Net, optimizer: Any, rules: Any, minutes: float, seed: int) -> None:
    """Half the minutes gathering positions, half learning them (cross-entropy)."""
    planes, actions = imitation_positions(rules, 30 * minutes, seed)
    print(f"imitation: {len(actions)} positions", flush=True)
    start = time.process_time()
    generator = torch.Generator().manual_seed(seed)
    epoch = 0
    while time.process_time() - start < 30 * minutes:
        order = torch.randperm(len(actions), generator=generator)
        total, right, seen = 0.0, 0, 0
        for lo in range(0, len(order), 512):
            rows = order[lo:lo + 512].numpy()
            logits, _ = net(as_input(planes[rows]))
            target = torch.from_numpy(actions[rows])
            loss = nn.functional.cross_entropy(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(rows)
            right += int((logits.argmax(1) == target).sum())
            seen += len(rows)
            if time.process_time() - start >= 30 * minutes:
                break
        epoch += 1
        print(f"imitation epoch {epoch}: loss {total / seen:.3f}, agreement "
              f"{right / seen:.1%} over {seen} positions", flush=True)


# -- evaluation and checkpoints -----------------------------------------------------------------

def evaluate(path: pathlib.Path, rules: Any, games: int, seed: int, max_plies: int,
             opponents: list[str]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for opponent in opponents:
        bot = policy_bot(path, seed=seed)
        result = play_match(rules, bot, opponent, games=games, seed=seed, max_plies=max_plies)
        score = result.tally(bot.name)
        low, high = score.interval()
        row[opponent] = {"wins": score.wins, "draws": score.draws, "losses": score.losses,
                         "score": score.score, "low": low, "high": high}
        print(f"  against {opponent}: {score}", flush=True)
    return row


def layout(rules: Any) -> dict[str, Any]:
    """What a checkpoint must agree on with the library that resumes it."""
    return {"rules": rules.name, "planes": list(PLANES), "actions": NUM_ACTIONS,
            "action_digest": action_digest()}


def save_checkpoint(path: pathlib.Path, state: dict[str, Any]) -> None:
    partial = path.with_suffix(".part")
    torch.save(state, partial)
    os.replace(partial, path)


# -- PPO ------------------------------------------------------------------------------------------

def main() -> None:
    args = arguments().parse_args()
    torch.set_num_threads(1)
    rules = by_name(args.rules)
    max_plies = args.max_plies or (400 if rules.army.size <= 10 else 1000)
    args.out.mkdir(parents=True, exist_ok=True)
    checkpoint = args.out / "checkpoint.pt"
    marks = [float(m) for m in args.marks.split(",")]

    torch.manual_seed(args.seed)
    net = Net(args.channels, args.layers)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)
    spent, updates, curve, past_states = 0.0, 0, [], []
    if args.resume:
        saved = torch.load(checkpoint, weights_only=False)
        if saved["layout"] != layout(rules):
            differs = sorted(k for k in layout(rules) if saved["layout"].get(k) != layout(rules)[k])
            raise SystemExit(f"{checkpoint} was written for another layout ({', '.join(differs)})")
        net = Net(saved["channels"], saved["layers"])
        net.load_state_dict(saved["net"])
        optimizer = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)
        optimizer.load_state_dict(saved["optimizer"])
        for group in optimizer.param_groups:  # the saved state carries its own rate
            group["lr"] = args.lr
        spent, updates, curve = saved["spent"], saved["updates"], saved["curve"]
        past_states = saved["past"]
        torch.set_rng_state(saved["torch_rng"])
        print(f"resumed at {spent / 60:.1f} CPU-min, update {updates}", flush=True)
    elif args.imitate:
        imitate(net, optimizer, rules, args.imitate, args.seed)
        export(net, rules, args.out / "imitation.npz")
        print("imitation policy:", flush=True)
        curve.append({"rules": rules.name, "minutes": 0.0, "updates": 0, "imitation": True,
                      **evaluate(args.out / "imitation.npz", rules, args.games, 1, max_plies,
                                 ["random", "heuristic"])})
    marks = [m for m in marks if m * 60 > spent]

    # the league: the current network, past ones, the library's bots
    weights = dict(part.split(":") for part in args.league.split(","))
    current = TorchPolicy(net, args.seed + 1)
    past = TorchPolicy(copy.deepcopy(net), args.seed + 2)
    for state in past_states:
        frozen = Net(args.channels, args.layers)
        frozen.load_state_dict(state)
        past.nets.append(frozen)
    bots = [b for b in args.bots.split(",") if b]
    league: list[Any] = ([current] * int(weights.get("self", 0))
                         + [past] * int(weights.get("past", 0))
                         + [b for b in bots for _ in range(int(weights.get("bots", 0)))])
    labels = (["self"] * int(weights.get("self", 0)) + ["past"] * int(weights.get("past", 0))
              + [b for b in bots for _ in range(int(weights.get("bots", 0)))])
    envs = [BatchVectorEnv(args.envs, rules, opponent=league, player=seat,
                           max_plies=max_plies, dtype="uint8", setups=args.setups)
            for seat in ("red", "blue")]
    material = material_weights(rules)
    n = 2 * args.envs
    obs_buf = np.zeros((args.steps, n, NUM_PLANES, 10, 10), np.uint8)
    mask_buf = np.zeros((args.steps, n, NUM_ACTIONS), np.bool_)
    act_buf = np.zeros((args.steps, n), np.int64)
    logp_buf = np.zeros((args.steps, n), np.float32)
    val_buf = np.zeros((args.steps, n), np.float32)
    rew_buf = np.zeros((args.steps, n), np.float32)
    end_buf = np.zeros((args.steps, n), np.bool_)
    valid_buf = np.zeros((args.steps, n), np.bool_)

    obs, mask = [], []
    for index, env in enumerate(envs):
        o, info = env.reset(seed=args.seed * 1000 + updates * 7 + index * 100_003)
        obs.append(o)
        mask.append(info["action_mask"])
    planes, legal = np.concatenate(obs), np.concatenate(mask)
    phi = potential(planes, material)
    resetting = np.zeros(n, np.bool_)
    results: dict[str, list[int]] = {}  # per opponent: won, drawn, lost
    clock = time.process_time()

    while marks:
        for t in range(args.steps):
            obs_buf[t], mask_buf[t] = planes, legal
            valid_buf[t] = ~resetting & legal.any(axis=1)
            safe = legal.copy()
            safe[~safe.any(axis=1), 0] = True  # a row with no legal action: any index
            with torch.no_grad():
                logits, value = net(as_input(planes))
                dist = torch.distributions.Categorical(
                    logits=masked(logits, torch.from_numpy(safe)))
                action = dist.sample()
            act_buf[t] = action.numpy()
            logp_buf[t] = dist.log_prob(action).numpy()
            val_buf[t] = value.numpy()
            obs, mask, reward, ended, against = [], [], [], [], []
            for index, env in enumerate(envs):
                rows = slice(index * args.envs, (index + 1) * args.envs)
                o, r, term, trunc, info = env.step(act_buf[t, rows])
                obs.append(o)
                mask.append(info["action_mask"])
                reward.append(r)
                ended.append(term | trunc)
                against.append(info["opponent"])
            planes, legal = np.concatenate(obs), np.concatenate(mask)
            game = np.concatenate(reward).astype(np.float32)
            done = np.concatenate(ended)
            new_phi = np.where(done, 0.0, potential(planes, material)).astype(np.float32)
            shaped = args.shaping * (args.gamma * new_phi - phi)
            rew_buf[t] = np.where(resetting, 0.0, game + shaped)
            end_buf[t] = done
            picks = np.concatenate(against)
            for row in np.flatnonzero(done & ~resetting):
                tally = results.setdefault(labels[picks[row]], [0, 0, 0])
                tally[0 if game[row] > 0 else 2 if game[row] < 0 else 1] += 1
            # after an ended game the next step restarts it (its action is ignored)
            phi = np.where(done, 0.0, new_phi)
            resetting = done
        with torch.no_grad():
            _, next_value = net(as_input(planes))
        next_value = next_value.numpy()
        advantages = np.zeros_like(rew_buf)
        last = np.zeros(n, np.float32)
        for t in reversed(range(args.steps)):
            following = next_value if t == args.steps - 1 else val_buf[t + 1]
            carry = ~end_buf[t]
            delta = rew_buf[t] + args.gamma * following * carry - val_buf[t]
            last = delta + args.gamma * args.lam * carry * last
            last = np.where(valid_buf[t], last, 0.0)  # a restart step starts a new chain
            advantages[t] = last
        returns = advantages + val_buf
        keep = valid_buf.reshape(-1)
        b_obs = obs_buf.reshape(-1, NUM_PLANES, 10, 10)[keep]
        b_mask = torch.from_numpy(mask_buf.reshape(-1, NUM_ACTIONS)[keep])
        b_act = torch.from_numpy(act_buf.reshape(-1)[keep])
        b_logp = torch.from_numpy(logp_buf.reshape(-1)[keep])
        b_adv = torch.from_numpy(advantages.reshape(-1)[keep])
        b_ret = torch.from_numpy(returns.reshape(-1)[keep])
        for _ in range(args.epochs):
            order = torch.randperm(len(b_act))
            for lo in range(0, len(order), args.minibatch):
                rows = order[lo:lo + args.minibatch]
                logits, value = net(as_input(b_obs[rows.numpy()]))
                dist = torch.distributions.Categorical(logits=masked(logits, b_mask[rows]))
                ratio = (dist.log_prob(b_act[rows]) - b_logp[rows]).exp()
                adv = b_adv[rows]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(
                    1 - args.clip, 1 + args.clip)).mean()
                value_loss = 0.5 * ((value - b_ret[rows]) ** 2).mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                optimizer.step()
        updates += 1
        now = time.process_time()
        spent += now - clock
        clock = now
        if updates % 10 == 0:
            scores = ", ".join(f"{label} +{w} ={d} -{lost}"
                               for label, (w, d, lost) in sorted(results.items()))
            print(f"update {updates} ({spent / 60:.1f} CPU-min), games ended against {scores}",
                  flush=True)
            results = {}
        if spent >= 60 * marks[0]:
            minute = marks.pop(0)
            export(net, rules, args.out / f"mark-{minute:g}.npz")
            export(net, rules, args.out / "policy.npz")
            print(f"mark {minute:g} CPU-min (update {updates}):", flush=True)
            curve.append({"rules": rules.name, "minutes": minute, "updates": updates,
                          **evaluate(args.out / "policy.npz", rules, args.games,
                                     int(minute), max_plies, ["random", "heuristic"])})
            frozen = copy.deepcopy(net)
            past.nets.append(frozen)
            past_states.append(frozen.state_dict())
            save_checkpoint(checkpoint, {
                "layout": layout(rules), "channels": args.channels, "layers": args.layers,
                "net": net.state_dict(), "optimizer": optimizer.state_dict(),
                "spent": spent, "updates": updates, "curve": curve, "past": past_states,
                "torch_rng": torch.get_rng_state(), "args": vars(args)})
            (args.out / "curve.json").write_text(json.dumps(curve, indent=1), encoding="utf-8")
            clock = time.process_time()  # evaluating is not training
    print(f"done: {args.out / 'policy.npz'}, curve {args.out / 'curve.json'}", flush=True)


if __name__ == "__main__":
    main()
