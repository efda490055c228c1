"""Beliefs about hidden ranks: one joint distribution over the assignments that fit the
view (the sampler's sets and the army's counts), weighted by a setup prior.

The oracle is brute force: on small views every assignment is listed
(`stratego.sampling.hidden_assignments`) and weighed with `Beliefs.weight`, and the
marginals, log-probabilities and draws are checked against the normalised weights.
"""

from __future__ import annotations

import collections
import math
import random
from collections.abc import Callable

import pytest

import stratego
from stratego import Player, Rank
from stratego.beliefs import Beliefs, SetupPrior, setup_prior
from stratego.bots import RandomBot
from stratego.editions import CLASSIC, by_name
from stratego.errors import ArgumentError, RulesError, SamplingError
from stratego.sampling import hidden_assignments, sample_state
from stratego.setup_model import sample_setup
from stratego.state import GameState
from stratego.variants import SILENT_DEFENSE
from stratego.views import PlayerView, view
from test_sampling import counting_checks, quiet_game

BARRAGE = by_name("classic+barrage")
DUEL = by_name("jumbo-2014+duel")


class _General(Beliefs):
    """The same beliefs through the general chain (no short path)."""

    _use_fast = False


def _game(rules: stratego.Rules, seed: int, plies: int) -> GameState:
    state = stratego.new_game(rules, sample_setup(rules, Player.RED, seed),
                              sample_setup(rules, Player.BLUE, seed + 1000))
    bots = {Player.RED: RandomBot(seed), Player.BLUE: RandomBot(seed + 1)}
    for _ in range(plies):
        if state.outcome is not None:
            break
        state = stratego.apply(state, bots[state.to_move](view(state, state.to_move)))
    return state


def _marginals_of(weighted: list[tuple[dict[int, Rank], float]]) -> dict[int, dict[Rank, float]]:
    """The marginals of the normalised weights of every assignment."""
    total = sum(w for _, w in weighted)
    marg: dict[int, dict[Rank, float]] = collections.defaultdict(dict)
    for a, w in weighted:
        for pid, rank in a.items():
            marg[pid][rank] = marg[pid].get(rank, 0.0) + w / total
    return marg


def _brute(b: Beliefs) -> tuple[dict[int, dict[Rank, float]], list[tuple[dict[int, Rank], float]]]:
    weighted = [(a, b.weight(a)) for a in hidden_assignments(b.view)]
    total = sum(w for _, w in weighted)
    return _marginals_of(weighted), [(a, w / total) for a, w in weighted]


def _assert_draws_follow_the_marginals(b: Beliefs, rng: random.Random, n: int = 2000) -> None:
    """Each piece takes each rank in `n` draws as often as the marginals say, within five
    standard errors."""
    seen: collections.Counter[tuple[int, Rank]] = collections.Counter()
    for _ in range(n):
        for pid, rank in b.sample_ranks(rng).items():
            seen[pid, rank] += 1
    for pid, probs in b.marginals().items():
        for rank, p in probs.items():
            error = 5 * math.sqrt(p * (1 - p) / n) + 1e-9
            assert abs(seen[pid, rank] / n - p) <= error, (pid, rank)


SMALL = [(BARRAGE, 3, 0), (BARRAGE, 4, 30), (DUEL, 6, 90)]


@pytest.mark.parametrize(("rules", "seed", "plies"), SMALL)
@pytest.mark.parametrize("kind", [Beliefs, _General])
def test_marginals_and_log_prob_agree_with_brute_force(
        rules: stratego.Rules, seed: int, plies: int, kind: type[Beliefs]) -> None:
    """Marginals are those of the normalised weights over every assignment that fits
    the view, through either chain."""
    state = _game(rules, seed, plies)
    b = kind(view(state, Player.RED))
    marg, probs = _brute(b)
    got = b.marginals()
    assert set(got) == set(marg)
    for pid, expected in marg.items():
        for rank in set(expected) | set(got[pid]):
            assert got[pid].get(rank, 0.0) == pytest.approx(expected.get(rank, 0.0), abs=1e-9)
    assert sum(p for _, p in probs) == pytest.approx(1.0)
    true = {p.id: p.rank for p in state.info.pieces[1:] if p is not None}
    ranks = {pid: Rank(true[pid]) for pid in marg}
    expected_lp = math.log({tuple(sorted(a.items())): p for a, p in probs}[
        tuple(sorted(ranks.items()))])
    assert b.log_prob(state) == pytest.approx(expected_lp)


@pytest.mark.parametrize(("rules", "seed", "plies"), SMALL[:2])
def test_draws_follow_the_marginals(rules: stratego.Rules, seed: int, plies: int) -> None:
    """Draws are from the belief: the Flag's piece and the Bombs' pieces appear in 2,000
    seeded draws as often as the marginals say (within five standard errors)."""
    state = _game(rules, seed, plies)
    _assert_draws_follow_the_marginals(Beliefs(view(state, Player.RED)), random.Random(1))


@pytest.mark.parametrize(("rules", "plies"), [(CLASSIC, 0), (CLASSIC, 80), (CLASSIC, 200),
                                              (BARRAGE, 40)])
def test_marginals_sum_to_one_and_to_the_army(rules: stratego.Rules, plies: int) -> None:
    """Each piece's chances add up to 1 and, over the pieces, each rank's to the number
    the army has left unseen (they are the marginals of one joint distribution)."""
    state = _game(rules, 11, plies)
    v = view(state, Player.BLUE)
    marg = Beliefs(v).marginals()
    left = collections.Counter({r: n for r, n in enumerate(v.armies[Player.RED]) if n})
    for p in v.all_pieces():
        if p.owner is Player.RED and p.rank is not None:
            left[p.rank] -= 1
    totals: collections.Counter[int] = collections.Counter()
    for probs in marg.values():
        assert sum(probs.values()) == pytest.approx(1.0)
        for rank, q in probs.items():
            totals[rank] += q  # type: ignore[assignment]
    for rank in Rank:
        assert totals[rank] == pytest.approx(left[rank], abs=1e-9)


def test_a_moved_piece_is_no_bomb_or_flag_and_the_prior_prefers_the_back_row() -> None:
    """Evidence from the view: a moved piece has no chance of being a Bomb or the Flag
    (Movement: they never move), so those ranks are left out of its marginals and the
    documented idiom ``marginals()[piece_id].get(Rank.FLAG, 0.0)`` reads 0; at the first
    move a back-row piece is likelier the Flag than a front-row piece (people put the Flag
    at the back)."""
    state = _game(CLASSIC, 3, 60)
    v = view(state, Player.RED)
    marg = Beliefs(v).marginals()
    moved = [p for p in v.pieces if p.owner is Player.BLUE and p.rank is None and p.moved]
    assert moved
    for p in moved:
        assert Rank.FLAG not in marg[p.id]
        assert Rank.BOMB not in marg[p.id]
        assert marg[p.id].get(Rank.FLAG, 0.0) == 0.0
    first = view(_game(CLASSIC, 3, 0), Player.RED)
    marg0 = Beliefs(first).marginals()
    back = [marg0[p.id][Rank.FLAG] for p in first.pieces if p.square and p.square.row == 9]
    front = [marg0[p.id][Rank.FLAG] for p in first.pieces if p.square and p.square.row == 6]
    assert min(back) > max(front)


def test_two_states_with_the_same_view_give_the_same_beliefs() -> None:
    """Hidden-information safety: the beliefs read only the view, so a state drawn from
    the view (other hidden ranks, same view) gives the same marginals and draws."""
    state = _game(CLASSIC, 21, 70)
    v = view(state, Player.RED)
    other = sample_state(v, 5)
    assert view(other, Player.RED) == v
    assert other != state
    a, b = Beliefs(v), Beliefs(view(other, Player.RED))
    assert a.marginals() == b.marginals()
    assert a.sample_ranks(random.Random(3)) == b.sample_ranks(random.Random(3))


def test_sample_is_seeded_and_consistent_with_the_view() -> None:
    """`sample` gives a full state whose view is the view, the same one for a seed."""
    state = _game(CLASSIC, 8, 50)
    v = view(state, Player.RED)
    b = Beliefs(v)
    one = b.sample(random.Random(4))
    assert one == b.sample(4)
    assert view(one, Player.RED) == v
    assert math.isfinite(b.log_prob(one))


def test_the_prior_is_fitted_per_army_with_a_flag_bomb_pattern() -> None:
    """The classic prior learns that Bombs stand next to the Flag (a factor above 1) and
    that the back row holds the Flag far more often than the front row."""
    prior = setup_prior(CLASSIC)
    assert prior.rho > 1
    assert sum(prior.flag[:10]) > 5 * sum(prior.flag[30:40])


def test_bad_input_raises_argument_error() -> None:
    """Anything but a view is refused (`ArgumentError`, as the bots refuse it), naming what
    was given; so are a state that is not a `GameState` and a prior that is not a
    `SetupPrior`."""
    with pytest.raises(ArgumentError, match="not a player's view: 'view'"):
        Beliefs("view")  # type: ignore[arg-type]
    b = Beliefs(view(_game(BARRAGE, 1, 0), Player.RED))
    with pytest.raises(ArgumentError, match="not a GameState"):
        b.log_prob("state")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="not a SetupPrior"):
        Beliefs(b.view, 1)  # type: ignore[arg-type]
    assert isinstance(b.view, PlayerView)


def _beliefs_called_wrongly() -> list[tuple[str, Callable[[Beliefs], object]]]:
    return [
        ("not a SetupPrior: 'x'", lambda b: Beliefs(b.view, prior="x")),  # type: ignore[arg-type]
        ("not a GameState: None", lambda b: b.log_prob(None)),  # type: ignore[arg-type]
        ("ranks must map piece ids to ranks, not None",
         lambda b: b.weight(None)),  # type: ignore[arg-type]
        ("ranks must map piece ids to ranks, not 'F'",
         lambda b: b.weight("F")),  # type: ignore[arg-type]
        ("ranks must map piece ids to ranks, not piece",
         lambda b: b.weight(dict.fromkeys(b.marginals(), "F"))),  # type: ignore[arg-type]
        ("Beliefs.sample needs a random.Random", lambda b: b.sample([])),  # type: ignore[arg-type]
        ("Beliefs.sample_ranks needs a random.Random",
         lambda b: b.sample_ranks([])),  # type: ignore[arg-type]
        ("max_draws must be a positive whole number, not 0",
         lambda b: b.sample(1, max_draws=0)),
    ]


@pytest.mark.parametrize(("words", "call"), _beliefs_called_wrongly(),
                         ids=[w for w, _ in _beliefs_called_wrongly()])
def test_wrong_arguments_are_argument_errors_not_sampling_errors(
        words: str, call: Callable[[Beliefs], object]) -> None:
    """A wrong argument to the beliefs is a programming error: `ArgumentError` naming it,
    never the `SamplingError` a bot catches to fall back to the uniform sampler (which
    would swallow it). `SamplingError` stays for a view the beliefs cannot cover."""
    b = Beliefs(view(_game(CLASSIC, 4, 20), Player.RED))
    with pytest.raises(ArgumentError, match=words) as caught:
        call(b)
    assert not isinstance(caught.value, SamplingError)


def test_a_very_long_game_keeps_the_beliefs_finite() -> None:
    """A game without a ply limit can run past the ply where ``exp(MOVE_RATES[row] * ply)``
    overflows (NaN marginals from about ply 13,600, an OverflowError from about 90,000):
    the factor stops growing at `LATE_PLIES`."""
    from stratego.sampling.beliefs import LATE_PLIES

    state = _game(CLASSIC, 3, 40)
    data = view(state, Player.RED).to_dict()
    results = []
    for ply in (LATE_PLIES, 20_000, 100_000):
        data["ply"] = ply
        beliefs = Beliefs(PlayerView.from_dict(data))
        marginals = beliefs.marginals()
        assert all(math.isfinite(p) for ranks in marginals.values() for p in ranks.values())
        assert math.isfinite(beliefs.log_prob(beliefs.sample(random.Random(1))))
        results.append(marginals)
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("kind", [Beliefs, _General])
def test_beliefs_check_their_view_once_and_their_draws_share_the_history(
        kind: type[Beliefs], monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/performance.md, Sampling from a view: the checks of the view are paid once per
    `Beliefs` (its behaviour clues' parts and `check` included), not once per draw, and
    the draws share one history chain (no hidden rank changes it), so that a draw costs
    the same late in a long game as early. Each draw is still the state `build_state`
    rebuilds for its ranks, plays on as that state does, and the beliefs pickle after
    their draws."""
    import pickle

    from stratego.sampling import build_state

    state = quiet_game(CLASSIC, 3, 1200)  # moves onto empty squares, so that it lasts
    rng = random.Random(3)
    seen = view(state, state.to_move)
    checked = counting_checks(monkeypatch)
    beliefs = kind(seen)
    assert beliefs.clues  # parts of the belief, one per split of the clues
    beliefs.check()
    draws = [beliefs.sample(rng) for _ in range(20)]
    assert checked == [seen]
    assert len(set(draws)) > 1
    assert all(d.history is draws[0].history for d in draws)
    d = draws[0]
    fresh = build_state(seen, {p.id: Rank(d.info.pieces[p.id].rank)  # type: ignore[union-attr]
                               for p in seen.hidden()})
    assert fresh == d
    assert fresh.history_records() == d.history_records()
    move = stratego.legal_moves(d)[0]
    after, fresh_after = stratego.apply(d, move), stratego.apply(fresh, move)
    assert after == fresh_after
    assert all(view(after, p) == view(fresh_after, p) for p in Player)
    copy = pickle.loads(pickle.dumps(beliefs))
    assert copy.sample(random.Random(9)) == beliefs.sample(random.Random(9))


def test_flags_of_the_beliefs_and_the_setup_model_are_true_or_false() -> None:
    """``behaviour="no"`` and ``walled="no"`` were accepted, and read as True."""
    from stratego.errors import ArgumentError

    seen = view(_game(CLASSIC, 4, 20), Player.RED)
    with pytest.raises(ArgumentError, match="behaviour must be True or False, not 'no'"):
        Beliefs(seen, behaviour="no")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="walled must be True or False, not 'no'"):
        sample_setup(CLASSIC, Player.RED, 1, walled="no")  # type: ignore[arg-type]


def test_weight_refuses_what_is_no_rank() -> None:
    """`Beliefs.weight` of a mapping with a value that is no rank raised a bare TypeError
    or ValueError ("negative shift count")."""
    beliefs = Beliefs(view(_game(CLASSIC, 4, 20), Player.RED))
    hidden = next(iter(beliefs.marginals()))  # a piece whose rank is hidden
    for bad in ("x", -1, 99):
        with pytest.raises(ArgumentError, match=f"not piece {hidden} to"):
            beliefs.weight({hidden: bad})  # type: ignore[dict-item]


def test_log_prob_rules_out_states_the_view_rules_out() -> None:
    """`log_prob` is the belief's chance of a state given the view: a state of another
    game, or of the same game at another ply, has none, even where its pieces' ranks by
    id would fit the view's hidden pieces; a state drawn from the view has some."""
    state = _game(CLASSIC, 8, 50)
    b = Beliefs(view(state, Player.RED))
    assert math.isfinite(b.log_prob(state))
    assert math.isfinite(b.log_prob(b.sample(4)))
    assert b.log_prob(_game(CLASSIC, 9, 50)) == -math.inf
    assert b.log_prob(_game(CLASSIC, 8, 52)) == -math.inf


def test_candidates_with_different_other_ranks_take_the_general_chain() -> None:
    """Under Silent Defense a piece that won a strike unseen may be a Bomb or only some of
    the other ranks ("higher than a Scout"): the chain then counts the candidates per set
    of other ranks. Its marginals still add up per piece and per rank, and 1,000 draws
    follow them (within five standard errors)."""
    rules = stratego.HASBRO_2009.with_variants(SILENT_DEFENSE)
    state = stratego.new_game(rules, sample_setup(rules, Player.RED, 0),
                              sample_setup(rules, Player.BLUE, 1))
    bots = {Player.RED: RandomBot(0), Player.BLUE: RandomBot(1)}
    for _ in range(150):
        state = stratego.apply(state, bots[state.to_move](view(state, state.to_move)))
    b = Beliefs(view(state, Player.RED))
    assert not b._fast
    assert len(b._groups) > 1
    marg = b.marginals()
    totals: collections.Counter[Rank] = collections.Counter()
    for probs in marg.values():
        assert sum(probs.values()) == pytest.approx(1.0)
        for rank, q in probs.items():
            totals[rank] += q  # type: ignore[assignment]
    for rank in Rank:
        assert totals[rank] == pytest.approx(b._counts[rank], abs=1e-9)
    rng = random.Random(2)
    n = 1000
    seen: collections.Counter[tuple[int, Rank]] = collections.Counter()
    for _ in range(n):
        for pid, rank in b.sample_ranks(rng).items():
            seen[pid, rank] += 1
    for pid, probs in marg.items():
        for rank, p in probs.items():
            assert abs(seen[pid, rank] / n - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-9


@pytest.mark.parametrize("rules", [CLASSIC, BARRAGE, by_name("jumbo-2014+silent-defense")])
def test_beliefs_samplers_and_variants_pickle_for_worker_processes(
        rules: stratego.Rules) -> None:
    """A bot that keeps a `Beliefs` or a `Sampler` (or rules with variants) crosses to a
    worker process by pickling: the copy gives the same marginals, counts and draws
    (its cache of counts is rebuilt), and a registered variant comes back as itself."""
    import pickle

    from stratego.sampling import Sampler
    from stratego.variants import VARIANTS

    for variant in VARIANTS.values():
        assert pickle.loads(pickle.dumps(variant)) is variant
    seen = view(_game(rules, 3, 30), Player.RED)
    beliefs, sampler = Beliefs(seen), Sampler(seen)
    marginals, count = beliefs.marginals(), sampler.count
    beliefs_copy, sampler_copy = pickle.loads(pickle.dumps((beliefs, sampler)))
    assert beliefs_copy.marginals() == marginals
    assert sampler_copy.count == count
    assert sampler_copy.sample(random.Random(5)) == sampler.sample(random.Random(5))
    assert beliefs_copy.sample(random.Random(5)) == beliefs.sample(random.Random(5))


def test_a_view_no_game_gives_gets_no_marginals() -> None:
    """A view edited through JSON to mark every Blue piece moved, while their sets still
    hold the Flag and the Bombs, has assignments that fit its sets but no game behind it:
    `marginals` and `sample` refuse it (`SamplingError` naming the piece and what its
    record rules out) instead of answering; one that gives Blue two Flags is refused when
    the beliefs are built."""
    data = view(_game(CLASSIC, 4, 0), Player.RED).to_dict()
    for piece in data["pieces"]:
        if piece["owner"] == "blue":
            piece["moved"] = True
    edited = PlayerView.from_dict(data)
    words = "piece 41: possible: the view allows Flag, Bomb, which its record rules out"
    with pytest.raises(SamplingError, match=words):
        Beliefs(edited).marginals()
    with pytest.raises(SamplingError, match=words):
        _General(edited).marginals()
    with pytest.raises(SamplingError, match=words):
        Beliefs(edited).sample(1)
    with pytest.raises(SamplingError, match=words):  # the check alone, no chance computed
        Beliefs(edited).check()
    Beliefs(view(_game(CLASSIC, 4, 0), Player.RED)).check()  # a view a game gives passes
    data = view(_game(CLASSIC, 4, 0), Player.RED).to_dict()
    data["armies"]["blue"]["F"] = 2
    with pytest.raises(SamplingError, match="armies: blue has 2 Flag"):
        Beliefs(PlayerView.from_dict(data))


def _prior(**changed: object) -> SetupPrior:
    fields: dict[str, object] = {"flag": [0.1] * 40, "bomb": [0.2] * 40, "other": [0.7] * 40,
                                 "rho": 2.0, "setups": 0}
    fields.update(changed)
    return SetupPrior(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(("changed", "words"), [
    ({"other": [0] * 40}, r"other\[0\] must be above 0"),
    ({"flag": [], "bomb": [], "other": []}, "one share for each square of the setup area"),
    ({"bomb": [0.2] * 30}, "not 40, 30 and 40 shares"),
    ({"flag": [0.1] * 35, "bomb": [0.2] * 35, "other": [0.7] * 35}, "rows of 10"),
    ({"flag": "F" * 40}, "flag must be a sequence of shares"),
    ({"bomb": 3}, "bomb must be a sequence of shares"),
    ({"flag": [-0.1] * 40}, r"flag\[0\] must be a number >= 0, not -0.1"),
    ({"bomb": ["x"] * 40}, r"bomb\[0\] must be a number >= 0, not 'x'"),
    ({"other": [math.inf] * 40}, r"other\[0\] must be a number >= 0, not inf"),
    ({"rho": math.nan}, "rho must be a number above 0, not nan"),
    ({"rho": 0}, "rho must be a number above 0, not 0"),
    ({"rho": "4"}, "rho must be a number above 0, not '4'"),
    ({"setups": -1}, "setups must be a whole number >= 0, not -1"),
    ({"setups": 1.5}, "setups must be a whole number >= 0, not 1.5"),
    ({"army": "classic"}, "army must be an Army or None, not 'classic'"),
])
def test_a_setup_prior_is_checked_when_it_is_made(changed: dict[str, object],
                                                  words: str) -> None:
    """`SetupPrior` is public, so what it is made of is checked (`ArgumentError` naming the
    field) rather than failing later as a division by zero, an index out of range or a
    view no assignment fits."""
    with pytest.raises(ArgumentError, match=words):
        _prior(**changed)


def test_a_prior_that_does_not_fit_the_view_is_refused() -> None:
    """A prior meets the view's rules: one fitted for another army, one of another setup
    area, or one that puts the army's Flag or Bombs on no square is an `ArgumentError`
    naming the prior; a prior made by hand for the setup area is taken."""
    seen = view(_game(CLASSIC, 4, 0), Player.RED)
    with pytest.raises(ArgumentError, match="prior: fitted for another army than the classic"):
        Beliefs(seen, setup_prior(BARRAGE))
    with pytest.raises(ArgumentError, match="prior: has shares for 30 squares, the classic "
                                            "setup area has 40"):
        Beliefs(seen, _prior(flag=[0.1] * 30, bomb=[0.2] * 30, other=[0.7] * 30))
    with pytest.raises(ArgumentError, match="prior: its flag shares are all 0"):
        Beliefs(seen, _prior(flag=[0] * 40))
    with pytest.raises(ArgumentError, match="prior: its bomb shares are all 0"):
        Beliefs(seen, _prior(bomb=[0] * 40))
    marginals = Beliefs(seen, _prior()).marginals()
    assert math.isclose(sum(m.get(Rank.FLAG, 0.0) for m in marginals.values()), 1.0)
    assert setup_prior(CLASSIC).army == CLASSIC.army


@pytest.mark.parametrize("rules", [[], {}, set(), 3, None])
def test_setup_prior_takes_rules_or_a_rules_name(rules: object) -> None:
    """Rules are taken as a `Rules` value or a name, as everywhere (docs/faq.md): a name
    gives the prior of those rules; anything else is a `RulesError`, not a bare
    `TypeError` from the cache."""
    assert setup_prior("classic") is setup_prior(CLASSIC)
    assert setup_prior("classic+barrage").rho == setup_prior(BARRAGE).rho
    with pytest.raises(RulesError, match="rules are a Rules value or a rules name"):
        setup_prior(rules)  # type: ignore[arg-type]


def test_late_plies_is_exported_with_the_model_it_describes() -> None:
    """The module's text names `LATE_PLIES`: it is importable from `stratego.beliefs`."""
    from stratego.beliefs import LATE_PLIES, __all__

    assert LATE_PLIES == 3000
    assert "LATE_PLIES" in __all__
