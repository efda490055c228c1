"""Rule components and the `Rules` value that composes them.

Every difference between the rulebooks is a parameter of one small frozen
component (`Movement`, `StrikeRule`, `RepetitionRule`, ...). The engine reads
these parameters; it never asks which edition it is playing. An edition
(`stratego.editions`) is a `Rules` value, and a variant (`stratego.variants`)
is a named transformation of one, so that any edition with any compatible set
of variants is again a `Rules` value:

```python
from stratego.editions import HASBRO_2009
from stratego.variants import AGGRESSOR_ADVANTAGE, RESCUE
rules = HASBRO_2009.with_variants(AGGRESSOR_ADVANTAGE, RESCUE)
```
"""

from __future__ import annotations

import difflib
import enum
import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from stratego.errors import InvalidNotationError, RulesError, not_a_member, shown
from stratego.pieces import Rank
from stratego.repetition import BackAndForth, Chase, ScoutReading

__all__ = [
    "MAX_PLY_LIMIT",
    "Army",
    "Disclosure",
    "Movement",
    "MovementCitations",
    "RankLabels",
    "RepetitionRule",
    "RescueRule",
    "RescueZone",
    "Rules",
    "SetupRule",
    "StrikeRule",
    "Variant",
    "as_rules",
    "register_variant",
    "registered_variant",
]


@attrs.frozen
class RankLabels:
    """The labels an edition prints on its pieces, indexed by `Rank` value."""

    labels: tuple[str, ...]

    def label(self, rank: Rank) -> str:
        """The printed label of `rank` (``"1"`` for the Marshal in the 1961 book)."""
        return self.labels[Rank(rank)]

    def parse(self, text: str) -> Rank:
        """The rank whose printed label is `text`; rank names and symbols work too."""
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"not a rank label: {shown(text)} (this edition prints {', '.join(self.labels)})"
            )
        key = text.strip().upper()
        for rank, label in enumerate(self.labels):
            if label.upper() == key:
                return Rank(rank)
        try:
            return Rank.parse(text)
        except InvalidNotationError:
            raise InvalidNotationError(
                f"not a rank label: {shown(text)} (this edition prints {', '.join(self.labels)})"
            ) from None


CLASSIC_LABELS = RankLabels(("F", "S", "9", "8", "7", "6", "5", "4", "3", "2", "1", "B"))
"""Marshal 1 ... Scout 9, Spy S (Milton Bradley 1961, Hasbro 2009)."""

MODERN_LABELS = RankLabels(("F", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B"))
"""Marshal 10 ... Spy 1 (Jumbo 2014)."""


@attrs.frozen
class Army:
    """How many pieces of each rank one player has, indexed by `Rank` value."""

    counts: tuple[int, ...] = attrs.field()

    @counts.validator
    def _check(self, _attribute: object, value: tuple[int, ...]) -> None:
        if not (isinstance(value, tuple) and len(value) == len(Rank) and all(
                isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in value)):
            raise RulesError(
                f"an army needs a non-negative count for each of the 12 ranks: {shown(value)}"
            )

    @classmethod
    def of(cls, counts: Mapping[Rank, int]) -> Army:
        """Build an army from a mapping of rank to count (missing ranks count 0).
        Raises `RulesError` for what is not such a mapping."""
        if not isinstance(counts, Mapping):
            raise RulesError(f"an army is a mapping of ranks to counts, not {shown(counts)}")
        try:
            return cls(tuple(operator.index(counts.get(rank, 0)) for rank in Rank))
        except TypeError:
            raise RulesError(f"an army's counts are whole numbers, not "
                             f"{shown(counts)}") from None

    def count(self, rank: Rank) -> int:
        """How many pieces of `rank` the army has (`InvalidNotationError` for no rank)."""
        return self.counts[rank if type(rank) is Rank else Rank(rank)]

    @property
    def size(self) -> int:
        """The number of pieces."""
        return sum(self.counts)

    def ranks(self) -> list[Rank]:
        """Every piece's rank, strongest first (Marshal ... Spy), then the Flag, then the Bombs
        (the order seeded draws such as `stratego.random_setup` start from)."""
        order = sorted(
            Rank, key=lambda r: (r in (Rank.BOMB, Rank.FLAG), -r if r != Rank.BOMB else 0)
        )
        return [rank for rank in order for _ in range(self.counts[rank])]


STANDARD_ARMY = Army.of(
    {
        Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.COLONEL: 2, Rank.MAJOR: 3, Rank.CAPTAIN: 4,
        Rank.LIEUTENANT: 4, Rank.SERGEANT: 4, Rank.MINER: 5, Rank.SCOUT: 8, Rank.SPY: 1,
        Rank.BOMB: 6, Rank.FLAG: 1,
    }
)
"""The 40-piece army of every base edition."""


@attrs.frozen
class SetupRule:
    """Where pieces start: the player's first `depth` rows; `fill` demands every square used."""

    depth: int = 4
    fill: bool = True


@attrs.frozen
class MovementCitations:
    """Where a book writes each rule of movement, as the explanations of an illegal move
    cite it (``"Hasbro 2009, Movement 3"``); an empty text cites nothing (the default, for
    a `Movement` built by hand). Each edition of `stratego.editions` cites its own book.

    * `staying`: Bombs and the Flag never move;
    * `lake`: no piece enters a lake;
    * `own_piece`: two pieces never share a square;
    * `no_strike`: Bombs and the Flag never strike;
    * `one_square`: a piece moves one square at a time (Scouts excepted);
    * `diagonal`: never diagonally;
    * `diagonal_strike`: no strike diagonally (a rule of striking, in every book);
    * `blocked`: no piece moves through or jumps over another;
    * `scout_line`: the Scout goes along a straight line of open squares;
    * `scout_lake`: nor does the Scout cross a lake.
    """

    staying: str = ""
    lake: str = ""
    own_piece: str = ""
    no_strike: str = ""
    one_square: str = ""
    diagonal: str = ""
    diagonal_strike: str = ""
    blocked: str = ""
    scout_line: str = ""
    scout_lake: str = ""


@attrs.frozen
class Movement:
    """How pieces move.

    * `scout_strikes_after_move`: a Scout may move several squares and strike
      in the same turn (Jumbo 2014, classic web rules) or not (1961, 2009).
    * `captain_two_step`: Ultimate Lightning Captains move up to two squares.
    * `bombs_move` / `flag_moves`: the Moving Bombs and Moving Flag variants.
      Neither a Bomb nor the Flag may ever strike.
    * `cited`: where the book writes each of these rules, for explanations
      (`MovementCitations`). Words, not rules: two `Movement` values that differ only
      in their citations are equal (rules built by hand that move as an edition moves
      equal it).
    """

    scout_strikes_after_move: bool = False
    captain_two_step: bool = False
    bombs_move: bool = False
    flag_moves: bool = False
    cited: MovementCitations = attrs.field(default=MovementCitations(), eq=False)

    def can_move(self, rank: Rank) -> bool:
        """Whether a piece of `rank` may move at all under these rules."""
        if rank == Rank.BOMB:
            return self.bombs_move
        if rank == Rank.FLAG:
            return self.flag_moves
        return True

    def moves_far(self, rank: Rank) -> bool:
        """Whether a piece of `rank` may move more than one square in a turn under these
        rules: the Scout, and the Captain of Ultimate Lightning."""
        return rank == Rank.SCOUT or (rank == Rank.CAPTAIN and self.captain_two_step)

    @staticmethod
    def can_strike(rank: Rank) -> bool:
        """Whether a piece of `rank` may strike (Bombs and the Flag never do)."""
        return rank not in (Rank.BOMB, Rank.FLAG)


@attrs.frozen
class StrikeRule:
    """How strikes resolve: `attacker_wins_ties` (Aggressor Advantage),
    `bombs_explode` (Exploding Bombs: a non-Miner and the Bomb both go)."""

    attacker_wins_ties: bool = False
    bombs_explode: bool = False


@attrs.frozen
class RepetitionRule:
    """The back-and-forth rule and its relatives (see `stratego.repetition`).

    * `max_shuttle_moves`: how many consecutive turns a player may move the
      same piece back and forth between the same two squares; the next such
      move is illegal.
    * `scout_span`: a Scout's moves count as "the same squares" whenever they
      stay within the line segment its first back-and-forth move covered
      (the classic web rules' wider form for Scouts).
    * `scout_borders`: a Scout's series is read by the borders it crosses
      (`stratego.repetition.ScoutReading.BORDERS`).
    * `scout_window`: a Scout's move is illegal when each of its last
      `max_shuttle_moves` moves crossed a border it would cross again (ISF 10.2,
      the classic web rules; `stratego.repetition.ScoutReading.WINDOW`).
    * `strikes_are_moves`: a strike counts in the back-and-forth series like any
      move, and ends a chase and may begin one (the ISF definitions).
    * `chase`: a chasing player may not recreate a position that already arose
      during that chase (Jumbo 2014, ISF 11).
    * `threat_chase`: the chase is defined by threats and evasions (ISF 11.3, the
      reading of both editions) instead of by answering the opponent's last move.
    * `shuttle_name` / `chase_name`: the rules' names in explanations.
    """

    max_shuttle_moves: int = 2
    scout_span: bool = False
    chase: bool = False
    scout_borders: bool = False
    threat_chase: bool = False
    scout_window: bool = False
    strikes_are_moves: bool = False
    shuttle_name: str = "back-and-forth rule"
    chase_name: str = "chase rule"

    def components(self) -> tuple[BackAndForth, Chase | None]:
        """The back-and-forth component and the chase component (None without a chase
        rule) that these parameters describe."""
        reading = (ScoutReading.WINDOW if self.scout_window
                   else ScoutReading.BORDERS if self.scout_borders
                   else ScoutReading.SPAN if self.scout_span else ScoutReading.SQUARES)
        shuttle = BackAndForth(self.max_shuttle_moves, reading, self.shuttle_name,
                               self.strikes_are_moves)
        return shuttle, (Chase(self.threat_chase, self.chase_name) if self.chase else None)


@attrs.frozen
class Disclosure:
    """What a strike reveals. Under `silent_defense` only the attacker names its
    rank (unless a Scout strikes), and captured pieces stay with their owner.

    The one home of the visibility rule for strikes: the engine's knowledge records, the
    views, the samplers and the batched engine's tables ask `answers` (the batched
    kernels read the same rule from their rules row, checked against the engine move
    by move)."""

    silent_defense: bool = False

    def answers(self, attacker: Rank) -> bool:
        """Whether the defender of a strike by `attacker` shows its rank: always in the
        books' games; under Silent Defense only when a Scout strikes (the variant's own
        exception), the strike's result telling the rest (`stratego.strike.consistent_table`)."""
        return not self.silent_defense or attacker == Rank.SCOUT


class RescueZone(enum.Enum):
    """Where a rescued piece may be placed."""

    HALF = "half"
    """Any empty square of the geometric half of the board, five rows with the lake row
    (no edition's reading; for players who take Hasbro 2009's "half" literally)."""
    HOME_ROWS = "home-rows"
    """Any empty square of the player's first four rows (Jumbo 2014, and Hasbro 2009's
    "your half", which its setup rule fills with 40 pieces, four rows deep)."""

    @classmethod
    def _missing_(cls, value: object) -> RescueZone:
        raise not_a_member(cls, value)


@attrs.frozen
class RescueRule:
    """The Rescue variant: `enabled`, where rescued pieces go, and how many rescues."""

    enabled: bool = False
    zone: RescueZone = RescueZone.HOME_ROWS
    max_rescues: int = 2


@attrs.frozen
class Variant:
    """A named rule variant: a transformation of `Rules` with its relations.

    `implies` are variants that this one includes (Moving Bombs includes
    Exploding Bombs); `excludes` names variants it cannot be combined with.
    """

    name: str
    title: str
    books: tuple[str, ...]
    summary: str
    transform: Callable[[Rules], Rules] = attrs.field(eq=False, repr=False)
    implies: tuple[Variant, ...] = ()
    excludes: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> str | tuple[object, ...]:
        """A registered variant (`register_variant`: those of `stratego.variants`) pickles
        as its name, since its `transform` need not pickle; another is pickled whole."""
        if _REGISTERED.get(self.name) is self:
            return (registered_variant, (self.name,))
        return object.__reduce__(self)


_REGISTERED: dict[str, Variant] = {}


def register_variant(variant: Variant) -> None:
    """Register `variant` under its name, so that it pickles as its name and comes back as
    the same value (`stratego.variants` registers the variants the books print). Raises
    `RulesError` for a name another variant holds."""
    if not isinstance(variant, Variant):
        raise RulesError(f"not a Variant: {shown(variant)}")
    held = _REGISTERED.setdefault(variant.name, variant)
    if held is not variant:
        raise RulesError(f"a variant named {shown(variant.name)} is registered already")


def registered_variant(name: str) -> Variant:
    """The variant registered under `name` (what a pickled registered variant becomes).
    Raises `RulesError` for a name none holds."""
    try:
        return _REGISTERED[name]
    except (KeyError, TypeError):
        raise RulesError(f"no variant is registered as {shown(name)}") from None


def _variant_hint(rules: Rules, value: object) -> str:
    """For a variant given to `rules.with_variants` by name: the `Variant` value that name
    stands for and the whole rules by name (`rules`'s edition and variants with it), or,
    for a name no variant holds, the close matches and the registered names
    (`register_variant`: `stratego.variants` registers the books' variants when the
    package is imported; this module is below it, so it reads the names, not the values)."""
    if not isinstance(value, str):
        return ""
    name = value.strip().lower()
    if name in _REGISTERED:
        whole = "+".join([rules.edition, *sorted(rules.variants | {name})])
        return (f" (with_variants takes Variant values, not names: "
                f"stratego.variants.VARIANTS[{name!r}] is this one; or take the whole rules "
                f"by name, stratego.editions.by_name({whole!r}))")
    known = sorted(_REGISTERED)
    close = difflib.get_close_matches(name[:40], known, n=2, cutoff=0.6)
    guess = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
    return (f" (with_variants takes Variant values, such as stratego.variants.BARRAGE; "
            f"{guess}the known variants are {', '.join(map(repr, known))} "
            f"(stratego.variants.VARIANTS))")


MAX_PLY_LIMIT = 2**31 - 1
"""The largest ply limit (`Rules.with_ply_limit`): a 32-bit count, far beyond any game."""


def _check_ply_limit(_rules: Rules, _field: attrs.Attribute[int | None],
                     plies: int | None) -> None:
    if plies is not None and (isinstance(plies, bool | enum.Enum) or not isinstance(plies, int)
                              or not 1 <= plies <= MAX_PLY_LIMIT):
        raise RulesError(f"a ply limit must be a whole number from 1 to {MAX_PLY_LIMIT} "
                         f"or None, not {shown(plies)}")


@attrs.frozen(cache_hash=True)
class Rules:
    """A complete rule set: an edition plus any variants, as one frozen value.

    Build one from `stratego.editions` and `Rules.with_variants`; two rules
    values made of the same edition and variants compare equal, whatever the
    order the variants were given in.
    """

    edition: str
    title: str
    labels: RankLabels
    army: Army = STANDARD_ARMY
    setup: SetupRule = SetupRule()
    movement: Movement = Movement()
    strike: StrikeRule = StrikeRule()
    repetition: RepetitionRule = RepetitionRule()
    disclosure: Disclosure = Disclosure()
    rescue: RescueRule = RescueRule()
    flag_on_back_row_wins: bool = False
    variants: frozenset[str] = frozenset()
    ply_limit: int | None = attrs.field(default=None, validator=_check_ply_limit)

    @property
    def name(self) -> str:
        """``edition+variant+...`` with variants sorted: stable, and parseable by
        `stratego.editions.by_name`, which gives back these rules for every edition, option
        and variant the library offers (not for rules changed by hand with
        ``attrs.evolve``, which `stratego.editions.name_of` refuses to save)."""
        return "+".join([self.edition, *sorted(self.variants)])

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The pretty form IPython and Hypothesis print: the short `repr`, not every field."""
        printer.text(repr(self))

    def __repr__(self) -> str:
        limit = f", ply limit {self.ply_limit}" if self.ply_limit is not None else ""
        return f"<Rules {self.name}{limit}>"

    def description(self) -> str:
        """A stable one-paragraph description for saved games and user interfaces."""
        from_variants = ", ".join(sorted(self.variants)) or "none"
        limit = f"ply limit {self.ply_limit}" if self.ply_limit else "no ply limit"
        return f"{self.title}; variants: {from_variants}; {limit}"

    def with_variants(self, *variants: Variant) -> Rules:
        """These rules with `variants` added (and the variants they imply).

        Raises `RulesError` naming both rules when two variants contradict each
        other. Adding a variant that is already present changes nothing.
        """
        wanted: dict[str, Variant] = {}

        def add(variant: Variant) -> None:
            if not isinstance(variant, Variant):
                raise RulesError(f"not a variant: {shown(variant)}"
                                 f"{_variant_hint(self, variant)}")
            if variant.name not in wanted:
                wanted[variant.name] = variant
                for implied in variant.implies:
                    add(implied)

        for variant in variants:
            add(variant)
        present = set(self.variants)
        for variant in sorted(wanted.values(), key=lambda v: v.name):
            for other in sorted(present | set(wanted)):
                if other in variant.excludes:
                    raise RulesError(
                        f"the {shown(variant.name)} variant cannot be combined with "
                        f"{shown(other)}"
                    )
        rules = self
        for name in sorted(wanted):
            if name not in present:
                rules = wanted[name].transform(rules)
                rules = attrs.evolve(rules, variants=rules.variants | {name})
        return rules

    def with_ply_limit(self, plies: int | None) -> Rules:
        """These rules with a draw after `plies` turns (None: no limit); at most
        `MAX_PLY_LIMIT`, so that every saved form and the batched engine hold it."""
        return attrs.evolve(self, ply_limit=plies)

    def has_variant(self, variant: Variant | str) -> bool:
        """Whether `variant` (a `Variant` or its name) is part of these rules. Raises
        `RulesError` for anything else."""
        if isinstance(variant, Variant):
            return variant.name in self.variants
        if not isinstance(variant, str):
            raise RulesError(f"has_variant takes a Variant or a variant's name, not "
                             f"{shown(variant)}")
        return variant in self.variants

    def movable_ranks(self) -> frozenset[Rank]:
        """The ranks that may move under these rules."""
        return frozenset(r for r in Rank if self.movement.can_move(r))


def as_rules(value: object) -> Rules:
    """`value`, a `Rules` value; raises `RulesError` for anything else (an edition's name
    included). The check of the engine's own helpers; the public entry points take a rules
    name too, through `stratego.arguments.rules_from`."""
    if not isinstance(value, Rules):
        raise RulesError(f"not a Rules value: {shown(value)} (use stratego.editions, such as "
                         f"CLASSIC, or by_name)")
    return value


def variant_names(variants: Iterable[Variant]) -> list[str]:
    """Sorted names of `variants`."""
    return sorted(v.name for v in variants)
