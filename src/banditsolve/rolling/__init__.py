"""Rolling Bandits (seed 002): the train-robbing dice game on the banditsolve game contract.

>>> from banditsolve import load_game
>>> game = load_game("rolling")
>>> game.title, game.min_players, game.max_players
('Rolling Bandits', 2, 4)
"""
