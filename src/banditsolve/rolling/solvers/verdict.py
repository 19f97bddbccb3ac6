"""The answer to "is wagon W provably mine?" (RB-SAFE-1), whichever method found it: the exact
search and the plain enumeration (:mod:`.safety`) or the CP-SAT and Z3 models (:mod:`.models`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from banditsolve.core.answer import Answer


@dataclass(frozen=True, slots=True)
class Safety:
    """The verdict: ``safe`` True/False, or ``None`` when a limit ran out."""

    position: str
    player: int
    wagon: int
    safe: bool | None
    reason: str
    counterexample: tuple[str, ...] = ()
    nodes: int = 0
    method: str = "exact"
    limits: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "player": self.player,
            "wagon": self.wagon,
            "safe": self.safe,
            "reason": self.reason,
            "counterexample": list(self.counterexample),
            "nodes": self.nodes,
            "method": self.method,
        }

    def explain(self) -> str:
        if self.safe is False:
            return f"{self.reason}: {'; '.join(self.counterexample)}"
        return self.reason

    def svg(self) -> str:
        """The verdict on the train, a counterexample's steps numbered, as an SVG picture
        (:func:`.pictures.safety_svg`)."""
        from banditsolve.rolling.solvers.pictures import safety_svg

        return safety_svg(self)

    def ascii(self) -> str:
        """The same picture in text (:func:`.pictures.safety_ascii`)."""
        from banditsolve.rolling.solvers.pictures import safety_ascii

        return safety_ascii(self)

    def _repr_svg_(self) -> str:
        """Jupyter's rich display: :meth:`svg`."""
        return self.svg()

    def to_answer(self) -> Answer:
        stats = {"nodes": self.nodes, "method": self.method}
        if self.safe is None:
            return Answer(
                "rolling", "safe", "unknown", "unknown", self.reason, None, self.limits, stats
            )
        if self.safe:
            return Answer("rolling", "safe", "yes", "safe", self.reason, None, self.limits, stats)
        return Answer(
            "rolling",
            "safe",
            "no",
            "unsafe",
            self.reason,
            list(self.counterexample),
            self.limits,
            stats,
        )
