"""The game's strings: information-state strings built from a player's view, observation
strings built from its observation planes, and the whole board for ``str(state)``."""

from __future__ import annotations

from typing import Any

from stratego.optional import require

np = require("numpy", "openspiel", "stratego.openspiel")

from stratego.board import LAKE_INDICES, SQUARES  # noqa: E402
from stratego.encoding import NUM_PLANES, PLANES  # noqa: E402
from stratego.pieces import Player, Rank  # noqa: E402
from stratego.state import GameState  # noqa: E402
from stratego.views import PlayerView, SeenPly  # noqa: E402

__all__: list[str] = []

SETUPS_TEXT = "setups being drawn"
"""The observation string while the setups are drawn, for either player: the observation
tensor is all zeros there, and the strings are equal exactly when the tensors are."""


def ply_text(seen: SeenPly) -> str:
    """One entry of the history as an information string holds it, on a line of its own."""
    move = "?" if seen.move is None else str(seen.move)
    to = "" if seen.to is None else f"@{seen.to}"
    rank = "" if seen.rank is None else f" {seen.rank.symbol}"
    struck = "" if seen.defender is None else (
        f" x{seen.defender}" + ("" if seen.defender_rank is None else
                                f" {seen.defender_rank.symbol}") + f" {seen.result}")
    return f"\n{seen.ply} {seen.player.name[0]} {move}{to} #{seen.piece}{rank}{struck}"


def own_text(player: Player, placement: list[tuple[int, Rank]]) -> str:
    """The first line of an information string: `player`'s setup, square index and rank."""
    return f"{player.name} " + " ".join(f"{index}{rank.symbol}"
                                        for index, rank in sorted(placement))


def header(seen: PlayerView) -> str:
    """The player's own setup, then the squares the opponent's pieces started on."""
    own = [(p.start.index, p.rank) for p in seen.all_pieces()
           if p.owner == seen.player and p.start is not None and p.rank is not None]
    theirs = sorted(p.start.index for p in seen.all_pieces()
                    if p.owner != seen.player and p.start is not None)
    return (own_text(seen.player, own) + f"\n{seen.player.opponent.name} "
            + " ".join(map(str, theirs)))


def status_text(seen: PlayerView) -> str:
    """The last line of an information string: the ply, the player to move or the outcome,
    a Rescue owed, and under a chase rule the player's legal moves (whether a position
    repeats can there depend on ranks the player has not seen)."""
    status = str(seen.outcome) if seen.outcome else f"{seen.to_move.name} to move"
    if seen.pending_rescue is not None:
        status += f", Rescue owed to #{seen.pending_rescue.id}"
    if seen.rules.repetition.chase and seen.legal_moves:
        status += ", legal " + " ".join(map(str, seen.legal_moves))
    return f"\nply {seen.ply}, {status}"


# A square's character from its planes: code = 1 + rank (own), 13 + rank (opponent, known),
# 25 hidden opponent, 26 lake, 0 empty.
_CELLS = "." + "".join(r.symbol for r in Rank) + "".join(r.symbol.lower() for r in Rank) + "?~"
_CELL_CODES = np.zeros(NUM_PLANES, np.float32)
_CELL_CODES[:24] = np.arange(1, 25)
_CELL_CODES[PLANES.index("opponent/unknown")] = 25
_CELL_CODES[PLANES.index("lake")] = 26
_PLANE = {name: i for i, name in enumerate(PLANES)}
_POSSIBLE = [(_PLANE[f"possible/{r.name.lower()}"], r.symbol) for r in Rank]
_UNIDENTIFIED = [(_PLANE[f"unidentified/{r.name.lower()}"], r.symbol) for r in Rank]


def observation_text(planes: Any, player: Player, status: str) -> str:
    """`planes` (a player's observation planes) as text: the board from the player's seat,
    then every plane the board does not show, then `status`."""
    flat = planes.reshape(NUM_PLANES, 100)
    codes = _CELL_CODES @ flat
    rows = ["".join(_CELLS[int(c)] for c in codes[row * 10:row * 10 + 10])
            for row in range(9, -1, -1)]

    def name(cell: int) -> str:  # the seat's cell as the square's name
        return str(SQUARES[cell if player is Player.RED else 99 - cell])

    def cells(*names: str) -> list[int]:
        marked = flat[[_PLANE[n] for n in names]].any(axis=0)
        return [int(c) for c in np.flatnonzero(marked)]

    def listed(*names: str) -> str:
        return " ".join(name(c) for c in cells(*names)) or "-"

    possible = " ".join(name(c) + ":" + "".join(s for plane, s in _POSSIBLE if flat[plane, c])
                        for c in cells("opponent/unknown")) or "-"
    last = [cells("last/from"), cells("last/to")]
    shares = " ".join(f"{s}{flat[plane, 0]:.4g}" for plane, s in _UNIDENTIFIED)
    pending = cells("rescue/pending")
    rows += [f"moved: {listed('own/moved', 'opponent/moved')}",
             f"disclosed: {listed('own/disclosed')}",
             f"possible: {possible}",
             "last: " + " ".join(name(c[0]) if c else "-" for c in last),
             f"unidentified: {shares}"]
    if pending:
        rows.append(f"Rescue owed: {name(pending[0])}")
    return "\n".join(rows) + status


_FULL = ["."] * 32  # by owner << 4 | rank
for _rank in Rank:
    _FULL[_rank] = _rank.symbol
    _FULL[16 | _rank] = _rank.symbol.lower()


def board_text(state: GameState) -> str:
    """The whole board, Red's pieces in capitals, Blue's in small letters, rank 10 first,
    then the ply and the player to move or the outcome."""
    cells = [_FULL[code & 31] if code else "." for code in state.board]  # 0: empty
    for index in LAKE_INDICES:
        cells[index] = "~"
    rows = ["".join(cells[row * 10:row * 10 + 10]) for row in range(9, -1, -1)]
    return "\n".join(rows) + f"\nply {state.ply}, {turn_text(state)}"


def turn_text(state: GameState) -> str:
    """The outcome of a finished game, or the player to move."""
    return str(state.outcome) if state.outcome else f"{state.to_move.name} to move"
