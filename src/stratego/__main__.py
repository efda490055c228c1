"""``python -m stratego``: the same as the ``stratego`` command (`stratego.cli`)."""

from stratego.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
