"""`SearchBot` with beliefs that ignore behaviour clues (``Beliefs(view,
behaviour=False)``), kept to measure what the clues are worth
(``benchmarks/baselines/search_without_clues.py:SearchBot`` as a bot spec).

Same search, same budget knobs; only the beliefs its determinizations come from differ.
"""

from __future__ import annotations

import functools
from unittest import mock

import stratego.bots.search as search
from stratego.beliefs import Beliefs
from stratego.moves import Move
from stratego.views import PlayerView

__all__ = ["SearchBot"]


class SearchBot(search.SearchBot):
    """The library's search bot, its beliefs built without behaviour clues."""

    def __call__(self, view: PlayerView) -> Move:
        # the bots of a match take turns in one thread: swap the name for this call only
        without_clues = functools.partial(Beliefs, behaviour=False)
        with mock.patch.object(search, "Beliefs", without_clues):
            return super().__call__(view)
