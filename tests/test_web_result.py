"""The web game's game-over text (`stratego.web.payloads`): a game the rules ended says how
(`stratego.explain_outcome`), with the payload's keys and ``reason`` as before; an end the
players made (resignation, time, an agreed draw) is told as before; a game on has no result.
"""

from __future__ import annotations

import pytest

import positions
import stratego
from positions import play
from stratego import CLASSIC, MILTON_BRADLEY_1961, GameState, Player, Rules

pytest.importorskip("stratego.web", reason="the web extra is not installed")

from stratego.web.games import Ending, Game, Seat
from stratego.web.payloads import payload

pytestmark = pytest.mark.extra("web")

POCKET = {"a1": "K", "b1": "B", "b2": "B", "a3": "B", "j10": "k", "j1": "F"}
"""Red's Captain walled into a1-a2 by its own Bombs (as in tests/test_explain_outcome.py)."""

STUCK = ("Red cannot move: its only move would break a repetition rule: a1-a2 "
         "(Milton Bradley 1961, Movement 10, back-and-forth rule).")


def game_of(rules: Rules, state: GameState, ending: Ending | None = None) -> Game:
    """A game between two people, played from `state`'s start to `state`."""
    seats = {player: Seat(f"token-{player}", stratego.random_setup(rules, player, 1),
                          ready=True) for player in Player}
    return Game(id="g1", rules=rules, opponent="human", seats=seats, join_code=None,
                bot=None, bot_spec=None, start=stratego.engine.initial_state(state.info),
                state=state, moves=[str(m) for m in state.moves()], ending=ending)


def test_no_legal_move_says_which_rule_took_the_last_move() -> None:
    """Milton Bradley 1961, Movement 10 (not back and forth between the same two squares in
    three consecutive turns) with To end the game, note (a player who cannot move gives
    up): both seats read why Red could not move; the payload's keys and ``reason`` stay."""
    state = play(positions.position(MILTON_BRADLEY_1961, POCKET),
                 "a1-a2", "j10-j9", "a2-a1", "j9-j10")
    game = game_of(MILTON_BRADLEY_1961, state)
    red, blue = payload(game, Player.RED), payload(game, Player.BLUE)
    assert red["result"] == {"winner": "blue", "reason": "no legal moves", "you": "loss",
                             "text": f"blue wins (no legal moves). {STUCK}", "how": STUCK}
    assert blue["result"] == {"winner": "blue", "reason": "no legal moves", "you": "win",
                              "text": f"You win (no legal moves). {STUCK}", "how": STUCK}
    assert red["status"] == blue["status"] == "Game over."  # the how is the panel's, once


def test_flag_capture_and_ply_limit_say_how() -> None:
    """Classic web rules, To end the game (striking the Flag wins), and a ply limit."""
    state = play(positions.position(CLASSIC, {"a1": "X", "a7": "f", "j10": "k", "j1": "F"}),
                 "a1-a7")
    blue = payload(game_of(CLASSIC, state), Player.BLUE)
    assert blue["result"]["text"] == ("red wins (flag captured). The red Scout (2) on a1 "
                                      "captured the blue Flag on a7.")
    rules = CLASSIC.with_ply_limit(2)
    drawn = play(positions.position(rules, {"a1": "K", "j10": "k"}), "a1-a2", "j10-j9")
    red = payload(game_of(rules, drawn), Player.RED)
    assert red["result"]["text"] == ("A draw (ply limit). The game reached its limit of 2 "
                                     "plies, so it is drawn.")
    assert red["result"]["how"] == "The game reached its limit of 2 plies, so it is drawn."
    assert red["status"] == "Game over."


def test_ends_the_players_made_are_told_as_before_and_a_game_on_has_none() -> None:
    """A resignation is no end of the rules: no explanation follows it. While the game goes
    on there is no result at all, so nothing of `explain_outcome` is sent."""
    state = positions.position(CLASSIC, {"a1": "X", "a7": "f", "j10": "k", "j1": "F"})
    resigned = game_of(CLASSIC, state, Ending("resignation", Player.RED))
    assert payload(resigned, Player.RED)["result"]["text"] == "You win (blue resigned)."
    assert payload(resigned, Player.RED)["result"]["how"] is None
    on = payload(game_of(CLASSIC, state), Player.RED)
    assert on["result"] is None
    assert on["status"] == "Your move (red)."
