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

prints the win, loss and draw rates against the random bot (half the games as Red, half
as Blue) before training and after each mark of CPU time. `tests/test_learning.py` runs
the same recipe with a fixed number of steps.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from stratego.encoding import NUM_ACTIONS, NUM_MOVE_ACTIONS, action_moves
from stratego.pieces import Player
from stratego.vector.env import BatchVectorEnv

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
    env = BatchVectorEnv(num_envs, rules, opponent="self", max_plies=max_plies)
    rng = np.random.default_rng(seed)
    theta = np.zeros(FEATURES)
    traces = np.zeros((num_envs, 2, FEATURES))  # per game and seat: sum of grad log pi
    obs, info = env.reset(seed=seed)
    every = np.arange(num_envs)
    for step in range(steps):
        actions, grads = choose(theta, obs, info["action_mask"], rng)
        traces[every, info["to_move"].astype(np.intp)] += grads
        obs, _, _, _, info = env.step(np.maximum(actions, 0))
        ended = info["_winner"]
        if ended.any():  # both seats are paid on the step their game ends
            paid = info["rewards"][ended]
            theta += lr / num_envs * np.einsum("gs,gsf->f", paid, traces[ended])
            traces[ended] = 0.0
        if marks is not None and marks(theta, step):
            break
    env.close()
    return theta


def evaluate(theta: np.ndarray | None, games: int = 400, *, rules: str = "classic+barrage",
             max_plies: int = 400, seed: int = 1000, greedy: bool = False) -> np.ndarray:
    """Win, loss and draw counts of the policy (None: uniformly random moves) against the
    random bot over `games` games, half as Red and half as Blue."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marks", default="10,20,40", help="CPU seconds of training at which "
                        "to evaluate (default: %(default)s)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rules", default="classic+barrage")
    args = parser.parse_args()
    marks = [float(m) for m in args.marks.split(",")]
    start = time.process_time()
    row = "{:>10} {:>7} {:>7} {:>7} {:>7}"
    print(row.format("CPU s", "steps", "win", "loss", "draw"))
    print(row.format(0, 0, *(f"{c / args.games:.1%}" for c in evaluate(None, args.games,
                                                                         rules=args.rules))))
    state = {"spent": 0.0, "clock": time.process_time(), "mark": 0}

    def at_marks(theta: np.ndarray, step: int) -> bool:
        now = time.process_time()
        state["spent"] += now - state["clock"]
        if state["spent"] >= marks[int(state["mark"])]:
            counts = evaluate(theta, args.games, rules=args.rules)
            print(row.format(f"{state['spent']:.0f}", step + 1,
                             *(f"{c / args.games:.1%}" for c in counts)), flush=True)
            state["mark"] += 1
        state["clock"] = time.process_time()  # evaluating is not training
        return state["mark"] >= len(marks)

    train(10**9, rules=args.rules, marks=at_marks)
    print(f"total CPU {time.process_time() - start:.0f} s (time.process_time, one process)")


if __name__ == "__main__":
    main()
