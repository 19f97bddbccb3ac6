"""Whole simulated games of the tunnel games: :func:`play_game`, :func:`simulate` and the
generic reference :func:`simulate_generic`, with one step and a playout.

A seeded game shuffles the pile with ``random.Random(seed)`` (so the pile order is known and
there is no chance node) and plays every seat with the policy, sharing that random source. A
Bandido game with the greedy policy is played by the fast simulator
(:mod:`banditsolve.tunnels.fast`), any other game by ``core.play.playout`` over the rules: both
give the same games. Bandida's games are played when the options are Bandida's
(:class:`~banditsolve.tunnels.bandida.state.BandidaOptions`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from banditsolve.core.play import playout as core_playout
from banditsolve.tunnels.bandida.rules import new_game as bandida_new_game
from banditsolve.tunnels.bandida.state import BandidaOptions
from banditsolve.tunnels.cards import Deck, load_deck
from banditsolve.tunnels.fast import fast_bandido
from banditsolve.tunnels.game import BANDIDA, BANDIDO
from banditsolve.tunnels.keyed import keys_fit
from banditsolve.tunnels.players import Policy, greedy_policy
from banditsolve.tunnels.rules import apply, new_game, sample_chance
from banditsolve.tunnels.state import Action, GameState, Options


def step(state: GameState, rng: random.Random, policy: Policy = greedy_policy) -> GameState:
    """Advance one event: a sampled draw at a chance node, else the policy's move."""
    if state.is_chance:
        return apply(state, sample_chance(state, rng))
    return apply(state, policy(state, rng))


def playout(
    state: GameState, rng: random.Random, policy: Policy = greedy_policy
) -> Iterator[tuple[GameState, Action, GameState]]:
    """Play to the end, yielding ``(before, action, after)`` for every event. Draws at chance
    nodes come from this engine's sampler (:func:`~banditsolve.tunnels.rules.sample_chance`:
    one ``randrange`` over the unseen cards), not from ``core.play.sample_chance``, so that
    seeded playouts stay the same games they always were."""
    while state.outcome is None:
        action = sample_chance(state, rng) if state.is_chance else policy(state, rng)
        after = apply(state, action)
        yield state, action, after
        state = after


def start(
    players: int, rng: random.Random, options: Options | None, deck: Deck | None
) -> GameState:
    """A seeded game's start: Bandida's with Bandida's options, Bandido's otherwise."""
    if isinstance(options, BandidaOptions):
        return bandida_new_game(players, options, deck=deck or load_deck("bandida"), rng=rng)
    return new_game(players, options, deck=deck, rng=rng)


def _fast(first: GameState, policy: Policy) -> bool:
    """Whether the fast simulator plays this game: Bandido's, greedy, the pile known."""
    return (
        policy is greedy_policy
        and first.variant is None
        and not first.unseen
        and keys_fit(first)
    )


def play_game(
    players: int = 2,
    seed: int | None = None,
    options: Options | None = None,
    policy: Policy = greedy_policy,
    deck: Deck | None = None,
) -> GameState:
    """A whole simulated game: a seeded shuffle, then ``policy`` for every player (the last
    state of :func:`simulate`'s game)."""
    rng = random.Random(seed)
    first = start(players, rng, options, deck)
    if _fast(first, policy):
        return fast_bandido(first, rng, keep=False)[0][-1]
    return _play_generic(first, policy, rng)[-1]


def simulate(
    players: int = 2,
    seed: int | None = None,
    options: Options | None = None,
    policy: Policy = greedy_policy,
    deck: Deck | None = None,
) -> list[GameState]:
    """Every state of :func:`play_game`'s game in order, from the deal to the finished game
    (the last one). The shuffle and the policy share one ``random.Random(seed)``; the pile is
    then known, so there is no chance node. A Bandido game with :func:`greedy_policy` is played
    by the fast simulator (no validation of the moves it generates itself, the placements of
    each front cell memoised by its local signature); any other game by
    ``core.play.playout`` (:func:`simulate_generic`). Both give the same games."""
    rng = random.Random(seed)
    first = start(players, rng, options, deck)
    if _fast(first, policy):
        return fast_bandido(first, rng)[0]
    return _play_generic(first, policy, rng)


def simulate_generic(
    players: int = 2,
    seed: int | None = None,
    options: Options | None = None,
    policy: Policy = greedy_policy,
    deck: Deck | None = None,
) -> list[GameState]:
    """:func:`simulate` played through the game contract (``core.play.playout`` over the
    rules' legal actions and apply, every move validated) whatever the policy: the reference
    the fast simulator must agree with."""
    rng = random.Random(seed)
    return _play_generic(start(players, rng, options, deck), policy, rng)


def _play_generic(first: GameState, policy: Policy, rng: random.Random) -> list[GameState]:
    game = BANDIDO if first.variant is None else BANDIDA
    return [first, *(s.state for s in core_playout(game, first, policy, rng))]
