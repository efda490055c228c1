"""A policy that learns, in NumPy only: REINFORCE by self-play on `BatchVectorEnv`.

The policy is a linear softmax over a few features of each legal action, read from the
observation planes (the mover's seat): the rank of the moving piece times what stands on
the target square (empty, an unknown opponent piece, or a known one by rank), how far the
move goes forward and whether it is a long (Scout) move; 170 weights in all. Self-play on
`BatchVectorEnv(opponent="self")` trains it with REINFORCE: each game keeps, per seat, the
sum of the gradients of the log-probabilities of that seat's moves, and the step the game
ends, ``info["rewards"]`` pays both seats (+1 and -1, or 0 for a draw), so the winner's
moves are made more likely and the loser's less (the baseline is 0: self-play returns
average to zero).

    python benchmarks/numpy_reinforce.py            # train, then play random at marks
    python benchmarks/numpy_reinforce.py --steps 3000 --out reinforce.npz
    stratego match --edition classic+barrage --blue random \\
        --red "benchmarks/numpy_reinforce.py:make_bot(path='reinforce.npz')"

The first prints the win, loss and draw rates against the random bot (half the games as
Red, half as Blue) before training and after each mark of CPU time. `--out` saves the
trained weights (`save`: a NumPy ``.npz``, no pickle, recording the rules and the
observation and action layouts as `stratego.nn`'s weight files do), and the bot factory
`make_bot` plays them wherever a bot spec is taken (the path quoted: ``path='...'``).
`tests/test_learning.py` runs the same recipe with a fixed number of steps.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import time
import zipfile
from collections.abc import Sequence
from typing import Any

import numpy as np

from stratego.arguments import file_path, rules_from
from stratego.bots.base import moves_to_choose
from stratego.bots.policy import PolicyBot
from stratego.editions import by_name
from stratego.encoding import NUM_ACTIONS, NUM_MOVE_ACTIONS, NUM_PLANES, PLANES, action_moves
from stratego.errors import ArgumentError, BotSpecError, RulesError, StrategoError, shown
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.views import PlayerView

_MOVES = action_moves(Player.RED)[:NUM_MOVE_ACTIONS]
FROM = np.array([m.frm.index for m in _MOVES if m.frm is not None] + [0] * (
    NUM_ACTIONS - NUM_MOVE_ACTIONS))
TO = np.array([m.to.index for m in _MOVES if m.to is not None] + [0] * (
    NUM_ACTIONS - NUM_MOVE_ACTIONS))
FORWARD = (TO // 10 - FROM // 10).astype(np.float64)
LONG = (np.abs(TO - FROM) > 1) & (np.abs(TO - FROM) != 10)
TARGETS = 14  # empty, unknown opponent piece, then a known opponent piece of each rank
FEATURES = 12 * TARGETS + 2


def action_features(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
    """For every legal action of every game: (game, action, rank-by-target cell)."""
    flat = planes.reshape(len(planes), planes.shape[1], 100)
    own = flat[:, :12].argmax(axis=1)
    known = flat[:, 12:24]
    target = np.where(known.any(axis=1), known.argmax(axis=1) + 2,
                      np.where(flat[:, 36] > 0, 1, 0))
    game, action = np.nonzero(mask)
    cell = own[game, FROM[action]] * TARGETS + target[game, TO[action]]
    return game, action, cell


def choose(theta: np.ndarray, planes: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
           greedy: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """One action per game (-1 where no action is legal) and, per game, the gradient of
    the log-probability of that action with respect to `theta`."""
    n = len(planes)
    game, action, cell = action_features(planes, mask)
    actions = np.full(n, -1, np.int64)
    grads = np.zeros((n, FEATURES))
    if not len(game):
        return actions, grads
    logits = theta[cell] + theta[-2] * FORWARD[action] + theta[-1] * LONG[action]
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    rows = game[starts]
    top = np.maximum.reduceat(logits, starts)
    weights = np.exp(logits - np.repeat(top, np.diff(np.r_[starts, len(game)])))
    prob = weights / np.repeat(np.add.reduceat(weights, starts), np.diff(np.r_[starts, len(game)]))
    score = logits if greedy else logits + rng.gumbel(size=len(logits))
    best = np.maximum.reduceat(score, starts)
    is_best = score == np.repeat(best, np.diff(np.r_[starts, len(game)]))
    picked = np.flatnonzero(is_best)
    picked = picked[np.r_[True, game[picked][1:] != game[picked][:-1]]]  # first per game
    actions[rows] = action[picked]
    np.add.at(grads, (game, cell), -prob)
    np.add.at(grads[:, -2], game, -prob * FORWARD[action])
    np.add.at(grads[:, -1], game, -prob * LONG[action])
    np.add.at(grads, (rows, cell[picked]), 1.0)
    grads[rows, -2] += FORWARD[action[picked]]
    grads[rows, -1] += LONG[action[picked]]
    return actions, grads


def train(steps: int, *, num_envs: int = 64, rules: str = "classic+barrage",
          max_plies: int = 400, lr: float = 0.5, seed: int = 0,
          marks: Any = None) -> np.ndarray:
    """`steps` steps of self-play REINFORCE on `num_envs` games; returns the weights.
    `marks(theta, step)` (optional) is called after every step; training stops when it
    returns True."""
    from stratego.vector.env import BatchVectorEnv  # numba: only to train and evaluate

    env = BatchVectorEnv(num_envs, rules, opponent="self", max_plies=max_plies)
    rng = np.random.default_rng(seed)
    theta = np.zeros(FEATURES)
    traces = np.zeros((num_envs, 2, FEATURES))  # per game and seat: sum of grad log pi
    obs, info = env.reset(seed=seed)
    every = np.arange(num_envs)
    restarting = np.zeros(num_envs, bool)  # games that ended on the previous step
    for step in range(steps):
        # Autoreset is next-step: the step after a game ends restarts it and ignores its
        # action. A game cut at max_plies still shows its legal moves on that step, so no
        # move is chosen for it: its gradient would land in the new game's trace.
        mask = info["action_mask"] & ~restarting[:, None]
        actions, grads = choose(theta, obs, mask, rng)
        traces[every, info["to_move"].astype(np.intp)] += grads
        obs, _, _, _, info = env.step(np.maximum(actions, 0))
        ended = info["_winner"]
        if ended.any():  # both seats are paid on the step their game ends
            paid = info["rewards"][ended]
            theta += lr / num_envs * np.einsum("gs,gsf->f", paid, traces[ended])
            traces[ended] = 0.0
        restarting = ended.copy()
        if marks is not None and marks(theta, step):
            break
    env.close()
    return theta


def evaluate(theta: np.ndarray | None, games: int = 400, *, rules: str = "classic+barrage",
             max_plies: int = 400, seed: int = 1000, greedy: bool = False) -> np.ndarray:
    """Win, loss and draw counts of the policy (None: uniformly random moves) against the
    random bot over `games` games, half as Red and half as Blue."""
    from stratego.vector.env import BatchVectorEnv

    counts = np.zeros(3, np.int64)
    rng = np.random.default_rng(seed)
    for index, player in enumerate(("red", "blue")):
        n = games // 2
        env = BatchVectorEnv(n, rules, opponent="random", player=player, max_plies=max_plies)
        obs, info = env.reset(seed=seed + index * n)
        result = np.full(n, 9)
        while (result == 9).any():
            if theta is None:
                actions = env.batch.sample_actions(rng)
            else:
                actions, _ = choose(theta, obs, info["action_mask"], rng, greedy)
            obs, reward, _, _, info = env.step(np.maximum(actions, 0))
            first = info["_winner"] & (result == 9)
            result[first] = reward[first]
        counts += [(result == 1).sum(), (result == -1).sum(), (result == 0).sum()]
        env.close()
    return counts


class LinearPolicy:
    """The trained weights as a `stratego.bots.PolicyBot` policy: ``(planes, mask) ->
    logits`` over all actions (a class, so that the bot pickles for `play_match`)."""

    def __init__(self, theta: np.ndarray) -> None:
        self.theta = theta

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        theta = self.theta
        _, action, cell = action_features(planes[None], mask[None])
        out = np.full(NUM_ACTIONS, -np.inf)
        out[action] = theta[cell] + theta[-2] * FORWARD[action] + theta[-1] * LONG[action]
        return out


# -- weight files and the bot -----------------------------------------------------------

FORMAT = "numpy_reinforce/1"
"""The format name a weight file's ``meta`` records."""


def layout() -> dict[str, Any]:
    """What a weight file records of the encoding it was trained on (as `stratego.nn`'s
    files do: the plane names, shape and dtype, and the action layout with the digest of
    every action's move) and of the policy (its feature count)."""
    from stratego.nn import action_digest

    return {
        "observation": {"planes": list(PLANES), "shape": [NUM_PLANES, 10, 10],
                        "dtype": "float32"},
        "actions": {"size": NUM_ACTIONS, "moves": NUM_MOVE_ACTIONS, "digest": action_digest()},
        "policy": {"kind": "linear", "features": FEATURES, "targets": TARGETS},
    }


def save(theta: np.ndarray, rules: Rules | str, path: str | os.PathLike[str]) -> None:
    """Write `theta`, trained under `rules`, to `path` (exactly that name): a NumPy
    ``.npz`` archive (no pickle) of the array ``theta`` and ``meta``, a JSON text of the
    format (`FORMAT`), the rules' name and the `layout`."""
    weights = np.asarray(theta, dtype=np.float64)
    if weights.shape != (FEATURES,) or not np.isfinite(weights).all():
        raise ArgumentError(f"the weights are {FEATURES} finite numbers, not "
                            f"{shown(theta)}")
    meta = {"format": FORMAT, "rules": rules_from(rules).name, **layout()}
    with open(file_path(path, "save"), "wb") as out:  # np.savez would add ".npz" to a name
        np.savez(out, theta=weights, meta=np.array(json.dumps(meta)))


def load(path: str | os.PathLike[str]) -> tuple[np.ndarray, Rules]:
    """The weights of the file `path` and the rules they were trained under.
    `BotSpecError` for a file that is missing, not such a weight file (a `stratego.nn`
    network is named as one), or written for another observation, action or policy
    layout (the message names what differs)."""
    where = file_path(path, "numpy_reinforce.load")
    try:
        with np.load(where, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except FileNotFoundError:
        raise BotSpecError(f"no weights at {shown(where)}: no such file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise BotSpecError(f"{shown(where)}: not a weight file (.npz): "
                           f"{shown(str(error))}") from None
    try:
        read = json.loads(str(arrays["meta"]))
    except (KeyError, ValueError, RecursionError):
        read = None
    meta: dict[str, Any] = read if isinstance(read, dict) else {}
    found = meta.get("format")
    if found != FORMAT:
        from stratego.nn import FORMAT as NETWORK

        hint = (f": a stratego.nn network, played by the bot spec "
                f"stratego.nn:make_bot(path={str(where)!r})" if found == NETWORK else "")
        raise BotSpecError(f"{where}: format {shown(found)}, not {FORMAT}{hint}")
    for part, expected in layout().items():
        given = meta[part] if isinstance(meta.get(part), dict) else {}
        differs = sorted(key for key in expected if given.get(key) != expected[key])
        if differs:
            raise BotSpecError(f"{where}: written for another {part.rstrip('s')} layout "
                               f"({', '.join(differs)}: not this recipe's)")
    try:
        rules = by_name(meta.get("rules"))  # type: ignore[arg-type]
    except (RulesError, TypeError) as error:
        raise BotSpecError(f"{where}: its rules {shown(meta.get('rules'))} are not known "
                           f"here: {error}") from None
    theta = arrays.get("theta")
    if (theta is None or theta.shape != (FEATURES,) or theta.dtype.kind != "f"
            or not np.isfinite(theta).all()):
        raise BotSpecError(f"{where}: 'theta' is not {FEATURES} finite numbers")
    return theta.astype(np.float64), rules


class LinearBot(PolicyBot):
    """A `PolicyBot` over `LinearPolicy` that plays only the rules its weights were
    trained under, as a `stratego.nn.NetworkBot` does: `RulesError` at its first move
    under others (a ply limit is no other game), and its ``rules``, which the
    environments check before a game."""

    def __init__(self, theta: np.ndarray, rules: Rules | str, *, greedy: bool = False,
                 seed: int | None = None, name: str = "reinforce") -> None:
        super().__init__(LinearPolicy(theta), greedy=greedy, seed=seed, name=name)
        self.rules = rules_from(rules)

    def __call__(self, view: PlayerView) -> Move:
        moves_to_choose(view)
        if view.rules.name != self.rules.name:
            raise RulesError(f"these weights were trained under {self.rules.name}; they do "
                             f"not play {view.rules.name}")
        return super().__call__(view)


def make_bot(seed: int | None = None, *, path: str | os.PathLike[str] | None = None,
             greedy: bool = False) -> LinearBot:
    """The bot factory of the spec ``benchmarks/numpy_reinforce.py:make_bot(path='w.npz')``
    (the path quoted, as every text in a spec's options): the weights `save` wrote, moves
    drawn from the policy (seeded by `seed`), or its best one with ``greedy=True``."""
    if path is None:
        raise BotSpecError("numpy_reinforce.py:make_bot needs the weight file, quoted: "
                           "make_bot(path='reinforce.npz')")
    theta, rules = load(path)
    return LinearBot(theta, rules, greedy=greedy, seed=seed,
                     name=pathlib.Path(os.fspath(path)).stem or "reinforce")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--marks", default="10,20,40", help="CPU seconds of training at "
                        "which to evaluate (default: %(default)s)")
    length.add_argument("--steps", type=int, help="train exactly this many steps (each "
                        "a step of --num-envs games), evaluating nothing")
    parser.add_argument("--out", metavar="FILE.npz", help="save the trained weights there; "
                        "play them with the bot spec "
                        "\"benchmarks/numpy_reinforce.py:make_bot(path='FILE.npz')\"")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rules", default="classic+barrage")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.out is not None and not pathlib.Path(args.out).resolve().parent.is_dir():
        parser.error(f"--out {args.out}: no such folder")
    _check_arguments(parser, args)
    options = {"rules": args.rules, "num_envs": args.num_envs, "max_plies": args.max_plies,
               "seed": args.seed}
    start = time.process_time()
    if args.steps is not None:
        theta = train(args.steps, **options)
        print(f"trained {args.steps} steps of {args.num_envs} games in "
              f"{time.process_time() - start:.1f} CPU s")
    else:
        theta = _train_to_marks(args, options)
        print(f"total CPU {time.process_time() - start:.0f} s (time.process_time, one "
              "process)")
    if args.out is not None:
        save(theta, args.rules, args.out)
        print(f"saved {args.out}: play it as "
              f"\"benchmarks/numpy_reinforce.py:make_bot(path={args.out!r})\"")


def _marks(text: str) -> list[float] | None:
    """The CPU seconds of `--marks` (positive numbers, comma-separated, increasing), or
    None when `text` is not that."""
    try:
        marks = [float(m) for m in text.split(",")]
    except ValueError:
        return None
    if not all(math.isfinite(m) and m > 0 for m in marks) or marks != sorted(set(marks)):
        return None
    return marks


def _check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """`parser.error` (exit status 2) for an argument the recipe cannot run with."""
    if args.steps is not None and args.steps < 1:
        parser.error(f"--steps is a positive number of steps, not {args.steps}")
    if args.steps is None and _marks(args.marks) is None:
        parser.error(f"--marks is a comma-separated list of increasing positive CPU "
                     f"seconds (such as 10,20,40), not {args.marks!r}")
    if args.games < 2 or args.games % 2:
        parser.error(f"--games is an even number of games, 2 or more (half played as Red, "
                     f"half as Blue), not {args.games}")
    for name, value in (("--num-envs", args.num_envs), ("--max-plies", args.max_plies)):
        if value < 1:
            parser.error(f"{name} is a positive whole number, not {value}")
    if args.seed < 0:
        parser.error(f"--seed is a whole number >= 0, not {args.seed}")
    try:
        rules_from(args.rules)
    except StrategoError as error:
        parser.error(f"--rules {args.rules}: {error}")


def _train_to_marks(args: argparse.Namespace, options: dict[str, Any]) -> np.ndarray:
    """Train, evaluating against the random bot before and at each mark of CPU time."""
    marks = _marks(args.marks)
    assert marks is not None  # checked by _check_arguments
    digits = 0 if all(m.is_integer() for m in marks) else 2  # a mark of 0.5 s shows so
    row = "{:>10} {:>7} {:>7} {:>7} {:>7}"
    print(row.format("CPU s", "steps", "win", "loss", "draw"))
    every = {"rules": args.rules, "max_plies": args.max_plies}
    print(row.format(0, 0, *(f"{c / args.games:.1%}" for c in evaluate(None, args.games,
                                                                         **every))))
    state = {"spent": 0.0, "clock": time.process_time(), "mark": 0}

    def at_marks(theta: np.ndarray, step: int) -> bool:
        now = time.process_time()
        state["spent"] += now - state["clock"]
        if state["spent"] >= marks[int(state["mark"])]:
            counts = evaluate(theta, args.games, **every)
            print(row.format(f"{state['spent']:.{digits}f}", step + 1,
                             *(f"{c / args.games:.1%}" for c in counts)), flush=True)
            state["mark"] += 1
        state["clock"] = time.process_time()  # evaluating is not training
        return state["mark"] >= len(marks)

    return train(10**9, marks=at_marks, **options)


if __name__ == "__main__":
    main()
