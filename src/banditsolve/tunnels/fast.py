"""The fast Bandido simulator: :func:`~banditsolve.tunnels.simulate.simulate` of a Bandido game
with the greedy policy plays here.

The same rules, the same greedy choices and the same random draws as the generic path
(``core.play.playout`` over :func:`~banditsolve.tunnels.players.greedy_policy` and
:func:`~banditsolve.tunnels.rules.apply`), without validating what it generated itself and with
the placements of each front cell worked out once per local signature
(:func:`~banditsolve.tunnels.table.local_placements`) on a table of its own by cell key
(:mod:`banditsolve.tunnels.keyed`). ``tests/tunnels/test_game.py`` checks it against the
generic path on many seeds and against recorded games.
"""

from __future__ import annotations

import random
from bisect import bisect_left

from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import ROTATIONS, SIDE_MASK, Placement
from banditsolve.tunnels.keyed import (
    CELL_OF,
    HAND_MASKS,
    KEY_MASK,
    KEY_OFFSET,
    KEY_WIDTH,
    LAY_KEYED,
    PLACE_SETS,
    RANK_SHIFT,
    ROW_PLACES,
    celled,
    fits_fast,
    hand_masks,
    key_cell,
    key_signature,
    keyed,
    lay_keyed,
    lay_tracked,
    least_placed_index,
    walled,
    walls_hole,
)
from banditsolve.tunnels.players import greedy_policy
from banditsolve.tunnels.rules import fits
from banditsolve.tunnels.state import CHANGE, LOST, PASS, REASONS, WON, Action, Change, GameState
from banditsolve.tunnels.table import (
    LOCAL_PLACEMENTS,
    NO_PLACEMENT,
    ROW_UNKNOWN,
    SIGNATURE_BITS,
    TOUCH_COUNT,
    Table,
    dead_exits,
    least_change,
    least_row,
    local_placements,
)

#: What :meth:`FastGame.gather` finds: the least exit change, the placements of that change
#: (see :func:`~banditsolve.tunnels.keyed.entry`), those that may wall a hole, and the codes.
Gathered = tuple[int, list[int], list[int], tuple[int, ...]]


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
            base = first[m] + (t << 2)
            if t in danger:
                for ar, _ in least:
                    group.append(base + ar)
                    risky.append(base + ar)
            else:
                for ar, o in least:
                    group.append(base + ar)
                    if t + o in danger:
                        risky.append(base + ar)
            if more and m in more:
                _more(group, risky, more[m], t, least, danger)
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
            rim, three = self.rim, self.three
            holes = {
                g
                for g in risky
                if walls_hole(rim, three, codes[g >> RANK_SHIFT], g >> 2 & KEY_MASK, g & 3)
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

    def settle(self) -> None:
        """:func:`~banditsolve.tunnels.rules.settle` and its last steps, for a known pile: the
        draws owed (the top of the known pile each; with none left, lost under
        ``pile_out=must_draw``), then whether the hand of the player whose turn it is fits (the
        fast path gathers its placements for the next move at the same time), else whether
        any card in play still does."""
        hands = self.hands
        while self.outcome is None:
            pile = self.pile
            if self.to_draw:
                if pile:
                    who = self.to_draw[0]
                    hand = hands[who]
                    i = bisect_left(hand, pile[0])
                    hands[who] = hand[:i] + pile[:1] + hand[i:]
                    self.pile = pile[1:]
                    self.to_draw = self.to_draw[1:]
                elif self.must_draw:
                    self.end(LOST, "no-draw")
                else:
                    self.to_draw = ()
                continue
            if self.pile_end and not pile:
                self.end(LOST, "pile-empty")
                return
            if self.fast_fits:
                gathered = self.gathered = self.gather(hands[self.player])
                if gathered[1]:
                    return
            elif fits(self.view(), hands[self.player], self.options):
                return
            if self.stuck() or not self.changed:
                return
            self.next_turn()
            self.gathered = None

    def stuck(self) -> bool:
        """BD-END-3: no card in play fits anywhere: the game ends lost (True)."""
        left = (*(c for h in self.hands for c in h), *self.pile)
        if self.fast_fits:
            any_fits = fits_fast(self.fsig, self.frow, left)
        else:
            any_fits = fits(self.view(), left, self.options)
        if not any_fits:
            self.outcome, self.reason = LOST, REASONS["stuck" if left else "all-down"]
        return not any_fits

    def run(self) -> tuple[list[GameState], list[Action]]:
        """Play to the end: every state (with ``keep``; else the start and the last), and the
        actions between them."""
        actions, states, keep = self.actions, self.states, self.keep
        choose, lay, settle = self.choose, self.lay, self.settle
        while self.outcome is None:
            action, key, turn, delta = choose()
            self.gathered = None
            actions.append(action)
            if isinstance(action, Placement):
                lay(action, key, turn, delta)
            elif isinstance(action, Change):
                self.change()
            else:
                self.next_turn()
            settle()
            self.state = None
            if keep:
                if self.table is None:
                    self.table = self.made(True)
                states.append(self.now())
        if not keep and len(states) == 1 and actions:
            self.table = self.made(False)
            states.append(self.now())
        return states, actions


def _more(
    group: list[int],
    risky: list[int],
    bases: list[int],
    t: int,
    least: tuple[tuple[int, int], ...],
    danger: dict[int, int],
) -> None:
    """The same placements for the other codes of one port mask in a hand (none in the
    Bandido box)."""
    for base in bases:
        base += t << 2
        for ar, o in least:
            group.append(base + ar)
            if t in danger or t + o in danger:
                risky.append(base + ar)


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
