"""The constraint model of "is wagon W provably mine?" (RB-SAFE-3), written once over the
operations of :mod:`.backends` (CP-SAT or Z3).

Every opponent's turn before player ``p``'s next one is modelled, in seat order, from the
position's phase (the first) or from the start of the turn (the others):

- the steal at the start of each later opponent's turn (RB-STEAL-1..3): every wagon where they
  have at least its number and more dice than anyone is taken, its dice go home, the train
  closes up (wagons keep their place in the model; taken wagons are *gone*);
- take backs (a front part of the gang is kept, RB-TAKE-1), the roll's faces (free: rolls are
  the adversary's; a usable roll-again trunk frees the faces already rolled, RB-AGAIN-1);
- the attack: each rolled symbol the opponent has on the train joins its group or is kept
  (option keep), each new symbol starts a new wagon, the new wagons a block of neighbouring
  wagons in front of the kept gang (behind it only under front=behind when the front is
  reached; with nothing kept, a block ending at the rear, or anywhere under restart=any; the
  locomotive only when reachable, option locomotive), one group per wagon, the gang one block
  (RB-ATTACK-3..6); jokers per wagon, before or after the group's dice arrive (RB-JOKER-1,
  option jokers);
- trunks (RB-TRUNK-1..4): on each wagon the moment the count first qualifies (options
  trunk_count, trunk_jokers) is found from the order of arrivals (jokers before the group's
  dice, the dice, jokers after), the tile is the adversary's choice among the unseen ones (a
  bomb or not: the counts of unseen bombs and other tiles of each symbol bound the choices over
  all turns), a bomb leaves every player one die there, and the dice that arrive after it
  count;
- outright theft (RB-THEFT-1, option theft_trunk) and the ambush swaps of every usable ambush
  trunk, each may carry off trunks (RB-AMBUSH-1).

W is lost when, at the start of ``p``'s turn, W is gone or ``p`` lacks its number or a strict
majority there. The decision terms of each turn are kept in a :class:`TurnPlan`, so that a
model found can be replayed through the rules engine (:mod:`.models`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from banditsolve.rolling.edition import JOKER
from banditsolve.rolling.rules import AMBUSH, BOMB, ROLL_AGAIN, edition_of, unseen_tiles
from banditsolve.rolling.solvers.backends import Ops, T, is_zero
from banditsolve.rolling.state import Held, State


@dataclass
class TurnPlan:
    """The decision terms of one opponent's turn, read back into a line for the engine."""

    mover: int
    phase: str
    quiet: bool = False
    has: list[T] = field(default_factory=list)
    kept: list[T] = field(default_factory=list)
    faces: list[T] = field(default_factory=list)
    join: dict[int, T] = field(default_factory=dict)  # wagon index -> lit: its symbol's dice join
    new: dict[tuple[int, int], T] = field(default_factory=dict)  # (symbol, wagon) -> lit
    pre: list[T] = field(default_factory=list)  # jokers before the dice arrive, by wagon
    post: list[T] = field(default_factory=list)  # jokers after
    bombs: dict[int, T] = field(default_factory=dict)  # wagon -> lit: the attack's tile is a bomb
    mercs: T = 0  # mercenaries added to the roll (RB-MERC-2)
    swaps: list[tuple[list[T], dict[int, T]]] = field(default_factory=list)  # sel, bombs


@dataclass
class Built:
    """A model built: its operations (and so its solver) and each turn's plan."""

    ops: Ops
    plans: list[TurnPlan]


def build(
    ops: Ops,
    state: State,
    wagon: int,
    player: int,
    free: int | None = None,
    stack: bool = False,
    claim: bool = False,
) -> Built:
    """The model; with ``free``, every opponent's turn but that one is played the quiet way
    (no take back, nothing laid, no ambush: a restriction, so a line it finds is a line of
    the whole question).

    In the mercenary variant (two players: one opponent's turn) the model covers the lines
    where no wagon that dice arrive on ends the attack with as many of the mover's dice as a
    colour has (counting the dice a bomb sent back): on those lines no outright theft can
    happen under any option theft_mercenaries, so hoard and mercenary dice behave alike. With
    ``stack`` it asks instead whether some wagon can get that many (a relaxation of every line
    with an outright theft: the claim and option keep=must_join are dropped; with ``claim`` the
    claim is kept, to look for a line that the engine may confirm)."""
    return _Model(ops, state, wagon, player, free, stack, claim).build()


def _trunk_effects(trunks: tuple[Held, ...], quiet: bool) -> tuple[int, bool]:
    """What a turn's unused tiles in ``trunks`` allow: the ambushes (none in a ``quiet`` turn)
    and whether a roll-again is among them."""
    ambushes = 0 if quiet else sum(1 for h in trunks if h.content == AMBUSH and not h.used)
    again = any(h.content == ROLL_AGAIN and not h.used for h in trunks)
    return ambushes, again


def _unseen_by_symbol(state: State) -> tuple[list[int], list[int]]:
    """By trunk symbol, how many of the tiles not yet seen are bombs and how many are not."""
    bombs_left = [0] * 5
    other_left = [0] * 5
    for s in range(5):
        for tile, n in unseen_tiles(state, s).items():
            if tile.content == BOMB:
                bombs_left[s] += n
            else:
                other_left[s] += n
    return bombs_left, other_left


class _Model:
    """The terms of the position as the turns change it: each player's dice on each wagon
    (``size``; ``nat``, the natural ones, under trunk_jokers=natural), the wagons still there
    (``alive``) and the trunks still on them (``tp``), the tiles opened; and the constraints
    each family of rules adds, one method per family."""

    def __init__(
        self, ops: Ops, state: State, wagon: int, player: int, free: int | None, stack: bool,
        claim: bool,
    ) -> None:
        o = state.options
        ed = edition_of(state)
        self.ops, self.state, self.o = ops, state, o
        self.player, self.free, self.stack, self.claim = player, free, stack, claim
        self.merc = o.mercenaries == "on"
        self.over: dict[int, T] = {}  # merc: wagon -> it ends with a colour's worth of dice
        self.in_hand: T = 0  # merc: the dice of the (only) turn not laid
        self.stack_open = False  # merc: an ambush or cut=rear_back could move or send back dice
        self.dice = ed.dice_per_colour
        self.fmax = 2 * self.dice if self.merc else self.dice
        self.P = state.players
        self.train = state.train
        self.N = len(self.train)
        self.w = state.index(wagon)
        self.need = [c.need for c in self.train]
        self.tsym = [c.trunk for c in self.train]
        self.sym0 = [
            [None if (g := c.groups[r]) is None else g.symbol for c in self.train]
            for r in range(self.P)
        ]
        self.size: list[list[T]] = [[c.count(r) for c in self.train] for r in range(self.P)]
        self.natural = o.trunk_jokers == "natural"
        self.nat: list[list[T]] = self.natural_counts()
        self.alive: list[T] = [True] * self.N
        self.tp: list[T] = [t is not None for t in self.tsym]
        self.bombs_left, self.other_left = _unseen_by_symbol(state)
        self.tiles: list[tuple[int, T, T]] = []  # (symbol, opened, bomb)
        turns = (player - state.to_move) % self.P
        self.movers = [(state.to_move + j) % self.P for j in range(turns)]
        self.plans: list[TurnPlan] = []
        self.exactly = o.trunk_count == "exactly"
        self.discard = o.theft_trunk == "discard"
        self.loco_last = o.locomotive == "last"
        self.rear_back = o.cut == "rear_back"

    def natural_counts(self) -> list[list[T]]:
        """By player and wagon, the natural dice of their group there (option
        trunk_jokers=natural; all 0 otherwise)."""
        return [
            [0 if (g := c.groups[r]) is None or not self.natural else g.natural
             for c in self.train]
            for r in range(self.P)
        ]

    def build(self) -> Built:
        for t, m in enumerate(self.movers):
            self.turn(t, m)
        self.bound_tiles()
        self.claim_broken()
        return Built(self.ops, self.plans)

    # -- small pieces ---------------------------------------------------------------------------

    def reach(self, i: int, al: list[T]) -> T:
        """Wagon ``i`` can take dice (option locomotive=last: the locomotive only alone)."""
        ops = self.ops
        if not (self.train[i].loco and self.loco_last):
            return al[i]
        return ops.and_(al[i], ops.not_(ops.or_(*(al[d] for d in range(self.N) if d != i))))

    def bomb_tile(self, s: int, opened: T) -> T:
        """The tile opened from a trunk of symbol ``s`` (when ``opened``) is a bomb."""
        ops = self.ops
        if self.bombs_left[s] == 0 or opened is False:
            b: T = False
        else:
            b = ops.new_bool()
            ops.implies(b, opened)
        self.tiles.append((s, opened, b))
        return b

    def blast(self, i: int, m: int, fx: T) -> None:
        """A bomb on wagon ``i`` (when ``fx``): every other player keeps one die there."""
        ops, size, nat = self.ops, self.size, self.nat
        for r in range(self.P):
            if r != m and not is_zero(size[r][i]):
                size[r][i] = ops.ite(fx, ops.min1(size[r][i]), size[r][i])
                if self.natural:
                    nat[r][i] = ops.ite(fx, ops.min1(nat[r][i]), nat[r][i])

    def cut(self, i: int, taken: T, gone: list[T]) -> None:
        """Option cut=rear_back: wagon ``i`` taken (``taken``; ``gone``: every wagon taken at the
        same time) cuts a gang holding it in two; the part behind comes back."""
        ops, size, nat, N = self.ops, self.size, self.nat, self.N
        for r in range(self.P):
            if is_zero(size[r][i]):
                continue
            stay = [ops.and_(ops.ge(size[r][j], 1), ops.not_(gone[j])) for j in range(N)]
            split = ops.and_(
                taken, ops.ge(size[r][i], 1), ops.or_(*stay[:i]), ops.or_(*stay[i + 1 :])
            )
            for j in range(i + 1, N):
                keep = ops.or_(ops.not_(split), gone[j])
                size[r][j] = ops.ite(keep, size[r][j], 0)
                nat[r][j] = ops.ite(keep, nat[r][j], 0)

    def qualifies(self, count: T) -> T:
        """A count of the trunk's symbol carries the trunk off (option trunk_count)."""
        return self.ops.eq(count, 3) if self.exactly else self.ops.ge(count, 3)

    # -- one opponent's turn --------------------------------------------------------------------

    def turn(self, t: int, m: int) -> None:
        """Opponent ``m``'s turn, the ``t``-th before the player's."""
        ops, st = self.ops, self.state
        phase = st.phase if t == 0 else "start"
        quiet = self.free is not None and self.free != t
        plan = TurnPlan(m, phase, quiet=quiet)
        self.plans.append(plan)
        me = st.trunks[m][: st.usable] if t == 0 else st.trunks[m]
        ambushes, again = _trunk_effects(me, quiet)
        if t > 0:
            self.steal(m)
        plan.has = [ops.ge(self.size[m][i], 1) for i in range(self.N)]
        reachable = [self.reach(i, self.alive) for i in range(self.N)]
        self.keep(plan, phase == "start" and not quiet)
        plan.faces = self.faces(plan, again)
        self.in_hand = ops.sum(plan.faces)
        self.stack_open = self.stack_open or ambushes > 0 or self.rear_back
        symv = self.symbol_terms(plan)
        if phase != "ambush" and not quiet:
            self.attack(plan, reachable, symv)
        for _ in range(ambushes):
            symv = self.swap(plan, symv)

    def keep(self, plan: TurnPlan, take_back: bool) -> None:
        """The mover's dice that stay where they are at the start of the turn (``plan.kept``:
        after the take-backs when ``take_back``, else every group they have), the rest gone."""
        ops, m = self.ops, plan.mover
        plan.kept = self.take_backs(plan) if take_back else list(plan.has)
        for i in range(self.N):
            self.size[m][i] = ops.ite(plan.kept[i], self.size[m][i], 0)
            self.nat[m][i] = ops.ite(plan.kept[i], self.nat[m][i], 0)

    def symbol_terms(self, plan: TurnPlan) -> list[list[T]]:
        """By wagon and symbol: the mover has kept a group of that symbol there."""
        m = plan.mover
        return [
            [plan.kept[i] if self.sym0[m][i] == s else False for s in range(5)]
            for i in range(self.N)
        ]

    def steal(self, m: int) -> None:
        """The steal that begins ``m``'s turn (RB-STEAL-1..3; option cut)."""
        ops, size, nat, N = self.ops, self.size, self.nat, self.N
        stolen: list[T] = [
            ops.and_(
                self.alive[i],
                ops.ge(size[m][i], self.need[i]),
                *(ops.gt(size[m][i], size[r][i]) for r in range(self.P) if r != m),
            )
            for i in range(N)
        ]
        if self.rear_back:
            for i in range(N):
                self.cut(i, stolen[i], stolen)
        for i, st in enumerate(stolen):
            self.alive[i] = ops.and_(self.alive[i], ops.not_(st))
            self.tp[i] = ops.and_(self.tp[i], ops.not_(st))
            for r in range(self.P):
                size[r][i] = ops.ite(st, 0, size[r][i])
                nat[r][i] = ops.ite(st, 0, nat[r][i])

    def take_backs(self, plan: TurnPlan) -> list[T]:
        """Before the roll a front part of the gang stays (RB-TAKE-1): which groups."""
        ops, has = self.ops, plan.has
        kept: list[T] = []
        for i in range(self.N):
            if has[i] is False:
                kept.append(False)
                continue
            k = ops.new_bool()
            ops.implies(k, has[i])
            kept.append(k)
        for i, j in itertools.combinations(range(self.N), 2):
            if kept[j] is not False and has[i] is not False:
                ops.implies(ops.and_(kept[j], has[i]), kept[i])
        return kept

    def faces(self, plan: TurnPlan, again: bool) -> list[T]:
        """The faces the mover lays from: none (quiet, or the ambush step), the roll known, or
        free faces for the dice rolled (RB-ROLL-1, RB-AGAIN-1, RB-MERC-2)."""
        ops, st, phase = self.ops, self.state, plan.phase
        if phase == "ambush" or plan.quiet:
            return [0] * 6
        if phase == "attack" and (st.laid or not again):
            return [st.roll[s] + st.mroll[s] for s in range(6)]
        if phase in ("roll", "mroll") and not again:
            air = [ops.new_int(0, self.fmax) for _ in range(6)]
            ops.require(ops.eq(ops.sum(air), sum(st.airborne)))
            return [st.roll[s] + st.mroll[s] + air[s] for s in range(6)]
        total = self.rolled_total(plan)
        faces = [ops.new_int(0, self.fmax) for _ in range(6)]
        ops.require(ops.eq(ops.sum(faces), total))
        return faces

    def rolled_total(self, plan: TurnPlan) -> T:
        """How many dice the free faces show."""
        ops, st, m, N = self.ops, self.state, plan.mover, self.N
        if plan.phase == "start" and self.merc:
            # hoard dice not kept on the train, and the mercenaries added from the reserve
            band = [0 if (g := c.groups[m]) is None else g.bandits for c in self.train]
            reserve = st.reserve[m]
            plan.mercs = ops.new_int(0, reserve) if reserve else 0
            kept = ops.sum([ops.ite(plan.kept[i], band[i], 0) for i in range(N)])
            return self.dice - kept + plan.mercs
        if plan.phase == "start":
            return self.dice - ops.sum([self.size[m][i] for i in range(N)])
        return sum(st.roll) + sum(st.mroll) + sum(st.airborne)

    # -- the attack ------------------------------------------------------------------------------

    def attack(self, plan: TurnPlan, reachable: list[T], symv: list[list[T]]) -> None:
        """Which symbols join, which start new wagons, where the jokers go, and what the dice
        that arrive do (RB-ATTACK-*, RB-JOKER-1, RB-TRUNK-*, RB-THEFT-1)."""
        ops, m, kept = self.ops, plan.mover, plan.kept
        kept_sym: list[T] = [
            ops.or_(*(kept[i] for i in range(self.N) if self.sym0[m][i] == s)) for s in range(5)
        ]
        block = self.joins(plan)
        new_wagon = self.new_wagons(plan, reachable)
        self.new_groups(plan, new_wagon, kept_sym, block, symv)
        gang = [ops.or_(kept[i], new_wagon[i]) for i in range(self.N)]
        self.one_block(gang)
        any_kept = ops.or_(*kept)
        any_new = ops.or_(*new_wagon)
        self.front_rule(kept, new_wagon, reachable)
        self.restart_rule(any_kept, any_new, new_wagon)
        self.jokers(plan, gang)
        for i in range(self.N):
            if gang[i] is not False:
                self.arrive(plan, i, block[i], symv)

    def joins(self, plan: TurnPlan) -> list[T]:
        """Each rolled symbol the mover has on the train joins its group or is kept (option
        keep): the dice each kept group gets."""
        ops, m, kept, faces = self.ops, plan.mover, plan.kept, plan.faces
        must = self.o.keep == "must_join" and not self.stack
        block: list[T] = [0] * self.N
        for i in range(self.N):
            s = self.sym0[m][i]
            if s is None or kept[i] is False:
                continue
            j = ops.new_bool() if not is_zero(faces[s]) else False
            if j is not False:
                ops.implies(j, ops.and_(kept[i], ops.ge(faces[s], 1)))
                if must:
                    ops.implies(ops.and_(kept[i], ops.ge(faces[s], 1)), j)
            plan.join[i] = j
            block[i] = ops.ite(j, faces[s], 0)
        return block

    def new_wagons(self, plan: TurnPlan, reachable: list[T]) -> list[T]:
        """The wagons a new group may start on: reachable, not holding a kept group."""
        ops = self.ops
        new_wagon: list[T] = []
        for i in range(self.N):
            if plan.kept[i] is True or self.alive[i] is False:
                new_wagon.append(False)
                continue
            nw = ops.new_bool()
            ops.implies(nw, ops.and_(reachable[i], ops.not_(plan.kept[i])))
            new_wagon.append(nw)
        return new_wagon

    def new_groups(
        self,
        plan: TurnPlan,
        new_wagon: list[T],
        kept_sym: list[T],
        block: list[T],
        symv: list[list[T]],
    ) -> None:
        """Each new wagon gets one new symbol, each symbol at most one new wagon."""
        ops, faces = self.ops, plan.faces
        for s in range(5):
            ys = []
            for i in range(self.N):
                if new_wagon[i] is False or is_zero(faces[s]):
                    continue
                y = ops.new_bool()
                ops.implies(y, ops.and_(new_wagon[i], ops.not_(kept_sym[s]), ops.ge(faces[s], 1)))
                plan.new[s, i] = y
                ys.append(y)
                symv[i][s] = ops.or_(symv[i][s], y)
                block[i] = block[i] + ops.ite(y, faces[s], 0)
            ops.require(ops.ge(1, ops.sum([ops.b2i(y) for y in ys])))
        for i in range(self.N):
            if new_wagon[i] is False:
                continue
            ys = [plan.new[s, i] for s in range(5) if (s, i) in plan.new]
            ops.require(ops.eq(ops.sum([ops.b2i(y) for y in ys]), ops.b2i(new_wagon[i])))

    def one_block(self, gang: list[T]) -> None:
        """The gang is one block of wagons on the train (RB-ATTACK-6)."""
        ops = self.ops
        started: T = False
        gap: T = False
        for i in range(self.N):
            ops.implies(gang[i], ops.not_(gap))
            gap = ops.or_(gap, ops.and_(started, self.alive[i], ops.not_(gang[i])))
            started = ops.or_(started, gang[i])

    def front_rule(self, kept: list[T], new_wagon: list[T], reachable: list[T]) -> None:
        """New groups go in front of the kept gang (behind it only under front=behind, once no
        wagon is left in front; RB-ATTACK-4)."""
        ops = self.ops
        before: T = False  # some kept group in front of wagon i
        front_open: list[T] = []  # wagon i is a reachable wagon in front of every kept group
        for i in range(self.N):
            front_open.append(ops.and_(reachable[i], ops.not_(before), ops.not_(kept[i])))
            behind = ops.and_(new_wagon[i], before)
            if self.o.front == "keep":
                ops.require(ops.not_(behind))
            else:
                for d in range(i):
                    ops.implies(ops.and_(behind, front_open[d]), new_wagon[d])
            before = ops.or_(before, kept[i])

    def restart_rule(self, any_kept: T, any_new: T, new_wagon: list[T]) -> None:
        """With nothing kept, the new groups end at the rearmost wagon (option restart=last)."""
        if self.o.restart != "last":
            return
        ops, alive = self.ops, self.alive
        for i in range(self.N):
            rear = ops.and_(alive[i], *(ops.not_(alive[d]) for d in range(i + 1, self.N)))
            ops.implies(ops.and_(ops.not_(any_kept), any_new, rear), new_wagon[i])

    def jokers(self, plan: TurnPlan, gang: list[T]) -> None:
        """Jokers per wagon of the gang, before or after the group's dice (RB-JOKER-1; option
        jokers)."""
        ops, st, o, faces, kept = self.ops, self.state, self.o, plan.faces, plan.kept
        pre: list[T] = []
        post: list[T] = []
        for i in range(self.N):
            if gang[i] is False or is_zero(faces[JOKER]):
                pre.append(0)
                post.append(0)
                continue
            a = ops.new_int(0, self.fmax) if kept[i] is not False else 0
            b = ops.new_int(0, self.fmax)
            if not is_zero(a):
                ops.implies(ops.ge(a, 1), kept[i])
            ops.implies(ops.ge(b, 1), gang[i])
            if (
                plan.phase == "attack"
                and st.joker_wagon is not None
                and o.jokers == "together"
                and self.train[i].id != st.joker_wagon
            ):
                ops.require(ops.eq(a + b, 0))
            pre.append(a)
            post.append(b)
        ops.require(ops.ge(faces[JOKER], ops.sum(pre) + ops.sum(post)))
        if o.jokers == "together":
            used = [ops.b2i(ops.ge(pre[i] + post[i], 1)) for i in range(self.N)]
            ops.require(ops.ge(1, ops.sum(used)))
        plan.pre, plan.post = pre, post

    # -- what the dice arriving on a wagon do ----------------------------------------------------

    def arrive(self, plan: TurnPlan, i: int, g: T, symv: list[list[T]]) -> None:
        """Wagon ``i`` of the gang gets its jokers before, ``g`` dice of its group, then jokers
        after: the trunk they may carry off, its tile, a bomb, an outright theft."""
        ops, m = self.ops, plan.mover
        k, n0, a, b = self.size[m][i], self.nat[m][i], plan.pre[i], plan.post[i]
        c1 = k + a
        c2 = c1 + g
        c3 = c2 + b  # the counts after each arrival (one term each: the comparisons are shared)
        ts = self.tsym[i]
        trig, t1, post_n = self.trigger(i, (k, n0, a, g, b), (c1, c2, c3), symv)
        if self.merc:
            self.over[i] = ops.and_(ops.ge(a + g + b, 1), ops.ge(c3, self.dice))
            self.in_hand = self.in_hand - (a + g + b)
            full: T = False
        else:
            full = ops.and_(ops.eq(c3, self.dice), ops.ge(a + g + b, 1))  # dice arrived
        at_theft = ops.and_(trig, full, ops.eq(post_n, 0))
        opened = ops.and_(trig, ops.not_(at_theft)) if self.discard else trig
        bomb = self.bomb_tile(ts, opened) if ts is not None else False
        plan.bombs[i] = bomb
        fx = ops.and_(bomb, ops.not_(at_theft))
        theft = ops.and_(full, ops.not_(fx))
        self.settle(m, i, (theft, fx, t1), c3, post_n, (n0, g))
        self.tp[i] = ops.and_(self.tp[i], ops.not_(trig), ops.not_(theft))
        self.alive[i] = ops.and_(self.alive[i], ops.not_(theft))

    def trigger(
        self,
        i: int,
        arrivals: tuple[T, T, T, T, T],
        counts: tuple[T, T, T],
        symv: list[list[T]],
    ) -> tuple[T, T, T]:
        """(the trunk on wagon ``i`` is carried off, by the jokers laid first, how many dice
        arrive after the one that carries it off): the trigger is the arrival that first makes
        the count qualify (options trunk_count, trunk_jokers; RB-TRUNK-1). ``arrivals``: the
        mover's dice there before, the natural ones, the jokers before, the group's dice, the
        jokers after; ``counts``: the dice there after each of the three."""
        ops = self.ops
        ts = self.tsym[i]
        if ts is None or self.tp[i] is False:
            return False, False, 0
        k, n0, a, g, b = arrivals
        c1, c2, c3 = counts
        if self.natural:
            t1, t2, t3, p1, p3 = self.natural_triggers(n0, a, g, b, c2, c3, k)
        elif self.exactly:
            t1 = ops.and_(ops.ge(a, 1), ops.ge(2, k), ops.ge(c1, 3))
            t2 = ops.and_(ops.not_(t1), ops.ge(g, 1), ops.eq(c2, 3))
            t3 = ops.and_(ops.not_(t1), ops.not_(t2), ops.ge(b, 1), ops.ge(2, c2), ops.ge(c3, 3))
            p1 = c3 - 3
            p3 = c3 - 3
        else:
            t1 = ops.and_(ops.ge(a, 1), ops.ge(c1, 3))
            t2 = ops.and_(ops.not_(t1), ops.ge(g, 1), ops.ge(c2, 3))
            t3 = ops.and_(ops.not_(t1), ops.not_(t2), ops.ge(b, 1), ops.ge(c3, 3))
            # the trigger is the arrival that first reaches three (or the first arrival of all
            # when three were there before)
            p1 = c3 - ops.ite(ops.ge(k, 3), k + 1, 3)
            p3 = c3 - ops.ite(ops.ge(c2, 3), c2 + 1, 3)
        trig = ops.and_(self.tp[i], symv[i][ts], ops.or_(t1, t2, t3))
        return trig, t1, ops.ite(t1, p1, ops.ite(t2, b, p3))

    def natural_triggers(
        self, n0: T, a: T, g: T, b: T, c2: T, c3: T, k: T
    ) -> tuple[T, T, T, T, T]:
        """Under trunk_jokers=natural only the dice that rolled the symbol count."""
        ops = self.ops
        base = n0 + g
        if self.exactly:
            t1 = ops.and_(ops.ge(a, 1), ops.eq(n0, 3))
            t2 = ops.and_(ops.not_(t1), ops.ge(g, 1), ops.eq(base, 3))
            t3 = ops.and_(ops.not_(t1), ops.not_(t2), ops.ge(b, 1), ops.eq(base, 3))
        else:
            t1 = ops.and_(ops.ge(a, 1), ops.ge(n0, 3))
            t2 = ops.and_(ops.not_(t1), ops.ge(g, 1), ops.ge(base, 3))
            t3 = ops.and_(ops.not_(t1), ops.not_(t2), ops.ge(b, 1), ops.ge(base, 3))
        return t1, t2, t3, c3 - k - 1, c3 - c2 - 1

    def settle(
        self, m: int, i: int, events: tuple[T, T, T], c3: T, post_n: T, natural: tuple[T, T]
    ) -> None:
        """Wagon ``i``'s counts after the arrivals (``events``: a theft, a bomb that acts, the
        trunk carried off by the first jokers; ``c3`` the dice there after them all,
        ``post_n`` those after a bomb, ``natural``: the natural dice before and the group's
        dice): all dice home after a theft, one die each after a bomb (and the dice that
        arrive after it), else the dice laid (RB-TRUNK-3, RB-THEFT-1; option cut)."""
        ops, size, nat = self.ops, self.size, self.nat
        theft, fx, t1 = events
        n0, g = natural
        nat_after = n0 + g if self.natural else 0
        size[m][i] = ops.ite(theft, 0, ops.ite(fx, 1 + post_n, c3))
        if self.natural:
            bombed_nat = ops.ite(t1, ops.min1(n0) + g, ops.min1(nat_after))
            nat[m][i] = ops.ite(theft, 0, ops.ite(fx, bombed_nat, nat_after))
        self.blast(i, m, fx)
        if self.rear_back:
            self.cut(i, theft, [theft if d == i else False for d in range(self.N)])
        for r in range(self.P):
            if r != m:
                size[r][i] = ops.ite(theft, 0, size[r][i])
                nat[r][i] = ops.ite(theft, 0, nat[r][i])

    # -- the ambush step ---------------------------------------------------------------------------

    def swap(self, plan: TurnPlan, symv: list[list[T]]) -> list[list[T]]:
        """One usable ambush trunk: two of the mover's groups may trade wagons, and each may
        carry off its new wagon's trunk (RB-AMBUSH-1); the symbols on each wagon after it."""
        ops, m, N, size, nat = self.ops, plan.mover, self.N, self.size, self.nat
        sel: list[T] = []
        for i in range(N):
            if is_zero(size[m][i]):
                sel.append(False)
                continue
            x = ops.new_bool()
            ops.implies(x, ops.ge(size[m][i], 1))
            sel.append(x)
        u = ops.new_bool()
        ops.require(ops.eq(ops.sum([ops.b2i(x) for x in sel]), ops.ite(u, 2, 0)))
        tot_s = ops.sum([ops.ite(sel[i], size[m][i], 0) for i in range(N)])
        tot_n = ops.sum([ops.ite(sel[i], nat[m][i], 0) for i in range(N)]) if self.natural else 0
        tot_y = [
            ops.sum([ops.b2i(ops.and_(sel[i], symv[i][s])) for i in range(N)]) for s in range(5)
        ]
        swap_bombs: dict[int, T] = {}
        new_symv = [
            self.swapped(m, i, sel[i], (tot_s, tot_n, tot_y), symv, swap_bombs) for i in range(N)
        ]
        plan.swaps.append((sel, swap_bombs))
        return new_symv

    def swapped(
        self,
        m: int,
        i: int,
        x: T,
        totals: tuple[T, T, list[T]],
        symv: list[list[T]],
        swap_bombs: dict[int, T],
    ) -> list[T]:
        """Wagon ``i`` after the swap (``x``: its group is one of the two; ``totals``: the dice,
        the natural dice and each symbol's groups of the two): its counts, the trunk the group
        may carry off, the symbols there."""
        ops, size, nat = self.ops, self.size, self.nat
        tot_s, tot_n, tot_y = totals
        size_i = ops.ite(x, tot_s - size[m][i], size[m][i])
        nat_i = ops.ite(x, tot_n - nat[m][i], nat[m][i]) if self.natural else 0
        if x is False:
            ys = list(symv[i])
        else:
            ys = [
                ops.or_(
                    ops.and_(x, ops.eq(tot_y[s] - ops.b2i(symv[i][s]), 1)),
                    ops.and_(ops.not_(x), symv[i][s]),
                )
                for s in range(5)
            ]
        ts = self.tsym[i]
        if ts is not None and x is not False:
            count = nat_i if self.natural else size_i
            trig = ops.and_(x, self.tp[i], ys[ts], self.qualifies(count))
            bomb = self.bomb_tile(ts, trig)
            swap_bombs[i] = bomb
            size_i = ops.ite(bomb, 1, size_i)
            nat_i = ops.ite(bomb, ops.min1(nat_i), nat_i) if self.natural else 0
            self.blast(i, m, bomb)
            self.tp[i] = ops.and_(self.tp[i], ops.not_(trig))
        size[m][i] = size_i
        nat[m][i] = nat_i
        return ys

    # -- the end of the line ---------------------------------------------------------------------

    def bound_tiles(self) -> None:
        """The tiles opened over all turns are among the unseen ones: bombs and others of each
        symbol (RB-TRUNK-2)."""
        ops = self.ops
        for s in range(5):
            bombs = [ops.b2i(b) for sy, _, b in self.tiles if sy == s]
            ops.require(ops.ge(self.bombs_left[s], ops.sum(bombs)))
            others = [ops.b2i(ops.and_(op, ops.not_(b))) for sy, op, b in self.tiles if sy == s]
            ops.require(ops.ge(self.other_left[s], ops.sum(others)))

    def claim_broken(self) -> None:
        """The question: at the start of the player's turn W is gone, or not theirs to steal
        (with ``stack``: the relaxation of the lines with an outright theft, see :func:`build`)."""
        ops, player, w = self.ops, self.player, self.w
        mine = self.size[player][w]
        holds = ops.and_(
            self.alive[w],
            ops.ge(mine, self.need[w]),
            *(ops.gt(mine, self.size[r][w]) for r in range(self.P) if r != player),
        )
        if not self.stack:
            for x in self.over.values():
                ops.require(ops.not_(x))
            ops.require(ops.not_(holds))
            return
        # The first outright theft on wagon i ends a prefix of the line that the model does
        # express; after it only the dice still in hand can arrive (nothing more is rolled).
        # Without a trunk on W, an ambush or cut=rear_back, player's dice on W stay as they
        # are, so the claim can only break if W is taken or the mover can get as many there.
        ops.require(ops.or_(*self.over.values()))
        if self.claim:
            ops.require(ops.not_(holds))
            return
        if not self.stack_open and self.tsym[w] is None:
            mine_w = self.train[w].count(player)
            reach_w = ops.ge(self.size[self.movers[-1]][w] + self.in_hand, min(mine_w, self.dice))
            ops.require(ops.or_(self.over.get(w, False), reach_w))
