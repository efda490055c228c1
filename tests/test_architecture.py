"""The layers of the library, the rule that imports flow downward only, and no import circle.

| layer | modules |
| --- | --- |
| vocabulary | _version, errors, optional, pieces, board, moves |
| rules | rules, strike, repetition, rescue, movement, editions, variants, arguments |
| engine | _movegen, state, _checks, setups, human_setups, setup_model, engine, explain, |
|  | validation |
| information | views, view_json, sampling, beliefs, encoding |
| interchange | notation, saved_state, records, gravon |
| faces | text, svg, bots (package), nn, protocol, match (package), cli (package), __main__ |
| bridges | env, openspiel, vector, web, ray (subpackages or modules; optional extras) |
| arena | arena (package: ratings, pictures, ladder; may use everything, nothing uses it) |

Every import counts: at module level, inside a function, and under ``TYPE_CHECKING``.

* **Layers.** A module may import from its own layer and the layers above it in this table,
  never from a layer below (a subpackage, ``stratego/web/...``, counts as one module named
  after it). The few imports that go the other way are listed in `UPWARD`, each with its
  reason: a convenience method of a value class (`GameState`, `PlayerView`) reaching a face,
  made inside the method, on first use.
* **No circle.** Over the whole module graph (one node per file, ``stratego.vector._kernels``
  included), no module reaches itself again through its imports, within a layer as across
  layers; the edges in `CIRCLE_EXCEPTIONS` (the same convenience methods) are the only ones
  left out, each with its reason. The package's own ``__init__`` is no node: it re-exports
  the public names, the upper layers lazily, and ``from stratego import X`` inside a face
  reaches the module that defines ``X`` only through it.

No module imports another module's private (``_underscore``) names: what one module offers
another is public, documented and findable (`PRIVATE_SHARED` lists the few exceptions left).
A private module (``_movegen``, ``_checks``) offers public names to the library, not to users.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "stratego"

LAYERS = [
    {"_version", "errors", "optional", "pieces", "board", "moves"},
    {"rules", "strike", "repetition", "rescue", "movement", "editions", "variants",
     "arguments"},
    {"_movegen", "state", "_checks", "setups", "human_setups", "setup_model", "engine",
     "explain", "validation"},
    {"views", "view_json", "sampling", "beliefs", "encoding"},
    {"notation", "saved_state", "records", "gravon"},
    {"text", "svg", "bots", "nn", "protocol", "match", "cli", "__main__"},
    {"env", "openspiel", "vector", "web", "ray"},
    {"arena"},
]

BRIDGES = 6
"""The index of the bridges' layer in `LAYERS`."""

CONVENIENCE = {
    ("state", "svg"): "GameState._repr_svg_: notebooks look the picture up on the value",
    ("state", "text"): "GameState.__str__: str() looks the text board up on the value",
    ("views", "svg"): "PlayerView._repr_svg_: notebooks look the picture up on the value",
    ("views", "text"): "PlayerView.__str__: str() looks the text board up on the value",
    ("views", "view_json"): "PlayerView.to_json / from_json: the view's JSON on the value",
}
"""Convenience methods of a lower layer's value classes that reach up, inside the method, to
the public function of the layer doing the work (`board_svg`, `board_text`,
`view_to_dict`), which callers may use directly; docs/design.md says the same.
`GameState.to_json` / `from_json` are no such reach: `stratego.saved_state` installs its codec
into `stratego.state` (`install_json_codec`), so the engine layer imports no interchange."""

BEING_REMOVED: dict[tuple[str, str], str] = {}
"""Imports against the flow that a branch in flight removes; the merger deletes the entry."""

COMMANDS = {
    ("cli", "arena"): "the `stratego ladder` command runs stratego.arena.ladder, loaded when "
                      "the command runs (the arena sits above every other layer)",
    ("cli", "web"): "the `stratego serve` command runs the web bridge (stratego.web), loaded "
                    "when the command runs, so the command line works without the web extra",
}
"""Commands of the command line that are the face of a layer above it."""

UPWARD = {**CONVENIENCE, **BEING_REMOVED, **COMMANDS}
"""(importer, imported) pairs allowed to point to a later layer, each with its reason."""

CIRCLE_EXCEPTIONS = {**CONVENIENCE, **BEING_REMOVED}
"""(importer, imported) top-level names whose edges the circle check leaves out, with reasons."""

MODULE, FUNCTION, TYPE_CHECKING = "module", "function", "TYPE_CHECKING"


def layer_of(module: str) -> int:
    for index, names in enumerate(LAYERS):
        if module in names:
            return index
    raise AssertionError(f"module {module!r} is in no layer: add it to LAYERS")


def dotted(path: pathlib.Path, root: pathlib.Path = SRC) -> str:
    """The module name of the file `path` of the package at `root` (``stratego.x.y``)."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def edges(path: pathlib.Path, root: pathlib.Path = SRC) -> list[tuple[str, str]]:
    """(imported module, where) for each import of the package at `root` in `path`: the
    module is the file imported (``from a.b import c`` names ``a.b.c`` when that is a
    module, else ``a.b``; ``importlib.import_module("a.b")`` with a literal name counts as
    ``import a.b``), `where` is `MODULE`, `FUNCTION` or `TYPE_CHECKING`."""
    package = root.name
    known = {dotted(p, root) for p in root.rglob("*.py")}

    def target(module: str, name: str | None = None) -> str | None:
        if name is not None and f"{module}.{name}" in known:
            return f"{module}.{name}"
        while module not in known and "." in module:
            module = module.rsplit(".", 1)[0]
        return module if module in known else None

    found: list[tuple[str, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and where == MODULE:
                inner = FUNCTION
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                inner = TYPE_CHECKING
            if isinstance(child, ast.ImportFrom) and child.module and not child.level:
                if child.module.split(".")[0] == package:
                    for alias in child.names:
                        imported = target(child.module, alias.name)
                        if imported is not None:
                            found.append((imported, inner))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == package:
                        imported = target(alias.name)
                        if imported is not None:
                            found.append((imported, inner))
            elif (isinstance(child, ast.Call) and child.args
                  and ast.unparse(child.func).split(".")[-1] == "import_module"
                  and isinstance(child.args[0], ast.Constant)
                  and isinstance(child.args[0].value, str)
                  and child.args[0].value.split(".")[0] == package):
                # importlib.import_module("stratego.x") is an import by another name
                imported = target(child.args[0].value)
                if imported is not None:
                    found.append((imported, inner))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), MODULE)
    return found


def top(module: str) -> str:
    """The top-level name of a module of the package (``stratego.vector.env`` -> ``vector``;
    the package itself -> ``__init__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(path: pathlib.Path) -> list[tuple[str, str]]:
    """(imported top-level module, where) for each import in `path`, the package's own
    ``__init__`` left out."""
    return [(top(module), where) for module, where in edges(path) if top(module) != "__init__"]


def graph(root: pathlib.Path = SRC,
          leave_out: dict[tuple[str, str], str] | None = None) -> dict[str, set[str]]:
    """The import graph of the package at `root`, one node per file, every kind of import
    counted; the package's ``__init__`` and the (importer, imported) top-level pairs of
    `leave_out` are no part of it."""
    leave_out = leave_out or {}
    out: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = dotted(path, root)
        if module == root.name:
            continue
        targets = out.setdefault(module, set())
        for imported, _ in edges(path, root):
            if imported in (module, root.name):
                continue
            if (top(module), top(imported)) in leave_out:
                continue
            targets.add(imported)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that reach each other through imports (strongly connected
    components of more than one module, Tarjan's algorithm), as one circle through them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_circle_through(graph, set(group)) for group in groups]


def _circle_through(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """One import circle among `group` (a strongly connected group), for the message."""
    start = min(group)
    paths = {start: [start]}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for nxt in sorted(graph.get(node, set()) & group):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                todo.append(nxt)
    raise AssertionError("not a strongly connected group")


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
    for imported, where in (found for path in _files(module) for found in imports(path)):
        if layer_of(imported) <= layer_of(module):
            continue
        assert (module, imported) in UPWARD, (
            f"{module} (layer {layer_of(module)}) imports {imported} "
            f"(layer {layer_of(imported)}) ({where}): imports must flow from the faces down "
            f"to the core"
        )
        assert where != MODULE, f"{module} imports {imported} at module level"


def test_no_import_circle() -> None:
    """No module reaches itself again through its imports (every kind counted), the listed
    convenience methods left out."""
    found = circles(graph(leave_out=CIRCLE_EXCEPTIONS))
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_state_reaches_no_interchange_module() -> None:
    """`GameState.to_json` / `from_json` call the codec `stratego.saved_state` installs, so
    no module of the engine layer imports the saved-state codec or the game records (not
    even inside a method), and neither of them is on any import circle, the convenience
    methods counted too."""
    engine = LAYERS[layer_of("state")]
    for module in sorted(engine):
        for imported, where in imports(SRC / f"{module}.py"):
            assert imported not in {"records", "saved_state", "notation"}, (
                f"{module} imports {imported} ({where})")
    assert not [edge for edge in UPWARD if "records" in edge or "saved_state" in edge]
    on_circles = {node for circle in circles(graph()) for node in circle}
    assert not on_circles & {"stratego.records", "stratego.saved_state"}


def _package(tmp_path: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_planted_circle_is_caught(tmp_path: pathlib.Path) -> None:
    """A circle closed by a function-level import and a TYPE_CHECKING one, across a
    subpackage, is found; the package's ``__init__`` and listed edges are left out."""
    root = _package(tmp_path, {
        "a.py": "from pkg.sub.b import x\n",
        "sub/__init__.py": "",
        "sub/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                    "    from pkg.c import y\nx = 1\n",
        "c.py": "def f():\n    from pkg import a\n    return a\ny = 2\n",
        "d.py": "from pkg import c\n",
    })
    assert edges(root / "sub" / "b.py", root) == [("pkg.c", TYPE_CHECKING)]
    assert edges(root / "c.py", root) == [("pkg.a", FUNCTION)]
    assert circles(graph(root)) == [["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]]
    assert circles(graph(root, {("c", "a"): "a convenience method"})) == []
    (root / "c.py").write_text("from pkg import y\n", encoding="utf-8")  # the __init__
    assert circles(graph(root)) == []


def test_an_upward_import_is_caught(tmp_path: pathlib.Path) -> None:
    """The checker sees a module-level upward import, one hidden in a function and one
    under TYPE_CHECKING."""
    bad = tmp_path / "bad.py"
    bad.write_text("from typing import TYPE_CHECKING\nfrom stratego.cli import main\n\n"
                   "if TYPE_CHECKING:\n    from stratego.views import PlayerView\n\n"
                   "def f():\n    import stratego.svg\n", encoding="utf-8")
    assert imports(bad) == [("cli", MODULE), ("views", TYPE_CHECKING), ("svg", FUNCTION)]


def test_the_exceptions_are_still_needed() -> None:
    """Every listed exception exists, so the lists cannot silently grow stale."""
    present = {(module, imported) for module in MODULES for path in _files(module)
               for imported, _ in imports(path)}
    assert present >= set(UPWARD) | set(CIRCLE_EXCEPTIONS)


def test_the_rules_and_the_vocabulary_import_nothing_above_them() -> None:
    """The rule components work on narrow inputs the engine hands them: nothing below the
    engine layer imports the engine layer or above, not even for annotations (the entries
    of `BEING_REMOVED` aside)."""
    engine = layer_of("state")
    for module in sorted(set().union(*LAYERS[:engine])):
        for imported, where in imports(SRC / f"{module}.py"):
            if (module, imported) in BEING_REMOVED:
                continue
            assert layer_of(imported) < engine, f"{module} imports {imported} ({where})"


def test_no_core_module_imports_a_bridge() -> None:
    """The bridges are guests: nothing of the core imports them, even inside a function,
    but for the commands of `COMMANDS` that run one (loaded when the command runs)."""
    bridges = LAYERS[BRIDGES]
    for module in MODULES:
        if module in bridges:
            continue
        for path in _files(module):
            for imported, where in imports(path):
                if (module, imported) in COMMANDS:
                    assert where == FUNCTION, f"{module} imports {imported} at {where}"
                    continue
                assert imported not in bridges, f"{module} imports the bridge {imported}"


SOURCES = sorted(SRC.rglob("*.py"))
SOURCE_MODULES = {dotted(path) for path in SOURCES}


def private_imports(path: pathlib.Path) -> list[tuple[str, str]]:
    """(imported stratego module, name) for each ``_private`` name `path` imports, at any
    depth; a private submodule (``from stratego.vector import _kernels``) is a module,
    not a name, and is left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                "stratego."):
            found.extend((node.module, alias.name) for alias in node.names
                         if alias.name.startswith("_") and not alias.name.startswith("__")
                         and f"{node.module}.{alias.name}" not in SOURCE_MODULES)
    return found


@pytest.mark.parametrize("path", SOURCES, ids=dotted)
def test_no_module_imports_private_names_of_another(path: pathlib.Path) -> None:
    """One module, one responsibility: what another module needs is its public (if
    undocumented, package-internal) interface, never a leading-underscore name, not even
    between the modules of one subpackage."""
    for imported, name in private_imports(path):
        assert imported == dotted(path), (
            f"{dotted(path)} imports the private name {name} of {imported}: make it "
            "public (documented) or move the code to where it belongs")


def test_a_private_import_is_caught(tmp_path: pathlib.Path) -> None:
    """The checker sees a private name imported at any depth, and not dunders or private
    submodules."""
    bad = tmp_path / "bad.py"
    bad.write_text("from stratego.engine import _tab, apply\n\n"
                   "def f():\n    from stratego import __version__\n"
                   "    from stratego.vector import _kernels\n"
                   "    from stratego.explain import _why\n", encoding="utf-8")
    assert private_imports(bad) == [("stratego.engine", "_tab"), ("stratego.explain", "_why")]
