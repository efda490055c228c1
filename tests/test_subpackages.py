"""The modules cut into subpackages keep one public face: every public name is importable
from the package (`stratego.views.PlayerView`, `stratego.sampling.Sampler`,
`stratego.gravon.GravonGame`), the API reference renders the package, and the package's
docstring says which module holds what (docs/design.md, "Layers")."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

FACADES = {
    "views": {"SchemaError"},  # re-exported from stratego.errors
    "sampling": set(),
    "gravon": set(),
    "openspiel": set(),
    "encoding": {"MissingDependencyError"},  # re-exported from stratego.errors
}
"""Subpackages whose `__init__` exports the public names of all their modules, with the
names each also exports from elsewhere."""

NEEDS = {"openspiel": "openspiel"}
"""The facades that import an extra, by the extra."""

PACKAGES = [pytest.param(package, marks=[pytest.mark.extra(NEEDS[package])] if package in NEEDS
                         else []) for package in sorted(FACADES)]


def modules(package: str) -> list[str]:
    found = importlib.import_module(f"stratego.{package}").__path__
    return sorted(info.name for info in pkgutil.iter_modules(found))


@pytest.mark.parametrize("package", PACKAGES)
def test_the_package_exports_every_public_name_of_its_modules(package: str) -> None:
    """Invariant: the package's `__all__` is its modules' `__all__` put together (and the
    names it takes from elsewhere), each name the very object its module defines."""
    facade = importlib.import_module(f"stratego.{package}")
    names: set[str] = set(FACADES[package])
    for name in modules(package):
        module = importlib.import_module(f"stratego.{package}.{name}")
        for public in getattr(module, "__all__", ()):
            assert getattr(facade, public) is getattr(module, public), (package, name, public)
            names.add(public)
    assert set(facade.__all__) == names


@pytest.mark.parametrize("package", PACKAGES)
def test_the_package_docstring_says_what_lives_where(package: str) -> None:
    """Every module has a docstring, and the package's docstring names every module."""
    facade = importlib.import_module(f"stratego.{package}")
    assert modules(package)
    for name in modules(package):
        module = importlib.import_module(f"stratego.{package}.{name}")
        assert (module.__doc__ or "").strip(), f"stratego.{package}.{name}"
        assert f"`stratego.{package}.{name}`" in (facade.__doc__ or ""), name
