"""Shared pytest configuration: hypothesis profiles, test data, the rulebook checks."""

from __future__ import annotations

import os
import pathlib
import re
from typing import Any

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
# step. Outside CI (`pip install -e ".[test]"` and `python -m pytest` on a fresh clone) a test
# that needs an optional extra skips, and the reason names the extra to install. One table
# says which package comes with which extra; a test needs nothing more than importing what it
# uses (`pytest.importorskip("numpy")`, or a plain import, or the library raising
# `MissingDependencyError`): the hooks below turn "no module named numpy" into a skip
# naming the extra, outside CI only.

EXTRAS = {
    "numpy": "numpy",
    "numba": "vector",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "starlette": "web",
    "uvicorn": "web",
    "ray": "ray",
    "rich": "rich",
    "cairosvg": "test",
    "cairocffi": "test",
    "playwright": "test",
    "httpx2": "test",
}
"""The extra of `pyproject.toml` that installs each optional top-level module the tests use."""


MODULE_EXTRAS = {
    "test_vector.py": "vector",
    "test_env.py": "rl",
    "test_openspiel.py": "openspiel",
    "test_web.py": "web",
    "test_web_browser.py": "web",
    "test_ray.py": "ray",
}
"""The extra a whole test module needs (named in its skip instead of the first missing
package's own extra)."""


def needs_extra(extra: str) -> str:
    """The skip reason of a test that needs `extra`."""
    return f"needs the `{extra}` extra: pip install -e '.[{extra}]'"


_NO_MODULE = re.compile(r"(?:could not import|No module named) '([\w.]+)'")
_STRATEGO_EXTRA = re.compile(r"stratego\[(\w+)\]")


def _missing_extra(error: BaseException | None) -> str | None:
    """The extra whose absence raised `error` (or an error it was raised from), if any."""
    seen = 0
    while error is not None and seen < 5:
        if isinstance(error, ImportError):
            name = getattr(error, "name", None) or ""
            match = _NO_MODULE.search(str(error))
            module = (name or (match.group(1) if match else "")).split(".")[0]
            if module in EXTRAS:
                return EXTRAS[module]
            extra = _STRATEGO_EXTRA.search(str(error))
            if extra and type(error).__name__ == "MissingDependencyError":
                return extra.group(1)
        error = error.__cause__ or error.__context__
        seen += 1
    return None


def _named(reason: str, path: str) -> str:
    """`reason` of an importorskip, with the extra that provides the module named."""
    reason = reason.removeprefix("Skipped: ")
    match = _NO_MODULE.search(reason)
    if match and match.group(1).split(".")[0] in EXTRAS:
        extra = MODULE_EXTRAS.get(pathlib.Path(path).name, EXTRAS[match.group(1).split(".")[0]])
        return f"{needs_extra(extra)} ({reason})"
    return reason


def _rename_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    if report.skipped and isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        path, line, reason = report.longrepr
        report.longrepr = (path, line, _named(str(reason), str(path)))


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    report = yield
    _rename_skip(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.failed and call.excinfo is not None and not os.environ.get("CI"):
        extra = _missing_extra(call.excinfo.value)
        if extra is not None:
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0,
                               f"{needs_extra(extra)} ({call.excinfo.typename}: "
                               f"{str(call.excinfo.value)[:120]})")
            return report
    _rename_skip(report)
    return report


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
