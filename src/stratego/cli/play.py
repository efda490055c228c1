"""``stratego play``: a person against a bot in the terminal.

The person sees only what their side may know while the game is on (their view, the
strikes they saw, why their own move is illegal); the whole board and the seed that
replays the game are printed once it is over."""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from stratego.board import SIZE, SQUARES, Square
from stratego.bots.base import tell_game_over
from stratego.cli.options import (
    UsageError,
    bot_from_spec,
    draw_board,
    fill,
    note_board_style,
    rules_from_args,
    width,
)
from stratego.cli.saving import check_save, read_text, save_game
from stratego.editions import EDITIONS
from stratego.engine import apply, legal_moves, new_game, rescue_facts
from stratego.errors import (
    BotFaultError,
    BotSpecError,
    InvalidNotationError,
    StrategoError,
    shown,
)
from stratego.explain import explain_illegal, explain_outcome
from stratego.moves import DECLINE_RESCUE, RESCUE_NOTATION, Move
from stratego.pieces import LEGEND_ORDER, Player, Rank
from stratego.rescue import rescue_component
from stratego.rules import RankLabels, Rules
from stratego.setup_model import setup_source
from stratego.setups import Setup, setup_answer_problems, setup_problems
from stratego.state import GameState
from stratego.text import captured_text

if TYPE_CHECKING:
    from stratego.views import PlayerView, SeenPly

# ---------------------------------------------------------------------------
# a person against a bot

_HELP = (
    "Type a move as FROM-TO, such as {step} (a Scout may go several squares: {run}).",
    "Commands: 'moves' (m) lists your legal moves, 'board' (b) draws the board again, "
    "'history' shows the moves and strikes so far, 'legend' (l) shows what the board's "
    "signs mean, 'help' (h, ?) shows this text, 'resign' gives up the game (the whole "
    "board is shown, and --save keeps the game), 'quit' (q, exit) leaves it unfinished.",
)
"""The help's paragraphs, each wrapped to the terminal when it is shown."""

_COMMANDS = "moves (m), board (b), history, legend (l), help (h, ?), resign, quit (q, exit)"
"""The commands `cmd_play` takes, for the answer to an unknown word."""

_EXAMPLES = {Player.RED: {"step": "a4-a5", "run": "a4-a8"},
             Player.BLUE: {"step": "a7-a6", "run": "a7-a3"}}
"""The moves `_HELP` gives as examples, from each side's front row."""


def _plies(count: int) -> str:
    """``"1 ply"``, ``"2 plies"``."""
    return f"{count} {'ply' if count == 1 else 'plies'}"


def _help(person: Player, rules: Rules) -> str:
    """`_HELP` with examples of moves `person` may play, wrapped to the terminal, and
    under Rescue rules how a rescue is typed."""
    paragraphs = [paragraph.format(**_EXAMPLES[person]) for paragraph in _HELP]
    if rules.rescue.enabled:
        paragraphs.append(_RESCUE_TYPING)
    return "\n".join(fill(paragraph, indent="") for paragraph in paragraphs)


_RESCUE_TYPING = ("Rescues: when a piece of yours earns a Rescue, type RANK@SQUARE to bring "
                  "back a captured piece, with the rank's label or letter (such as K@b2), or "
                  "'--' to decline; 'moves' then lists the choices.")
"""The help's line on typing a rescue, under Rescue rules."""

_RESCUE_HELP = ("Rescue: your {piece} reached the opponent's back row, so you may bring "
                "back one of your captured pieces. Type RANK@SQUARE with the rank's label "
                "or letter ({ranks}), such as {example}, or '--' to decline. 'moves' "
                "lists the choices.")


def _rank_choices(labels: RankLabels, rescues: Sequence[Move]) -> str:
    """The ranks `rescues` bring back, strongest first, each with its label and letter
    (``10 or M Marshal``; one sign when they are the same, such as the Spy's ``S``)."""
    parts = []
    for rank in sorted({move.rescued for move in rescues if move.rescued is not None},
                       reverse=True):
        label = labels.label(rank)
        signs = label if label == rank.symbol else f"{label} or {rank.symbol}"
        parts.append(f"{signs} {rank.title}")
    return ", ".join(parts)


def _typed_rescue(rescue: Move, labels: RankLabels) -> str:
    """The rescue `rescue` as the person may type it, with the edition's label (``10@b1``)."""
    assert rescue.rescued is not None
    return f"{labels.label(rescue.rescued)}@{rescue.to}"


def _rescue_note(state: GameState, seen: PlayerView) -> str:
    """What the person is told of the Rescue decision due (theirs): the ranks that may come
    back now (the captured ones a rescue may bring back, as the legal moves have them) and
    one legal rescue to copy, or why they may only decline."""
    assert seen.pending_rescue is not None
    title = seen.pending_rescue.rank.title if seen.pending_rescue.rank else "piece"
    rescues = [move for move in seen.legal_moves if move.is_rescue]
    if not rescues:  # no piece may come back (a Scout rescues none, none to bring back)
        return fill(f"Rescue: your {title} reached the opponent's back row, but nothing may "
                    f"come back now: {_why_no_rescue(state)}. Type '--' to go on.", indent="")
    labels = seen.rules.labels
    return fill(_RESCUE_HELP.format(piece=title, ranks=_rank_choices(labels, rescues),
                                    example=_typed_rescue(rescues[0], labels)), indent="")

_MOVE_HINT = f"; {RESCUE_NOTATION}"
"""The Rescue hint of an unknown word's answer, as `Move.parse` gives it under rules with
Rescue, left out under rules without."""


def glyphs_help() -> str:
    """What `play` draws, for its ``--help``: the signs and each edition's rank labels."""
    by_labels: dict[tuple[str, ...], list[str]] = {}
    for name, rules in EDITIONS.items():
        by_labels.setdefault(tuple(rules.labels.labels), []).append(name)
    signs = [
        ("r.. / b..", "a Red / Blue piece: r or b, then the rank's label in the edition"),
        ("b? / r?", "a piece of the bot's whose rank you do not know (yet): the bot's "
                    "letter (b when you play Red, r when you play Blue), then ?"),
        ("b* / r*", "such a piece that has moved (no Bomb, no Flag, unless a variant lets "
                    "them move)"),
        (".", "an empty square (blank in the Unicode grid)"),
        ("~~~", "a lake (≈≈≈ in the Unicode grid)"),
    ]
    lines = ["The board, as play draws it:"]
    for sign, meaning in signs:
        lines.extend(textwrap.wrap(f"  {sign:<11} {meaning}", width(),
                                   subsequent_indent=" " * 14))
    lines.append("Rank labels (B Bomb and F Flag in every edition):")
    for labels, names in by_labels.items():
        table = RankLabels(labels)
        ranks = ", ".join(f"{table.label(rank)} {rank.title}" for rank in LEGEND_ORDER)
        lines.extend(textwrap.wrap(f"  {', '.join(names)}: {ranks}", width(),
                                   subsequent_indent="    "))
    return "\n".join(lines)



def _moved_means(rules: Rules) -> str:
    """What the legend says a moved piece is not: nothing more when a variant lets Bombs
    or the Flag move (Moving Bombs, Moving Flag)."""
    movement = rules.movement
    if movement.can_move(Rank.BOMB) or movement.can_move(Rank.FLAG):
        return ""
    return " (no Bomb, no Flag)"


def _legend(rules: Rules, person: Player, style: str) -> str:
    """The rank legend of `rules` for a person playing `person`: each label, its rank and
    how many pieces of it an army has, the board's other signs, and each rank's letter
    (what `--setup` and a rescue are typed with)."""
    army = [rank for rank in LEGEND_ORDER if rules.army.count(rank)]
    ranks = ", ".join(f"{rules.labels.label(rank)} {rank.title} x{rules.army.count(rank)}"
                      for rank in army)
    letters = ", ".join(f"{rank.symbol} {rank.title}" for rank in army)
    mine, theirs = ("r", "b") if person is Player.RED else ("b", "r")
    lake = "~~~" if style == "ascii" else "≈≈≈"
    return "\n".join([
        *textwrap.wrap(f"Legend: {mine}.. your pieces, {theirs}.. the bot's, {theirs}? a bot "
                       f"piece whose rank you do not know, {theirs}* one that has moved"
                       f"{_moved_means(rules)}, {lake} a lake.", width()),
        *textwrap.wrap(f"Ranks: {ranks}.", width(), subsequent_indent="  "),
        *textwrap.wrap(f"Letters (for --setup{' and rescues' if rules.rescue.enabled else ''}"
                       f"): {letters}.", width(),
                       subsequent_indent="  ")])


def _person_setup(text: str, rules: Rules, person: Player) -> Setup:
    """The person's `--setup`: its text form, or the name of a file holding it (lines
    starting with '#' are comments)."""
    source = text
    # a file, or something else there that no setup text names (a folder): read, or refused
    named = os.path.isfile(text) or (os.path.exists(text) and not set(text) <= _SETUP_SIGNS)
    if not named and _names_a_file(text):
        raise UsageError(f"--setup: cannot read {shown(text)}: no such file (a setup is "
                         "given as its text, such as 'FBNN.../...', or as a file holding it)")
    if named:
        lines = read_text(text, "--setup").splitlines()
        source = "/".join(line.strip() for line in lines
                          if line.strip() and not line.lstrip().startswith("#"))
    try:
        setup = Setup.parse(source, person, rules.setup.depth)
    except StrategoError as exc:
        raise UsageError(f"--setup: {exc}") from None
    problems = setup_problems(rules, setup)
    if problems:
        raise UsageError(f"--setup: not a valid {person} setup under {rules.name}: "
                          + "; ".join(problems))
    return setup


_SETUP_SIGNS = frozenset("".join(rank.symbol + rank.symbol.lower() for rank in Rank)
                         + "./0123456789 ")
"""What a setup's text form may hold (rank symbols in either case, empty squares, rows)."""


def _names_a_file(text: str) -> bool:
    """Whether `text`, which is no file here, was meant as one: it ends with an extension
    (``.txt``) and holds signs no setup text does."""
    return (re.search(r"\.[A-Za-z][A-Za-z0-9]{0,4}$", text) is not None
            and any(sign not in _SETUP_SIGNS for sign in text))


def _parse_move(line: str, rules: Rules, legal: Sequence[Move]) -> Move:
    """The person's typed move; Rescue syntax is accepted and mentioned only under rules
    with Rescue, where a rescue names its rank by the edition's label (``10@b2``) or by
    its letter (``M@b2``); a sign that is no rank is told the ranks that may come back
    now, as the `legal` moves have them. Raises `InvalidNotationError`."""
    rescue = rules.rescue.enabled
    if not rescue and ("@" in line or line.strip() == "--"):
        raise InvalidNotationError(
            f"not a move: {shown(line.strip())} (expected two squares such as 'a4-a5'; there are "
            "no Rescue decisions under these rules)")
    if rescue and "@" in line:
        sign, _, square = line.strip().partition("@")
        try:
            rank = rules.labels.parse(sign)
        except InvalidNotationError:
            rescues = [move for move in legal if move.is_rescue]
            if rescues:
                then = (f"type one of {_rank_choices(rules.labels, rescues)}, then '@' and "
                        f"the square, such as '{_typed_rescue(rescues[0], rules.labels)}'")
            elif DECLINE_RESCUE in legal:
                then = "no piece may come back now; type '--' to go on"
            else:
                then = "there is no Rescue to decide now"
            raise InvalidNotationError(
                f"not a rescue: {shown(line.strip())} ({shown(sign.strip())} is no rank that "
                f"may be rescued; {then})") from None
        try:
            return Move.rescue(rank, Square.parse(square))
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"not a rescue: {shown(line.strip())} ({exc})") from None
    return Move.parse(line, rescue=rescue)


def cmd_play(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.max_plies is not None:
        rules = rules.with_ply_limit(args.max_plies)
    if args.save is not None:
        check_save(args.save, args.format, rules)  # a bad name or file is an error before the game
    from stratego.views import view

    # The seed fixes the bot's setup and play: it is never printed while the game is on,
    # and is 64 bits wide, past searching for the seed that deals the army one has seen.
    # Each side's dealt setup, the generator a bot that sets up its own army is given and
    # the bot's randomness come from streams of their own.
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**64)
    person = Player.parse(args.color)
    place = setup_source(args.setups, rules)
    setups = {player: place(rules, player, random.Random(f"{seed}/setup/{player.name}"))
              for player in Player}
    if args.setup is not None:
        setups[person] = _person_setup(args.setup, rules, person)
    bot = bot_from_spec(args.bot, random.Random(f"{seed}/bot").randrange(2**32), rules)
    note_board_style(args.board)
    print(fill(f"You play {person} against the {args.bot} bot under {rules.title} "
               f"({rules.name}).", indent=""))
    side = person.opponent
    own, forfeit = _bot_setup(bot, rules, side,
                              random.Random(f"{seed}/bot-setup/{side.name}"))
    if forfeit is not None:  # no game is played: what the rules refuse may be said
        return _forfeit_at_setup(args, person, seed, f"the {args.bot} bot {forfeit}")
    if own is not None:  # the bot's army, never printed while the game is on
        setups[side] = own
    state = new_game(rules, setups[Player.RED], setups[Player.BLUE])
    print(_help(person, rules))
    print(_legend(rules, person, args.board))
    _line_editing()
    show_board = True
    redrawn = False  # the board is drawn again on request: the bot's last move is recalled
    bot_move: str | None = None  # the bot's last move, as the person saw it
    while state.outcome is None:
        if state.to_move != person:
            try:
                move = bot(view(state, person.opponent))
            except BotFaultError as fault:  # a program bot that broke its side of the game
                return _end(state, args, person, seed, resigned=person.opponent,
                            how=f"the {args.bot} bot lost by a fault: {fault}",
                            bot=bot, termination=fault.termination)
            if isinstance(move, str):  # a move's text, as play_game takes it from a bot
                with contextlib.suppress(InvalidNotationError):
                    move = Move.parse(move, rescue=rules.rescue.enabled)
            if not isinstance(move, Move) or move not in legal_moves(state):
                return _end(state, args, person, seed, resigned=person.opponent,
                            how=f"the {args.bot} bot answered {shown(move)}, which is not "
                                "a legal move", bot=bot, termination="illegal move")
            state = apply(state, move)
            bot_move = _public_move(move, view(state, person))
            print(fill(f"The bot plays {bot_move}."))
            _report_strike(state, person)
            show_board = True
            continue
        seen = view(state, person)
        if show_board:
            print(draw_board(seen, args.board))
            print(fill(f"Pieces lost: yours {captured_text(seen, person)}; "
                       f"the bot's {captured_text(seen, person.opponent)}"))
            # asked for again, or a grid too tall for the bot's move above it to stay in view
            if bot_move is not None and (redrawn or args.board != "ascii"):
                print(fill(f"The bot's last move: {bot_move}."))
            if seen.pending_rescue is not None:
                print(_rescue_note(state, seen))
            show_board = redrawn = False
        try:
            line = input(_prompt(state, person)).strip()
        except EOFError:
            line = "quit"
            print()
        command = line.lower()
        if not command:
            continue
        if command == "resign":
            print("You resign.")
            return _end(state, args, person, seed, resigned=person, bot=bot,
                        termination="resigned")
        if command in ("quit", "exit", "q"):
            # The game is not over: the board shows only what you may know.
            print("You left the game.")
            print(draw_board(seen, args.board))
            if args.save:
                print(fill(f"Not saved: {args.save} would show the bot's setup, and the game "
                           "is not over."))
            return 0
        if command in ("help", "h", "?"):
            print(_help(person, rules))
            if seen.pending_rescue is not None:
                print(_rescue_note(state, seen))
            continue
        if command in ("legend", "l"):
            print(_legend(rules, person, args.board))
            continue
        if command in ("moves", "m"):
            print(_moves_text(seen))
            continue
        if command in ("board", "b"):
            show_board = redrawn = True
            continue
        if command == "history":
            print(_history(seen, person))
            continue
        if re.fullmatch(r"[a-z]+", command):  # a word, never a move (a square has a number)
            hint = _MOVE_HINT if rules.rescue.enabled else ""
            print(fill(f"Not understood: unknown command {shown(line)} (commands: {_COMMANDS}; "
                       f"a move is written like 'a4-a5'{hint}). Type 'help' for help."))
            continue
        try:
            move = _parse_move(line, rules, seen.legal_moves)
        except InvalidNotationError as exc:
            print(fill(f"Not understood: {exc}. Type 'help' for help."))
            continue
        if move not in legal_moves(state):
            print(fill(f"Illegal: {_why_illegal(state, move, person)}. Type 'moves' for "
                       "the legal moves."))
            continue
        state = apply(state, move)
        if move.is_decision:
            print(fill(f"You play {_rescue_text(move, 'your', rules.labels)}."))
        _report_strike(state, person)
        show_board = True
    return _end(state, args, person, seed, bot=bot)


def _bot_setup(bot: object, rules: Rules, side: Player,
               rng: random.Random) -> tuple[Setup | None, str | None]:
    """The bot's own setup, asked as a match asks it (`stratego.match.play_game`): a bot
    with a ``setup(rules, player, rng)`` method places its army, or answers None to take
    the one dealt to it (as a program answering ``"setup": null`` does). Returns (its
    setup or None, None), or (None, the fault that loses it the game: a program bot's
    fault, or a setup that is no Setup of its side or that the rules reject). An
    exception of a bot's own code is not caught, as during its moves."""
    place = getattr(bot, "setup", None)
    if not callable(place):
        return None, None
    try:
        chosen = place(rules, side, rng)
    except BotFaultError as fault:  # a program bot that failed to set up
        return None, f"lost by a fault: {fault}"
    except BotSpecError as exc:  # the host's problem (a log gone bad since the bot was made)
        raise UsageError(str(exc)) from None
    if chosen is None:
        return None, None
    problems = setup_answer_problems(rules, side, chosen)
    if problems:  # told as a match tells it (a program is sent ``end`` and goes)
        tell_game_over(bot, side.opponent, "illegal setup")
        return None, "set up illegally: " + "; ".join(problems)
    return chosen, None


def _forfeit_at_setup(args: argparse.Namespace, person: Player, seed: int, how: str) -> int:
    """The bot lost before the first move, by `how` (its setup's fault): said, then the
    result as `_end` says a forfeit. No board is drawn and nothing is saved: no game was
    played from the bot's setup."""
    print(fill(f"{_cap(how)}.", indent=""))
    print(fill(f"You win: {person.opponent} loses by forfeit before the first move "
               f"(seed {seed})."))
    if args.save:
        print(fill(f"Not saved: no game was played, so {args.save} would hold no game."))
    return 0


def _prompt(state: GameState, person: Player) -> str:
    """The prompt: the person's side and the ply they are to play, out of the ply limit
    when the rules have one (``red (ply 12/400)> ``)."""
    limit = state.rules.ply_limit
    return f"{person} (ply {state.ply + 1}{f'/{limit}' if limit is not None else ''})> "


_BOUND = "\0"
"""Stands for a space the wrapping must not break at (between a move and its piece's rank)."""


def _reading_order(index: int, person: Player) -> tuple[int, int]:
    """Where the square of `index` comes as the person reads the board drawn from their
    side: the top row first (their front row before their back row), each row from their
    left."""
    row, file = divmod(index, SIZE)
    return (-row, file) if person is Player.RED else (row, -file)


def _move_order(move: Move, person: Player) -> tuple[int, int]:
    """Where `move` of a piece comes among that piece's moves, as the person sees the board
    drawn from their side: up (toward the opponent) first, then left, right and down, the
    nearest square first in each direction."""
    (row, file), (to_row, to_file) = divmod(move.fi, SIZE), divmod(move.ti, SIZE)
    up, right = ((to_row - row, to_file - file) if person is Player.RED
                 else (row - to_row, file - to_file))
    direction = 0 if up > 0 else 1 if right < 0 else 2 if right > 0 else 3
    return direction, abs(up) + abs(right)


def _moves_text(seen: PlayerView) -> str:
    """The person's legal moves, for 'moves': each piece's moves together, the pieces in the
    order the board shows them from the person's side (`_reading_order`), each piece's
    moves up, left, right, then down, nearest first (`_move_order`), each group followed
    by its piece's rank (``a4-a5 a4-a6 (Scout); b4-b5 (Miner)``); a Rescue decision's
    rescues grouped by rank, strongest first, then ``--``. Only the person's own pieces
    are named."""
    person = Player(seen.player)
    by_piece: dict[int, list[Move]] = {}
    by_rank: dict[Rank, list[Move]] = {}
    declined = False
    for move in seen.legal_moves:
        if move.is_decline:
            declined = True
        elif move.rescued is not None:
            by_rank.setdefault(move.rescued, []).append(move)
        else:
            by_piece.setdefault(move.fi, []).append(move)
    groups = [(moves, _own_rank(seen, index)) for index, moves in sorted(
        by_piece.items(), key=lambda item: _reading_order(item[0], person))]
    groups += [(moves, rank) for rank, moves in sorted(by_rank.items(), reverse=True)]
    parts = []
    for moves, rank in groups:
        moves.sort(key=lambda move: (_move_order(move, person) if move.fi >= 0
                                     else _reading_order(move.ti, person)))
        parts.append(" ".join(str(move) for move in moves) + f"{_BOUND}({rank.title})")
    if declined:
        parts.append(f"--{_BOUND}(declines the Rescue)")
    return fill("Legal moves: " + "; ".join(parts)).replace(_BOUND, " ")


def _own_rank(seen: PlayerView, index: int) -> Rank:
    """The rank of the person's piece on square `index`, which a legal move of theirs
    starts from (a player always knows its own ranks)."""
    piece = seen.piece_at(SQUARES[index])
    assert piece is not None
    assert piece.rank is not None
    return piece.rank


def _line_editing() -> None:
    """At a terminal, the arrow keys edit the line typed and recall earlier ones (the
    standard library's `readline`, where the platform has it)."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # not on every platform
            import readline  # noqa: F401  (importing it is what turns it on for input())


def _cap(text: str) -> str:
    """`text` with its first letter a capital."""
    return text[:1].upper() + text[1:]


def _end(state: GameState, args: argparse.Namespace, person: Player, seed: int,
         resigned: Player | None = None, how: str | None = None, *, bot: object = None,
         termination: str = "") -> int:
    """The game is over (by its rules, or `resigned` by that player, `how` saying why when
    it is no resignation: the bot's fault, `termination` naming it): the whole board may be
    shown, the result, the seed that replays it, how the rules ended it
    (`explain_outcome`), and the game saved with ``--save``. `bot` is told how the game
    ended, as a match tells it (a program bot is sent ``end``)."""
    print(draw_board(state, args.board, person))
    outcome = state.outcome
    if resigned is not None:
        verdict = "You lose" if resigned == person else "You win"
        if how is None:
            how = "you resigned" if resigned == person else f"{resigned} resigned"
        else:  # the bot's fault: said first, then the result as a game's end is said
            print(fill(f"{_cap(how)}.", indent=""))
            how = f"{resigned} loses by forfeit"
        print(fill(f"{verdict}: {how} after {_plies(state.ply)} (seed {seed})."))
    elif outcome is not None and outcome.winner is None:
        print(fill(f"A draw ({outcome.termination.value}) after {_plies(state.ply)} "
                   f"(seed {seed})."))
        print(fill(explain_outcome(state)))
    else:
        assert outcome is not None
        verdict = "You win" if outcome.winner == person else "You lose"
        print(fill(f"{verdict}: {outcome} after {_plies(state.ply)} (seed {seed})."))
        print(fill(explain_outcome(state)))  # how: the Flag's taker, or why no move was left
    if args.save:
        names = (("you", args.bot) if person is Player.RED else (args.bot, "you"))
        save_game(state, args.save, args.format, names, seed, event="stratego play",
                  resigned=resigned)
        print(fill(f"Saved: {args.save}"))
    if resigned is not None:
        tell_game_over(bot, resigned.opponent, termination)
    else:
        assert outcome is not None
        tell_game_over(bot, outcome.winner, outcome.termination.value)
    return 0


def _public_move(move: Move, seen: PlayerView) -> str:
    """The move as the person may see it (a hidden Rescue shows only its square, a seen
    one its rank's label and name)."""
    last = seen.history[-1] if seen.history else None
    if last is not None and last.move is None and last.to is not None:
        return f"a rescue onto {last.to}"
    return _rescue_text(move, "its", seen.rules.labels)


def _rescue_text(move: Move | None, whose: str, labels: RankLabels) -> str:
    """`move` as play says it: a rescue with its rank's label and name (``M@b2, a rescue
    of your Marshal (10) onto b2``), a declined Rescue as such, any other move as written."""
    if move is not None and move.rescued is not None:
        rank = move.rescued
        return f"{move}, a rescue of {whose} {rank.title} ({labels.label(rank)}) onto {move.to}"
    if move is not None and move.is_decline:
        return "--, declining the Rescue"
    return str(move)


def _why_no_rescue(state: GameState) -> str:
    """Why the Rescue decision due in `state` (the person's own) may only be declined, as
    the Rescue rule says it (`stratego.rescue.Rescue.only_decline`)."""
    component = rescue_component(state.rules)
    why = component.only_decline(rescue_facts(state)) if component is not None else None
    return why or "none of your captured pieces may come back (a Bomb is never rescued)"


def _history(seen: PlayerView, person: Player) -> str:
    """The moves and strikes of the game so far, as the person saw them (the view's
    history: nothing it hides), one turn a line."""
    if not seen.history:
        return "History: no move yet."
    labels = seen.rules.labels
    lines = ["History (ply, who, move; what each strike showed):"]
    for ply in seen.history:
        mine = ply.player == person
        if ply.move is None:
            text = f"a rescue onto {ply.to}"
        else:
            text = _rescue_text(ply.move, "your" if mine else "its", labels)
        strike = _strike_text(ply, person, labels)
        lines.append(fill(f"{ply.ply + 1:>4} {'you' if mine else 'bot'}: {text}"
                          + (f"; {strike}" if strike else ""), indent="       "))
    return "\n".join(lines)


def _why_illegal(state: GameState, move: Move, person: Player) -> str:
    """Why `move` is illegal (`explain_illegal` names no rank of an opponent's piece)."""
    return explain_illegal(state, move) or f"{move} is not legal here"


def _report_strike(state: GameState, person: Player) -> None:
    """Print what the last strike showed the person, if the last move struck."""
    from stratego.views import view

    seen = view(state, person)
    if not seen.history:
        return
    text = _strike_text(seen.history[-1], person, state.rules.labels)
    if text:
        print(fill(f"{_cap(text)}."))


def _strike_text(last: SeenPly, person: Player, labels: RankLabels) -> str | None:
    """What the strike of the seen ply `last` showed the person (``strike on a6: your
    Captain (6) strikes the bot's Sergeant (4): the attacker wins``), None for no
    strike."""
    if last.defender is None or last.result is None:
        return None

    def name(rank: Rank | None, owner: Player) -> str:
        whose = "your" if owner == person else "the bot's"
        if rank is None:
            return f"{whose} piece"
        return f"{whose} {rank.title} ({labels.label(rank)})"

    attacker = name(last.rank, last.player)
    defender = name(last.defender_rank, last.player.opponent)
    result = {"attacker": "the attacker wins", "defender": "the defender wins",
              "both": "both are removed"}.get(last.result, last.result)
    where = f" on {last.to}" if last.to is not None else ""
    return f"strike{where}: {attacker} strikes {defender}: {result}"
