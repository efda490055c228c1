"""Shared pytest configuration: hypothesis profiles, test data, the rulebook checks."""

from __future__ import annotations

import importlib.util
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
# `.ci/run` also runs the property files once more with fresh examples (a new
# ``--hypothesis-seed`` each run, printed so that a red run replays): fixed examples alone
# stop finding bugs. Kept small so the pass stays around two minutes on two cores.
settings.register_profile("ci-random", max_examples=5, deadline=None, derandomize=False,
                          database=None, print_blob=True,
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
# torch is no dependency of the library or of CI (its default wheel brings gigabytes of
# CUDA): the tests of `stratego.nn.torch_net` that need it (marked `torch`) run with
# `--torch`, after installing the CPU build; its missing-torch message is tested always.
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--rulebooks", metavar="DIR", default=None,
                     help="folder of the rulebook texts: run the tests marked 'rulebooks'")
    parser.addoption("--torch", action="store_true", default=False,
                     help="run the tests marked 'torch' (needs torch, the CPU build will do)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rulebooks: cross-checks the rulebook texts (runs only with --rulebooks=DIR)")
    config.addinivalue_line(
        "markers", "torch: needs torch (runs only with --torch)")
    config.addinivalue_line(
        "markers", "extra(*names): needs the optional extras named (skips outside CI when one "
                   "is missing; see tests/conftest.py)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    left_out = [name for name, option in (("rulebooks", "--rulebooks"), ("torch", "--torch"))
                if not config.getoption(option)]
    kept = [item for item in items
            if not any(item.get_closest_marker(name) for name in left_out)]
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
# that needs an optional extra says so with a marker, ``@pytest.mark.extra("numpy")`` (or
# ``pytestmark = pytest.mark.extra("rl")`` for a whole module), and skips, naming the extra to
# install, when a package of that extra is missing. Only marked tests skip: a test that is
# not marked and fails for want of a package fails, so a core module that started to need
# numpy shows up red. A module that imports an extra at its top also calls
# `pytest.importorskip` there (it could not be collected otherwise), beside its marker.

EXTRA_PACKAGES = {
    "numpy": ("numpy",),
    "rich": ("rich",),
    "rl": ("numpy", "gymnasium", "pettingzoo"),
    "openspiel": ("numpy", "pyspiel"),
    "vector": ("numpy", "numba"),
    "web": ("starlette", "uvicorn"),
    "ray": ("ray",),
}
"""The top-level modules each extra of `pyproject.toml` installs, as the tests import them."""

EXTRAS = {module: extra for extra, modules in reversed(EXTRA_PACKAGES.items())
          for module in modules}
"""The extra that installs each optional module (numpy: the `numpy` extra)."""


def needs_extra(extra: str) -> str:
    """The skip reason of a test that needs `extra`."""
    return f"needs the `{extra}` extra: pip install -e '.[{extra}]'"


def missing_packages(extra: str) -> list[str]:
    """The packages of `extra` that cannot be imported here."""
    if extra not in EXTRA_PACKAGES:
        raise pytest.UsageError(f"pytest.mark.extra({extra!r}): no such extra "
                                f"(known: {', '.join(sorted(EXTRA_PACKAGES))})")
    return [module for module in EXTRA_PACKAGES[extra]
            if importlib.util.find_spec(module) is None]


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers("extra"):
        for extra in marker.args:
            missing = missing_packages(extra)
            if missing:
                pytest.skip(f"{needs_extra(extra)} (missing: {', '.join(missing)})")


_NO_MODULE = re.compile(r"(?:could not import|No module named) '([\w.]+)'")


def _named(reason: str) -> str:
    """`reason` of an importorskip, with the extra that provides the module named."""
    reason = reason.removeprefix("Skipped: ")
    match = _NO_MODULE.search(reason)
    if match and match.group(1).split(".")[0] in EXTRAS:
        return f"{needs_extra(EXTRAS[match.group(1).split('.')[0]])} ({reason})"
    return reason


def _rename_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    if report.skipped and isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        path, line, reason = report.longrepr
        report.longrepr = (path, line, _named(str(reason)))


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    report = yield
    _rename_skip(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
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
