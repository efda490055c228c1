#!/usr/bin/env python3
"""What the chase rule's bookkeeping costs a ply, side by side with the bare reference loop.

Records seeded games under rules with a chase rule (ISF 11 for `isf`, the Jumbo 2014 chase
rule for `jumbo-2014`), of two kinds:

* **random**: random legal moves, up to 3,000 plies (as `benchmarks/playout.py`);
* **chasing**: scripted chases, up to 1,000 plies: a player that is chasing makes, where
  it can, a quiet move that threatens a piece that evaded during its chase (the moves the
  rule restricts); a player whose piece stands next to the square the opponent's last
  move ended on moves that piece away (evades); otherwise a quiet move that threatens a
  piece; one move in ten (and whenever no such move is legal) is random.

Then it replays the same moves (one `legal_moves` and one `apply` per ply, as a game
loop calls them) under those rules and under the same rules with the chase rule off
(`RepetitionRule(chase=False)`, everything else alike), so the two differ only in the
chase record; every move legal with the rule is legal without it. Only the plies are timed
(not `new_game`, nor choosing the moves, which were recorded). Each round runs the bare
reference loop (``benchmarks/bare.py``, in this process) and then every replay, for about
``--seconds`` each, by the same clock; the figures are per-ply microseconds and the
per-ply time in bare-loop plies (our time per ply / the bare loop's: the inverse of
`benchmarks/playout.py`'s ratio), the median over ``--rounds`` rounds with their min-max,
and "with / without", the per-ply time with the chase rule over the time without it in
the same round.

For each kind of game it also says how much chasing the games hold: the share of plies
played while a chase runs for at least two of the chaser's moves (and how many positions
its record holds then, on average), while both players chase at once, and where the chase
rule forbade at least one move.

Usage: python benchmarks/chase.py [--seconds S] [--rounds N] [--games G] [--rules NAME ...]
       [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence

import attrs
from bare import CLOCKS, bare_rate

import stratego
from stratego import Player, apply, legal_moves, new_game, random_setup
from stratego.board import NEIGHBOURS
from stratego.editions import by_name
from stratego.moves import Move
from stratego.repetition import CHASE_HASHES
from stratego.rules import Rules
from stratego.setups import Setup
from stratego.state import GameState

DEFAULT_RULES = ["isf", "jumbo-2014"]
KINDS = ("random", "chasing")
Game = tuple[Setup, Setup, tuple[Move, ...]]


def without_chase(rules: Rules) -> Rules:
    """`rules` with the chase rule off and everything else alike."""
    return attrs.evolve(rules, repetition=attrs.evolve(rules.repetition, chase=False))


def _threatens(board: Sequence[int], to: int, player: int) -> bool:
    mine = player << 4
    return any(board[n] and board[n] & 16 != mine for n in NEIGHBOURS[to])


def chasing_move(state: GameState, moves: Sequence[Move], rng: random.Random) -> Move:
    """The scripted chases' choice (see the module's docstring)."""
    if rng.random() < 0.1:
        return rng.choice(moves)
    board, player, chase = state.board, state.turn, state.chase
    quiet = [m for m in moves if m.fi >= 0 and not board[m.ti]]
    evaded = 0
    if chase and chase[0] == player + 1:
        evaded = chase[1]
    elif chase and chase[2]:  # the other player chases, and so does this one
        evaded = chase[3]
    if evaded:
        chasing = [m for m in quiet if any(evaded >> n & 1 for n in NEIGHBOURS[m.ti])]
        if chasing:
            return rng.choice(chasing)
    last = state.last_to
    if last >= 0:
        evades = [m for m in quiet if m.fi in NEIGHBOURS[last]]
        if evades:
            return rng.choice(evades)
    threats = [m for m in quiet if _threatens(board, m.ti, player)]
    return rng.choice(threats or moves)


def record(rules: Rules, kind: str, games: int, seed: int) -> list[Game]:
    """`games` seeded games of `kind` under `rules`: each side's setup and the moves."""
    out: list[Game] = []
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        red = random_setup(rules, Player.RED, rng)
        blue = random_setup(rules, Player.BLUE, rng)
        state = new_game(rules, red, blue)
        moves: list[Move] = []
        for _ in range(3000 if kind == "random" else 1000):
            legal = legal_moves(state)
            if not legal:
                break
            move = rng.choice(legal) if kind == "random" else chasing_move(state, legal, rng)
            moves.append(move)
            state = apply(state, move)
        out.append((red, blue, tuple(moves)))
    return out


def chasing_shares(rules: Rules, games: list[Game]) -> tuple[int, float, float, float, float]:
    """(plies, share played while a chase runs for at least two of the chaser's moves,
    the mean number of positions its record holds then, share while both players chase,
    share where the chase rule forbade a move)."""
    plies = running = both = forbidden = held = 0
    free_rules = without_chase(rules)
    for red, blue, moves in games:
        state, free = new_game(rules, red, blue), new_game(free_rules, red, blue)
        for move in moves:
            chase = state.chase
            plies += 1
            if len(chase) - CHASE_HASHES >= 3:
                running += 1
                held += len(chase) - CHASE_HASHES
            both += bool(chase) and chase[2] > 0
            forbidden += len(legal_moves(free)) > len(legal_moves(state))
            state, free = apply(state, move), apply(free, move)
    return (plies, running / plies, held / running if running else 0.0, both / plies,
            forbidden / plies)


def replay_rate(rules: Rules, games: list[Game], seconds: float,
                now: Callable[[], float]) -> float:
    """Microseconds per ply of `legal_moves` + `apply` replaying `games` under `rules`
    (in turn, from the first again, until `seconds` of plies are timed: one game at
    least)."""
    plies, spent = 0, 0.0
    while True:
        for red, blue, moves in games:
            state = new_game(rules, red, blue)
            start = now()
            for move in moves:
                legal_moves(state)
                state = apply(state, move)
            spent += now() - start
            plies += len(moves)
            if spent >= seconds:
                return spent / plies * 1e6


def spread(values: list[float], fmt: str) -> str:
    """``median (min-max)``."""
    return (f"{format(statistics.median(values), fmt)} "
            f"({format(min(values), fmt)}-{format(max(values), fmt)})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    ap.add_argument("--rounds", type=int, default=5,
                    help="rounds (the median is quoted, with the rounds' min-max)")
    ap.add_argument("--games", type=int, default=6, help="recorded games of each kind")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", nargs="*", default=DEFAULT_RULES,
                    help="rules names with a chase rule")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                    help="time by the process's CPU time (default: the machine is shared) "
                         "or wall time")
    args = ap.parse_args()
    now = CLOCKS[args.clock]
    arms: list[tuple[str, str, Rules, list[Game]]] = []
    for name in args.rules:
        rules = by_name(name)
        if not rules.repetition.chase:
            sys.exit(f"{name} has no chase rule")
        for kind in KINDS:
            games = record(rules, kind, args.games, args.seed)
            plies, running, held, both, forbidden = chasing_shares(rules, games)
            print(f"{name}, {kind} games: {len(games)} games, {plies} plies; a chase of two "
                  f"or more chaser's moves runs in {running:.1%} of the plies (its record "
                  f"holds {held:.1f} positions on average), both players chase in "
                  f"{both:.1%}, the rule forbids a move in {forbidden:.1%}")
            arms.append((name, kind, rules, games))
    print(f"stratego {stratego.__version__}, Python {sys.version.split()[0]}; "
          f"{args.rounds} rounds of {args.seconds:g}s per measurement ({args.clock} time)")
    bare: list[float] = []
    with_us: dict[tuple[str, str], list[float]] = {(n, k): [] for n, k, _, _ in arms}
    free_us: dict[tuple[str, str], list[float]] = {(n, k): [] for n, k, _, _ in arms}
    for round_ in range(args.rounds):
        bare.append(1e6 / bare_rate(args.seconds, round_ + 1, clock=args.clock))
        for name, kind, rules, games in arms:
            with_us[name, kind].append(replay_rate(rules, games, args.seconds, now))
            free_us[name, kind].append(replay_rate(without_chase(rules), games,
                                                   args.seconds, now))
    print(f"bare reference loop: {spread(bare, '.2f')} us per ply")
    print(f"{'rules, games':22} {'chase rule':10} {'us per ply':>20} {'in bare plies':>20} "
          f"{'with / without':>20}")
    for name, kind, _, _ in arms:
        key = (name, kind)
        ratio = [w / f for w, f in zip(with_us[key], free_us[key], strict=True)]
        for label, times in (("on", with_us[key]), ("off", free_us[key])):
            in_bare = [t / b for t, b in zip(times, bare, strict=True)]
            last = spread(ratio, ".3f") if label == "on" else ""
            print(f"{name + ', ' + kind:22} {label:10} {spread(times, '.2f'):>20} "
                  f"{spread(in_bare, '.3f'):>20} {last:>20}")


if __name__ == "__main__":
    main()
