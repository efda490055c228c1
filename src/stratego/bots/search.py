"""`SearchBot`: a determinizing Monte Carlo search over the player's view.

For each decision the bot

1. scores every legal move with the `HeuristicBot` heuristic
   (`stratego.bots.heuristic.move_scores`), weighing the ranks of each hidden opponent
   piece by its beliefs (`stratego.beliefs.Beliefs.marginals`) rather than by counts
   alone, less a cost for the first move of a piece that has never moved (it would tell
   the opponent that piece is no Bomb and no Flag), plus the Flag races
   (`stratego.bots.race`: a pull for the piece that reaches the opponent's likeliest
   Flag first and for a guard that stands in the way of an opponent piece walking to
   its own; a race it wins outright is played without searching), plus traps
   (`stratego.bots.traps`: the worth of an opponent piece of known rank a move leaves
   with no legal way out, the back-and-forth rule included, less the worth of a piece of
   its own that walks into such a trap), plus the Bomb walls (`stratego.bots.walls`: a
   move that puts a piece able to remove a Miner beside a Bomb next to its Flag that a
   possible Miner nears, less one that takes such a cover away), less the exposure
   (`stratego.bots.exposure`: the chance a move adds that a hidden opponent piece beats
   the moved piece, when the opponent knows its rank, times its worth), and keeps the
   best few as candidates;
2. draws full states consistent with its view from its beliefs (`stratego.beliefs`: a
   setup prior learned from human setups, conditioned exactly on what it has seen; the
   uniform `stratego.sampling.Sampler` where the beliefs do not apply), a pool of them
   that grows with the budget past 400 simulations;
3. runs simulations: a candidate chosen by UCB1 (its mean result, an exploration
   term and the heuristic score as a bias that fades with visits) is played in a
   state of the pool, followed by a short playout (`stratego.bots.playouts`) in which
   each side strikes when the strike pays on average over what the struck piece may be
   (its possible ranks (`GameState.known`), weighed by the pieces of its side that the
   public record cannot tell from it: a piece that has moved is no Bomb, an unmoved one
   late in the game likely is), the opponent raids the bot's Flag when a piece of its
   is in reach (with chance `raid`: a Miner through the Bombs), and otherwise steps at
   random. The n-th simulation of every candidate plays in the same state (the pool's
   n-th, round robin past its size) with the playout's random generator seeded alike
   (common random numbers), so candidates are compared on the same futures (with
   `replies`, once a candidate has had that many visits, the opponent's first answer to
   it is the search's own choice instead: the answer that has hurt the candidate most so
   far, or one not yet tried, counted across the sampled states; with `follow` the bot's
   reply to that answer is searched alike, on its own side of the results); the playout
   is cut off after `depth` plies and scored by what its evaluation won or lost
   (`stratego.bots.playouts.Playouts.evaluate`: material whose values change as pieces
   fall, the worth of ranks the opponent does not know, Flag safety; a finished game by
   its result);
4. plays the candidate with the best heuristic score plus `weight` times the material its
   playouts won or lost on average (the search corrects the heuristic where the sampled
   futures show a piece won or lost; ties are broken by a little seeded noise, as the
   heuristic does).

Only the view is read: the hidden ranks come from the beliefs' draws, never from the
game, so two games that look the same to the bot get the same move (the differential
hidden-information tests check it). With a `simulations` budget the bot is
deterministic for its seed; a `time_limit` budget stops on the clock (never more than
the limit plus one simulation's time, once the beliefs about the view are built: a few
milliseconds in most games, up to some tenths of a second in a crowded Moving Bombs
position). The clock starts after the beliefs' setup prior of the army is fitted
(`stratego.beliefs.setup_prior`, once per process and rules: about a tenth of a second
for the 40-piece army, a third for Ultimate Lightning), so the first decision in a
process takes that much longer, searching as long as the others. Every edition and
variant is searched the same way: the rules travel in the view, and Rescue decisions are
moves like the others.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

import attrs

from stratego._checks import as_move
from stratego.arguments import chance_from, optional_seed, seeded_random
from stratego.beliefs import Beliefs
from stratego.bots.base import moves_to_choose
from stratego.bots.exposure import exposure as known_exposure
from stratego.bots.heuristic import GUARD, PIECE_VALUES, move_scores
from stratego.bots.playouts import Answers, Playouts, PublicCounts, squash
from stratego.bots.race import SLIP, plan_race
from stratego.bots.raids import HORIZON, MAX_HORIZON, flag_raids
from stratego.bots.traps import trapped, traps_for
from stratego.bots.walls import watch_walls
from stratego.engine import apply
from stratego.errors import ArgumentError, IllegalMoveError, shown
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.sampling import Sampler, SamplingError
from stratego.sampling.hidden_rescues import hidden_rescues
from stratego.sampling.prior import setup_prior
from stratego.setup_model import sample_setup
from stratego.setups import Setup
from stratego.views import as_view

if TYPE_CHECKING:
    from stratego.state import GameState
    from stratego.views import PlayerView

__all__ = ["COMMIT", "EXPOSURE", "FIRST_MOVE_COST", "HUNT", "INTERCEPT", "RAID", "TRAP", "WALL",
           "Candidate", "Prepared", "SearchBot"]

_NOISE = 0.15
"""Largest random amount added to a move's final score, to break ties (as the heuristic)."""
_POOL_BASE = 400
"""Simulations up to which the pool keeps `SearchBot.determinizations` states."""
FIRST_MOVE_COST = 1.5
"""The default `SearchBot.first_move_cost` (heuristic-score units; a step toward a target
scores about 0.5 a square)."""
HUNT = 4.0
"""The default `SearchBot.hunt`: the score of each move the attacker gains toward the
opponent's likeliest Flag, times that Flag's chance (`stratego.bots.race`)."""
INTERCEPT = 6.0
"""The default `SearchBot.intercept`: the score of each move a guard gains toward the
square where it stops an opponent runner (`stratego.bots.race`)."""
COMMIT = 0.8
"""The default `SearchBot.commit`: the chance of being the Flag from which a won race to
it is played outright."""
TRAP = 1.0
"""The default `SearchBot.trap`: the share of a piece's worth (`PIECE_VALUES`) a move
scores for trapping an opponent piece, or loses for walking one of the bot's into a trap
(`stratego.bots.traps`)."""
WALL = 20.0
"""The default `SearchBot.wall`: the score of covering a Bomb beside the bot's Flag that an
opponent piece which may be a Miner can strike soon, times that chance
(`stratego.bots.walls`)."""
RAID = 0.5
"""The default `SearchBot.raid`: the chance with which the opponent in a playout raids the
bot's Flag at each of its plies where no strike pays (`stratego.bots.playouts`)."""
EXPOSURE = 1.0
"""The default `SearchBot.exposure`: the share of a known piece's worth (`PIECE_VALUES`) a
step scores less for each unit of chance it adds that a hidden opponent piece beside it
beats it (`stratego.bots.exposure`)."""
_TRAP_CHECKS = 4
"""How many moves past the `candidates` best the traps' cost is checked for."""
_clock = time.perf_counter
"""The clock of `SearchBot.time_limit` (wall time, seconds)."""


@attrs.frozen
class Candidate:
    """One move the search weighed in its last decision (`SearchBot.searched`).

    Attributes:
        move: The candidate move.
        score: Its score before the search: the heuristic's, with the first-move cost,
            the Flag races, the traps and the Bomb walls.
        visits: The simulations that played it.
        material: The material its playouts won on average (`PIECE_VALUES` units, a won
            game counting 60, a lost one -60); None when it was never played.
        answer: The opponent's first answer the playouts after it played most (the
            search's choice for the opponent once the candidate had `SearchBot.replies`
            visits); None when there was none or neither `replies` nor `follow` is set.
    """

    move: Move
    score: float
    visits: int
    material: float | None
    answer: Move | None


@attrs.frozen
class Prepared:
    """What `SearchBot.prepare` settles in a view before the search.

    Attributes:
        scores: Each move's score before the search (as `Candidate.score`).
        ranked: The candidates the search weighs, in the order it takes them (the best
            scores first, then any moves the Bomb walls or the race to the Flag add).
        chosen: The move, when no search is needed (a step of a won race, a single
            candidate, no state to draw); None when the search decides among `ranked`.
    """

    scores: Mapping[Move, float]
    ranked: tuple[Move, ...]
    chosen: Move | None


_MAY_BE_NONE = frozenset({"simulations", "time_limit", "commit", "replies", "follow"})
"""The `SearchBot` options None may stand for (no budget of that kind, no commitment, no
searched replies); every other numeric option needs a number."""


class SearchBot:
    """Determinized Monte Carlo search over the view, guided by the heuristic.

    Args:
        seed: Seed of its random choices (samples, playouts).
        simulations: Simulations per decision (default 400 when no `time_limit`: about
            0.06 s of a quiet core, where one second is about 7,800 simulations; see the
            performance page for its scores). With a `time_limit` as well, both budgets
            apply: the first one reached ends the decision.
        time_limit: Seconds per decision; the search stops on the clock (the answer
            comes within the limit plus about one simulation, after the beliefs about
            the view are built; the first decision in a process fits the army's setup
            prior before the clock starts: see the module documentation). With
            `simulations` as well, both budgets apply: the first one reached ends the
            decision.
        depth: Plies of each playout after the candidate move.
        candidates: Moves searched, the best by the heuristic (a strike on a piece it
            may beat is usually among them).
        determinizations: Sampled states in the pool, up to 400 simulations: each
            candidate's n-th simulation plays in the n-th (round robin past the pool's
            size); past 400 simulations the pool grows as the square root of the
            decision's budget (68 states at 3,300; with `time_limit`, of the simulations
            the last decision's rate gives in that time). The size is set before the
            decision's first simulation, so the n-th simulation of every candidate
            plays in the same state at any budget.
        exploration: UCB1's exploration constant.
        prior: Weight of the heuristic score as a bias of the exploration.
        weight: Weight of the playouts' mean material in the final choice (the
            heuristic score counts 1).
        guard: Steps from its Flag within which an opponent piece that has moved is
            an intruder its pieces hunt and block (`stratego.bots.heuristic.move_scores`;
            the heuristic bot's own is 3).
        first_move_cost: Subtracted from the heuristic score of each move of a piece
            that has never moved (as the prior and in the final choice): a first move
            tells the opponent the piece is no Bomb and no Flag, and every piece left
            unmoved is one more place the Flag may be (`FIRST_MOVE_COST` by default;
            0 scores moves as the heuristic does).
        use_beliefs: Whether the heuristic scores weigh a hidden opponent piece's ranks
            by the beliefs' chances (`stratego.beliefs.Beliefs.marginals`: where people
            put their Flag and Bombs, what the piece's moves say) or, when False, by how
            many of each rank the opponent may still have hidden, as the heuristic bot
            does. The sampled states come from the beliefs either way.
        hunt: Added to the score of each move that takes the attacker of the Flag race
            (`stratego.bots.race.plan_race`: the piece that strikes the opponent's
            likeliest Flag in the fewest moves, counted on paths) one move closer to it,
            times the chance that it is the Flag (taken off for a move away); 0 leaves
            the attack to the playouts.
        intercept: Added to the score of each move that takes a guard one move closer to
            its post: the square next to the bot's Flag that an opponent runner would
            reach first, held by a piece that beats the runner (taken off for a move
            away); 0 leaves the defence to the heuristic's pull toward intruders.
        slip: The least chance with which an opponent runner that has moved gets through
            the bot's pieces on its likeliest way to its Flag (a hidden piece that may be
            a Miner, in front of a Bomb wall) for a guard to be sent against it, the
            guard's steps then counting `intercept` times that chance; 1 (the default,
            `stratego.bots.race.SLIP`) sends guards only against runners that probably
            beat every piece in their way: 0.1 scored better against the heuristic at 200
            simulations and worse at 1,000 (the performance page).
        commit: When the target is the Flag with at least this chance and the attacker
            strikes it no later than any opponent piece can strike the bot's Flag, the
            bot plays the attacker's best step outright, without searching; None never
            does.
        trap: Added, times the piece's worth, to the score of each move that leaves an
            opponent piece of known rank next to a piece that beats it with no legal way
            out (the board, the back-and-forth rule: `stratego.bots.traps`), and taken off
            a quiet move whose piece, its rank known to the opponent, walks into a trap a
            known opponent piece can spring (for the best `candidates` moves and a few
            more); 0 leaves traps to the playouts.
        wall: Added, times the chance that the threat is a Miner, to the score of each
            move that puts a piece able to remove a Miner beside a Bomb next to the bot's
            Flag that an opponent piece which may be a Miner can strike within a few moves
            (`stratego.bots.walls`: the one move between the Miner's strike on the Bomb
            and on the Flag is enough only for a piece already there), and taken off a
            move that takes such a cover away; 0 leaves the walls to the playouts.
        wall_threats: Whether `wall` counts threats held (`WallWatch.hold`: an opponent
            piece that may be a Miner is held only while every Bomb of the wall it can
            strike has a cover, so a cover beside one Bomb holds nothing when the Miner
            reaches another without one) instead of Bombs covered (`WallWatch.cover`,
            each Bomb on its own: the default).
        wall_strikes: Whether `wall` counts a strike of a cover on a threat as removing
            that threat (``strikes=True`` of `WallWatch.cover` and `WallWatch.hold`), so
            that the piece beside the wall that strikes the Miner beside it is not
            charged for leaving its post; a cover that strikes a piece beside a Bomb
            covers it afterwards with the chance it survives the strike. Off by default:
            in games it scored one point more than the defaults over 200 at one second
            and fell short of one second at three (the performance page).
        walled: Whether its setups are drawn only among the human setups whose Flag is
            walled in by Bombs (`stratego.setup_model.sample_setup` with ``walled=True``,
            about 45% of the 40-piece army's; an army without such setups draws among
            those whose Flag no Scout strikes on its first move), as the learned bots do:
            a walled Flag falls only to a Miner, and the search defends it far better than
            an open one (see the performance page).
            False draws from all the setup model's setups.
        replies: The visits of a candidate after which the opponent's first answer to it
            in the playouts is chosen by the search instead of the playout policy: by
            UCB1 on the opponent's side of the results, over the answers legal in the
            state at hand, counted across the sampled states. Below it the answers are
            the policy's (a strike that pays on what is public, else a random step);
            past it a longer search finds the answers that hurt the candidate most, such
            as a flight or a strike the policy would not risk, so its later simulations
            measure the candidate against a better opponent. None (the default) keeps
            the policy's answers throughout: with ``replies=30`` the search scored no
            better against the heuristic at 200 or 1,000 simulations, nor against
            itself at five times the budget, than without (the performance page).
        follow: The visits of an opponent's answer (under one candidate, counted across
            the sampled states) after which the bot's own next move in the playouts that
            answer starts is chosen by the search instead of the playout policy: by UCB1
            on the bot's side of the results, over its moves legal in the state at hand
            (`stratego.bots.playouts.Answers.after`). With `replies` it makes the search
            a tree three plies deep (the candidate, the opponent's answer, the bot's
            reply), so an answer that looks strong because the playout policy would not
            punish it is met by the reply the search finds. None (the default) keeps the
            policy's replies.
        flee: The chance with which, at a playout's ply where no strike pays (and no raid
            is made), the side to move takes a piece beside an opponent piece of public
            rank that beats it to a square where none does
            (`stratego.bots.playouts.Playouts.play`'s `flee`),
            instead of a random step that mostly leaves it to be struck; 0 (the default)
            leaves it to the random steps.
        exposure: Taken, times the piece's worth and the chance the step adds that a
            hidden opponent piece beside it beats it, off each move of a piece whose
            rank the opponent knows (`stratego.bots.exposure`: the opponent strikes a
            known piece only with a piece that wins, so a known Marshal beside a piece
            that may be the Spy risks itself); a step away from such a piece gains as
            much. 0 leaves the risk to the heuristic's threat and the playouts.
        raid: The chance with which, at each ply of the opponent in a playout where no
            strike pays, the opponent raids the bot's Flag when a piece of its is in
            reach (`stratego.bots.playouts.Playouts.play`: within
            `stratego.bots.playouts.RAID_REACH` moves, through the Bombs for a piece
            that may be a Miner in the sampled state): the walks to the Flag that random
            steps almost never make, so a candidate that leaves the way open loses the
            playouts where the runner beside it is a Miner (`RAID` by default; 0 leaves
            the opponent's steps to the playout policy).
        defend: The chance with which, at each ply of the bot in a playout where no
            strike pays, the bot defends its Flag while a piece of the opponent that
            may remove Bombs by what is public (a known Miner, or a hidden piece that
            may be one) is within `stratego.bots.playouts.RAID_REACH` moves of it: its
            nearest piece that removes a Miner strikes it or steps closer
            (`stratego.bots.playouts.Playouts.play`'s `defend`), and the candidates
            take in the step that brings the nearest guard of each threatened Bomb of
            the wall without a cover one step nearer its posts
            (`stratego.bots.walls.WallWatch.approaches`), for the playouts to weigh: a
            guard two moves away is too late once the Miner is beside the wall. 0 (the
            default) leaves the bot's steps to the playout policy and the candidates to
            the scores.
        raids: Whether the race to the bot's Flag is searched
            (`stratego.bots.raids.flag_raids`) in place of the Bomb walls' cover: each
            move's score gains `wall` times the chance-weighted raiders it stops
            (`Raids.saves`, below zero for a guard's step that lets one through), and the
            moves that stop a raider that would take the Flag by force are searched among
            the candidates. Off by default until it is measured over whole runs of
            games.
        raids_horizon: With `raids`, how many moves of a raider (its strike on the
            Flag included) the race search looks ahead (by default
            `stratego.bots.raids.HORIZON`, 4): a longer horizon sees a raid while a
            guard can still be in time, at more cost in crowded positions (at most
            `stratego.bots.raids.MAX_HORIZON`).

    `simulations_done` is the number of simulations of the last decision, and
    `simulations_total` since the last `reset`. `searched` lists the candidates of the
    last decision the search weighed (`Candidate`: score, visits, mean material, the
    opponent's answer played most), in the order of their scores; it is empty when the
    move needed no search.
    """

    name = "search"

    SCORING: ClassVar[frozenset[str]] = frozenset({
        "candidates", "commit", "exposure", "first_move_cost", "guard", "hunt",
        "intercept", "raids", "raids_horizon", "slip", "trap", "use_beliefs", "wall",
        "wall_strikes", "wall_threats"})
    """The options that act only in `prepare` (the scores and the candidates), not in the
    search, its playouts or the setups: bots that differ only in these play alike
    wherever their `prepare` agrees."""

    def __init__(self, seed: int | None = None, *, simulations: int | None = None,
                 time_limit: float | None = None, depth: int = 10, candidates: int = 8,
                 determinizations: int = 24, exploration: float = 0.4,
                 prior: float = 0.3, weight: float = 0.5, guard: int = GUARD,
                 first_move_cost: float = FIRST_MOVE_COST, use_beliefs: bool = True,
                 hunt: float = HUNT, intercept: float = INTERCEPT,
                 commit: float | None = COMMIT, trap: float = TRAP,
                 wall: float = WALL, wall_threats: bool = False, walled: bool = True,
                 wall_strikes: bool = False,
                 replies: int | None = None, exposure: float = EXPOSURE,
                 slip: float = SLIP, raid: float = RAID,
                 follow: int | None = None, flee: float = 0.0,
                 defend: float = 0.0, raids: bool = False,
                 raids_horizon: int = HORIZON) -> None:
        if simulations is None and time_limit is None:
            simulations = 400
        seed = optional_seed(seed)
        for label, value, low in (("simulations", simulations, 0), ("depth", depth, 0),
                                  ("candidates", candidates, 1),
                                  ("determinizations", determinizations, 1),
                                  ("guard", guard, 0), ("replies", replies, 0),
                                  ("follow", follow, 0),
                                  ("raids_horizon", raids_horizon, 1)):
            if value is None:
                if label in _MAY_BE_NONE:
                    continue
                raise ArgumentError(f"{label} must be a number, not None")
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ArgumentError(f"{label} must be a whole number >= {low}, not "
                                    f"{shown(value)}")
        if raids_horizon > MAX_HORIZON:
            raise ArgumentError(f"raids_horizon must be at most {MAX_HORIZON}, not "
                                f"{shown(raids_horizon)}")
        for label, number in (("time_limit", time_limit), ("exploration", exploration),
                              ("first_move_cost", first_move_cost),
                              ("prior", prior), ("weight", weight), ("hunt", hunt),
                              ("intercept", intercept), ("commit", commit),
                              ("trap", trap), ("wall", wall), ("exposure", exposure)):
            if number is None:
                if label in _MAY_BE_NONE:
                    continue
                raise ArgumentError(f"{label} must be a number, not None")
            if (isinstance(number, bool) or not isinstance(number, int | float)
                    or not number >= 0 or math.isinf(number)):
                raise ArgumentError(f"{label} must be a number >= 0, not {shown(number)}")
        slip = chance_from(slip, "slip")
        if commit is not None:
            commit = chance_from(commit, "commit")  # a chance: 2 would never commit
        raid = chance_from(raid, "raid")
        flee = chance_from(flee, "flee")
        defend = chance_from(defend, "defend")
        self.seed = seed
        self.simulations = simulations
        self.time_limit = None if time_limit is None else float(time_limit)
        self.depth = depth
        self.candidates = candidates
        self.determinizations = determinizations
        self.exploration = float(exploration)
        self.prior = float(prior)
        self.weight = float(weight)
        self.guard = guard
        self.first_move_cost = float(first_move_cost)
        if not isinstance(use_beliefs, bool):
            raise ArgumentError(f"use_beliefs must be True or False, not {shown(use_beliefs)}")
        self.use_beliefs = use_beliefs
        if not isinstance(walled, bool):
            raise ArgumentError(f"walled must be True or False, not {shown(walled)}")
        self.walled = walled
        if not isinstance(wall_threats, bool):
            raise ArgumentError(f"wall_threats must be True or False, not "
                                f"{shown(wall_threats)}")
        self.wall_threats = wall_threats
        if not isinstance(wall_strikes, bool):
            raise ArgumentError(f"wall_strikes must be True or False, not "
                                f"{shown(wall_strikes)}")
        self.wall_strikes = wall_strikes
        if not isinstance(raids, bool):
            raise ArgumentError(f"raids must be True or False, not {shown(raids)}")
        self.raids = raids
        self.raids_horizon = raids_horizon
        self.hunt = float(hunt)
        self.intercept = float(intercept)
        self.commit = None if commit is None else float(commit)
        self.trap = float(trap)
        self.wall = float(wall)
        self.replies = replies
        self.follow = follow
        self.exposure = float(exposure)
        self.slip = slip
        self.raid = raid
        self.flee = flee
        self.defend = defend
        self.simulations_done = 0
        self.simulations_total = 0
        self.searched: tuple[Candidate, ...] = ()
        self._rate = 0.0  # simulations a second in the last search (sets a timed pool)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Forget past games and start again from `seed`."""
        self.seed = seed = optional_seed(seed)
        self._rng = seeded_random(seed)
        self._recent: dict[Player, deque[tuple[int, int]]] = {}
        self._playouts = Playouts()
        self.simulations_done = 0
        self.simulations_total = 0

    def setup(self, rules: Rules, player: Player, rng: random.Random) -> Setup:
        """A setup drawn from the setup model (`stratego.setup_model.sample_setup`), among
        the human setups whose Flag is walled in by Bombs unless `walled` is False."""
        return sample_setup(rules, player, rng, walled=self.walled)

    def __repr__(self) -> str:
        budgets = [f"{label}={value!r}" for label, value in (
            ("simulations", self.simulations), ("time_limit", self.time_limit))
            if value is not None]  # both when both are set: the first reached ends it
        return f"SearchBot(seed={self.seed!r}, {', '.join(budgets)})"

    def __call__(self, view: PlayerView) -> Move:
        """The move the search finds best in `view`.

        Raises `stratego.errors.ArgumentError` when `view` is not a view or gives the bot
        no legal move, `stratego.errors.SamplingError` when the bot has a choice to make
        and no game gives `view` (a view edited through JSON whose pieces contradict the
        army or its record: the message says why)."""
        setup_prior(as_view(view).rules)  # fitted once per army, off the clock
        started = _clock()
        self.simulations_done = 0
        self.searched = ()
        prepared, source = self._prepare(view)
        best = prepared.chosen
        if best is None:
            assert source is not None  # a search is left only when states can be drawn
            best = self._search(source, Player(view.player), prepared.ranked,
                                prepared.scores, started)
        self.remember(view, best)
        return best

    def prepare(self, view: PlayerView) -> Prepared:
        """What the bot settles in `view` before it searches: every move's score, the
        candidates the search would weigh and, when no search is needed, the move. It
        draws nothing from the bot's generator and changes nothing in the bot, so two
        bots whose `prepare` agree in every position of a game, with the same seed and
        budget, play that game move for move alike (`benchmarks/screen.py` uses this to
        tell which recorded games other options would play the same).

        Raises `stratego.errors.ArgumentError` and `stratego.errors.SamplingError` as a
        decision does."""
        return self._prepare(view)[0]

    def remember(self, view: PlayerView, move: Move | str) -> None:
        """Take `move` (a `Move` or its text) as the bot's own move in `view`, as a
        decision does with the move it chooses: the bot keeps its last few moves, to weigh
        going back and forth. For a driver that replays a recorded game to the bot
        (`prepare`).

        Raises `stratego.errors.ArgumentError` when `view` is not a view,
        `stratego.errors.InvalidNotationError` for what is neither a move nor its text and
        `stratego.errors.IllegalMoveError` for a move not among the view's legal moves."""
        moves = moves_to_choose(view)
        move = as_move(move)
        if move not in moves:
            raise IllegalMoveError(f"{view.player} cannot play {move} in this view: not "
                                   f"among its legal moves")
        if move.frm is not None and move.to is not None:
            recent = self._recent.setdefault(Player(view.player), deque(maxlen=6))
            recent.append((move.frm.index, move.to.index))

    def _prepare(self, view: PlayerView) -> tuple[Prepared, Beliefs | Sampler | None]:
        """`prepare`, with the source the search draws its states from."""
        moves = moves_to_choose(view)
        me = Player(view.player)
        recent = self._recent.get(me, ())
        source = _source(view) if len(moves) > 1 else None
        chances = (source.marginals() if self.use_beliefs and source is not None
                   and not isinstance(source, Sampler) else None)
        scores = move_scores(view, recent, guard=self.guard, chances=chances)
        won_steps: list[Move] = []
        choosing_steps = len(moves) > 1 and all(m.frm is not None for m in moves)
        if choosing_steps and (self.hunt or self.intercept or self.commit is not None):
            plan = plan_race(view, chances, slip=self.slip)
            for move in moves:
                scores[move] += plan.pull(move, hunt=self.hunt, guard=self.intercept)
            if self.commit is not None and plan.won(self.commit):
                won_steps = plan.winning_steps(moves)
        if won_steps:
            best = max(won_steps, key=scores.__getitem__)
            return Prepared(scores, (best,), best), source
        if self.first_move_cost:
            self._charge_first_moves(view, me, scores)
        if self.trap and source is not None:
            self._score_traps(view, source, moves, scores)
        if self.exposure and choosing_steps:
            risks = known_exposure(view, chances)
            if risks.beats:
                for move in moves:
                    scores[move] -= self.exposure * risks.cost(move)
        watch = None
        raids = None
        if self.wall and choosing_steps and self.raids:
            raids = flag_raids(view, chances, horizon=self.raids_horizon)
            if raids.after:
                for move in moves:
                    scores[move] += self.wall * raids.saves(move)
        elif self.wall and choosing_steps:
            watch = watch_walls(view, chances)
            if watch.threats:
                gain = watch.hold if self.wall_threats else watch.cover
                for move in moves:
                    scores[move] += self.wall * gain(move, strikes=self.wall_strikes)
        ranked = sorted(moves, key=lambda m: -scores[m])[:self.candidates]
        if self.defend and watch is not None:
            ranked += [m for m in watch.approaches(moves) if m not in ranked]
        if raids is not None and raids.danger:
            ranked += [m for m in raids.saving(moves) if m not in ranked]
        searched = len(ranked) > 1 and source is not None
        return Prepared(scores, tuple(ranked), None if searched else ranked[0]), source

    def _charge_first_moves(self, view: PlayerView, me: Player,
                            scores: dict[Move, float]) -> None:
        """Lower the score of each move of a piece that has never moved by
        `first_move_cost`: its first move shows the opponent it is no Bomb and no Flag."""
        unmoved = {p.square.index for p in view.pieces
                   if p.owner == me and not p.moved and p.square is not None}
        for move in scores:
            if move.frm is not None and move.frm.index in unmoved:
                scores[move] -= self.first_move_cost

    def _score_traps(self, view: PlayerView, source: Beliefs | Sampler,
                     moves: tuple[Move, ...], scores: dict[Move, float]) -> None:
        """Add `trap` times the worth of each opponent piece a move traps, and take off as
        much when the moved piece walks into a trap the opponent can spring (checked for
        the best moves only). Traps read only public ranks, the bot's own pieces and the
        squares taken, so any state drawn for the view gives the same answer: the state is
        drawn from a generator of its own, leaving the search's draws as they were."""
        if not any(p.rank is not None and p.owner != view.player and p.square is not None
                   and p.rank not in (Rank.BOMB, Rank.FLAG) for p in view.pieces):
            return  # no opponent piece of known rank: nothing to trap, nothing to fear
        try:
            state = source.sample(random.Random(f"traps {self.seed} {view.ply}"))
        except SamplingError:
            return
        board = state.board
        for move in moves:
            for square in trapped(state, move):
                scores[move] += self.trap * PIECE_VALUES[board[square.index] & 15]
        checked = sorted(moves, key=lambda m: -scores[m])[:self.candidates + _TRAP_CHECKS]
        for move in checked:
            if move.frm is not None and move.to is not None and board[move.to.index] == 0 \
                    and move.to in traps_for(apply(state, move)):
                scores[move] -= self.trap * PIECE_VALUES[board[move.frm.index] & 15]

    # -- the search ---------------------------------------------------------

    def _search(self, source: Beliefs | Sampler, me: Player, ranked: Sequence[Move],
                scores: Mapping[Move, float], started: float) -> Move:
        rng = self._rng
        top = scores[ranked[0]]
        bias = [self.prior * (squash(scores[m] - top) - 0.5) for m in ranked]
        pool: list[tuple[GameState, float, PublicCounts, int]] = []
        playout = random.Random()
        visits = [0] * len(ranked)
        totals = [0.0] * len(ranked)
        material = [0.0] * len(ranked)
        answers = ([Answers() for _ in ranked]
                   if self.replies is not None or self.follow is not None else None)
        budget = self.simulations
        deadline = None if self.time_limit is None else started + self.time_limit
        size = self._pool_size(self._expected())  # fixed for the decision: see below
        done = 0
        slowest = 0.0
        searching = _clock()
        while budget is None or done < budget:
            now = _clock()
            if deadline is not None and now + slowest > deadline:
                break
            pick = self._select(visits, totals, bias, done)
            n = visits[pick]
            # The pool's size is set before the first simulation: were it to grow as the
            # simulations are done, a candidate visited early and one visited late would
            # map their n-th simulation to different states and dice.
            if n < size:
                while len(pool) <= n:
                    try:
                        state = source.sample(rng)
                    except SamplingError:  # no draw met the whole-state facts: the
                        # best score is played (a view no game gives was refused before)
                        if not pool:
                            return ranked[0]
                        state = pool[0][0]
                    pool.append((state, self._playouts.evaluate(state, me), PublicCounts(state),
                                 rng.getrandbits(32)))
                slot = n
            else:
                slot = n % size  # the pool is full: this candidate's first visits filled it
            state, base, public, seed = pool[slot]
            # the n-th playout of every candidate: the same state, the same dice
            playout.seed(seed + n // size)
            gained = self._playouts.play(
                state, ranked[pick], me, base, playout, public, depth=self.depth,
                answers=None if answers is None else answers[pick], replies=self.replies,
                follow=self.follow, flee=self.flee,
                exploration=self.exploration, raid=self.raid, defend=self.defend)
            totals[pick] += squash(gained)
            material[pick] += gained
            visits[pick] += 1
            done += 1
            slowest = max(slowest, _clock() - now)
        self.simulations_done = done
        self.simulations_total += done
        elapsed = _clock() - searching
        if done and elapsed > 0:
            self._rate = done / elapsed
        self.searched = tuple(
            Candidate(m, scores[m], visits[i],
                      material[i] / visits[i] if visits[i] else None,
                      None if answers is None else answers[i].most_played())
            for i, m in enumerate(ranked))
        if not done:
            return ranked[0]
        final = [scores[m] + rng.random() * _NOISE
                 + (self.weight * material[i] / visits[i] if visits[i] else -math.inf)
                 for i, m in enumerate(ranked)]
        return ranked[max(range(len(ranked)), key=final.__getitem__)]

    def _select(self, visits: list[int], totals: list[float], bias: list[float],
                done: int) -> int:
        for i, n in enumerate(visits):
            if n == 0:
                return i
        log = math.log(done + 1)
        c = self.exploration
        best, best_key = 0, -math.inf
        for i, n in enumerate(visits):
            key = totals[i] / n + c * math.sqrt(log / n) + bias[i] / math.sqrt(n)
            if key > best_key:
                best, best_key = i, key
        return best

    def _pool_size(self, budget: int) -> int:
        """How many determinizations the pool holds in a decision of `budget` simulations:
        `determinizations` up to 400 simulations, then growing as the square root of the
        budget (68 at 3,300 simulations, 119 at 9,900)."""
        n = self.determinizations
        if budget <= _POOL_BASE:
            return n
        return int(n * math.sqrt(budget / _POOL_BASE))

    def _expected(self) -> int:
        """The simulations the coming decision will do: its `simulations` budget; on the
        clock, what the last decision's rate gives in `time_limit` (400 before any), or
        the fewer of the two when both are set."""
        budget = self.simulations
        if self.time_limit is not None:
            timed = int(self._rate * self.time_limit) if self._rate else _POOL_BASE
            budget = timed if budget is None else min(budget, timed)
        return _POOL_BASE if budget is None else budget


def _source(view: PlayerView) -> Beliefs | Sampler:
    """What the search draws states from: the beliefs, or the uniform sampler after a
    hidden Rescue under Silent Defense, which the beliefs do not cover. Raises
    `SamplingError` for a view no game gives (the beliefs check its record; the sampler
    finds no assignment of ranks that fits it)."""
    if not hidden_rescues(view):
        beliefs = Beliefs(view)
        beliefs.check()  # the view's record: a view no game gives is refused
        return beliefs
    sampler = Sampler(view)
    if not sampler.count:
        raise SamplingError(f"no assignment of ranks to the {len(view.hidden())} hidden "
                            f"pieces fits the view")
    return sampler
