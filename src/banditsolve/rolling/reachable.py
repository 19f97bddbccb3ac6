"""What a reachable Rolling Bandits state is: one small check per rule (RB-NOTE-2).

:func:`banditsolve.rolling.rules.validate` runs :data:`CHECKS` in order; each check refuses a
state that breaks its one rule with a :class:`~banditsolve.errors.NotationError` of one line
that ends with the rule's ID. A check may rely on the checks before it (the shape of the state
first, then the wagons, the dice, the phase, the edition's components, and last the steal that
begins every turn). The readers of the notation and the JSON parse, build the state and call
``rules.validate``: they hold no rule of their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import NoReturn

from banditsolve.errors import NotationError
from banditsolve.rolling.edition import (
    AMBUSH,
    BOMB,
    NOTHING,
    SYMBOLS,
    Edition,
    TrunkTile,
    WagonCard,
)
from banditsolve.rolling.state import PHASES, Group, Held, State, Wagon

#: One check: the state and its edition; it returns, or refuses the state.
Check = Callable[[State, Edition], None]


def refuse(what: str, rule: str) -> NoReturn:
    """Refuse the state: ``what`` is wrong with it, against the rule ``rule`` (its ID)."""
    raise NotationError(f"position: {what} ({rule})")


def _setup(state: State) -> bool:
    return state.phase in ("deal-wagon", "deal-trunk")


def _groups(state: State) -> Iterator[tuple[Wagon, int, Group]]:
    for wagon in state.train:
        for q, group in enumerate(wagon.groups):
            if group is not None:
                yield wagon, q, group


# -- rules the engine and these checks share -----------------------------------------------------


def trunk_qualifies(state: State, wagon: Wagon, player: int) -> bool:
    """Whether ``player``'s group on ``wagon`` carries its trunk off (RB-TRUNK-1): three dice of
    the trunk's symbol, exactly or at least (RB-OPT-2), jokers counted or not (RB-OPT-3)."""
    group = wagon.groups[player]
    if wagon.trunk is None or group is None or group.symbol != wagon.trunk:
        return False
    count = group.natural if state.options.trunk_jokers == "natural" else group.size
    return count == 3 if state.options.trunk_count == "exactly" else count >= 3


def usable_trunk(state: State, content: int) -> int | None:
    """The index of the active player's first unused trunk of ``content`` held since before the
    turn (RB-TRUNK-5), if any."""
    for i, held in enumerate(state.trunks[state.to_move][: state.usable]):
        if held.content == content and not held.used:
            return i
    return None


def legal_ambushes_left(state: State) -> bool:
    """Whether the active player may still swap two groups (RB-AMBUSH-1): an unused ambush
    trunk usable this turn and two groups on the train."""
    return usable_trunk(state, AMBUSH) is not None and len(state.gang(state.to_move)) >= 2


# -- the shape of the state -----------------------------------------------------------------------


def check_players(state: State, edition: Edition) -> None:
    """2 to 4 players, each with their own colour (RB-SETUP-3), and every per-player entry
    holding one item per player."""
    p = state.players
    if not 2 <= p <= 4:
        refuse("Rolling Bandits is played by 2 to 4 players", "RB-SETUP-3")
    sizes = {len(state.won), len(state.trunks), len(state.reserve)}
    sizes |= {len(c.groups) for c in state.train}
    if sizes != {p} or not 0 <= state.to_move < p:
        refuse(f"an entry per player does not hold {p} players", "RB-SETUP-3")


def check_phase(state: State, edition: Edition) -> None:
    """The phase is one of the engine's steps of a turn (RB-TURN-1)."""
    if state.phase not in PHASES or state.resume not in ("attack", "ambush"):
        refuse(f"phase is one of {', '.join(PHASES)}", "RB-TURN-1")


def check_groups(state: State, edition: Edition) -> None:
    """A group holds at least one die, and its dice that rolled the symbol are among them
    (RB-ATTACK-2)."""
    for wagon, q, g in _groups(state):
        if g.size <= 0 or min(g.bandits, g.mercs, g.natural) < 0 or g.natural > g.size:
            refuse(
                f"player {q}'s group on wagon {wagon.id} must hold a die, and no more natural dice "
                "than dice",
                "RB-ATTACK-2",
            )
        if not g.natural:
            refuse(
                f"player {q}'s group on wagon {wagon.id} is all jokers: a joker joins a group of"
                " dice that rolled its symbol",
                "RB-JOKER-1",
            )


# -- the wagons ---------------------------------------------------------------------------------


def _all_ids(state: State) -> list[int]:
    return [c.id for c in state.train] + [w.id for ws in state.won for w in ws]


def check_wagons_once(state: State, edition: Edition) -> None:
    """Each wagon is in the train or in one player's takings, once (RB-SETUP-1)."""
    ids = _all_ids(state)
    if len(set(ids)) != len(ids):
        refuse("a wagon appears twice", "RB-SETUP-1")


def check_locomotive_first(state: State, edition: Edition) -> None:
    """The locomotive leads the train: wagon 0 and only wagon 0 (RB-SETUP-1)."""
    if any(c.loco != (c.id == 0) for c in state.train) or any(
        w.loco != (w.id == 0) for ws in state.won for w in ws
    ):
        refuse("wagon 0 and only wagon 0 is the locomotive", "RB-SETUP-1")


def check_wagon_numbers(state: State, edition: Edition) -> None:
    """Wagons are numbered from the locomotive back, up to the train's length (RB-SETUP-1)."""
    if any(c.id > state.wagons for c in state.train):
        refuse("a wagon number is larger than the train", "RB-SETUP-1")


def check_wagon_count(state: State, edition: Edition) -> None:
    """The train has no more wagons than the edition (RB-SETUP-1)."""
    if state.wagons > len(edition.wagons):
        refuse(f"the edition has only {len(edition.wagons)} wagons", "RB-SETUP-1")


def check_wagons_accounted(state: State, edition: Edition) -> None:
    """Once the train is built, every wagon is on it or taken (RB-STEAL-2)."""
    ids = _all_ids(state)
    if not _setup(state) and len(ids) != state.wagons + 1:
        refuse(f"{len(ids)} wagons in play and taken, not {state.wagons + 1}", "RB-STEAL-2")


def check_train_order(state: State, edition: Edition) -> None:
    """The train keeps its order when it closes up (RB-STEAL-3)."""
    ordered = [c.id for c in state.train]
    if ordered != sorted(ordered):
        refuse("the wagons must be in train order", "RB-STEAL-3")


def check_end(state: State, edition: Edition) -> None:
    """The game ends when, and only when, the train is taken (RB-END-1)."""
    if not state.train and state.phase != "over":
        refuse("an empty train means the game is over", "RB-END-1")
    if state.phase == "over" and state.train:
        refuse("the game is over only when the train is empty", "RB-END-1")


# -- the dice -----------------------------------------------------------------------------------


def _in_hand(state: State, q: int) -> tuple[int, int]:
    """(hoard, mercenary) dice rolled or in the air: the player to move's only."""
    if q != state.to_move:
        return 0, 0
    return sum(state.roll) + state.airborne[0], sum(state.mroll) + state.airborne[1]


def check_hoard(state: State, edition: Edition) -> None:
    """A player has the dice of one colour (RB-SETUP-3)."""
    dice = edition.dice_per_colour
    for q in range(state.players):
        if state.on_train(q)[0] + _in_hand(state, q)[0] > dice:
            refuse(f"player {q} has more than {dice} hoard dice", "RB-SETUP-3")


def check_mercenary_count(state: State, edition: Edition) -> None:
    """A player has one colour of mercenaries (RB-MERC-1)."""
    dice = edition.dice_per_colour
    for q in range(state.players):
        if state.on_train(q)[1] + _in_hand(state, q)[1] + state.reserve[q] > dice:
            refuse(f"player {q} has more than {dice} mercenaries", "RB-MERC-1")


def check_gang(state: State, edition: Edition) -> None:
    """A player's groups fill neighbouring wagons (RB-ATTACK-6)."""
    for q in range(state.players):
        gang = state.gang(q)
        if gang and gang[-1] - gang[0] + 1 != len(gang):
            refuse(f"player {q}'s gang is not on neighbouring wagons", "RB-ATTACK-6")


def check_one_group_per_symbol(state: State, edition: Edition) -> None:
    """A symbol a player has on the train joins its group (RB-ATTACK-3)."""
    for q in range(state.players):
        symbols = [g.symbol for c in state.train if (g := c.groups[q]) is not None]
        if len(set(symbols)) != len(symbols):
            refuse(f"player {q} has two groups of one symbol", "RB-ATTACK-3")


def check_mercenaries_in_variant(state: State, edition: Edition) -> None:
    """Mercenaries only in the mercenary variant (RB-OPT-8)."""
    if state.options.mercenaries == "off" and (
        any(state.reserve)
        or any(state.mroll)
        or state.airborne[1]
        or any(g.mercs for _, _, g in _groups(state))
    ):
        refuse("mercenaries without the mercenary variant", "RB-OPT-8")


def check_mercenary_players(state: State, edition: Edition) -> None:
    """The mercenary variant is for two players (RB-MERC-1)."""
    if state.options.mercenaries == "on" and state.players != 2:
        refuse("the mercenary variant is for two players", "RB-MERC-1")


# -- the phase of the turn -----------------------------------------------------------------------


def check_usable(state: State, edition: Edition) -> None:
    """Only trunks held at the start of the turn can be used (RB-TRUNK-5)."""
    if state.usable > len(state.trunks[state.to_move]):
        refuse("usable counts more trunks than the player holds", "RB-TRUNK-5")


def check_rolled_dice(state: State, edition: Edition) -> None:
    """Dice rolled and not laid go back when the attack ends (RB-ATTACK-1)."""
    phase = state.phase
    if phase not in ("attack", "reveal", "roll", "mroll") and (any(state.roll) or any(state.mroll)):
        refuse(f"rolled dice outside the attack (phase {phase})", "RB-ATTACK-1")


def check_dice_in_the_air(state: State, edition: Edition) -> None:
    """Dice are in the air only while they are rolled (RB-ROLL-2)."""
    if state.phase not in ("roll", "mroll") and state.airborne != (0, 0):
        refuse("dice in the air outside a roll", "RB-ROLL-2")


def check_mercenary_roll(state: State, edition: Edition) -> None:
    """A mercenary roll rolls the mercenaries added to the roll (RB-MERC-2)."""
    if state.phase == "mroll" and state.airborne[1] == 0:
        refuse("a mercenary roll with no mercenaries in the air", "RB-MERC-2")


def check_pending(state: State, edition: Edition) -> None:
    """A trunk carried off is opened at once (RB-TRUNK-2): pending trunks go with phase
    reveal, and only with it."""
    if (state.phase == "reveal") != bool(state.pending):
        refuse("pending trunks go with phase reveal, and only with it", "RB-TRUNK-2")


def check_pending_wagons(state: State, edition: Edition) -> None:
    """A trunk to open is on a wagon where the player to move has three dice of its symbol
    (RB-TRUNK-1)."""
    for wagon_id, _ in state.pending:
        wagon = state.wagon(wagon_id)
        if wagon is None or wagon.trunk is None or wagon.groups[state.to_move] is None:
            refuse(f"pending trunk on wagon {wagon_id} is not there", "RB-TRUNK-1")
        if not trunk_qualifies(state, wagon, state.to_move):
            refuse(
                f"the trunk of wagon {wagon_id} is being opened, but player {state.to_move}'s group"
                " there does not carry it off",
                "RB-TRUNK-1",
            )


def check_trunks_left_on_the_train(state: State, edition: Edition) -> None:
    """A trunk stays on its wagon only while no group there carries it off (RB-TRUNK-1): one that
    does is opened at once (the wagons being opened aside; a game that ended on a theft in the
    same move leaves its trunks)."""
    if state.phase == "over" or _setup(state):
        return
    opening = {wagon_id for wagon_id, _ in state.pending}
    for wagon in state.train:
        for q in range(state.players):
            opened = q == state.to_move and wagon.id in opening
            if trunk_qualifies(state, wagon, q) and not opened:
                refuse(
                    f"player {q}'s group on wagon {wagon.id} would have carried its trunk off",
                    "RB-TRUNK-1",
                )


def check_trunk_count(state: State, edition: Edition) -> None:
    """One trunk was dealt to each wagon (RB-SETUP-2): the trunks on the train, held and thrown
    out are no more than the wagons."""
    if _setup(state):
        return
    down = sum(1 for c in state.train if c.trunk is not None)
    if down + len(_opened(state)) > state.wagons:
        refuse(
            f"{down + len(_opened(state))} trunks in the game, more than the {state.wagons}"
            " wagons dealt one each",
            "RB-SETUP-2",
        )


def check_used_trunks(state: State, edition: Edition) -> None:
    """A bomb acts at once, so it is used; an empty trunk has nothing to use (RB-TRUNK-3,
    RB-TRUNK-5)."""
    for h in _opened(state):
        if h.content == BOMB and not h.used:
            refuse("a bomb not marked used: a bomb acts when it is opened", "RB-TRUNK-3")
        if h.content == NOTHING and h.used:
            refuse("an empty trunk marked used: it holds nothing to use", "RB-TRUNK-5")


def check_ambush_step(state: State, edition: Edition) -> None:
    """The ambush step lasts while the player may swap two groups (RB-AMBUSH-1)."""
    if state.phase == "ambush" and not legal_ambushes_left(state):
        refuse(
            f"phase ambush, but player {state.to_move} has no unused ambush trunk to use now"
            " or fewer than two groups",
            "RB-AMBUSH-1",
        )


def check_joker_wagon(state: State, edition: Edition) -> None:
    """The wagon of this turn's jokers (option jokers=together) exists only during an attack
    (RB-OPT-1)."""
    if state.joker_wagon is not None and state.phase not in ("attack", "reveal", "over"):
        refuse("jc only during an attack", "RB-OPT-1")


# -- set-up --------------------------------------------------------------------------------------


def check_wagon_deal(state: State, edition: Edition) -> None:
    """Wagons are dealt to an unfinished train, before any trunk (RB-SETUP-1)."""
    if state.phase == "deal-wagon" and (
        len(state.train) - 1 >= state.wagons or any(c.trunk is not None for c in state.train)
    ):
        refuse("dealing wagons to a train that is complete", "RB-SETUP-1")


def check_setup_untouched(state: State, edition: Edition) -> None:
    """Nobody plays before the train is built (RB-SETUP-1)."""
    if _setup(state) and (
        any(True for _ in _groups(state)) or any(state.won) or any(state.trunks)
    ):
        refuse("dice or takings during the set-up", "RB-SETUP-1")


def check_trunk_deal(state: State, edition: Edition) -> None:
    """Trunks are dealt front to back once the train is complete (RB-SETUP-2)."""
    if state.phase != "deal-trunk":
        return
    have = [c.trunk is not None for c in state.train if not c.loco]
    if len(state.train) - 1 != state.wagons or all(have) or have != sorted(have, reverse=True):
        refuse("trunks are dealt front to back to a complete train", "RB-SETUP-2")


def check_locomotive_trunk(state: State, edition: Edition) -> None:
    """Only wagons get a trunk (RB-SETUP-2)."""
    if not _setup(state) and any(c.trunk is not None for c in state.train if c.loco):
        refuse("the locomotive has no trunk", "RB-SETUP-2")


# -- the edition's components --------------------------------------------------------------------


def _box(edition: Edition) -> _Box:
    """The edition's wagons and tiles counted (once per edition)."""
    box = _BOXES.get(id(edition))
    if box is None or box.edition is not edition:
        box = _BOXES[id(edition)] = _Box(edition)
    return box


class _Box:
    """An edition's components counted: the wagons, the tiles and the tiles of each symbol."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.wagons = Counter(edition.wagons)
        self.tiles = Counter(edition.trunks)
        self.by_symbol = Counter(t.symbol for t in edition.trunks)


_BOXES: dict[int, _Box] = {}


def check_wagons(state: State, edition: Edition) -> None:
    """The wagons are the edition's (RB-COMP-6)."""
    used = Counter(WagonCard(c.need, c.points) for c in state.train if not c.loco)
    used.update(WagonCard(w.need, w.points) for ws in state.won for w in ws if not w.loco)
    box = _box(edition).wagons
    if any(n > box[w] for w, n in used.items()):
        refuse("wagons that the edition does not have", "RB-COMP-6")


def check_locomotive(state: State, edition: Edition) -> None:
    """The locomotive is the edition's (RB-COMP-3)."""
    loco = (edition.locomotive.need, edition.locomotive.points)
    wagons = [(c.need, c.points) for c in state.train if c.loco]
    wagons += [(w.need, w.points) for ws in state.won for w in ws if w.loco]
    if any(c != loco for c in wagons):
        refuse("the locomotive differs from the edition's", "RB-COMP-3")


def _opened(state: State) -> list[Held]:
    """The tiles opened: held by the players or thrown out."""
    return [*(h for hs in state.trunks for h in hs), *state.discarded]


def check_trunk_tiles(state: State, edition: Edition) -> None:
    """The trunks opened are the edition's tiles (RB-COMP-5)."""
    opened = _opened(state)
    if not opened:
        return
    used = Counter(TrunkTile(h.symbol, h.value, h.content) for h in opened)
    box = _box(edition).tiles
    if any(n > box[t] for t, n in used.items()):
        refuse("trunks that the edition does not have", "RB-COMP-5")


def check_face_down_trunks(state: State, edition: Edition) -> None:
    """A face-down trunk is one of the tiles not yet seen (RB-TRUNK-2). (The tiles opened are
    the edition's: :func:`check_trunk_tiles` comes first.)"""
    opened = _opened(state)
    left = _box(edition).by_symbol.copy()
    left.subtract(h.symbol for h in opened)
    for c in state.train:
        if c.trunk is not None and left[c.trunk] <= 0:
            refuse(f"no {SYMBOLS[c.trunk]} trunk is left for wagon {c.id}", "RB-TRUNK-2")
    if sum(1 for c in state.train if c.trunk is not None) > len(edition.trunks) - len(opened):
        refuse("more face-down trunks than tiles left", "RB-TRUNK-2")


# -- the steal that begins every turn ------------------------------------------------------------

#: The phases in which the train is still as the turn's steal step left it: the take backs
#: (which only lower the mover's own counts) and the roll, before anything is laid (a roll-again
#: trunk rerolls before laying too). After a laying the mover may lead a wagon: they steal it as
#: their next turn begins. (An attack with laid=0 is no different, but the notation leaves
#: ``laid`` out by default, so attack positions are not judged on it.)
_AFTER_STEAL: frozenset[str] = frozenset({"start", "roll", "mroll"})


def check_steal_step(state: State, edition: Edition) -> None:
    """Refuse a wagon the player to move would steal while their turn is still at its start.

    The steal is the first step of every turn (RB-TURN-1, RB-STEAL-1) and the engine takes it
    as the turn begins, so at phase start (and in the roll that follows) no wagon is one the
    mover steals, with one exception: under cut=rear_back the steal itself can send another
    player's rear groups home, leaving the mover ahead on a wagon the step did not judge theirs.
    """
    if state.phase not in _AFTER_STEAL:
        return
    p = state.to_move
    for wagon in state.train:
        if state.stealer(wagon) != p or _left_by_rear_back(state, wagon):
            continue
        refuse(
            f"wagon {wagon.id} is player {p}'s to steal ({wagon.count(p)} dice, "
            f"{wagon.need} needed), "
            f"but a turn begins with the steal, so at phase {state.phase} it would already be "
            "taken",
            "RB-STEAL-1",
        )


def _left_by_rear_back(state: State, wagon: Wagon) -> bool:
    """Can this turn's steal have left the mover alone ahead on ``wagon`` (cut=rear_back)?

    Only if some wagon ``s`` the mover won lies in front of ``wagon``, the mover has nothing left
    in front of ``s`` (else their own groups behind ``s``, ``wagon``'s among them, went home too),
    and another player still has dice in front of ``s`` and none behind it (their group on
    ``wagon`` went home when ``s`` was stolen from the middle of their gang).
    """
    if state.options.cut != "rear_back":
        return False
    p = state.to_move
    ids = {q: [c.id for c in state.train if c.groups[q] is not None] for q in range(state.players)}
    for s in state.won[p]:
        if s.loco or s.id >= wagon.id or any(i < s.id for i in ids[p]):
            continue
        for q in range(state.players):
            if q != p and ids[q] and ids[q][-1] < s.id:
                return True
    return False


#: Every check, in the order :func:`banditsolve.rolling.rules.validate` runs them.
CHECKS: tuple[Check, ...] = (
    check_players,
    check_phase,
    check_groups,
    check_wagons_once,
    check_locomotive_first,
    check_wagon_numbers,
    check_wagon_count,
    check_wagons_accounted,
    check_train_order,
    check_end,
    check_hoard,
    check_mercenary_count,
    check_gang,
    check_one_group_per_symbol,
    check_mercenaries_in_variant,
    check_mercenary_players,
    check_usable,
    check_rolled_dice,
    check_dice_in_the_air,
    check_mercenary_roll,
    check_pending,
    check_pending_wagons,
    check_trunks_left_on_the_train,
    check_used_trunks,
    check_ambush_step,
    check_joker_wagon,
    check_wagon_deal,
    check_setup_untouched,
    check_trunk_deal,
    check_locomotive_trunk,
    check_wagons,
    check_locomotive,
    check_trunk_tiles,
    check_face_down_trunks,
    check_trunk_count,
    check_steal_step,
)
