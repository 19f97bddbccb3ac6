"""User values shown in error messages: short, and safe for any input.

``repr`` of an int with more than 4,300 digits raises ``ValueError`` in Python 3.11+, so a huge
number is described by its size instead of being printed.

>>> shown(5), shown("r5"), shown(10**5000), shown([1] * 50)[:12]
('5', "'r5'", 'a 5001-digit number', '[1, 1, 1, 1,')
"""

from __future__ import annotations

import math

from banditsolve.core.limits import check_node_limit, check_time_limit
from banditsolve.errors import SolverError

#: The most characters of a value a message shows.
LIMIT = 40


def shown(value: object, limit: int = LIMIT) -> str:
    """``value`` for a message: its ``repr`` cut to ``limit`` characters, or the size of a huge
    number."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        digits = int(abs(value).bit_length() * math.log10(2)) + 1
        if abs(value) < 10 ** (digits - 1):
            digits -= 1
        return f"a {digits}-digit number"
    try:
        text = repr(value)
    except ValueError:  # pragma: no cover - a container holding a huge int
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def time_limit(value: object) -> float | None:
    """``core.limits.check_time_limit``, guarded against ints too large for a float."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        raise SolverError(f"the time limit of {shown(value)} seconds is more than a week")
    return check_time_limit(value)


def node_limit(value: object) -> int | None:
    """``core.limits.check_node_limit``, guarded against ints too large to print."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        raise SolverError(f"the node limit must be between 1 and 1e+12, not {shown(value)}")
    return check_node_limit(value)
