"""The ``stratego`` command: self-play, bot matches and a terminal game.

```sh
stratego selfplay --edition jumbo-2014 --seed 7
stratego match --edition classic --games 100 --red heuristic --blue random --seed 1
stratego play --edition classic --seed 3 --color red
stratego editions
```

Also ``python -m stratego ...``. Every command takes ``--edition NAME`` (an
edition such as ``classic``, or a full rules name such as
``jumbo-2014+barrage``) and ``--variant NAME`` (repeatable). Errors in the
arguments (an unknown edition, variant or bot, contradicting variants) print
a message and exit with status 2. See the documentation page "Command line".
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from stratego.bots import BOTS, Bot, make_bot
from stratego.editions import EDITIONS, by_name
from stratego.engine import apply, legal_moves, new_game
from stratego.errors import InvalidNotationError, StrategoError
from stratego.explain import explain_illegal
from stratego.match import GameResult, MatchResult, play_game, play_match
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.setups import random_setup
from stratego.state import GameState
from stratego.text import board_text, captured_text
from stratego.variants import VARIANTS

__all__ = ["main"]

BOARD_STYLES = ("ascii", "unicode", "color")


class _UsageError(Exception):
    """A bad argument found after parsing (reported like argparse does, status 2)."""


def _rules(args: argparse.Namespace) -> Rules:
    name = "+".join([args.edition, *(args.variant or [])])
    try:
        rules = by_name(name)
    except StrategoError as exc:
        raise _UsageError(str(exc)) from None
    return rules


def _bot(name: str, seed: int | None) -> Bot:
    """A library bot by name, or ``module:factory`` (called with the seed) for your own."""
    if ":" in name:
        module_name, _, attribute = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError) as exc:
            raise _UsageError(f"cannot load the bot {name!r}: {exc}") from None
        bot: Bot = factory(seed)
        return bot
    try:
        return make_bot(name, seed)
    except StrategoError as exc:
        raise _UsageError(str(exc)) from None


def _draw(source: Any, style: str, perspective: Player | None = None) -> str:
    return board_text(source, perspective=perspective, unicode=style != "ascii",
                      color=style == "color")


def _add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--edition", "-e", default="classic", metavar="NAME",
        help=f"rules to play: an edition ({', '.join(EDITIONS)}) or a full rules name "
             "such as 'jumbo-2014+barrage' (default: %(default)s)",
    )
    parser.add_argument(
        "--variant", "-V", action="append", metavar="NAME",
        help="add a variant (repeatable): " + ", ".join(sorted(VARIANTS)),
    )


def _add_board_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board", choices=BOARD_STYLES, default="ascii",
        help="how to draw the board: plain ASCII, a Unicode grid, or a coloured grid "
             "(needs the 'rich' extra; plain otherwise) (default: %(default)s)",
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stratego",
        description="Play Stratego by the rules of a chosen edition: bot self-play, "
                    "bot matches, or a game against a bot in the terminal.",
    )
    from stratego import __version__

    parser.add_argument("--version", action="version", version=f"stratego {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    bots = ", ".join(sorted(BOTS)) + " or MODULE:FACTORY"

    selfplay = commands.add_parser(
        "selfplay", help="play one seeded game between two bots and show how it ended",
        description="Play one game between two bots (random players unless told otherwise) "
                    "from random setups, then print the final board, the number of plies "
                    "and the outcome. The same seed replays the same game.",
    )
    _add_rules_arguments(selfplay)
    selfplay.add_argument("--seed", "-s", type=int, default=None,
                          help="seed for the setups and the moves (default: a random seed, "
                               "printed so that the game can be replayed)")
    selfplay.add_argument("--max-plies", type=int, default=3000, metavar="N",
                          help="stop with a draw after N plies (default: %(default)s)")
    selfplay.add_argument("--red", default="random", metavar="BOT",
                          help=f"Red's bot: {bots} (default: %(default)s)")
    selfplay.add_argument("--blue", default="random", metavar="BOT",
                          help=f"Blue's bot: {bots} (default: %(default)s)")
    selfplay.add_argument("--moves", action="store_true", help="also print every move played")
    selfplay.add_argument("--save", metavar="FILE",
                          help="save the game; the format follows the file's extension "
                               f"({_FORMAT_HELP}) unless --format says otherwise")
    selfplay.add_argument("--format", choices=sorted(set(_FORMATS.values())), default=None,
                          help="format of --save")
    _add_board_argument(selfplay)

    replay = commands.add_parser(
        "replay", help="replay a saved game and show how it ended",
        description="Read a game saved by 'selfplay --save' (or any game record, record "
                    "JSON or Gravon game file), replay every move through the rules, and "
                    "print the final board, the number of plies and the outcome. An illegal "
                    "move in the file is reported with its move number.",
    )
    replay.add_argument("file", metavar="FILE", help="the saved game")
    replay.add_argument("--format", choices=sorted(set(_FORMATS.values())), default=None,
                        help=f"format of FILE (default: from its extension: {_FORMAT_HELP})")
    replay.add_argument("--moves", action="store_true", help="also print every move played")
    _add_board_argument(replay)

    match = commands.add_parser(
        "match", help="play many seeded games between two bots and print the totals",
        description="Play a match between two bots, changing colours every other game, "
                    "and print the wins, draws and losses, the score with its 95%% "
                    "confidence interval and the Elo difference it implies. --workers "
                    "plays on several cores (same games as one worker); --jsonl saves "
                    "each finished game, and the same command run again resumes.",
    )
    _add_rules_arguments(match)
    match.add_argument("--games", "-n", type=int, default=10, metavar="N",
                       help="number of games (default: %(default)s)")
    match.add_argument("--red", default="heuristic", metavar="BOT",
                       help=f"first bot (Red in the first game): {bots} (default: %(default)s)")
    match.add_argument("--blue", default="random", metavar="BOT",
                       help=f"second bot: {bots} (default: %(default)s)")
    match.add_argument("--seed", "-s", type=int, default=0,
                       help="seed of the match (default: %(default)s)")
    match.add_argument("--max-plies", type=int, default=3000, metavar="N",
                       help="ply limit of each game, a draw (default: %(default)s)")
    match.add_argument("--no-swap", action="store_true",
                       help="keep the first bot on Red in every game")
    match.add_argument("--workers", "-w", default="1", metavar="N|auto",
                       help="worker processes; 'auto' uses every core (default: %(default)s)")
    match.add_argument("--chunk-size", type=int, default=None, metavar="K",
                       help="games sent to a worker at a time (default: chosen from the "
                            "number of games and workers)")
    match.add_argument("--jsonl", metavar="FILE",
                       help="append one JSON line per finished game to FILE; run the same "
                            "command again to play only the games FILE lacks")
    match.add_argument("--record", action="store_true",
                       help="with --jsonl, also save each game's full record")
    match.add_argument("--summary", metavar="FILE", dest="summary_of",
                       help="play nothing: print the totals of the games in the JSONL FILE")
    match.add_argument("--progress", choices=("auto", "rich", "plain", "none"), default="auto",
                       help="progress display on standard error (games n/N, rate, running "
                            "score): 'auto' shows a rich bar (or plain lines without rich) "
                            "when it is a terminal (default: %(default)s)")
    match.add_argument("--verbose", "-v", action="store_true", help="print one line per game")

    play = commands.add_parser(
        "play", help="play against a bot in the terminal",
        description="Play a game against a bot. Type moves such as 'a4-a5'; 'moves' "
                    "lists your legal moves, 'help' explains, 'quit' ends the game. "
                    "Under the Rescue variant, type a rescue such as 'K@b2' or '--'.",
    )
    _add_rules_arguments(play)
    play.add_argument("--seed", "-s", type=int, default=None,
                      help="seed for the setups and the bot (default: random)")
    play.add_argument("--color", "--colour", dest="color", default="red",
                      choices=("red", "blue"), help="your colour (default: %(default)s)")
    play.add_argument("--bot", default="heuristic", metavar="BOT",
                      help=f"your opponent: {bots} (default: %(default)s)")
    play.add_argument("--max-plies", type=int, default=None, metavar="N",
                      help="draw after N plies (default: no limit)")
    _add_board_argument(play)

    commands.add_parser("editions", help="list the editions and variants",
                        description="List the editions and variants and their names.")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stratego`` command with `argv` (default: ``sys.argv[1:]``);
    returns the exit status (0 done, 2 bad arguments)."""
    parser = _parser()
    args = parser.parse_args(argv)
    command: Callable[[argparse.Namespace], int] = {
        "selfplay": _selfplay,
        "replay": _replay,
        "match": _match,
        "play": _play,
        "editions": _editions,
    }[args.command]
    try:
        return command(args)
    except _UsageError as exc:
        print(f"stratego {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`stratego ... | head`)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _check_plies(value: int | None) -> None:
    if value is not None and value < 1:
        raise _UsageError(f"--max-plies must be a positive number, not {value}")


def _selfplay(args: argparse.Namespace) -> int:
    rules = _rules(args)
    _check_plies(args.max_plies)
    red, blue = _bot(args.red, None), _bot(args.blue, None)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    game = play_game(rules, red, blue, seed=seed, max_plies=args.max_plies, keep_state=True)
    state = game.state
    assert state is not None
    print(f"Rules: {state.rules.title} ({state.rules.name}), ply limit {args.max_plies}")
    print(f"Red: {game.red}, Blue: {game.blue}, seed {seed}")
    _summary(state, args, _outcome_text(game))
    if args.save:
        _save(state, args.save, args.format, (game.red, game.blue), seed)
        print(f"Saved: {args.save}")
    return 0


def _summary(state: GameState, args: argparse.Namespace, outcome: str) -> None:
    """The end of a game as `selfplay` and `replay` print it."""
    if args.moves:
        print("Moves: " + _move_list(state))
    print(_draw(state, args.board))
    print(f"Captured red pieces: {captured_text(state, Player.RED)}")
    print(f"Captured blue pieces: {captured_text(state, Player.BLUE)}")
    print(f"Plies: {state.ply}")
    print(f"Outcome: {outcome}")


_FORMATS = {
    ".txt": "record",
    ".json": "record-json",
    ".xml": "gravon-xml",
    ".gsn": "gravon-text",
}
"""Save formats by file extension."""

_FORMAT_HELP = ", ".join(f"{ext} {name}" for ext, name in _FORMATS.items())


def _format_of(path: str, given: str | None) -> str:
    if given is not None:
        return given
    extension = os.path.splitext(path)[1].lower()
    if extension not in _FORMATS:
        raise _UsageError(f"cannot tell the format of {path!r} from its extension: use "
                          f"{_FORMAT_HELP}, or --format")
    return _FORMATS[extension]


def _save(state: GameState, path: str, given: str | None, players: tuple[str, str],
          seed: int) -> None:
    """Write the game that led to `state` to `path`."""
    from stratego import gravon, records

    kind = _format_of(path, given)
    if kind.startswith("gravon"):
        # Gravon has no ply limit: record the same moves under the rules without one.
        unlimited = _replayed(state, state.rules.with_ply_limit(None))
        try:
            game = gravon.game_from_state(unlimited, players=players)
        except StrategoError as exc:
            raise _UsageError(f"cannot save this game in a Gravon file: {exc}") from None
        text = game.to_xml() if kind == "gravon-xml" else game.to_text()
    else:
        record = records.record_from_state(state, event="stratego selfplay", red=players[0],
                                           blue=players[1], round=str(seed))
        text = record.to_text() if kind == "record" else record.to_json(indent=2) + "\n"
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise _UsageError(f"cannot save {path!r}: {exc.strerror}") from None


def _replayed(state: GameState, rules: Rules) -> GameState:
    """The moves that led to `state`, played again under `rules` from the same start."""
    from stratego import records

    return attrs.evolve(records.record_from_state(state), rules=rules).replay()


def _replay(args: argparse.Namespace) -> int:
    from stratego import gravon, records

    kind = _format_of(args.file, args.format)
    try:
        if kind.startswith("gravon"):
            state = gravon.read_game_file(args.file).replay()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
            record = (records.parse_record(text) if kind == "record"
                      else records.record_from_json(text))
            state = record.replay()
    except OSError as exc:
        raise _UsageError(f"cannot read {args.file!r}: {exc.strerror}") from None
    except StrategoError as exc:
        raise _UsageError(f"{args.file}: {exc}") from None
    print(f"Rules: {state.rules.title} ({state.rules.name})")
    outcome = state.outcome
    if outcome is None:
        text = "game on"
    else:
        who = "draw" if outcome.winner is None else f"{outcome.winner} wins"
        text = f"{who} ({outcome.termination.value}) {outcome.result()}"
    _summary(state, args, text)
    return 0


def _outcome_text(game: GameResult) -> str:
    who = "draw" if game.winner is None else f"{game.winner} wins"
    detail = f": {game.detail}" if game.detail else ""
    return f"{who} ({game.termination}{detail}) {game.result()}"


def _move_list(state: GameState) -> str:
    out = []
    for i, move in enumerate(state.moves()):
        out.append(f"{i + 1}. {move}")
    return " ".join(out) or "-"


def _match(args: argparse.Namespace) -> int:
    from stratego import match as matches

    if args.summary_of is not None:
        try:
            log = matches.read_jsonl(args.summary_of)
            summary = log.result().summary()
        except StrategoError as exc:
            raise _UsageError(str(exc)) from None
        if log.torn:
            print(f"{args.summary_of}: left out a torn last line ({log.torn} bytes)",
                  file=sys.stderr)
        print(summary)
        return 0
    rules = _rules(args)
    _check_plies(args.max_plies)
    if args.games < 0:
        raise _UsageError(f"--games must be 0 or more, not {args.games}")
    workers: int | str = args.workers
    if workers != "auto":
        try:
            workers = int(workers)
        except ValueError:
            workers = 0
        if workers < 1:
            raise _UsageError(f"--workers must be a number >= 1 or 'auto', not {args.workers!r}")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise _UsageError(f"--chunk-size must be 1 or more, not {args.chunk_size}")
    if args.record and not args.jsonl:
        raise _UsageError("--record needs --jsonl FILE")
    mode = args.progress
    if mode == "auto":
        if not sys.stderr.isatty():
            mode = "none"
        else:
            mode = "rich" if _has_rich() else "plain"
    elif mode == "rich" and not _has_rich():
        mode = "plain"
    tally = _Tally(args.games)
    if args.jsonl and os.path.exists(args.jsonl):
        with contextlib.suppress(StrategoError):  # play_match says what is wrong
            earlier = matches.read_jsonl(args.jsonl)
            tally.resumed(g for i, g in earlier.games.items() if i < args.games)
            if earlier.torn:
                print(f"{args.jsonl}: cutting off a torn last line ({earlier.torn} bytes) "
                      "left by an interrupted run; its game is played again", file=sys.stderr)
            if tally.done:
                print(f"resuming: {tally.done} of {args.games} game(s) already in "
                      f"{args.jsonl}", file=sys.stderr)

    def play(progress: Callable[[int, int, GameResult], None]) -> MatchResult:
        def each(done: int, total: int, game: GameResult) -> None:
            tally.add(done, game)
            if args.verbose:
                print(game, flush=True)
            progress(done, total, game)

        try:
            return play_match(rules, args.red, args.blue, games=args.games, seed=args.seed,
                              max_plies=args.max_plies, swap_colours=not args.no_swap,
                              progress=each, workers=workers, chunk_size=args.chunk_size,
                              jsonl=args.jsonl, record=args.record)
        except StrategoError as exc:
            raise _UsageError(str(exc)) from None

    try:
        if mode == "rich":
            result = _match_with_rich(play, tally)
        else:
            step = max(1, args.games // 20)

            def plain(done: int, total: int, game: GameResult) -> None:
                if mode == "plain" and (done % step == 0 or done == total):
                    print(f"game {done}/{total}, {tally.line()}", file=sys.stderr, flush=True)

            result = play(plain)
    except KeyboardInterrupt:
        saved = (f"; they are saved in {args.jsonl}: run the same command again to resume"
                 if args.jsonl else "")
        print(f"\ninterrupted after {tally.done} of {args.games} game(s){saved}",
              file=sys.stderr)
        return 130
    print(result.summary())
    return 0


class _Tally:
    """Games done, running score and rate of a match, for the progress display."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.fresh = 0
        self.points: dict[str, float] = {}
        self.names: list[str] = []
        self.start = time.monotonic()

    def _count(self, game: GameResult) -> None:
        for name in (game.red, game.blue):
            if name not in self.points:
                self.points[name] = 0.0
                self.names.append(name)
        if game.winner_name is None:
            self.points[game.red] += 0.5
            self.points[game.blue] += 0.5
        else:
            self.points[game.winner_name] += 1.0

    def resumed(self, games: Iterable[GameResult]) -> None:
        for game in games:
            self._count(game)
            self.done += 1

    def add(self, done: int, game: GameResult) -> None:
        self._count(game)
        self.done = done
        self.fresh += 1

    def score(self) -> str:
        return " - ".join(f"{name} {self.points[name]:g}" for name in self.names) or "-"

    def rate(self) -> str:
        elapsed = time.monotonic() - self.start
        return f"{self.fresh / elapsed:.2f} games/s" if elapsed > 0 and self.fresh else "-"

    def line(self) -> str:
        return f"{self.rate()}, score {self.score()}"


def _has_rich() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def _match_with_rich(play: Callable[[Callable[[int, int, GameResult], None]], MatchResult],
                     tally: _Tally) -> MatchResult:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TextColumn("{task.fields[score]}"))
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=tally.total, completed=tally.done,
                            rate=tally.rate(), score=tally.score())

        def progress(done: int, total: int, game: GameResult) -> None:
            bar.update(task, completed=done, rate=tally.rate(), score=tally.score())

        return play(progress)


def _editions(args: argparse.Namespace) -> int:
    print("Editions (--edition NAME):")
    for name, rules in EDITIONS.items():
        print(f"  {name:<22} {rules.title}")
    print("Variants (--variant NAME, or NAME after '+' in a rules name):")
    for name, variant in sorted(VARIANTS.items()):
        print(f"  {name:<22} {variant.summary}")
    return 0


# ---------------------------------------------------------------------------
# a person against a bot

_HELP = """\
Type a move as FROM-TO, such as a4-a5 (a Scout may go several squares: a4-a8).
Commands: 'moves' lists your legal moves, 'board' draws the board again,
'help' shows this text, 'quit' ends the game.
Pieces are drawn as r/b (Red/Blue) followed by the rank's label in this
edition; '?' is a piece whose rank you do not know, '~~~' a lake."""

_RESCUE_HELP = """\
Rescue: your {piece} reached the opponent's back row, so you may bring back one of
your captured pieces. Type RANK@SQUARE with the rank's letter (M Marshal,
G General, C Colonel, J Major, K Captain, L Lieutenant, T Sergeant, N Miner,
X Scout, S Spy), such as K@b2, or '--' to decline. 'moves' lists the choices."""


def _play(args: argparse.Namespace) -> int:
    rules = _rules(args)
    _check_plies(args.max_plies)
    if args.max_plies is not None:
        rules = rules.with_ply_limit(args.max_plies)
    from stratego.views import view

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    person = Player.parse(args.color)
    setups = {Player.RED: random_setup(rules, Player.RED, rng),
              Player.BLUE: random_setup(rules, Player.BLUE, rng)}
    bot = _bot(args.bot, rng.randrange(2**32))
    state = new_game(rules, setups[Player.RED], setups[Player.BLUE])
    print(f"You play {person} against the {args.bot} bot under {rules.title} "
          f"({rules.name}), seed {seed}.")
    print(_HELP)
    show_board = True
    while state.outcome is None:
        if state.to_move != person:
            move = bot(view(state, person.opponent))
            if not isinstance(move, Move) or move not in legal_moves(state):
                print(f"The {args.bot} bot answered {move!r}, which is not a legal move: "
                      "you win.")
                print(_draw(state, args.board, person))
                return 0
            state = apply(state, move)
            print(f"{person.opponent} plays {_public_move(move, view(state, person))}")
            _report_strike(state, person)
            show_board = True
            continue
        seen = view(state, person)
        if show_board:
            print(_draw(seen, args.board))
            print(f"Captured: yours {captured_text(seen, person)}; "
                  f"{person.opponent}'s {captured_text(seen, person.opponent)}")
            if seen.pending_rescue is not None:
                title = seen.pending_rescue.rank.title if seen.pending_rescue.rank else "piece"
                print(_RESCUE_HELP.format(piece=title))
            show_board = False
        try:
            line = input(f"{person} (ply {state.ply + 1})> ").strip()
        except EOFError:
            line = "quit"
            print()
        command = line.lower()
        if not command:
            continue
        if command in ("quit", "exit", "resign", "q"):
            print("You left the game.")
            print(_draw(state, args.board, person))
            return 0
        if command in ("help", "h", "?"):
            print(_HELP)
            if seen.pending_rescue is not None:
                print(_RESCUE_HELP.format(piece="piece"))
            continue
        if command in ("moves", "m"):
            print("Legal moves: " + " ".join(str(m) for m in seen.legal_moves))
            continue
        if command in ("board", "b"):
            show_board = True
            continue
        try:
            move = Move.parse(line)
        except InvalidNotationError as exc:
            print(f"Not understood: {exc}. Type 'help' for help.")
            continue
        if move not in legal_moves(state):
            print(f"Illegal: {_why_illegal(state, move, person)}. Type 'moves' for the "
                  "legal moves.")
            continue
        state = apply(state, move)
        _report_strike(state, person)
        show_board = True
    print(_draw(state, args.board, person))
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        verdict = "Draw"
    else:
        verdict = "You win" if outcome.winner == person else "You lose"
    print(f"{verdict}: {outcome} after {state.ply} plies.")
    return 0


def _public_move(move: Move, seen: Any) -> str:
    """The move as the person may see it (a hidden Rescue shows only its square)."""
    last = seen.history[-1] if seen.history else None
    if last is not None and last.move is None and last.to is not None:
        return f"a rescue onto {last.to}"
    return str(move)


def _why_illegal(state: GameState, move: Move, person: Player) -> str:
    """Why `move` is illegal (`explain_illegal` names no rank of an opponent's piece)."""
    return explain_illegal(state, move) or f"{move} is not legal here"


def _report_strike(state: GameState, person: Player) -> None:
    """Print what the last strike showed the person, if the last move struck."""
    from stratego.views import view

    seen = view(state, person)
    if not seen.history:
        return
    last = seen.history[-1]
    if last.defender is None or last.result is None:
        return
    labels = state.rules.labels

    def name(rank: Rank | None, owner: Player) -> str:
        whose = "your" if owner == person else f"{owner}'s"
        if rank is None:
            return f"{whose} piece"
        return f"{whose} {rank.title} ({labels.label(rank)})"

    attacker = name(last.rank, last.player)
    defender = name(last.defender_rank, last.player.opponent)
    result = {"attacker": "the attacker wins", "defender": "the defender wins",
              "both": "both are removed"}.get(last.result, last.result)
    where = f" on {last.to}" if last.to is not None else ""
    print(f"Strike{where}: {attacker} strikes {defender}: {result}.")


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
