"""The one-game commands: ``stratego selfplay`` (one seeded game between two bots),
``stratego replay`` (a saved game replayed through the rules) and ``stratego editions``."""

from __future__ import annotations

import argparse
import random
import re
import textwrap

from stratego.cli.options import (
    UsageError,
    bot_from_spec,
    draw_board,
    note_board_style,
    rules_from_args,
    rules_line,
    width,
)
from stratego.cli.saving import check_save, format_of, read_text, save_game
from stratego.editions import EDITIONS, OPTIONS
from stratego.errors import IllegalMoveError, StrategoError, shown
from stratego.explain import explain_outcome
from stratego.match import GameResult, play_game
from stratego.pieces import Player
from stratego.state import GameState
from stratego.text import captured_text
from stratego.variants import VARIANTS


def cmd_selfplay(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    red, blue = bot_from_spec(args.red, None, rules), bot_from_spec(args.blue, None, rules)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    if args.save is not None:
        check_save(args.save, args.format, rules)  # a bad name or file is an error before the game
    game = play_game(rules, red, blue, seed=seed, max_plies=args.max_plies, keep_state=True,
                     setups=args.setups, names=_names(args.red, red, args.blue, blue))
    state = game.state
    if state is None:  # a bot broke its side before the first move (a program bot's setup)
        print(f"Red: {game.red}, Blue: {game.blue}, seed {seed}")
        print(f"Outcome: {_outcome_text(game)}")
        return 1
    print(rules_line(state.rules))
    print(f"Red: {game.red}, Blue: {game.blue}, seed {seed}")
    _summary(state, args, _outcome_text(game))
    if args.save:
        # a forfeit ends the game off the board: saved as the loser's resignation
        forfeit = (game.winner.opponent if state.outcome is None and game.winner is not None
                   else None)
        save_game(state, args.save, args.format, (game.red, game.blue), seed,
                  resigned=forfeit)
        print(f"Saved: {args.save}")
    return 0


def _names(red_spec: str, red: object, blue_spec: str, blue: object) -> tuple[str, str]:
    """The bots' names as a match gives them (`stratego.match.specs.pair_names`): the
    specs that rebuild them, in canonical form (``search(simulations=5)``); two bots of
    one spec keep it (the colours tell them apart: no ``-1`` and ``-2`` as in a match)."""
    from stratego.match.specs import BotSpec, pair_names

    return pair_names((BotSpec(red_spec), BotSpec(blue_spec)), (red, blue), numbered=False)


def _header_lines(tags: dict[str, str]) -> list[str]:
    """A saved game's tags as `selfplay` prints them: players and seed (``Seed``) on one
    line, then any other tag but ``Result`` (the outcome line says it)."""
    lines = []
    if "Red" in tags or "Blue" in tags:
        players = f"Red: {tags.get('Red', '?')}, Blue: {tags.get('Blue', '?')}"
        if "Seed" in tags:
            players += f", seed {tags['Seed']}"
        lines.append(players)
    for name, value in tags.items():
        if name not in ("Red", "Blue", "Seed", "Result"):
            lines.append(f"{name}: {value}")
    return lines


def _summary(state: GameState, args: argparse.Namespace, outcome: str) -> None:
    """The end of a game as `selfplay` and `replay` print it: the moves (``--moves``), the
    board, the captured pieces, the plies, the outcome line and, for a game the rules
    ended, how (`stratego.explain_outcome`)."""
    if args.moves:
        from stratego.records import move_text

        print(textwrap.fill("Moves: " + (move_text(state.moves()) or "-"), width(),
                            subsequent_indent="  ", break_on_hyphens=False,
                            break_long_words=False))
    note_board_style(args.board)
    print(draw_board(state, args.board))
    print(f"Captured red pieces: {captured_text(state, Player.RED)}")
    print(f"Captured blue pieces: {captured_text(state, Player.BLUE)}")
    print(f"Plies: {state.ply}")
    print(f"Outcome: {outcome}")
    if state.outcome is not None:  # how the rules ended it (the board is shown whole)
        print(textwrap.fill(explain_outcome(state), width()))


def cmd_replay(args: argparse.Namespace) -> int:
    from stratego import gravon, records

    kind = format_of(args.file, args.format)
    header: dict[str, str] = {}
    recorded = ""  # the result the file gives a game its moves do not end (a resignation)
    text = ""
    if not kind.startswith("gravon"):
        text = read_text(args.file)
        if args.format is None and kind == "record" and _gravon_text(text):
            kind = "gravon-text"  # a Gravon text game saved under .txt
    try:
        if kind.startswith("gravon"):
            game = gravon.read_game_file(args.file)
            header = {"Red": game.players[0], "Blue": game.players[1]}
            state = game.replay()
            if game.result_type is not None:
                recorded = ("1/2-1/2" if game.winner is None
                            else "1-0" if game.winner is Player.RED else "0-1")
        else:
            record = (records.parse_record(text) if kind == "record"
                      else records.record_from_json(text))
            header = dict(record.tags)
            recorded = header.get("Result", "")
            positions = record.positions()
            state = next(positions)  # the start
            try:
                for position in positions:
                    state = position
            except IllegalMoveError:  # show the game as far as it is legal, then the fault
                _show(state, header, args, "stopped: the next move is illegal (see below)")
                raise
    except OSError as exc:
        raise UsageError(f"cannot read {shown(args.file)}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {shown(args.file)}: it is not UTF-8 text") from None
    except StrategoError as exc:  # the Gravon reader names the file itself
        text = str(exc)
        raise UsageError(text if text.startswith(f"{args.file}:") else f"{args.file}: {text}"
                         ) from None
    outcome = state.outcome
    if outcome is None:
        text = _ended_off_the_board(recorded)
    else:
        who = "draw" if outcome.winner is None else f"{outcome.winner} wins"
        text = f"{who} ({outcome.termination.value}) {outcome.result()}"
    _show(state, header, args, text)
    return 0


def _show(state: GameState, header: dict[str, str], args: argparse.Namespace,
          outcome: str) -> None:
    """A replayed game: its rules, its header and `_summary` of `state`."""
    print(rules_line(state.rules))
    for line in _header_lines(header):
        print(line)
    _summary(state, args, outcome)


def _gravon_text(text: str) -> bool:
    """Whether `text` begins as a Gravon text game does (its ``#`` header line, such as
    ``#X38FA11 Stratego-Notation v2``, or its ``type N`` line), which no game record
    does (a record begins with its tag pairs)."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first.startswith("#") or re.fullmatch(r"type\s+\d+", first) is not None


def _ended_off_the_board(result: str) -> str:
    """The outcome line of a game its moves do not end, from the result its file records
    (a resignation, a forfeit or an agreed draw, as `play --save` writes them), or "game
    on" when it records none."""
    if result in ("1-0", "0-1"):
        loser = Player.BLUE if result == "1-0" else Player.RED
        return f"{loser.opponent} wins ({loser} resigned or forfeited) {result}"
    if result == "1/2-1/2":
        return f"draw (agreed) {result}"
    return "game on"


def _outcome_text(game: GameResult) -> str:
    who = "draw" if game.winner is None else f"{game.winner} wins"
    detail = f": {game.detail}" if game.detail else ""
    return f"{who} ({game.termination}{detail}) {game.result()}"


def cmd_editions(args: argparse.Namespace) -> int:
    def line(name: str, text: str) -> str:  # wrapped to a terminal's width
        return textwrap.fill(f"  {name:<22} {text}", width(), subsequent_indent=" " * 25)

    print("Editions (--edition NAME):")
    for name, rules in EDITIONS.items():
        print(line(name, rules.title))
    print("Options of an edition (--edition NAME too):")
    for name, rules in OPTIONS.items():
        print(line(name, rules.title))
    print("Variants (--variant NAME, or NAME after '+' in a rules name):")
    for name, variant in sorted(VARIANTS.items()):
        print(line(name, variant.summary))
    return 0
