"""Play bots against each other: single games and seeded matches.

Each game starts from two random setups drawn from the game's seed, and each
bot is asked for a move with nothing but its own view
(``stratego.views.view(state, player)``). A bot that returns something that is
not one of the view's legal moves *loses that game* (termination
``"illegal move"``, with the reason in `GameResult.detail`); an exception
raised inside a bot is not caught: it is a bug to be seen.

    from stratego.bots import HeuristicBot, RandomBot
    from stratego.editions import CLASSIC
    from stratego.match import play_match

    result = play_match(CLASSIC, HeuristicBot(1), RandomBot(2), games=4, seed=1, max_plies=500)
    print(result.summary())
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs

from stratego.bots import Bot, bot_name
from stratego.engine import apply, legal_moves, new_game
from stratego.errors import InvalidNotationError, RulesError
from stratego.explain import explain_illegal
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setups import Setup, random_setup, setup_problems
from stratego.state import GameState

__all__ = ["ILLEGAL_MOVE", "ILLEGAL_SETUP", "GameResult", "MatchResult", "play_game", "play_match"]

ILLEGAL_MOVE = "illegal move"
"""`GameResult.termination` when a bot returned a move that is not legal (it loses)."""

ILLEGAL_SETUP = "illegal setup"
"""`GameResult.termination` when a bot's own setup breaks the rules (it loses at ply 0)."""


@attrs.frozen
class GameResult:
    """One finished game between two bots.

    `termination` is the `stratego.Termination` value (``"flag captured"``,
    ``"no legal moves"``, ``"ply limit"``, ...) or `ILLEGAL_MOVE`; `winner`
    is None for a draw; `detail` explains an illegal move.
    """

    seed: int
    red: str
    blue: str
    winner: Player | None
    termination: str
    plies: int
    detail: str = ""
    state: GameState | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def winner_name(self) -> str | None:
        """The name of the winning bot, or None for a draw."""
        if self.winner is None:
            return None
        return self.red if self.winner is Player.RED else self.blue

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Player.RED else "0-1"

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"{self.winner} ({self.winner_name}) wins"
        extra = f": {self.detail}" if self.detail else ""
        return (f"seed {self.seed}: {self.red} (red) v {self.blue} (blue): {who} "
                f"({self.termination}{extra}) after {self.plies} plies")


@attrs.frozen
class MatchResult:
    """The games of a match and their totals.

    `names` are the two bots' names (the first is the bot passed as
    `red_bot`, which plays Red in the even-numbered games); `wins` counts
    games won by each name.
    """

    rules: Rules
    names: tuple[str, str]
    games: tuple[GameResult, ...]

    @property
    def wins(self) -> dict[str, int]:
        """Games won, by bot name."""
        counts = dict.fromkeys(self.names, 0)
        for game in self.games:
            name = game.winner_name
            if name is not None:
                counts[name] += 1
        return counts

    @property
    def draws(self) -> int:
        """Games without a winner."""
        return sum(1 for game in self.games if game.winner is None)

    def score(self, name: str) -> float:
        """Points of bot `name`: 1 a win, 1/2 a draw."""
        return self.wins.get(name, 0) + self.draws / 2

    def summary(self) -> str:
        """A short text with the totals, one line each."""
        n = len(self.games)
        lines = [f"{n} game(s) under {self.rules.name}"]
        for name in self.names:
            won = self.wins[name]
            lines.append(f"{name}: {won} win(s) ({100 * won / n if n else 0:.0f}%)")
        lines.append(f"draws: {self.draws}")
        reasons: dict[str, int] = {}
        for game in self.games:
            reasons[game.termination] = reasons.get(game.termination, 0) + 1
        lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
        return "\n".join(lines)


def _view(state: GameState, player: Player) -> Any:
    from stratego.views import view

    return view(state, player)


def _bot_setup(bot: Any, rules: Rules, player: Player, seed: int) -> Any:
    """The bot's own setup, when it has a ``setup(rules, player, rng)`` method (else None).

    Its generator depends only on the game's seed and the player, so a bot that sets up
    changes nothing else of the game."""
    setup = getattr(bot, "setup", None)
    if not callable(setup):
        return None
    return setup(rules, player, random.Random(f"{seed}/setup/{player.name}"))


def _reset(bot: Any, seed: int) -> None:
    reset = getattr(bot, "reset", None)
    if callable(reset):
        reset(seed)


def play_game(
    rules: Rules,
    red_bot: Bot,
    blue_bot: Bot,
    *,
    seed: int = 0,
    max_plies: int | None = None,
    keep_state: bool = False,
) -> GameResult:
    """Play one game from random setups drawn from `seed`.

    `max_plies` adds a ply limit (a draw) when the rules have none or a longer
    one. Bots with a ``reset(seed)`` method are reset first with seeds drawn
    from `seed`, so the game depends only on `seed`. A bot with a
    ``setup(rules, player, rng)`` method places its own army (a `stratego.Setup`;
    one the rules reject loses the game as `ILLEGAL_SETUP`); the others get a
    random setup. With `keep_state` the
    final `GameState` is kept in `GameResult.state`.
    """
    if max_plies is not None:
        if rules.ply_limit is None or rules.ply_limit > max_plies:
            rules = rules.with_ply_limit(max_plies)
    elif rules.ply_limit is None:
        raise RulesError("a bot game needs a ply limit: pass max_plies or use rules with one")
    rng = random.Random(seed)
    setups = [random_setup(rules, Player.RED, rng), random_setup(rules, Player.BLUE, rng)]
    bots = (red_bot, blue_bot)
    names = (bot_name(red_bot), bot_name(blue_bot))
    _reset(red_bot, rng.randrange(2**32))
    _reset(blue_bot, rng.randrange(2**32))
    winner: Player | None = None
    termination = ""
    detail = ""
    for player in Player:
        chosen = _bot_setup(bots[player], rules, player, seed)
        if chosen is None:
            continue
        if not isinstance(chosen, Setup):
            problems = [f"{chosen!r} is not a Setup"]
        elif chosen.player is not player:
            problems = [f"it was made for {chosen.player}"]
        else:
            problems = setup_problems(rules, chosen)
        if problems:
            detail = f"{player} ({names[player]}) set up illegally: " + "; ".join(problems)
            return GameResult(seed, names[0], names[1], player.opponent, ILLEGAL_SETUP, 0,
                              detail, None)
        setups[player] = chosen
    state = new_game(rules, setups[Player.RED], setups[Player.BLUE])
    while state.outcome is None:
        player = state.to_move
        answer: Any = bots[player](_view(state, player))
        move: Move | None = answer if isinstance(answer, Move) else None
        if isinstance(answer, str):
            try:
                move = Move.parse(answer)
            except InvalidNotationError as exc:
                detail = f"{player} ({names[player]}) answered {answer!r}: {exc}"
        elif move is None:
            detail = f"{player} ({names[player]}) answered {answer!r}, which is not a Move"
        if move is not None and move not in legal_moves(state):
            detail = f"{player} ({names[player]}): " + (
                explain_illegal(state, move) or f"{move} is not legal here"
            )
            move = None
        if move is None:
            winner, termination = player.opponent, ILLEGAL_MOVE
            break
        state = apply(state, move)
    if state.outcome is not None:
        winner, termination = state.outcome.winner, state.outcome.termination.value
    return GameResult(seed, names[0], names[1], winner, termination, state.ply, detail,
                      state if keep_state else None)


Progress = Callable[[int, int, GameResult], None]
"""``progress(games done, games in all, last result)``, called after each game."""


def play_match(
    rules: Rules,
    red_bot: Bot,
    blue_bot: Bot,
    *,
    games: int = 10,
    seed: int = 0,
    max_plies: int | None = 3000,
    swap_colours: bool = True,
    progress: Progress | None = None,
) -> MatchResult:
    """Play `games` games between two bots and count the results.

    Game ``i`` uses a seed drawn from `seed` (the same `seed` replays the same
    match). With `swap_colours`, the bots change colours every other game:
    `red_bot` plays Red in games 0, 2, 4, ... and Blue in the others. Bots
    with the same name are told apart as ``"name-1"`` and ``"name-2"``.
    `max_plies` is the ply limit of each game (a draw). `progress` is called
    after each game.
    """
    if not isinstance(games, int) or games < 0:
        raise RulesError(f"the number of games must be a whole number >= 0, not {games!r}")
    first, second = bot_name(red_bot), bot_name(blue_bot)
    if first == second:
        first, second = f"{first}-1", f"{second}-2"
    rng = random.Random(seed)
    results = []
    for i in range(games):
        game_seed = rng.randrange(2**32)
        swapped = swap_colours and i % 2 == 1
        red, blue = (blue_bot, red_bot) if swapped else (red_bot, blue_bot)
        game = play_game(rules, red, blue, seed=game_seed, max_plies=max_plies)
        game = attrs.evolve(game, red=second if swapped else first,
                            blue=first if swapped else second)
        results.append(game)
        if progress is not None:
            progress(i + 1, games, game)
    return MatchResult(rules, (first, second), tuple(results))
