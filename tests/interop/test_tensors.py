"""The games' observation tensors, which the adapters read at every step, against the slow
definition: each game's ``info`` module builds its tensor from pieces kept between calls
(:class:`~banditsolve.core.observe.Memo`, :class:`~banditsolve.core.observe.Frame`); here each
tensor is written again the straightforward way (a list of numbers in the documented order,
padded), and the two must agree at every state of random legal games, for every observer, with
the games interleaved (so that a frame holds another game's numbers when it is asked), in
several threads, and the ``float32`` bytes an adapter reads (:func:`~banditsolve.core.observe.
packed`, and each game's ``observation_bytes``, made without the tuple) must be the tensor's.
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest

from banditsolve.core.observe import packed
from banditsolve.core.registry import load_game
from banditsolve.rolling.info import SEATS, TAIL, WAGON_NUMBERS, train_length
from banditsolve.rolling.state import OPTION_SET, PHASES
from banditsolve.tunnels.info import DEPTH, EFFECTS, HAND_ROOM, OUTCOMES, TOPS
from banditsolve.tunnels.state import MAX_PLAYERS
from tests.strategies.games import play

# -- the slow definitions ---------------------------------------------------------------------


def _padded(values: Sequence[int], length: int) -> list[int]:
    assert len(values) <= length
    return [*values, *[0] * (length - len(values))]


def _rows(rows: list[list[int]], count: int, width: int) -> list[int]:
    assert len(rows) <= count
    return _padded(list(itertools.chain.from_iterable(rows)), count * width)


def rolling_tensor(game: Any, state: Any, player: int) -> list[int]:
    """Rolling Bandits' tensor (``rolling.info.observation_tensor``'s documented layout)."""
    c = train_length(game.edition)
    values = _padded(_rolling_train(state), c * WAGON_NUMBERS)
    values += _rolling_holdings(state, player, c)
    tail = _rolling_tail(state, player)
    assert len(tail) == TAIL
    return values + tail


def _rolling_train(state: Any) -> list[int]:
    """Each wagon's numbers: its card, its trunk and each seat's group on it (zeros for none)."""
    values: list[int] = []
    for wagon in state.train:
        values += [1, wagon.id, wagon.need, wagon.points, int(wagon.loco)]
        values.append(0 if wagon.trunk is None else wagon.trunk + 1)
        for seat in range(SEATS):
            g = wagon.groups[seat] if seat < len(wagon.groups) else None
            values += [0] * 5 if g is None else [1, g.symbol + 1, g.bandits, g.mercs, g.natural]
    return values


def _rolling_holdings(state: Any, player: int, c: int) -> list[int]:
    """Each seat's won wagons, each seat's trunks (another's unused ones hidden), the discarded
    trunks and the pending wagons, each block padded to ``c`` rows."""
    values: list[int] = []
    for seat in range(SEATS):
        won = state.won[seat] if seat < state.players else ()
        values += _rows([[w.id + 1, w.need, w.points, int(w.loco)] for w in won], c, 4)
    for seat in range(SEATS):
        held = state.trunks[seat] if seat < state.players else ()
        rows = [
            [1, h.symbol + 1, h.value, h.content + 1, int(h.used)]
            if seat == player or h.used
            else [1, h.symbol + 1, -1, -1, 0]
            for h in held
        ]
        values += _rows(rows, c, 5)
    values += _rows([[h.symbol + 1, h.value, h.content + 1] for h in state.discarded], c, 3)
    values += _rows([[w + 1, int(theft)] for w, theft in state.pending], c, 2)
    return values


def _rolling_tail(state: Any, player: int) -> list[int]:
    """The tensor's tail: reserves, dice, the turn's facts, the phase as ``player`` sees it, the
    table's size and the options chosen."""
    tail = [*state.reserve, *[0] * (SEATS - state.players), *state.roll, *state.mroll]
    tail += [*state.airborne, int(state.laid)]
    tail.append(-1 if state.joker_wagon is None else state.joker_wagon)
    tail.append(state.usable)
    phase = "attack" if state.phase == "ambush" and player != state.to_move else state.phase
    tail += [PHASES.index(phase), PHASES.index(state.resume), state.to_move]
    tail += [state.players, state.wagons, player]
    chosen = state.options.values()
    tail += [spec.values.index(str(chosen[spec.name])) for spec in OPTION_SET]
    return tail


def tunnel_tensor(game: Any, state: Any, player: int) -> list[int]:
    """Bandido's and Bandida's tensor (``tunnels.info.observation_tensor``'s layout)."""
    n = game.deck.size
    laid = [[1, p.card, p.x, p.y, p.rotation // 90] for p in state.table.history]
    values = _rows(laid, n + 1, 5)
    values += _padded([c + 1 for c in getattr(state, "discard", ())], n)
    values += _padded([c + 1 for c in getattr(state, "aside", ())], n)
    values += _padded([c + 1 for c in state.hands[player]], HAND_ROOM)
    sizes = getattr(state, "sizes", ())
    for seat in range(MAX_PLAYERS):
        playing = seat < state.players
        size = sizes[seat] if seat < len(sizes) else state.options.hand_size
        values += [len(state.hands[seat]) if playing else 0, size if playing else 0]
    for name in ("to_draw", "queue", "hold"):
        listed = getattr(state, name, ())
        values += [int(p in listed) for p in range(MAX_PLAYERS)]
    values += _padded([EFFECTS.index(p) + 1 for p in getattr(state, "phase", ())], DEPTH)
    values += [len(state.unseen), len(state.pile), state.player, state.to_act, state.turn]
    values += [int(state.changed), OUTCOMES.index(state.outcome), state.players, player]
    values += [getattr(state, "actor", 0), getattr(state, "left", 0), getattr(state, "quiet", -1)]
    values.append(TOPS.index(getattr(state, "top", "")))
    chosen = state.options.to_text()
    for name, listed in state.options.OPTION_SET.names().items():
        value = chosen[name]
        values.append(listed.index(value) if value in listed else len(listed))
    return values + list(state.options.area or (0, 0, 0, 0))


def banditos_tensor(game: Any, state: Any, player: int) -> list[int]:
    """Los Banditos' tensor (``banditos.info.TENSOR_LENGTH``'s layout)."""

    def counts(dice: Sequence[Any]) -> list[int]:
        return [sum(1 for d in dice if d.code == code) for code in range(24)]

    values: list[int] = []
    for slot in state.row:
        if slot is None:
            values += [0] * 50
        else:
            values += [1, slot.value, *counts(slot.sides[0]), *counts(slot.sides[1])]
    values += [*state.stack, *state.bag]
    for won in state.won:
        values += [won.count(v) for v in (1, 2, 3)]
    values += [state.to_move, int(state.rolled), int(state.roll_pending), int(state.opening)]
    values += counts(state.hand)
    options = state.options
    return [*values, int(options.proof == "bag"), int(options.unplaceable == "return")]


Slow = Callable[[Any, Any, int], list[int]]
#: (game, players, options, the slow definition): each game at its player counts and options.
CASES: list[tuple[str, int | None, dict[str, object], Slow]] = [
    ("banditos", None, {}, banditos_tensor),
    ("banditos", None, {"proof": "bag", "unplaceable": "return"}, banditos_tensor),
    ("bandido", 2, {}, tunnel_tensor),
    ("bandido", 4, {"hand_size": 4}, tunnel_tensor),
    ("bandida", 1, {}, tunnel_tensor),
    ("bandida", 3, {"mode": 2}, tunnel_tensor),
    ("bandida", 2, {"mode": 3}, tunnel_tensor),
    ("rolling", 2, {}, rolling_tensor),
    ("rolling", 2, {"mercenaries": "on"}, rolling_tensor),
    ("rolling", 4, {"jokers": "together", "theft_trunk": "discard"}, rolling_tensor),
]


def _visits(name: str, players: int | None, options: dict[str, object], seed: int) -> list[Any]:
    game = load_game(name)
    trace = play(game, seed, players=players, options=options, mix=seed % 2 == 1,
                 seeded_setup=seed % 3 != 2)
    return [visit.state for visit in trace.visits]


def _check(game: Any, slow: Slow, state: Any, player: int) -> None:
    alone = game.observation_bytes(state, player)  # (first: the frame as the last call left it)
    fast = game.observation_tensor(state, player)
    assert alone == np.array(fast, dtype=np.float32).tobytes(), "observation_bytes differs"
    raw = packed(fast)
    assert raw is not None, "the tensor's float32 bytes were not kept"
    assert raw == np.array(fast, dtype=np.float32).tobytes()
    assert fast == tuple(float(x) for x in slow(game, state, player)), (
        f"{game.name}: the tensor of player {player} differs from its definition at "
        f"{game.to_notation(state)}"
    )


def _interleaved(states: list[list[Any]]) -> Iterator[Any]:
    """The states of several games, one of each in turn."""
    for row in itertools.zip_longest(*states):
        yield from (state for state in row if state is not None)


@pytest.mark.parametrize(("name", "players", "options", "slow"), CASES)
def test_tensor_is_its_definition(
    name: str, players: int | None, options: dict[str, object], slow: Slow
) -> None:
    """Three random games, interleaved state by state; every observer at every state, in an
    order drawn at random (the mover is not always the last one asked)."""
    game = load_game(name)
    rng = random.Random(29)
    games = [_visits(name, players, options, seed) for seed in range(3)]
    for state in _interleaved(games):
        seats = list(range(game.players(state)))
        rng.shuffle(seats)
        for player in seats:
            _check(game, slow, state, player)


def test_tensors_of_all_games_interleaved() -> None:
    """Every case's first game, all played at once: one frame never serves another layout."""
    cases = [(load_game(name), slow, _visits(name, players, options, 5))
             for name, players, options, slow in CASES]
    for row in itertools.zip_longest(*(states for _, _, states in cases)):
        for (game, slow, _), state in zip(cases, row, strict=True):
            if state is not None:
                _check(game, slow, state, game.players(state) - 1)


def test_tensors_in_threads() -> None:
    """Four threads building tensors of the same games at once agree with the definition."""
    failures: list[BaseException] = []
    work = [CASES[2], CASES[7], CASES[2], CASES[7]]

    def run(case: tuple[str, int | None, dict[str, object], Slow], seed: int) -> None:
        name, players, options, slow = case
        game = load_game(name)
        try:
            for state in _visits(name, players, options, seed):
                _check(game, slow, state, 0)
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=run, args=(case, i)) for i, case in enumerate(work)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures[0]


def test_packed_is_only_the_last_tensor() -> None:
    """The bytes are the last tensor's only: an equal tuple made elsewhere has none."""
    game = load_game("rolling")
    state = game.new_game(2)
    tensor = game.observation_tensor(state, 0)
    assert packed(tensor) is not None
    assert packed(tensor[:]) is not None  # (the same tuple: a whole slice is itself)
    assert packed((*tensor,)) is None
    game.observation_tensor(state, 1)
    assert packed(tensor) is None
