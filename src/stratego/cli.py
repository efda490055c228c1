"""The ``stratego`` command: self-play, bot matches and a terminal game.

```sh
stratego selfplay --edition jumbo-2014 --seed 7
stratego match --edition classic --games 100 --red heuristic --blue random --seed 1
stratego match --edition classic --games 100 --setups human --workers auto
stratego play --edition classic --seed 3 --color red
stratego serve --port 8000          # play in a web browser (the 'web' extra)
stratego replay game.json
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
from typing import IO, Any

import attrs

from stratego.bots import BOTS, Bot, make_bot
from stratego.editions import EDITIONS, by_name
from stratego.engine import apply, legal_moves, new_game
from stratego.errors import InvalidNotationError, StrategoError
from stratego.explain import explain_illegal
from stratego.human_setups import human_setup, human_setups
from stratego.match import SETUP_SOURCES, GameResult, MatchResult, play_game, play_match
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import RankLabels, Rules
from stratego.setups import Setup, random_setup, setup_problems
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


def _colour_allowed(stream: IO[str]) -> bool:
    """Whether to write ANSI colour to `stream`: never when ``NO_COLOR`` is set (not
    empty), always when ``FORCE_COLOR`` is, else only when `stream` is a terminal."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(callable(isatty) and isatty())


def _draw(source: Any, style: str, perspective: Player | None = None) -> str:
    colour = style == "color" and _colour_allowed(sys.stdout)
    return board_text(source, perspective=perspective, unicode=style != "ascii", color=colour)


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
             "(needs the 'rich' extra; coloured only on a terminal and without NO_COLOR, "
             "FORCE_COLOR forces it) (default: %(default)s)",
    )




def _add_setups_argument(parser: argparse.ArgumentParser, whose: str) -> None:
    parser.add_argument(
        "--setups", choices=SETUP_SOURCES, default="random",
        help=f"where {whose} setups come from: shuffled at random, or drawn from the human "
             "setups bundled with stratego (stratego.human_setup: 40-piece army, Barrage, "
             "Ultimate Lightning, Duel) (default: %(default)s)",
    )


def _check_setups(rules: Rules, source: str) -> None:
    """Raise `_UsageError` when `source` cannot set up an army of `rules`."""
    if source == "human":
        try:
            human_setups(rules, Player.RED)
        except StrategoError as exc:
            raise _UsageError(f"--setups human: {exc}") from None


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
    selfplay.add_argument("--moves", action="store_true",
                          help="also print every move played, numbered as in a record")
    _add_setups_argument(selfplay, "both bots'")
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
                    "print its header (rules, players, seed and other tags), the final "
                    "board, the number of plies and the outcome. An illegal move in the file "
                    "is reported with its move number.",
    )
    replay.add_argument("file", metavar="FILE", help="the saved game")
    replay.add_argument("--format", choices=sorted(set(_FORMATS.values())), default=None,
                        help=f"format of FILE (default: from its extension: {_FORMAT_HELP})")
    replay.add_argument("--moves", action="store_true",
                        help="also print every move played, numbered as in a record")
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
    _add_setups_argument(match, "the bots'")
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
                    "lists your legal moves, 'help' explains, 'quit' leaves the game. "
                    "Under the Rescue variant, type a rescue such as 'K@b2' or '--'. "
                    "You see only what your side may know: the bot's pieces show their "
                    "ranks once revealed, and the whole board once the game is over.",
        epilog=_glyphs_help(), formatter_class=argparse.RawDescriptionHelpFormatter,
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
    play.add_argument("--setup", metavar="SETUP|FILE",
                      help="your setup: its text form (rows from your back row, '/' between "
                           "rows, rank letters such as 'FBXN...'; see stratego.Setup) or a "
                           "file holding it (default: from --setups)")
    _add_setups_argument(play, "the bot's and (without --setup) your")
    play.add_argument("--save", metavar="FILE",
                      help="when the game is over, save it; the format follows the file's "
                           f"extension ({_FORMAT_HELP}) unless --format says otherwise")
    play.add_argument("--format", choices=sorted(set(_FORMATS.values())), default=None,
                      help="format of --save")
    _add_board_argument(play)

    serve = commands.add_parser(
        "serve", help="play in a web browser, against the bot or a friend",
        description="Start a web server for the browser game (needs the 'web' extra) and "
                    "print its URL. Each browser is sent only its own player's view.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on "
                       "(default: %(default)s)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    serve.add_argument("--rules", "--edition", "-e", dest="edition", default="classic",
                       metavar="NAME", help="rules of new games (default: %(default)s)")
    serve.add_argument("--bot", default="heuristic", metavar="BOT",
                       help=f"the bot: a bot spec ({', '.join(sorted(BOTS))}, or "
                            "MODULE:ATTRIBUTE...) (default: %(default)s)")
    serve.add_argument("--bot-time", type=float, default=5.0, metavar="SECONDS",
                       help="the most the bot may think about one move; a slower bot plays "
                            "its first legal move (default: %(default)s)")
    serve.add_argument("--db", metavar="PATH", default=None,
                       help="the SQLite file the games are kept in, so they survive a "
                            "restart (default: web-games.sqlite3 in the user's data "
                            "directory; ':memory:' keeps none)")
    serve.add_argument("--bot-setup", metavar="TEXT",
                       help="the bot's army as setup text, for demos and puzzles "
                            "(never shown in the page)")
    serve.add_argument("--seed", "-s", type=int, default=None,
                       help="seed for the bot and the first setups (default: random)")
    serve.add_argument("--max-games", type=int, default=200, metavar="N",
                       help="most games live at once (default: %(default)s)")
    serve.add_argument("--idle-minutes", type=float, default=60.0, metavar="M",
                       help="drop a game after M minutes without activity "
                            "(default: %(default)s)")

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
        "serve": _serve,
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


def _serve(args: argparse.Namespace) -> int:
    """``stratego serve``: the browser game (the `stratego.web` bridge, loaded by name so
    that the command line does not depend on the optional extra)."""
    if not 0 <= args.port <= 65535:
        raise _UsageError(f"--port must be 0 to 65535, not {args.port}")
    try:
        web = importlib.import_module("stratego.web")
        app = importlib.import_module("stratego.web.app")
        db = args.db if args.db is not None else web.default_db_path()
        hub = web.GameHub(rules=args.edition, bot=args.bot, bot_setup=args.bot_setup,
                          seed=args.seed, max_games=args.max_games,
                          idle_seconds=args.idle_minutes * 60, db=db, bot_time=args.bot_time)
    except StrategoError as exc:  # a missing extra, unknown rules or bot, bad setup or db
        raise _UsageError(str(exc)) from None

    def ready(url: str) -> None:
        print(f"Stratego is served at {url} (press Ctrl+C to stop)", flush=True)
        kept = "in memory only" if hub.store is None else f"in {hub.store.path}"
        print(f"Games are kept {kept} ({hub.live_games} resumed)", flush=True)

    app.run(hub, host=args.host, port=args.port, ready=ready)
    return 0


def _check_plies(value: int | None) -> None:
    if value is not None and value < 1:
        raise _UsageError(f"--max-plies must be a positive number, not {value}")


def _selfplay(args: argparse.Namespace) -> int:
    rules = _rules(args)
    _check_plies(args.max_plies)
    _check_setups(rules, args.setups)
    red, blue = _bot(args.red, None), _bot(args.blue, None)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    game = play_game(rules, red, blue, seed=seed, max_plies=args.max_plies, keep_state=True,
                     setups=args.setups)
    state = game.state
    assert state is not None
    print(_rules_line(state.rules))
    print(f"Red: {game.red}, Blue: {game.blue}, seed {seed}")
    _summary(state, args, _outcome_text(game))
    if args.save:
        _save(state, args.save, args.format, (game.red, game.blue), str(seed))
        print(f"Saved: {args.save}")
    return 0


def _rules_line(rules: Rules) -> str:
    limit = f", ply limit {rules.ply_limit}" if rules.ply_limit is not None else ""
    return f"Rules: {rules.title} ({rules.name}){limit}"


def _header_lines(tags: dict[str, str]) -> list[str]:
    """A saved game's tags as `selfplay` prints them: players and seed (``Round``) on one
    line, then any other tag but ``Result`` (the outcome line says it)."""
    lines = []
    if "Red" in tags or "Blue" in tags:
        players = f"Red: {tags.get('Red', '?')}, Blue: {tags.get('Blue', '?')}"
        if "Round" in tags:
            players += f", seed {tags['Round']}"
        lines.append(players)
    for name, value in tags.items():
        if name not in ("Red", "Blue", "Round", "Result"):
            lines.append(f"{name}: {value}")
    return lines


def _summary(state: GameState, args: argparse.Namespace, outcome: str) -> None:
    """The end of a game as `selfplay` and `replay` print it."""
    if args.moves:
        from stratego.records import move_text

        print("Moves: " + (move_text(state.moves()) or "-"))
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
          seed: str, event: str = "stratego selfplay") -> None:
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
        tags = {"event": event, "red": players[0], "blue": players[1]}
        if seed:
            tags["round"] = seed
        record = records.record_from_state(state, **tags)
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
    header: dict[str, str] = {}
    try:
        if kind.startswith("gravon"):
            game = gravon.read_game_file(args.file)
            header = {"Red": game.players[0], "Blue": game.players[1]}
            state = game.replay()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
            record = (records.parse_record(text) if kind == "record"
                      else records.record_from_json(text))
            header = dict(record.tags)
            state = record.replay()
    except OSError as exc:
        raise _UsageError(f"cannot read {args.file!r}: {exc.strerror}") from None
    except StrategoError as exc:
        raise _UsageError(f"{args.file}: {exc}") from None
    print(_rules_line(state.rules))
    for line in _header_lines(header):
        print(line)
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
    _check_setups(rules, args.setups)
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
                              jsonl=args.jsonl, record=args.record, setups=args.setups)
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
'legend' shows what the board's signs mean, 'help' shows this text, 'quit' leaves
the game."""

_RESCUE_HELP = """\
Rescue: your {piece} reached the opponent's back row, so you may bring back one of
your captured pieces. Type RANK@SQUARE with the rank's letter (M Marshal,
G General, C Colonel, J Major, K Captain, L Lieutenant, T Sergeant, N Miner,
X Scout, S Spy), such as K@b2, or '--' to decline. 'moves' lists the choices."""

_MOVE_HINT = "; a rescue is written 'K@b2', declining one '--'"
"""The Rescue hint of `Move.parse` errors, left out under rules without Rescue."""


def _glyphs_help() -> str:
    """What `play` draws, for its ``--help``: the signs and each edition's rank labels."""
    by_labels: dict[tuple[str, ...], list[str]] = {}
    for name, rules in EDITIONS.items():
        by_labels.setdefault(tuple(rules.labels.labels), []).append(name)
    lines = [
        "The board, as play draws it:",
        "  r.. / b..   a Red / Blue piece: r or b, then the rank's label in the edition",
        "  b?          a piece of the bot's whose rank you do not know (yet)",
        "  .           an empty square (blank in the Unicode grid)",
        "  ~~~         a lake (≈≈≈ in the Unicode grid)",
        "Rank labels (B Bomb and F Flag in every edition):",
    ]
    for labels, names in by_labels.items():
        table = RankLabels(labels)
        ranks = ", ".join(f"{table.label(rank)} {rank.title}" for rank in _LEGEND_ORDER)
        lines.append(f"  {', '.join(names)}: {ranks}")
    return "\n".join(lines)


_LEGEND_ORDER = (Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.MAJOR, Rank.CAPTAIN,
                 Rank.LIEUTENANT, Rank.SERGEANT, Rank.MINER, Rank.SCOUT, Rank.SPY,
                 Rank.BOMB, Rank.FLAG)


def _legend(rules: Rules, person: Player, style: str) -> str:
    """The rank legend of `rules` for a person playing `person`: each label, its rank and
    how many pieces of it an army has, and the board's other signs."""
    ranks = ", ".join(f"{rules.labels.label(rank)} {rank.title} x{rules.army.count(rank)}"
                      for rank in _LEGEND_ORDER if rules.army.count(rank))
    mine, theirs = ("r", "b") if person is Player.RED else ("b", "r")
    lake = "~~~" if style == "ascii" else "≈≈≈"
    return (f"Legend: {mine}.. your pieces, {theirs}.. the bot's, {theirs}? a bot piece "
            f"whose rank you do not know, {lake} a lake.\nRanks: {ranks}.")


def _person_setup(text: str, rules: Rules, person: Player) -> Setup:
    """The person's `--setup`: its text form, or the name of a file holding it (lines
    starting with '#' are comments)."""
    source = text
    if os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise _UsageError(f"--setup: cannot read {text!r}: {exc}") from None
        source = "/".join(line.strip() for line in lines
                          if line.strip() and not line.lstrip().startswith("#"))
    try:
        setup = Setup.parse(source, person, rules.setup.depth)
    except StrategoError as exc:
        raise _UsageError(f"--setup: {exc}") from None
    problems = setup_problems(rules, setup)
    if problems:
        raise _UsageError(f"--setup: not a valid {person} setup under {rules.name}: "
                          + "; ".join(problems))
    return setup


def _parse_move(line: str, rules: Rules) -> Move:
    """The person's typed move; Rescue syntax is accepted and mentioned only under rules
    with Rescue. Raises `InvalidNotationError`."""
    rescue = rules.rescue.enabled
    if not rescue and ("@" in line or line.strip() == "--"):
        raise InvalidNotationError(
            f"not a move: {line.strip()!r} (expected two squares such as 'a4-a5'; there are "
            "no Rescue decisions under these rules)")
    try:
        return Move.parse(line)
    except InvalidNotationError as exc:
        if rescue:
            raise
        raise InvalidNotationError(str(exc).replace(_MOVE_HINT, "")) from None


def _play(args: argparse.Namespace) -> int:
    rules = _rules(args)
    _check_plies(args.max_plies)
    _check_setups(rules, args.setups)
    if args.max_plies is not None:
        rules = rules.with_ply_limit(args.max_plies)
    if args.save:
        _format_of(args.save, args.format)  # a bad name is an error before the game
    from stratego.views import view

    # The seed fixes the bot's setup and play: it is never printed while the game is on.
    # Each side's setup and the bot's randomness come from streams of their own.
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    person = Player.parse(args.color)
    place = human_setup if args.setups == "human" else random_setup
    setups = {player: place(rules, player, random.Random(f"{seed}/setup/{player.name}"))
              for player in Player}
    if args.setup is not None:
        setups[person] = _person_setup(args.setup, rules, person)
    bot = _bot(args.bot, random.Random(f"{seed}/bot").randrange(2**32))
    state = new_game(rules, setups[Player.RED], setups[Player.BLUE])
    print(f"You play {person} against the {args.bot} bot under {rules.title} "
          f"({rules.name}).")
    print(_HELP)
    print(_legend(rules, person, args.board))
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
            # The game is not over: the board shows only what you may know.
            print("You left the game.")
            print(_draw(seen, args.board))
            if args.save:
                print(f"Not saved: {args.save} would show the bot's setup, and the game is "
                      "not over.")
            return 0
        if command in ("help", "h", "?"):
            print(_HELP)
            if seen.pending_rescue is not None:
                print(_RESCUE_HELP.format(piece="piece"))
            continue
        if command in ("legend", "l"):
            print(_legend(rules, person, args.board))
            continue
        if command in ("moves", "m"):
            print("Legal moves: " + " ".join(str(m) for m in seen.legal_moves))
            continue
        if command in ("board", "b"):
            show_board = True
            continue
        try:
            move = _parse_move(line, rules)
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
    # The game is over: the whole board may be shown, and the seed that replays it.
    print(_draw(state, args.board, person))
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        verdict = "Draw"
    else:
        verdict = "You win" if outcome.winner == person else "You lose"
    print(f"{verdict}: {outcome} after {state.ply} plies (seed {seed}).")
    if args.save:
        names = (("you", args.bot) if person is Player.RED else (args.bot, "you"))
        _save(state, args.save, args.format, names, str(seed), event="stratego play")
        print(f"Saved: {args.save}")
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
