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

The command line exits with the :class:`ExitStatus` of the answer: 0 yes, 1 no, 3 unknown
(2 is bad input). The exit statuses are defined here and nowhere else.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Literal

Status = Literal["yes", "no", "unknown"]


class ExitStatus(IntEnum):
    """Every exit status of the ``banditsolve`` command, defined once."""

    #: yes: safe, closable, a winning line, an exact answer (and any command that succeeded)
    YES = 0
    #: proven no: unsafe, impossible, lost
    NO = 1
    #: bad input or usage (one line on standard error)
    BAD_INPUT = 2
    #: unknown: a limit ran out before an answer was proven
    UNKNOWN = 3
    #: a bug in banditsolve itself (never bad input)
    INTERNAL = 70
    #: stopped by Ctrl-C (SIGINT)
    INTERRUPTED = 130
    #: stopped by SIGTERM
    TERMINATED = 143


#: Exit status of a query command by answer status.
EXIT_CODES: dict[str, ExitStatus] = {
    "yes": ExitStatus.YES,
    "no": ExitStatus.NO,
    "unknown": ExitStatus.UNKNOWN,
}


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
    def exit_code(self) -> ExitStatus:
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

    def _repr_html_(self) -> str:
        """A notebook's view: a small table of the game, the question, the status, the answer
        and the reason (every value escaped).

        >>> table = Answer("banditos", "claim", "no", "unsafe", "a <b> & c")._repr_html_()
        >>> "<td>a &lt;b&gt; &amp; c</td>" in table
        True
        """
        rows = (
            ("game", self.game),
            ("question", self.question),
            ("status", self.status),
            ("answer", self.answer),
            ("reason", self.reason),
        )
        body = "".join(
            f"<tr><th style=\"text-align:left\">{html.escape(name)}</th>"
            f"<td>{html.escape(str(value))}</td></tr>"
            for name, value in rows
        )
        return f'<table class="banditsolve-answer">{body}</table>'


@dataclass(frozen=True, slots=True)
class DemoItem:
    """One answer of a game's demo: a title, the text to show, the answer, the picture path."""

    title: str
    text: str
    answer: Answer | None = None
    svg: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "text": self.text,
            "answer": None if self.answer is None else self.answer.to_json(),
            "svg": self.svg,
        }
