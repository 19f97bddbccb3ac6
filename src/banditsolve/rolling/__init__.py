"""Rolling Bandits (seed 002): the train-robbing dice game on the banditsolve game contract.

>>> from banditsolve import load_game
>>> game = load_game("rolling")
>>> game.title, game.min_players, game.max_players
('Rolling Bandits', 2, 4)

A state's ``notation()``, ``ascii()``, ``svg()`` and ``str()`` are made by :mod:`.notation` and
:mod:`.render`, which register them with :mod:`.state` when imported: the package imports both,
so any import of it (``banditsolve.rolling.state`` included) has them. ``str(state)`` is the
ASCII picture, ``repr(state)`` reads back through :func:`parse_state`, and in Jupyter a state
shows as its SVG picture:

>>> from banditsolve.rolling import parse_state
>>> state = parse_state("rb ed=default n=2 phase=start turn=1 wagons=1 train=0:5/5L:-:-|-,"
...                     "1:2/2:R:M3|- won=-|- trunks=-|-")
>>> eval(repr(state)) == state
True
>>> print(str(state).splitlines()[2])
  wagon 1: need 2, 2 pts, trunk R        P0:Mx3  <- P0 steals
"""

from banditsolve.rolling import notation, render
from banditsolve.rolling.notation import parse_state

__all__ = ["notation", "parse_state", "render"]
