"""Rebuild the human setups bundled with the package (``src/stratego/data/``).

Reads the Gravon archive files kept in ``tests/data/gravon-archive/`` (see the README
there for their sources and licences) and writes one file per army, each setup in the
library's own text form (``stratego.Setup.text``), every line valid under that army's
rules. Run from the repository root:

    python scripts/bundle_human_setups.py

The selection is deterministic (evenly spaced over each source, duplicates dropped), so
running it again writes the same files; tests/test_human_setups.py checks that. Mirror
images (a setup and the same turned left to right) are both kept, as people played them;
the split into training and held-out setups (`stratego.setup_model`) leaves a held-out
setup whose mirror image is a training setup out of the held-out ones, since the fits learn
every training setup mirrored too.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
ARCHIVE = ROOT / "tests" / "data" / "gravon-archive"
OUT = ROOT / "src" / "stratego" / "data" / "human_setups"

ATARAXOS = ("Ataraxos code base, src/env/inits/{name} (human setups collected from gravon.de); "
            "MIT licence, see LICENSE_ataraxos_MIT.txt")
GRAVON = ("rhalbersma/gravon at commit e82ad203, data/{name} (games played on gravon.de); "
          "Boost Software License 1.0, see LICENSE_rhalbersma_gravon_BSL-1.0.txt")

# army file, rules name, source file, how many setups at most
PLAN = [
    ("classic.txt", "classic", "classic_human_inits_sample.dat", 400),
    ("barrage.txt", "classic+barrage", "barrage_human_inits.dat", 400),
    ("ultimate-lightning.txt", "jumbo-2014+ultimate-lightning", "ultimate.csv", 400),
    ("duel.txt", "jumbo-2014+duel", "duell.csv", 400),
]


def _spread(items: list[str], most: int) -> list[str]:
    """At most `most` of `items`, evenly spaced, in their order."""
    if len(items) <= most:
        return items
    return [items[i * len(items) // most] for i in range(most)]


def build(out: pathlib.Path = OUT) -> dict[str, str]:
    """The bundled files' texts by name (written to `out` unless it is None)."""
    from stratego import Player, setup_problems
    from stratego.editions import by_name
    from stratego.gravon import read_csv_games, read_setup_lines
    from stratego.setups import Setup

    texts: dict[str, str] = {}
    for filename, rules_name, source, most in PLAN:
        rules = by_name(rules_name)
        found: list[str] = []
        if source.endswith(".dat"):
            credit = ATARAXOS.format(name=source)
            for _, result in read_setup_lines(ARCHIVE / source, rules):
                if isinstance(result, Setup):
                    found.append(result.text())
        else:
            credit = GRAVON.format(name=source)
            for _, state in read_csv_games(ARCHIVE / source):
                if isinstance(state, Exception):
                    continue
                for player in Player:
                    setup = Setup.from_mapping(
                        player, {sq: piece.rank for sq, piece in state.pieces(player)})
                    if not setup_problems(rules, setup):
                        found.append(setup.text())
        unique = list(dict.fromkeys(found))
        chosen = _spread(unique, most)
        header = [
            f"# Human {rules.name} setups from Gravon: {len(chosen)} of {len(unique)} distinct.",
            f"# Source: {credit}.",
            "# One setup a line in stratego's setup text form (stratego.Setup.parse): rows from",
            "# the player's back row forward, each from the player's own left.",
            "# Rebuilt by scripts/bundle_human_setups.py.",
        ]
        texts[filename] = "\n".join([*header, *chosen]) + "\n"
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            (out / name).write_text(text, encoding="utf-8")
        for licence in ARCHIVE.glob("LICENSE_*"):
            (out / licence.name).write_bytes(licence.read_bytes())
    return texts


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))  # the checkout's stratego, installed or not
    for name, text in build().items():
        print(name, sum(1 for line in text.splitlines() if not line.startswith("#")))
