"""The fast Bandido simulator: :func:`~banditsolve.tunnels.simulate.simulate` of a Bandido game
with the greedy policy plays here.

The same rules, the same greedy choices and the same random draws as the generic path
(``core.play.playout`` over :func:`~banditsolve.tunnels.players.greedy_policy` and
:func:`~banditsolve.tunnels.rules.apply`), without validating what it generated itself and with
the placements of each front cell worked out once per local signature
(:func:`~banditsolve.tunnels.table.local_placements`). ``tests/tunnels/test_game.py`` checks it
against the generic path on many seeds and against recorded games.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from functools import cache

from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import ROTATIONS, SIDE_MASK, STEP, Cell, Placement, orientation
from banditsolve.tunnels.players import greedy_policy
from banditsolve.tunnels.rules import fits
from banditsolve.tunnels.state import (
    CHANGE,
    LOST,
    PASS,
    REASONS,
    WON,
    Action,
    Change,
    GameState,
)
from banditsolve.tunnels.table import (
    FLASH_BIT,
    INDEX_SHIFT,
    IS_HOLE,
    LEAST_ROWS,
    LOCAL_MEMO_LIMIT,
    LOCAL_PLACEMENTS,
    NO_PLACEMENT,
    PARTNER_SHIFT,
    RIM_TOUCH_SHIFT,
    ROW_UNKNOWN,
    SIGNATURE_BITS,
    TOUCH,
    TOUCH_COUNT,
    Table,
    dead_exits,
    least_change,
    least_row,
    local_placements,
)

#: The fast simulator's cells are ints: ``(x, y)`` is ``(y + KEY_OFFSET) * KEY_WIDTH + x +
#: KEY_OFFSET``, so the cell ``dx, dy`` away is ``dy * KEY_WIDTH + dx`` away, and keys order
#: as ``(y, x)`` does, while ``-KEY_OFFSET <= x, y < KEY_OFFSET``. Laid cards reach less than
#: ``2 * cards`` cells from the start, the cells read around them two more: a game of fewer than
#: :data:`FAST_CARDS` cards stays inside; every key stays a one-digit int. The width is not a
#: power of two so that the low bits of a key (a dict's first slot) mix x and y: cells of one
#: column would otherwise share a slot (measured on the tables of 40 games: 2.60 probes per key
#: for a width of 8192, 1.18 for this one, 1.40 for tuple cells).
KEY_OFFSET = 4000
KEY_WIDTH = 8192 + 27
FAST_CARDS = KEY_OFFSET // 2 - 2
#: Every key is below ``1 << KEY_SIZE``.
KEY_SIZE = 26
assert (2 * KEY_OFFSET) * KEY_WIDTH < 1 << KEY_SIZE
KEY_MASK = (1 << KEY_SIZE) - 1
#: A placement of the greedy player's group is one int, ``rank << RANK_SHIFT | key << 2 |
#: rotation index`` (:func:`entry`): ints order as ``(code, y, x, rotation)``, as
#: greedy_policy sorts them.
RANK_SHIFT = KEY_SIZE + 2


def entry(rank: int, key: int, rotation: int) -> int:
    """A group entry: the code of rank ``rank`` in the hand, square A at ``key``, turned
    ``rotation`` degrees."""
    return rank << RANK_SHIFT | key << 2 | rotation // 90


#: ``STEP`` as key offsets.
KEY_STEP = tuple(dy * KEY_WIDTH + dx for dx, dy in STEP)


def cell_key(cell: Cell) -> int:
    """The fast simulator's key of ``cell``."""
    return (cell[1] + KEY_OFFSET) * KEY_WIDTH + cell[0] + KEY_OFFSET


def key_cell(key: int) -> Cell:
    """The cell of a fast simulator's key."""
    y, x = divmod(key, KEY_WIDTH)
    return x - KEY_OFFSET, y - KEY_OFFSET


def keyed(cells: Mapping[Cell, int]) -> dict[int, int]:
    """A mapping of cells as one of keys."""
    w, o = KEY_WIDTH, KEY_OFFSET
    return {(y + o) * w + x + o: v for (x, y), v in cells.items()}


class CellOf(dict[int, Cell]):
    """The cell of each key (:func:`key_cell`), worked out once (emptied beyond
    :data:`~banditsolve.tunnels.table.LOCAL_MEMO_LIMIT` keys)."""

    __slots__ = ()

    def __missing__(self, key: int) -> Cell:
        if len(self) >= LOCAL_MEMO_LIMIT:
            self.clear()
        cell = self[key] = key_cell(key)
        return cell


CELL_OF = CellOf()


def celled(keys: Mapping[int, int]) -> dict[Cell, int]:
    """A mapping of keys as one of cells (in the same order)."""
    return dict(zip(map(CELL_OF.__getitem__, keys), keys.values(), strict=True))


def keys_fit(state: GameState) -> bool:
    """True when every card of ``state`` laid in a line stays within the fast simulator's keys."""
    return len(state.table) + len(state.pile) + sum(map(len, state.hands)) < FAST_CARDS


class FastGame:
    """A settled Bandido game (the pile known) played to the end with
    :func:`~banditsolve.tunnels.players.greedy_policy` on mappings of its own, changed in place
    (see the module notes): :meth:`run` gives every state (with ``keep``; else the start and
    the last) and the actions between them.

    The table is kept as mappings by cell key (``packed``, ``rim``, ``front``), with each
    front cell's signature (``fsig``) and row of least changes (``frow``), and the empty cells
    walled on three sides (``three``, each with the cell on its fourth side; ``danger``: those
    cells, counted): a card can wall an exit into a hole only by covering one of those. When
    Tables are made often (every state kept, or the generic functions read the table each
    turn), the same mappings by cell are kept beside them (``mirrored``: ``cpacked``,
    ``crim``, ``cfront``), changed card by card. ``table`` is the current table as an
    immutable Table (made for each state kept), or None; ``state`` the current state, or None
    until asked."""

    __slots__ = (
        "actions",
        "cfront",
        "changed",
        "cpacked",
        "crim",
        "danger",
        "dead_loses",
        "exits",
        "fast",
        "fast_fits",
        "front",
        "frow",
        "fsig",
        "gathered",
        "hands",
        "history",
        "holes_allowed",
        "keep",
        "may_place",
        "mirrored",
        "must_draw",
        "options",
        "outcome",
        "packed",
        "pile",
        "pile_end",
        "player",
        "players",
        "reason",
        "rim",
        "rng",
        "state",
        "states",
        "table",
        "three",
        "to_draw",
        "turn",
    )

    def __init__(self, start: GameState, rng: random.Random, keep: bool) -> None:
        options = self.options = start.options
        self.rng = rng
        self.keep = keep
        self.fast = options.area is None
        # Holes may be made (hole=loses); Bandido has no map, so a hole made is there for
        # good and the game is lost (BD-END-4).
        self.holes_allowed = options.hole != "illegal"
        self.fast_fits = self.fast and self.holes_allowed
        self.dead_loses = options.dead_exit == "loses"
        self.must_draw = options.pile_out == "must_draw"
        self.pile_end = options.pile_out == "end"
        self.may_place = options.hand_change == "may_place"
        self.players = start.players
        table = start.table
        self.packed = keyed(table.packed)
        self.rim = rim = keyed(table.rim)
        self.front = keyed(table.front_rim)
        self.mirrored = mirrored = keep or not self.fast_fits or self.dead_loses
        self.cpacked = dict(table.packed) if mirrored else {}
        self.crim = dict(table.rim) if mirrored else {}
        self.cfront = dict(table.front_rim) if mirrored else {}
        self.history = list(table.history)
        self.table: Table | None = table
        self.hands = list(start.hands)
        self.pile = start.pile
        self.player = start.player
        self.to_draw = start.to_draw
        self.changed = start.changed
        self.turn = start.turn
        self.outcome = start.outcome
        self.reason = start.reason
        self.states = [start]
        self.actions: list[Action] = []
        self.state: GameState | None = start
        self.exits = table.exit_count
        self.fsig = {t: key_signature(rim, t) for t in self.front}
        self.frow = {t: least_row(s) for t, s in self.fsig.items()}
        self.three: dict[int, int] = {}
        self.danger: dict[int, int] = {}
        for c, v in rim.items():
            if TOUCH_COUNT[v] == 3:
                walled(self.three, self.danger, c, v)
        self.gathered: Gathered | None = None

    # -- tables and states, when a generic function or a kept state needs one -------------------

    def made(self, copy: bool) -> Table:
        """A Table of the mappings now. Without mirrors: new mappings by cell, converted from
        the keyed ones. With them: copies (``copy``, for a state kept) or the mirrors
        themselves (a passing view, or the last table)."""
        history = tuple(self.history)
        if not self.mirrored:
            return Table(celled(self.packed), celled(self.rim), celled(self.front), history)
        if copy:
            return Table(dict(self.cpacked), dict(self.crim), dict(self.cfront), history)
        return Table(self.cpacked, self.crim, self.cfront, history)

    def mirror(self, a: int, code: int, r: int) -> None:
        """The mirrors after laying ``code`` at key ``a`` turned rotation index ``r``: the
        card's cells, then each side neighbour's rim value (front if it has an opening)."""
        cell_of, packed, rim = CELL_OF, self.packed, self.rim
        crim, cfront, cpacked = self.crim, self.cfront, self.cpacked
        steps = LAY_KEYED[(code & PORT_MASK) << 2 | r] or lay_keyed(code & PORT_MASK, r)
        for k in (a, a + steps[0]):
            c = cell_of[k]
            crim.pop(c, None)
            cfront.pop(c, None)
            cpacked[c] = packed[k]
        for _, n, _, _, _ in steps[3]:
            v = rim.get(n + a)
            if v is not None:
                c = cell_of[n + a]
                crim[c] = v
                if v & SIDE_MASK:
                    cfront[c] = v

    def view(self) -> Table:
        """The table for a generic function to read now: a kept one, or one made from the
        mappings (with mirrors a passing view, never kept: they change with the next card)."""
        return self.table if self.table is not None else self.made(False)

    def now(self) -> GameState:
        """The state now (made once per state)."""
        if self.state is None:
            self.state = GameState(
                self.view(), tuple(self.hands), (), self.pile, self.player, self.to_draw,
                self.options, self.changed, self.outcome, self.reason, self.turn,
            )
        return self.state

    # -- the greedy policy's move ----------------------------------------------------------------

    def least(self, masks: list[int]) -> tuple[int, list[tuple[int, list[int], int]]]:
        """The least exit change of the port masks ``masks`` on any front cell, and the
        ``(cell, row, mask)`` of that change. Each is read from the cell's row by index (an
        entry not worked out yet is ROW_UNKNOWN, less than any change); only the pairs of the
        least change are then looked up. :data:`NO_FIT` when nothing fits."""
        fsig = self.fsig
        best_delta = NO_FIT
        hits: list[tuple[int, list[int], int]] = []
        for t, row in self.frow.items():
            for m in masks:
                d = row[m]
                if d <= best_delta:
                    if d < best_delta:
                        if d == ROW_UNKNOWN:
                            d = row[m] = least_change(m << SIGNATURE_BITS | fsig[t])
                            if d >= best_delta:
                                if d == best_delta:
                                    hits.append((t, row, m))
                                continue
                        best_delta = d
                        hits = [(t, row, m)]
                    else:
                        hits.append((t, row, m))
        return best_delta, hits

    def gather(self, hand: tuple[int, ...]) -> Gathered:
        """The placements of ``hand`` (a sorted tuple) that change the exits least: their
        change, the placements (see :func:`entry`) and those that cover a cell of ``danger``,
        and the hand's codes without repeats, in order (an entry's rank is its index). The
        order found does not matter: the group is sorted, the risky ones are a set."""
        codes, masks, first, more = HAND_MASKS.get(hand) or hand_masks(hand)
        best_delta, hits = self.least(masks)
        group: list[int] = []
        risky: list[int] = []
        if best_delta == NO_FIT:
            return NO_PLACEMENT, group, risky, codes
        fsig, danger, place_sets = self.fsig, self.danger, PLACE_SETS
        for t, row, m in hits:
            # The least placements' set, by its index kept in the row beside the change.
            i = row[m + ROW_PLACES]
            if i < 0:
                i = row[m + ROW_PLACES] = least_placed_index(m << SIGNATURE_BITS | fsig[t])
            least = place_sets[i]
            near = t in danger
            for base in (first[m], *(more.get(m, ()) if more else ())):
                base += t << 2
                for ar, o in least:
                    group.append(base + ar)
                    if near or t + o in danger:
                        risky.append(base + ar)
        return best_delta, group, risky, codes

    def every(self, hand: tuple[int, ...], above: int) -> list[Spot]:
        """Every placement of ``hand`` that changes the exits by more than ``above``, as
        greedy_policy lists them, sorted: ``(change, code, key of square A, rotation, key of
        the front cell it covers, key of its other cell)`` (keys order as ``(y, x)``)."""
        found = []
        local_get, w = LOCAL_PLACEMENTS.get, KEY_WIDTH
        for t, s in self.fsig.items():
            for code in set(hand):
                key = (code & PORT_MASK) << SIGNATURE_BITS | s
                for d, adx, ady, r, odx, ody in local_get(key) or local_placements(key):
                    if d > above:
                        found.append((d, code, t + ady * w + adx, r, t, t + ody * w + odx))
        found.sort()
        return found

    def walls(self, code: int, a: int, r: int) -> bool:
        """:func:`walls_hole` on the table now."""
        return walls_hole(self.rim, self.three, code, a, r)

    def choose(self) -> tuple[Action, int, int, int]:
        """The greedy policy's move (in the same order and with the same draws as
        greedy_policy): the action, the key and rotation index of a placement (or -1), and its
        exit change (99 when it is to be counted after)."""
        if not self.fast:
            return greedy_policy(self.now(), self.rng), -1, -1, 99
        gathered = self.gathered
        if gathered is None:
            gathered = self.gather(self.hands[self.player])
        best_delta, group, risky, codes = gathered
        if not group:
            return self.no_placement(), -1, -1, 99
        # Sorted as greedy_policy sorts: by code, cell (y, x) and rotation.
        group.sort()
        best = group
        if risky and self.exits + best_delta > 0:
            holes = {
                g for g in risky if self.walls(codes[g >> RANK_SHIFT], g >> 2 & KEY_MASK, g & 3)
            }
            if holes:
                best = [g for g in group if g not in holes]
        if not best:
            return self.past_holes(group, codes, best_delta), -1, -1, 99
        rng = self.rng
        g = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        k = g >> 2 & KEY_MASK
        turn = g & 3
        # Placement(...) without its Python-level __new__ (the same tuple).
        action = NEW_TUPLE(
            Placement,
            (
                codes[g >> RANK_SHIFT],
                k % KEY_WIDTH - KEY_OFFSET,
                k // KEY_WIDTH - KEY_OFFSET,
                ROTATIONS[turn],
            ),
        )
        return action, k, turn, best_delta

    def no_placement(self) -> Action:
        """The only action when no card of the hand is laid: pass or change."""
        return PASS if self.changed or not self.pile else CHANGE

    def past_holes(self, group: list[int], codes: tuple[int, ...], least: int) -> Action:
        """Every placement of the least change walls in a hole: greedy_policy's other groups,
        in order (a placement can wall a hole only if it covers a cell of ``danger``); failing
        all, the first wall of the least group (or pass or change with ``hole=illegal``)."""
        ordered = self.every(self.hands[self.player], least)
        danger, exits = self.danger, self.exits
        picks: list[Spot] = []
        i = 0
        while i < len(ordered) and not picks:
            d = ordered[i][0]
            while i < len(ordered) and ordered[i][0] == d:
                e = ordered[i]
                if not (
                    exits + d > 0
                    and (e[4] in danger or e[5] in danger)
                    and self.walls(e[1], e[2], e[3] // 90)
                ):
                    picks.append(e)
                i += 1
        if picks:
            rng = self.rng
            e = picks[rng.randrange(len(picks))] if len(picks) > 1 else picks[0]
            x, y = key_cell(e[2])
            return Placement(e[1], x, y, e[3])
        if self.holes_allowed:
            g = group[0]
            x, y = key_cell(g >> 2 & KEY_MASK)
            return Placement(codes[g >> RANK_SHIFT], x, y, ROTATIONS[g & 3])
        return self.no_placement()

    # -- applying the move and settling ----------------------------------------------------------

    def lay(self, action: Placement, key: int, turn: int, delta: int) -> None:
        """The placement made (legal: generated from the table and the hand), then the end
        checks (BD-END-1, BD-END-4, BD-OPT-5)."""
        code = action.card
        if key < 0:
            key = (action.y + KEY_OFFSET) * KEY_WIDTH + action.x + KEY_OFFSET
            turn = action.rotation // 90
        player = self.player
        hand = self.hands[player]
        i = hand.index(code)
        self.hands[player] = hand[:i] + hand[i + 1 :]
        hole = lay_tracked(
            self.packed, self.rim, self.front, self.fsig, self.frow, self.three, self.danger,
            code, key, turn, len(self.history),
        )
        if self.mirrored:
            self.mirror(key, code, turn)
        self.history.append(action)
        self.table = None
        if delta == 99:
            self.exits = sum((v & SIDE_MASK).bit_count() for v in self.front.values())
        else:
            self.exits += delta
        self.to_draw = (player,) if self.pile or self.must_draw else ()
        self.player = (player + 1) % self.players
        self.changed = False
        self.turn += 1
        if not self.exits:
            self.end(WON, "no-exit")
        elif self.holes_allowed and hole:
            self.end(LOST, "hole")
        elif self.dead_loses:
            left = tuple(sorted((*(c for h in self.hands for c in h), *self.pile)))
            if dead_exits(self.view(), left, self.options.area):
                self.end(LOST, "dead-exit")

    def end(self, outcome: str, code: str) -> None:
        """The game ends: ``outcome`` for the reason ``code``."""
        self.outcome, self.reason, self.to_draw = outcome, REASONS[code], ()

    def change(self) -> None:
        """BD-TURN-3, BD-OPT-2: the hand under the pile, as many cards owed."""
        player = self.player
        hand = self.hands[player]
        self.hands[player] = ()
        self.pile = self.pile + hand
        self.to_draw = (player,) * len(hand)
        if self.may_place:
            self.changed = True
        else:
            self.next_turn()

    def next_turn(self) -> None:
        """The turn passes."""
        self.player = (self.player + 1) % self.players
        self.changed = False
        self.turn += 1

    def draw(self) -> None:
        """The first player owed a card draws the top of the known pile (or nothing is left:
        lost under ``pile_out=must_draw``)."""
        pile = self.pile
        if pile:
            who = self.to_draw[0]
            hand = self.hands[who]
            i = bisect_left(hand, pile[0])
            self.hands[who] = hand[:i] + pile[:1] + hand[i:]
            self.pile = pile[1:]
            self.to_draw = self.to_draw[1:]
        elif self.must_draw:
            self.end(LOST, "no-draw")
        else:
            self.to_draw = ()

    def hand_fits(self) -> bool:
        """Whether the hand of the player whose turn it is fits (the fast path gathers its
        placements for the next move at the same time)."""
        if self.fast_fits:
            self.gathered = self.gather(self.hands[self.player])
            return bool(self.gathered[1])
        return fits(self.view(), self.hands[self.player], self.options)

    def settle(self) -> None:
        """:func:`~banditsolve.tunnels.rules.settle` and its last steps, for a known pile."""
        while self.outcome is None:
            if self.to_draw:
                self.draw()
                continue
            if self.pile_end and not self.pile:
                self.end(LOST, "pile-empty")
                return
            if self.hand_fits():
                return
            left = (*(c for h in self.hands for c in h), *self.pile)
            if self.fast_fits:
                any_fits = fits_fast(self.fsig, self.frow, left)
            else:
                any_fits = fits(self.view(), left, self.options)
            if not any_fits:
                self.outcome, self.reason = LOST, REASONS["stuck" if left else "all-down"]
                return
            if not self.changed:
                return
            self.next_turn()
            self.gathered = None

    def run(self) -> tuple[list[GameState], list[Action]]:
        """Play to the end: every state (with ``keep``; else the start and the last), and the
        actions between them."""
        actions, states, keep = self.actions, self.states, self.keep
        while self.outcome is None:
            action, key, turn, delta = self.choose()
            self.gathered = None
            actions.append(action)
            if isinstance(action, Placement):
                self.lay(action, key, turn, delta)
            elif isinstance(action, Change):
                self.change()
            else:
                self.next_turn()
            self.settle()
            self.state = None
            if keep:
                if self.table is None:
                    self.table = self.made(True)
                states.append(self.now())
        if not keep and len(states) == 1 and actions:
            self.table = self.made(False)
            states.append(self.now())
        return states, actions


def fast_bandido(
    start: GameState, rng: random.Random, keep: bool = True
) -> tuple[list[GameState], list[Action]]:
    """Play a settled Bandido game (the pile known) to the end with :func:`greedy_policy`:
    every state (with ``keep``; else the start and the last), and the actions between them
    (:class:`FastGame`)."""
    return FastGame(start, rng, keep).run()


#: Above every exit change: a least change not found (NO_PLACEMENT entries never count).
NO_FIT = NO_PLACEMENT - 1
#: ``tuple.__new__``: a Placement made without its Python-level constructor.
NEW_TUPLE = tuple.__new__
#: A placement of :meth:`FastGame.every`.
Spot = tuple[int, int, int, int, int, int]


Gathered = tuple[int, list[int], list[int], tuple[int, ...]]


def key_signature(rim: Mapping[int, int], k: int) -> int:
    """:func:`~banditsolve.tunnels.table.signature` of the cell of key ``k``."""
    get = rim.get
    return (
        get(k, 0)
        | get(k - KEY_WIDTH, 0) << 8
        | get(k + 1, 0) << 16
        | get(k + KEY_WIDTH, 0) << 24
        | get(k - 1, 0) << 32
    )


def least_placed(key: int) -> tuple[tuple[int, int], ...]:
    """The placements of :func:`~banditsolve.tunnels.table.local_placements` ``(key)`` whose
    exit change is the least, in its order, each as ``(4 * offset of square A + rotation
    index, offset of the other cell)`` in keys (added to 4 * a cell's key, the first is an
    :func:`entry` of rank 0)."""
    found = local_placements(key)
    return tuple(
        (4 * (ady * KEY_WIDTH + adx) + r // 90, ody * KEY_WIDTH + odx)
        for d, adx, ady, r, odx, ody in found
        if d == found[0][0]
    )


#: Every distinct :func:`least_placed` set, and each set's index there. Never emptied: the sets
#: depend only on the shape of the cards about one cell (a few hundred), and a row keeps the
#: index (entry ``ROW_PLACES + mask`` of a :func:`~banditsolve.tunnels.table.least_row`).
PLACE_SETS: list[tuple[tuple[int, int], ...]] = []
PLACE_INDEX: dict[tuple[tuple[int, int], ...], int] = {}
ROW_PLACES = PORT_MASK + 1


def least_placed_index(key: int) -> int:
    """The index of ``least_placed(key)`` in :data:`PLACE_SETS` (added if new)."""
    least = least_placed(key)
    i = PLACE_INDEX.get(least)
    if i is None:
        i = PLACE_INDEX[least] = len(PLACE_SETS)
        PLACE_SETS.append(least)
    return i


HandMasks = tuple[tuple[int, ...], list[int], dict[int, int], dict[int, list[int]]]
#: ``HAND_MASKS[hand]``: a sorted hand's codes without repeats, its port masks without repeats,
#: for each mask the rank of its first code (shifted by ``RANK_SHIFT``), and for each mask of
#: more than one code the ranks of the others (none in the Bandido box: one code per mask).
HAND_MASKS: dict[tuple[int, ...], HandMasks] = {}


def hand_masks(hand: tuple[int, ...]) -> HandMasks:
    """The entry of :data:`HAND_MASKS` for ``hand`` (worked out and kept; emptied beyond
    :data:`~banditsolve.tunnels.table.LOCAL_MEMO_LIMIT` hands)."""
    codes = tuple(dict.fromkeys(hand))
    first: dict[int, int] = {}
    more: dict[int, list[int]] = {}
    for rank, code in enumerate(codes):
        m = code & PORT_MASK
        # The entry of the code at key 0 unturned: gather adds ``key << 2`` and the rotation
        # index to it, which is entry(rank, key, rotation).
        if m in first:
            more.setdefault(m, []).append(entry(rank, 0, 0))
        else:
            first[m] = entry(rank, 0, 0)
    if len(HAND_MASKS) >= LOCAL_MEMO_LIMIT:
        HAND_MASKS.clear()
    found = HAND_MASKS[hand] = codes, list(first), first, more
    return found


def fits_fast(fsig: dict[int, int], frow: dict[int, list[int]], codes: Iterable[int]) -> bool:
    """True when a card of ``codes`` can be laid on the table whose front cells have the
    signatures ``fsig`` and the rows ``frow`` (no play area, holes allowed)."""
    masks = {code & PORT_MASK for code in codes}
    for t, row in frow.items():
        for m in masks:
            d = row[m]
            if d == ROW_UNKNOWN:
                d = row[m] = least_change(m << SIGNATURE_BITS | fsig[t])
            if d != NO_PLACEMENT:
                return True
    return False


def walls_hole(rim: dict[int, int], three: dict[int, int], code: int, a: int, r: int) -> bool:
    """:func:`creates_hole` for laying ``code`` with square A at key ``a`` turned rotation index
    ``r`` (``ROTATIONS[r]``), from the
    cells walled on three sides (``three``, each with the cell on its open side; all by key): a
    hole appears exactly where a square of the card covers such a cell's open side, the other
    square does not cover the cell itself, and an opening then runs into it."""
    steps = LAY_KEYED[(code & PORT_MASK) << 2 | r] or lay_keyed(code & PORT_MASK, r)
    get = three.get
    # The sides of a square that do not face the other square: the neighbour's offset, its
    # square's offset, and whether the card opens that side.
    for h, square, opens in steps[4]:
        h += a
        q = get(h)
        if q is not None and q == a + square and (opens or rim[h] & SIDE_MASK):
            return True
    return False


#: One side of a laid card's square (see :func:`lay_steps`).
LaySide = tuple[int, int, int, int, int, tuple[tuple[int, int, int], ...]]


@cache
def lay_steps(mask: int, rotation: int) -> tuple[int, int, int, int, tuple[LaySide, ...]]:
    """What laying port mask ``mask`` turned ``rotation`` does around it, from
    :func:`~banditsolve.tunnels.geometry.orientation` and :data:`~banditsolve.tunnels.table.TOUCH`
    (as :func:`~banditsolve.tunnels.table.lay`): square B's offset from A, the cell values of A
    and B without the index, and for each side of a square that does not face the other
    square: the square (0 = A, 1 = B), the neighbour's offset from A, what the card adds to its
    rim value, the shift of the neighbour's signature byte that faces the square, and the
    neighbour's other three neighbours (offsets from it, and the shift of their byte facing it)."""
    o = orientation(mask, rotation)
    bdx, bdy = o.b_step
    va = o.open_a | (o.b_side << PARTNER_SHIFT)
    vb = o.open_b | (((o.b_side + 2) & 3) << PARTNER_SHIFT)
    sides: list[LaySide] = []
    for square, (cx, cy), open4, partner in (
        (0, (0, 0), o.open_a, o.b_side),
        (1, (bdx, bdy), o.open_b, (o.b_side + 2) & 3),
    ):
        for side, (dx, dy) in enumerate(STEP):
            if side == partner:
                continue
            facing = (side + 2) & 3
            around = tuple(
                (STEP[d][0], STEP[d][1], 8 * (((d + 2) & 3) + 1)) for d in range(4) if d != facing
            )
            sides.append(
                (square, cx + dx, cy + dy, TOUCH[open4 << 2 | side], 8 * (facing + 1), around)
            )
    return (
        bdx,
        bdy,
        va if o.open_a else va | FLASH_BIT,
        vb if o.open_b else vb | FLASH_BIT,
        tuple(sides),
    )


#: One side of a laid card's square in keys (see :func:`lay_keyed`).
KeyedSide = tuple[int, int, int, int, tuple[tuple[int, int], ...]]


KeyedSteps = tuple[int, int, int, tuple[KeyedSide, ...], tuple[tuple[int, int, int], ...]]
#: ``LAY_KEYED[mask << 2 | r]``: :func:`lay_keyed` of ``mask`` turned ``ROTATIONS[r]``, or None
#: until worked out.
LAY_KEYED: list[KeyedSteps | None] = [None] * ((PORT_MASK + 1) << 2)


def lay_keyed(mask: int, r: int) -> KeyedSteps:
    """:func:`lay_steps` of ``mask`` turned ``ROTATIONS[r]`` with offsets as key offsets:
    square B's offset from A, the cell values of A and B, for each side ``(square,
    neighbour's offset from A, rim added, shift back, ((offset from the neighbour, shift),
    ...))``, and the same sides for :func:`walls_hole`: ``(neighbour's offset, its square's
    offset, 1 if the card opens that side else 0)``. Kept in :data:`LAY_KEYED`."""
    bdx, bdy, va, vb, sides = lay_steps(mask, ROTATIONS[r])
    w = KEY_WIDTH
    b = bdy * w + bdx
    steps = LAY_KEYED[mask << 2 | r] = (
        b,
        va,
        vb,
        tuple(
            (square, ndy * w + ndx, add, back, tuple((uy * w + ux, sh) for ux, uy, sh in around))
            for square, ndx, ndy, add, back, around in sides
        ),
        tuple(
            (ndy * w + ndx, b if square else 0, 1 if add & SIDE_MASK else 0)
            for square, ndx, ndy, add, _, _ in sides
        ),
    )
    return steps


def lay_tracked(
    packed: dict[int, int],
    rim: dict[int, int],
    front: dict[int, int],
    fsig: dict[int, int],
    frow: dict[int, list[int]],
    three: dict[int, int],
    danger: dict[int, int],
    code: int,
    a: int,
    r: int,
    index: int,
) -> bool:
    """:func:`~banditsolve.tunnels.table.lay` of ``code`` with square A at key ``a`` turned
    ``ROTATIONS[r]`` on mappings by cell key, keeping the front signatures ``fsig``, their rows
    ``frow`` (:func:`~banditsolve.tunnels.table.least_row`) and the walled cells (``three``,
    ``danger``) up to date. True when the card walls an exit into a one-cell hole."""
    bk, va, vb, sides, _ = LAY_KEYED[(code & PORT_MASK) << 2 | r] or lay_keyed(
        code & PORT_MASK, r
    )
    b = a + bk
    covered = (rim.pop(a, 0), rim.pop(b, 0))
    front.pop(a, None)
    front.pop(b, None)
    fsig.pop(a, None)
    fsig.pop(b, None)
    frow.pop(a, None)
    frow.pop(b, None)
    if three:
        if a in three:
            unwalled(three, danger, a)
        if b in three:
            unwalled(three, danger, b)
    shifted = index << INDEX_SHIFT
    packed[a] = va | shifted
    packed[b] = vb | shifted
    hole = False
    fresh: list[int] = []
    fget = fsig.get
    rget = rim.get
    row_get = LEAST_ROWS.get
    for square, n, add, shift_back, around in sides:
        n += a
        if n in packed:
            continue
        old = rget(n, 0)
        v = old | add
        rim[n] = v
        change = old ^ v
        if v & SIDE_MASK:
            front[n] = v
            s = fget(n)
            if s is None:
                fresh.append(n)
            else:
                s ^= change ^ (covered[square] << shift_back)
                fsig[n] = s
                frow[n] = row_get(s) or least_row(s)
        for u, shift in around:
            u += n
            s = fget(u)
            if s is not None:
                s ^= change << shift
                fsig[u] = s
                frow[u] = row_get(s) or least_row(s)
        count = TOUCH_COUNT[v]
        if count == 3:
            walled(three, danger, n, v)
        elif count == 4:
            unwalled(three, danger, n)
            hole = hole or IS_HOLE[v]
    for n in fresh:
        # key_signature(rim, n), inline
        s = (
            rget(n, 0)
            | rget(n - KEY_WIDTH, 0) << 8
            | rget(n + 1, 0) << 16
            | rget(n + KEY_WIDTH, 0) << 24
            | rget(n - 1, 0) << 32
        )
        fsig[n] = s
        frow[n] = row_get(s) or least_row(s)
    return hole


def walled(three: dict[int, int], danger: dict[int, int], cell: int, rim: int) -> None:
    """Note the empty cell of key ``cell`` walled on three sides (rim value ``rim``) and its
    open side's neighbour."""
    q = cell + KEY_STEP[(~rim >> RIM_TOUCH_SHIFT & SIDE_MASK).bit_length() - 1]
    three[cell] = q
    danger[q] = danger.get(q, 0) + 1


def unwalled(three: dict[int, int], danger: dict[int, int], cell: int) -> None:
    """Forget ``cell`` (covered, or walled on its fourth side)."""
    q = three.pop(cell, None)
    if q is not None:
        if danger[q] == 1:
            del danger[q]
        else:
            danger[q] -= 1
