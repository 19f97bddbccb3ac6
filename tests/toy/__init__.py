"""A toy game that plugs into banditsolve as a package of its own: Nim with a die.

It lives in the tests to show that a new game is a new package and nothing else: its modules
follow the house layout (``state``, ``rules``, ``notation``, ``render``, ``players``, ``game``,
``cli``, ``study``), it registers itself with :func:`register` (a
:class:`~banditsolve.core.registry.GameEntry`), and then the contract suite, the shared command
line and the studies serve it with no change anywhere in the library.

The rules (IDs ``NIM-*``, ours):

- **NIM-1** A pile of counters (option ``pile``: 7, 10 or 15) lies between 2 or 3 players.
- **NIM-2** On a turn the player rolls a three-sided die (a chance node: 1, 2 or 3, each 1/3),
  then takes from 1 to the number rolled counters, never more than the pile holds.
- **NIM-3** Turns go round from player 0.
- **NIM-4** The player who takes the last counter wins (option ``last=wins``) or loses
  (``last=loses``: the others share the win).
"""

from __future__ import annotations

from banditsolve.core.registry import GameEntry

#: The toy's registry entry: the game object, its command-line hooks, its study hooks.
ENTRY = GameEntry(
    "nim",
    "Nim with a die",
    ("dienim",),
    "a toy: roll, then take up to the roll; the last counter decides (tests only)",
    "tests.toy.game:GAME",
    "tests.toy.cli",
    "tests.toy.study",
)
