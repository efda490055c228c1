"""Explaining the rules' answers in words: `explain_illegal` says why a move is not
allowed, `explain_outcome` why a finished game ended.

`explain_illegal` names the square, the piece (only the mover's own: never an opponent's
hidden rank) and the rule at fault; `stratego.apply` uses it for the message of
`IllegalMoveError`. It takes a player's view too (`stratego.views.PlayerView`), for a front
end that holds no more than its player's view: the view class and a way to build one state
consistent with a view sit above this module, and `stratego.sampling` installs them when
imported (`install_view_states`; ``import stratego`` imports it). `explain_outcome` answers
only once the game is over, when both armies may be shown: which piece took the Flag, or
why the player to move had no legal move (no movable piece, every piece boxed in, or the
repetition rules, each named as `explain_illegal` names it).

The rule families explain themselves, each through its component: Rescue
(`stratego.rescue`), the rules of movement (`stratego.movement`) and the repetition rules
(`stratego.repetition`); this module asks them in that order, after whose turn it is and
whose piece it is, and names the piece for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

import attrs

from stratego._checks import as_state
from stratego._movegen import generate, rescue_facts
from stratego.board import SQUARES
from stratego.errors import ArgumentError, InvalidNotationError, shown
from stratego.movement import movement_component
from stratego.moves import Move
from stratego.pieces import Piece, Player, Rank
from stratego.repetition import NO_SHUTTLE
from stratego.rescue import rescue_component
from stratego.rules import Rules
from stratego.state import GameState, Outcome, Termination

__all__ = ["SeenGame", "explain_illegal", "explain_outcome", "install_view_states"]


class SeenGame(Protocol):
    """What `explain_illegal` reads of a player's view (`stratego.views.PlayerView`) before
    it needs a full state."""

    @property
    def player(self) -> Player:
        """The player whose view it is."""

    @property
    def to_move(self) -> Player:
        """The player to move (during a Rescue decision, the rescuer)."""

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The player's legal moves (empty unless it is the player's turn)."""

    @property
    def rules(self) -> Rules:
        """The rules of the game."""


_VIEW_STATES: list[tuple[type, Callable[[Any], GameState]]] = []
"""The view class and the function giving one state consistent with a view of it, as
`install_view_states` installed them (empty until `stratego.sampling` is imported)."""


def install_view_states(kind: type, consistent_state: Callable[[Any], GameState]) -> None:
    """Let `explain_illegal` take a view: `kind` is the class of players' views,
    `consistent_state` gives, for a view of that class whose player is to move, one
    `GameState` with that view (always the same one for a view, its history replayed so
    that the repetition rules see the same past). `stratego.sampling` installs
    `stratego.views.PlayerView` and a seeded `sample_state` when it is imported
    (``import stratego`` imports it): both sit above this module, so the engine layer never
    imports them. Raises `ArgumentError` when `kind` is no class or `consistent_state` is
    not callable (what is in place is kept)."""
    if not isinstance(kind, type):
        raise ArgumentError(f"install_view_states: kind must be a class, not {shown(kind)}")
    if not callable(consistent_state):
        raise ArgumentError(f"install_view_states: consistent_state must be a function, "
                            f"not {shown(consistent_state)}")
    _VIEW_STATES[:] = [(kind, consistent_state)]


def explain_illegal(state: GameState | SeenGame, move: Move | str) -> str | None:
    """Why `move` is illegal in `state`, naming the square, piece and rule; None if legal.

    `state` is a `GameState` or a player's view (`stratego.views.PlayerView`). For the
    view of the player to move (a Rescue decision included) the text is the one every
    state with that view gives, as `docs/hidden-information.md` promises: it names no
    hidden rank. For the view of the other player, a move is out of turn (``"a4-a5: it is
    blue's turn, not red's"``); once the game is over, it says so, as for a state.

    Text that is not a move gets the parser's explanation; a value that is neither text
    nor a `Move` raises `InvalidNotationError`, a `state` that is neither a state nor a
    view `ArgumentError`. A view no game gives (read from JSON) may raise `SamplingError`.
    """
    seen = _as_view(state)
    if seen is None and not isinstance(state, GameState):
        raise ArgumentError(f"not a game state or a player's view: {shown(state)} (build a "
                            f"state with new_game or from_position, a view with "
                            f"stratego.view)")
    rules = seen.rules if seen is not None else as_state(state).rules
    if isinstance(move, str):
        try:
            move = Move.parse(move, rescue=rules.rescue.enabled)
        except InvalidNotationError as exc:
            return str(exc)
    if not isinstance(move, Move):
        raise InvalidNotationError(f"not a move: {shown(move)} (expected a Move or text "
                                   f"'a4-a5')")
    if seen is not None:
        if seen.outcome is not None:
            return f"{move}: the game is over: {seen.outcome}"
        if seen.to_move != seen.player:
            return f"{move}: it is {seen.to_move}'s turn, not {seen.player}'s"
        if move in seen.legal_moves:
            return None
        state = _VIEW_STATES[0][1](seen)  # any state of the view gives the same text
    assert isinstance(state, GameState)
    return _explain_state(state, move)


def _as_view(value: object) -> SeenGame | None:
    """`value` when it is a player's view (of the class `install_view_states` installed),
    else None."""
    for kind, _ in _VIEW_STATES:
        if isinstance(value, kind):
            return cast(SeenGame, value)
    return None


def _explain_state(state: GameState, move: Move) -> str | None:
    """`explain_illegal` for a state and a `Move`."""
    if state.outcome is not None:
        return f"{move}: the game is over: {state.outcome}"
    if move in state.legal_moves:
        return None
    who = state.to_move
    rescue = rescue_component(state.rules)
    if rescue is None:
        if move.is_decision:
            return f"{move}: these rules have no Rescue, so there is no rescue to make or decline"
        reason = None
    else:  # a decision due, or a decision out of turn
        reason = rescue.explain(rescue_facts(state), move)
    if reason is not None or state.pending:
        return reason or f"{move}: not legal here"
    assert move.frm is not None
    assert move.to is not None
    frm, to = move.frm.index, move.to.index
    piece = state.piece_at(move.frm)
    if piece is None:
        return f"{move}: there is no piece on {move.frm}"
    name = _piece_name(state, piece, move.frm.name)
    if piece.owner != who:
        # Name no rank: the mover may not know what the opponent's piece is.
        return f"{move}: the piece on {move.frm} is {piece.owner}'s, not {who}'s"
    reason = movement_component(state.rules).explain(state.board, move, name)
    if reason is not None:
        return reason
    broken = _repetition(state, frm, to, name)
    if broken is not None:
        return broken[1]
    return f"{move}: not legal for the {name}"


def _piece_name(state: GameState, piece: Piece, square: str) -> str:
    """The piece as explanations name it: ``"red Captain (6) on e3"``."""
    return f"{piece.owner} {piece.rank.title} ({state.rules.labels.label(piece.rank)}) on {square}"


def _repetition(state: GameState, frm: int, to: int, name: str) -> tuple[str, str] | None:
    """The repetition rule the move frm -> to of the player to move breaks, as its name and
    its explanation (`name` describes the moving piece); None if it breaks none. The rules
    explain themselves (`stratego.repetition`), the back-and-forth rule first."""
    for rule in state.rules.repetition.components():
        reason = rule.explain(state.board, state.turn, state.ply, state.shuttles, state.chase,
                              state.zhash, state.last_to, frm, to, name,
                              state.rules.title) if rule is not None else None
        if reason:
            assert rule is not None
            return rule.name, reason
    return None


_SHOWN_MOVES = 4
"""How many moves `explain_outcome` lists for one repetition rule before "and N more"."""


def explain_outcome(state: GameState) -> str:
    """Why the finished game `state` ended, in a sentence: which piece captured the Flag
    (``"The red Scout (2) on a4 captured the blue Flag on a7."``), which Flag reached the
    back row (Moving Flag), why the player to move has no legal move, or the ply limit.

    A player without a legal move is told which of three it is: no movable piece left, its
    movable pieces all boxed in, or every move it has forbidden by the repetition rules,
    each rule named as `explain_illegal` names it, with the moves it forbids (``"Blue
    cannot move: its only move would break a repetition rule: a2-a1 (Jumbo 2014, Moving
    bullet 8, back-and-forth rule)."``). When the other side could not move either (one
    strike took the last movable piece of both), a second sentence says so, and that the
    player to move loses all the same. The winner is not repeated: ``str(state.outcome)``
    says it.

    Pieces are named by rank, the opponent's too: after the game both armies may be shown.
    While the game goes on nothing is said, so nothing hidden can leak: raises
    `GameNotOverError` (and `ArgumentError` for a value that is no `GameState`). A player's
    view is refused with a message that says why: it does not hold the other army, which
    the explanation may name (a client that holds only views asks whoever holds the game,
    as the web game's ``result.how`` does)."""
    if _as_view(state) is not None:
        raise ArgumentError("explain_outcome needs the finished game's state, not a player's "
                            "view: a view does not hold the other army, which the "
                            "explanation may name")
    outcome = as_state(state).final_outcome()
    termination = outcome.termination
    if termination is Termination.PLY_LIMIT:
        limit = state.rules.ply_limit
        plies = (f"its limit of {limit} {'ply' if limit == 1 else 'plies'}"
                 if limit is not None else "its ply limit")
        return f"The game reached {plies}, so it is drawn."
    if termination is Termination.NO_LEGAL_MOVES:
        return _cannot_move(state) + _neither(state)
    last = state.last_record()
    winner = outcome.winner or state.to_move.opponent  # the mover, who won
    loser = winner.opponent
    if termination is Termination.FLAG_CAPTURED:
        if (last is None or last.defender is None or last.defender.rank != Rank.FLAG
                or last.move.frm is None or last.move.to is None):
            return f"{_cap(str(winner))} captured the {loser} Flag."
        return (f"The {_piece_name(state, last.piece, last.move.frm.name)} captured the "
                f"{loser} Flag on {last.move.to}.")
    if last is None or last.move.frm is None or last.move.to is None:
        return f"The {winner} Flag reached {loser}'s back row (Moving Flag)."
    return (f"The {winner} Flag moved from {last.move.frm} onto {last.move.to}, on {loser}'s "
            f"back row (Moving Flag).")


def _cannot_move(state: GameState) -> str:
    """Why the player to move in `state`, a game ended by `Termination.NO_LEGAL_MOVES`,
    has no legal move."""
    who = state.to_move
    stuck = f"{_cap(str(who))} cannot move"
    movement = state.rules.movement
    if not any(placed.owner is who and movement.can_move(placed.rank)
               for placed in state.pieces):
        return f"{stuck}: it has no movable piece left."
    # The moves the pieces could make with no repetition recorded: the rules of movement
    # alone. The game ended, so the repetition rules forbid each of them.
    candidates = generate(_unrecorded(state, state.turn))
    if not candidates:
        return f"{stuck}: none of its movable pieces has a free square or a piece to strike."
    by_rule: dict[str, list[str]] = {}
    for move in candidates:
        frm, to = move.fi, move.ti
        piece = state.piece_at(SQUARES[frm])
        assert piece is not None
        broken = _repetition(state, frm, to, _piece_name(state, piece, SQUARES[frm].name))
        if broken is None:  # no state `apply` makes comes here; said plainly if one does
            return f"{stuck}: it has no legal move."
        by_rule.setdefault(broken[0], []).append(str(move))
    which = "its only move" if len(candidates) == 1 else "each of its moves"
    parts = "; ".join(f"{_listed(moves)} ({rule})" for rule, moves in by_rule.items())
    return f"{stuck}: {which} would break a repetition rule: {parts}."


def _unrecorded(state: GameState, turn: int) -> GameState:
    """`state` with player `turn` to move, the game on and no repetition recorded: what
    the rules of movement alone allow (a position no game need reach, never returned)."""
    return attrs.evolve(state, turn=turn, shuttles=(NO_SHUTTLE, NO_SHUTTLE), chase=(),
                        outcome=None, cached_moves=None)


def _neither(state: GameState) -> str:
    """When the opponent of the player to move, who has no legal move, could not move
    either by the rules of movement (a strike took the last movable piece of both sides),
    the sentence saying so and who loses: the player to move, in every edition (Milton
    Bradley 1961 and Hasbro 2009, To end the game, note; Jumbo 2014, The game ends when,
    bullet 2; classic web rules, Rules for Movement; ISF 5); else ``""``."""
    if generate(_unrecorded(state, 1 - state.turn)):
        return ""
    who = state.to_move
    return (f" {_cap(str(who.opponent))} could not move either, but it is {who}'s turn, and "
            f"the player who cannot move in its turn loses.")


def _listed(moves: list[str]) -> str:
    """``"a1-a2"``, ``"a1-a2 and a1-b1"``, ``"a1-a2, a1-b1 and b3-b4"``, or the first
    `_SHOWN_MOVES` and how many more."""
    if len(moves) > _SHOWN_MOVES:
        return f"{', '.join(moves[:_SHOWN_MOVES])} and {len(moves) - _SHOWN_MOVES} more"
    return " and ".join(filter(None, [", ".join(moves[:-1]), moves[-1]]))


def _cap(text: str) -> str:
    """`text` with its first letter a capital."""
    return text[:1].upper() + text[1:]
