"""Small text helpers shared by every game: plurals and short excerpts of user input."""

from __future__ import annotations

import math

#: The most characters of user input an error message quotes.
EXCERPT = 40


def plural(n: int, word: str, words: str | None = None) -> str:
    """``plural(1, "card") == "1 card"``, ``plural(2, "card") == "2 cards"``."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for an error message: its ``repr``, cut to ``limit`` characters with
    ``...`` (so control characters and line breaks never make it longer than that).

    >>> excerpt("claim 2")
    "'claim 2'"
    >>> len(excerpt("\\0" * 100)) <= EXCERPT
    True
    >>> print(excerpt("it's " * 9, 16))  # cut, and closed with the quote it opened with
    "it's it's i..."
    """
    quoted = repr(text)
    if len(quoted) > limit:
        quoted = quoted[: limit - 4] + "..." + quoted[0]
    return quoted


def digits(value: int) -> int:
    """How many decimal digits ``abs(value)`` has, without printing it (Python refuses to print
    ints of more than 4,300 digits)."""
    n = abs(value)
    if n < 10**15:
        return len(str(n))
    count = int(n.bit_length() * math.log10(2)) + 1
    return count - 1 if n < 10 ** (count - 1) else count


def shown(value: object, limit: int = EXCERPT) -> str:
    """Any value for an error message: its ``repr`` cut to ``limit`` characters, a huge number
    by its size.

    >>> shown(5), shown("r5"), shown(10**5000), shown([1] * 50)[:12]
    ('5', "'r5'", 'a 5001-digit number', '[1, 1, 1, 1,')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"a {digits(value)}-digit number"
    if isinstance(value, str):
        return excerpt(value, limit)
    try:
        text = repr(value)
    except ValueError:  # a container holding a huge int
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."
