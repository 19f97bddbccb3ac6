"""The whole game when everything is known: can the team still win, and how?

:func:`solve_game` takes a state whose pile order is known (no unseen cards) and searches every
line of play (placements, hand changes, passes) depth first, with a transposition table on the
table's cells, the hands, the pile, the player to act and the pending flags. The team wins when
some line reaches "no exit"; the game being cooperative, that is plain reachability over the
players' choices, so a visited set is exact. A branch is cut early when the cards still in play
cannot close the table at all (dead exits or the counting bounds of the closure solver). Limits
give ``unknown``, never a false answer.

:func:`win_share` leaves the pile order open: it samples shuffles of the unseen cards with a
seeded random source, solves each exactly and reports the share won with a 95 % Wilson
interval. That is an upper bound on the real chance of winning: the players do not see the pile.

In the shared answer shape (``to_answer()``): a solution is question ``"solve"``,
``yes``/``"win"`` (certificate: the winning line's actions as text), ``no``/``"lose"`` or
``unknown``; a win share is question ``"win-share"``, always ``yes``/``"estimate"`` (an
estimate answers the question asked, "what share of shuffles does perfect play win?", and
proves nothing either way), with the share, the interval and the sample counts in
``details``.
"""

from __future__ import annotations

import random
import time
from array import array
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from banditsolve.core.answer import Answer
from banditsolve.core.args import expect_whole
from banditsolve.core.limits import (
    MAX_COORD,
    MAX_SEED,
    MAX_SHUFFLES,
    TUNNEL_SOLVE_TIME_LIMIT,
    Budget,
    LimitReached,
    Limits,
    steady,
)
from banditsolve.core.stats import wilson
from banditsolve.core.text import plural
from banditsolve.errors import SolverError
from banditsolve.tunnels.bandida.ends import maps_left
from banditsolve.tunnels.cards import card_name
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.rules import apply, chance_outcomes, legal_actions, settle
from banditsolve.tunnels.solvers.bounds import static_reason
from banditsolve.tunnels.solvers.closure import can_close
from banditsolve.tunnels.solvers.goals import is_bandido_super
from banditsolve.tunnels.solvers.inputs import check_cards, check_limits
from banditsolve.tunnels.solvers.result import placement_text
from banditsolve.tunnels.state import WON, Action, GameState
from banditsolve.tunnels.table import OPEN_MASK, Table, placements_with_delta

GameStatus = Literal["win", "lose", "unknown"]

#: The answer status of the shared shape per game status.
ANSWER_STATUS: dict[str, Literal["yes", "no", "unknown"]] = {
    "win": "yes",
    "lose": "no",
    "unknown": "unknown",
}


def action_text(action: Action) -> str:
    """An action as text: a placement in the notation ``NAME@x,y,r``, else its word."""
    return placement_text(action) if isinstance(action, Placement) else str(action)


@dataclass(frozen=True, slots=True)
class Move:
    """One move of a winning line: the turn it is made in (the state's ``turn``, as its
    notation and ``show`` write it: 0 for the game's first), who acted, their hand before,
    and what they did."""

    turn: int
    player: int
    hand: tuple[int, ...]
    action: Action

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "turn": self.turn,
            "player": self.player,
            "hand": [card_name(c) for c in self.hand],
        }
        a = self.action
        if isinstance(a, Placement):
            out["action"] = "place"
            out["placement"] = {
                "card": card_name(a.card),
                "x": a.x,
                "y": a.y,
                "rotation": a.rotation,
            }
        else:
            out["action"] = str(a)
        return out

    def __str__(self) -> str:
        hand = " ".join(card_name(c) for c in self.hand)
        return f"turn {self.turn}: player {self.player} [{hand}] -> {self.action}"


@dataclass(frozen=True, slots=True)
class GameSolution:
    """``win`` with the winning line, ``lose`` (proven), or ``unknown`` (a limit ran out)."""

    status: GameStatus
    line: tuple[Move, ...]
    reason: str
    nodes: int
    seconds: float
    limits: Limits = field(default_factory=Limits)
    #: Bandida only, when a reshuffle (the alarm "discard five") leaves the result to chance:
    #: the exact chance of winning with the best play (then ``status`` is ``unknown``).
    win_chance: Fraction | None = None
    #: The state solved, for the picture (``_repr_svg_``; set by :func:`solve_game`). Not
    #: part of the answer's value.
    start: GameState | None = field(default=None, compare=False, repr=False)

    def _repr_svg_(self) -> str:
        """The winning line as numbered steps, a strip of tables (or the start and the
        reason): :func:`~banditsolve.tunnels.solvers.pictures.solution_svg`."""
        from banditsolve.tunnels.solvers.pictures import solution_svg

        return solution_svg(self)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "status": self.status,
            "line": [m.to_json() for m in self.line],
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.win_chance is not None:
            out["win_chance"] = str(self.win_chance)
        return out

    def to_answer(self, game: str = "bandido") -> Answer:
        """The shared answer shape: question ``"solve"``; ``yes``/``"win"`` with the winning
        line's actions as texts (placements as ``NAME@x,y,r``, ``change``, ``pass``) as the
        certificate, ``no``/``"lose"`` with the reason, or ``unknown`` (a limit ran out).
        ``details`` gives each move of a winning line (turn, player, hand, action)."""
        won = self.status == "win"
        return Answer(
            game=game,
            question="solve",
            status=ANSWER_STATUS[self.status],
            answer=self.status,
            reason=self.reason,
            certificate=[action_text(m.action) for m in self.line] if won else None,
            limits=self.limits.to_json(),
            stats={"nodes": self.nodes, "seconds": round(self.seconds, 6)},
            details=self._details(),
        )

    def _details(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.status == "win":
            out["line"] = [m.to_json() for m in self.line]
        if self.win_chance is not None:
            out["win_chance"] = str(self.win_chance)
            out["line"] = [m.to_json() for m in self.line]
        return out


def _key(state: GameState) -> object:
    """The state's memo key, exact and compact: its table as the bytes of its cells' sorted
    codes (each cell's x, y and open sides in one int; a frozenset of the cells took about
    15 KB a state, 150 MB a second of search), the hands, the pile, whose turn, the draws
    owed and the hand change."""
    codes = sorted(
        (x + MAX_COORD) << 19 | (y + MAX_COORD) << 4 | v & OPEN_MASK
        for (x, y), v in state.table.packed.items()
    )
    table = array("q", codes).tobytes()
    return (table, state.hands, state.pile, state.player, state.to_draw, state.changed)


def _bandida_key(state: GameState) -> object:
    """A Bandida state's memo key: the state but its turn number, its table as the sorted
    placements and the last one laid (the table itself, with its cells, rim and front, holds
    about 8 KB with 17 cards: the memo grew 50-70 MB a second). The map's removals need the
    cards, not only the cells; and under ``map_removes=not_special`` the map just laid, the last
    card, may not be taken off, so the key holds the last card, as :meth:`Table.__eq__` does (the
    first card, which a map never takes off either, is the start card in every game state)."""
    history = state.table.history
    laid = (tuple(sorted(history)), history[-1] if history else None)
    return (laid, replace(state, turn=0, table=_NO_TABLE))


_NO_TABLE = Table.empty()


def _ordered(state: GameState) -> list[Action]:
    actions = list(legal_actions(state))
    deltas: dict[Placement, int] = {
        p: d
        for code in set(state.hands[state.player])
        for p, d in placements_with_delta(state.table, code)
    }
    return sorted(actions, key=lambda a: deltas.get(a, 99) if isinstance(a, Placement) else 100)


def check_state(state: object, hypothetical: object) -> GameState:
    """``state`` as a game state a solver may take: a :class:`GameState` whose cards (table,
    hands, pile and unseen together) the deck holds, unless ``hypothetical``."""
    if not isinstance(state, GameState):
        raise SolverError(f"a game solver needs a GameState, not {type(state).__name__}")
    check_cards(state, state.table, state.remaining(), hypothetical)
    return state


@steady
def solve_game(
    state: GameState,
    *,
    time_limit: float | None = TUNNEL_SOLVE_TIME_LIMIT,
    node_limit: int | None = None,
    hypothetical: bool = False,
) -> GameSolution:
    """Solve a perfect-information state (the whole pile order known).

    The state's cards must be cards of the real game (no more copies of a card than the deck
    holds, no second super card); ``hypothetical=True`` lifts that check."""
    limits = check_limits(None, time_limit, node_limit)
    state = check_state(state, hypothetical)
    if state.unseen:
        raise SolverError(
            "the pile order is not known (unseen cards): use win_share to sample shuffles"
        )
    start = time.perf_counter()
    why = out_of_reach(state, limits, hypothetical)
    spent = time.perf_counter() - start
    if why is not None:
        return GameSolution("lose", (), why, 0, spent, limits, start=state)
    return replace(_solve_known(state, limits, start), start=state)


#: The share of a solver's time limit the closure question of the cards in play may take
#: (:func:`out_of_reach`), and its most seconds (also without a time limit). The questions it
#: proves impossible take milliseconds; on states of random Bandida games 13 of 85 took the
#: whole 2 s once given them, undecided.
REACH_SHARE = 0.1
REACH_SECONDS = 0.5
#: The shortest time limit it is asked within (the call takes up to about 0.07 s whatever its
#: own limit: a shorter limit would not be kept).
REACH_FROM = 1.0
#: The compiled core's nodes it may take under no limit at all (about 1 s).
REACH_NODES = 1_000_000


def _reach_limits(limits: Limits) -> Limits | None:
    """The limits of :func:`out_of_reach`'s question under a solver's ``limits``: a share of
    the time limit (none below :data:`REACH_FROM`); none for a search bounded by its nodes
    alone, whose answer stays a function of its nodes (the studies' reproducible solves); and
    :data:`REACH_NODES` of the compiled core's nodes without any limit."""
    if limits.time_limit is not None:
        if limits.time_limit < REACH_FROM:
            return None
        return Limits(min(REACH_SECONDS, REACH_SHARE * limits.time_limit))
    if limits.node_limit is not None:
        return None
    return Limits(node_limit=REACH_NODES)


def out_of_reach(state: GameState, limits: Limits, hypothetical: bool) -> str | None:
    """Why no line of play from ``state`` wins whatever the pile order, or None: the question
    ``close`` asks of a game in progress (can the cards not yet played reach the goal of the
    state's game or mode? the hands, the pile and the unseen cards, laid in any order by
    anyone, with a map's removals under the state's readings) proven impossible by the
    compiled search. A relaxation of every line of play: a line that wins lays some of those
    cards, in an order the rules allow, to the goal (under ``chain=no`` also with a map laid in
    a chain, taking nothing off: :mod:`~banditsolve.tunnels.solvers.chains`). Asked within
    :func:`_reach_limits`; what it leaves open the game search decides."""
    reach = _reach_limits(limits)
    if state.outcome is not None or reach is None:
        return None
    asked = can_close(
        state,
        backend="exact",
        time_limit=reach.time_limit,
        node_limit=reach.node_limit,
        workers=1,
        hypothetical=hypothetical,
    )
    if asked.status != "impossible":
        return None
    return f"no line of play wins: the cards still in play cannot reach the goal ({asked.reason})"


def _solve_known(state: GameState, limits: Limits, start: float | None = None) -> GameSolution:
    """``state`` solved within ``limits``, counted from ``start`` (now when None)."""
    if state.variant is not None:
        return solve_bandida(state, limits, start)
    return _solve_bandido(state, limits, start)


def _solve_bandido(state: GameState, limits: Limits, start: float | None) -> GameSolution:
    # (a node costs about 1 ms: the clock is checked at each)
    budget = Budget(limits, check_every=1, start=start)
    seen: set[object] = set()
    line: list[Move] = []

    def dfs(s: GameState) -> bool:
        if s.outcome is not None:
            return s.outcome == WON
        key = _key(s)
        if key in seen:
            return False
        seen.add(key)
        budget.tick()
        if static_reason(s.table, s.remaining()) is not None:
            return False
        for action in _ordered(s):
            line.append(Move(s.turn, s.player, s.hands[s.player], action))
            if dfs(apply(s, action)):
                return True
            line.pop()
        return False

    try:
        won = dfs(state)
    except LimitReached as exc:
        return GameSolution("unknown", (), exc.reason, budget.nodes, budget.elapsed, limits)
    finally:
        # (dfs refers to itself, a cycle only the collector frees, paused while searches run:
        # the keys go now, not at the next full collection)
        seen.clear()
    nodes, spent = budget.nodes, budget.elapsed
    if won:
        why = f"a winning line of {plural(len(line), 'turn')}"
        return GameSolution("win", tuple(line), why, nodes, spent, limits)
    why = f"every line of play loses ({plural(nodes, 'state')} searched)"
    return GameSolution("lose", (), why, nodes, spent, limits)


ONE = Fraction(1)
ZERO = Fraction(0)


def solve_bandida(state: GameState, limits: Limits, start: float | None = None) -> GameSolution:
    """A Bandida state with the pile order known, solved through the rules engine's own
    :func:`~banditsolve.tunnels.rules.legal_actions` and :func:`~banditsolve.tunnels.rules.apply`
    (so every object's and alarm's effect is carried out: the backpack's hand size, the
    dynamite's second card, the broken tool, the map's removals, the alarms' discards, the
    mode's end).

    The value of a state is the chance of winning with the best play: 1 or 0 at the end, the
    best child at a decision, the average over the outcomes at a chance node (a reshuffle
    after the alarm "discard five" makes the pile order unknown again). Memoised on the whole
    state but its turn number. ``win`` (value 1: a winning line, or a strategy winning against
    every reshuffle, shown along the first outcome of each chance node), ``lose`` (value 0:
    every line loses), ``unknown`` when a limit ran out, or when the result depends on a
    reshuffle (``win_chance`` gives the exact chance with the best play).

    A branch is cut when the cards still in play cannot close the table at all (the closure
    solver's static reasons: a relaxation of every mode's goal), unless a map card is among
    them or has just been laid with its removals to come (its removals change the table:
    :func:`~banditsolve.tunnels.bandida.ends.maps_left`, the rule that also decides when a hole
    loses, BA-END-2)."""
    search = _BandidaSearch(limits, start)
    try:
        won = search.value(state)
    except LimitReached as exc:
        budget = search.budget
        return GameSolution("unknown", (), exc.reason, budget.nodes, budget.elapsed, limits)
    return _verdict(search, won, _line(state, search.memo), limits)


class _BandidaSearch:
    """The chance of winning with the best play from each state met (see
    :func:`solve_bandida`), memoised on the whole state but its turn number."""

    def __init__(self, limits: Limits, start: float | None = None) -> None:
        # (A Bandida node can cost much more than a Bandido one: the map's removal choices.)
        self.budget = Budget(limits, check_every=1, start=start)
        self.memo: dict[object, tuple[Fraction, Action | None]] = {}
        self.open_keys: set[object] = set()
        #: A state met again on its own line (``loop``), a chance node met (``chance``).
        self.loop = False
        self.chance = False

    def value(self, s: GameState) -> Fraction:
        """The chance of winning from ``s`` with the best play."""
        self.budget.tick()
        if s.outcome is not None:
            return ONE if s.outcome == WON else ZERO
        k = _bandida_key(s)
        found = self.memo.get(k)
        if found is not None:
            if k in self.open_keys:
                self.loop = True
            return found[0]
        # A state met again on its own line makes no progress: 0 for now (exact when no
        # chance node is involved; see _verdict).
        self.memo[k] = (ZERO, None)
        self.open_keys.add(k)
        try:
            return self.explore(s, k)
        finally:
            self.open_keys.discard(k)

    def explore(self, s: GameState, k: object) -> Fraction:
        """The value of ``s`` (not over, not met yet), kept in the memo with its best action."""
        remaining = s.remaining()
        if (
            not maps_left(s)
            and not any(is_bandido_super(c) for c in remaining)
            and static_reason(s.table, remaining)
        ):
            return ZERO
        if s.is_chance:
            self.chance = True
            total = sum(
                (p * self.value(apply(s, draw)) for draw, p in chance_outcomes(s)), start=ZERO
            )
            self.memo[k] = (total, None)
            return total
        best: Fraction = ZERO
        best_action: Action | None = None
        for action in _ordered_bandida(s):
            v = self.value(apply(s, action))
            if best_action is None or v > best:
                best, best_action = v, action
                self.memo[k] = (best, best_action)
                if best == ONE:
                    break
        self.memo[k] = (best, best_action)
        return best


def _verdict(
    search: _BandidaSearch, won: Fraction, line: tuple[Move, ...], limits: Limits
) -> GameSolution:
    """The answer of a Bandida search whose value from the start is ``won``."""
    nodes, spent = search.budget.nodes, search.budget.elapsed
    if won != ONE and search.loop and search.chance:
        # A value of a repeated state stood in for 0 under a chance node: a lower bound only.
        why = (
            f"the best play wins with chance at least {won}; a position repeated under a"
            " reshuffle leaves the exact value open"
        )
        return GameSolution("unknown", (), why, nodes, spent, limits)
    if won == ONE:
        why = f"a winning line of {plural(len(line), 'move')}"
        if any(m.action is None for m in line):
            why += " (winning whatever the reshuffle; shown along its first outcomes)"
        return GameSolution("win", line, why, nodes, spent, limits)
    if won == ZERO:
        why = f"every line of play loses ({plural(nodes, 'state')} searched)"
        return GameSolution("lose", (), why, nodes, spent, limits)
    why = (
        f"the result depends on a reshuffle: the best play wins with chance {won}"
        f" ({float(won):.1%})"
    )
    return GameSolution("unknown", line, why, nodes, spent, limits, won)


def _ordered_bandida(state: GameState) -> list[Action]:
    """The legal actions, placements that close the most exits first."""
    actions = list(legal_actions(state))
    hand = set(state.hands[state.to_act])
    deltas: dict[Placement, int] = {
        p: d for code in hand for p, d in placements_with_delta(state.table, code)
    }
    return sorted(actions, key=lambda a: deltas.get(a, 99) if isinstance(a, Placement) else 100)


def _line(state: GameState, memo: dict[object, tuple[Fraction, Action | None]]) -> tuple[Move, ...]:
    """The best line from ``state`` along the memo (the first outcome at a chance node)."""
    out: list[Move] = []
    s = state
    seen: set[object] = set()
    while s.outcome is None:
        k = _bandida_key(s)
        if k in seen or k not in memo:
            break
        seen.add(k)
        if s.is_chance:
            draw = chance_outcomes(s)[0][0]
            s = apply(s, draw)
            continue
        action = memo[k][1]
        if action is None:
            break
        out.append(Move(s.turn, s.to_act, s.hands[s.to_act], action))
        s = apply(s, action)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class WinShare:
    """Sampled shuffles of the unseen cards solved with perfect information."""

    won: int
    lost: int
    unknown: int
    samples: int
    share: float
    low: float
    high: float
    label: str = "upper bound on the real chance (perfect information)"
    seed: int = 0
    time_limit: float | None = None
    seconds: float = 0.0

    def _repr_svg_(self) -> str:
        """The samples won, lost and undecided as a bar chart, the share and its interval in
        the title: :func:`~banditsolve.tunnels.solvers.pictures.share_svg`."""
        from banditsolve.tunnels.solvers.pictures import share_svg

        return share_svg(self)

    @property
    def headline(self) -> str:
        """The share in words: ``at most`` when undecided samples are counted as won."""
        most = f"at most {self.share:.1%}" if self.unknown else f"{self.share:.1%}"
        return (
            f"perfect play wins {most} of {plural(self.samples, 'sampled shuffle')}"
            f" (95 % interval {self.low:.1%} to {self.high:.1%})"
        )

    @property
    def counts(self) -> str:
        """The samples won, undecided and in all, the share with its interval, and the label
        (the command line's answer)."""
        undecided = f", {self.unknown} undecided" if self.unknown else ""
        return (
            f"won {self.won} of {self.samples} sampled shuffles{undecided} "
            f"({self.share:.1%}, 95% CI {self.low:.1%}-{self.high:.1%}): {self.label}"
        )

    def to_answer(self, game: str = "bandido") -> Answer:
        """The shared answer shape: question ``"win-share"``, status ``unknown`` (an estimate
        is not a proof either way, as every game's estimate says), answer ``"estimate"``, or
        ``"unknown"`` when no sample was decided (nothing is then estimated); ``details``
        holds the share, the 95 % Wilson interval, the sample counts and the label (an upper
        bound on the real chance: the solver sees the pile, and counts an undecided sample as
        won)."""
        return Answer(
            game=game,
            question="win-share",
            status="unknown",
            answer="estimate" if self.won + self.lost else "unknown",
            reason=f"{self.headline}: {self.label}",
            certificate=None,
            limits={"time_limit": self.time_limit, "samples": self.samples, "seed": self.seed},
            stats={"samples": self.samples, "seconds": round(self.seconds, 6)},
            details={
                "share": self.share,
                "interval": [self.low, self.high],
                "samples": self.samples,
                "won": self.won,
                "lost": self.lost,
                "unknown": self.unknown,
                "label": self.label,
                "upper_bound": True,
            },
        )

    def to_json(self) -> dict[str, object]:
        return {
            "won": self.won,
            "lost": self.lost,
            "unknown": self.unknown,
            "samples": self.samples,
            "share": self.share,
            "ci95": [self.low, self.high],
            "label": self.label,
        }


@steady
def win_share(
    state: GameState,
    *,
    samples: int = 100,
    seed: int = 0,
    time_limit: float | None = TUNNEL_SOLVE_TIME_LIMIT,
    hypothetical: bool = False,
) -> WinShare:
    """The share of shuffles of ``state``'s unseen cards that perfect play still wins.

    Each sample puts the unseen cards in a random order (seeded) above the known pile and
    solves the result with :func:`solve_game`; when the cards in play cannot reach the goal in
    any order (:func:`out_of_reach`, asked once), every sample is lost without a search.
    ``time_limit`` is for all the samples together:
    each gets an equal part of the time left. A sample the solver cannot decide in its time is
    counted apart and, so that the share stays an upper bound, as won; the interval is the
    95 % Wilson interval of that share. ``hypothetical`` as for :func:`solve_game`.
    """
    expect_whole(samples, "samples", 1, MAX_SHUFFLES)
    expect_whole(seed, "the seed", 0, MAX_SEED)
    limits = check_limits(None, time_limit, None)
    state = check_state(state, hypothetical)
    rng = random.Random(seed)
    start = time.perf_counter()
    deadline = None if limits.time_limit is None else start + limits.time_limit
    won = lost = unknown = 0
    why = out_of_reach(state, limits, hypothetical)  # (the same for every pile order)
    if why is not None:
        lost = samples
    for i in range(0 if why else samples):
        order = list(state.unseen)
        rng.shuffle(order)
        known = settle(_with_pile(state, tuple(order) + state.pile))
        part = None
        if deadline is not None:  # (after the sample's set-up, which takes its time too)
            part = (deadline - time.perf_counter()) / (samples - i)
        if part is not None and part <= 0:
            unknown += samples - i  # the time is up: every sample left is undecided
            break
        result = _solve_known(known, Limits(part))
        if result.status == "win":
            won += 1
        elif result.status == "lose":
            lost += 1
        else:
            unknown += 1
    bound = won + unknown
    low, high = wilson(bound, samples)
    label = "upper bound on the real chance (perfect information)"
    if unknown:
        label += f"; the {plural(unknown, 'undecided sample')} counted as won"
    if why is not None:
        label += f"; every shuffle lost, {why}"
    return WinShare(
        won,
        lost,
        unknown,
        samples,
        bound / samples,
        low,
        high,
        label,
        seed=seed,
        time_limit=limits.time_limit,
        seconds=time.perf_counter() - start,
    )


def _with_pile(state: GameState, pile: tuple[int, ...]) -> GameState:
    """``state`` with the whole pile known, in the order ``pile`` (top first)."""
    return replace(state, unseen=(), pile=pile)
