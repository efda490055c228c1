"""Shared pytest configuration: hypothesis profiles, test data, the rulebook checks."""

from __future__ import annotations

import os
import pathlib

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    derandomize=True,  # CI runs the same examples every time: a red run is a real bug
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# `.ci/run` runs the suite a second time against the installed wheel, to find missing
# package data; the properties were checked in full by the first run.
settings.register_profile("package", max_examples=5, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

DATA = pathlib.Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def gravon_dir() -> pathlib.Path:
    """The Gravon archive files kept with the tests (``tests/data/gravon-archive``; sources
    and licences in its README)."""
    return DATA / "gravon-archive"


# The rulebook texts are not part of the repository: the tests that only cross-check them
# (marked `rulebooks`) run when `--rulebooks=DIR` names a folder holding them (`.ci/run` does
# when `../shared/rulebooks` exists) and are left out otherwise, so a clone's suite passes.
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--rulebooks", metavar="DIR", default=None,
                     help="folder of the rulebook texts: run the tests marked 'rulebooks'")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rulebooks: cross-checks the rulebook texts (runs only with --rulebooks=DIR)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--rulebooks"):
        return
    kept = [item for item in items if item.get_closest_marker("rulebooks") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


@pytest.fixture(scope="session")
def rulebooks_dir(request: pytest.FixtureRequest) -> pathlib.Path:
    """The rulebook texts' folder given by ``--rulebooks``."""
    path = pathlib.Path(request.config.getoption("--rulebooks"))
    if not path.is_dir():
        pytest.fail(f"--rulebooks {path}: no such folder")
    return path


# In CI every test runs: the README's test command installs every extra and `.ci/run`
# installs the system packages (Chromium, Cairo), so a skipped test means a missing install
# step. Outside CI a bridge's tests may skip when its extra is missing.
_SKIPPED: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        _SKIPPED.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CI") and _SKIPPED and exitstatus == 0:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                f"CI: {len(_SKIPPED)} test(s) skipped, every test must run here: "
                + ", ".join(_SKIPPED[:10]), red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
