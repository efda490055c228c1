"""Shared pytest configuration: hypothesis profiles and the path to shared data."""

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
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

SHARED = pathlib.Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="session")
def gravon_dir() -> pathlib.Path:
    """The Gravon data folder (``../shared/data/gravon`` beside the checkout)."""
    path = SHARED / "data" / "gravon"
    if not path.is_dir():
        pytest.fail(f"shared data not found at {path}: CI keeps shared/ beside the checkout")
    return path


@pytest.fixture(scope="session")
def rulebooks_dir() -> pathlib.Path:
    """The rulebook texts (``../shared/rulebooks``)."""
    return SHARED / "rulebooks"


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
