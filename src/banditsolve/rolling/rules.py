"""The rules of Rolling Bandits as pure functions: ``legal_actions``, ``apply``, chance.

Every function takes a :class:`~banditsolve.rolling.state.State` and returns new values. Chance
is an explicit player: the train order, the trunk symbols, every roll and what a trunk holds
are chance nodes whose outcomes come with exact :class:`~fractions.Fraction` probabilities.

The order of :func:`legal_actions` (documented in the spec, RB-ENGINE-2):

- set-up: wagon kinds, then trunk symbols, in the edition's order;
- start of a turn: ``take back`` (the rearmost group), then ``roll``, then ``roll +1`` ... (with
  mercenaries);
- a roll: every face count tuple, R M H B S J, in lexicographic order from all revolvers down;
- attack: rerolls (roll-again trunk), then ``lay X@wagon`` by symbol then wagon front to back,
  then jokers (hoard, then mercenary) by wagon front to back, then ``end``;
- ambush: ``ambush a b`` by pairs of wagons front to back, then ``end``;
- opening a trunk: the tiles it may be, in the edition's order.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, get_args

from banditsolve.core.args import expect_players
from banditsolve.core.play import draw_outcome
from banditsolve.core.text import shown
from banditsolve.errors import ArgumentTypeError, IllegalActionError, NotationError, RuleOptionError
from banditsolve.rolling import reachable
from banditsolve.rolling.actions import (
    NO_FACES,
    Action,
    Ambush,
    DealTrunk,
    DealWagon,
    End,
    Joker,
    Lay,
    Open,
    Reroll,
    Roll,
    Rolled,
    TakeBack,
    faces_text,
    parse_action,
    parse_faces,
)
from banditsolve.rolling.edition import (
    AMBUSH,
    BOMB,
    JOKER,
    ROLL_AGAIN,
    Edition,
    TrunkTile,
    WagonCard,
    default_edition,
    lookup,
)
from banditsolve.rolling.reachable import legal_ambushes_left, trunk_qualifies, usable_trunk
from banditsolve.rolling.state import (
    DEFAULT_OPTIONS,
    Group,
    Held,
    Options,
    Phase,
    State,
    Wagon,
    Won,
)

#: The rules' names (the actions and their text are defined in :mod:`.actions`; they are named
#: here too, so that ``rules`` is the one module to import for playing a game).
__all__ = [
    "AMBUSH", "BOMB", "NO_FACES", "ROLL_AGAIN", "Action", "Ambush", "DealTrunk", "DealWagon",
    "End", "Joker", "Lay", "Open", "Reroll", "Roll", "Rolled", "TakeBack", "apply", "apply_all",
    "apply_unchecked", "chance_outcomes", "deal_setup", "edition_of", "faces_text", "is_legal",
    "legal_actions", "legal_ambushes_left", "new_group_targets", "new_state", "parse_action",
    "parse_faces", "ranking_key", "roll_outcomes", "sample_chance", "unseen_tiles", "validate",
    "winners",
]


# -- chance: rolls -------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def roll_outcomes(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every face-count tuple of ``n`` dice with its exact multinomial probability (RB-ROLL-2),
    in lexicographic order from all revolvers down."""
    out: list[tuple[tuple[int, ...], Fraction]] = []
    total = 6**n
    fact = math.factorial(n)

    def rec(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == 5:
            faces = (*prefix, left)
            ways = fact
            for k in faces:
                ways //= math.factorial(k)
            out.append((faces, Fraction(ways, total)))
            return
        for k in range(left, -1, -1):
            rec((*prefix, k), left - k)

    rec((), n)
    return tuple(out)


@lru_cache(maxsize=64)
def _rolled_outcomes(n: int) -> tuple[tuple[Action, Fraction], ...]:
    return tuple((Rolled(faces), p) for faces, p in roll_outcomes(n))


@lru_cache(maxsize=64)
def _rolled_actions(n: int) -> tuple[Action, ...]:
    return tuple(a for a, _ in _rolled_outcomes(n))


def edition_of(state: State) -> Edition:
    return default_edition() if state.edition == "default" else lookup(state.edition)


# -- set-up ---------------------------------------------------------------------------------------


def new_state(
    players: int, options: Options = DEFAULT_OPTIONS, edition: Edition | None = None
) -> State:
    """The game before set-up: only the locomotive; the wagons are dealt by chance (RB-SETUP-1)."""
    ed = edition or default_edition()
    expect_players(players, "Rolling Bandits", 2, 4)
    if options.mercenaries == "on" and players != 2:
        raise RuleOptionError("the mercenary variant is for two players (RB-MERC-1)")
    loco = Wagon(0, ed.locomotive.need, ed.locomotive.points, True, None, (None,) * players)
    wagons = ed.two_player_wagons() if players == 2 else len(ed.wagons)
    reserve = ed.dice_per_colour if options.mercenaries == "on" else 0
    return State(
        players=players,
        edition=ed.name,
        options=options,
        phase="deal-wagon",
        to_move=0,
        train=(loco,),
        wagons=wagons,
        won=((),) * players,
        trunks=((),) * players,
        reserve=(reserve,) * players,
    )


def _wagons_left(state: State, ed: Edition) -> Counter[WagonCard]:
    left = Counter(ed.wagons)
    for wagon in state.train:
        if not wagon.loco:
            left[WagonCard(wagon.need, wagon.points)] -= 1
    return left


def _trunk_symbols_left(state: State, ed: Edition) -> Counter[int]:
    left = Counter(t.symbol for t in ed.trunks)
    for wagon in state.train:
        if wagon.trunk is not None:
            left[wagon.trunk] -= 1
    return left


def unseen_tiles(state: State, symbol: int) -> Counter[TrunkTile]:
    """The tiles a face-down trunk of ``symbol`` may be: the edition's tiles of that symbol less
    every tile already opened (RB-TRUNK-2)."""
    ed = edition_of(state)
    left = Counter(t for t in ed.trunks if t.symbol == symbol)
    for held in itertools.chain(*state.trunks, state.discarded):
        tile = TrunkTile(held.symbol, held.value, held.content)
        if tile.symbol == symbol:
            left[tile] -= 1
    return +left


def chance_outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]:
    """The chance outcomes with exact probabilities; :class:`IllegalActionError` elsewhere."""
    if state.phase == "deal-wagon":
        ed = edition_of(state)
        left = _wagons_left(state, ed)
        total = sum(left.values())
        return tuple(
            (DealWagon(w.need, w.points), Fraction(left[w], total))
            for w in ed.wagon_kinds
            if left[w] > 0
        )
    if state.phase == "deal-trunk":
        ed = edition_of(state)
        sym_left = _trunk_symbols_left(state, ed)
        total = sum(sym_left.values())
        return tuple(
            (DealTrunk(s), Fraction(sym_left[s], total))
            for s in sorted(sym_left)
            if sym_left[s] > 0
        )
    if state.phase in ("roll", "mroll"):
        n = state.airborne[0] if state.phase == "roll" else state.airborne[1]
        return _rolled_outcomes(n)
    if state.phase == "reveal":
        wagon = state.wagon(state.pending[0][0])
        assert wagon is not None
        assert wagon.trunk is not None
        tiles = unseen_tiles(state, wagon.trunk)
        total = sum(tiles.values())
        ed = edition_of(state)
        return tuple(
            (Open(t.symbol, t.value, t.content), Fraction(tiles[t], total))
            for t in ed.trunk_kinds
            if tiles[t] > 0
        )
    raise IllegalActionError(f"no chance step here: it is player {state.to_move}'s move")


def sample_chance(state: State, rng: random.Random) -> Action:
    """A chance outcome drawn with its exact probability (the same draw as
    :func:`banditsolve.core.play.sample_chance` for the same random stream)."""
    return draw_outcome(chance_outcomes(state), rng)


# -- the attack: where groups may go ---------------------------------------------------------------


def _reachable(state: State, index: int) -> bool:
    """Option locomotive=last: the locomotive takes bandits only once no wagon is left."""
    wagon = state.train[index]
    return not (wagon.loco and state.options.locomotive == "last" and len(state.train) > 1)


def new_group_targets(state: State, player: int) -> tuple[int, ...]:
    """The train indices where a group of a symbol the player has not on the train may go
    (RB-ATTACK-3, RB-ATTACK-4, options front and restart)."""
    gang = state.gang(player)
    n = len(state.train)
    if not gang:
        if state.options.restart == "any":
            return tuple(i for i in range(n) if _reachable(state, i))
        return (n - 1,) if _reachable(state, n - 1) else ()
    front, rear = gang[0], gang[-1]
    if front > 0 and _reachable(state, front - 1):
        return (front - 1,)
    if state.options.front == "behind" and rear + 1 < n:
        return (rear + 1,)
    return ()


def _symbol_wagon(state: State, player: int, symbol: int) -> int | None:
    for i, wagon in enumerate(state.train):
        g = wagon.groups[player]
        if g is not None and g.symbol == symbol:
            return i
    return None


def _subcounts(faces: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(c) for c in itertools.product(*(range(k + 1) for k in faces))]


def _must_join_pending(state: State) -> bool:
    p = state.to_move
    return any(
        state.roll[s] + state.mroll[s] > 0 and _symbol_wagon(state, p, s) is not None
        for s in range(5)
    )


def _start_actions(state: State) -> tuple[Action, ...]:
    """Before the roll: take back the rearmost group, roll, roll with mercenaries (RB-TAKE-1,
    RB-ROLL-1, RB-MERC-2)."""
    p = state.to_move
    out: list[Action] = []
    if state.gang(p):
        out.append(TakeBack())
    out.append(Roll(0))
    out.extend(Roll(k) for k in range(1, state.reserve[p] + 1))
    return tuple(out)


def _rerolls(state: State, out: list[Action]) -> None:
    """A usable roll-again trunk before anything is laid: every non-empty part of the roll
    (RB-AGAIN-1)."""
    if state.laid or usable_trunk(state, ROLL_AGAIN) is None:
        return
    out.extend(
        Reroll(b, m)
        for b in _subcounts(state.roll)
        for m in _subcounts(state.mroll)
        if any(b) or any(m)
    )


def _layings(state: State, out: list[Action]) -> None:
    """Each rolled symbol on its group's wagon, or a new group's places (RB-ATTACK-3/4)."""
    p = state.to_move
    for s in range(5):
        if state.roll[s] + state.mroll[s] == 0:
            continue
        at = _symbol_wagon(state, p, s)
        targets = (at,) if at is not None else new_group_targets(state, p)
        out.extend(Lay(s, state.train[i].id) for i in targets)


def _jokers(state: State, out: list[Action]) -> None:
    """Each rolled joker (hoard, then mercenary) on a wagon of the gang (RB-JOKER-1, option
    jokers)."""
    if not state.roll[JOKER] and not state.mroll[JOKER]:
        return
    gang = state.gang(state.to_move)
    together = state.options.jokers == "together"
    for merc, count in ((False, state.roll[JOKER]), (True, state.mroll[JOKER])):
        if count == 0:
            continue
        for i in gang:
            wagon_id = state.train[i].id
            if together and state.joker_wagon not in (None, wagon_id):
                continue
            out.append(Joker(wagon_id, merc))


def _attack_actions(state: State) -> tuple[Action, ...]:
    out: list[Action] = []
    _rerolls(state, out)
    _layings(state, out)
    _jokers(state, out)
    if not (state.options.keep == "must_join" and _must_join_pending(state)):
        out.append(End())
    return tuple(out)


def _ambush_actions(state: State) -> tuple[Action, ...]:
    """Each swap of two of the mover's groups with a usable ambush trunk, then ``end``
    (RB-AMBUSH-1)."""
    out: list[Action] = []
    if usable_trunk(state, AMBUSH) is not None:
        gang = state.gang(state.to_move)
        out.extend(
            Ambush(state.train[front].id, state.train[back].id)
            for front, back in itertools.combinations(gang, 2)
        )
    out.append(End())
    return tuple(out)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action (or chance outcome) in the fixed order of the module notes."""
    phase = state.phase
    if phase == "over":
        return ()
    if phase == "roll":
        return _rolled_actions(state.airborne[0])
    if phase == "mroll":
        return _rolled_actions(state.airborne[1])
    if state.is_chance:
        return tuple(a for a, _ in chance_outcomes(state))
    if phase == "start":
        return _start_actions(state)
    if phase == "attack":
        return _attack_actions(state)
    if phase == "ambush":
        return _ambush_actions(state)
    raise AssertionError(f"unknown phase {phase}")  # pragma: no cover


# -- applying ------------------------------------------------------------------------------------


def _set_wagon(train: tuple[Wagon, ...], index: int, wagon: Wagon) -> tuple[Wagon, ...]:
    return (*train[:index], wagon, *train[index + 1 :])


def _remove_wagons(state: State, indices: Iterable[int], winner: int) -> State:
    """``winner`` takes the wagons at ``indices``: their trunks are discarded unopened, every
    player's dice there come back (mercenaries leave the game), the train closes up (RB-STEAL-2,
    RB-STEAL-3; option cut)."""
    taken = sorted(set(indices))
    train = list(state.train)
    won = list(state.won)
    for i in taken:
        wagon = train[i]
        won[winner] = (*won[winner], Won(wagon.id, wagon.need, wagon.points, wagon.loco))
    if state.options.cut == "rear_back":
        _cut_rear_back(train, taken, state.players)
    kept = tuple(wagon for i, wagon in enumerate(train) if i not in taken)
    out = state.replace(train=kept, won=tuple(won))
    if not kept:
        out = out.replace(phase="over", roll=NO_FACES, mroll=NO_FACES, pending=())
    return out


def _cut_rear_back(train: list[Wagon], taken: list[int], players: int) -> None:
    """Option cut ``rear_back``: a player with a group on a taken wagon and groups both ahead
    of it and behind it (on wagons not taken) loses the groups behind it, in ``train`` (the
    wagons before the train closes up)."""
    for i in taken:
        for q in range(players):
            if train[i].groups[q] is None:
                continue
            ahead = any(train[j].groups[q] is not None for j in range(i) if j not in taken)
            behind = [j for j in range(i + 1, len(train)) if j not in taken]
            if ahead and any(train[j].groups[q] is not None for j in behind):
                for j in behind:
                    if train[j].groups[q] is not None:
                        train[j] = train[j].with_group(q, None)


def _begin_turn(state: State, player: int) -> State:
    """Start ``player``'s turn: the steal step, then the take-back/roll step (RB-STEAL-1)."""
    state = state.replace(
        to_move=player,
        phase="start",
        roll=NO_FACES,
        mroll=NO_FACES,
        airborne=(0, 0),
        laid=False,
        joker_wagon=None,
        usable=len(state.trunks[player]),
        pending=(),
        resume="attack",
    )
    stolen = [i for i, wagon in enumerate(state.train) if state.stealer(wagon) == player]
    if stolen:
        state = _remove_wagons(state, stolen, player)
    return state


def _end_turn(state: State) -> State:
    """Dice not laid go back (mercenaries to the reserve); the next player's turn begins."""
    p = state.to_move
    reserve = list(state.reserve)
    reserve[p] += sum(state.mroll)
    state = state.replace(reserve=tuple(reserve), roll=NO_FACES, mroll=NO_FACES)
    return _begin_turn(state, (p + 1) % state.players)


def _outright(state: State, wagon: Wagon, player: int) -> bool:
    group = wagon.groups[player]
    if group is None:
        return False
    dice = edition_of(state).dice_per_colour
    rule = state.options.theft_mercenaries
    if rule == "hoard":
        return group.bandits >= dice
    if rule == "any":
        return group.size >= dice
    return group.bandits >= dice or group.mercs >= dice


def _after_laying(state: State, wagon_ids: Sequence[int], resume: Phase) -> State:
    """Outright theft and trunks after dice arrive on ``wagon_ids`` (RB-THEFT-1, RB-TRUNK-1)."""
    p = state.to_move
    pending: list[tuple[int, bool]] = []
    thefts: list[int] = []
    for wagon_id in wagon_ids:
        wagon = state.wagon(wagon_id)
        assert wagon is not None
        if _outright(state, wagon, p):
            if (
                wagon.trunk is not None
                and state.options.theft_trunk == "open"
                and trunk_qualifies(state, wagon, p)
            ):
                pending.append((wagon_id, True))
            else:
                thefts.append(state.index(wagon_id))
        elif trunk_qualifies(state, wagon, p):
            pending.append((wagon_id, False))
    if thefts:
        state = _remove_wagons(state, thefts, p)
        if state.is_terminal:
            return state
    if pending:
        return state.replace(phase="reveal", pending=tuple(pending), resume=resume)
    return state


def _lay(state: State, index: int, symbol: int, bandits: int, mercs: int, natural: int) -> State:
    p = state.to_move
    wagon = state.train[index]
    old = wagon.groups[p]
    if old is None:
        group = Group(symbol, bandits, mercs, natural)
    else:
        group = Group(old.symbol, old.bandits + bandits, old.mercs + mercs, old.natural + natural)
    train = _set_wagon(state.train, index, wagon.with_group(p, group))
    return state.replace(train=train, laid=True)


def _bomb(state: State, index: int) -> State:
    """Every player on the wagon keeps one die there (a mercenary if they have one); the others
    come back, mercenaries leaving the game (RB-TRUNK-3)."""
    wagon = state.train[index]
    groups: list[Group | None] = []
    for g in wagon.groups:
        if g is None:
            groups.append(None)
        elif g.mercs:
            groups.append(Group(g.symbol, 0, 1, min(g.natural, 1)))
        else:
            groups.append(Group(g.symbol, 1, 0, min(g.natural, 1)))
    return state.replace(
        train=_set_wagon(
            state.train,
            index,
            Wagon(wagon.id, wagon.need, wagon.points, wagon.loco, wagon.trunk, tuple(groups)),
        )
    )


def _open(state: State, action: Open) -> State:
    p = state.to_move
    wagon_id, theft = state.pending[0]
    rest = state.pending[1:]
    index = state.index(wagon_id)
    wagon = state.train[index]
    held = Held(action.symbol, action.value, action.content, action.content == BOMB)
    trunks = list(state.trunks)
    state = state.replace(
        train=_set_wagon(
            state.train,
            index,
            Wagon(wagon.id, wagon.need, wagon.points, wagon.loco, None, wagon.groups),
        )
    )
    if theft:
        if action.content == BOMB:
            state = state.replace(discarded=(*state.discarded, held))
        else:
            trunks[p] = (*trunks[p], held)
            state = state.replace(trunks=tuple(trunks))
        state = _remove_wagons(state, [index], p)
        if state.is_terminal:
            return state
    else:
        trunks[p] = (*trunks[p], held)
        state = state.replace(trunks=tuple(trunks))
        if action.content == BOMB:
            state = _bomb(state, index)
    if rest:
        return state.replace(pending=rest)
    state = state.replace(phase=state.resume, pending=())
    if state.phase == "ambush" and not legal_ambushes_left(state):
        return _end_turn(state)
    return state


def _use_trunk(state: State, content: int) -> State:
    i = usable_trunk(state, content)
    assert i is not None
    p = state.to_move
    held = state.trunks[p][i]
    mine = (
        *state.trunks[p][:i],
        Held(held.symbol, held.value, held.content, True),
        *state.trunks[p][i + 1 :],
    )
    trunks = list(state.trunks)
    trunks[p] = mine
    return state.replace(trunks=tuple(trunks))


def is_legal(state: State, action: object) -> bool:
    """``action in legal_actions(state)``, without listing every roll at a roll node."""
    if state.phase in ("roll", "mroll"):
        if not isinstance(action, Rolled):
            return False
        n = state.airborne[0] if state.phase == "roll" else state.airborne[1]
        faces = action.faces
        return (
            isinstance(faces, tuple)
            and len(faces) == 6
            and all(isinstance(k, int) and not isinstance(k, bool) and k >= 0 for k in faces)
            and sum(faces) == n
        )
    try:
        return action in legal_actions(state)
    except TypeError:  # an unhashable or odd object
        return False


def _action_text(action: object) -> str:
    """An action for a message: its text, or a short form of whatever was passed instead."""
    try:
        return str(action) if isinstance(action, Action) else shown(action)
    except ValueError:  # an action holding a number too long to print
        return shown(repr(type(action).__name__))


def apply(state: State, action: Action) -> State:
    """The state after ``action``; :class:`IllegalActionError` (state unchanged) if illegal,
    :class:`ArgumentTypeError` if it is no action of this game at all."""
    if not isinstance(action, get_args(Action)):
        raise ArgumentTypeError(f"not an action of Rolling Bandits: {shown(action)}")
    if not is_legal(state, action):
        what = _action_text(action)
        if state.phase == "over":
            raise IllegalActionError(f"{what} is not legal: the game is over")
        raise IllegalActionError(
            f"{what} is not legal here (phase {state.phase}, player {state.to_move})"
        )
    return apply_unchecked(state, action)


def _deal_wagon(state: State, action: DealWagon) -> State:
    empty = (None,) * state.players
    wagon = Wagon(len(state.train), action.need, action.points, False, None, empty)
    state = state.replace(train=(*state.train, wagon))
    if len(state.train) - 1 == state.wagons:
        state = state.replace(phase="deal-trunk")
    return state


def _deal_trunk(state: State, action: DealTrunk) -> State:
    index = next(i for i, c in enumerate(state.train) if not c.loco and c.trunk is None)
    wagon = state.train[index]
    train = _set_wagon(
        state.train,
        index,
        Wagon(wagon.id, wagon.need, wagon.points, False, action.symbol, wagon.groups),
    )
    state = state.replace(train=train)
    if all(c.loco or c.trunk is not None for c in train):
        state = _begin_turn(state, 0)
    return state


def _take_back(state: State, action: TakeBack) -> State:
    p = state.to_move
    index = state.gang(p)[-1]
    left = state.train[index].with_group(p, None)
    return state.replace(train=_set_wagon(state.train, index, left))


def _roll(state: State, action: Roll) -> State:
    p = state.to_move
    bandits = edition_of(state).dice_per_colour - state.on_train(p)[0]
    reserve = list(state.reserve)
    reserve[p] -= action.mercs
    phase: Phase = "roll" if bandits or not action.mercs else "mroll"
    return state.replace(phase=phase, airborne=(bandits, action.mercs), reserve=tuple(reserve))


def _rolled(state: State, action: Rolled) -> State:
    if state.phase == "roll":
        roll = tuple(a + b for a, b in zip(state.roll, action.faces, strict=True))
        state = state.replace(roll=roll)
        if state.airborne[1]:
            return state.replace(phase="mroll", airborne=(0, state.airborne[1]))
    else:
        mroll = tuple(a + b for a, b in zip(state.mroll, action.faces, strict=True))
        state = state.replace(mroll=mroll)
    return state.replace(phase="attack", airborne=(0, 0))


def _reroll(state: State, action: Reroll) -> State:
    state = _use_trunk(state, ROLL_AGAIN)
    roll = tuple(a - b for a, b in zip(state.roll, action.bandits, strict=True))
    mroll = tuple(a - b for a, b in zip(state.mroll, action.mercs, strict=True))
    nb, nm = sum(action.bandits), sum(action.mercs)
    return state.replace(roll=roll, mroll=mroll, airborne=(nb, nm), phase="roll" if nb else "mroll")


def _lay_group(state: State, action: Lay) -> State:
    s = action.symbol
    b, m = state.roll[s], state.mroll[s]
    roll = tuple(0 if i == s else k for i, k in enumerate(state.roll))
    mroll = tuple(0 if i == s else k for i, k in enumerate(state.mroll))
    state = _lay(state.replace(roll=roll, mroll=mroll), state.index(action.wagon), s, b, m, b + m)
    return _after_laying(state, [action.wagon], "attack")


def _lay_joker(state: State, action: Joker) -> State:
    index = state.index(action.wagon)
    group = state.train[index].groups[state.to_move]
    assert group is not None
    if action.merc:
        mroll = (*state.mroll[:JOKER], state.mroll[JOKER] - 1)
        state = _lay(state.replace(mroll=mroll), index, group.symbol, 0, 1, 0)
    else:
        roll = (*state.roll[:JOKER], state.roll[JOKER] - 1)
        state = _lay(state.replace(roll=roll), index, group.symbol, 1, 0, 0)
    return _after_laying(state.replace(joker_wagon=action.wagon), [action.wagon], "attack")


def _end(state: State, action: End) -> State:
    """The attack ends (to the ambush step when an ambush trunk can be used), or the turn."""
    if state.phase == "attack" and legal_ambushes_left(state):
        reserve = list(state.reserve)
        reserve[state.to_move] += sum(state.mroll)
        return state.replace(
            phase="ambush", roll=NO_FACES, mroll=NO_FACES, reserve=tuple(reserve), joker_wagon=None
        )
    return _end_turn(state)


def _ambush(state: State, action: Ambush) -> State:
    p = state.to_move
    state = _use_trunk(state, AMBUSH)
    ia, ib = state.index(action.a), state.index(action.b)
    ca, cb = state.train[ia], state.train[ib]
    train = _set_wagon(state.train, ia, ca.with_group(p, cb.groups[p]))
    train = _set_wagon(train, ib, cb.with_group(p, ca.groups[p]))
    state = _after_laying(state.replace(train=train), [action.a, action.b], "ambush")
    if state.phase == "ambush" and not legal_ambushes_left(state):
        return _end_turn(state)
    return state


#: How each kind of action changes the state (:func:`apply_unchecked`).
_STEPS: dict[type, Callable[[State, Any], State]] = {
    DealWagon: _deal_wagon,
    DealTrunk: _deal_trunk,
    TakeBack: _take_back,
    Roll: _roll,
    Rolled: _rolled,
    Reroll: _reroll,
    Lay: _lay_group,
    Joker: _lay_joker,
    End: _end,
    Ambush: _ambush,
    Open: _open,
}


def apply_unchecked(state: State, action: Action) -> State:
    """The state after ``action``, which the caller knows to be legal here (one of
    :func:`legal_actions`, or a roll's outcome): :func:`apply` without its legality check, for
    the solvers and players that walk the game tree on the legal actions themselves. An
    illegal action gives a state the rules cannot reach, or fails."""
    return _STEPS[type(action)](state, action)


def apply_all(state: State, actions: Iterable[Action | str]) -> State:
    for action in actions:
        state = apply(state, parse_action(action) if isinstance(action, str) else action)
    return state


# -- what a reachable state is ----------------------------------------------------------------


def validate(state: State) -> None:
    """Refuse a state that no game reaches: a :class:`~banditsolve.errors.NotationError` of one
    line naming the rule it breaks (RB-NOTE-2). This is the one place that says what a
    reachable state is: the readers of the notation and the JSON call it, and so does
    ``GAME.validate``. The checks, one per rule, are :data:`.reachable.CHECKS`."""
    if not isinstance(state, State):
        raise NotationError(f"not a Rolling Bandits state: {type(state).__name__}")
    edition = edition_of(state)
    for check in reachable.CHECKS:
        check(state, edition)


# -- the end --------------------------------------------------------------------------------


def ranking_key(state: State, player: int) -> tuple[int, int, int]:
    """Points, then wagons taken, then trunks carried off (RB-END-2)."""
    return (state.score(player), len(state.won[player]), len(state.trunks[player]))


def winners(state: State) -> tuple[int, ...]:
    keys = [ranking_key(state, p) for p in range(state.players)]
    best = max(keys)
    return tuple(p for p, k in enumerate(keys) if k == best)


def deal_setup(state: State, rng: random.Random) -> State:
    """Play the set-up chance steps with ``rng`` (a seeded game settles its train at once)."""
    while state.phase in ("deal-wagon", "deal-trunk"):
        state = apply_unchecked(state, sample_chance(state, rng))
    return state
