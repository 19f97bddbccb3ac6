"""The closure answer (:class:`Closure`), its effort (:class:`SearchStats`) and the check that
every certificate replays through the rules engine (:func:`certify`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from banditsolve.core.answer import Answer
from banditsolve.core.limits import Limits
from banditsolve.errors import IllegalActionError
from banditsolve.tunnels.bandida.maps import rebuilt
from banditsolve.tunnels.cards import card_name
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.solvers.bounds import static_reason
from banditsolve.tunnels.solvers.goals import goal_problem
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.state import Remove
from banditsolve.tunnels.table import Table

Status = Literal["closable", "impossible", "unknown"]

#: The answer status of the shared shape (:class:`~banditsolve.core.answer.Answer`) per status.
ANSWER_STATUS: dict[str, Literal["yes", "no", "unknown"]] = {
    "closable": "yes",
    "impossible": "no",
    "unknown": "unknown",
}


def placement_text(p: Placement) -> str:
    """A placement in the notation ``NAME@x,y,r`` (``str(Placement)``)."""
    return str(p)


class Removal(NamedTuple):
    """A map's removal in a closure certificate (BA-OBJ-5): ``cards`` taken off the table
    (in the order laid) right after the certificate's ``after``-th placement, the map; with
    ``after`` 0, first of all: the removal still owed for the map a game state laid last."""

    after: int
    cards: tuple[Placement, ...]

    def __str__(self) -> str:
        return str(Remove(self.cards))


@dataclass(frozen=True, slots=True)
class SearchStats:
    """Effort of one solve: search nodes (or solver branches), wall seconds, and the solver's
    deterministic time where it reports one (CP-SAT)."""

    nodes: int = 0
    seconds: float = 0.0
    deterministic_time: float | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"nodes": self.nodes, "seconds": round(self.seconds, 6)}
        if self.deterministic_time is not None:
            out["deterministic_time"] = round(self.deterministic_time, 6)
        return out


@dataclass(frozen=True, slots=True)
class Closure:
    """The answer to "can this table be closed with these cards?".

    ``placements`` (when closable) lists the cards laid, in a legal order, leaving no exit.
    ``minimum`` is True only for a closable answer proven to use the fewest cards possible
    (never for impossible or unknown ones); ``reason`` says why in words. ``limits`` and
    ``max_cards`` record what the solver was allowed. ``goal`` is what the closure reaches
    (``"close"``, or a Bandida mode's ``"ladder"`` / ``"join"``: see
    :mod:`~banditsolve.tunnels.solvers.goals`); ``notes`` say how special cards were treated,
    and for a question asked of a game state, first, that the cards were its cards not yet
    played, and how many (BD-CLOSE-6: ``"the game's 59 cards not yet played: 6 in the hands,
    53 in the pile"``). ``at_least``, for an ``unknown`` answer: the fewest cards a closure
    within the budget may still have, as far as the search proved before it stopped (no
    closure of fewer exists; 0 when it proved nothing of the kind).
    """

    status: Status
    placements: tuple[Placement, ...] = ()
    reason: str = ""
    backend: str = "exact"
    stats: SearchStats = field(default_factory=SearchStats)
    minimum: bool = False
    limits: Limits = field(default_factory=Limits)
    max_cards: int | None = None
    goal: str = "close"
    notes: tuple[str, ...] = ()
    removals: tuple[Removal, ...] = ()
    at_least: int = 0
    #: What was asked, for the picture (``_repr_svg_``): the table, the cards to close it
    #: with and the play area (set by :func:`~banditsolve.tunnels.solvers.closure.can_close`
    #: and its kin; None for an answer made by hand). Not part of the answer's value.
    table: Table | None = field(default=None, compare=False, repr=False)
    pool: tuple[int, ...] = field(default=(), compare=False, repr=False)
    area: Bounds | None = field(default=None, compare=False, repr=False)

    def _repr_svg_(self) -> str:
        """The answer drawn (:func:`~banditsolve.tunnels.solvers.pictures.closure_svg`): the
        certificate numbered on the table with its legend, or the open exits and the
        reason."""
        from banditsolve.tunnels.solvers.pictures import closure_svg

        return closure_svg(self)

    @property
    def cards(self) -> int:
        """Number of cards of the certificate (the cards laid, maps and cards a map took off
        again included)."""
        return len(self.placements)

    def steps(self) -> tuple[Placement | Removal, ...]:
        """The certificate in play order: the placements, each map's removal right after it."""
        after = {r.after: r for r in self.removals}
        out: list[Placement | Removal] = [after[0]] if 0 in after else []
        for n, p in enumerate(self.placements, 1):
            out.append(p)
            if n in after:
                out.append(after[n])
        return tuple(out)

    def final(self, table: Table) -> Table:
        """``table`` after the certificate (its placements, and its maps' removals)."""
        t = table
        for step in self.steps():
            t = t.place(step) if isinstance(step, Placement) else rebuilt(t, step.cards)
        return t

    def to_json(self) -> dict[str, object]:
        """``{"status", "placements": [{"card", "x", "y", "rotation"}...], "reason", ...}``
        (and ``"goal"``, ``"notes"`` for a Bandida goal or special cards)."""
        out: dict[str, object] = {
            "status": self.status,
            "placements": [
                {"card": card_name(p.card), "x": p.x, "y": p.y, "rotation": p.rotation}
                for p in self.placements
            ],
            "reason": self.reason,
            "cards": len(self.placements),
            "minimum": self.minimum,
            **({"removals": [_removal_json(r) for r in self.removals]} if self.removals else {}),
            "backend": self.backend,
            "stats": self.stats.to_json(),
        }
        if self.goal != "close":
            out["goal"] = self.goal
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def to_answer(self, game: str = "bandido") -> Answer:
        """The shared answer shape: question ``"close"``; ``yes``/``"closable"`` with the
        placements as ``NAME@x,y,r`` texts (in a legal order) as the certificate,
        ``no``/``"impossible"`` with the reason, or ``unknown`` with the limit that ran out.
        ``details`` holds the card count and whether it is a proven minimum (for ``unknown``,
        ``at_least`` when the search proved that fewer cards cannot close it)."""
        closable = self.status == "closable"
        details: dict[str, object] = (
            {"cards": self.cards, "minimum": self.minimum} if closable else {}
        )
        if self.status == "unknown" and self.at_least > 1:
            details["at_least"] = self.at_least
        if self.goal != "close":
            details["goal"] = self.goal
        if self.notes:
            details["notes"] = list(self.notes)
        return Answer(
            game=game,
            question="close",
            status=ANSWER_STATUS[self.status],
            answer=self.status,
            reason=self.reason,
            certificate=[str(step) for step in self.steps()] if closable else None,
            limits={**self.limits.to_json(), "max_cards": self.max_cards},
            stats={**self.stats.to_json(), "backend": self.backend},
            details=details,
        )


def _removal_json(r: Removal) -> dict[str, object]:
    cards = [
        {"card": card_name(p.card), "x": p.x, "y": p.y, "rotation": p.rotation} for p in r.cards
    ]
    return {"after": r.after, "cards": cards}


def certify(
    table: Table, placements: Sequence[Placement], goal: str = "close"
) -> tuple[Placement, ...]:
    """Replay ``placements`` through the rules engine (each must be legal when laid) and check
    the goal on the final table (no exit left; for a Bandida goal also the ladder, the second
    super card and their junction); the placements, or :class:`IllegalActionError` for a
    solver bug."""
    t = table
    for p in placements:
        t = t.place(p)
    problem = goal_problem(t, goal)
    if problem is not None:
        if t.exit_count:
            raise IllegalActionError("internal error: a closure certificate leaves exits")
        raise IllegalActionError(f"internal error: a {goal} certificate fails: {problem}")
    return tuple(placements)


def settled(
    table: Table,
    cards: Sequence[int],
    bounds: Bounds | None,
    budget: int,
    required: Sequence[frozenset[int]],
    backend: str,
    stats: SearchStats,
) -> Closure | None:
    """The answer a search backend gives without searching, or None: a table without exits
    (closed, unless a required card is still missing: then nothing can be laid) and the
    reasons of :func:`~banditsolve.tunnels.solvers.bounds.static_reason`."""
    if not table.exit_count:
        if required:
            why = "the table is closed without a required card: no card can be laid"
            return Closure("impossible", (), why, backend, stats)
        return Closure("closable", (), "the table has no exit", backend, stats, True)
    reason = static_reason(table, cards, bounds, budget)
    if reason is not None:
        return Closure("impossible", (), reason, backend, stats)
    return None
