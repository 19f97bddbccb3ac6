"""Bandida's modes as data: which components each mode's game holds and what it must reach.

Every mode deals the Bandida box's tunnel cards, objects and alarms. The ladder is taken out of
the game in mode 1 and shuffled into the pile in modes 2 and 3 (BA-SETUP-4); Bandido's super
card, not in the Bandida box, is shuffled into the pile in mode 3 only (BA-DECK-5,
BA-SETUP-5). A position or state holding a component its mode lacks is refused
(:func:`refuse_missing`), naming the rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from banditsolve.errors import NotationError
from banditsolve.tunnels.cards import Deck, card_kind, card_name, hand_code

#: The components that not every mode holds, each with the rule that says where it is.
OPTIONAL_COMPONENTS: dict[str, tuple[str, str]] = {
    "ladder": ("the ladder", "BA-SETUP-4: the ladder is in the game in modes 2 and 3 only"),
    "bandido_super": (
        "Bandido's super card",
        "BA-DECK-5: Bandido's super card is in the pile in mode 3 only",
    ),
}


@dataclass(frozen=True, slots=True)
class Mode:
    """One of Bandida's modes: its number, the closure goal it asks (``close``, ``ladder``,
    ``join``: BA-CLOSE-1), the optional components its game holds (kinds of
    :data:`OPTIONAL_COMPONENTS`), the goal in words and the rule that states it."""

    number: int
    goal: str
    components: frozenset[str]
    words: str
    rule: str

    def holds(self, code: int) -> bool:
        """True when the card ``code`` can be in this mode's game."""
        kind = card_kind(code)
        return kind not in OPTIONAL_COMPONENTS or kind in self.components

    def pile(self, deck: Deck) -> tuple[int, ...]:
        """The cards shuffled into the pile in this mode (BA-SETUP-2): the deck's cards and its
        extra cards that this mode holds, sorted."""
        return tuple(code for code, n in deck.counts if self.holds(code) for _ in range(n))

    def refuse_missing(self, codes: Iterable[int], where: str = "") -> None:
        """Refuse (:class:`NotationError`, one line naming the rule, after ``where`` when
        given) a card of ``codes`` that this mode's game does not hold: the ladder in mode 1,
        Bandido's super card outside mode 3."""
        for code in codes:
            if not self.holds(code):
                what, rule = OPTIONAL_COMPONENTS[card_kind(code)]
                raise NotationError(
                    f"{where}{': ' if where else ''}{what} ({card_name(hand_code(code))}) is not"
                    f" in the game in mode {self.number} ({rule})"
                )


#: Bandida's three modes (BA-MODE-*).
MODES: dict[int, Mode] = {
    1: Mode(1, "close", frozenset(), "close every exit", "BA-MODE-1"),
    2: Mode(
        2,
        "ladder",
        frozenset({"ladder"}),
        "lay the ladder and close every other exit",
        "BA-MODE-2",
    ),
    3: Mode(
        3,
        "join",
        frozenset({"ladder", "bandido_super"}),
        "lay Bandido's super card and the ladder, join them, close every other exit",
        "BA-MODE-4",
    ),
}
#: The mode whose goal each closure goal is (BA-CLOSE-1).
GOAL_MODES: dict[str, int] = {mode.goal: number for number, mode in MODES.items()}
