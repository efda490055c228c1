"""Every public name has a docstring, so the API reference renders a description for it."""

from __future__ import annotations

import importlib
import inspect
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "stratego"
SUBMODULES = sorted(
    {f"stratego.{p.stem}" for p in SRC.glob("*.py") if p.stem not in ("__init__", "__main__")}
    | {f"stratego.{p.name}" for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    | {f"stratego.{p.parent.name}.{p.stem}" for p in SRC.glob("*/*.py")
       if not p.stem.startswith("_")}
)
"""Every module and subpackage, and the public modules of each subpackage."""
MODULES = ["stratego", *SUBMODULES]

IMPORT_NEEDS = {
    "stratego.env": ("rl",),
    "stratego.env.aec": ("rl",),
    "stratego.env.common": ("rl",),
    "stratego.env.single": ("rl",),
    "stratego.nn": ("numpy",),
    "stratego.nn.model": ("numpy",),
    "stratego.openspiel": ("openspiel",),
    "stratego.vector": ("vector",),
    "stratego.vector.batch": ("vector",),
    "stratego.vector.env": ("vector", "rl"),
    "stratego.web": ("web",),
    "stratego.web.app": ("web",),
}
"""The modules that cannot be imported without an extra (`pytest.mark.extra`); every other
module imports with the core alone."""

NEEDS_TORCH = {"stratego.nn.torch_net"}
"""Modules that need torch, which no extra installs (checked with ``pytest --torch``)."""


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=[pytest.mark.extra(*IMPORT_NEEDS.get(name, ())),
                              *([pytest.mark.torch] if name in NEEDS_TORCH else [])], id=name)
    for name in MODULES])
def test_public_names_have_docstrings(name: str) -> None:
    module = importlib.import_module(name)
    assert inspect.getdoc(module), f"{name} has no module docstring"
    missing = []
    for public in getattr(module, "__all__", []):
        value = getattr(module, public)
        if inspect.isfunction(value) or inspect.isclass(value):
            if not inspect.getdoc(value):
                missing.append(public)
            if inspect.isclass(value):
                missing.extend(
                    f"{public}.{attr}" for attr, member in vars(value).items()
                    if not attr.startswith("_") and inspect.isfunction(member)
                    and not inspect.getdoc(member)
                )
    assert missing == [], f"{name}: no docstring for {', '.join(missing)}"
