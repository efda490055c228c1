"""The README's quick start stays true: two commands, the second one is what CI runs."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_quick_start_is_two_one_line_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in command for command in commands)
    assert "stratego selfplay" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quick_start_commands()[1] in ci.splitlines()


def test_ci_runs_the_readme_selfplay_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quick_start_commands()[0] in ci.splitlines()


def test_ci_runs_both_commands_in_a_clone_with_nothing_beside_it() -> None:
    """`.ci/run` clones the repository into a fresh folder, checks that no ../shared is
    beside it, and runs both commands there, after building and checking the artifacts."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    clone = next(i for i, line in enumerate(lines) if line.startswith("git clone"))
    assert lines[clone + 2] == 'test ! -e "$clone/../shared"'
    assert lines[clone + 3] == 'cd "$clone"'
    first, second = (lines.index(command) for command in quick_start_commands())
    assert clone < first < second
    ci = "\n".join(lines)
    for needed in ("-m build", "twine\" check --strict", "stratego-*.whl", "--rulebooks"):
        assert needed in ci, needed
