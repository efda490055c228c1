#!/usr/bin/env python3
"""Teach a trained policy the search bot's moves on its own games (DAgger): the step
after `selfplay.py` that made the shipped `policy-classic`.

PPO against the heuristic stalls on classic (the learner wins a fifth to a quarter of its
training games and stays there), while the search bot beats the heuristic. So the search
bot becomes the teacher, in rounds:

1. **Gather** (``--gather`` CPU minutes per worker and round): the student (the weight
   file of the last round, greedy) plays the ``--opponent`` bot, seats alternated, both
   armies from the setup model. At every one of the student's positions the teacher
   (`stratego.bots.search.SearchBot` with ``--simulations``) is asked for its move;
   that move is the label, and it is also played instead of the student's with
   probability ``--beta`` (so the games leave the student's habits now and then). Each
   game is written at once as a shard under ``<out>/data`` (observation planes as uint8,
   the legal mask bit-packed, the teacher's action), so a killed run loses one game.
2. **Learn**: the network of the last round, fine-tuned with the masked cross-entropy of
   the teacher's actions over every shard gathered so far (``--epochs`` passes; a
   twentieth of the games held out to report the agreement with the teacher).
3. The result is ``<out>/round-<k>.npz``, a `stratego.nn` weight file; the next round's
   student.

``--resume`` continues: gathered shards are kept (each records its CPU seconds, so a
round gathers only what is missing) and finished rounds are not learned again.

    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    pip install -e ".[numpy,rl,vector]"
    python benchmarks/distill.py --rules classic --start runs/classic/mark-70.npz \\
        --out runs/distill --rounds 2 --gather 40 --workers 2

Pick the round on check deals (``stratego match ... --seed 1000``) before using it.
Needs torch, as `selfplay.py` does.
"""

from __future__ import annotations

import argparse
import multiprocessing
import pathlib
import random
import time

import numpy as np

from stratego import apply, new_game
from stratego.bots import make_bot
from stratego.bots.search import SearchBot
from stratego.editions import by_name
from stratego.encoding import NUM_ACTIONS, action_index, legal_action_mask, observation_planes
from stratego.errors import MissingDependencyError
from stratego.nn import load, policy_bot
from stratego.pieces import Player
from stratego.setup_model import sample_setup
from stratego.views import view


def arguments() -> argparse.ArgumentParser:
    """The command line this script reads."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--start", type=pathlib.Path, required=True,
                        help="the weight file of the first student")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--gather", type=float, default=40,
                        help="CPU minutes of games per worker and round")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=200, help="the teacher's budget")
    parser.add_argument("--beta", type=float, default=0.3,
                        help="chance that the teacher's move is played instead")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resume", action="store_true")
    return parser


try:
    import torch
    from torch import nn

    from stratego.nn.torch_net import PolicyNet, as_input, masked
except (ImportError, MissingDependencyError) as missing:  # pragma: no cover - the machine
    if __name__ == "__main__":  # --help and bad arguments answer without torch
        arguments().parse_args()
    raise SystemExit(f"distill.py needs torch (the CPU build: pip install torch --index-url "
                     f"https://download.pytorch.org/whl/cpu): {missing}") from None

# -- gathering ------------------------------------------------------------------------------

def shard_seconds(folder: pathlib.Path, prefix: str) -> float:
    """CPU seconds already spent on the shards of `prefix` in `folder`."""
    return sum(float(np.load(path)["seconds"]) for path in folder.glob(f"{prefix}-*.npz"))


def gather(job: tuple[str, str, pathlib.Path, str, int, float, float, str, int]) -> int:
    """One worker's share of a round: games until `seconds` of CPU are spent, one shard
    each. Returns the positions written."""
    rules_name, student_path, folder, prefix, simulations, beta, seconds, opponent, seed = job
    torch.set_num_threads(1)
    rules = by_name(rules_name)
    rng = random.Random(f"{prefix}:{seed}")
    spent = shard_seconds(folder, prefix)
    written = 0
    game = len(list(folder.glob(f"{prefix}-*.npz")))
    while spent < seconds:
        start = time.process_time()
        me = Player.RED if game % 2 == 0 else Player.BLUE
        student = policy_bot(student_path, greedy=True)
        teacher = SearchBot(seed=rng.randrange(2**31), simulations=simulations)
        other = make_bot(opponent, seed=rng.randrange(2**31))
        state = new_game(rules, sample_setup(rules, Player.RED, rng),
                         sample_setup(rules, Player.BLUE, rng))
        planes, masks, actions = [], [], []
        while not state.is_over and state.ply < 1000:
            seen = view(state, state.to_move)
            if state.to_move is not me:
                state = apply(state, other(seen))
                continue
            label = teacher(seen)
            planes.append((observation_planes(seen) * 255).round().astype(np.uint8))
            masks.append(np.packbits(legal_action_mask(seen)))
            actions.append(action_index(label, me))
            state = apply(state, label if rng.random() < beta else student(seen))
        used = time.process_time() - start
        if actions:
            path = folder / f"{prefix}-{game:05d}.npz"
            partial = path.with_suffix(".part.npz")
            np.savez_compressed(partial, planes=np.stack(planes), masks=np.stack(masks),
                                actions=np.array(actions, np.int64), seconds=used)
            partial.replace(path)
            written += len(actions)
        spent += used
        game += 1
    return written


def shards(folder: pathlib.Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every shard in `folder`: planes, packed masks, actions, and each row's game number."""
    planes, masks, actions, games = [], [], [], []
    for number, path in enumerate(sorted(folder.glob("round*-w*-*.npz"))):
        data = np.load(path)
        planes.append(data["planes"])
        masks.append(data["masks"])
        actions.append(data["actions"])
        games.append(np.full(len(data["actions"]), number))
    return (np.concatenate(planes), np.concatenate(masks), np.concatenate(actions),
            np.concatenate(games))


# -- learning -------------------------------------------------------------------------------

def learn(start: pathlib.Path, folder: pathlib.Path, epochs: int, lr: float,
          seed: int) -> PolicyNet:
    """`start`'s network fine-tuned on every shard (masked cross-entropy of the teacher's
    action), a twentieth of the games held out for the agreement figure."""
    planes, packed, actions, games = shards(folder)
    held = games % 20 == 19
    train, test = np.flatnonzero(~held), np.flatnonzero(held)
    print(f"learning from {len(train)} positions ({len(test)} held out)", flush=True)
    net = PolicyNet.from_network(load(start))
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    generator = torch.Generator().manual_seed(seed)

    def batch(rows: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        mask = np.unpackbits(packed[rows], axis=1, count=NUM_ACTIONS).astype(bool)
        logits, _ = net(as_input(planes[rows]))
        return masked(logits, torch.from_numpy(mask)), torch.from_numpy(actions[rows])

    def agreement() -> float:
        right = 0
        with torch.no_grad():
            for lo in range(0, len(test), 1024):
                logits, target = batch(test[lo:lo + 1024])
                right += int((logits.argmax(1) == target).sum())
        return right / max(1, len(test))

    print(f"  before: agreement {agreement():.1%} on the held-out games", flush=True)
    for epoch in range(epochs):
        order = train[torch.randperm(len(train), generator=generator).numpy()]
        total = 0.0
        for lo in range(0, len(order), 256):
            logits, target = batch(order[lo:lo + 256])
            loss = nn.functional.cross_entropy(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(target)
        print(f"  epoch {epoch + 1}: loss {total / len(train):.3f}, agreement "
              f"{agreement():.1%} on the held-out games", flush=True)
    return net


def main() -> None:
    args = arguments().parse_args()
    torch.set_num_threads(1)
    rules = by_name(args.rules)
    if load(args.start).rules.name != rules.name:
        raise SystemExit(f"{args.start} was trained under {load(args.start).rules.name}")
    folder = args.out / "data"
    folder.mkdir(parents=True, exist_ok=True)
    if not args.resume and any(folder.iterdir()):
        raise SystemExit(f"{folder} holds shards: pass --resume to continue from them")
    student = args.start
    for k in range(1, args.rounds + 1):
        result = args.out / f"round-{k}.npz"
        if result.exists():
            student = result
            continue
        jobs = [(rules.name, str(student), folder, f"round{k}-w{w}", args.simulations,
                 args.beta, 60 * args.gather, args.opponent, args.seed * 100 + w)
                for w in range(args.workers)]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            written = sum(pool.map(gather, jobs))
        print(f"round {k}: {written} new positions from {student}", flush=True)
        net = learn(student, folder, args.epochs, args.lr, args.seed + k)
        partial = result.with_suffix(".part.npz")
        net.to_network(rules).save(partial)
        partial.replace(result)
        print(f"round {k}: {result}", flush=True)
        student = result


if __name__ == "__main__":
    main()
