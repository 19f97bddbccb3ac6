"""Bandida's modes: what each mode's game must reach, and (from the deck's data) which
components it holds.

Every mode deals the Bandida box's tunnel cards, objects and alarms. The ladder is taken out of
the game in mode 1 and shuffled into the pile in modes 2 and 3 (BA-SETUP-4); Bandido's super
card, not in the Bandida box, is shuffled into the pile in mode 3 only (BA-DECK-5,
BA-SETUP-5). Which cards each mode's pile holds is said once, by the deck's data
(``tunnels/data/bandida.json``, BA-DECK-1: :meth:`~banditsolve.tunnels.cards.Deck.cards`,
:meth:`~banditsolve.tunnels.cards.Deck.refuse_outside`); this module says what each mode asks
(:data:`MODES`), and everything else that maps modes to goals derives from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from banditsolve.tunnels.cards import Deck


@dataclass(frozen=True, slots=True)
class Mode:
    """One of Bandida's modes: its number, the closure goal it asks (``close``, ``ladder``,
    ``join``: BA-CLOSE-1), the goal in words and the rule that states it."""

    number: int
    goal: str
    words: str
    rule: str

    def pile(self, deck: Deck) -> tuple[int, ...]:
        """The cards shuffled into the pile in this mode (BA-SETUP-2), as ``deck``'s data says
        (:meth:`~banditsolve.tunnels.cards.Deck.cards`)."""
        return deck.cards(self.number)


#: Bandida's three modes (BA-MODE-*), by number: mode 1 is the default (option ``mode``).
MODES: dict[int, Mode] = {
    1: Mode(1, "close", "close every exit", "BA-MODE-1"),
    2: Mode(2, "ladder", "lay the ladder and close every other exit", "BA-MODE-2"),
    3: Mode(
        3,
        "join",
        "lay Bandido's super card and the ladder, join them, close every other exit",
        "BA-MODE-4",
    ),
}
#: The closure goals, in mode order (BA-CLOSE-1).
GOALS: tuple[str, ...] = tuple(mode.goal for mode in MODES.values())
#: The mode whose goal each closure goal is (BA-CLOSE-1).
GOAL_MODES: dict[str, int] = {mode.goal: number for number, mode in MODES.items()}
