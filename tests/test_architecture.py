"""The layers of the library, and the rule that imports flow downward only.

| layer | modules |
| --- | --- |
| vocabulary | errors, optional, pieces, board, moves |
| rules | rules, strike, repetition, rescue, editions, variants, setups, human_setups |
| engine | state, engine, explain, validation |
| information | views, view_json, sampling, encoding |
| interchange | notation, records, gravon |
| faces | text, svg, bots, policy_bot, match, cli, __main__ |
| bridges | env, openspiel, vector, web, ray (subpackages or modules; optional extras) |

A subpackage (`stratego/web/...`) counts as one module named after it. A module may import
from its own layer and the layers above it in this table, never from a layer below. The few
imports that go the other way are made inside a function, on first use, and are listed in
`UPWARD` (a picture or JSON method on a value class of a lower layer).

No module imports another module's private (``_underscore``) names: what one module offers
another is public, documented and findable (`PRIVATE_SHARED` lists the few exceptions left).
"""

from __future__ import annotations

import ast
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "stratego"

LAYERS = [
    {"errors", "optional", "pieces", "board", "moves"},
    {"rules", "strike", "repetition", "rescue", "editions", "variants", "setups",
     "human_setups"},
    {"state", "engine", "explain", "validation"},
    {"views", "view_json", "sampling", "encoding"},
    {"notation", "records", "gravon"},
    {"text", "svg", "bots", "policy_bot", "match", "cli", "__main__"},
    {"env", "openspiel", "vector", "web", "ray"},
]

UPWARD = {
    ("state", "svg"),  # GameState._repr_svg_
    ("state", "records"),  # GameState.to_json / from_json
    ("state", "text"),  # GameState.__str__
    ("views", "svg"),  # PlayerView._repr_svg_
}
"""(importer, imported) pairs allowed to point to a later layer, inside a function only.

Each is a convenience method on a value class of a lower layer (`GameState`, `PlayerView`)
that Python's protocols or users look up on the value itself (`_repr_svg_` for notebooks,
`str()`, `state.to_json()`), so it cannot live in the layer that does the work; it only
forwards to that layer's public function (`board_svg`, `board_text`, `state_to_json`), which
callers may use directly. docs/design.md says the same.
"""


def layer_of(module: str) -> int:
    for index, names in enumerate(LAYERS):
        if module in names:
            return index
    raise AssertionError(f"module {module!r} is in no layer: add it to LAYERS")


def imports(path: pathlib.Path) -> list[tuple[str, bool]]:
    """(imported stratego module, imported at module level?) for each import in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = top and not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue  # annotations only
            if isinstance(child, ast.ImportFrom) and child.module:
                if child.module.startswith("stratego."):
                    found.append((child.module.split(".")[1], top))
                elif child.module == "stratego":
                    found.extend((alias.name, top) for alias in child.names
                                 if (SRC / f"{alias.name}.py").exists()
                                 or (SRC / alias.name).is_dir())
            elif isinstance(child, ast.Import):
                found.extend((alias.name.split(".")[1], top) for alias in child.names
                             if alias.name.startswith("stratego."))
            visit(child, inner)

    visit(tree, True)
    return found


def _files(module: str) -> list[pathlib.Path]:
    """The source files of a top-level module or of every file of a subpackage."""
    if (SRC / module).is_dir():
        return sorted((SRC / module).rglob("*.py"))
    return [SRC / f"{module}.py"]


MODULES = sorted({p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
                 | {p.name for p in SRC.iterdir()
                    if p.is_dir() and (p / "__init__.py").exists()})


def test_every_module_has_a_layer() -> None:
    for module in MODULES:
        layer_of(module)


@pytest.mark.parametrize("module", MODULES)
def test_imports_flow_downward(module: str) -> None:
    for imported, top_level in (found for path in _files(module) for found in imports(path)):
        if layer_of(imported) <= layer_of(module):
            continue
        assert (module, imported) in UPWARD, (
            f"{module} (layer {layer_of(module)}) imports {imported} "
            f"(layer {layer_of(imported)}): imports must flow from the faces down to the core"
        )
        assert not top_level, f"{module} imports {imported} at module level"


def test_an_upward_import_is_caught(tmp_path: pathlib.Path) -> None:
    """The checker sees a module-level upward import (and one hidden in a function)."""
    bad = tmp_path / "bad.py"
    bad.write_text("from stratego.cli import main\n\ndef f():\n    import stratego.svg\n",
                   encoding="utf-8")
    assert imports(bad) == [("cli", True), ("svg", False)]


def test_the_upward_exceptions_are_still_needed() -> None:
    """Every listed exception exists, so the list cannot silently grow stale."""
    present = {(module, imported) for module in MODULES for path in _files(module)
               for imported, _ in imports(path)}
    assert present >= UPWARD


def test_no_core_module_imports_a_bridge() -> None:
    """The bridges are guests: nothing of the core imports them, even inside a function."""
    bridges = LAYERS[-1]
    for module in MODULES:
        if module in bridges:
            continue
        for path in _files(module):
            for imported, _ in imports(path):
                assert imported not in bridges, f"{module} imports the bridge {imported}"


SHARED_HELPERS = {("errors", "_shown")}
"""(module, name) private helpers any module may import: `stratego.errors._shown` cuts echoed
input in error messages (the developers' guide asks every reader to use it)."""

PRIVATE_SHARED = {
    ("gravon", "board", "_digits"),
    ("notation", "board", "_digits"),
    ("records", "board", "_digits"),
    ("encoding", "board", "_whole"),
}
"""(importer, imported module, name) private imports still allowed; the list may only shrink."""


def private_imports(path: pathlib.Path) -> list[tuple[str, str]]:
    """(imported stratego module, name) for each ``_private`` name `path` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                "stratego."):
            module = node.module.split(".")[1]
            found.extend((module, alias.name) for alias in node.names
                         if alias.name.startswith("_") and not alias.name.startswith("__"))
    return found


@pytest.mark.parametrize("module", MODULES)
def test_no_module_imports_private_names_of_another(module: str) -> None:
    for path in _files(module):
        for imported, name in private_imports(path):
            if imported == module or (imported, name) in SHARED_HELPERS:
                continue
            assert (module, imported, name) in PRIVATE_SHARED, (
                f"{module} imports the private name {name} of {imported}: make it public "
                f"(documented) or move the code to where it belongs"
            )


def test_a_private_import_is_caught(tmp_path: pathlib.Path) -> None:
    """The checker sees a private name imported at any depth, and not dunders."""
    bad = tmp_path / "bad.py"
    bad.write_text("from stratego.engine import _tab, apply\n\n"
                   "def f():\n    from stratego import __version__\n"
                   "    from stratego.explain import _why\n", encoding="utf-8")
    assert private_imports(bad) == [("engine", "_tab"), ("explain", "_why")]


def test_the_private_exceptions_are_still_needed() -> None:
    """Every listed private import exists, so the list cannot silently grow stale."""
    present = {(module, imported, name) for module in MODULES for path in _files(module)
               for imported, name in private_imports(path)}
    assert present >= PRIVATE_SHARED
