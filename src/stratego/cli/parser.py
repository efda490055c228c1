"""The argument parser of the ``stratego`` command: every subcommand and its options."""

from __future__ import annotations

import argparse
import textwrap

from stratego.arguments import DEFAULT_MAX_PLIES
from stratego.bots import BOTS
from stratego.cli.options import (
    add_board_argument,
    add_move_time_argument,
    add_rules_arguments,
    add_setups_argument,
    width,
)
from stratego.cli.play import glyphs_help
from stratego.cli.saving import FORMAT_HELP, FORMATS, add_save_arguments
from stratego.cli.serve import add_serve_options
from stratego.pieces import RANK_LETTERS


def commands_of(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The command parsers of `parser` (as `build_parser` made it), by command name."""
    action = next(a for a in parser._actions  # argparse keeps its subparsers there
                  if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command. No parser takes abbreviated options (``allow_abbrev``
    is off): ``stratego match --json FILE`` is refused, not read as ``--jsonl FILE``."""
    parser = argparse.ArgumentParser(
        prog="stratego", allow_abbrev=False,
        description="Play Stratego by the rules of a chosen edition: bot self-play, "
                    "bot matches and rating ladders, replays, and games against a bot "
                    "in the terminal or in a web browser.",
    )
    from stratego._version import __version__

    parser.add_argument("--version", action="version", version=f"stratego {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    bots = ", ".join(sorted(BOTS)) + ", MODULE:FACTORY, FILE.py:FACTORY or cmd:COMMAND"

    selfplay = commands.add_parser(
        "selfplay", allow_abbrev=False,
        help="play one seeded game between two bots and show how it ended",
        description="Play one game between two bots (random players unless told otherwise) "
                    "from random setups, then print the final board, the number of plies "
                    "and the outcome. The same seed replays the same game.",
    )
    add_rules_arguments(selfplay)
    selfplay.add_argument("--seed", "-s", type=int, default=None,
                          help="seed for the setups and the moves (default: a random seed, "
                               "printed so that the game can be replayed)")
    selfplay.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N",
                          help="stop with a draw after N plies (default: %(default)s)")
    selfplay.add_argument("--red", default="random", metavar="BOT",
                          help=f"Red's bot: {bots} (default: %(default)s)")
    selfplay.add_argument("--blue", default="random", metavar="BOT",
                          help=f"Blue's bot: {bots} (default: %(default)s)")
    selfplay.add_argument("--moves", action="store_true",
                          help="also print every move played, numbered as in a record")
    add_setups_argument(selfplay, "both bots'")
    add_save_arguments(selfplay, "save the game")
    add_board_argument(selfplay)

    replay = commands.add_parser(
        "replay", allow_abbrev=False,
        help="replay a saved game and show how it ended",
        description="Read a game saved by 'selfplay --save' (or any game record, record "
                    "JSON or Gravon game file), replay every move through the rules, and "
                    "print its header (rules, players, seed and other tags), the final "
                    "board, the number of plies and the outcome. An illegal move in the file "
                    "is reported with its move number.",
    )
    replay.add_argument("file", metavar="FILE", help="the saved game")
    replay.add_argument("--format", choices=sorted(set(FORMATS.values())), default=None,
                        help=f"format of FILE (default: from its extension: {FORMAT_HELP})")
    replay.add_argument("--moves", action="store_true",
                        help="also print every move played, numbered as in a record")
    add_board_argument(replay)

    match = commands.add_parser(
        "match", allow_abbrev=False,
        help="play many seeded games between two bots and print the totals",
        description="Play a match between two bots, changing colours every other game, "
                    "and print the wins, draws and losses, the score with its 95% "
                    "confidence interval and the Elo difference it implies. --workers "
                    "plays on several cores (same games as one worker); --jsonl saves "
                    "each finished game, and the same command run again resumes.",
    )
    add_rules_arguments(match)
    add_setups_argument(match, "the bots'")
    match.add_argument("--games", "-n", type=int, default=10, metavar="N",
                       help="number of games (default: %(default)s)")
    match.add_argument("--red", default="heuristic", metavar="BOT",
                       help=f"first bot (Red in the first game): {bots} (default: %(default)s)")
    match.add_argument("--blue", default="random", metavar="BOT",
                       help=f"second bot: {bots} (default: %(default)s)")
    match.add_argument("--seed", "-s", type=int, default=0,
                       help="seed of the match (default: %(default)s)")
    match.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N",
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
                            "when it is a terminal; 'rich' shows plain lines when it is not "
                            "(default: %(default)s)")
    match.add_argument("--verbose", "-v", action="store_true", help="print one line per game")
    add_move_time_argument(match)

    ladder = commands.add_parser(
        "ladder", allow_abbrev=False,
        help="rate bots: a round robin and a rating with an interval per bot",
        description="Play every bot against every other (both colours with the same seeds) "
                    "and fit ratings by maximum likelihood (Elo scale, random = 0 when it "
                    "plays) with 95% intervals. --jsonl saves each finished game, and the "
                    "same command run again resumes. Bots are specs: names, "
                    "module:factory, file.py:factory, cmd:COMMAND, with options such as "
                    "'search(time_limit=0.3)'.",
    )
    ladder.add_argument("bots", nargs="+", metavar="BOT", help="the bots (two or more)")
    add_rules_arguments(ladder)
    add_setups_argument(ladder, "the bots'")
    ladder.add_argument("--games-per-pair", "-n", type=int, default=10, metavar="N",
                        help="games between each pair, the colours alternated game by "
                             "game (an even N plays half with each) (default: %(default)s)")
    ladder.add_argument("--seed", "-s", type=int, default=0,
                        help="seed of the ladder (default: %(default)s)")
    ladder.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, metavar="N",
                        help="ply limit of each game, a draw (default: %(default)s)")
    ladder.add_argument("--workers", "-w", default="1", metavar="N|auto",
                        help="worker processes; 'auto' uses every core (default: %(default)s)")
    ladder.add_argument("--jsonl", metavar="FILE",
                        help="append one JSON line per finished game to FILE; run the same "
                             "command again to play only the games FILE lacks")
    ladder.add_argument("--json", action="store_true",
                        help="print one JSON object instead of the table")
    ladder.add_argument("--svg", metavar="FILE",
                        help="also write a picture of the ratings and intervals (an SVG file: "
                             "FILE ends in .svg)")
    ladder.add_argument("--progress", choices=("auto", "plain", "none"), default="auto",
                        help="progress on standard error, a short line per game: 'auto' "
                             "shows it when that is a terminal (default: %(default)s)")
    ladder.add_argument("--verbose", "-v", action="store_true",
                        help="print one line per game (its seed, bots, result and length) "
                             "before the table")
    add_move_time_argument(ladder)


    play = commands.add_parser(
        "play", allow_abbrev=False,
        help="play against a bot in the terminal",
        description=textwrap.fill(
            "Play a game against a bot. Type moves such as 'a4-a5'; 'moves' lists your "
            "legal moves, 'help' explains, 'resign' gives up the game, 'quit' leaves it "
            "unfinished. Under the Rescue variant, type a rescue such as 'K@b2' or '--'. "
            "You see only what your side may know: the bot's pieces show their ranks once "
            "revealed, and the whole board once the game is over.", width()),
        epilog=glyphs_help(), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_arguments(play)
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
                           f"rows, '.' an empty square, rank letters: {RANK_LETTERS}) or a "
                           "file holding it (default: from --setups)")
    add_setups_argument(play, "the bot's (unless it places its own army) and, without --setup, "
                              "your")
    add_save_arguments(play, "when the game is over, save it")
    add_board_argument(play)

    serve = commands.add_parser(
        "serve", allow_abbrev=False,
        help="play in a web browser, against the bot or a friend",
        description="Start a web server for the browser game (needs the 'web' extra) and "
                    "print its URL. Each browser is sent only its own player's view.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on "
                       "(default: %(default)s)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    add_rules_arguments(serve, "--rules", what="rules of new games")
    serve.add_argument("--bot", default=None, metavar="BOT",
                       help=f"the bot a game gets when its request names none: an id or "
                            f"spec of the offered bots, or another spec, which joins them: "
                            f"{bots} (default: Medium, heuristic; with --bots, the first "
                            f"of them)")
    serve.add_argument("--bot-time", type=float, default=5.0, metavar="SECONDS",
                       help="the most the bot may think about one move; a slower bot plays "
                            "a random legal move (default: %(default)s)")
    serve.add_argument("--db", metavar="PATH", default=None,
                       help="the SQLite file the games are kept in, so they survive a "
                            "restart (default: web-games.sqlite3 in the user's data "
                            "directory; ':memory:' keeps none)")
    serve.add_argument("--bot-setup", metavar="TEXT",
                       help="the bot's army as setup text, for demos and puzzles "
                            "(never shown in the page)")
    serve.add_argument("--seed", "-s", type=int, default=None,
                       help="seed for the bots, the first setups and a random colour, so "
                            "that the server plays the same games again: for tests and "
                            "demos, since a player who knows or guesses the seed can "
                            "compute the bots' armies (default: fresh randomness)")
    serve.add_argument("--max-games", type=int, default=200, metavar="N",
                       help="most games live at once (default: %(default)s)")
    serve.add_argument("--idle-minutes", type=float, default=60.0, metavar="M",
                       help="drop a game after M minutes without activity "
                            "(default: %(default)s)")
    serve.add_argument("--archive-days", type=float, default=30.0, metavar="D",
                       help="keep a finished game in the database for D days after it "
                            "was last opened, so its players can come back to it "
                            "(default: %(default)s)")
    add_serve_options(serve)

    commands.add_parser(
        "editions", allow_abbrev=False,
        help="list the editions and variants",
                        description="List the editions and variants and their names.")
    return parser
