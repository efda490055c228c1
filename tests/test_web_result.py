"""The web game's game-over text (`stratego.web.payloads`): a game the rules ended says how
(`stratego.explain_outcome`), with the payload's keys and ``reason`` as before; the first
sentence is the seat's own ("You lose (your Flag was captured).", "You win (blue
resigned).", "A draw by agreement."); a game on has no result.

Review mode's past positions carry the marks of the strike their turn made (``flash``), as
the live board showed them to that seat then: after the game too, when the opponent's army
is shown face up, a strike's mark names no rank the strike did not show.
"""

from __future__ import annotations

import json

import pytest

import positions
import stratego
from positions import play
from stratego import CLASSIC, HASBRO_2009, MILTON_BRADLEY_1961, GameState, Player, Rules
from stratego.variants import SILENT_DEFENSE

pytest.importorskip("stratego.web", reason="the web extra is not installed")

from stratego.web.games import Ending, Game, Seat
from stratego.web.payloads import payload, review

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
                             "text": f"You lose (you have no legal move). {STUCK}",
                             "how": STUCK}
    assert blue["result"] == {"winner": "blue", "reason": "no legal moves", "you": "win",
                              "text": f"You win (red has no legal move). {STUCK}",
                              "how": STUCK}
    assert red["status"] == blue["status"] == "Game over."  # the how is the panel's, once


def test_flag_capture_and_ply_limit_say_how() -> None:
    """Classic web rules, To end the game (striking the Flag wins), and a ply limit."""
    state = play(positions.position(CLASSIC, {"a1": "X", "a7": "f", "j10": "k", "j1": "F"}),
                 "a1-a7")
    blue = payload(game_of(CLASSIC, state), Player.BLUE)
    assert blue["result"]["text"] == ("You lose (your Flag was captured). The red Scout (2) "
                                      "on a1 captured the blue Flag on a7.")
    rules = CLASSIC.with_ply_limit(2)
    drawn = play(positions.position(rules, {"a1": "K", "j10": "k"}), "a1-a2", "j10-j9")
    red = payload(game_of(rules, drawn), Player.RED)
    assert red["result"]["text"] == ("A draw by the ply limit. The game reached its limit of 2 "
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


# -- review mode: the strike of the turn shown ------------------------------------------------


def test_a_reviewed_turn_carries_its_own_strike_as_the_live_board_marked_it() -> None:
    """Classic web rules: Red's Major (7) takes Blue's Captain (6), Blue answers with a
    quiet move. The turn of the strike carries its marks, the live payload's ``flash`` of
    that moment and the side that struck, for either seat; the quiet turn after it and the
    starting position carry none (the live board then still showed the strike: its marks
    stay until the seat's next turn, while a reviewed turn shows what it did)."""
    start = positions.position(CLASSIC, {"a4": "J", "a5": "k", "j1": "F", "j10": "f",
                                          "e9": "t"})
    struck = play(start, "a4xa5")
    state = play(struck, "e9-e8")
    game = game_of(CLASSIC, state)
    marks = {"from": "a4", "to": "a5", "attacker": "7", "defender": "6", "result": "attacker"}
    assert payload(game_of(CLASSIC, struck), Player.RED)["flash"] == [marks]
    for player in Player:
        assert review(game, player, "1")["flash"] == [{**marks, "player": "red"}]
        assert review(game, player, "2")["flash"] == []
        assert review(game, player, "0")["flash"] == []
        assert review(game, player, "2")["last"] == ["e9", "e8"]
    assert payload(game, Player.RED)["flash"] == [marks]  # the live board: marked until red moves


def test_a_reviewed_strike_shows_no_rank_the_strike_kept_hidden() -> None:
    """Hasbro 2009 with Silent Defense (the defender does not name its rank): Red's Captain
    (5, as Hasbro numbers it) strikes Blue's Major (4) and loses. Red's review of that turn
    marks the defender ``?`` while the game goes on and still once it is over, when the
    review shows Blue's army face up (the Major on a5 among it): what the strike showed Red
    is all its mark says. Blue, whose Major it is, sees both ranks."""
    rules = HASBRO_2009.with_variants(SILENT_DEFENSE)
    start = positions.position(rules, {"a4": "K", "b1": "X", "a5": "j", "j1": "F",
                                       "j10": "f", "e9": "t"})
    state = play(start, "a4xa5", "e9-e8")
    hidden = {"from": "a4", "to": "a5", "attacker": "5", "defender": "?",
              "result": "defender", "player": "red"}
    on = game_of(rules, state)
    assert review(on, Player.RED, "1")["flash"] == [hidden]
    assert review(on, Player.BLUE, "1")["flash"] == [{**hidden, "defender": "4"}]
    over = game_of(rules, state, Ending("resignation", Player.BLUE))
    shown = review(over, Player.RED, "1")
    assert shown["revealed"] is True
    assert {"square": "a5", "owner": "blue", "rank": "J", "label": "4", "moved": False,
            "revealed": True} in shown["cells"]
    assert shown["flash"] == [hidden]


# -- what the opponent knows of a seat's own pieces ----------------------------------------


def test_a_seat_s_own_pieces_the_opponent_identified_are_marked_known() -> None:
    """Red's Major (7) takes Blue's Captain (6): Blue has seen the Major, so Red's cell of it
    carries ``"known": true``; Red's other pieces ``"known": false``, and no cell of the
    opponent's has the key (it tells a seat of its own pieces only). Blue's payload marks
    nothing of its own known (its Captain is gone; its Sergeant was never seen). Review
    mode's past positions say it as the live board did then."""
    start = positions.position(CLASSIC, {"a4": "J", "b1": "X", "a5": "k", "j1": "F",
                                          "j10": "f", "e9": "t"})
    state = play(start, "a4xa5", "e9-e8")
    game = game_of(CLASSIC, state)
    red = payload(game, Player.RED)["cells"]
    assert {c["square"]: c["known"] for c in red if c["owner"] == "red"} == {
        "a5": True, "b1": False, "j1": False}
    assert all("known" not in c for c in red if c["owner"] == "blue")
    blue = payload(game, Player.BLUE)["cells"]
    assert {c["square"]: c["known"] for c in blue if c["owner"] == "blue"} == {
        "e8": False, "j10": False}
    assert all("known" not in c for c in blue if c["owner"] == "red")
    assert {c["square"]: c["known"] for c in review(game, Player.RED, "0")["cells"]
            if c["owner"] == "red"} == {"a4": False, "b1": False, "j1": False}
    assert {c["square"]: c["known"] for c in review(game, Player.RED, "1")["cells"]
            if c["owner"] == "red"} == {"a5": True, "b1": False, "j1": False}


def test_known_depends_on_the_seat_s_view_only() -> None:
    """The differential check of the new field: two games whose Blue Sergeant and
    Lieutenant trade places (neither seen by Red) give Red byte-identical payloads and
    reviews, `known` included; and a Scout's long move marks it known to the opponent
    (what the move showed)."""
    answers = []
    for blue in ({"e9": "t", "f9": "l"}, {"e9": "l", "f9": "t"}):
        start = positions.position(CLASSIC, {"a4": "J", "b1": "X", "a5": "k", "j1": "F",
                                              "j10": "f", **blue})
        state = play(start, "a4xa5", "e9-e8", "b1-b4")
        game = game_of(CLASSIC, state)
        answers.append([json.dumps(payload(game, Player.RED)), *(
            json.dumps(review(game, Player.RED, str(n))) for n in range(4))])
    assert answers[0] == answers[1]
    cells = json.loads(answers[0][0])["cells"]
    assert {c["square"]: c["known"] for c in cells if c["owner"] == "red"} == {
        "a5": True, "b4": True, "j1": False}


def test_the_ranks_that_never_move_are_the_rules_own() -> None:
    """``immobile``: the ranks of the rules that never move (the page says "Bombs never
    move." when one is clicked); Moving Bombs takes the Bomb out."""
    state = positions.position(CLASSIC, {"a4": "J", "j1": "F", "j10": "f", "e9": "t"})
    assert payload(game_of(CLASSIC, state), Player.RED)["immobile"] == ["F", "B"]
    rules = CLASSIC.with_variants(stratego.variants.MOVING_BOMBS)
    state = positions.position(rules, {"a4": "J", "j1": "F", "j10": "f", "e9": "t"})
    assert payload(game_of(rules, state), Player.RED)["immobile"] == ["F"]


def test_the_army_s_counts_are_the_rules_own_and_the_same_for_both_seats() -> None:
    """``army``: each rank of the rules' army and its count, Marshal first, then the Bombs
    and the Flag (the page's "Pieces" legend): a public fact of the rules, the same in
    both seats' payloads, in the setup and in play."""
    state = positions.position(CLASSIC, {"a4": "J", "j1": "F", "j10": "f", "e9": "t"})
    game = game_of(CLASSIC, state)
    army = payload(game, Player.RED)["army"]
    assert army == payload(game, Player.BLUE)["army"]
    assert [(e["rank"], e["count"]) for e in army] == [
        ("M", 1), ("G", 1), ("C", 2), ("J", 3), ("K", 4), ("L", 4), ("T", 4), ("N", 5),
        ("X", 8), ("S", 1), ("B", 6), ("F", 1)]
    assert sum(e["count"] for e in army) == CLASSIC.army.size == 40
    barrage = CLASSIC.with_variants(stratego.variants.BARRAGE)
    set_up = game_of(barrage, positions.position(barrage, {"a4": "M", "j1": "F", "j10": "f"}))
    set_up.state, set_up.moves = None, []  # (before play: no position yet)
    assert payload(set_up, Player.BLUE)["phase"] == "waiting"  # (both pressed Start)
    assert [(e["rank"], e["count"]) for e in payload(set_up, Player.BLUE)["army"]] == [
        ("M", 1), ("G", 1), ("N", 1), ("X", 2), ("S", 1), ("B", 1), ("F", 1)]
