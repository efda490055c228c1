"""Optional dependencies: import one by name or fail with a message naming the extra.

The core needs only `attrs`. The bridges (`numpy`, `rich`, `rl`, `openspiel`, `vector`,
`web`, `ray`) each need an extra; they call `require` at import time (or on first use), so a
missing package raises `MissingDependencyError` with the ``pip install`` line to run instead
of a bare `ImportError` from deep inside.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from stratego.errors import MissingDependencyError, shown

__all__ = ["installed", "require"]


def require(module: str, extra: str, feature: str = "this feature") -> ModuleType:
    """Import `module`, or raise `MissingDependencyError` naming the `extra` that provides it.

    A top-level package found only as a folder without ``__init__.py`` (a namespace
    package, such as a stray ``ray`` folder in the current directory) counts as missing:
    none of the optional dependencies is one.

    >>> require("json", "none").__name__
    'json'
    """
    top = module.split(".")[0]
    feature = str(feature) if len(str(feature)) <= 100 else shown(str(feature), 100)
    stray = _folder_only(top)
    if stray is not None:
        raise MissingDependencyError(
            f"{feature} needs {top}: pip install 'stratego[{extra}]' (the folder "
            f"{shown(stray, 200)} is no installed {top}, only a folder of that name)")
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if _installed_but_broken(top, exc):
            # a missing or mismatched dependency of its own (numba built for another
            # NumPy, say): say so, rather than asking for what is already installed
            raise MissingDependencyError(
                f"{feature} needs {top}, which is installed but failed to import: "
                f"{shown(str(exc), 200)} (reinstall it, or versions that match: "
                f"pip install --upgrade 'stratego[{extra}]')") from exc
        raise MissingDependencyError(
            f"{feature} needs {top}: pip install 'stratego[{extra}]'") from exc


def installed(module: str) -> bool:
    """Whether `module` is installed (found, not imported: a choice among features, such as
    the web game's lineup leaving out the bots that need NumPy, costs no import)."""
    try:
        return (_folder_only(module.split(".")[0]) is None
                and importlib.util.find_spec(module) is not None)
    except (ImportError, ValueError):
        return False


def _folder_only(top: str) -> str | None:
    """The folder found for the top-level package `top` when that is all there is of it (a
    namespace package: a folder of that name without ``__init__.py`` on the import path),
    else None."""
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is not None or not spec.submodule_search_locations:
        return None
    return str(next(iter(spec.submodule_search_locations)))


def _installed_but_broken(top: str, exc: ImportError) -> bool:
    """Whether the import of package `top` failed with `exc` though `top` is installed."""
    if exc.name is not None:
        return exc.name.split(".")[0] != top
    return installed(top)
