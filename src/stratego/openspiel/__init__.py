"""Stratego as an OpenSpiel game (extra ``stratego[openspiel]``).

``import stratego.openspiel`` registers the Python game ``"python_stratego"``:

```python
import pyspiel
import stratego.openspiel

game = pyspiel.load_game("python_stratego", {"rules": "classic", "max_plies": 2000})
```

Parameters: ``rules`` (any name `stratego.editions.by_name` reads, held as `Rules.name`
writes it, so equal rules give one game string), ``max_plies`` (the game ends in a draw at
this ply count; OpenSpiel needs a finite game) and ``num_setups`` (see below). The game is
sequential, imperfect-information, zero-sum, with terminal rewards +1 / -1 / 0. A parameter
out of range is an `ArgumentError` naming it; OpenSpiel itself holds integer parameters in
32 bits and refuses a larger one (pybind's ``RuntimeError``) before the game sees it.

**Setups are chance.** The first two actions are chance outcomes: Red's setup, then Blue's,
each one of ``num_setups`` seeded random setups, equally likely (outcome ``i`` is
``random_setup(rules, player, seed)`` with a seed derived from ``i`` and the player). Setups
as chance keep the opponent's setup out of the game's definition (a parameter would make it
common knowledge), and a finite list keeps OpenSpiel's chance API (explicit outcomes with
probabilities) usable. The list is part of the game, so both players know it. Both lists
are numbered from 0, so `action_to_string` names a setup's colour only at the chance node
that draws it ("Red setup 7", "Blue setup 7"), and says "setup 7" elsewhere.

**Actions** are the indices of `stratego.encoding` from the acting player's seat, so both
players share one index space (`num_distinct_actions` is `NUM_ACTIONS`). Under Rescue the
same player acts twice in a row (its move, then its Rescue decision); `max_game_length`
counts those decisions and the two chance actions.

**What a player sees** is its view (`stratego.view`), and the strings follow the views
exactly: two states give a player the same information-state string if and only if they
give it the same view. The string holds the player's own setup, the squares the opponent's
pieces started on (seen under Barrage, Duel and Ultimate Lightning, where they vary), the
history as the view shows it (strikes with the ranks they showed), extended incrementally
from ply to ply, and the ply, the player to move or the outcome, and a Rescue owed. The
observation tensor is the player's `stratego.encoding.observation_planes` and the
observation string the same planes as text, so two states give equal observation strings
exactly when they give equal tensors (while the setups are drawn: all zeros, and the text
``setups being drawn``). The observer serves what one player observes
(``public_info=True`` with ``private_info=SINGLE_PLAYER``, with or without perfect recall)
and refuses other observation types; there is no information-state tensor.

**Resampling.** `StrategoState.resample_from_infostate` returns a state of the game in the
player's information set: a listed setup of the opponent's that fits the player's view,
drawn uniformly among those that fit, with the game's actions replayed on it (so the state
has the same history, as OpenSpiel holds it: the player's own chance outcome, every action
the player saw, and a history that replays to the state). Since the list is common
knowledge, the fitting setups may be few: under Barrage the placement alone usually tells
the one. `stratego.sample_state` draws over every assignment of ranks consistent with a
view instead, for a player who does not know the list.

**Cloning is cheap.** The `GameState` inside is immutable, so a clone shares it.

**Serializing pickles.** ``serialize`` (and ``pickle``) is OpenSpiel's default for Python
games: the state pickled, without its caches (rebuilt on demand), and unpickled into a state
of the game that deserializes it. Never deserialize a string from an untrusted source.

The package's modules (import every public name from `stratego.openspiel` itself):

* `stratego.openspiel.game`: the game, its states and its observer (`StrategoGame`,
  `StrategoState`, `StrategoObserver`).
* `stratego.openspiel.parameters`: the game's name, parameters and their limits, and the
  game type OpenSpiel is told.
* `stratego.openspiel.texts`: the information-state and observation strings.
* `stratego.openspiel.resample`: the listed setups and the states of an information set
  that `StrategoState.resample_from_infostate` draws from.
"""

from __future__ import annotations

from stratego.optional import require

pyspiel = require("pyspiel", "openspiel", "stratego.openspiel")

from stratego.openspiel.game import StrategoGame, StrategoObserver, StrategoState  # noqa: E402
from stratego.openspiel.parameters import (  # noqa: E402
    GAME_NAME,
    GAME_TYPE,
    MAX_PLIES,
    MAX_SETUPS,
)

__all__ = ["GAME_NAME", "MAX_PLIES", "MAX_SETUPS", "StrategoGame", "StrategoObserver",
           "StrategoState"]

if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, StrategoGame)
