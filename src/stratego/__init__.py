"""stratego: the rules of Stratego, edition by edition.

An immutable game state and pure functions over it::

    import stratego
    from stratego.editions import CLASSIC

    rules = CLASSIC
    state = stratego.new_game(rules, stratego.random_setup(rules, stratego.Player.RED, 1),
                              stratego.random_setup(rules, stratego.Player.BLUE, 2))
    move = stratego.legal_moves(state)[0]
    after = stratego.apply(state, move)      # `state` is untouched
"""

from stratego.board import LAKES, SQUARES, Square
from stratego.editions import CLASSIC, HASBRO_2009, JUMBO_2014, MILTON_BRADLEY_1961
from stratego.engine import apply, explain_illegal, from_position, is_legal, legal_moves, new_game
from stratego.errors import (
    IllegalMoveError,
    InvalidNotationError,
    PositionError,
    RulesError,
    SetupError,
    StrategoError,
)
from stratego.moves import Move
from stratego.pieces import Piece, Player, Rank
from stratego.rules import Rules, Variant
from stratego.setups import Setup, random_setup, setup_problems
from stratego.state import GameState, Outcome, PlyRecord, Termination
from stratego.strike import Side, StrikeResult, resolve_strike

__version__ = "0.1.0"

__all__ = [
    "CLASSIC",
    "HASBRO_2009",
    "JUMBO_2014",
    "LAKES",
    "MILTON_BRADLEY_1961",
    "SQUARES",
    "GameState",
    "IllegalMoveError",
    "InvalidNotationError",
    "Move",
    "Outcome",
    "Piece",
    "Player",
    "PlyRecord",
    "PositionError",
    "Rank",
    "Rules",
    "RulesError",
    "Setup",
    "SetupError",
    "Side",
    "Square",
    "StrategoError",
    "StrikeResult",
    "Termination",
    "Variant",
    "__version__",
    "apply",
    "explain_illegal",
    "from_position",
    "is_legal",
    "legal_moves",
    "new_game",
    "random_setup",
    "resolve_strike",
    "setup_problems",
]
