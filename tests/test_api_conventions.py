"""One way to do one thing: the conventions every public signature follows (docs/design.md,
"Randomness: `rng` and `seed`").

- `rng` is randomness used up by the call (a setup, a sample, actions): it accepts a
  generator, an int (the seed of a fresh generator) or None (fresh randomness):
  ``random.Random | int | None`` (``np.random.Generator | int | None`` for numpy batches).
- `seed` is a value kept or recorded (a bot, a game, a match, a server, Gymnasium's
  ``reset(seed=)``): an int, or None for a fresh random one. Never a generator.
- Hooks the library calls (a bot's ``setup(rules, player, rng)``) are given a
  `random.Random`: `HOOKS` lists them.

The signatures are read from the source (no optional extra is imported), so the check runs
everywhere.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "stratego"

RNG = {"random.Random | int | None", "np.random.Generator | int | None"}
SEED = {"int", "int | None", "int | list[int] | None", "int | list[int | None] | None"}
"""`int | list[int] | None` (or with None entries): a Gymnasium vector environment's
``reset(seed=)``, one per copy."""

HOOKS = {
    ("bots/heuristic.py", "HeuristicBot.setup", "rng"),  # a bot placing its own army (`play_game`)
    ("bots/search.py", "SearchBot.setup", "rng"),  # the same hook
    ("bots/program.py", "ProgramBot.setup", "rng"),  # the same hook (a program's setup)
    ("nn/model.py", "NetworkBot.setup", "rng"),  # the same hook (a network bot's army)
    ("sampling/counting.py", "Problem.draw", "rng"),  # the sampler's own generator, per draw
}
"""(file, function, parameter) given a `random.Random` by the library that calls them."""

PENDING: set[tuple[str, str, str]] = set()
"""(file, function, parameter) still to rename (in a part of the library being changed
elsewhere); the list may only shrink."""


def public_parameters() -> list[tuple[str, str, str, str]]:
    """(file, qualified function, parameter, annotation) of every public function or method
    whose parameter names randomness (``rng``, ``seed`` or ``*_seed``/``*_rng``)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if any(part.startswith("_") and part not in ("__init__.py", "__main__.py")
               for part in rel.split("/")):
            continue

        def visit(node: ast.AST, prefix: str, rel: str = rel) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef) and not child.name.startswith("_"):
                    visit(child, f"{prefix}{child.name}.", rel)
                elif (isinstance(child, ast.FunctionDef)
                      and (not child.name.startswith("_") or child.name == "__init__")):
                    args = child.args
                    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                        name = arg.arg
                        if name in ("rng", "seed") or name.endswith(("_seed", "_rng")):
                            note = ast.unparse(arg.annotation) if arg.annotation else ""
                            found.append((rel, prefix + child.name, name, note))

        visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


PARAMETERS = public_parameters()


def test_the_checker_finds_the_parameters() -> None:
    names = {(f, fn, p) for f, fn, p, _ in PARAMETERS}
    assert ("setups.py", "random_setup", "rng") in names
    assert ("match/workers.py", "play_match", "seed") in names
    assert ("match/games.py", "game_seed", "match_seed") in names


@pytest.mark.parametrize(("path", "function", "name", "annotation"), PARAMETERS,
                         ids=[f"{f}:{fn}:{p}" for f, fn, p, _ in PARAMETERS])
def test_rng_and_seed_follow_one_convention(path: str, function: str, name: str,
                                            annotation: str) -> None:
    if (path, function, name) in HOOKS | PENDING:
        return
    if name == "rng" or name.endswith("_rng"):
        assert annotation in RNG, (
            f"{path}: {function}({name}: {annotation}): an rng accepts a generator, an int "
            "or None (see docs/design.md)")
    else:
        assert annotation in SEED, (
            f"{path}: {function}({name}: {annotation}): a seed is an int or None, never a "
            "generator: name a parameter that takes a generator `rng`")


def test_the_exceptions_are_still_needed() -> None:
    present = {(f, fn, p) for f, fn, p, _ in PARAMETERS}
    assert present >= HOOKS | PENDING
    assert all(a not in RNG for f, fn, p, a in PARAMETERS if (f, fn, p) in PENDING)


@pytest.mark.parametrize("indent", [-3, 17, 2.0, True, "2"])
def test_every_to_json_refuses_an_odd_indent_alike(indent: object) -> None:
    """The JSON forms of a state, a view and a record take the same `indent` (None or 0 to
    16 spaces) and refuse anything else with the same `ArgumentError`; a state's
    `with_history` is True, False or None."""
    from collections.abc import Callable

    import stratego
    from stratego import Player

    state = stratego.new_game("classic", stratego.random_setup("classic", Player.RED, 1),
                              stratego.random_setup("classic", Player.BLUE, 2))
    forms: list[Callable[..., str]] = [state.to_json, stratego.view(state, Player.RED).to_json,
                                       stratego.record_from_state(state).to_json]
    for to_json in forms:
        assert to_json(indent=2).startswith("{\n  ")
        with pytest.raises(stratego.ArgumentError,
                           match="indent must be None or a whole number from 0 to 16"):
            to_json(indent=indent)
    with pytest.raises(stratego.ArgumentError, match="with_history must be True, False or None"):
        state.to_json(with_history=1)  # type: ignore[arg-type]
