"""The package is fit for PyPI and for a clone: one version everywhere, the package data
inside the package, the same source link in the metadata and the docs, and no test or
benchmark reading anything outside the repository."""

from __future__ import annotations

import importlib.metadata
import pathlib
import re
import tomllib
from importlib import resources

import stratego

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_one_version_named_by_the_changelog() -> None:
    """pyproject, `stratego.__version__`, the installed metadata and the changelog's newest
    version heading agree (a release bumps them together)."""
    version = PYPROJECT["project"]["version"]
    assert stratego.__version__ == version
    assert importlib.metadata.version("stratego") == version
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert headings[0] == version, headings[:3]


def test_package_data_is_inside_the_package() -> None:
    """What the code reads at run time ships with it (run against the wheel by .ci/run)."""
    package = resources.files("stratego")
    assert package.joinpath("py.typed").is_file()
    folder = package / "data" / "human_setups"
    for name in ("classic.txt", "barrage.txt", "ultimate-lightning.txt", "duel.txt",
                 "LICENSE_ataraxos_MIT.txt", "LICENSE_rhalbersma_gravon_BSL-1.0.txt"):
        assert folder.joinpath(name).is_file(), name
    assert len(stratego.human_setup(stratego.CLASSIC, stratego.Player.RED, 1)) == 40


def test_every_data_file_of_the_source_tree_is_installed() -> None:
    """Every file beside the modules in ``src/stratego`` (weights, setups, the web page's
    assets, ``py.typed``) is in the package that is imported: against the wheel (as
    .ci/run runs this file) a file the build leaves out fails here, by name."""
    source = ROOT / "src" / "stratego"
    package = resources.files("stratego")
    shipped = [path.relative_to(source) for path in source.rglob("*")
               if path.is_file() and path.suffix not in {".py", ".pyc"}
               and "__pycache__" not in path.parts]
    assert len(shipped) >= 15, shipped
    missing = [str(name) for name in shipped if not package.joinpath(*name.parts).is_file()]
    assert missing == []


def test_metadata_fit_for_pypi() -> None:
    project = PYPROJECT["project"]
    assert project["readme"] == "README.md"
    assert project["license"] == "MIT AND BSL-1.0"
    assert any(c.startswith("Development Status ::") for c in project["classifiers"])
    assert "Typing :: Typed" in project["classifiers"]
    assert {"Homepage", "Documentation", "Source", "Issues", "Changelog"} <= set(
        project["urls"])
    metadata = importlib.metadata.metadata("stratego")
    assert metadata["Name"] == "stratego"
    assert metadata["Requires-Python"] == ">=3.11"


def test_the_docs_link_to_the_same_source_repository() -> None:
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    repo_url = re.search(r"^repo_url: (\S+)$", mkdocs, re.M)
    assert repo_url is not None
    assert repo_url.group(1) == PYPROJECT["project"]["urls"]["Source"]


def test_the_documentation_link_has_a_site_that_builds() -> None:
    """The metadata's Documentation link and mkdocs' ``site_url`` are Read the Docs, which
    builds only a project with a ``.readthedocs.yaml``: it builds mkdocs.yml strictly, with
    the ``docs`` extra installed, as CI does."""
    urls = PYPROJECT["project"]["urls"]
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    site_url = re.search(r"^site_url: (\S+)$", mkdocs, re.M)
    assert site_url is not None
    assert site_url.group(1).rstrip("/") == urls["Documentation"].rstrip("/")
    assert urls["Changelog"].startswith(site_url.group(1))
    config = (ROOT / ".readthedocs.yaml").read_text(encoding="utf-8")
    assert re.search(r"^version: 2$", config, re.M)
    assert re.search(r"^mkdocs:\n  configuration: mkdocs\.yml\n  fail_on_warning: true$",
                     config, re.M)
    extras = re.search(r"extra_requirements:\n((?:\s+- \w+\n)+)", config)
    assert extras is not None
    assert set(re.findall(r"- (\w+)", extras.group(1))) == {"docs"}
    assert "docs" in PYPROJECT["project"]["optional-dependencies"]


def test_tests_and_benchmarks_read_nothing_beside_the_clone() -> None:
    """A clone is all it takes: no path out of the repository (such as ``../shared``) in the
    tests or benchmarks; their data lives in tests/data/."""
    outside = re.compile(r"""["']\.\./shared|/ ?["']shared["']|parents\[[2-9]\]""")
    me = pathlib.Path(__file__).resolve()
    for folder in ("tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.resolve() == me:
                continue
            found = outside.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path.relative_to(ROOT)}: {found.group(0)}"
