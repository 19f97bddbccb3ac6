"""Small text helpers shared by every game: plurals and short excerpts of user input."""

from __future__ import annotations

#: The most characters of user input an error message quotes.
EXCERPT = 40


def plural(n: int, word: str, words: str | None = None) -> str:
    """``plural(1, "card") == "1 card"``, ``plural(2, "card") == "2 cards"``."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters with ``...``."""
    one_line = text.replace("\n", "\\n").replace("\r", "\\r")
    if len(one_line) > limit:
        one_line = one_line[: limit - 3] + "..."
    return repr(one_line)
