"""Errors by meaning: the library never raises its bare base class nor a built-in exception
from its own checks.

A caller catches a bad argument (`ArgumentError`), a bad bot (`BotError`: `BotSpecError`,
`BotFaultError`), a bad protocol line (`ProtocolError`), a ladder question (`ArenaError`)
and so on, each a `StrategoError` and the built-in a Python programmer expects
(`errors.py`). So no ``raise StrategoError(...)`` anywhere in ``src/stratego``, and no
``raise ValueError/TypeError/KeyError/RuntimeError/IndexError(...)``: the source is read
(AST), so the check covers every module, optional extras included.

One kind of raise stays, for a reason: the Python data model. A container's
``__getitem__`` raises `KeyError` or `IndexError` (and `TypeError` for an index of the
wrong kind), which ``in``, ``get`` and iteration rely on; a module's ``__getattr__`` raises
`AttributeError` (not checked here).
"""

from __future__ import annotations

import ast
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "stratego"

BUILTINS = {"ValueError", "TypeError", "KeyError", "RuntimeError", "IndexError"}
"""Built-in exceptions the library's own checks must not raise bare."""

DATA_MODEL = {"__getitem__"}
"""Methods whose built-in exceptions the Python data model asks for."""



def bad_raises(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, exception name) of each ``raise StrategoError(...)`` and each raise of a
    built-in of `BUILTINS` in `path` (called or not), outside the methods of
    `DATA_MODEL`."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, method: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = method
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            if isinstance(child, ast.Raise) and child.exc is not None:
                target = child.exc.func if isinstance(child.exc, ast.Call) else child.exc
                name = target.id if isinstance(target, ast.Name) else (
                    target.attr if isinstance(target, ast.Attribute) else "")
                if name == "StrategoError" or (name in BUILTINS and inner not in DATA_MODEL):
                    found.append((child.lineno, name))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


FILES = sorted(p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py"))


@pytest.mark.parametrize("rel", FILES)
def test_no_bare_base_class_nor_built_in_is_raised(rel: str) -> None:
    found = bad_raises(SRC / rel)
    assert not found, (
        f"{rel} raises {', '.join(f'{name} (line {line})' for line, name in found)}: raise "
        "the error class of stratego.errors that says what went wrong (ArgumentError, "
        "BotSpecError, ProtocolError, ...), adding one there if none fits")


NOT_VALUE_ERRORS = {"StrategoError", "BotError", "BotFaultError", "WebError",
                    "MissingDependencyError", "ShutdownError"}
"""The classes of `stratego.errors` that are not about bad input, so not `ValueError`s."""


def test_every_error_about_bad_input_is_a_value_error() -> None:
    """design.md ("Queries return values, commands raise"): "Every error about bad input is
    also a `ValueError`; the classes that are not are those about something else", each
    named there (and in the docstring of `stratego.errors`)."""
    from stratego import errors

    classes = {name: getattr(errors, name) for name in errors.__all__
               if isinstance(getattr(errors, name), type)}
    assert {name for name, cls in classes.items()
            if not issubclass(cls, ValueError)} == NOT_VALUE_ERRORS
    design = (SRC.parents[1] / "docs" / "design.md").read_text(encoding="utf-8")
    paragraph = design[design.index("**Queries return values, commands raise.**"):]
    paragraph = paragraph[:paragraph.index("\n- **")]
    for name in NOT_VALUE_ERRORS - {"StrategoError"}:
        assert f"`{name}`" in paragraph, name
        assert f"`{name}`" in (errors.__doc__ or ""), name


def test_the_checker_sees_every_kind_of_raise(tmp_path: pathlib.Path) -> None:
    """Called or not, plain or dotted, at any depth; a data-model method and a library
    error class pass."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import stratego.errors\n"
        "def f(x):\n"
        "    if x:\n"
        "        raise ValueError('no')\n"
        "    raise stratego.errors.StrategoError('no')\n"
        "class C:\n"
        "    def __getitem__(self, i):\n"
        "        raise IndexError(i)\n"
        "    def g(self):\n"
        "        raise KeyError\n"
        "    def h(self):\n"
        "        raise ArgumentError('fine')\n", encoding="utf-8")
    assert bad_raises(bad) == [(4, "ValueError"), (5, "StrategoError"), (10, "KeyError")]

