"""No public function crashes with a bare built-in error on bad arguments.

Every public function and method is called with values of the wrong type and with values
out of range: it returns, or raises the library's own error (a `StrategoError`), or a
`TypeError` for a value of the wrong type (a missing argument included), or `OSError` for a
path that is not a file; never a bare `IndexError`, `KeyError`, `AttributeError` or
`_csv.Error`. Messages that echo input are cut to a readable length.
"""

from __future__ import annotations

import csv
import enum
import inspect
import itertools
import pathlib
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import stratego
from stratego import CLASSIC, GameState, InvalidNotationError, Player, StrategoError, gravon
from stratego.bots.specs import BOT_MODULES

ODD: list[Any] = [None, -1, 99, 10**30, 1.5, True, "", "zz", "x" * 1_000_000, b"\xff", [], {},
                  (), object(), Player.BLUE, CLASSIC]
"""Wrong types and out-of-range values."""

MODULES = ["board", "pieces", "moves", "rules", "strike", "editions", "variants", "setups",
           "human_setups", "state", "engine", "explain", "validation", "views", "view_json",
           "sampling", "encoding", "notation", "records", "gravon", "text", "svg", "bots",
           "arguments", "match", "arena", "protocol", "beliefs", "setup_model", "rescue",
           "repetition", "movement", "bots.race", "bots.raids", "bots.walls", "bots.traps",
           "bots.exposure", "bots.draws", "bots.specs", "bots.playouts", "nn",
           "bots.heuristic", "bots.base", "bots.program", "bots.learned", "env", "vector",
           "openspiel", "ray", "web"]
SKIP = {
    "stratego.human_setups.human_setups",  # reads package data; checked in its own tests
    "stratego.match.run_tasks",  # runs the callables it is given (test_api_arguments.py)
    "stratego.protocol.serve_bot",  # reads standard input until it ends
    "stratego.protocol.main",  # the same, as a program
    "stratego.web.run",  # serves until stopped
    "stratego.ray.RayExecutor()",  # starts Ray for a good value (test_ray_checks_num_cpus)
}


def _state(rules: stratego.Rules = CLASSIC) -> GameState:
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, 1),
                              stratego.random_setup(rules, Player.BLUE, 2))
    for _ in range(12):
        state = stratego.apply(state, stratego.legal_moves(state)[0])
    return state


def _lookup(kind: type[enum.Enum]) -> Callable[[Any], Any]:
    def lookup(value: Any) -> Any:
        return kind(value)

    lookup.__qualname__ = kind.__qualname__
    return lookup


def _public_callables() -> list[tuple[str, Callable[..., Any]]]:
    import importlib

    state = _state()
    view = stratego.view(state, Player.RED)
    found: dict[str, Callable[..., Any]] = {}
    for name in MODULES:
        try:
            module = importlib.import_module(f"stratego.{name}")
        except ImportError:
            continue
        for attr in getattr(module, "__all__", []):
            try:
                value = getattr(module, attr)
            except ImportError:  # a name imported on first use, its extra missing
                continue
            if inspect.isfunction(value) or inspect.isfunction(getattr(value, "__wrapped__",
                                                                         None)):
                found[f"stratego.{name}.{attr}"] = value  # functools.cache's wrappers too
            elif inspect.isclass(value) and not issubclass(value, BaseException):
                # the constructor (an enum's lookup by value: two arguments would ask
                # Python's functional API for a new enum)
                found[f"stratego.{name}.{attr}()"] = (
                    _lookup(value) if issubclass(value, enum.Enum) else value)
                for meth_name, meth in vars(value).items():
                    if meth_name.startswith("_") or not (callable(meth) or isinstance(
                            meth, classmethod)):  # a classmethod object is no callable
                        continue
                    if isinstance(meth, classmethod | staticmethod):
                        found[f"{value.__name__}.{meth_name}"] = getattr(value, meth_name)
    instances = {"GameState": state, "PlayerView": view, "Setup": stratego.random_setup(
        CLASSIC, Player.RED, 3), "Rules": CLASSIC, "Move": stratego.Move.parse("a4-a5"),
        "Square": stratego.Square.parse("c5"), "RandomBot": stratego.RandomBot(1),
        "HeuristicBot": stratego.HeuristicBot(1),
        "SearchBot": stratego.bots.SearchBot(1, simulations=5),
        "Beliefs": stratego.beliefs.Beliefs(view), "Sampler": stratego.Sampler(view),
        "SetupPrior": stratego.beliefs.setup_prior(CLASSIC)}
    from stratego.bots.exposure import exposure
    from stratego.bots.race import plan_race
    from stratego.bots.raids import flag_raids
    from stratego.bots.walls import watch_walls
    from stratego.match import Score
    from stratego.movement import movement_component
    from stratego.rescue import rescue_component

    instances.update(
        Army=CLASSIC.army, Movement=CLASSIC.movement, RepetitionRule=CLASSIC.repetition,
        GameRecord=stratego.record_from_state(state), Score=Score("search", 3, 1, 2),
        RacePlan=plan_race(view), Raids=flag_raids(view), WallWatch=watch_walls(view),
        Exposure=exposure(view),
        Rescue=rescue_component(stratego.editions.by_name("hasbro-2009+rescue")),
        MovementComponent=movement_component(CLASSIC),
        GravonGame=gravon.game_from_state(state))
    from stratego.arena import Rating
    from stratego.bots.playouts import Answers, Playouts, PublicCounts

    shuttle, chase = stratego.ISF.repetition.components()
    instances.update(Playouts=Playouts(), PublicCounts=PublicCounts(state), Answers=Answers(),
                     BackAndForth=shuttle, Chase=chase)

    instances.update(
        Outcome=stratego.Outcome(stratego.Termination.FLAG_CAPTURED, Player.RED),
        Rating=Rating(1500.0, 1400.0, 1600.0, 10, 6.5),
        MatchResult=stratego.play_match(CLASSIC, "random", "random", games=2, seed=1,
                                         max_plies=40))
    try:  # the networks and the web game's store and hub, when their extras are installed
        from stratego.nn import learned_weights, load
        from stratego.web import GameHub, GameStore

        instances.update(Network=load(learned_weights("policy-classic")),
                         GameStore=GameStore(":memory:"), GameHub=GameHub(bot="random"))
    except ImportError:
        pass
    try:  # the OpenSpiel bridge's Python methods, when its extra is installed
        from stratego.openspiel import StrategoGame

        game = StrategoGame()
        spiel_state = game.new_initial_state()
        while spiel_state.is_chance_node():
            spiel_state.apply_action(spiel_state.chance_outcomes()[0][0])
        instances.update(StrategoGame=game, StrategoState=spiel_state,
                         StrategoObserver=game.make_py_observer())
    except ImportError:
        pass
    try:  # the Gymnasium and PettingZoo environments and the batched engine
        from stratego.env import StrategoAECEnv, StrategoEnv
        from stratego.vector import Batch

        single, aec, batch = StrategoEnv(), StrategoAECEnv(), Batch.new(CLASSIC, 2, seed=1)
        single.reset(seed=1)
        aec.reset(seed=1)
        instances.update(StrategoEnv=single, StrategoAECEnv=aec, Batch=batch)
    except ImportError:
        pass
    for cls_name, obj in instances.items():
        for meth_name in dir(obj):
            if meth_name.startswith("_"):
                continue
            attribute = inspect.getattr_static(obj, meth_name)
            if inspect.isfunction(attribute) and attribute.__module__.startswith("stratego"):
                # the library's own methods, not those a base class of another library
                # (gymnasium's Env, PettingZoo's AECEnv) brings
                found[f"{cls_name}().{meth_name}"] = getattr(obj, meth_name)
    return sorted((k, v) for k, v in found.items() if k not in SKIP)


CALLABLES = _public_callables()

_STATE = _state()
GOOD: dict[str, Any] = {
    "GameState": _STATE, "PlayerView": stratego.view(_STATE, _STATE.to_move),
    "Rules": CLASSIC, "Player": Player.RED, "Rank": stratego.Rank.CAPTAIN,
    "Move": stratego.legal_moves(_STATE)[0], "Square": stratego.Square.parse("c5"),
    "Setup": stratego.random_setup(CLASSIC, Player.RED, 3), "int": 1, "float": 0.5,
    "bool": True, "str": "classic"}
"""A good value of each type a parameter may be annotated with (by its name)."""

ODD += [GOOD["PlayerView"], GOOD["GameState"]]  # where the other belongs, the likeliest mix-up


@pytest.mark.parametrize(("name", "function"), CALLABLES, ids=[n for n, _ in CALLABLES])
def test_bad_arguments_raise_library_errors(name: str, function: Callable[..., Any],
                                            tmp_path: pathlib.Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a path among the odd values makes no file in the checkout
    try:
        every = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        every = []
    params = [p for p in every if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    options = [p for p in every if p.kind is p.KEYWORD_ONLY]
    arity = max(1, min(len(params), 3))
    for value in ODD:
        for count in range(1, arity + 1):
            for args in itertools.islice(itertools.product([value, *ODD[:3]], repeat=count), 4):
                message = _error_of(function, args)
                assert len(message) < 2_000, f"{name}: {len(message)} characters echoed"
    # one odd value among good ones: each argument checked, not only the first
    good = [_good(p) for p in params[:4]]
    for position in range(len(good)):
        if any(g is _NONE for g in good[:position]):
            break
        for value in ODD:
            message = _error_of(function, (*good[:position], value))
            assert len(message) < 2_000, f"{name}: {len(message)} characters echoed"
    # each keyword-only option odd, the positional arguments good
    required = [g for g, p in zip(good, params, strict=False) if p.default is p.empty]
    if len(required) == len([p for p in params if p.default is p.empty]) and not any(
            g is _NONE for g in required):
        for option in options:
            for value in ODD:
                message = _error_of(function, tuple(required), {option.name: value})
                assert len(message) < 2_000, f"{name}: {len(message)} characters echoed"


_NONE = object()
"""No good value known for a parameter."""


def _good(parameter: inspect.Parameter) -> Any:
    """A value `parameter` takes: its default, else a sample of its annotated type (the
    first of a union), else `_NONE`."""
    if parameter.default is not parameter.empty:
        return parameter.default
    annotation = parameter.annotation
    if not isinstance(annotation, str):
        annotation = getattr(annotation, "__name__", "")
    head = annotation.split("|")[0].split("[")[0].strip().rsplit(".", 1)[-1]
    return GOOD.get(head, _NONE)


def _error_of(function: Callable[..., Any], args: tuple[Any, ...],
              keywords: dict[str, Any] | None = None) -> str:
    """The message of the library error (or TypeError) `function(*args)` raises, "" when it
    returns or raises OSError; a bare IndexError, KeyError, AttributeError, csv.Error or any
    other exception fails the test."""
    try:
        made = function(*args, **(keywords or {}))
        if callable(getattr(made, "close", None)):
            made.close()  # a store or log opened with good arguments
    except (IndexError, KeyError, AttributeError, csv.Error) as exc:
        raise AssertionError(f"{function.__qualname__}{args!r:.200} {keywords!r:.100}: bare "
                             f"{type(exc).__name__}: {exc!s:.200}") from exc
    except (StrategoError, TypeError) as exc:
        return str(exc)
    except OSError:
        pass
    return ""


# -- the cases found by hand ----------------------------------------------------------------

def test_known_ranks_refuses_ids_out_of_range() -> None:
    """`known_ranks(99)` raised IndexError and `known_ranks(-1)` read the last piece."""
    state = _state()
    for bad in (99, -1, 0, len(state.all_pieces()) + 1):
        with pytest.raises(InvalidNotationError, match=f"no piece with id {bad}"):
            state.known_ranks(bad)
        with pytest.raises(InvalidNotationError):
            state.has_moved(bad)
        with pytest.raises(InvalidNotationError):
            state.square_of(bad)
    other = stratego.Piece(3, Player.BLUE, stratego.Rank.MARSHAL)
    with pytest.raises(InvalidNotationError, match="not a piece of this game"):
        state.is_revealed(other)
    assert state.known_ranks(state.all_pieces()[0]) == state.known_ranks(1)


def test_gravon_csv_reader_wraps_csv_errors(tmp_path: pathlib.Path) -> None:
    """A malformed CSV row (here a field over the csv module's size limit) is given with an
    InvalidNotationError naming the file and line, not _csv.Error, and the reading goes
    on."""
    path = tmp_path / "games.csv"
    header = ",".join(gravon.CSV_COLUMNS)
    path.write_text(f"{header}\n\"{'x' * (csv.field_size_limit() + 1)}\",x\n",
                    encoding="utf-8")
    [(row, error)] = list(gravon.read_csv_games(path))
    assert row.line == 2
    assert isinstance(error, InvalidNotationError)
    assert str(error).startswith("games.csv line 2 (no game id): not a CSV row")


@pytest.mark.parametrize("names", [("alice vs bob", "carol"), ("dave", "line\nbreak"),
                                   ("back\\slash", " vs "), ("", "x\r\ny\u2028z"),
                                   (" padded ", "tab\t")])
def test_gravon_player_names_round_trip(names: tuple[str, str]) -> None:
    """Names with " vs ", line breaks, backslashes or spaces at the ends survive both forms."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    state = stratego.apply(state, stratego.legal_moves(state)[0])
    game = gravon.game_from_state(state, players=names, result_type=3, winner=Player.RED)
    assert gravon.parse_game_text(game.to_text()).players == names
    if names == tuple(n.strip() for n in names):
        assert gravon.parse_game_xml(game.to_xml()).players == names


def test_odd_players_and_start_methods_are_refused_by_name() -> None:
    """A text for Gravon's two players was kept, and written as five <player> elements the
    reader refuses; an unknown start method reached multiprocessing's bare ValueError."""
    from stratego.errors import ArgumentError

    state = _state()
    with pytest.raises(ArgumentError, match="players are two names"):
        gravon.game_from_state(state, "alice")  # type: ignore[arg-type]
    named = gravon.game_from_state(state, ["ann", "bob"])  # type: ignore[arg-type]
    assert named.players == ("ann", "bob")  # a list of two names is two names
    with pytest.raises(ArgumentError, match="type and board are texts, not 5 and 5"):
        gravon.GravonGame(5, 5)  # type: ignore[arg-type]
    for workers in (2, 1):  # one worker starts no process, but the call is as wrong
        with pytest.raises(ArgumentError, match=r"start_method is one of .*not 'bogus'"):
            stratego.play_match(CLASSIC, "random", "random", games=2, seed=1, max_plies=10,
                                workers=workers, start_method="bogus")
    with pytest.raises(ArgumentError, match=r"start_method is one of .*not \['spawn'\]"):
        stratego.play_match(CLASSIC, "random", "random", games=1, max_plies=10,
                            start_method=["spawn"])  # type: ignore[arg-type]


def test_heuristic_bot_refuses_an_inconsistent_view() -> None:
    """A view whose legal moves start on squares without the player's pieces (or that is
    not a view) raises StrategoError instead of crashing with KeyError."""
    state = _state()
    view = stratego.view(state, state.to_move)
    empty, target = next(
        (sq, n) for sq in stratego.SQUARES for n in sq.neighbours()
        if not sq.is_lake and view.piece_at(sq) is None and view.piece_at(n) is None)
    broken = attrs.evolve(view, legal_moves=(stratego.Move(empty, target),))
    bot = stratego.HeuristicBot(seed=1)
    with pytest.raises(StrategoError, match="inconsistent view"):
        bot(broken)
    with pytest.raises(StrategoError, match="not a player's view"):
        bot("view")  # type: ignore[arg-type]
    assert bot(view) in view.legal_moves


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=[pytest.mark.extra(BOT_MODULES[name])] if name in BOT_MODULES
                 else []) for name in sorted(stratego.bots.BOTS)])  # numpy: module and extra
def test_every_bot_refuses_what_is_not_a_view(name: str) -> None:
    """A bot sees a player's view, never the state (the hidden-information guarantee):
    handed a `GameState`, or anything else that is not a `PlayerView`, every registered bot
    raises ArgumentError (with a pointer to `stratego.view` for a state) instead of
    crashing with AttributeError; the view of the player not to move has no legal move
    to choose from."""
    bot = stratego.bots.make_bot(name, seed=1)
    state = _state(getattr(bot, "rules", CLASSIC))  # a network's own edition
    with pytest.raises(stratego.ArgumentError, match=r"not a player's view.*stratego\.view"):
        bot(state)  # type: ignore[arg-type]
    for odd in ODD[:16:3]:
        with pytest.raises(stratego.ArgumentError, match="not a player's view"):
            bot(odd)
    waiting = stratego.view(state, state.to_move.opponent)
    with pytest.raises(stratego.ArgumentError, match="no legal move to choose from"):
        bot(waiting)
    seen = stratego.view(state, state.to_move)
    assert bot(seen) in seen.legal_moves


def test_search_bot_remember_checks_its_move() -> None:
    """`SearchBot.remember` takes a move of the view, as a `Move` or its text; anything
    else raises the library's error naming it."""
    state = _state()
    seen = stratego.view(state, state.to_move)
    bot = stratego.bots.SearchBot(1, simulations=10)
    with pytest.raises(InvalidNotationError, match="not a move: 'zz'"):
        bot.remember(seen, "zz")
    with pytest.raises(stratego.IllegalMoveError, match="cannot play j10-j9 in this view"):
        bot.remember(seen, "j10-j9")
    with pytest.raises(stratego.ArgumentError, match="not a player's view"):
        bot.remember(state, stratego.legal_moves(state)[0])  # type: ignore[arg-type]
    bot.remember(seen, str(seen.legal_moves[0]))
    bot.remember(seen, seen.legal_moves[0])


def test_messages_cut_echoed_input() -> None:
    """A megabyte of bad input is named, not repeated."""
    huge = "x" * 1_000_000
    for call in (lambda: stratego.Square.parse(huge), lambda: stratego.Move.parse(huge),
                 lambda: stratego.parse_position(huge), lambda: stratego.Player(huge),  # type: ignore[arg-type]
                 lambda: stratego.editions.by_name(huge), lambda: gravon.rules_for_game_type(huge)):
        with pytest.raises(StrategoError) as info:
            call()
        assert len(str(info.value)) < 500


@pytest.mark.extra("ray")
def test_ray_checks_num_cpus_before_it_starts() -> None:
    """`RayExecutor(task_cpus=...)`, and ``num_cpus`` (alone the old name of `task_cpus`,
    beside it ``ray.init``'s), refuse a count that is no number >= 0 with the library's
    error, before it starts Ray (Ray's own check raised a bare ValueError after
    starting it)."""
    import ray

    from stratego.ray import RayExecutor

    running = ray.is_initialized()  # another test may have started it
    for bad in (-1, "2", None, True, float("nan"), float("inf")):
        with pytest.raises(stratego.ArgumentError, match="num_cpus must be a number >= 0"):
            RayExecutor(num_cpus=bad)
        if bad is not None:  # None is task_cpus's default
            with pytest.raises(stratego.ArgumentError, match="task_cpus must be a number >= 0"):
                RayExecutor(task_cpus=bad)  # type: ignore[arg-type]
            with pytest.raises(stratego.ArgumentError, match="num_cpus must be a number >= 0"):
                RayExecutor(task_cpus=1, num_cpus=bad)
    assert ray.is_initialized() is running


def test_raised_messages_cut_what_they_echo() -> None:
    """No message the library raises echoes a value through ``!r`` (which repeats a
    megabyte of input in full): it goes through `stratego.errors.shown`. Constants and a
    module's attribute name (``__getattr__``) are the exceptions."""
    import ast

    allowed = {"SCHEMA", "__name__", "name", "kind"}
    found = []
    root = pathlib.Path(stratego.__file__).parent
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            for part in ast.walk(node.exc):
                if (isinstance(part, ast.FormattedValue) and part.conversion == ord("r")
                        and not (isinstance(part.value, ast.Name)
                                 and part.value.id in allowed)):
                    found.append(f"{path.relative_to(root)}:{part.lineno}")
    assert not found, f"messages echo with !r instead of shown(): {found}"


@pytest.mark.parametrize("move", ["zz", "e5-e6", 42, None])
def test_is_legal_checks_the_state_whatever_the_move(move: object) -> None:
    """`is_legal(None, "zz")` returned False: a move that is no move was looked at before
    the state. The state is checked first, so anything but a state raises `ArgumentError`
    as the docstring says, whatever the move; a real state still answers False."""
    from stratego.errors import ArgumentError

    for state in (None, "state"):
        with pytest.raises(ArgumentError, match="not a game state"):
            stratego.is_legal(state, move)  # type: ignore[arg-type]
    assert stratego.is_legal(_state(), move) is False  # type: ignore[arg-type]
