"""Optional dependencies: import one by name or fail with a message naming the extra.

The core needs only `attrs`. The bridges (`numpy`, `rich`, `rl`, `openspiel`, `vector`,
`web`, `ray`) each need an extra; they call `require` at import time (or on first use), so a
missing package raises `MissingDependencyError` with the ``pip install`` line to run instead
of a bare `ImportError` from deep inside.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from stratego.errors import MissingDependencyError

__all__ = ["require"]


def require(module: str, extra: str, feature: str = "this feature") -> ModuleType:
    """Import `module`, or raise `MissingDependencyError` naming the `extra` that provides it.

    >>> require("json", "none").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"{feature} needs {module.split('.')[0]}: pip install 'stratego[{extra}]'"
        ) from exc
