"""Mutations of valid text (a notation, an action): characters deleted, duplicated, swapped or
inserted, numbers made huge or negative, the text cut short or repeated."""

from __future__ import annotations

import random
import re

from hypothesis import strategies as st

_NUMBER = re.compile(r"\d+")
#: Replacements for a number in a notation.
NUMBERS = ("-1", "0", "-0", "99", "4294967296", "9" * 5000, "1" * 40, "1.5", "1e9", "٣", "\uff10")


def delete(text: str, i: int, n: int) -> str:
    i %= max(len(text), 1)
    return text[:i] + text[i + n :]


def duplicate(text: str, i: int, n: int) -> str:
    i %= max(len(text), 1)
    return text[: i + n] + text[i : i + n] + text[i + n :]


def swap(text: str, i: int, j: int) -> str:
    if len(text) < 2:
        return text
    i, j = i % len(text), j % len(text)
    chars = list(text)
    chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


def insert(text: str, i: int, piece: str) -> str:
    i %= len(text) + 1
    return text[:i] + piece + text[i:]


def renumber(text: str, k: int, number: str) -> str:
    """The ``k``-th number (mod their count) of ``text`` replaced by ``number``."""
    found = list(_NUMBER.finditer(text))
    if not found:
        return text + number
    m = found[k % len(found)]
    return text[: m.start()] + number + text[m.end() :]


#: Pieces inserted by a mutation.
PIECES = [*list(" -/:|@,*=+{}[]\"'\\\t\n\x00#é0123456789"), "", "  ", "--", "::", "\u2028", "💥"]


def mutate(text: str, rng: random.Random) -> str:
    """``text`` changed in one to three places, chosen by ``rng`` (cheap: no strategy tree)."""
    for _ in range(rng.randint(1, 3)):
        i, j, n = rng.randrange(10_000), rng.randrange(10_000), rng.randint(1, 4)
        op = rng.randrange(7)
        if op == 0:
            text = delete(text, i, n)
        elif op == 1:
            text = duplicate(text, i, n)
        elif op == 2:
            text = swap(text, i, j)
        elif op == 3:
            text = insert(text, i, rng.choice(PIECES))
        elif op == 4:
            text = renumber(text, i, rng.choice(NUMBERS))
        elif op == 5:
            text = text[: i % max(len(text), 1)]
        else:
            text = " ".join([text] * rng.randint(2, 3))
    return text


def quick_mutations(text: str) -> st.SearchStrategy[str]:
    """:func:`mutate` driven by hypothesis (fast to draw; shrinks poorly)."""
    return st.builds(mutate, st.just(text), st.randoms(use_true_random=False))


def mutations(text: str) -> st.SearchStrategy[str]:
    """``text`` changed in one to three places (a strategy tree that shrinks well; slower to
    draw than :func:`quick_mutations`)."""
    index = st.integers(0, 10_000)
    pieces = st.one_of(
        st.sampled_from(list(" -/:|@,*=+{}[]\"'\\\t\n\x00#é0123456789")), st.text(max_size=4)
    )
    one = st.one_of(
        st.builds(delete, st.just(text), index, st.integers(1, 4)),
        st.builds(duplicate, st.just(text), index, st.integers(1, 4)),
        st.builds(swap, st.just(text), index, index),
        st.builds(insert, st.just(text), index, pieces),
        st.builds(renumber, st.just(text), index, st.sampled_from(NUMBERS)),
        st.builds(lambda t, n: t[:n], st.just(text), st.integers(0, max(len(text) - 1, 0))),
        st.builds(lambda t, n: " ".join([t] * n), st.just(text), st.integers(2, 3)),
    )
    return one.flatmap(
        lambda first: st.one_of(
            st.just(first),
            mutations_once(first),
        )
    )


def mutations_once(text: str) -> st.SearchStrategy[str]:
    index = st.integers(0, 10_000)
    return st.one_of(
        st.builds(delete, st.just(text), index, st.integers(1, 3)),
        st.builds(swap, st.just(text), index, index),
        st.builds(renumber, st.just(text), index, st.sampled_from(NUMBERS)),
    )
