"""`stratego.bots.SearchBot`: a determinizing search that reads nothing but the view, is
deterministic for a seed and a simulation budget, keeps to its budget and plays every
edition and variant. (Its strength is measured in benchmarks/search_strength.py.)"""

from __future__ import annotations

import random
import time
from typing import Any

import attrs
import pytest

import stratego
from positions import reveal
from stratego import Move, Player, Rank, setup_model
from stratego.beliefs import Beliefs
from stratego.bots import RandomBot, SearchBot, make_bot
from stratego.bots import search as search_module
from stratego.bots.heuristic import PIECE_VALUES, move_scores
from stratego.bots.playouts import RAID_REACH, WIN, Answers, Playouts, PublicCounts, dynamic_value
from stratego.bots.search import Candidate
from stratego.editions import CLASSIC, EDITIONS, JUMBO_2014
from stratego.errors import ArgumentError, SamplingError
from stratego.match import play_game
from stratego.sampling import Sampler
from stratego.sampling import prior as prior_module
from stratego.sampling.hidden_rescues import hidden_rescues
from stratego.variants import RESCUE, SILENT_DEFENSE, VARIANTS
from stratego.views import PlayerView, view


def _midgame(seed: int = 3, plies: int = 40) -> PlayerView:
    """Red's view after `plies` plies of two random bots."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, seed),
                              stratego.random_setup(CLASSIC, Player.BLUE, seed + 1))
    bots = (RandomBot(seed), RandomBot(seed + 2))
    while state.ply < plies or state.to_move is not Player.RED:
        state = stratego.apply(state, bots[state.to_move](view(state, state.to_move)))
    return view(state, Player.RED)


def test_the_same_seed_and_simulations_give_the_same_moves() -> None:
    seen = _midgame()
    assert SearchBot(5, simulations=30)(seen) == SearchBot(5, simulations=30)(seen)
    bot = SearchBot(9, simulations=20, depth=4)
    first = [bot(seen) for _ in range(3)]
    bot.reset(9)
    assert [bot(seen) for _ in range(3)] == first
    assert all(move in seen.legal_moves for move in first)


def test_a_view_read_back_from_json_gives_the_same_move() -> None:
    """The bot reads the view's public fields only (a view rebuilt from JSON has no state
    or cache behind it)."""
    seen = _midgame(seed=8)
    again = PlayerView.from_json(seen.to_json())
    assert SearchBot(2, simulations=25)(again) == SearchBot(2, simulations=25)(seen)


def test_it_runs_exactly_its_simulations() -> None:
    seen = _midgame()
    bot = SearchBot(1, simulations=17, depth=3)
    bot(seen)
    assert bot.simulations_done == 17
    bot(seen)
    assert bot.simulations_total == 34
    zero = SearchBot(1, simulations=0)
    assert zero(seen) in seen.legal_moves
    assert zero.simulations_done == 0


def test_a_time_limit_stops_the_search_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock that advances 1 ms per reading: the search stops before the limit
    would be passed by one more simulation (two readings each), whatever the machine."""
    now = [100.0]
    readings = []

    def clock() -> float:
        now[0] += 0.001
        readings.append(now[0])
        return now[0]

    monkeypatch.setattr(search_module, "_clock", clock)
    bot = SearchBot(1, time_limit=0.05, depth=2)
    bot(_midgame())
    spent = readings[-1] - readings[0]
    assert 0 < bot.simulations_done < 50
    assert spent <= 0.05 + 0.002 + 1e-9


def test_both_budgets_stop_at_the_first_reached() -> None:
    bot = SearchBot(1, simulations=5, time_limit=1000.0, depth=2)
    bot(_midgame())
    assert bot.simulations_done == 5


@pytest.mark.parametrize("bad", [{"simulations": -1}, {"simulations": 2.5},
                                 {"time_limit": "soon"}, {"time_limit": -1.0},
                                 {"depth": -2}, {"candidates": 0}, {"prior": float("inf")},
                                 {"guard": -1}, {"guard": 1.5},
                                 {"first_move_cost": -1.0}, {"use_beliefs": 1},
                                 {"walled": "yes"}, {"replies": -1}, {"replies": 2.5},
                                 {"follow": -1}, {"follow": "all"}, {"flee": 2.0},
                                 {"raid": 1.5}, {"raid": -0.1}, {"raid": True},
                                 {"defend": 1.5}, {"defend": "often"}, {"commit": 2.0}])
def test_bad_budgets_are_refused(bad: dict[str, object]) -> None:
    """A budget that is not a whole number or number of the right sign is an
    ArgumentError naming it."""
    with pytest.raises(ArgumentError, match=next(iter(bad))):
        SearchBot(1, **bad)  # type: ignore[arg-type]


def test_a_first_move_costs_what_it_tells_the_opponent() -> None:
    """A piece's first move shows the opponent it is no Bomb and no Flag: with
    `first_move_cost` the search's scores charge it. With no simulations the bot plays its
    best-scored move; at a large cost that is the best heuristic move among the pieces
    that have already moved, where without the cost it moves a piece that had not. The
    default charges it (`FIRST_MOVE_COST`)."""
    seen = _midgame(seed=3, plies=12)
    moved = {p.square.index for p in seen.pieces
             if p.owner is Player.RED and p.moved and p.square is not None}
    scores = move_scores(seen)
    free = max(seen.legal_moves, key=scores.__getitem__)
    assert free.frm is not None
    assert free.frm.index not in moved
    expected = max((m for m in seen.legal_moves if m.frm is not None and m.frm.index in moved),
                   key=scores.__getitem__)
    assert SearchBot(1, simulations=0, first_move_cost=0, use_beliefs=False)(seen) == free
    assert SearchBot(1, simulations=0, first_move_cost=100.0,
                     use_beliefs=False)(seen) == expected
    assert SearchBot(1).first_move_cost == search_module.FIRST_MOVE_COST > 0


def test_the_search_weighs_hidden_ranks_by_its_beliefs() -> None:
    """The search scores moves with the heuristic, a hidden piece's ranks weighed by the
    beliefs' marginals (`use_beliefs`, the default) or by the counts alone. With no
    simulations it plays its best-scored move (without the exposure, which weighs the
    beliefs too); in this view the two weighings pick different moves."""
    seen = _midgame(seed=6, plies=20)
    counted = move_scores(seen)
    believed = move_scores(seen, chances=Beliefs(seen).marginals())
    best_counted = max(seen.legal_moves, key=counted.__getitem__)
    best_believed = max(seen.legal_moves, key=believed.__getitem__)
    assert best_counted != best_believed
    assert SearchBot(1, simulations=0, first_move_cost=0, exposure=0)(seen) == best_believed
    assert SearchBot(1, simulations=0, first_move_cost=0, exposure=0,
                     use_beliefs=False)(seen) == best_counted
    assert SearchBot(1).use_beliefs is True


def test_it_is_built_by_name_with_options() -> None:
    bot = make_bot("search(simulations=3, depth=2)", 4)
    assert isinstance(bot, SearchBot)
    assert (bot.simulations, bot.depth, bot.seed) == (3, 2, 4)
    assert make_bot("search", 1, time_limit=0.5).time_limit == 0.5  # type: ignore[attr-defined]


def test_it_takes_a_revealed_weaker_piece() -> None:
    """Every book: the higher rank wins a strike; a known Scout next to a General is taken."""
    state = reveal(stratego.from_position(
        CLASSIC, {"e4": "G", "a1": "F", "e5": "x", "j10": "f", "a10": "b", "c7": "m"},
        to_move=Player.RED), "e5", Rank.SCOUT)
    seen = view(state, Player.RED)
    scout = seen.piece_at("e5")
    assert scout is not None
    assert scout.rank is Rank.SCOUT
    assert SearchBot(1, simulations=40)(seen) == Move.parse("e4-e5")


def test_it_decides_a_rescue() -> None:
    """Hasbro 2009 / Jumbo 2014, Rescue: the decision is searched like a move, and the bot
    brings back a piece rather than decline."""
    rules = JUMBO_2014.with_variants(RESCUE)
    state = stratego.from_position(
        rules, {"e9": "K", "a1": "F", "j1": "B", "a10": "f", "b10": "b", "j9": "t"},
        captured=[(Player.RED, Rank.MARSHAL), (Player.RED, Rank.SCOUT), (Player.RED, Rank.MINER)],
    )
    seen = view(stratego.apply(state, "e9-e10"), Player.RED)
    assert seen.pending_rescue is not None
    move = SearchBot(3, simulations=30)(seen)
    assert move in seen.legal_moves
    assert move.rescued is not None


def _rule_sets() -> list[stratego.Rules]:
    found = []
    for edition in EDITIONS.values():
        found.append(edition)
        for variant in VARIANTS.values():
            try:
                found.append(edition.with_variants(variant))
            except stratego.RulesError:
                continue
    return found


@pytest.mark.parametrize("rules", _rule_sets(), ids=lambda r: r.name)
def test_it_plays_every_edition_and_variant(rules: stratego.Rules) -> None:
    game = play_game(rules, SearchBot(1, simulations=3, depth=3), RandomBot(2), seed=5,
                     max_plies=30)
    assert game.termination != "illegal move"
    assert game.plies > 0


def test_a_timed_pool_is_sized_by_the_last_decisions_rate() -> None:
    """On the clock the pool is sized for the simulations the time limit gives at the
    last decision's rate: the base size before any decision, larger once the bot knows
    its rate, never larger than a `simulations` budget set beside the limit allows."""
    bot = SearchBot(1, time_limit=1.0, determinizations=8)
    assert bot._pool_size(bot._expected()) == 8
    bot(_midgame(seed=4, plies=30))
    assert bot.simulations_done > 0
    assert bot._rate > 0
    assert bot._expected() == int(bot._rate * 1.0)
    both = SearchBot(1, time_limit=1.0, simulations=100)
    both._rate = 10_000.0
    assert both._expected() == 100


def test_the_pool_of_determinizations_grows_with_the_budget() -> None:
    """Up to 400 simulations the pool holds `determinizations` states; past that it grows
    as the square root of the budget, so a longer budget sees more of the
    hidden ranks' possibilities."""
    bot = SearchBot(1, determinizations=24)
    sizes = [bot._pool_size(n) for n in (0, 400, 1600, 3300, 9900)]
    assert sizes[:2] == [24, 24]
    assert sizes[2] == 48
    assert sizes == sorted(sizes)
    assert sizes[-1] > sizes[-2] > sizes[2]


def test_rank_values_change_as_pieces_fall() -> None:
    """The evaluation's worth of a rank: a General counts as a Marshal once the opponent's
    Marshal is gone, a Spy as a Scout (it only matters against the Marshal), and a Bomb or
    a Scout never changes."""
    every = sum(1 << r for r in Rank)
    no_marshal = every & ~(1 << Rank.MARSHAL)
    value = dynamic_value
    values = PIECE_VALUES
    assert value(Rank.GENERAL, every) == values[Rank.GENERAL]
    assert value(Rank.GENERAL, no_marshal) == values[Rank.MARSHAL]
    assert value(Rank.SPY, no_marshal) == values[Rank.SCOUT]
    assert value(Rank.SPY, every) == values[Rank.SPY]
    assert value(Rank.BOMB, 0) == values[Rank.BOMB]
    assert value(Rank.SCOUT, 0) == values[Rank.SCOUT]


def test_a_known_rank_is_worth_less_than_a_hidden_one() -> None:
    """The value of keeping ranks unknown: the same position is worth less to Red once a
    strike has shown Blue the rank of Red's Marshal."""
    from stratego.sampling import sample_state

    seen = _midgame(5, 30)
    state = sample_state(seen, 1)
    playouts = Playouts()
    marshal = next(p for p in state.info.pieces[1:]
                   if p is not None and p.owner is Player.RED and p.rank is Rank.MARSHAL)
    known = list(state.known)
    assert known[marshal.id] & (known[marshal.id] - 1)  # not yet known to Blue
    shown = attrs.evolve(state, known=tuple(1 << Rank.MARSHAL if i == marshal.id else k
                                            for i, k in enumerate(known)))
    assert playouts.evaluate(shown, Player.RED) < playouts.evaluate(state, Player.RED)


def _chase() -> PlayerView:
    """Red's known Marshal on e4 may step beside Blue's known General on e6; Blue's other
    movable pieces are four known Sergeants on its back row."""
    placement = {"a1": "F", "b1": "B", "e4": "M", "h1": "T", "e6": "g", "j10": "f",
                 "i10": "b", "h9": "b", "a10": "t", "b10": "t", "c10": "t", "d10": "t"}
    state = stratego.from_position(CLASSIC, placement, to_move=Player.RED)
    for square, rank in (("e4", Rank.MARSHAL), ("e6", Rank.GENERAL), ("a10", Rank.SERGEANT),
                         ("b10", Rank.SERGEANT), ("c10", Rank.SERGEANT),
                         ("d10", Rank.SERGEANT)):
        state = reveal(state, square, rank)
    return view(state, Player.RED)


def _searched(bot: SearchBot, move: str) -> Candidate:
    return next(c for c in bot.searched if c.move == Move.parse(move))


def test_the_search_finds_the_opponents_best_answer() -> None:
    """Every book: the higher rank wins a strike, so a General next to a known Marshal
    should step away. The playout policy steps at random when no strike pays, so after
    e4-e5 it leaves the General beside the Marshal in most playouts; once a candidate has
    `replies` visits the opponent's answer is the search's own, which finds the flight,
    and the candidate is no longer credited with a General the opponent would not give."""
    seen = _chase()
    policy = SearchBot(1, simulations=400, replies=None, commit=None)
    policy(seen)
    searched = SearchBot(1, simulations=400, replies=0, commit=None)
    searched(seen)
    chase = _searched(searched, "e4-e5")
    assert chase.answer is not None
    assert str(chase.answer.frm) == "e6"
    assert str(chase.answer.to) in {"d6", "f6", "e7"}
    assert _searched(policy, "e4-e5").answer is None
    credited = _searched(policy, "e4-e5").material
    assert chase.material is not None
    assert credited is not None
    assert chase.material < credited - 2
    assert sum(c.visits for c in searched.searched) == searched.simulations_done == 400


def test_the_bots_reply_to_an_answer_is_searched_too() -> None:
    """Every book: the higher rank wins a strike. After a quiet candidate, Blue's known
    General answering e6-e5 steps beside Red's known Colonel on e4; the playout policy's
    reply is a random step, which mostly leaves the Colonel to be struck. With `follow`
    the bot's reply to that answer is searched (a third ply of the tree, on Red's side of
    the results), and the reply it plays most is the Colonel's flight; without it the
    node keeps no replies."""
    placement = {"a1": "F", "b1": "B", "a2": "B", "e4": "C", "h1": "T", "e6": "g",
                 "j10": "f", "i10": "b", "j9": "b", "a10": "t", "b10": "t", "c10": "t",
                 "d10": "t"}
    state = stratego.from_position(CLASSIC, placement, to_move=Player.RED)
    for square, rank in (("e4", Rank.COLONEL), ("e6", Rank.GENERAL),
                         ("a10", Rank.SERGEANT), ("b10", Rank.SERGEANT),
                         ("c10", Rank.SERGEANT), ("d10", Rank.SERGEANT)):
        state = reveal(state, square, rank)
    seen = view(state, Player.RED)
    beliefs = Beliefs(seen)
    rng = random.Random(5)
    states = [beliefs.sample(rng) for _ in range(8)]
    threat, candidate = Move.parse("e6-e5"), Move.parse("h1-i1")
    nodes = {}
    for follow in (None, 0):
        playouts = Playouts()
        node = nodes[follow] = Answers()
        for n in range(400):
            sampled = states[n % 8]
            playouts.play(sampled, candidate, Player.RED,
                          playouts.evaluate(sampled, Player.RED), n, PublicCounts(sampled),
                          depth=6, answers=node, replies=0, follow=follow)
        assert node.visits == 400
        assert node.count[threat] > 0
    assert nodes[None].next == {}
    replies = nodes[0].next[threat]
    assert replies.mine
    assert replies.visits == nodes[0].count[threat]
    most = max(replies.count, key=replies.count.__getitem__)
    assert str(most.frm) == "e4"
    assert str(most.to) in {"d4", "f4", "e3"}


def test_a_threatened_piece_flees_in_the_playouts() -> None:
    """Every book: the higher rank wins a strike. Blue's known Colonel on e5 stands
    beside Red's known General on e4; no strike pays Blue. With ``flee=1`` Blue's answer
    in every playout takes the Colonel to a square no piece that beats it stands beside
    (f5 or e6); with ``flee=0`` the random steps mostly move other pieces."""
    placement = {"a1": "F", "b1": "B", "a2": "B", "e4": "G", "h1": "T", "e5": "c",
                 "j10": "f", "i10": "b", "j9": "b", "a10": "t", "b10": "t", "c10": "t",
                 "d10": "t"}
    state = stratego.from_position(CLASSIC, placement, to_move=Player.RED)
    for square, rank in (("e4", Rank.GENERAL), ("e5", Rank.COLONEL)):
        state = reveal(state, square, rank)
    candidate = Move.parse("h1-i1")
    answered = {}
    for flee in (0.0, 1.0):
        playouts = Playouts()
        node = answered[flee] = Answers()
        for n in range(60):
            playouts.play(state, candidate, Player.RED, playouts.evaluate(state, Player.RED),
                          n, PublicCounts(state), depth=2, answers=node, flee=flee)
    assert {str(m) for m in answered[1.0].count} <= {"e5-f5", "e5-e6"}
    assert answered[1.0].visits == 60
    fled = sum(n for m, n in answered[0.0].count.items() if str(m.frm) == "e5")
    assert fled < 30


def test_answers_are_chosen_for_the_side_that_answers() -> None:
    """The opponent's answers are chosen for the opponent (the bot's lowest result), the
    bot's own replies for the bot (its highest)."""
    low, high = Move.parse("a4-a5"), Move.parse("b4-b5")
    for mine, chosen in ((False, low), (True, high)):
        node = Answers(mine=mine)
        for _ in range(20):
            node.record(low, 0.1)
            node.record(high, 0.9)
        assert node.choose((low, high), low if mine else high, 0.1) == chosen


def test_the_search_lists_what_it_weighed() -> None:
    """`searched` holds the last decision's candidates in the order of their scores, with
    the visits summing to the simulations; a move that needed no search leaves it empty."""
    bot = SearchBot(2, simulations=60)
    move = bot(_midgame())
    assert move in {c.move for c in bot.searched}
    scores = [c.score for c in bot.searched]
    assert scores == sorted(scores, reverse=True)
    assert sum(c.visits for c in bot.searched) == 60
    assert all(c.material is not None for c in bot.searched if c.visits)
    only = stratego.from_position(CLASSIC, {"a1": "F", "b1": "B", "c1": "T", "d1": "B",
                                            "j10": "f", "j9": "b", "i10": "b"},
                                  to_move=Player.RED)
    assert len(stratego.legal_moves(only)) == 1
    bot(view(only, Player.RED))
    assert bot.searched == ()


def test_prepare_is_what_the_decision_weighs_and_changes_nothing() -> None:
    """`prepare` gives the scores and the candidates the decision searches (the moves of
    `searched`, with their scores) and leaves the bot as it was: a bot that prepared
    first chooses what a fresh bot of the same seed chooses. A move that needs no
    search is `chosen`."""
    seen = _midgame()
    bot = SearchBot(2, simulations=60)
    prepared = bot.prepare(seen)
    assert prepared == bot.prepare(seen)
    assert prepared.chosen is None
    assert set(prepared.scores) == set(seen.legal_moves)
    move = bot(seen)
    assert move == SearchBot(2, simulations=60)(seen)
    assert {c.move: c.score for c in bot.searched} == \
        {m: prepared.scores[m] for m in prepared.ranked}
    only = stratego.from_position(CLASSIC, {"a1": "F", "b1": "B", "c1": "T", "d1": "B",
                                            "j10": "f", "j9": "b", "i10": "b"},
                                  to_move=Player.RED)
    single = bot.prepare(view(only, Player.RED))
    assert single.chosen == Move.parse("c1-c2")
    assert single.ranked == (single.chosen,)


def test_prepare_depends_only_on_the_view() -> None:
    """Differential: states drawn for Red's view (other hidden Blue ranks and places)
    give Red's bot the same scores, candidates and choice, with the race to the Flag
    searched too."""
    seen = _midgame()
    variants: list[dict[str, Any]] = [{}, {"raids": True, "raids_horizon": 6}]
    for options in variants:
        expected = SearchBot(2, simulations=20, **options).prepare(seen)
        rng = random.Random(7)
        for _ in range(3):
            other = view(Sampler(seen).sample(rng), Player.RED)
            assert SearchBot(2, simulations=20, **options).prepare(other) == expected


def test_remember_weighs_the_bots_own_moves_as_a_decision_does() -> None:
    """A bot told (`remember`) the move it played scores going back as a bot that chose
    that move itself does: the two prepare alike in the next position."""
    seen = _midgame()
    chooser = SearchBot(2, simulations=20)
    told = SearchBot(2, simulations=20)
    move = chooser(seen)
    told.remember(seen, move)
    assert told.prepare(seen) == chooser.prepare(seen)
    assert told.prepare(seen) != SearchBot(2, simulations=20).prepare(seen)


@pytest.mark.parametrize(("simulations", "determinizations"), [(200, 6), (1600, 4)])
def test_every_candidate_meets_the_same_states_and_dice(simulations: int, determinizations: int,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """Common random numbers: the n-th playout of every candidate starts from the same
    sampled state with the playout's random generator in the same state, so candidates
    are compared on the same futures and their difference is not the luck of the draw;
    past 400 simulations too, where the pool is larger (set for the whole decision, so a
    candidate visited late maps its n-th playout as one visited early did)."""
    seen = _midgame(seed=4, plies=30)
    bot = SearchBot(2, simulations=simulations, candidates=4,
                    determinizations=determinizations)
    starts: dict[Move, list[tuple[int, object]]] = {}
    play = Playouts.play

    def recorded(self: Playouts, state: stratego.GameState, move: Move, me: Player,
                 base: float, rng: random.Random, *args: Any, **options: Any) -> float:
        starts.setdefault(move, []).append((id(state), rng.getstate()))
        return play(self, state, move, me, base, rng, *args, **options)

    monkeypatch.setattr(Playouts, "play", recorded)
    bot(seen)
    assert len(starts) == 4
    runs = list(starts.values())
    shortest = min(len(r) for r in runs)
    assert shortest >= 2
    for n in range(shortest):
        assert len({r[n] for r in runs}) == 1
    assert runs[0][0] != runs[0][1]  # and a new future for the next playout
    pool = bot._pool_size(simulations)
    assert shortest > pool  # the round robin came round
    assert len({r[n][0] for r in runs for n in range(shortest)}) == pool


def test_a_playout_takes_its_dice_as_the_library_takes_an_rng() -> None:
    """`Playouts.play` follows the library's convention for randomness: a generator, a
    seed (the same playout as a generator seeded alike) or None; anything else is refused
    with the library's error, naming the argument."""
    from stratego.sampling import sample_state

    state = sample_state(_midgame(5, 40), 2)
    move = stratego.legal_moves(state)[0]
    playouts = Playouts()
    base = playouts.evaluate(state, Player.RED)

    def played(rng: random.Random | int | None) -> float:
        return playouts.play(state, move, Player.RED, base, rng, PublicCounts(state),
                             depth=12)

    results = [played(seed) for seed in range(8)]
    assert len(set(results)) > 1  # the dice matter here
    assert results == [played(random.Random(seed)) for seed in range(8)]
    assert isinstance(played(None), float)
    with pytest.raises(ArgumentError, match=r"Playouts\.play needs a random\.Random"):
        played([1, 2])  # type: ignore[arg-type]


def test_the_playouts_weigh_a_hidden_piece_by_the_pieces_like_it() -> None:
    """A playout's strike on a hidden piece is weighed by the ranks of that side's pieces
    the public record cannot tell from it: a piece that has moved is no Bomb and no Flag,
    and an unmoved one is as likely a Bomb as the unmoved pieces left are Bombs."""
    from stratego.sampling import sample_state

    state = sample_state(_midgame(5, 60), 3)
    public = PublicCounts(state)
    for side in Player:
        unmoved = [code & 15 for code in state.board
                   if code and (code >> 4) & 1 == side
                   and not state.moved_mask >> (code >> 5) & 1
                   and state.known[code >> 5] & (state.known[code >> 5] - 1)]
        groups = {key: counts for key, counts in public.groups.items() if key[0] == side}
        stepped = [counts for (_, moved, _), counts in groups.items() if moved]
        assert stepped
        assert all(c[Rank.BOMB] == c[Rank.FLAG] == 0 for c in stepped)
        still = [counts for (_, moved, _), counts in groups.items() if not moved]
        assert sum(sum(c) for c in still) == len(unmoved)
        assert sum(c[Rank.BOMB] for c in still) == unmoved.count(Rank.BOMB)


def _raid_position(miner: str = "h8") -> stratego.GameState:
    """Red's Flag on j10 behind Red's Bombs on i10 and j9 (as if Red played from the top),
    a Blue Miner on `miner` and a Blue Sergeant on e10; Blue's Flag on a1 behind a Bomb,
    Red's Lieutenant far off on a7. Blue to move."""
    return stratego.from_position(CLASSIC, {"j10": "F", "i10": "B", "j9": "B", "a7": "L",
                                            miner: "n", "e10": "t", "a1": "f", "a2": "b"},
                                  to_move=Player.BLUE)


def test_raid_distances_go_around_bombs_unless_the_piece_removes_them() -> None:
    """Every book: a Miner removes a Bomb it strikes, any other piece striking one is
    removed. So the way to a Flag behind Bombs is open to a Miner only: the raid measures
    it through the Bombs for pieces that remove them and around them for the rest."""
    public = PublicCounts(_raid_position())
    distances = public.raid_distances(Player.BLUE)  # Blue's raiders, to Red's Flag
    assert distances is not None
    walk, through = distances
    square = {name: stratego.Square.parse(name).index
              for name in ("j10", "i10", "i9", "h10", "h8")}
    assert walk[square["j10"]] == through[square["j10"]] == 0
    assert walk[square["i10"]] > RAID_REACH  # walled in: no way for a walker
    assert walk[square["h10"]] > RAID_REACH
    assert (through[square["i10"]], through[square["i9"]], through[square["h10"]]) == (1, 2, 2)
    assert through[square["h8"]] == 4
    assert public.raid_distances(Player.RED) is not None  # Blue's Flag on a1
    alone = stratego.from_position(CLASSIC, {"j10": "F", "a7": "L", "h8": "n", "a1": "f"},
                                   to_move=Player.BLUE)
    assert PublicCounts(alone).raid_distances(Player.RED) is not None
    assert PublicCounts(alone).raid_distances(Player.BLUE) is not None


def test_a_raiding_opponent_walks_its_miner_through_the_wall_to_the_flag() -> None:
    """Every book: a Miner removes the Bomb it strikes and capturing the Flag wins. With
    `raid` the playout's opponent walks a piece in reach of the bot's Flag to it: Blue's
    Miner four moves off (through a Bomb) takes Red's Flag in most playouts, where the
    random steps of the policy almost never do. Red's own pieces never raid."""
    state = _raid_position()
    red_move = Move.parse("a7-a8")
    after = stratego.apply(state, Move.parse("e10-e9"))  # Red to move
    playouts = Playouts()
    base = playouts.evaluate(after, Player.RED)
    lost = {}
    for raid in (0.0, 1.0):
        results = [playouts.play(after, red_move, Player.RED, base, seed, PublicCounts(after),
                                 depth=12, raid=raid) for seed in range(40)]
        lost[raid] = sum(result == -WIN for result in results)
    assert lost[1.0] >= 30
    assert lost[0.0] <= 10
    # the same Miner in playouts where Blue is the bot: its own pieces do not raid, so it
    # reaches Red's Flag only as the policy's steps bring it
    blue_base = playouts.evaluate(state, Player.BLUE)
    won = [playouts.play(state, Move.parse("e10-e9"), Player.BLUE, blue_base, seed,
                         PublicCounts(state), depth=12, raid=1.0) for seed in range(40)]
    assert sum(result == WIN for result in won) < lost[1.0] - 15


def test_a_defending_bot_strikes_the_miner_on_its_way_to_the_flag() -> None:
    """Every book: a Sergeant removes a Miner it strikes (classic "Attacking": the higher
    rank wins), and a Miner removes a Bomb. Blue's Miner on h8 raids Red's Flag through
    the wall in every playout (`raid=1.0`); Red's Sergeant on i7 is two steps from the
    squares the Miner walks through. Left to the policy's steps it seldom gets there in
    time; with `defend` it walks toward the Miner and strikes it, and the Flag is lost in
    far fewer playouts."""
    state = stratego.from_position(CLASSIC, {"j10": "F", "i10": "B", "j9": "B", "a7": "L",
                                             "i7": "T", "h8": "n", "e10": "t", "a1": "f",
                                             "a2": "b"}, to_move=Player.BLUE)
    after = stratego.apply(state, Move.parse("e10-e9"))  # Red to move
    playouts = Playouts()
    base = playouts.evaluate(after, Player.RED)
    lost = {}
    for defend in (0.0, 1.0):
        results = [playouts.play(after, Move.parse("a7-a8"), Player.RED, base, seed,
                                 PublicCounts(after), depth=12, raid=1.0, defend=defend)
                   for seed in range(40)]
        lost[defend] = sum(result == -WIN for result in results)
    assert lost[0.0] >= 20
    assert lost[1.0] <= 5


def test_the_repr_shows_every_budget_that_applies() -> None:
    """Both budgets apply when both are set (the first reached ends the decision), so the
    repr shows both; it showed only the time limit."""
    assert repr(SearchBot(simulations=100, time_limit=0.01)) == (
        "SearchBot(seed=None, simulations=100, time_limit=0.01)")
    assert repr(SearchBot(3)) == "SearchBot(seed=3, simulations=400)"
    assert repr(SearchBot(time_limit=0.5)) == "SearchBot(seed=None, time_limit=0.5)"


def _moved_hidden(seen: PlayerView) -> int:
    """The id of a hidden opponent piece of `seen` that has moved (no Bomb, no Flag)."""
    return next(p.id for p in seen.hidden() if p.moved and p.square is not None)


@pytest.mark.parametrize(("chances", "words"), [
    (lambda hidden, mine: {hidden: {"F": 1.0}}, r"chances of piece \d+: not a rank: 'F'"),
    (lambda hidden, mine: {hidden: {99: 1.0}}, r"chances of piece \d+: not a rank: 99"),
    (lambda hidden, mine: {hidden: {Rank.BOMB: float("nan")}},
     r"chances of piece \d+: the chance of Bomb must be a number from 0 to 1, not nan"),
    (lambda hidden, mine: {hidden: {Rank.FLAG: 5.0}},
     r"chances of piece \d+: the chance of Flag must be a number from 0 to 1, not 5.0"),
    (lambda hidden, mine: {hidden: {Rank.FLAG: True}}, "not True"),
    (lambda hidden, mine: {mine: {Rank.FLAG: 1.0}}, r"hidden opponent pieces .*; \d+ is not one"),
    (lambda hidden, mine: {9999: {Rank.FLAG: 1.0}}, "; 9999 is not one"),
    (lambda hidden, mine: {str(hidden): {Rank.FLAG: 1.0}}, r"; '\d+' is not one"),
    (lambda hidden, mine: {hidden: [1.0]}, r"not piece \d+ to \[1.0\]"),
], ids=["rank-text", "rank-out-of-range", "nan", "five", "bool", "own-piece", "no-piece",
        "id-text", "no-mapping"])
def test_move_scores_checks_every_entry_of_the_chances(chances: Any, words: str) -> None:
    """`move_scores(chances=...)` looked up only the ranks a piece on the board may have:
    rank keys given as text, NaN or 5.0 for a rank the view rules out (a moved piece's
    Bomb), and keys that are no hidden opponent piece's id were ignored. Each is now an
    `ArgumentError` naming the piece id, the key or the value, as `Beliefs.marginals`
    (the search bot's chances) still passes."""
    seen = _midgame()
    hidden = _moved_hidden(seen)
    mine = next(p.id for p in seen.pieces if p.owner is seen.player)
    with pytest.raises(ArgumentError, match=words):
        move_scores(seen, chances=chances(hidden, mine))
    assert move_scores(seen, chances=Beliefs(seen).marginals()).keys() == set(seen.legal_moves)
    as_ints = move_scores(seen, chances={hidden: {int(Rank.SCOUT): 1.0}})  # type: ignore[dict-item]
    assert as_ints == move_scores(seen, chances={hidden: {Rank.SCOUT: 1.0}})


@pytest.mark.parametrize("guard", [-1, -3, 1.5, True, None, "3"])
def test_move_scores_takes_the_guard_the_search_bot_takes(guard: object) -> None:
    """`move_scores(guard=-1)` scored as if no piece were an intruder, where
    `SearchBot(guard=-1)` is refused: both refuse it with the same message."""
    seen = _midgame()
    with pytest.raises(ArgumentError, match="guard must be") as scored:
        move_scores(seen, guard=guard)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="guard must be") as built:
        SearchBot(guard=guard)  # type: ignore[arg-type]
    if guard is not None:
        assert str(scored.value) == str(built.value)
    assert move_scores(seen, guard=0).keys() == set(seen.legal_moves)


_PLAYED = {
    "classic": "f4-f5 j7-j6 f5-e5 j6-j5 e5-e6 i7-i6 f3-f4 i6-j6 f4-f5 b7-b6 e6-f6 e7-e5 f5-e5 "
               "j5-j4 j3-j4 h7-i7 f6-e6 b8-b7 e6-e7 i7-i6 e5-e6 j6-j7 e7-e8 j7-j6 a4-a5 "
               "i6-i7 a3-a4 e8-e7 a5-a6 h8-h7",
    "classic+barrage": "j4-j9 j9-i9 b4-b10 i9-h9 b10-f10 e9-e10 j2-i2 f9-f8 e4-e5 c8-c9 e5-e6 "
                       "g9-e9 e6-e7 f8-f4 e7-f7 f10-f9 f7-g7 e9-e6 g7-h7",
    "classic+ultimate-lightning": "j4-j5 i9-i6 j5-i5 j9-h9 i5-i6 h8-g8 i6-i7 g8-e8 i7-j7 h9-h7 "
                                  "j7-j8 h7-h8 h1-h2 d9-c9 h2-h3 c7-c8 h3-g3 e8-d9 g3-f3 b7-b6 "
                                  "f3-e3 h8-h10 e3-e4 g7-g8 a4-a5 d9-e10 e4-e5 g8-h8 a2-a4 "
                                  "h10-h9",
}
"""The first plies of 60-ply games of `SearchBot(seed, simulations=12, depth=4)` (Red)
against a `RandomBot`, as the bot has always played them: the benchmark results were
measured with these choices."""


@pytest.mark.parametrize(("name", "seed"), [("classic", 1), ("classic+barrage", 1),
                                            ("classic+ultimate-lightning", 2)])
def test_the_same_seed_plays_the_same_games_as_before(name: str, seed: int) -> None:
    """Checks of the view and of the beliefs' prior change no choice of the search: a
    seed and a simulation budget play the moves recorded for them."""
    expected = _PLAYED[name].split()
    game = play_game(name, SearchBot(seed, simulations=12, depth=4), RandomBot(seed + 7),
                     seed=seed + 3, max_plies=60, keep_state=True)
    assert game.state is not None
    played = []
    node = game.state.history
    while node is not None:
        played.append(str(node[1][0]))
        node = node[0]
    assert played[::-1][:len(expected)] == expected


def _edited(seen: PlayerView, edit: Any) -> PlayerView:
    data = seen.to_dict()
    edit(data)
    return PlayerView.from_dict(data)


def _two_flags(data: dict[str, Any]) -> None:
    data["armies"]["blue"]["F"] = 2


def _all_moved(data: dict[str, Any]) -> None:
    for piece in data["pieces"]:
        if piece["owner"] == "blue":
            piece["moved"] = True


@pytest.mark.parametrize(("edit", "words"), [
    (_two_flags, "armies: blue has 2 Flag"),
    (_all_moved, r"piece 41: possible: the view allows Flag, Bomb, which its record rules out"),
])
@pytest.mark.parametrize("use_beliefs", [True, False])
def test_a_view_no_game_gives_is_refused(edit: Any, words: str, use_beliefs: bool) -> None:
    """"Raises `stratego.errors.SamplingError` when the bot has a choice to make and no
    game gives `view`": a view edited through JSON to give Blue two Flags, or to mark
    every Blue piece moved while its pieces may still be the Flag or a Bomb, is refused by
    a decision and by `prepare`, naming why, instead of being played on."""
    seen = _edited(view(stratego.new_game(
        CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
        stratego.random_setup(CLASSIC, Player.BLUE, 2)), Player.RED), edit)
    bot = SearchBot(1, simulations=20, use_beliefs=use_beliefs)
    with pytest.raises(SamplingError, match=words):
        bot(seen)
    with pytest.raises(SamplingError, match=words):
        bot.prepare(seen)


def test_a_hidden_rescue_is_searched_with_the_uniform_sampler() -> None:
    """The beliefs do not cover a hidden Rescue under Silent Defense; the search draws
    from the uniform sampler there and plays on (it is no view a game cannot give)."""
    rules = stratego.editions.HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE)
    placement: dict[str, tuple[Player, Rank] | str] = {
        "e4": (Player.RED, Rank.MAJOR), "a9": (Player.RED, Rank.COLONEL),
        "h9": (Player.RED, Rank.CAPTAIN), "j1": (Player.RED, Rank.FLAG),
        "e5": "m", "j7": "t", "j10": "f"}
    start = stratego.from_position(rules, placement, captured=[(Player.RED, Rank.LIEUTENANT)])
    state = start
    for move in ("e4-e5", "j7-j6", "a9-a10", "L@a2", "j6-j5", "a10-b10"):
        state = stratego.apply(state, move)
    seen = view(state, Player.BLUE)
    assert hidden_rescues(seen)
    with pytest.raises(SamplingError, match="beliefs do not cover a hidden Rescue"):
        Beliefs(seen)
    bot = SearchBot(1, simulations=20)
    assert bot(seen) in seen.legal_moves
    assert bot.simulations_done == 20


def test_the_setup_prior_is_fitted_before_the_clock_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first decision in a process fits the army's setup prior before its clock starts
    (the module documentation): a fit slower than the whole time limit still leaves the
    search its time."""
    fitting = setup_model.training_texts

    def slow(rules: stratego.Rules) -> tuple[str, ...]:
        time.sleep(0.15)
        return fitting(rules)

    seen = _midgame()
    monkeypatch.setattr(prior_module, "training_texts", slow)
    prior_module._fitted.cache_clear()
    try:
        bot = SearchBot(1, time_limit=0.05, depth=2)
        bot(seen)
        assert bot.simulations_done > 0
    finally:
        prior_module._fitted.cache_clear()  # refitted as usual by the next user
