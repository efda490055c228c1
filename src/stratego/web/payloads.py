"""What a seat of the web game is sent: the JSON payload (schema `PAYLOAD_SCHEMA`), the
board SVG, a past position of the move list (review mode), and the move list's lines.

Everything here is made from `stratego.view` of the seat's player (or, during the setup
phase, from the seat's own setup), so no hidden rank reaches a browser. The one
deliberate exception is the end of a game: once it is over, by the rules, a resignation,
a flag fall, an agreed draw or an abort, the opponent's army is shown (``"revealed"``), on
the final position and in review mode's past positions, as players turn their pieces over
after a game.
"""

from __future__ import annotations

from typing import Any

from stratego.board import LAKES, home_rows, parse_digits
from stratego.engine import apply, initial_state
from stratego.errors import ArgumentError, WebError, shown
from stratego.explain import explain_illegal, explain_outcome
from stratego.moves import Move
from stratego.pieces import LEGEND_ORDER, Player, Rank
from stratego.rules import Rules
from stratego.state import GameState
from stratego.svg import board_svg
from stratego.text import setup_picture
from stratego.variants import VARIANTS
from stratego.views import PlayerView, SeenPly, view
from stratego.web.games import ABANDONED, ABORTED, Game

__all__ = ["GAME_ABORTED", "GAME_OVER", "PAYLOAD_SCHEMA", "before_reply", "explain", "payload",
           "ply_short", "ply_text", "review", "rules_title", "standing", "svg"]

PAYLOAD_SCHEMA = "stratego.web/2"
"""The value of the ``"schema"`` field of the JSON a seat receives. (``/2``: the move list's
rows name each entry's text by its number in ``moves``, and ``before_reply`` says how many
entries of ``moves`` its position had, rather than repeating the move list.)"""

GAME_OVER = "Game over."
"""A finished game's status line: who won and how are the payload's `result` (``text``,
``how``), which the page shows once, in its game-over panel."""

GAME_ABORTED = "Game aborted."
"""An aborted game's status line (a person's time ran out before its first move: see
`stratego.web.games.out_of_time`; or the game was called off before play began); why is
the payload's `result`."""

_OUTCOMES = {"attacker": "attacker wins", "defender": "defender wins", "both": "both removed"}


def _label(rules: Rules, rank: Rank | None) -> str:
    return "?" if rank is None else rules.labels.label(rank)


def _rank_words(rules: Rules, rank: Rank | None) -> str:
    return "an unknown piece" if rank is None else f"{rank.title} ({rules.labels.label(rank)})"


def ply_text(rules: Rules, ply: SeenPly) -> str:
    """One line of the move list for a `stratego.views.SeenPly`, naming only the ranks the
    viewer saw (``"red: b4xb5, Captain (6) strikes Major (7): defender wins"``). Raises
    `ArgumentError` for a `ply` that is no `SeenPly`."""
    if not isinstance(ply, SeenPly):
        raise ArgumentError(f"ply_text needs a ply of a view (a SeenPly), not {shown(ply)}")
    who = str(ply.player)
    move = ply.move
    if move is None:
        where = ply.to.name if ply.to is not None else "?"
        return f"{who}: rescues a piece to {where}"
    if move.is_decline:
        return f"{who}: declines the Rescue"
    if move.is_rescue:
        return f"{who}: rescues {_rank_words(rules, move.rescued)} to {move.to}"
    if ply.result is None:
        return f"{who}: {move}"
    outcome = _OUTCOMES.get(ply.result, ply.result)
    return (f"{who}: {move.frm}x{move.to}, {_rank_words(rules, ply.rank)} strikes "
            f"{_rank_words(rules, ply.defender_rank)}: {outcome}")


_SHORT_OUTCOMES = {"attacker": "wins", "defender": "loses", "both": "both out"}


def ply_short(rules: Rules, ply: SeenPly) -> str:
    """The move list's short form of `ply_text` (no side, ranks as labels, the outcome as
    the attacker's: ``"b4xb5 6×7 loses"``, ``"K@b2"``, ``"declines"``), which fits a
    column of a phone's move list; the long form is the entry's tooltip. Names only the
    ranks the viewer saw (``?`` for the others)."""
    if not isinstance(ply, SeenPly):
        raise ArgumentError(f"ply_short needs a ply of a view (a SeenPly), not {shown(ply)}")
    move = ply.move
    if move is None:
        return f"rescue to {ply.to.name if ply.to is not None else '?'}"
    if move.is_decline:
        return "declines"
    if move.is_rescue:
        return f"{_label(rules, move.rescued)}@{move.to}"
    if ply.result is None:
        return str(move)
    return (f"{move.frm}x{move.to} {_label(rules, ply.rank)}\u00d7"
            f"{_label(rules, ply.defender_rank)} {_SHORT_OUTCOMES.get(ply.result, ply.result)}")


def _setup_cells(game: Game, player: Player) -> list[dict[str, Any]]:
    labels = game.rules.labels
    return [{"square": sq.name, "owner": str(player), "rank": rank.symbol,
             "label": labels.label(rank), "moved": False}
            for sq, rank in game.seats[player].setup.placement]


def svg(game: Game, player: Player) -> str:
    """The board picture `player` may see: its own setup, its view, or, once the game is
    over, the whole board from its side."""
    if game.state is None:
        picture = setup_picture(game.rules, game.seats[player].setup)
        return board_svg(picture, perspective=player, size=None).svg
    if game.is_over:
        return board_svg(game.state, perspective=player, size=None).svg
    return board_svg(view(game.state, player), size=None).svg


def _phase(game: Game, player: Player) -> str:
    if game.is_over:
        return "over"
    if game.state is None:
        return "waiting" if game.seats[player].ready else "setup"
    return "play"


def _result(game: Game, player: Player) -> dict[str, Any] | None:
    """The game-over panel: who won, why, and what it means for `player`. A game the rules
    ended says how in a second sentence (`stratego.explain.explain_outcome`: the piece
    that took the Flag, why the loser had no legal move, the ply limit), and so does an
    aborted game (whose time ran out before its first move); the game is over, so it may
    name the opponent's pieces."""
    how: str | None = None
    if game.ending is not None and game.ending.reason == ABORTED:
        if game.state is None:
            return _called_off()
        return _aborted(game.state.to_move, player)
    if game.ending is not None:
        winner, reason = game.ending.winner, game.ending.reason
    elif game.state is not None and game.state.outcome is not None:
        winner, reason = game.state.outcome.winner, game.state.outcome.termination.value
        how = explain_outcome(game.state)
    else:
        return None
    told = "" if how is None else f" {how}"
    if winner is None:
        you, text = "draw", f"{_DRAWS.get(reason, f'A draw ({reason}).')}{told}"
    else:
        you = "win" if winner == player else "loss"
        text = f"{_won_or_lost(winner, player, reason)}{told}"
    return {"winner": None if winner is None else str(winner), "reason": reason,
            "you": you, "text": text, "how": how}


def _aborted(side: Player, player: Player) -> dict[str, Any]:
    """The result of a game aborted because `side` (the side to move, whose clock ran)
    never moved, as `player` is told it: nobody won or lost, and it is no draw either
    (``you`` ``"aborted"``). It names nothing but the side, which both seats know."""
    if side == player:
        never, how = "you", "Your time ran out before your first move"
    else:
        never, how = str(side), f"{str(side).capitalize()}'s time ran out before its first move"
    how += ", so nobody wins or loses."
    return {"winner": None, "reason": ABORTED, "you": ABORTED,
            "text": f"Game aborted: {never} never moved. {how}", "how": how}


def _called_off() -> dict[str, Any]:
    """The result of a game called off before play began (a person aborted it, or called
    it off once the other had left): the same for both seats (who called it off is not
    kept)."""
    how = "Play never began, so nobody wins or loses."
    return {"winner": None, "reason": ABORTED, "you": ABORTED,
            "text": f"Game aborted: called off. {how}", "how": how}


_DRAWS = {"draw agreed": "A draw by agreement.", "ply limit": "A draw by the ply limit.",
          "no legal moves": "A draw: neither side has a legal move."}
"""The game-over panel's words for a draw, by its ``reason``."""


def _won_or_lost(winner: Player, player: Player, reason: str) -> str:
    """The game-over panel's first sentence for `player` in a game `winner` won, as a game
    site words it: "You win (blue resigned).", "You lose (your time ran out)."."""
    loser = winner.opponent
    if winner == player:
        why = {"resignation": f"{loser} resigned",
               "time": f"{loser}'s time ran out",
               ABANDONED: "your opponent left the game",
               "flag captured": "you captured the Flag",
               "flag reached the back row": "your Flag reached the back row",
               "no legal moves": f"{loser} has no legal move"}.get(reason, reason)
        return f"You win ({why})."
    why = {"resignation": "you resigned",
           "time": "your time ran out",
           ABANDONED: "you left the game",
           "flag captured": "your Flag was captured",
           "flag reached the back row": f"{winner}'s Flag reached your back row",
           "no legal moves": "you have no legal move"}.get(reason, reason)
    return f"You lose ({why})."


def rules_title(rules: Rules) -> str:
    """The rules as a player reads them: the edition's title, then each variant's
    ("Classic web rules + Stratego Barrage")."""
    return " + ".join([rules.title, *(VARIANTS[name].title if name in VARIANTS else name
                                      for name in sorted(rules.variants))])


def payload(game: Game, player: Player, rematch: str | None = None,
            full_view: bool = True) -> dict[str, Any]:
    """Everything one seat is sent: built from its own view (or setup) only; `rematch` is
    this seat's page in the rematch, once there is one. Without `full_view` the
    ``view`` field is None (the game's page asks so: it draws from the other fields, and
    the view repeats the whole history)."""
    rules = game.rules
    phase = _phase(game, player)
    offer = game.draw_offer
    to_move = _to_move(game, phase)
    out: dict[str, Any] = {
        "schema": PAYLOAD_SCHEMA,
        "game": game.id,
        "seat": game.seats[player].token,
        "player": str(player),
        "opponent": game.opponent,
        "bot": game.bot_spec,
        "rules": rules.name,
        "rules_title": rules_title(rules),
        "phase": phase,
        "started": game.state is not None,
        "to_move": to_move,
        "your_move": to_move == str(player),
        "version": game.version,
        "labels": {r.symbol: rules.labels.label(r) for r in Rank},
        "immobile": [r.symbol for r in Rank if not rules.movement.can_move(r)],
        "names": {r.symbol: r.title for r in Rank},
        "army": _army(rules),
        "lakes": sorted(sq.name for sq in LAKES),
        "join": (f"/join/{game.id}/{game.join_code}" if game.join_code is not None
                 and player is game.creator and not game.is_over else None),
        "opponent_joined": _opponent_joined(game),
        "ready": {str(p): game.seats[p].ready for p in Player},
        "setup": None,
        "home": None,
        "cells": [],
        "legal": {},
        "rescue": [],
        "last": [],
        "strikes": [],
        "flash": [],
        "moves": [],
        "move_rows": [],
        "captured": {"red": [], "blue": []},
        "tray": {"red": [], "blue": []},
        "on_board": {"red": 0, "blue": 0},
        "draw": None if phase != "play" else (
            ("sent" if offer == player else "received") if offer is not None
            else None if game.may_offer_draw(player) else "declined"),
        "result": _result(game, player),
        "revealed": False,
        "rematch": rematch,
        "record": False,
        "view": None,
        "before_reply": None,
    }
    if game.state is None:
        out["setup"] = game.seats[player].setup.text(rules.setup.depth)
        out["cells"] = _setup_cells(game, player)
        out["home"] = [sq.name for sq in home_rows(player, rules.setup.depth)]
        out["status"] = _setup_status(game, player, phase, out["result"])
    else:
        seen = view(game.state, player)
        out.update(_play_fields(rules, seen))
        if game.is_over:
            out["cells"], out["revealed"] = _revealed(game.state, player, out["cells"])
            out.update(_losses(rules, seen, game.state))
        out["record"] = game.has_record
        out["status"] = _status(game, seen, out["result"])
        out["view"] = seen.to_dict() if full_view else None
    out["svg"] = svg(game, player)
    return out


def standing(game: Game, player: Player) -> dict[str, Any]:
    """Where `player`'s seat stands: the fields ``phase``, ``to_move``, ``your_move``,
    ``status`` and ``result`` of its `payload`, the same values, made without the view,
    the board or the move list (what "your games" lists of a seat, at a cost that does
    not grow with the game)."""
    phase = _phase(game, player)
    to_move = _to_move(game, phase)
    result = _result(game, player)
    state = game.state
    if state is None:
        status = _setup_status(game, player, phase, result)
    else:
        status = _turn_status(game, player, state.to_move, bool(state.pending), result)
    return {"phase": phase, "to_move": to_move, "your_move": to_move == str(player),
            "status": status, "result": result}


def _opponent_joined(game: Game) -> bool:
    """Whether the opponent has its seat: the bot always, a friend once the join link
    was used (it is spent then)."""
    return game.opponent == "bot" or game.join_code is None


def _to_move(game: Game, phase: str) -> str | None:
    """Whose turn it is, while the game is played (None otherwise)."""
    return str(game.state.to_move) if phase == "play" and game.state is not None else None


def _setup_status(game: Game, player: Player, phase: str,
                  result: dict[str, Any] | None) -> str:
    """The status line of a game that has no position yet (its armies being set up, or
    called off before play began)."""
    other = player.opponent
    if phase == "setup":
        return ("Set up your army: pick two of your pieces (or a piece and an empty "
                "square) to swap them, then press Start.")
    if phase == "over":
        aborted = result is not None and result["you"] == ABORTED
        return GAME_ABORTED if aborted else GAME_OVER
    if not _opponent_joined(game):
        return f"Waiting for {other} to join: send them the join link."
    return f"Waiting for {other} to finish the setup."


def _moves_since(state: GameState, earlier: GameState | None) -> list[Move] | None:
    """The moves of `state`'s history after `earlier` (None: all of them), oldest first,
    read from the engine's history chain back to `earlier`'s (so in proportion to them);
    None when `earlier` is not an earlier position of `state`'s game."""
    stop = None if earlier is None else earlier.history
    moves = []
    node = state.history
    while node is not stop:
        if node is None:
            return None
        node, entry = node
        moves.append(entry[0])
    moves.reverse()
    return moves


def before_reply(game: Game, player: Player,
                 earlier: GameState | None) -> dict[str, Any] | None:
    """The move answer's ``before_reply``: in a game against the bot whose last turns are
    the bot's reply to `player`'s own turn, the position right after that turn, as a poll
    of the seat would have shown it then (the live payload's fields of the turn, the board
    and the losses: ``phase``, ``to_move``, ``your_move``, ``status``, ``cells``,
    ``legal``, ``rescue``, ``last``, ``strikes``, ``flash``, ``captured``, ``tray``,
    ``on_board``, ``svg``, ``draw``, ``result``, ``revealed``, ``record``), made from the
    seat's view alone, as `payload` is; of the move list only ``turns``, how many entries
    of the answer's ``moves`` (and ``move_rows``) it had then, not the list again. The page
    draws the seat's own move (and its strike) first, then the reply.

    `earlier` is the game's state when the request began (None: the start of the game):
    only the plies since are replayed. None when the request holds no reply to a turn of
    the seat's (a Rescue to decide, a move that ended the game, a game between two
    people); polls never carry it."""
    state = game.state
    if game.opponent != "bot" or state is None:
        return None
    history = view(state, player).history
    last = next((i for i in range(len(history) - 1, -1, -1)
                 if history[i].player == player), None)
    if last is None or last == len(history) - 1:
        return None
    # (a turn of the move list is a move of the state: its history has one of each)
    since = _moves_since(state, earlier)
    if since is None:  # (not a position of this game: read every move)
        moves = state.moves()
        start = 0 if earlier is None else len(earlier.moves())
        since = moves[start:]
    else:
        start = len(history) - len(since)
    if last < start:
        return None  # the seat's last turn is of an earlier request
    past = initial_state(state.info) if earlier is None else earlier
    for move in since[:last + 1 - start]:
        past = apply(past, move)
    seen = view(past, player)
    out: dict[str, Any] = {"phase": "play", "to_move": str(seen.to_move),
                           "your_move": seen.to_move == player, "draw": None, "result": None,
                           "revealed": False, "record": False}
    out.update(_play_fields(game.rules, seen, listed=False))
    out["turns"] = len(seen.history)
    out["status"] = _status(game, seen, None)
    out["svg"] = board_svg(seen, size=None).svg
    return out


def _army(rules: Rules) -> list[dict[str, Any]]:
    """The rules' army, one entry a rank it holds (``rank``: its symbol, ``count``), the
    strongest first, Bombs and the Flag last: the same for both sides, a public fact of the
    rules (the page's "Pieces" legend)."""
    army = rules.army
    return [{"rank": rank.symbol, "count": army.count(rank)} for rank in LEGEND_ORDER
            if army.count(rank)]


def _revealed(state: GameState, player: Player,
              cells: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """The cells with every opponent piece's rank filled in (``"revealed": true`` on those
    the view did not know), for the end of the game."""
    rules = state.rules
    full = {sq.name: piece for sq, piece in state.pieces()}
    filled = []
    for cell in cells:
        piece = full.get(cell["square"])
        if cell["rank"] is None and piece is not None and piece.owner is player.opponent:
            cell = {**cell, "rank": piece.rank.symbol, "label": rules.labels.label(piece.rank),
                    "revealed": True}
        filled.append(cell)
    return filled, True


def _cells(rules: Rules, seen: PlayerView) -> list[dict[str, Any]]:
    """The pieces on the board as `seen` knows them; each of the viewer's own carries
    ``known``: whether the opponent has identified it (its public record,
    `stratego.views.SeenPiece.disclosed`, holds its rank alone: a strike or a Scout's long
    move showed it). The opponent's pieces carry no such key."""
    cells = []
    for p in seen.pieces:
        if p.square is None:
            continue
        cell = {"square": p.square.name, "owner": str(p.owner),
                "rank": None if p.rank is None else p.rank.symbol,
                "label": None if p.rank is None else rules.labels.label(p.rank),
                "moved": p.moved}
        if p.owner is seen.player:
            cell["known"] = len(p.disclosed) == 1
        cells.append(cell)
    return cells


def _is_decision(ply: SeenPly) -> bool:
    """Whether `ply` is a Rescue decision (a piece rescued, or the Rescue declined), which
    belongs to the move that earned it (the ply before it, by the same side)."""
    return ply.move is None or ply.move.is_decision


def _last_turn(seen: PlayerView) -> tuple[SeenPly | None, SeenPly | None]:
    """The last turn of `seen`'s history: the move it made (None when there is none) and
    the Rescue decision that followed it (None when the turn made none)."""
    history = seen.history
    if not history:
        return None, None
    ply = history[-1]
    if not _is_decision(ply):
        return ply, None
    if len(history) > 1 and history[-2].player == ply.player and not _is_decision(history[-2]):
        return history[-2], ply
    return None, ply


def _last(seen: PlayerView) -> list[str]:
    """The squares the board marks as the last move: its two squares; after a Rescue
    decision, those of the move that reached the back row, then the square the rescued
    piece came back to (none for a declined Rescue)."""
    ply, decision = _last_turn(seen)
    squares = [] if ply is None or ply.move is None else [
        s.name for s in (ply.move.frm, ply.move.to) if s is not None]
    if decision is not None and decision.to is not None:
        squares.append(decision.to.name)
    return squares


def _play_fields(rules: Rules, seen: PlayerView, listed: bool = True) -> dict[str, Any]:
    """The payload's fields of the position `seen` (cells, legal moves, last move,
    strikes, losses) and, `listed`, its move list (``moves``, ``move_rows``)."""
    legal: dict[str, list[str]] = {}
    rescue = []
    for move in seen.legal_moves:
        if move.frm is not None and move.to is not None:
            legal.setdefault(move.frm.name, []).append(move.to.name)
        elif move.is_decline:
            rescue.append({"move": str(move), "text": "Decline the Rescue"})
        else:
            rescue.append({"move": str(move),
                           "text": f"Rescue {_rank_words(rules, move.rescued)} to {move.to}"})
    strikes, flash = _recent_strikes(rules, seen)
    out: dict[str, Any] = {"cells": _cells(rules, seen), "legal": legal, "rescue": rescue,
                           "last": _last(seen), "strikes": strikes, "flash": flash}
    if listed:
        out["moves"] = [ply_text(rules, p) for p in seen.history]
        out["move_rows"] = _move_rows(rules, seen)
    out.update(_losses(rules, seen))
    return out


def _recent_strikes(rules: Rules, seen: PlayerView
                    ) -> tuple[list[str], list[dict[str, Any]]]:
    """The strikes since the viewer's own last turn, that turn included: their texts and
    their squares and ranks (the board's flash). A Rescue decision is part of the turn of
    the move that earned it, so a strike made by that move is still one of them."""
    strikes: list[str] = []
    flash: list[dict[str, Any]] = []
    for ply in reversed(seen.history):
        marks = _strike_marks(rules, ply)
        if marks is not None:
            strikes.insert(0, ply_text(rules, ply))
            flash.insert(0, marks)
        if ply.player == seen.player and not _is_decision(ply):
            break
    return strikes, flash


def _strike_marks(rules: Rules, ply: SeenPly) -> dict[str, Any] | None:
    """The board's marks of a strike (its squares, the labels of the two ranks as the
    viewer saw them, ``?`` for one the strike did not show, and its result), or None
    when `ply` struck nothing."""
    if ply.result is None or ply.move is None:
        return None
    return {"from": str(ply.move.frm), "to": str(ply.move.to),
            "attacker": _label(rules, ply.rank), "defender": _label(rules, ply.defender_rank),
            "result": ply.result}


def _reviewed_strike(rules: Rules, seen: PlayerView) -> list[dict[str, Any]]:
    """The strike of the turn a past position ends with, as the live board marked it
    then (`_strike_marks`, from the view of that position: what the viewer knew then, never
    a rank the game's end revealed later), with the side that struck (``player``); empty
    when that turn struck nothing or there is none. A Rescue decision belongs to the move
    that earned it: the position after it shows that move's strike, if it made one."""
    ply = _last_turn(seen)[0]
    if ply is None:
        return []
    marks = _strike_marks(rules, ply)
    return [] if marks is None else [{**marks, "player": str(ply.player)}]


def _losses(rules: Rules, seen: PlayerView, face_up: GameState | None = None
            ) -> dict[str, Any]:
    """Each side's captured pieces as the viewer knows them (``captured``: labels, the
    strongest first, unknown ones last; ``tray``: the same grouped by rank with counts)
    and the pieces each side has on the board (``on_board``). With `face_up` (the
    position of a finished game) every captured piece is shown by its rank, as the
    board's pieces are then; each tray entry's ``revealed`` counts those of its pieces
    the viewer had not seen (always 0 while the game is on)."""
    unseen: dict[tuple[Player, Rank | None], int] = {}
    if face_up is None:
        lost = [(p.owner, p.rank) for p in seen.captured]
    else:
        lost = [(p.owner, p.rank) for p in face_up.captured()]
        for owner, rank in lost:
            unseen[owner, rank] = unseen.get((owner, rank), 0) + 1
        for p in seen.captured:
            if p.rank is not None:
                unseen[p.owner, p.rank] -= 1
    captured: dict[str, list[str]] = {"red": [], "blue": []}
    tray: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    lost.sort(key=lambda piece: (piece[1] is None, 0 if piece[1] is None else -piece[1]))
    for owner, rank in lost:  # unknown ones ("?") last
        side = str(owner)
        captured[side].append(_label(rules, rank))
        symbol = None if rank is None else rank.symbol
        if not tray[side] or tray[side][-1]["rank"] != symbol:
            tray[side].append({"rank": symbol, "label": _label(rules, rank),
                               "name": "unknown" if rank is None else rank.title,
                               "count": 0, "revealed": unseen.get((owner, rank), 0)})
        tray[side][-1]["count"] += 1
    on_board = {"red": 0, "blue": 0}
    for piece in seen.pieces:
        if piece.square is not None:
            on_board[str(piece.owner)] += 1
    return {"captured": captured, "tray": tray, "on_board": on_board}


def _move_rows(rules: Rules, seen: PlayerView) -> list[dict[str, Any]]:
    """The move list as numbered rows of a move by each side; `ply` is the number of turns
    played after each entry (what review mode shows). A Rescue decision stays in the row
    of the move that earned it. Each entry has its short form (`ply_short`); its text
    (`ply_text`) is the payload's ``moves`` entry number ``ply`` (counting from 1), not
    repeated here."""
    rows: list[dict[str, Any]] = []
    first = seen.history[0].player if seen.history else seen.first_player
    previous: Player | None = None
    for index, ply in enumerate(seen.history):
        if not rows or (ply.player == first and previous != first):
            rows.append({"number": len(rows) + 1, "plies": []})
        rows[-1]["plies"].append({"ply": index + 1, "player": str(ply.player),
                                  "short": ply_short(rules, ply)})
        previous = ply.player
    return rows


def review(game: Game, player: Player, plies: str) -> dict[str, Any]:
    """The position after the first `plies` turns of the move list, as `player` saw it
    then: its cells, last move, board picture, the strikes of that turn (as the live game
    lists them), the marks of the strike that turn made (``flash``, as the live board
    showed them, with the striking side) and each side's losses so far. Once the game is
    over (its record, both setups in it, is then the seat's to download) the opponent's
    pieces are shown face up (``"revealed"``), as players go over a finished game with
    both armies turned; the strike's marks still show only what the strike showed."""
    state = game.state
    if not plies.isascii() or not plies.isdigit():  # no turn number
        raise WebError(404, f"no turn {shown(plies)}: a turn is a number of plain digits")
    count = parse_digits(plies.lstrip("0") or "0", 6)  # None past any game's length
    if count is None and state is None:  # checked before the start as after: a 404
        raise WebError(404, f"no turn {shown(plies)}: the game has not started")
    if state is None:
        raise WebError(409, "the game has not started: there are no moves to review")
    moves = state.moves()
    if count is None or count > len(moves):
        raise WebError(404, f"no turn {shown(plies)} in this game (0 to {len(moves)})")
    past = initial_state(state.info)
    for move in moves[:count]:
        past = apply(past, move)
    seen = view(past, player)
    cells = _cells(game.rules, seen)
    if game.is_over:
        cells = _revealed(past, player, cells)[0]
    return {"ply": count, "of": len(moves), "cells": cells, "revealed": game.is_over,
            "last": _last(seen), "svg": board_svg(seen, size=None).svg,
            "strikes": _recent_strikes(game.rules, seen)[0],
            "flash": _reviewed_strike(game.rules, seen),
            **_losses(game.rules, seen, past if game.is_over else None)}


def explain(game: Game, player: Player, move: str) -> dict[str, Any]:
    """Why `player` may not play `move` (move text, ``"a4-a5"``) now: ``move``, ``legal``
    and ``text``, the sentence of `stratego.explain_illegal` for the seat's own view (it
    names no rank the seat does not know: the board, the back-and-forth and chase rules),
    None for a legal move. Refused (400) for text longer than a move, and (409) while the
    game is not being played."""
    if not move.isascii() or not move.isprintable() or not 1 <= len(move) <= 16:
        raise WebError(400, f"not a move: {shown(move)} (a move is text such as 'a4-a5')")
    if game.state is None or game.is_over:
        raise WebError(409, "the game is not being played: there is no move to explain")
    text = explain_illegal(view(game.state, player), move)
    return {"move": move, "legal": text is None, "text": text}


def _status(game: Game, seen: PlayerView, result: dict[str, Any] | None) -> str:
    return _turn_status(game, seen.player, seen.to_move, seen.pending_rescue is not None,
                        result)


def _turn_status(game: Game, me: Player, to_move: Player, deciding: bool,
                 result: dict[str, Any] | None) -> str:
    """The status line of a game under way or over, for `me`: `to_move` is to move, and
    `deciding` when that is a Rescue decision."""
    if result is not None:  # who won and how: the payload's `result` (the game-over panel)
        return GAME_ABORTED if result["you"] == ABORTED else GAME_OVER
    if to_move == me:
        if deciding:
            return "Your decision: rescue a captured piece or decline."
        return f"Your move ({me})."
    who = "the bot" if game.opponent == "bot" else str(to_move)
    return f"Waiting for {who} to move."
