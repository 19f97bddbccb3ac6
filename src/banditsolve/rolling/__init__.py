"""Rolling Bandits (seed 002): the train-robbing dice game on the banditsolve game contract.

>>> from banditsolve import load_game
>>> game = load_game("rolling")
>>> game.title, game.min_players, game.max_players
('Rolling Bandits', 2, 4)

A state's ``notation()``, ``ascii()``, ``svg()`` and ``str()`` are made by :mod:`.notation` and
:mod:`.render`, which register them with :mod:`.state` when imported: the package imports both,
so any import of it (``banditsolve.rolling.state`` included) has them.
"""

from banditsolve.rolling import notation, render

__all__ = ["notation", "render"]
