"""Time and node budgets for every solver: one way to state limits, one exception, one reason.

>>> limits = Limits(time_limit=2, node_limit=1000)
>>> limits.to_json()
{'time_limit': 2.0, 'node_limit': 1000}
>>> budget = Budget(Limits(node_limit=3))
>>> for _ in range(3):
...     budget.tick()
>>> try:
...     budget.tick()
... except LimitReached as exc:
...     print(exc.reason)
the node limit ran out (3 nodes) before an answer was proven
"""

from __future__ import annotations

import functools
import gc
import inspect
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from banditsolve.core import progress
from banditsolve.core.text import plural, shown
from banditsolve.errors import ArgumentTypeError, SolverError

# -- Input sizes: each bound on what input can set, with its reason. ---------------------------

#: The largest input read, in bytes: a position is a few hundred bytes, a whole game a few KB.
MAX_INPUT_BYTES = 4 * 1024 * 1024
#: The deepest JSON nesting accepted: the deepest real document nests 5 levels.
MAX_JSON_DEPTH = 20
#: The most digits of one JSON number: every real number fits in 10 (a seed, a count).
MAX_NUMBER_DIGITS = 30
#: The most copies of one card a deck (or a ``CARD*N`` run) may have: a real deck has at most
#: 3; a made-up one more, but 999 cards of one kind already exceed any solver's reach.
MAX_CARD_COPIES = 999
#: The widest and tallest play area of option ``table_size`` (BD-OPT-6), in cells: the largest
#: real table is 26x17.
MAX_TABLE_SIDE = 60
#: The furthest coordinate of a tunnel card from the start card: a game of 71 cards spans
#: at most 142 cells; further ones are refused at once.
MAX_COORD = 10_000
#: The most turns a tunnel game state may report (a real game takes a few hundred).
MAX_TURN = 1_000_000
#: The largest Bandida hand size a state may give (``sizes``; the rules bound it further:
#: the option's size, or a broken tool's three, plus the backpacks laid, BA-OBJ-2).
MAX_HAND = 20
#: The steps after which an adapter (OpenSpiel, PettingZoo) cuts short a game whose rules set no
#: bound on its length (Rolling Bandits: take-backs and rolls may repeat for ever, RB-TAKE-1,
#: RB-ATTACK-1): twenty times the longest of 300 random games (917 steps).
CAPPED_GAME_LENGTH = 20_000
#: The longest Los Banditos notation read: the longest real one has well under 200 characters.
MAX_NOTATION = 400
#: The most entries of a Los Banditos JSON list of dice (the game's 24 dice): a guard on the
#: input's size; how many dice a side or the hand may hold is a rule, ``validate``'s.
MAX_JSON_DICE = 24
#: The most face-down tiles of one value a Los Banditos JSON stack may count (the box's ten).
MAX_JSON_STACK = 10
#: The most characters of a rule option's value read (a value is a word or a small number).
MAX_VALUE_LENGTH = 40
#: The longest Rolling Bandits edition file path a position may name.
MAX_EDITION_PATH = 300
#: The most digits of a number on the command line (a seed or a count fits in 20).
MAX_DIGITS = 20
#: The most worker processes a study may ask for (a large Dask cluster; more is a typo).
MAX_STUDY_WORKERS = 4096
#: The most processes one closure search may share its work among (``workers``, ``--workers``).
MAX_SEARCH_WORKERS = 256
#: The largest seed (``seed=``, ``--seed``): a whole number from 0 to this.
MAX_SEED = 2**64 - 1
#: The most shuffles a tunnel game's win share samples (``samples=``, ``--samples``).
MAX_SHUFFLES = 100_000
#: The most cards a deck may hold in all: the real decks have 69 and 71; the compiled closure
#: core takes at most this many cards.
MAX_DECK_CARDS = 4096

# -- Search budgets. ---------------------------------------------------------------------------

#: Default time limits of the searches that have no natural end within seconds, in seconds:
#: the same from Python and on the command line (``--time-limit``). Rolling Bandits' odds of
#: the coming roll (``rolling odds``): the ten-wagon start takes about 90 s in all.
ODDS_TIME_LIMIT = 30.0
#: Rolling Bandits: is this wagon provably mine (``rolling safe``).
SAFE_TIME_LIMIT = 30.0
#: Rolling Bandits: the best play of a turn (``rolling best``).
BEST_TURN_TIME_LIMIT = 60.0
#: Los Banditos: the best play of a turn (``banditos best``); its exact search also stops at
#: :data:`BANDITOS_BEST_NODE_LIMIT` positions (about 2 s), then the estimate gets the rest.
BANDITOS_BEST_TIME_LIMIT = 30.0
BANDITOS_BEST_NODE_LIMIT = 50_000
#: Bandido and Bandida: can the tunnel close (``bandido close``, ``can_close``,
#: ``min_cards_to_close``, ``closing_sequence``).
CLOSURE_TIME_LIMIT = 10.0
#: Bandido and Bandida: a game solved with its pile known (``bandido solve``, ``solve_game``),
#: or the share of shuffles of the unseen cards won (``win_share``, the limit of all samples).
TUNNEL_SOLVE_TIME_LIMIT = 10.0
#: Los Banditos: a claim decided by a solver backend (``banditos claim --backend cpsat|z3``;
#: each decides in milliseconds, the closed form ``exact`` needs no limit).
CLAIM_TIME_LIMIT = 30.0
#: Seconds the solver of a shipped puzzle may take (``GAME puzzle ID --solve``; each takes well
#: under one).
PUZZLE_TIME_LIMIT = 60.0

#: The largest node limit accepted (beyond it a limit means nothing on this hardware).
MAX_NODE_LIMIT = 10**12
#: The largest time limit accepted, in seconds (a week).
MAX_TIME_LIMIT = 7 * 24 * 3600.0


def check_time_limit(value: object, name: str = "time limit") -> float | None:
    """``value`` as a time limit in seconds, or ``None`` for no limit; refuses anything else."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentTypeError(f"the {name} must be a number of seconds, not {shown(value)}")
    if isinstance(value, int) and abs(value) > MAX_TIME_LIMIT:
        raise SolverError(f"the {name} of {shown(value)} seconds is more than a week")
    seconds = float(value)
    if not math.isfinite(seconds) or seconds <= 0:
        raise SolverError(f"the {name} must be a positive finite number of seconds, not {value!r}")
    if seconds > MAX_TIME_LIMIT:
        raise SolverError(f"the {name} of {seconds:g} s is more than a week")
    return seconds


def check_node_limit(value: object, name: str = "node limit") -> int | None:
    """``value`` as a node limit, or ``None`` for no limit; refuses anything else."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"the {name} must be a whole number of nodes, not {shown(value)}")
    if not 1 <= value <= MAX_NODE_LIMIT:
        raise SolverError(
            f"the {name} must be between 1 and {MAX_NODE_LIMIT:.0e}, not {shown(value)}"
        )
    return value


@dataclass(frozen=True, slots=True)
class Limits:
    """What a solver may spend: seconds of wall time and search nodes (``None``: no limit)."""

    time_limit: float | None = None
    node_limit: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "time_limit", check_time_limit(self.time_limit))
        object.__setattr__(self, "node_limit", check_node_limit(self.node_limit))

    def to_json(self) -> dict[str, float | int | None]:
        return {"time_limit": self.time_limit, "node_limit": self.node_limit}

    def after(self, start: float, nodes: int = 0) -> Limits | str:
        """What is left of these limits ``start`` (a ``time.perf_counter()`` reading) on and
        ``nodes`` nodes spent, or the kind of limit that ran out (``"time"``, ``"nodes"``)."""
        seconds = nodes_left = None
        if self.time_limit is not None:
            seconds = self.time_limit - (time.perf_counter() - start)
            if seconds <= 0:
                return "time"
        if self.node_limit is not None:
            nodes_left = self.node_limit - nodes
            if nodes_left <= 0:
                return "nodes"
        return Limits(seconds, nodes_left)

    def reason(self, kind: str) -> str:
        """The one reason text for a limit of ``kind`` (``"time"`` or ``"nodes"``) that ran
        out."""
        if kind == "nodes":
            return (
                f"the node limit ran out ({plural(self.node_limit or 0, 'node')}) "
                "before an answer was proven"
            )
        return f"the time limit ran out ({self.time_limit or 0:g} s) before an answer was proven"


class LimitReached(Exception):
    """A budget ran out. Solvers catch it and answer *unknown* with :attr:`reason`.

    It is deliberately not a :class:`~banditsolve.errors.BanditsolveError`: it is control flow
    inside a solver, never an error for the user.
    """

    def __init__(self, kind: str, limits: Limits) -> None:
        self.kind = kind
        self.limits = limits
        self.reason = limits.reason(kind)
        super().__init__(self.reason)


#: The share of a time limit a Python search keeps for what follows its last node: freeing
#: the memo and the states it built takes about 1 % of the time it took to build them
#: (measured: 6.6 ms after a 1 s Rolling Bandits ``best_turn``, 15 ms after a 2 s one).
TEARDOWN_SHARE = 0.015


class Budget:
    """A running budget: :meth:`tick` per node, checks the clock every ``check_every`` ticks.
    Its deadline is :data:`TEARDOWN_SHARE` short of the time limit, so that the call that
    runs it returns within the limit."""

    __slots__ = ("__weakref__", "_every", "_next_check", "_node_limit", "_watch", "deadline",
                 "limits", "nodes", "start")

    def __init__(
        self, limits: Limits, *, check_every: int = 256, start: float | None = None
    ) -> None:
        """``start``: the ``time.perf_counter()`` the time limit counts from (now when None:
        a search that spent some of its time before this budget passes its own start)."""
        self.limits = limits
        self.nodes = 0
        self.start = time.perf_counter() if start is None else start
        self.deadline = (
            None
            if limits.time_limit is None
            else self.start + limits.time_limit * (1 - TEARDOWN_SHARE)
        )
        self._node_limit = limits.node_limit
        self._every = check_every
        self._next_check = check_every
        self._watch = progress.track(self)

    def __del__(self) -> None:
        # A watched budget hands its nodes to the watch as it goes (see progress.track).
        if self._watch is not None:
            self._watch.settle(self)

    def tick(self, n: int = 1) -> None:
        """Count ``n`` nodes; raise :class:`LimitReached` when a limit is passed (nodes past the
        node limit are not searched, so not counted: a search stopped by it reports the limit)."""
        if self._node_limit is not None and self.nodes + n > self._node_limit:
            raise LimitReached("nodes", self.limits)
        self.nodes += n
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + self._every
            self.check_time()

    def check_time(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise LimitReached("time", self.limits)

    def time_left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start


F = TypeVar("F", bound=Callable[..., Any])

#: The progress callback of the current context (one context-variable read).
current_callback = progress.current


def _paused(search: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    """``search(*args, **kwargs)`` with the cyclic garbage collector paused."""
    if not gc.isenabled():
        return search(*args, **kwargs)
    gc.disable()
    try:
        return search(*args, **kwargs)
    finally:
        gc.enable()


def steady(search: F) -> F:
    """``search`` run with Python's cyclic garbage collector paused (then restored): a full
    collection over a search's millions of live objects stalls it for 10-30 ms (measured in
    Rolling Bandits' ``best_turn``) at a moment no time check can choose, which alone took a
    search 3 % past its limit. Reference counting frees the searches' objects as ever; the
    few cycles they make (an exception's traceback) wait for the collector, which runs as
    usual after (a 10 s map search peaked at 62 MB with it paused).

    It is also where every public search reports its progress: while a callback is set
    (:func:`banditsolve.core.progress.progress`), the outermost search is watched by a thread
    that calls it (named ``game.search``, with its ``time_limit`` argument and the nodes its
    budgets count). With none set this costs one context-variable read (measured with
    ``timeit`` on a search that returns at once: 150 ns a call before, 165 ns after)."""
    what = f"{_game_of(search.__module__)}{search.__name__}"
    parameter = inspect.signature(search).parameters.get("time_limit")
    default_limit = None if parameter is None else parameter.default

    @functools.wraps(search)
    def run(*args: Any, **kwargs: Any) -> Any:
        if current_callback() is not None:
            with progress.watch(what, kwargs.get("time_limit", default_limit)):
                return _paused(search, args, kwargs)
        # _paused inlined: the search without a callback pays no call more.
        if not gc.isenabled():
            return search(*args, **kwargs)
        gc.disable()
        try:
            return search(*args, **kwargs)
        finally:
            gc.enable()

    return run  # type: ignore[return-value]


def _game_of(module: str) -> str:
    """``"rolling."`` for ``banditsolve.rolling.solvers.turn``: the game part of a name."""
    parts = module.split(".")
    return f"{parts[1]}." if len(parts) > 2 and parts[0] == "banditsolve" else ""
