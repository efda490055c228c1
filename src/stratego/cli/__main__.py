"""``python -m stratego.cli``: the same as the ``stratego`` command."""

from stratego.cli import main

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
