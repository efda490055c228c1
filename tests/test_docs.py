"""The documentation's examples run: every Python block of README.md and docs/*.md, and the
``>>>`` examples in the library's docstrings.

Each page's ```python blocks run in order in one namespace, with the repository root as the
working directory, so a block may use what an earlier block on the same page defined. A
traceback names the page and the line in it. A block is skipped only when the line before it
is ``<!-- no-run -->`` or its fence has a ``title="..."`` (a file shown, not run); keep that for
shell-like or deliberately failing examples. A block whose first line starts with ``>>>`` is
checked as a doctest, and so is a ```pycon block.
"""

from __future__ import annotations

import doctest
import importlib
import os
import pathlib
import re
import sys
import types

import attrs
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = sorted(
    [p for p in [ROOT / "README.md"] if p.exists()] + list((ROOT / "docs").glob("**/*.md"))
)
DOCTEST_MODULES = sorted(
    ".".join(p.relative_to(ROOT / "src").with_suffix("").parts).removesuffix(".__init__")
    for p in (ROOT / "src" / "stratego").glob("**/*.py")
    if ">>>" in p.read_text(encoding="utf-8")
)

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")
LANGUAGES = {"python", "py", "python3", "pycon"}
NO_RUN = "<!-- no-run -->"


@attrs.frozen
class Block:
    """One fenced code block of a page."""

    page: pathlib.Path
    line: int  # line number of the first line of code (1-based)
    language: str
    info: str
    code: str
    skip: bool

    @property
    def where(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}"


def blocks(page: pathlib.Path) -> list[Block]:
    """The fenced code blocks of `page`, in order (nested fences are not supported)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = match["indent"], match["fence"], match["info"].strip()
        language = info.split()[0].strip("{}.").lower() if info else ""
        before = next((lines[k].strip() for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        body = []
        j = i + 1
        while j < len(lines):
            line = lines[j]
            if line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
                break
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            j += 1
        if j == len(lines):
            raise AssertionError(f"{page.relative_to(ROOT)}:{i + 1}: code fence never closed")
        skip = before == NO_RUN or "title=" in info
        found.append(Block(page, i + 2, language, info, "\n".join(body) + "\n", skip))
        i = j + 1
    return found


def python_blocks(page: pathlib.Path) -> list[Block]:
    return [b for b in blocks(page) if b.language in LANGUAGES]


def run_block(block: Block, namespace: dict[str, object]) -> None:
    """Run one block in `namespace`; failures name the page and line."""
    if block.language == "pycon" or block.code.lstrip().startswith(">>>"):
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block.code, namespace, block.where, str(block.page),
                                  block.line - 1)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        report: list[str] = []
        runner.run(test, out=report.append, clear_globs=False)
        namespace.update(test.globs)  # the test ran on a copy: keep what it defined
        assert runner.failures == 0, f"doctest in {block.where} failed:\n" + "".join(report)
        return
    code = compile("\n" * (block.line - 1) + block.code, str(block.page), "exec")
    exec(code, namespace)


EXAMPLE_PAGES = [p for p in PAGES if any(not b.skip for b in python_blocks(p))]


def test_the_main_pages_have_examples() -> None:
    """The pages that teach the library show runnable code (and so are checked)."""
    names = {str(p.relative_to(ROOT)) for p in EXAMPLE_PAGES}
    assert {"README.md", "docs/index.md", "docs/quickstart.md", "docs/editions.md",
            "docs/variants.md", "docs/hidden-information.md", "docs/notation.md",
            "docs/tutorial-bot.md", "docs/tutorial-server.md"} <= names


PAGE_EXTRAS = {
    "docs/batched-training.md": ("vector", "rl"),
    "docs/build-a-ui.md": ("web",),
    "docs/env.md": ("rl",),
    "docs/hidden-information.md": ("numpy",),
    "docs/openspiel.md": ("openspiel",),
    "docs/train.md": ("numpy",),
}
"""The extras whose packages the examples of a page import (see `pytest.mark.extra` in
tests/conftest.py): those pages skip without them outside CI; every other page must run with
the test extra alone."""


@pytest.mark.parametrize("page", [
    pytest.param(p, marks=pytest.mark.extra(*PAGE_EXTRAS.get(str(p.relative_to(ROOT)), ())),
                 id=str(p.relative_to(ROOT)))
    for p in EXAMPLE_PAGES])
def test_python_examples_of_the_page_run(page: pathlib.Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    """Every ```python block of the page runs without error, in order, in one namespace."""
    runnable = [b for b in python_blocks(page) if not b.skip]
    monkeypatch.chdir(ROOT)
    name = "docs_" + re.sub(r"\W", "_", str(page.relative_to(ROOT)))
    module = types.ModuleType(name)
    monkeypatch.setitem(sys.modules, name, module)
    for n, block in enumerate(runnable, 1):
        try:
            run_block(block, module.__dict__)
        except Exception as error:
            raise AssertionError(
                f"example {n} of {page.relative_to(ROOT)} (line {block.line}) failed: "
                f"{type(error).__name__}: {error}"
            ) from error


def test_skipped_examples_are_rare() -> None:
    """At most one example in ten is marked not to run."""
    every = [b for page in PAGES for b in python_blocks(page)]
    skipped = [b.where for b in every if b.skip]
    assert len(skipped) * 10 <= max(len(every), 10), f"too many examples not run: {skipped}"


def test_block_reader_finds_code_indentation_and_markers(tmp_path: pathlib.Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n```python\nx = 1\n```\n\n!!! note\n    ```py\n    y = x + 1\n    ```\n\n"
        "<!-- no-run -->\n```python\nraise SystemExit\n```\n\n```bash\nls\n```\n"
        '````python title="bot.py"\nz = 3\n````\n',
        encoding="utf-8",
    )
    found = blocks(page)
    assert [(b.language, b.line, b.code, b.skip) for b in found] == [
        ("python", 4, "x = 1\n", False),
        ("py", 9, "y = x + 1\n", False),
        ("python", 14, "raise SystemExit\n", True),
        ("bash", 18, "ls\n", False),
        ("python", 21, "z = 3\n", True),
    ]
    namespace: dict[str, object] = {}
    for block in found[:2]:
        run_block(block, namespace)
    assert namespace["y"] == 2


def test_a_failing_example_names_its_page_and_line(tmp_path: pathlib.Path) -> None:
    page = tmp_path / "bad.md"
    page.write_text("text\n\n```python\nx = 1\nraise ValueError('boom')\n```\n", encoding="utf-8")
    (block,) = python_blocks(page)
    with pytest.raises(ValueError, match="boom") as info:
        run_block(block, {})
    last = info.traceback[-1]
    assert pathlib.Path(str(last.path)) == page
    assert last.lineno + 1 == 5


def test_doctest_blocks_share_the_page_namespace(tmp_path: pathlib.Path) -> None:
    page = tmp_path / "doc.md"
    page.write_text("```pycon\n>>> x = 41\n```\n\n```python\ny = x + 1\n```\n",
                    encoding="utf-8")
    namespace: dict[str, object] = {}
    for block in python_blocks(page):
        run_block(block, namespace)
    assert namespace["y"] == 42


def test_a_failing_doctest_block_is_reported(tmp_path: pathlib.Path) -> None:
    page = tmp_path / "doc.md"
    page.write_text("```python\n>>> 1 + 1\n3\n```\n", encoding="utf-8")
    (block,) = python_blocks(page)
    with pytest.raises(AssertionError, match="doctest"):
        run_block(block, {})


# -- docstrings ------------------------------------------------------------------


def test_some_docstrings_have_examples() -> None:
    """The vocabulary modules show their parse/format pairs as doctests (checked below)."""
    assert {"stratego.board", "stratego.moves"} <= set(DOCTEST_MODULES)


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_docstring_examples(name: str) -> None:
    """The ``>>>`` examples in the module's docstrings give the output they show."""
    module = importlib.import_module(name)
    old = os.getcwd()
    try:
        os.chdir(ROOT)
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    finally:
        os.chdir(old)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
