"""A rating ladder: every bot plays every other, and each gets a rating with an interval.

    from stratego.arena import ladder

    result = ladder(["random", "heuristic", "search(simulations=50)"], "classic",
                    games_per_pair=20, seed=1, workers="auto", jsonl="ladder.jsonl")
    print(result.table())

**Games.** A round robin: each pair of bots plays `games_per_pair` games, both colours
in turn with the same seeds (games ``2k`` and ``2k + 1`` of every pair share the seed
``stratego.match.game_seed(seed, k)``: the same two setups, each bot playing each side),
so a pair's score does not hang on which bot drew the better army. Every game gets fresh
bots from their specs (`stratego.bots.specs`: names, ``module:attribute``,
``file.py:attribute``, ``cmd:COMMAND``) or copies of the bot objects given, exactly as
`stratego.match.play_match` does.

**Modules.** The rating maths (`stratego.arena.ratings`: `fit_ratings`, `Rating`), the
pictures (`stratego.arena.pictures`: `ratings_svg`, `ratings_report`) and the ladder's
games (`stratego.arena.ladder`: `ladder`, `LadderResult`) are modules of their own; every
name is importable from ``stratego.arena``.

**Scale and resuming.** ``workers=N`` plays on N processes (``"auto"``: every core);
``executor=`` takes any `concurrent.futures.Executor` (`stratego.ray.RayExecutor` for a
Ray cluster). ``jsonl=FILE`` writes each finished game durably (the match file format,
`stratego.match.MatchLog`), and a rerun with the same bots and settings plays only the
games the file lacks, after any kill; a larger `games_per_pair` adds games to the file.
On Ctrl-C the games the workers still finish are saved before the interruption
propagates. The games are played through `stratego.match.run_tasks` and
`stratego.match.play_seated`, the same seam as matches.

**Ratings.** Bradley-Terry (Elo's logistic curve, 400 points for a 10:1 expected score)
fitted by maximum likelihood over all games, a draw counting as half a win for each side,
with one virtual draw per pair (so that a bot that won every game still gets a finite
rating: no rating, interval, JSON field or picture of a ladder is ever an infinity;
`fit_ratings` without virtual draws refuses a perfect score, naming the bots). The ratings
are anchored with `random` at 0 when it plays (otherwise their mean is 0), and each bot's
95% interval comes from the curvature of the likelihood (the observed Fisher information)
with the anchor held fixed.
"""

from stratego.arena.ladder import LADDER_STRIDE, LadderResult, ladder
from stratego.arena.pictures import ratings_report, ratings_svg
from stratego.arena.ratings import ANCHOR, Rating, fit_ratings

__all__ = ["ANCHOR", "LADDER_STRIDE", "LadderResult", "Rating", "fit_ratings", "ladder",
           "ratings_report", "ratings_svg"]
