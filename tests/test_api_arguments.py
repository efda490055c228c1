"""One argument convention for the entry points, and only the library's errors on bad input.

The convention (`stratego.arguments`): rules are a `Rules` value or a rules name; bots an
object, a name or a spec, checked when given; a seed an int or None; one default ply limit
for bot games (`DEFAULT_MAX_PLIES`). The property: every public entry point of the bot
games (`play_game`, `play_match`, `play_seated`, `ladder`, `fit_ratings`, `BotSpec`,
`make_bot`) and every function of ``stratego.__all__``, given a wrong type or value for any
one argument (the others right), returns or raises a `StrategoError`, never a bare
built-in exception.
"""

from __future__ import annotations

import contextlib
import inspect
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stratego
from stratego import CLASSIC, ArgumentError, Player, RulesError, StrategoError
from stratego.arena import fit_ratings, ladder
from stratego.arguments import (
    DEFAULT_MAX_PLIES,
    limited_rules,
    random_from,
    rules_from,
    seed_from,
    seed_sequence,
    seeded_random,
)
from stratego.bots import RandomBot, make_bot
from stratego.errors import BotSpecError, SetupError
from stratego.match import BotSpec, GameResult, MatchResult, play_game, play_match, play_seated

odd_values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.integers(2**70, 2**80),
    st.floats(allow_nan=True), st.text(max_size=12), st.binary(max_size=4),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                         max_size=2),
    st.just(object()), st.just(Player.BLUE), st.just(CLASSIC), st.just(RandomBot(1)),
    st.just("x" * 10_000), st.just(("random", "random")), st.just(print),
)
"""Wrong types and out-of-range values (and some right ones: an entry point may accept them)."""

_GAME = GameResult(1, "random", "heuristic", Player.BLUE, "flag captured", 40)

ENTRY_POINTS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "play_game": (play_game, {"rules": "classic", "red_bot": "random", "blue_bot": "random",
                              "seed": 1, "max_plies": 6, "keep_state": False,
                              "setups": "random"}),
    "play_match": (play_match, {"rules": "classic", "red_bot": "random",
                                "blue_bot": RandomBot(2), "games": 1, "seed": 1,
                                "max_plies": 6, "swap_colours": True, "progress": None,
                                "workers": 1, "executor": None, "chunk_size": None,
                                "record": False, "setups": "random"}),
    "play_seated": (play_seated, {"rules": CLASSIC, "bots": ["random", "random"],
                                  "names": ("a", "b"), "seed": 1, "swapped": False,
                                  "max_plies": 6, "setups": "random", "keep_state": False}),
    "ladder": (ladder, {"bots": ["random", "random"], "rules": "classic",
                        "games_per_pair": 1, "seed": 1, "max_plies": 6, "workers": 1,
                        "executor": None, "names": None, "move_time": None,
                        "setups": "random", "anchor": "random", "progress": None}),
    "fit_ratings": (fit_ratings, {"names": ["random", "heuristic"], "games": [_GAME],
                                  "anchor": "random", "prior_draws": 1.0, "pairs": None}),
    "BotSpec": (BotSpec, {"factory": "random", "options": {}}),
    "make_bot": (make_bot, {"name": "random", "seed": 1}),
    "rules_from": (rules_from, {"value": "classic+barrage"}),
    "seed_from": (seed_from, {"value": 1}),
    "limited_rules": (limited_rules, {"rules": CLASSIC, "max_plies": 6}),
}
"""Each entry point and right values for each of its arguments (games kept short)."""

COUNTS = {("play_match", "games")}
"""Arguments whose huge values are right and would take for ever (a match of 2**70 games):
given small ints only."""

CASES = [(name, argument) for name, (_, good) in ENTRY_POINTS.items() for argument in good]


def _call(function: Callable[..., Any], arguments: dict[str, Any]) -> None:
    positional = [p.name for p in inspect.signature(function).parameters.values()
                  if p.kind is p.POSITIONAL_OR_KEYWORD]
    args = [arguments[name] for name in positional if name in arguments]
    kwargs = {k: v for k, v in arguments.items() if k not in positional}
    with contextlib.suppress(StrategoError):
        function(*args, **kwargs)


@pytest.mark.parametrize(("entry", "argument"), CASES, ids=[f"{e}-{a}" for e, a in CASES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=odd_values)
def test_a_wrong_argument_raises_a_library_error(entry: str, argument: str,
                                                 value: Any) -> None:
    function, good = ENTRY_POINTS[entry]
    if (entry, argument) in COUNTS and isinstance(value, int) and value > 3:
        value = 3
    _call(function, {**good, argument: value})


TOP_LEVEL = sorted(name for name in stratego.__all__
                   if inspect.isfunction(getattr(stratego, name)))


def _arity(function: Callable[..., Any]) -> int:
    return sum(1 for p in inspect.signature(function).parameters.values()
               if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               and p.default is p.empty)


@pytest.mark.parametrize("name", TOP_LEVEL)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_top_level_functions_raise_library_errors(name: str, data: st.DataObject) -> None:
    """Every function of ``stratego.__all__`` given wrong values for all its required
    arguments (fewer would be Python's own `TypeError` for a missing argument)."""
    function = getattr(stratego, name)
    args = [data.draw(odd_values) for _ in range(_arity(function))]
    with contextlib.suppress(StrategoError):
        function(*args)


def test_the_top_level_list_covers_the_entry_points() -> None:
    assert {"new_game", "play_game", "play_match", "apply", "view"} <= set(TOP_LEVEL)


# -- the calls that must work -------------------------------------------------------------

def test_rules_and_bots_by_name_everywhere() -> None:
    """``play_game("classic", "random", "heuristic")`` plays, as `play_match` and the
    ladder do, under the default ply limit."""
    game = play_game("classic", "random", "heuristic", seed=3)
    assert game.plies <= DEFAULT_MAX_PLIES
    assert (game.red, game.blue) == ("random", "heuristic")
    assert game == play_game(CLASSIC, RandomBot(), BotSpec("heuristic"), seed=3)
    match = play_match("classic+barrage", "random", "random", games=2, seed=1, max_plies=50)
    assert isinstance(match, MatchResult)
    assert match.rules.name == "classic+barrage"
    rated = ladder(["random", RandomBot(4)], "classic", games_per_pair=2, max_plies=20)
    assert rated.names == ("random-1", "random-2")


def test_the_default_ply_limit_is_one_constant() -> None:
    for function in (play_game, play_match, play_seated, ladder):
        default = inspect.signature(function).parameters["max_plies"].default
        assert default == DEFAULT_MAX_PLIES, function.__name__
    from stratego.cli.parser import build_parser

    args = build_parser().parse_args(["match"])
    assert args.max_plies == DEFAULT_MAX_PLIES


def test_a_misspelt_bot_is_refused_at_once_with_the_close_matches() -> None:
    for call in (lambda: BotSpec("serch"), lambda: play_game(CLASSIC, "serch", "random"),
                 lambda: play_match(CLASSIC, "random", "heuristc", games=0),
                 lambda: ladder(["random", "serch"], games_per_pair=0),
                 lambda: make_bot("serch")):
        with pytest.raises(BotSpecError, match=r"did you mean '(search|heuristic)'"):
            call()


@pytest.mark.parametrize("seed", ["x", True, 1.5, [1]])
def test_a_seed_is_an_int_or_none(seed: object) -> None:
    with pytest.raises(ArgumentError, match="seed must be a whole number or None"):
        play_match(CLASSIC, "random", "random", games=1, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="seed must be a whole number or None"):
        play_game(CLASSIC, "random", "random", seed=seed)  # type: ignore[arg-type]


def test_a_seed_of_none_is_drawn_and_kept() -> None:
    """None draws a fresh seed, kept in the result, which replays the game."""
    game = play_game(CLASSIC, "random", "random", seed=None, max_plies=30)
    assert game == play_game(CLASSIC, "random", "random", seed=game.seed, max_plies=30)
    with pytest.raises(ArgumentError, match="needs a seed"):
        play_match(CLASSIC, "random", "random", games=1, seed=None, jsonl="never.jsonl")


@pytest.mark.parametrize("rules", [5, None, b"classic", ["classic"]])
def test_rules_are_a_rules_value_or_a_name(rules: object) -> None:
    with pytest.raises(RulesError, match="rules are a Rules value or a rules name"):
        play_match(rules, "random", "random", games=1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown edition 'clasic'"):
        play_game("clasic", "random", "random")


def test_a_file_name_is_a_text_or_a_path() -> None:
    """A number would name an open file descriptor: refused."""
    with pytest.raises(ArgumentError, match="jsonl must be a file name"):
        play_match(CLASSIC, "random", "random", games=1, jsonl=3)  # type: ignore[arg-type]


def test_a_file_name_no_file_system_holds_is_refused_by_every_reader() -> None:
    """A NUL character, a lone surrogate or None, given as the file to read: an
    ArgumentError naming the reader, not the ValueError, UnicodeEncodeError or TypeError
    of `open`."""
    from stratego import gravon
    from stratego.match import read_jsonl

    readers: list[Callable[[Any], object]] = [
        read_jsonl, gravon.read_game_file, lambda p: list(gravon.read_csv_games(p)),
        lambda p: list(gravon.read_setup_lines(p, CLASSIC))]
    with contextlib.suppress(ImportError):
        from stratego import nn

        readers.append(nn.load)
    for read in readers:
        for bad in ("game\x00.txt", "\ud800.txt", None):
            with pytest.raises(ArgumentError):
                read(bad)
    with pytest.raises(ArgumentError, match="cannot hold a NUL character"):
        gravon.read_game_file("game\x00.txt")
    with pytest.raises(ArgumentError, match="not a name the file system can hold"):
        read_jsonl("\ud800.txt")


def test_a_reader_that_needs_a_file_offers_no_none() -> None:
    """A reader refuses None ("needs a file name"), so its refusal of a number does not
    offer None as a file name either."""
    from stratego import gravon

    with pytest.raises(ArgumentError, match=r"^read_game_file's path must be a file name "
                                            r"\(a text or a path\), not 5$"):
        gravon.read_game_file(5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"^read_game_file needs a file name, not None$"):
        gravon.read_game_file(None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"jsonl must be a file name \(a text or a path\) "
                                            r"or None, not 3"):  # where None is taken
        play_match(CLASSIC, "random", "random", games=1, jsonl=3)  # type: ignore[arg-type]


@given(st.integers(), st.integers())
def test_seed_sequences_of_distinct_seeds_differ(one: int, two: int) -> None:
    """Invariant: every whole number names its own NumPy seed sequence, and one >= 0 names
    the sequence NumPy itself makes of it (``default_rng(seed)``)."""
    assert (seed_sequence(one) == seed_sequence(two)) == (one == two)
    entropy, key = seed_sequence(one)
    assert entropy >= 0
    assert (entropy, key) == ((one, ()) if one >= 0 else (-one, (1,)))


def _bridges_taking_rules() -> list[tuple[str, Callable[[object], object]]]:
    """The bridges and faces that take rules, each called with a given `rules` (their
    extras are part of the README's test command)."""
    for extra in ("gymnasium", "pettingzoo", "numba"):
        pytest.importorskip(extra)
    from stratego.env import StrategoAECEnv, StrategoEnv
    from stratego.nn import Network
    from stratego.vector.env import BatchVectorEnv
    from stratego.web.hub import GameHub

    arrays = Network.random(CLASSIC, seed=1).arrays()
    return [
        ("StrategoEnv", lambda rules: StrategoEnv(rules)),
        ("StrategoAECEnv", lambda rules: StrategoAECEnv(rules)),
        ("BatchVectorEnv", lambda rules: BatchVectorEnv(2, rules)),
        ("Network", lambda rules: Network(arrays, rules)),
        ("GameHub", lambda rules: GameHub(rules)),
    ]


@pytest.mark.parametrize("rules", [5, None, b"classic"])
def test_every_bridge_refuses_what_is_not_rules_with_one_message(rules: object) -> None:
    """The environments, the networks and the web game take rules as `play_match` does:
    a `Rules` value or a name, anything else a `RulesError` with the same message."""
    for name, build in _bridges_taking_rules():
        with pytest.raises(RulesError, match="rules are a Rules value or a rules name"):
            build(rules)
        with pytest.raises(RulesError, match="unknown edition 'clasic'"):
            build("clasic")
        assert build("classic") is not None, name


@given(st.integers())
def test_a_random_source_is_a_generator_a_seed_or_none(seed: int) -> None:
    """Invariant: a generator is drawn from as it is, a seed gives the generator
    `seeded_random` gives (`random.Random`'s for a seed >= 0); anything else raises the
    caller's error, naming the caller."""
    rng = random.Random(seed)
    assert random_from(rng, "f") is rng
    assert random_from(seed, "f").random() == seeded_random(seed).random()
    if seed >= 0:
        assert seeded_random(seed).random() == random.Random(seed).random()
    assert isinstance(random_from(None, "f"), random.Random)
    for bad in ([seed], {seed: 1}, object()):
        with pytest.raises(ArgumentError, match=r"^f needs a random\.Random, a seed"):
            random_from(bad, "f")
        with pytest.raises(SetupError, match=r"^g needs a random\.Random"):
            random_from(bad, "g", SetupError)


@given(st.integers(), st.integers())
def test_distinct_seeds_name_distinct_random_streams(one: int, two: int) -> None:
    """Invariant: as `seed_sequence` on the NumPy side, no seed stands for another in the
    `random.Random` streams of the random sources and the bots: ``-7`` is not ``7``, which
    `random.Random` alone would make it."""
    def draws(seed: int) -> list[int]:
        rng = seeded_random(seed)
        return [rng.getrandbits(64) for _ in range(2)]

    assert (draws(one) == draws(two)) == (one == two)
    assert draws(-abs(one) - 1) != draws(abs(one) + 1)


def test_a_negative_seed_is_not_its_absolute_value_for_setups_and_bots() -> None:
    """The library's seeded draws (a random setup, a bot's choices) differ for ``-s`` and
    ``s``, and a NumPy integer seed is its int."""
    np = pytest.importorskip("numpy")
    from stratego.bots import HeuristicBot, SearchBot

    for seed in (1, 7, 2**40):
        setup = stratego.random_setup(CLASSIC, Player.RED, seed)
        assert stratego.random_setup(CLASSIC, Player.RED, -seed) != setup
        assert stratego.random_setup(CLASSIC, Player.RED, np.int64(seed)) == setup
    for make in (RandomBot, HeuristicBot, lambda seed: SearchBot(seed, simulations=4)):
        assert _moves_played(make(5)) == _moves_played(make(5))
        assert _moves_played(make(5)) != _moves_played(make(-5)), make


def _moves_played(bot: Any, plies: int = 24) -> list[str]:
    """The moves `bot` plays for both sides over the first `plies` plies of one game."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    played = []
    for _ in range(plies):
        move = bot(stratego.view(state, state.to_move))
        played.append(str(move))
        state = stratego.apply(state, move)
    return played


@pytest.mark.parametrize("seed", ["\ud800", [1], 2.5, "seven"])
def test_every_library_bot_takes_a_whole_seed_or_none(seed: object) -> None:
    """A bot's seed is a whole number or None, at construction and at `reset`, as the
    random bot's always was: anything else is an ArgumentError, not `random.Random`'s
    TypeError or UnicodeEncodeError (nor a text seed taken silently)."""
    from stratego.bots import HeuristicBot, SearchBot

    for bot_type in (RandomBot, HeuristicBot, SearchBot):
        with pytest.raises(ArgumentError, match="seed must be a whole number or None"):
            bot_type(seed)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match="seed must be a whole number or None"):
            bot_type(1).reset(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("option", ["depth", "candidates", "determinizations", "exploration",
                                    "prior", "weight", "wall", "raids_horizon"])
def test_a_search_option_that_needs_a_number_refuses_none(option: str) -> None:
    """Only the budget (`simulations`, `time_limit`), `commit`, `replies` and `follow` may
    be None; None for another option was taken and failed at the first move (or at once
    with float()'s TypeError)."""
    from stratego.bots import SearchBot

    with pytest.raises(ArgumentError, match=f"{option} must be a number, not None"):
        SearchBot(1, **{option: None})  # type: ignore[arg-type]
