"""Load a module of `benchmarks/` by its path, as its tests need it: the benchmarks are
scripts beside the package, not an importable package of their own."""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from types import ModuleType

BENCHMARKS = pathlib.Path(__file__).resolve().parents[1] / "benchmarks"
"""The repository's `benchmarks/` folder."""


def load_benchmark(relative: str, name: str) -> ModuleType:
    """The module of ``benchmarks/<relative>``, run once and registered in `sys.modules`
    as `name` (so the classes it defines pickle and its dataclasses resolve their own
    module); the caller removes `name` from `sys.modules` when it must not outlive it."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / relative)
    assert spec is not None, relative
    assert spec.loader is not None, relative
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
