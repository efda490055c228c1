#!/usr/bin/env python3
"""Try `SearchBot` options against the heuristic bot on paired deals.

Deal ``k`` (from ``--seed``) fixes both sides' setups (each bot's own setup model, drawn
from a generator seeded by the deal and the colour) and the bots' seeds; it is played
twice, the search bot Red in game ``2k`` and Blue in game ``2k + 1``, so that both games
of a deal see the same two armies and a setup that favours one colour favours both bots
once. Budgets are simulations, so load does not change the games. Prints the search
bot's wins, draws and losses with the 95% Wilson interval, how it won and lost, and what
it lost on the way (`LOSSES`: its Marshal to the Spy, pieces the opponent knew struck by
pieces it could not name, pieces lost on Bombs, pieces struck by known pieces).

This is a tuning bench: it plays the heuristic, the bot whose scores the search builds
on, so a figure from it is no strength figure against an untuned opponent. Options are
``--option NAME=VALUE`` (VALUE is JSON: ``guard=6``, ``weight=0.3``); ``--bot
FILE.py:NAME`` plays another search class with the same constructor (a baseline);
``--opponent FILE.py:NAME`` plays the search against another bot class (called with
the deal's seed) instead of the heuristic, such as
``benchmarks/baselines/minimax.py:MinimaxBot``, with ``--opponent-option NAME=VALUE``
passed to it.

Usage: python benchmarks/search_tuning.py [--games 40] [--simulations 200]
       [--seed 1000] [--workers 2] [--option NAME=VALUE ...] [--bot FILE.py:NAME]
       [--opponent FILE.py:NAME] [--opponent-option NAME=VALUE ...] [--jsonl FILE]
       [--only INDEX,INDEX,...]

With ``--jsonl FILE`` each game is written to FILE as soon as it ends, so a long match (the
one-second budget is hours of both cores) may be stopped and played on later: run the same
command again and the games FILE already holds (same budget, deals, options and bots) are
kept and not played again. When every game is in, FILE is rewritten in game order. Each
game's row holds its moves, so `replay.py` shows any position of it at once. ``--only``
plays (and counts) only the games of the given indices among the ``--games``, such as the
games another run lost: the same command without it later plays the rest into the file.
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib.util
import inspect
import json
import multiprocessing
import os
import random
from collections.abc import Callable, Iterator
from typing import Any

from stratego.bots import HeuristicBot, SearchBot
from stratego.bots.heuristic import PIECE_VALUES
from stratego.editions import by_name
from stratego.engine import apply, new_game
from stratego.match.score import Score
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.state import GameState
from stratego.views import view

MAX_PLIES = 1500


@functools.cache
def bot_class(spec: str | None, default: Any = SearchBot) -> Any:
    """The class to play for a ``FILE.py:NAME`` spec (NAME loaded once per process from
    FILE.py), or `default` for None."""
    if not spec:
        return default
    path, name = spec.rsplit(":", 1)
    module_name = "search_tuning_" + os.path.basename(path).removesuffix(".py")
    loaded = importlib.util.spec_from_file_location(module_name, path)
    if loaded is None or loaded.loader is None:
        raise SystemExit(f"cannot load a bot from {spec!r}")
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    return getattr(module, name)


def opening(index: int, seed: int, search: Callable[[int], Any],
            opponent: Callable[[int], Any]) -> tuple[int, Player, dict[Player, Any], GameState]:
    """Game `index` of the deals from `seed` before its first move: the deal, the search
    bot's colour (Red in even games), the bots (`search` and `opponent` made from the
    deal's seeds) and the classic game with the setups each bot drew for the deal."""
    rules = by_name("classic")
    deal = seed + index // 2
    me = Player.RED if index % 2 == 0 else Player.BLUE
    bots = {me: search(deal), me.opponent: opponent(deal + 7)}
    setups = {p: bots[p].setup(rules, p, random.Random(deal * 2 + int(p))) for p in Player}
    return deal, me, bots, new_game(rules, setups[Player.RED], setups[Player.BLUE])


Task = tuple[int, int, int, dict[str, Any], str | None, str | None, dict[str, Any]]
"""A game to play: its index, the deals' seed, the search bot's simulations and options,
its class (None: `SearchBot`), the opponent's class (None: `HeuristicBot`) and options."""


def task_of(header: dict[str, Any], index: int) -> Task:
    """The task of game `index` of the match a results file's `header` describes."""
    bot = header.get("bot", "search")
    against = header.get("opponent", "heuristic")
    return (index, header["seed"], header["simulations"], dict(header.get("options", {})),
            None if bot == "search" else bot, None if against == "heuristic" else against,
            dict(header.get("opponent_options", {})))


Ply = tuple[GameState, Move, GameState]
"""A ply as it was played: the state, the move and the state after it."""


def playthrough(task: Task) -> tuple[int, Player, GameState, Iterator[Ply]]:
    """Game `index` of the deals from `seed`: the deal, the search bot's colour, the
    opening and its plies as they are played, ``(state, move, after)``, to its end or
    `MAX_PLIES` (the same moves each time: the deal, the seeds and the budget fix them)."""
    index, seed, simulations, options, spec, against, against_options = task
    deal, me, bots, state = opening(
        index, seed, lambda d: bot_class(spec)(d, simulations=simulations, **options),
        lambda d: bot_class(against, HeuristicBot)(d, **against_options))

    def plies(state: GameState) -> Iterator[Ply]:
        while state.outcome is None and state.ply < MAX_PLIES:
            mover = state.to_move
            move = bots[mover](view(state, mover))
            after = apply(state, move)
            yield state, move, after
            state = after

    return deal, me, state, plies(state)


def play(task: Task) -> dict[str, Any]:
    """Game `index` of the deals from `seed`: the search bot's result, how it ended and
    its moves (``"moves"``: their notation, space-separated, from the opening), which
    `replay.py` reads instead of playing the game again."""
    index = task[0]
    deal, me, state, plies = playthrough(task)
    losses: dict[str, float] = {name: 0 if name in ("spied", "spy_kills") else 0.0
                                for name in LOSSES}
    moves = []
    for before, move, state in plies:
        _count(before, move, state, me, losses)
        moves.append(str(move))
    won, how = result(state, me)
    return {"index": index, "deal": deal, "search_red": me is Player.RED, "won": won,
            "termination": how, "plies": state.ply, **losses, "moves": " ".join(moves)}


def result(end: GameState, me: Player) -> tuple[bool | None, str]:
    """How the game that ended in `end` went for `me`: won (True), lost (False) or drawn
    (None), and how it ended (the termination, or "ply limit" past `MAX_PLIES`)."""
    outcome = end.outcome
    won = None if outcome is None or outcome.winner is None else outcome.winner is me
    return won, "ply limit" if outcome is None else outcome.termination.value


LOSSES = ("spied", "spy_kills", "exposed", "bombed", "lost_to_known")
"""What each game counts about the search bot's losses and the opponent's: how often its
Marshal fell to the opponent's Spy and the opponent's to its Spy, and the worth
(`PIECE_VALUES`) of its pieces struck by a piece it could not name while the opponent
knew theirs (exposed), lost striking a Bomb, and struck by a piece whose rank it knew."""


def _count(state: GameState, move: Move, after: GameState, me: Player,
           losses: dict[str, float]) -> None:
    """Add what the strike `move` (if it is one) cost or won to `losses`."""
    if move.frm is None or move.to is None:
        return
    defender = state.piece_at(move.to)
    attacker = state.piece_at(move.frm)
    if defender is None or attacker is None:
        return
    if attacker.rank is Rank.SPY and defender.rank is Rank.MARSHAL:
        losses["spied" if defender.owner is me else "spy_kills"] += 1
    if (attacker.owner is not me and after.square_of(defender) is None
            and defender.rank not in (Rank.BOMB, Rank.FLAG)):
        if state.is_revealed(attacker):
            losses["lost_to_known"] += PIECE_VALUES[defender.rank]
        elif state.is_revealed(defender):
            losses["exposed"] += PIECE_VALUES[defender.rank]
    if (attacker.owner is me and defender.rank is Rank.BOMB
            and after.square_of(attacker) is None):
        losses["bombed"] += PIECE_VALUES[attacker.rank]


def check_options(cls: Any, options: dict[str, Any], flag: str) -> None:
    """Stop with a message when `cls` takes no keyword of `options` (before any game is
    played or the JSONL file is begun: a worker would fail on each game)."""
    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return
    unknown = sorted(set(options) - set(parameters))
    if unknown:
        raise SystemExit(f"{flag}: {cls.__name__} takes no option {', '.join(unknown)} "
                         f"(options that were tried and dropped are gone from the code)")


def parse_options(items: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` items (VALUE is JSON) as keyword arguments."""
    options = {}
    for item in items:
        name, _, value = item.partition("=")
        options[name] = json.loads(value)
    return options


def parse_only(parser: argparse.ArgumentParser, text: str | None) -> set[int] | None:
    """The game indices of an ``--only INDEX,...`` argument (None when it is not given);
    anything else ends the program through `parser`'s usage error."""
    if text is None:
        return None
    try:
        return {int(part) for part in text.split(",") if part.strip()}
    except ValueError:
        parser.error(f"--only takes game indices separated by commas, not {text[:40]!r}")


def read_rows(path: str) -> list[dict[str, Any]]:
    """The lines of the JSONL file `path`, its header first (blank lines skipped)."""
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def read_header(path: str) -> dict[str, Any]:
    """The header (first non-blank line) of the JSONL file `path`, without reading the rest."""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                header: dict[str, Any] = json.loads(line)
                return header
    return {}


def played(path: str, header: dict[str, Any], key: str = "index") -> dict[int, dict[str, Any]]:
    """The rows (games) already in the JSONL file `path` by their `key`, if its header
    plays the same match as `header` (other header fields, such as a note, may differ);
    {} if no file."""
    if not os.path.exists(path):
        return {}
    rows = read_rows(path)
    if not rows or any(rows[0].get(field) != value for field, value in header.items()):
        raise SystemExit(f"{path} holds another match; name another file")
    return {row[key]: row for row in rows[1:]}


def start_file(path: str, header: dict[str, Any]) -> None:
    """Write `header` as the first line of the JSONL file `path` (and its folders) unless
    the file exists."""
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            out.write(json.dumps(header) + "\n")


def append_row(path: str, row: dict[str, Any]) -> None:
    """Add `row` as a line at the end of the JSONL file `path` (a game kept as soon as it
    ends)."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


def rewrite_in_order(path: str, games: list[dict[str, Any]],
                     header: dict[str, Any] | None = None) -> None:
    """Rewrite the JSONL file `path` with its header first (`header`'s fields over the
    file's own, when given) and then `games` (its rows, in the order given)."""
    first = {**read_header(path), **(header or {})}
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write(json.dumps(first) + "\n")
        for game in games:
            out.write(json.dumps(game) + "\n")
    os.replace(path + ".tmp", path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--bot", default=None)
    parser.add_argument("--opponent", default=None)
    parser.add_argument("--opponent-option", action="append", default=[])
    parser.add_argument("--jsonl", default=None)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    only = parse_only(parser, args.only)
    options = parse_options(args.option)
    against_options = parse_options(args.opponent_option)
    header = {"simulations": args.simulations, "seed": args.seed, "options": options,
              "bot": args.bot or "search", "opponent": args.opponent or "heuristic",
              "opponent_options": against_options}
    check_options(bot_class(args.bot), options, "--option")
    check_options(bot_class(args.opponent, HeuristicBot), against_options, "--opponent-option")
    done = played(args.jsonl, header) if args.jsonl else {}
    tasks = [task_of(header, i) for i in range(args.games)
             if i not in done and (only is None or i in only)]
    if args.jsonl:
        start_file(args.jsonl, header)
    with multiprocessing.Pool(args.workers) as pool:
        for game in pool.imap_unordered(play, tasks):
            done[game["index"]] = game
            if args.jsonl:
                append_row(args.jsonl, game)
    games = [done[i] for i in sorted(done)
             if i < args.games and (only is None or i in only)]
    if args.jsonl:
        rewrite_in_order(args.jsonl, [done[i] for i in sorted(done)])
    score = Score("search", sum(g["won"] is True for g in games),
                  sum(g["won"] is None for g in games), sum(g["won"] is False for g in games))
    low, high = score.interval()
    ends = collections.Counter(("won" if g["won"] else "drew" if g["won"] is None
                                else "lost", g["termination"]) for g in games)
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    against = args.opponent or "heuristic"
    if against_options:
        against += "(" + ", ".join(f"{k}={v}" for k, v in against_options.items()) + ")"
    print(f"search({args.simulations} simulations, {label}) v {against}, {len(games)} games "
          f"from deal {args.seed}: +{score.wins} ={score.draws} -{score.losses}, "
          f"{100 * score.score:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    for (result, how), n in sorted(ends.items()):
        print(f"  {result} by {how}: {n}")
    print("  " + ", ".join(f"{name} {sum(g[name] for g in games):g}" for name in LOSSES))


if __name__ == "__main__":
    main()
