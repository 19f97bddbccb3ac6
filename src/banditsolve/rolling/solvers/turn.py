"""Exact odds and the best play for one turn (RB-ODDS-1, RB-BEST-1).

Everything here walks the active player's own turn: chance nodes (rolls, trunks being opened)
are averaged with their exact probabilities, the player's choices are maximised, and the turn's
end is scored by a leaf function. :func:`turn_value` shares equal positions in a table;
:func:`plain_turn_value` is the plain enumeration without sharing, the baseline it must agree
with.

>>> from banditsolve.rolling.solvers.turn import roll_distribution
>>> str(roll_distribution(2)["RR"])
'1/36'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from banditsolve.core.answer import Answer
from banditsolve.core.args import expect_whole
from banditsolve.core.limits import (
    BEST_TURN_TIME_LIMIT,
    ODDS_TIME_LIMIT,
    Budget,
    LimitReached,
    Limits,
    steady,
)
from banditsolve.core.text import plural
from banditsolve.errors import SolverError
from banditsolve.rolling.edition import JOKER, LETTERS
from banditsolve.rolling.rules import (
    Action,
    End,
    Joker,
    Lay,
    Reroll,
    apply_unchecked,
    chance_outcomes,
    faces_text,
    legal_actions,
    legal_ambushes_left,
    roll_outcomes,
)
from banditsolve.rolling.solvers.keys import roll_orbits
from banditsolve.rolling.state import State, expect_state

Leaf = Callable[[State], Fraction]
Stop = Callable[[State], bool]


def roll_distribution(n: int) -> dict[str, Fraction]:
    """The exact distribution of a roll of ``n`` dice, by face counts written as letters."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 30:
        raise SolverError(f"a roll has 0 to 30 dice, not {n!r}")
    return {faces_text(f): p for f, p in roll_outcomes(n)}


def steal_points(state: State, player: int) -> Fraction:
    """The player's points so far plus the points of every wagon they would steal now."""
    total = state.score(player)
    total += sum(wagon.points for wagon in state.train if state.stealer(wagon) == player)
    return Fraction(total)


def _ended(state: State, player: int) -> bool:
    return state.is_terminal or state.to_move != player


class _Search:
    """Expectimax over the rest of the active player's turn. ``share``: a table of values by
    position; ``symmetric`` (with ``share``): a roll is taken once per class of outcomes equal
    up to interchangeable free symbols (:func:`.keys.roll_orbits` with ``turn``: trunks out of
    the mover's reach this turn do not fix their symbol), with the class's probability. Only
    for leaf and stop functions that do not tell free symbols apart (every one here)."""

    def __init__(
        self,
        player: int,
        leaf: Leaf,
        stop: Stop | None,
        rerolls: bool,
        budget: Budget,
        share: bool,
        symmetric: bool = False,
    ) -> None:
        self.player = player
        self.leaf = leaf
        self.stop = stop
        self.rerolls = rerolls
        self.budget = budget
        self.memo: dict[object, Fraction] | None = {} if share else None
        self.symmetric = share and symmetric

    def _key(self, state: State) -> object:
        # The position itself: measured cheaper than a canonical key here, where the roll
        # classes already take the symmetry.
        return state

    def value(self, state: State) -> Fraction:
        key: object = None
        if self.memo is not None:
            key = self._key(state)
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        self.budget.tick()
        if self.stop is not None and self.stop(state):
            result = Fraction(1)
        elif _ended(state, self.player):
            result = self.leaf(state)
        elif state.is_chance:
            if self.symmetric and state.phase in ("roll", "mroll"):
                n = state.airborne[0] if state.phase == "roll" else state.airborne[1]
                outcomes: Any = roll_orbits(state, n, turn=True)
            else:
                outcomes = chance_outcomes(state)
            result = sum(
                (p * self.value(apply_unchecked(state, a)) for a, p in outcomes), Fraction(0)
            )
        else:
            result = max(self.after(state, a) for a in self.choices(state))
        if self.memo is not None:
            self.memo[key] = result
        return result

    def after(self, state: State, action: Action) -> Fraction:
        """The value after ``action``. With sharing, an ``end`` that ends the turn (no ambush
        step follows, option cut=join) is scored at once: the next player's steal only takes
        wagons where they lead, which changes neither this player's points nor the wagons they
        would steal, so the leaf is the same (and the engine's turn change is skipped)."""
        if (
            self.memo is not None
            and self.stop is None
            and isinstance(action, End)
            and state.phase == "attack"
            and state.options.cut == "join"
            and not legal_ambushes_left(state)
        ):
            self.budget.tick()
            return self.leaf(state)
        return self.value(apply_unchecked(state, action))

    def choices(self, state: State) -> tuple[Action, ...]:
        actions = legal_actions(state)
        if not self.rerolls:
            actions = tuple(a for a in actions if not isinstance(a, Reroll))
        if self.memo is not None and state.phase == "attack":
            actions = _defer_inert_jokers(state, actions)
        return actions


def _defer_inert_jokers(state: State, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """While a group can still be laid, a joker for a wagon where it can carry off no trunk
    (no trunk there, or one of another symbol) waits: it only adds one die to that wagon, which
    no other action of the attack reads (trunks, bombs and thefts elsewhere do not see it; a
    theft needs every die on one wagon), so laying it after the groups reaches the same
    positions, with at least as much known (a roll-again trunk stays usable until then)."""
    if not any(isinstance(a, Lay) for a in actions):
        return actions
    p = state.to_move
    out = []
    for a in actions:
        if isinstance(a, Joker):
            wagon = state.wagon(a.wagon)
            group = None if wagon is None else wagon.groups[p]
            if wagon is not None and group is not None and wagon.trunk != group.symbol:
                continue
        out.append(a)
    return tuple(out)


def _search(
    state: State,
    leaf: Leaf,
    *,
    stop: Stop | None = None,
    rerolls: bool = True,
    limits: Limits | None = None,
    budget: Budget | None = None,
    share: bool = True,
    symmetric: bool = False,
) -> tuple[Fraction, _Search]:
    player = expect_state(state).to_move
    if state.is_terminal:
        raise SolverError("the game is over: there is no turn to play")
    if state.phase in ("deal-wagon", "deal-trunk"):
        raise SolverError("the train is still being dealt: no turn has begun")
    spend = budget if budget is not None else Budget(limits or Limits())
    search = _Search(player, leaf, stop, rerolls, spend, share, symmetric)
    return search.value(state), search


def turn_value(state: State, leaf: Leaf, **kw: Any) -> Fraction:
    """The exact value of the rest of the active player's turn (shared positions)."""
    return _search(state, leaf, **kw)[0]


def plain_turn_value(state: State, leaf: Leaf, **kw: Any) -> Fraction:
    """The same by plain enumeration (no sharing): the baseline."""
    return _search(state, leaf, share=False, **kw)[0]


# -- odds ------------------------------------------------------------------------------------------


def _at_roll(state: State) -> State:
    """A state whose next step is the active player's roll: from ``start`` roll now."""
    expect_state(state)
    from banditsolve.rolling.rules import Roll

    if state.phase == "start":
        return apply_unchecked(state, Roll(0))
    if state.phase not in ("roll", "mroll"):
        raise SolverError(
            f"the odds of a roll are asked before rolling, not in phase {state.phase}"
        )
    return state


def most_to_lay(state: State, symbol: int) -> int:
    """After the roll (phase attack): the most dice of ``symbol`` (rolled ones and jokers) the
    active player can lay on the train this turn. Jokers only join a group (RB-JOKER-1): they
    count when the symbol is already on the train or a rolled die of it can start a group."""
    from banditsolve.rolling.rules import new_group_targets

    p = state.to_move
    has = any(c.groups[p] is not None and c.groups[p].symbol == symbol for c in state.train)  # type: ignore[union-attr]
    rolled = state.roll[symbol] + state.mroll[symbol]
    jokers = state.roll[JOKER] + state.mroll[JOKER]
    if has or (rolled > 0 and new_group_targets(state, p)):
        return rolled + jokers
    return 0


def _can_lay(state: State, symbol: int, k: int) -> bool:
    # One comparison for every k, 0 included: laying 0 or more is always possible.
    return most_to_lay(state, symbol) >= k


def _check_lay_question(symbol: int | None, k: int) -> None:
    if symbol is not None and (
        isinstance(symbol, bool) or not isinstance(symbol, int) or not 0 <= symbol < 5
    ):
        raise SolverError(f"the symbol is 0 to 4 (R M H B S), not {symbol!r}")
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 30:
        raise SolverError(f"the dice to lay are 0 to 30, not {k!r}")


def chance_to_lay(
    state: State, symbol: int, k: int, *, rerolls: bool = True, budget: Budget | None = None
) -> Fraction:
    """The chance that the coming roll lets the active player lay ``k`` or more dice of
    ``symbol`` (rolled ones and jokers) on the train this turn; with ``rerolls`` (and a usable
    roll-again trunk) the player rolls again as well as they can (RB-AGAIN-1). ``k`` = 0 is
    certain (1)."""
    _check_lay_question(symbol, k)
    at = _at_roll(state)
    if rerolls and _holds_roll_again(at):

        def stop(s: State) -> bool:
            return s.phase == "attack" and s.to_move == at.to_move and _can_lay(s, symbol, k)

        return turn_value(at, lambda s: Fraction(0), stop=stop, rerolls=True, budget=budget)
    total = Fraction(0)
    for action, prob in chance_outcomes(at):
        after = apply_unchecked(at, action)
        if after.phase == "attack" and _can_lay(after, symbol, k):
            total += prob
    return total


def _holds_roll_again(state: State) -> bool:
    from banditsolve.rolling.rules import ROLL_AGAIN

    p = state.to_move
    return any(h.content == ROLL_AGAIN and not h.used for h in state.trunks[p][: state.usable])


def chance_of_trunk(
    state: State, wagon_id: int, *, rerolls: bool = True, budget: Budget | None = None
) -> Fraction:
    """The chance that the coming roll lets the active player carry off wagon ``wagon_id``'s trunk
    this turn (best laying; with ``rerolls``, a usable roll-again trunk used at its best)."""
    at = _at_roll(state)
    wagon = at.wagon(expect_whole(wagon_id, "the wagon"))
    if wagon is None or wagon.trunk is None:
        raise SolverError(f"wagon {wagon_id} has no trunk on the train")

    def stop(s: State) -> bool:
        return s.phase == "reveal" and any(c == wagon_id for c, _ in s.pending)

    return turn_value(
        at, lambda s: Fraction(0), stop=stop, rerolls=rerolls, symmetric=True, budget=budget
    )


def chance_stealable(
    state: State, wagon_id: int, *, rerolls: bool = True, budget: Budget | None = None
) -> Fraction:
    """The chance that the coming roll lets the active player lay so that wagon ``wagon_id`` is
    theirs to steal at the start of their next turn, if nobody else plays (with ``rerolls``, a
    usable roll-again trunk used at its best)."""
    return steal_chance(_at_roll(state), wagon_id, rerolls=rerolls, budget=budget)


def steal_chance(
    state: State, wagon_id: int, *, rerolls: bool = True, budget: Budget | None = None
) -> Fraction:
    """From any point of the active player's turn: the chance, with the best play of the rest
    of it (trunks opened included), that wagon ``wagon_id`` is theirs to steal at the start of their
    next turn if nobody else plays."""
    if expect_state(state).is_terminal or state.phase in ("deal-wagon", "deal-trunk"):
        raise SolverError("no turn is being played")
    expect_whole(wagon_id, "the wagon")
    at = state
    p = at.to_move
    if at.wagon(wagon_id) is None:
        raise SolverError(f"wagon {wagon_id} is not on the train")

    def leaf(s: State) -> Fraction:
        wagon = s.wagon(wagon_id)
        if wagon is None:
            return Fraction(1 if any(w.id == wagon_id for w in s.won[p]) else 0)
        return Fraction(1 if s.stealer(wagon) == p else 0)

    return turn_value(at, leaf, rerolls=rerolls, symmetric=True, budget=budget)


def trunk_wagons(state: State) -> tuple[int, ...]:
    """The wagons whose trunk the active player surely can carry off this turn from here (the
    roll known: phase attack or ambush), by searching every laying."""
    if expect_state(state).phase not in ("attack", "ambush"):
        raise SolverError(f"trunks in reach are asked after the roll, not in phase {state.phase}")
    out = []
    for wagon in state.train:
        if wagon.trunk is None:
            continue
        cid = wagon.id

        def stop(s: State, cid: int = cid) -> bool:
            return s.phase == "reveal" and any(c == cid for c, _ in s.pending)

        if turn_value(state, lambda s: Fraction(0), stop=stop, symmetric=True) == 1:
            out.append(cid)
    return tuple(out)


def best_ambush(state: State) -> tuple[str, int]:
    """In the ambush step: the swap that carries off the most trunks at once, and how many."""
    from banditsolve.rolling.rules import Ambush

    if expect_state(state).phase != "ambush":
        raise SolverError(f"an ambush is chosen in the ambush step, not in phase {state.phase}")
    best = ("end", 0)
    for action in legal_actions(state):
        if isinstance(action, Ambush):
            after = apply_unchecked(state, action)
            n = len(after.pending) if after.phase == "reveal" else 0
            if n > best[1]:
                best = (str(action), n)
    return best


@dataclass(frozen=True, slots=True)
class Odds:
    """The odds questions of one position, for the command line and puzzles."""

    position: str
    roll_dice: int
    lay: dict[str, str]
    trunks: dict[str, str]
    stealable: dict[str, str]
    roll_again: bool = False
    #: why some odds are ``unknown`` (a limit ran out), or empty when every one was worked out
    cut_short: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "roll_again": self.roll_again,
            "position": self.position,
            "roll_dice": self.roll_dice,
            "lay_at_least": self.lay,
            "take_trunk": self.trunks,
            "stealable_next_turn": self.stealable,
            "cut_short": self.cut_short or None,
        }

    def explain(self) -> str:
        again = " (a roll-again trunk used at its best)" if self.roll_again else ""
        lines = [f"rolling {plural(self.roll_dice, 'die', 'dice')}{again}:"]
        lines += [f"  lay {k}: {v}" for k, v in self.lay.items()]
        lines += [f"  take the trunk of wagon {k}: {v}" for k, v in self.trunks.items()]
        lines += [f"  wagon {k} stealable next turn: {v}" for k, v in self.stealable.items()]
        if self.cut_short:
            lines.append(f"cut short: {self.cut_short}; the odds not worked out say unknown")
        return "\n".join(lines)

    def svg(self) -> str:
        """The odds as a bar chart as an SVG picture (:func:`.pictures.odds_svg`)."""
        from banditsolve.rolling.solvers.pictures import odds_svg

        return odds_svg(self)

    def ascii(self) -> str:
        """The same picture in text (:func:`.pictures.odds_ascii`)."""
        from banditsolve.rolling.solvers.pictures import odds_ascii

        return odds_ascii(self)

    def _repr_svg_(self) -> str:
        """Jupyter's rich display: :meth:`svg`."""
        return self.svg()

    def to_answer(self) -> Answer:
        return Answer(
            "rolling",
            "odds",
            "unknown" if self.cut_short else "yes",
            "unknown" if self.cut_short else "exact",
            self.explain().replace("\n", "; "),
            details=self.to_json(),
        )


@steady
def odds(
    state: State,
    *,
    symbol: int | None = None,
    k: int = 3,
    time_limit: float | None = ODDS_TIME_LIMIT,
    node_limit: int | None = None,
) -> Odds:
    """Every odds question at once: laying ``k`` of each symbol (or of ``symbol``), each trunk,
    each wagon stealable. The limits hold for all of them together (positions searched count as
    nodes): once one runs out, the odds not yet worked out are ``unknown`` and
    :attr:`Odds.cut_short` says which limit stopped them."""
    _check_lay_question(symbol, k)
    budget = Budget(Limits(time_limit, node_limit), check_every=64)
    at = _at_roll(state)
    stopped: list[str] = []

    def worked_out(ask: Callable[[], Fraction]) -> str:
        if stopped:
            return "unknown"
        try:
            return str(ask())
        except LimitReached as exc:
            stopped.append(exc.reason)
            return "unknown"

    def lay_odds(s: int) -> str:
        return worked_out(lambda: chance_to_lay(at, s, k, budget=budget))

    def trunk_odds(wagon: int) -> str:
        return worked_out(lambda: chance_of_trunk(at, wagon, budget=budget))

    def steal_odds(wagon: int) -> str:
        return worked_out(lambda: chance_stealable(at, wagon, budget=budget))

    symbols = range(5) if symbol is None else (symbol,)
    lay = {f"{k}+ {LETTERS[s]}": lay_odds(s) for s in symbols}
    trunks = {str(c.id): trunk_odds(c.id) for c in at.train if c.trunk is not None}
    steal = {str(c.id): steal_odds(c.id) for c in at.train}
    again = _holds_roll_again(at)
    dice = at.airborne[0] + at.airborne[1]
    return Odds(state.notation(), dice, lay, trunks, steal, again, "".join(stopped[:1]))


# -- best play ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BestTurn:
    """The best play of this turn: the value of each action now and the best plan up to the
    next chance step (``None`` values: a limit ran out)."""

    position: str
    objective: str
    values: tuple[tuple[str, Fraction], ...]
    plan: tuple[str, ...]
    value: Fraction | None
    reason: str
    nodes: int
    stats: dict[str, Any] = field(default_factory=dict)
    limits: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "objective": self.objective,
            "value": None if self.value is None else str(self.value),
            "plan": list(self.plan),
            "actions": [{"action": a, "value": str(v)} for a, v in self.values],
            "nodes": self.nodes,
        }

    def explain(self) -> str:
        if self.value is None:
            return self.reason
        return (
            f"best: {', '.join(self.plan) or '(chance moves next)'}; expected {self.objective} "
            f"{self.value} (= {float(self.value):.3f})"
        )

    def svg(self) -> str:
        """The best turn as numbered steps as an SVG picture (:func:`.pictures.best_svg`)."""
        from banditsolve.rolling.solvers.pictures import best_svg

        return best_svg(self)

    def ascii(self) -> str:
        """The same picture in text (:func:`.pictures.best_ascii`)."""
        from banditsolve.rolling.solvers.pictures import best_ascii

        return best_ascii(self)

    def _repr_svg_(self) -> str:
        """Jupyter's rich display: :meth:`svg`."""
        return self.svg()

    def to_answer(self) -> Answer:
        if self.value is None:
            return Answer(
                "rolling",
                "best",
                "unknown",
                "unknown",
                self.reason,
                None,
                self.limits,
                {"nodes": self.nodes},
            )
        return Answer(
            "rolling",
            "best",
            "yes",
            "best turn",
            self.explain(),
            list(self.plan),
            self.limits,
            {"nodes": self.nodes, **self.stats},
            {"value": str(self.value), "actions": [[a, str(v)] for a, v in self.values]},
        )


@steady
def best_turn(
    state: State,
    *,
    time_limit: float | None = BEST_TURN_TIME_LIMIT,
    node_limit: int | None = None,
    plain: bool = False,
) -> BestTurn:
    """The play that maximises the expected points the active player has or could steal at
    the start of their next turn if nobody else played (wagons they would steal plus points
    taken), exactly: every roll, every laying, roll-again trunks and ambushes included."""
    limits = Limits(time_limit, node_limit)
    if expect_state(state).is_chance or state.is_terminal:
        raise SolverError("best play is asked when a player is to move")
    p = state.to_move

    def leaf(s: State) -> Fraction:
        return steal_points(s, p)

    search = _Search(p, leaf, None, True, Budget(limits, check_every=16), not plain, True)
    try:
        values = tuple(
            (str(a), search.value(apply_unchecked(state, a))) for a in legal_actions(state)
        )
        plan: list[str] = []
        s = state
        while not s.is_chance and not _ended(s, p):
            scored = [
                (search.value(apply_unchecked(s, a)), i, a) for i, a in enumerate(legal_actions(s))
            ]
            best_v = max(v for v, _, _ in scored)
            action = next(a for v, _, a in scored if v == best_v)
            plan.append(str(action))
            s = apply_unchecked(s, action)
    except LimitReached as exc:
        return BestTurn(
            state.notation(),
            "points",
            (),
            (),
            None,
            exc.reason,
            search.budget.nodes,
            limits=limits.to_json(),
        )
    value = max(v for _, v in values)
    return BestTurn(
        state.notation(),
        "points",
        values,
        tuple(plan),
        value,
        "exact",
        search.budget.nodes,
        {"method": "plain" if plain else "shared"},
        limits.to_json(),
    )
