"""Saving and reading games: the shared ``--save FILE`` / ``--format`` options of `selfplay`
and `play` (the format follows the file's extension: a game record, its JSON form or a Gravon
game file)."""

from __future__ import annotations

import argparse
import os

import attrs

from stratego.cli.options import UsageError
from stratego.errors import StrategoError, shown
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.state import GameState

FORMATS = {
    ".txt": "record",
    ".json": "record-json",
    ".xml": "gravon-xml",
    ".gsn": "gravon-text",
}
"""Save formats by file extension."""

FORMAT_HELP = ", ".join(f"{ext} {name}" for ext, name in FORMATS.items())


def format_of(path: str, given: str | None) -> str:
    if given is not None:
        return given
    extension = os.path.splitext(path)[1].lower()
    if extension not in FORMATS:
        raise UsageError(f"cannot tell the format of {shown(path)} from its extension: use "
                          f"{FORMAT_HELP}, or --format")
    return FORMATS[extension]


def save_game(state: GameState, path: str, given: str | None, players: tuple[str, str],
              seed: int | None, event: str = "stratego selfplay",
              resigned: Player | None = None) -> None:
    """Write the game that led to `state` to `path`; `seed` (the seed that replays the
    game) goes into a record's ``Seed`` tag unless None. A game `resigned` by that
    player is saved with its opponent the winner (a record's ``Result`` tag, a Gravon
    file's result type 3)."""
    from stratego import gravon, records

    kind = format_of(path, given)
    if kind.startswith("gravon"):
        # Gravon has no ply limit: record the same moves under the rules without one.
        unlimited = _replayed(state, state.rules.with_ply_limit(None))
        try:
            game = gravon.game_from_state(
                unlimited, players=players, result_type=None if resigned is None else 3,
                winner=None if resigned is None else resigned.opponent)
        except StrategoError as exc:
            raise UsageError(f"cannot save this game in a Gravon file: {exc}") from None
        text = game.to_xml() if kind == "gravon-xml" else game.to_text()
    else:
        tags = {"event": event, "red": players[0], "blue": players[1]}
        if seed is not None:
            tags["seed"] = str(seed)
        if resigned is not None:
            tags["result"] = "1-0" if resigned is Player.BLUE else "0-1"
        record = records.record_from_state(state, **tags)
        text = record.to_text() if kind == "record" else record.to_json(indent=2) + "\n"
    write_text(path, text, "save")


def check_file_name(flag: str, path: str | None) -> None:
    """`UsageError` when the option `flag` was given an empty file name (``--save ""``),
    which names no file to write or read."""
    if path is not None and not path:
        raise UsageError(f"{flag} needs a file name, not ''")


def read_text(path: str, flag: str | None = None) -> str:
    """The text of the UTF-8 file `path` (a byte-order mark at its start is skipped);
    `UsageError` ("cannot read PATH: why", after ``flag: `` when given) when it cannot
    be read or is not UTF-8 text."""
    said = f"{flag}: " if flag else ""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except OSError as exc:
        raise UsageError(f"{said}cannot read {shown(path)}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{said}cannot read {shown(path)}: it is not UTF-8 text") from None


def write_text(path: str, text: str, verb: str = "write") -> None:
    """Write `text` to the file `path`; `UsageError` ("cannot `verb` PATH: why") when the
    file system refuses."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise UsageError(f"cannot {verb} {shown(path)}: {exc.strerror}") from None


def _replayed(state: GameState, rules: Rules) -> GameState:
    """The moves that led to `state`, played again under `rules` from the same start."""
    from stratego import records

    return attrs.evolve(records.record_from_state(state), rules=rules).replay()


def add_save_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--save FILE`` and ``--format``; `what` starts the help of ``--save``."""
    parser.add_argument("--save", metavar="FILE",
                        help=f"{what}; the format follows the file's extension "
                             f"({FORMAT_HELP}) unless --format says otherwise")
    parser.add_argument("--format", choices=sorted(set(FORMATS.values())), default=None,
                        help="format of --save")


def check_save(path: str, given: str | None, rules: Rules) -> None:
    """The checks of ``--save PATH`` made before the game: its format (`format_of`), that
    the format can hold a game under `rules` (Gravon files have a game type for a few
    rules only) and that the file can be written (`check_writable`); an empty name is
    refused (`check_file_name`)."""
    from stratego import gravon

    check_file_name("--save", path)
    if format_of(path, given).startswith("gravon"):
        try:
            gravon.game_type_of(rules.with_ply_limit(None))  # Gravon has no ply limit
        except StrategoError as exc:
            raise UsageError(f"cannot save this game in a Gravon file: {exc}") from None
    check_writable(path)


def check_writable(path: str) -> None:
    """`UsageError` unless a file can be written at `path`, checked before a game or a
    ladder rather than after it (a ladder can take hours, a game against a person as
    long). A file the check creates is removed again."""
    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"cannot write {shown(path)}: {exc.strerror}") from None
    if not existed:
        os.remove(path)
