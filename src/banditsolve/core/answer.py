"""The one shape of every solver answer, for Python and for the command line.

Every question a game answers (is this claim safe, can this tunnel close, is this wagon mine,
what is the best turn) comes back as an :class:`Answer`:

- ``status``: ``"yes"`` (with a certificate), ``"no"`` (with a reason: a proof), or
  ``"unknown"`` (a limit ran out first; the reason says which).
- ``answer``: the game's own word for it (``"safe"``, ``"unsafe"``, ``"closable"``, ...).
- ``certificate``: a JSON value that proves a *yes* (or a counterexample that proves a *no*,
  where the question is a "for all" one), ``None`` otherwise.
- ``reason``: one sentence in words.
- ``limits`` and ``stats``: what the solver was allowed and what it spent.

The command line exits with :data:`EXIT_CODES`: 0 yes, 1 no, 3 unknown (2 is bad input).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["yes", "no", "unknown"]

#: Exit status of a query command by answer status; 2 is reserved for bad input or usage.
EXIT_CODES: dict[str, int] = {"yes": 0, "no": 1, "unknown": 3}
EXIT_BAD_INPUT = 2


@dataclass(frozen=True, slots=True)
class Answer:
    """A solver's answer in the shape shared by every game (see the module notes)."""

    game: str
    question: str
    status: Status
    answer: str
    reason: str
    certificate: Any = None
    limits: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in EXIT_CODES:
            raise ValueError(f"status must be yes, no or unknown, not {self.status!r}")

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "question": self.question,
            "status": self.status,
            "answer": self.answer,
            "reason": self.reason,
            "certificate": self.certificate,
            "limits": self.limits,
            "stats": self.stats,
            **({"details": self.details} if self.details else {}),
        }
