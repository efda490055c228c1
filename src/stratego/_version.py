"""The version of the package, one place for every module that names it (`stratego.__version__`
re-exports it; pyproject.toml and the changelog's newest heading agree with it)."""

__version__ = "0.1.0"
"""The version of this release of the library, as pyproject.toml and the changelog name it."""
