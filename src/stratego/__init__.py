"""stratego: the rules of Stratego, edition by edition.

An immutable game state and pure functions over it:

```python
import stratego
from stratego.editions import CLASSIC

rules = CLASSIC
state = stratego.new_game(rules, stratego.random_setup(rules, stratego.Player.RED, 1),
                          stratego.random_setup(rules, stratego.Player.BLUE, 2))
move = stratego.legal_moves(state)[0]
after = stratego.apply(state, move)      # `state` is untouched
```

Where things live, bottom layer first (imports flow downward only; docs/design.md draws it):

* vocabulary: `errors` (every exception class), `optional`, `pieces`, `board`, `moves`;
* rules: `rules`, `strike`, `repetition`, `rescue`, `editions`, `variants`;
* engine: `state`, `setups`, `human_setups`, `engine`, `explain`, `validation` (with the
  internal `_movegen` and `_checks`);
* information: `views`, `view_json`, `sampling`, `encoding`;
* interchange: `notation`, `saved_state`, `records`, `gravon`;
* faces: `text`, `svg`, `bots`, `match`, `cli`;
* bridges (optional extras): `env`, `openspiel`, `vector`, `web`, `ray`.

This package imports the core eagerly (and `saved_state`, the codec behind
`GameState.to_json`), the rest lazily, on first use of a name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The books' variants are registered by name (`stratego.rules.register_variant`) however the
# package is entered, so that pickles of them load and the rules name them in errors.
import stratego.variants  # noqa: F401
from stratego._version import __version__
from stratego.board import LAKES, SQUARES, Square
from stratego.editions import CLASSIC, HASBRO_2009, ISF, JUMBO_2014, MILTON_BRADLEY_1961
from stratego.engine import apply, from_position, is_legal, legal_moves, new_game
from stratego.errors import (
    ArgumentError,
    GameNotOverError,
    IllegalMoveError,
    InvalidNotationError,
    MissingDependencyError,
    PositionError,
    RulesError,
    SchemaError,
    SetupError,
    StrategoError,
)
from stratego.explain import explain_illegal, explain_outcome
from stratego.moves import Move
from stratego.pieces import Piece, Player, Rank
from stratego.rules import Rules, Variant
from stratego.sampling import Sampler, SamplingError, sample_state
from stratego.saved_state import state_from_json, state_to_json  # installs GameState.to_json
from stratego.setups import Setup, random_setup, setup_problems
from stratego.state import GameState, Outcome, PlacedPiece, PlyRecord, Termination
from stratego.strike import Side, StrikeResult, resolve_strike
from stratego.views import PlayerView, SeenHistory, SeenPiece, SeenPly, view

if TYPE_CHECKING:  # the faces and interchange are imported on first use
    from stratego.bots import Bot, HeuristicBot, RandomBot
    from stratego.human_setups import human_setup
    from stratego.match import GameResult, MatchResult, play_game, play_match
    from stratego.notation import format_position, parse_position
    from stratego.records import (
        GameRecord,
        parse_record,
        record_from_json,
        record_from_state,
    )
    from stratego.svg import SvgBoard, board_svg
    from stratego.text import board_text


_LAZY = {
    "Bot": "stratego.bots",
    "HeuristicBot": "stratego.bots",
    "RandomBot": "stratego.bots",
    "human_setup": "stratego.human_setups",
    "GameResult": "stratego.match",
    "MatchResult": "stratego.match",
    "play_game": "stratego.match",
    "play_match": "stratego.match",
    "format_position": "stratego.notation",
    "parse_position": "stratego.notation",
    "GameRecord": "stratego.records",
    "parse_record": "stratego.records",
    "record_from_json": "stratego.records",
    "record_from_state": "stratego.records",
    "SvgBoard": "stratego.svg",
    "board_svg": "stratego.svg",
    "board_text": "stratego.text",
}


def __dir__() -> list[str]:
    """The public API only (`__all__`)."""
    return sorted(__all__)


def __getattr__(name: str) -> Any:
    """Import the interchange and picture layers only when first used."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'stratego' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "CLASSIC",
    "HASBRO_2009",
    "ISF",
    "JUMBO_2014",
    "LAKES",
    "MILTON_BRADLEY_1961",
    "SQUARES",
    "ArgumentError",
    "Bot",
    "GameNotOverError",
    "GameRecord",
    "GameResult",
    "GameState",
    "HeuristicBot",
    "IllegalMoveError",
    "InvalidNotationError",
    "MatchResult",
    "MissingDependencyError",
    "Move",
    "Outcome",
    "Piece",
    "PlacedPiece",
    "Player",
    "PlayerView",
    "PlyRecord",
    "PositionError",
    "RandomBot",
    "Rank",
    "Rules",
    "RulesError",
    "Sampler",
    "SamplingError",
    "SchemaError",
    "SeenHistory",
    "SeenPiece",
    "SeenPly",
    "Setup",
    "SetupError",
    "Side",
    "Square",
    "StrategoError",
    "StrikeResult",
    "SvgBoard",
    "Termination",
    "Variant",
    "__version__",
    "apply",
    "board_svg",
    "board_text",
    "explain_illegal",
    "explain_outcome",
    "format_position",
    "from_position",
    "human_setup",
    "is_legal",
    "legal_moves",
    "new_game",
    "parse_position",
    "parse_record",
    "play_game",
    "play_match",
    "random_setup",
    "record_from_json",
    "record_from_state",
    "resolve_strike",
    "sample_state",
    "setup_problems",
    "state_from_json",
    "state_to_json",
    "view",
]
