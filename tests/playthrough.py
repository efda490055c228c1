"""Golden playthroughs, in the style of OpenSpiel's: a seeded game written ply by ply.

For each ply the file records the player to move, every legal move, the move chosen, and what
each player sees (the board drawn from that player's view, and every opponent piece about which
the player knows more than the army tells). A change in move generation, in the rules or in
what a view discloses shows up as a diff of these files.

Regenerate after an intended change with::

    STRATEGO_REGENERATE_PLAYTHROUGHS=1 python -m pytest tests/test_playthroughs.py
"""

from __future__ import annotations

import random

import stratego
from stratego import Player
from stratego.editions import by_name
from stratego.text import board_text
from stratego.views import PlayerView, view

GAMES = [
    ("milton-bradley-1961", 1),
    ("hasbro-2009", 2),
    ("jumbo-2014", 3),
    ("classic", 4),
    ("classic+barrage+aggressor-advantage", 5),
    ("hasbro-2009+rescue+silent-defense", 6),
    ("jumbo-2014+ultimate-lightning+rescue", 7),
    ("jumbo-2014+moving-bombs+moving-flag", 8),
    ("isf", 9),
    ("isf+barrage+rescue", 10),
]
"""(rules name, seed) of each golden game."""

PLIES = 40


def file_name(rules_name: str, seed: int) -> str:
    """The golden file of one game."""
    return f"{rules_name.replace('+', '_')}-seed{seed}.txt"


def _knowledge(v: PlayerView) -> str:
    army = {rank for rank in stratego.Rank if v.rules.army.count(rank)}
    facts = []
    for piece in v.pieces + v.captured:
        if piece.owner is v.player or set(piece.possible) == army:
            continue
        where = str(piece.square) if piece.square is not None else "captured"
        symbols = "".join(sorted(rank.symbol for rank in piece.possible))
        facts.append(f"{piece.id}@{where}{'*' if piece.moved else ''}:{symbols}")
    return " ".join(facts) or "-"


def playthrough_text(rules_name: str, seed: int, plies: int = PLIES) -> str:
    """The golden text of a seeded random game of at most `plies` plies."""
    rules = by_name(rules_name)
    rng = random.Random(seed)
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, rng),
                              stratego.random_setup(rules, Player.BLUE, rng))
    lines = [f"rules {rules.name}", f"seed {seed}"]
    for _ in range(plies):
        moves = stratego.legal_moves(state)
        if not moves:
            break
        move = rng.choice(moves)
        lines.append("")
        lines.append(f"ply {state.ply} {state.to_move} to move, {len(moves)} legal moves")
        lines.append("legal " + " ".join(str(m) for m in moves))
        for player in Player:
            v = view(state, player)
            lines.append(f"view {player}: knows {_knowledge(v)}")
            lines.extend("  " + row for row in board_text(v, perspective=Player.RED).splitlines())
        lines.append(f"play {move}")
        state = stratego.apply(state, move)
    lines.append("")
    lines.append(f"outcome {state.outcome}" if state.outcome else f"ply {state.ply}, game on")
    return "\n".join(lines) + "\n"
