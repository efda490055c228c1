"""The API reference is split by module: every public module (and subpackage) has its own
page, a row in the overview and an entry in the navigation; only public names are shown."""

from __future__ import annotations

import pathlib
import re
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "stratego"
DOCS = ROOT / "docs"

MODULES = sorted(
    {p.stem for p in SRC.glob("*.py") if not p.stem.startswith("_")}
    | {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
)


@pytest.mark.parametrize("module", MODULES)
def test_every_module_has_its_page(module: str) -> None:
    """Documented on docs/api/NAME.md (a module still listed on the overview page with
    `::: stratego.NAME` is accepted until it moves)."""
    page = DOCS / "api" / f"{module}.md"
    overview = (DOCS / "api.md").read_text(encoding="utf-8")
    if not page.is_file():
        assert f"::: stratego.{module}\n" in overview, (
            f"add docs/api/{module}.md holding '::: stratego.{module}', a row in docs/api.md "
            "and a nav entry in mkdocs.yml")
        return
    assert f"::: stratego.{module}\n" in page.read_text(encoding="utf-8")
    assert f"](api/{module}.md)" in overview
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(rf"^\s+- stratego\.{module}: api/{module}\.md$", mkdocs, re.M)


def test_only_public_names_are_rendered() -> None:
    """mkdocstrings shows the names in each module's `__all__` (or without a leading
    underscore), never private helpers."""
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^\s+filters: public$", mkdocs, re.M)
    for page in (DOCS / "api").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert "filters:" not in text, page.name
        assert not re.search(r"::: stratego\.\S*\._", text), page.name


NOT_NAMES = {"stratego.choices.v1", "stratego.seats.v1", "stratego.setups.v1",
             "stratego.sound.v1", "stratego.views.X"}
"""Dotted words in the prose that name no Python object: the web page's storage keys
(build-a-ui.md) and a pattern (design.md)."""


def _reference() -> tuple[Any, set[str], list[str]]:
    """The package as griffe reads it (the source, as mkdocstrings does: no import, no
    extras), the paths of the objects the API pages render, and the modules rendered whole.
    Each ``::: NAME`` renders what its ``members`` option says (false: the module's
    docstring only; a list: those members), else the public members `filters: public`
    keeps, classes' members with them. A re-exported name counts by the object it names
    (`stratego.Rules` is rendered as `stratego.rules.Rules`)."""
    import griffe  # the test extra installs both (mkdocstrings reads the source with griffe)
    import yaml
    package = griffe.load("stratego", search_paths=[str(ROOT / "src")])
    seen: set[str] = set()
    whole: list[str] = []

    def walk(obj: Any, members: object = None) -> None:
        target = obj.final_target if obj.is_alias else obj
        seen.add(target.path)
        if members is False or not (target.is_module or target.is_class):
            return
        for name, member in target.members.items():
            if isinstance(members, list) and name not in members:
                continue
            if members is None and not member.is_public:
                continue
            if not member.is_module:
                walk(member)

    for page in sorted([DOCS / "api.md", *(DOCS / "api").glob("*.md")]):
        lines = page.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines):
            directive = re.fullmatch(r"::: (\S+)", line)
            if directive is None:
                continue
            block = []
            for following in lines[index + 1:]:
                if not following.startswith("    "):
                    break
                block.append(following[4:])
            options = (yaml.safe_load("\n".join(block)) or {}).get("options", {})
            walk(_lookup(package, directive.group(1)), options.get("members"))
            if "members" not in options:
                whole.append(directive.group(1))
    return package, seen, whole


def _lookup(package: Any, path: str) -> Any:
    """The object `path` names, through re-exports (KeyError if there is none)."""
    obj = package
    for part in path.split(".")[1:]:
        obj = (obj.final_target if obj.is_alias else obj).members[part]
    return obj.final_target if obj.is_alias else obj


PACKAGES = ["stratego", *(f"stratego.{name}" for name in MODULES
                          if (SRC / name / "__init__.py").is_file())]


def test_every_public_name_of_a_package_has_a_reference_entry() -> None:
    """api.md: "Each page shows the module's public names only (those in its `__all__`)":
    every name in a package's `__all__` is rendered, at the package (`stratego.vector.supports`)
    or where it is defined (`stratego.vector.batch.Batch`); a page that renders a package
    with a ``members`` list names there what the package defines itself. So is every name of a
    module a page renders whole (one assignment per constant: mkdocstrings skips
    ``A, B = 0, 1``)."""
    package, rendered, whole = _reference()
    missing = []
    for name in sorted({*PACKAGES, *whole}):
        exports = _lookup(package, name).exports
        assert exports, f"{name} has no __all__"
        missing += [f"{name}.{public}" for public in exports
                    if _lookup(package, f"{name}.{public}").path not in rendered]
    assert missing == [], f"no API reference entry for {', '.join(missing)}"


def test_every_name_the_prose_cites_has_a_reference_entry() -> None:
    """A dotted name the guides cite in code (`stratego.env.common.REDEALS`,
    `stratego.protocol.LOG_LIMIT`) is rendered in the API reference."""
    package, rendered, _ = _reference()
    missing = []
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for cited in sorted(set(re.findall(r"`(stratego(?:\.\w+)+)(?:\([^`]*\))?`", text))):
            if cited in NOT_NAMES:
                continue
            try:
                path = _lookup(package, cited).path
            except KeyError:
                missing.append(f"{page.name}: {cited} (no such name)")
                continue
            if path not in rendered:
                missing.append(f"{page.name}: {cited}")
    assert missing == [], missing
