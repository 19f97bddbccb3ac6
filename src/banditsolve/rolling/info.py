"""Rolling Bandits' information and numbering (issue 29, for the OpenSpiel and PettingZoo
adapters): imperfect information, the observation, action indices by place, the length cap.

**Imperfect information.** A trunk is dealt face down and only its symbol shows (RB-SETUP-2);
the player who carries it off "then look[s] at what is inside" and "can keep the Trunk and use
its contents at a later turn" (seed 002, Trunk; RB-TRUNK-1, RB-TRUNK-5): until it is used, what
it holds and its points are known to its holder alone. A bomb acts at once and lies open
(RB-TRUNK-3), a used trunk stays open, and a trunk thrown out after opening lies open
(``discarded``), so those are seen by all. Everything else (the train, the groups, the wagons
taken, the rolls) is in view. A player's observation is the state's JSON document without its
notation line and with every other player's unused trunk as its symbol only (``"value"`` and
``"content"`` ``"?"``). One step of the engine would tell the others what a closed trunk holds:
the ``ambush`` phase, which follows the attack only when the mover holds a usable ambush
(RB-AMBUSH-1); to the others it shows as ``attack`` (a mover who has laid everything and not
yet ended looks the same).

**Indices by place** (:mod:`banditsolve.core.observe`): an action's index is its place in
``legal_actions(state)``, in the fixed order of :mod:`banditsolve.rolling.rules`. The ranges are
bounds on the number of legal actions over the game's edition, with ``C`` the wagons of the
longest train (the locomotive, wagon 0, and every other), ``d`` the dice of a colour and ``m`` the
mercenaries (``d`` under ``mercenaries=on``, else 0): before the roll at most ``2 + m`` (take
back, roll, roll with 1..m mercenaries); after it at most ``R(d) * R(m) - 1`` re-rolls (every
non-empty part of the roll, ``R(n)`` the most parts of ``n`` dice on six faces), ``5 * C``
layings (a symbol on a wagon), ``2 * C`` jokers and ``end``; with an ambush at most
``C * (C - 1) / 2 + 1``. Chance: the wagon kinds, the five symbols, the ``C(d + 5, 5)`` rolls
of ``d`` dice, the trunk tiles: the largest of them.

**No bound by the rules.** A player may take every group back and lay nothing, turn after turn
(RB-TAKE-1: any number of take-backs; RB-ATTACK-1: a group may be kept back), so a game may go
on for ever. :data:`~banditsolve.core.limits.CAPPED_GAME_LENGTH` (20,000 steps) is the cap an
adapter cuts at; random play never came near it (917 steps at most in 300 games).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from banditsolve.core.limits import CAPPED_GAME_LENGTH
from banditsolve.core.observe import (
    KEPT,
    Frame,
    Memo,
    Piece,
    at_place,
    concatenated,
    expect_observer,
    observation_text,
    piece,
    place_of,
)
from banditsolve.rolling import notation, rules
from banditsolve.rolling.edition import Edition
from banditsolve.rolling.rules import Action
from banditsolve.rolling.state import OPTION_SET, PHASES, Held, Options, State, Wagon, Won

PERFECT_INFORMATION = False
MAX_GAME_LENGTH = CAPPED_GAME_LENGTH
#: The most players (the tensor has a place for each).
SEATS = 4
#: The faces of a die (five symbols and the joker).
FACES = 6
#: The numbers after the lists: reserves (a seat each), the roll and the mercenaries' roll (six
#: faces each), the dice in the air (2), laid, the jokers' wagon, usable, the phase, the phase to
#: resume, the player to move, the players, the wagons, the observer, each rule option.
TAIL = SEATS + 2 * FACES + 2 + 1 + 2 + 3 + 3 + len(OPTION_SET.names())
#: The numbers per wagon: present, id, need, points, locomotive, trunk symbol + 1, then per seat
#: present, symbol + 1, bandits, mercenaries, natural.
WAGON_NUMBERS = 6 + 5 * SEATS


def train_length(edition: Edition) -> int:
    """The wagons of the longest train of ``edition``: the locomotive (wagon 0) and every
    other."""
    return 1 + len(edition.wagons)


def parts(n: int) -> int:
    """The most parts (sub-multisets) ``n`` dice on six faces can have: ``prod(c + 1)`` with
    the counts ``c`` as even as they go."""
    low, extra = divmod(n, FACES)
    return int((low + 2) ** extra * (low + 1) ** (FACES - extra))


def distinct_actions(edition: Edition, options: Options) -> int:
    """The bound on a state's legal player actions (the module notes)."""
    c = train_length(edition)
    m = edition.dice_per_colour if options.mercenaries == "on" else 0
    attack = parts(edition.dice_per_colour) * parts(m) - 1 + 5 * c + 2 * c + 1
    return max(2 + m, attack, c * (c - 1) // 2 + 1)


def chance_outcomes(edition: Edition) -> int:
    """The bound on a state's chance outcomes (the module notes)."""
    rolls = math.comb(edition.dice_per_colour + FACES - 1, FACES - 1)
    return max(len(edition.wagon_kinds), 5, rolls, len(edition.trunk_kinds))


def tensor_length(edition: Edition) -> int:
    """The train (``C`` wagons), the wagons taken in order (``C`` per seat, four numbers each),
    the trunks held (``C`` per seat, five numbers each), the trunks thrown out (``C``, three),
    the pending trunks (``C``, two), and :data:`TAIL` more."""
    c = train_length(edition)
    return c * WAGON_NUMBERS + SEATS * c * 4 + SEATS * c * 5 + c * 3 + c * 2 + TAIL


def observation(state: State, player: int) -> str:
    """What ``player`` sees: the state's JSON without the notation, the other players' unused
    trunks by their symbol only."""
    expect_observer(player, state.players, "Rolling Bandits")
    document: dict[str, Any] = dict(notation.to_json(state))
    document.pop("notation", None)
    document["trunks"] = [
        [
            held if p == player or held.get("used") else {**held, "value": "?", "content": "?"}
            for held in row
        ]
        for p, row in enumerate(document["trunks"])
    ]
    document["phase"] = _phase(state, player)
    document["observer"] = player
    return observation_text(document)


def _phase(state: State, player: int) -> str:
    """The phase as ``player`` sees it (the ambush step as the attack to the others)."""
    if state.phase == "ambush" and player != state.to_move:
        return "attack"
    return state.phase


def _wagon(wagon: Wagon) -> Piece:
    trunk = 0 if wagon.trunk is None else wagon.trunk + 1
    out = [1, wagon.id, wagon.need, wagon.points, int(wagon.loco), trunk]
    for seat in range(SEATS):
        g = wagon.groups[seat] if seat < len(wagon.groups) else None
        out += [0] * 5 if g is None else [1, g.symbol + 1, g.bandits, g.mercs, g.natural]
    return piece(out)


def _rows(rows: list[list[int]], count: int, width: int) -> list[int]:
    """``rows`` of ``width`` numbers, padded with zero rows to ``count`` rows, in one list."""
    rows = rows + [[0] * width] * (count - len(rows))
    return list(itertools.chain.from_iterable(rows))


def _won(won: tuple[tuple[Won, ...], ...], c: int) -> Piece:
    values: list[int] = []
    for seat in range(SEATS):
        taken = won[seat] if seat < len(won) else ()
        values += _rows([[w.id + 1, w.need, w.points, int(w.loco)] for w in taken], c, 4)
    return _WON.put(won, c, piece(values))


def _trunks(trunks: tuple[tuple[Held, ...], ...], c: int, player: int) -> Piece:
    values: list[int] = []
    for seat in range(SEATS):
        held = trunks[seat] if seat < len(trunks) else ()
        rows = [
            [1, h.symbol + 1, h.value, h.content + 1, int(h.used)]
            if seat == player or h.used
            else [1, h.symbol + 1, -1, -1, 0]
            for h in held
        ]
        values += _rows(rows, c, 5)
    return _TRUNKS.put(trunks, c * SEATS + player, piece(values))


def _thrown(discarded: tuple[Held, ...], c: int) -> Piece:
    rows = [[h.symbol + 1, h.value, h.content + 1] for h in discarded]
    return _THROWN.put(discarded, c, piece(_rows(rows, c, 3)))


def _pending(pending: tuple[tuple[int, bool], ...], c: int) -> Piece:
    rows = [[wagon + 1, int(theft)] for wagon, theft in pending]
    return _PENDING.put(pending, c, piece(_rows(rows, c, 2)))


def _parts(state: State, c: int, player: int) -> Piece:
    """The wagons taken, the trunks held (as ``player`` sees them), thrown out and pending."""
    return concatenated((
        _WON.get(state.won, c) or _won(state.won, c),
        _TRUNKS.get(state.trunks, c * SEATS + player) or _trunks(state.trunks, c, player),
        _THROWN.get(state.discarded, c) or _thrown(state.discarded, c),
        _PENDING.get(state.pending, c) or _pending(state.pending, c),
    ))


def _options(options: Options) -> list[int]:
    """The place of each option's value (kept by the options' identity)."""
    entry = _OPTIONS.get(id(options))
    if entry is None or entry[0] is not options:
        chosen = options.values()
        entry = (options, [spec.values.index(str(chosen[spec.name])) for spec in OPTION_SET])
        if len(_OPTIONS) >= KEPT:
            _OPTIONS.clear()
        _OPTIONS[id(options)] = entry
    return entry[1]


def _sizes(edition: Edition) -> tuple[int, int]:
    """:func:`train_length` and :func:`tensor_length` (kept by the edition's identity)."""
    entry = _SIZES.get(id(edition))
    if entry is None or entry[0] is not edition:
        entry = (edition, (train_length(edition), tensor_length(edition)))
        if len(_SIZES) >= KEPT:
            _SIZES.clear()
        _SIZES[id(edition)] = entry
    return entry[1]


#: The pieces of the tensors made (:class:`~banditsolve.core.observe.Memo`), each by the value
#: it is made from and the rows' count (and the observer, for the trunks): a state shares most
#: of its values (the wagons and trunks taken) with the state before it (and its wagons: the
#: frame writes the wagons that changed). One memo a part, as two parts may be made from one
#: value (the empty tuple). The options' places and the editions' sizes by their identity (a
#: few entries, emptied past :data:`~banditsolve.core.observe.KEPT`).
_WON, _TRUNKS, _THROWN, _PENDING = (Memo() for _ in range(4))
_OPTIONS: dict[int, tuple[Options, list[int]]] = {}
#: The place of each phase in :data:`PHASES`; the zeros of the missing seats by player count.
_PHASE_AT: dict[str, int] = {phase: place for place, phase in enumerate(PHASES)}
_NO_SEATS = tuple((0,) * (SEATS - n) for n in range(SEATS + 1))
_SIZES: dict[int, tuple[Edition, tuple[int, int]]] = {}


def _filled(state: State, player: int, edition: Edition) -> Frame:
    """:func:`observation` as numbers, :func:`tensor_length` long: the train (``C`` rows of
    :data:`WAGON_NUMBERS`), each seat's wagons taken (``C`` rows of 4: id + 1, need, points,
    locomotive), each seat's trunks held (``C`` rows of 5: 1, symbol + 1, then value, content
    + 1, used where the observer may see them, else -1, -1, 0), the trunks thrown out (``C``
    rows of 3) and pending (``C`` rows of 2), then the numbers of :data:`TAIL` (the missing
    seats and rows are zeros)."""
    expect_observer(player, state.players, "Rolling Bandits")
    c, length = _sizes(edition)
    frame = Frame.of(("rolling", c, player), length)
    frame.put_rows(0, state.train, c, WAGON_NUMBERS, _wagon)
    parts = (state.won, state.trunks, state.discarded, state.pending)
    frame.put_parts(c * WAGON_NUMBERS, parts, player, lambda: _parts(state, c, player))
    joker = state.joker_wagon
    tail = [
        *state.reserve, *_NO_SEATS[state.players], *state.roll, *state.mroll, *state.airborne,
        int(state.laid), -1 if joker is None else joker, state.usable,
        _PHASE_AT[_phase(state, player)], _PHASE_AT[state.resume], state.to_move,
        state.players, state.wagons, player, *_options(state.options),
    ]
    frame.put_numbers(length - TAIL, tail)
    return frame


def observation_tensor(state: State, player: int, edition: Edition) -> tuple[float, ...]:
    """The observation tensor (the layout of :func:`_filled`)."""
    return _filled(state, player, edition).made()


def observation_bytes(state: State, player: int, edition: Edition) -> bytes:
    """:func:`observation_tensor` as ``float32`` bytes, without the tuple."""
    return _filled(state, player, edition).raw()


def action_index(state: State, action: Action) -> int:
    return place_of(rules.legal_actions(state), action, "Rolling Bandits")


def action_from_index(state: State, index: int, edition: Edition) -> Action:
    size = chance_outcomes(edition) if state.is_chance else distinct_actions(
        edition, state.options
    )
    return at_place(rules.legal_actions(state), index, size, "Rolling Bandits")
