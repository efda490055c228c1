"""Optional dependencies (`stratego.optional.require`): a missing extra is named with the
``pip install`` line that provides it; a package that is installed but fails to import (a
dependency of its own missing or built for other versions) is reported as that, with the
cause, not as missing."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import pathlib
import sys
import types
from collections.abc import Sequence

import pytest

from stratego.errors import MissingDependencyError
from stratego.optional import installed, require


def test_a_package_present_returns_its_module() -> None:
    assert require("json", "none").__name__ == "json"


def test_a_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(MissingDependencyError,
                       match=r"^RayExecutor needs ray: pip install 'stratego\[ray\]'$"):
        require("ray", "ray", "RayExecutor")


class _Broken(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a package ``brokenpkg`` whose import fails on a dependency of its own (as numba
    does when llvmlite is missing) or with a plain message (as numba does on a NumPy it
    was not built for)."""

    def __init__(self, error: ImportError) -> None:
        self.error = error

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name == "brokenpkg":
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        raise self.error


@pytest.mark.parametrize("error", [
    ImportError("No module named 'llvmlite'", name="llvmlite"),
    ImportError("Numba needs NumPy 2.2 or less. Got NumPy 2.4."),
])
def test_an_installed_package_that_fails_to_import_says_so(
        monkeypatch: pytest.MonkeyPatch, error: ImportError) -> None:
    monkeypatch.setattr(sys, "meta_path", [_Broken(error), *sys.meta_path])
    monkeypatch.delitem(sys.modules, "brokenpkg", raising=False)
    with pytest.raises(MissingDependencyError,
                       match=r"needs brokenpkg, which is installed but failed to import: "
                             r".*(llvmlite|NumPy 2\.2).*pip install --upgrade "
                             r"'stratego\[vector\]'") as caught:
        require("brokenpkg", "vector", "stratego.vector")
    assert caught.value.__cause__ is error


def test_a_folder_named_like_the_package_is_no_installed_package(
        monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    """A folder without ``__init__.py`` named like an optional dependency (Ray's temporary
    folder ``/tmp/ray`` seen from ``/tmp``) imports as an empty namespace package: it is
    reported missing, with the ``pip install`` line, not used as the package."""
    (tmp_path / "strayextra").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "strayextra", raising=False)
    with pytest.raises(MissingDependencyError,
                       match=r"^RayExecutor needs strayextra: pip install 'stratego\[ray\]' "
                             r"\(the folder '.*strayextra' is no installed strayextra"):
        require("strayextra", "ray", "RayExecutor")
    assert not installed("strayextra")
    assert not installed("strayextra.part")


def test_a_long_feature_name_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The feature named in the message is cut like echoed input (`shown`)."""
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(MissingDependencyError, match=r"\[1000000 characters\] needs ray") as caught:
        require("ray", "ray", "x" * 1_000_000)
    assert len(str(caught.value)) < 200
