"""Bandida's immutable types: its rule options (:class:`BandidaOptions`, BA-OPT-*) and its game
state (:class:`BandidaState`: Bandido's, with each hand's size, the pending effects, the alarm's
discards and the back of the pile's top card)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from banditsolve.core.options import OptionSet, OptionSpec
from banditsolve.tunnels.bandida.components import MODES
from banditsolve.tunnels.cards import is_alarm
from banditsolve.tunnels.state import LOSES_AT_ONCE, GameState, Options
from banditsolve.tunnels.state import OPTION_SET as BANDIDO_OPTION_SET

#: The phases of a Bandida turn (a stack in :attr:`BandidaState.phase`, innermost last): the
#: deal, the dynamite's second card, the broken tool's cards, the map's removals, an alarm to
#: lay, the alarm's discards from the hands, and its five discards from the pile.
PHASES = ("deal", "dynamite", "tool", "map", "alarm", "discard", "five")


def _spec(
    name: str, values: tuple[str, ...], reason: str, *rules: str, default: str | None = None
) -> OptionSpec:
    return OptionSpec(name, values, values[0] if default is None else default, reason, rules)


#: Bandida's rule options (specs/bandida.md, BA-OPT-*): Bandido's with Bandida's readings of the
#: rules the two seeds share, and Bandida's own.
OPTION_SET = BANDIDO_OPTION_SET.extended(
    "Bandida",
    (
        _spec(
            "pile_out",
            ("play_on", "end", "must_draw"),
            "seed 003 has play stop with the empty pile, so the game is lost the moment the "
            "last card is drawn",
            "BA-OPT-11",
            "BA-END-1",
            default="end",
        ),
        _spec(
            "hand_change",
            ("ends_turn", "may_place"),
            "seed 003: after putting the hand under the pile and drawing as many, the player "
            "may lay a card of the new hand that fits",
            "BA-TURN-3",
            "BD-OPT-2",
            default="may_place",
        ),
        _spec(
            "hole",
            ("loses", "illegal", LOSES_AT_ONCE),
            "a map's removals can unmake a one-cell hole, so a hole loses once no map is left "
            "to undo it (loses_at_once: as soon as it is made)",
            "BA-OPT-14",
            "BA-END-2",
        ),
        OptionSpec(
            "mode",
            tuple(str(m) for m in MODES),
            str(min(MODES)),
            "seed 003's first mode, catch Bandida: close every exit",
            ("BA-OPT-13", "BA-GAME-2"),
            kind="int",
        ),
        _spec(
            "map_removes",
            ("not_special", "not_super"),
            "taking off the goal cards or the map itself would undo the move or the mode's "
            "goal, which the seed's warning to mode 3 suggests is not meant",
            "BA-OPT-1",
            "BA-OBJ-5",
        ),
        _spec(
            "map_split",
            ("edges", "tunnels"),
            "the seed speaks of groups of cards: the cards left must touch edge to edge",
            "BA-OPT-2",
            "BA-OBJ-6",
        ),
        _spec(
            "map_reopen",
            ("allowed", "forbidden"),
            "the seed forbids nothing else: an opening that faced a removed card is an exit "
            "again",
            "BA-OPT-3",
        ),
        _spec(
            "map_short",
            ("as_many", "none"),
            "with no set of three to take off, the map takes as many as the rules allow",
            "BA-OPT-4",
        ),
        _spec(
            "tool",
            ("this_turn", "over_turns"),
            "the seed's wording: the player lays every card in hand now, one after another",
            "BA-OPT-5",
            "BA-OBJ-4",
        ),
        _spec(
            "tool_stuck",
            ("keep", "under"),
            "laying stops; the cards that do not fit stay in hand and the player draws up to "
            "three",
            "BA-OPT-6",
        ),
        _spec(
            "dynamite_stuck",
            ("lapse", "change"),
            "the dynamite's second card cannot be laid: its effect lapses and the turn ends",
            "BA-OPT-7",
            "BA-OBJ-3",
        ),
        _spec(
            "chain",
            ("yes", "no"),
            "every object's effect is mandatory, so an object laid inside another acts too",
            "BA-OPT-8",
            "BA-OBJ-1",
        ),
        _spec(
            "alarm_stuck",
            ("effect", "no_effect"),
            "an alarm must act at once: one that cannot be laid leaves the game and acts",
            "BA-OPT-9",
            "BA-ALARM-2",
        ),
        _spec(
            "alarm_zero",
            ("keep_one", "zero"),
            "a player whose hand size is one keeps it and discards nothing",
            "BA-OPT-10",
            "BA-ALARM-4",
        ),
        _spec(
            "alarm_show",
            ("drawn", "top"),
            "seed 003: an alarm acts when a player draws it",
            "BA-OPT-12",
            "BA-ALARM-1",
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class BandidaOptions(Options):
    """Bandida's rule options: Bandido's (with Bandida's readings as defaults, BA-OPT-11 and
    BA-TURN-3) and Bandida's own (BA-OPT-*), read and checked by :data:`OPTION_SET` (values,
    defaults and reasons there). ``mode`` is 1, 2 or 3 (BA-MODE-*)."""

    OPTION_SET: ClassVar[OptionSet] = OPTION_SET

    pile_out: str = "end"
    hand_change: str = "may_place"
    mode: int = 1
    map_removes: str = "not_special"
    map_split: str = "edges"
    map_reopen: str = "allowed"
    map_short: str = "as_many"
    tool: str = "this_turn"
    tool_stuck: str = "keep"
    dynamite_stuck: str = "lapse"
    chain: str = "yes"
    alarm_stuck: str = "effect"
    alarm_zero: str = "keep_one"
    alarm_show: str = "drawn"

    @classmethod
    def refuse(cls, values: Mapping[str, object]) -> None:
        """Bandida reads every value of its options (``hole=loses_at_once`` too)."""


@dataclass(frozen=True, slots=True, repr=False)
class BandidaState(GameState):
    """A moment of a Bandida game: Bandido's state (its options :class:`BandidaOptions`, its
    ``variant`` Bandida's rules) and:

    ``sizes``: each player's hand size (BA-OBJ-2, BA-OBJ-4, BA-ALARM-4); ``phase``: the stack of
    pending effects (:data:`PHASES`, innermost last); ``actor``: the player acting inside an
    alarm; ``discard``: the cards out of the game (sorted); ``aside``: the cards an alarm set
    aside while discarding five; ``left``: the alarm's discards from the pile still to come;
    ``queue``: the players still to discard; ``hold``: the players drawing nothing until their
    hand is empty (option ``tool=over_turns``); ``quiet``: who laid a water bottle (-1: nobody);
    ``top``: the back of the top card of the unseen pile, once seen (``"alarm"`` or
    ``"plain"``; empty while unknown or when the top card is known, BA-ALARM-1).
    """

    options: BandidaOptions
    sizes: tuple[int, ...] = ()
    phase: tuple[str, ...] = ()
    actor: int = 0
    discard: tuple[int, ...] = ()
    aside: tuple[int, ...] = ()
    left: int = 0
    queue: tuple[int, ...] = ()
    hold: tuple[int, ...] = ()
    quiet: int = -1
    top: str = ""

    @property
    def pending(self) -> str:
        """The innermost pending effect (``""`` when none)."""
        return self.phase[-1] if self.phase else ""

    @property
    def mode(self) -> int:
        """The game mode (option ``mode``)."""
        return self.options.mode

    @property
    def to_act(self) -> int:
        """The player who decides now: inside an alarm the drawer (or the player discarding),
        else the player whose turn it is."""
        pending = self.pending
        if pending == "alarm":
            return self.actor
        if pending == "discard":
            return self.queue[0]
        return self.player

    def size(self, player: int) -> int:
        """The number of cards ``player`` holds when their hand is full."""
        return self.sizes[player] if self.sizes else self.options.hand_size

    @property
    def top_is_alarm(self) -> bool | None:
        """Whether the top card of the pile is an alarm (their backs are marked, BA-ALARM-1):
        known when the top card is; None when the top lies in the unseen part and its back has
        not been seen yet."""
        if self.unseen:
            return {"alarm": True, "plain": False}.get(self.top)
        return bool(self.pile) and is_alarm(self.pile[0])

    @property
    def is_chance(self) -> bool:
        """True when the next event is a draw from the unseen pile, or the alarm's discard of
        its top card."""
        if self.outcome is not None or not self.unseen:
            return False
        phase = self.phase
        if phase and phase[-1] != "deal":
            return phase[-1] == "five"
        return bool(self.to_draw)

    def remaining(self) -> tuple[int, ...]:
        """Sorted codes of every card not on the table and still in the game (hands, pile and
        the cards an alarm set aside)."""
        out = [c for hand in self.hands for c in hand]
        out.extend(self.unseen)
        out.extend(self.pile)
        out.extend(self.aside)
        return tuple(sorted(out))
