"""Malformed JSON: wrong types, unknown and missing fields, deep nesting, huge numbers, NaN.

:func:`json_values` is any JSON value; :func:`broken_documents` mutates one valid document (a
dict) so that it is wrong in one place; :data:`HOSTILE_TEXTS` are JSON texts that attack the
parser itself (10,000 levels of nesting, a 5,000-digit number, NaN, Infinity).
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

#: Values of every JSON type, and some that are not JSON (for Python callers).
WRONG_VALUES: tuple[object, ...] = (
    None,
    True,
    False,
    0,
    -1,
    7,
    10**5000,
    -(10**5000),
    1.5,
    float("nan"),
    float("inf"),
    "",
    "x",
    "\x00",
    "🂡" * 3,
    [],
    [None],
    [[[]]],
    {},
    {"": None},
)

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)


def json_values(max_leaves: int = 20) -> st.SearchStrategy[Any]:
    """Any JSON value (nested lists and objects of scalars)."""
    return st.recursive(
        _scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)
        ),
        max_leaves=max_leaves,
    )


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indexes) to a value inside ``doc``, the root excluded."""
    out: list[tuple[Any, ...]] = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            out.append((*prefix, key))
            out.extend(paths(value, (*prefix, key)))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out.append((*prefix, i))
            out.extend(paths(value, (*prefix, i)))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def replaced(doc: Any, path: tuple[Any, ...], value: object) -> Any:
    """A deep copy of ``doc`` with the value at ``path`` replaced."""
    out = copy.deepcopy(doc)
    _parent(out, path)[path[-1]] = value
    return out


def removed(doc: Any, path: tuple[Any, ...]) -> Any:
    """A deep copy of ``doc`` without the value at ``path``."""
    out = copy.deepcopy(doc)
    parent = _parent(out, path)
    del parent[path[-1]]
    return out


def added(doc: Any, path: tuple[Any, ...], key: str, value: object) -> Any:
    """A deep copy of ``doc`` with an extra field ``key`` in the object at ``path``
    (or the root when ``path`` is empty or not an object)."""
    out = copy.deepcopy(doc)
    target = out
    for step in path:
        target = target[step]
    if not isinstance(target, dict):
        target = out
    if isinstance(target, dict):
        target[key] = value
    return out


def broken_documents(doc: dict[str, Any]) -> st.SearchStrategy[Any]:
    """``doc`` with one thing wrong: a value of the wrong type, a field removed, an unknown
    field added, or the whole document replaced by a non-object."""
    spots = paths(doc)
    wrong = st.one_of(st.sampled_from(WRONG_VALUES), json_values(8))
    choices: list[st.SearchStrategy[Any]] = [
        st.sampled_from(WRONG_VALUES),
        st.builds(added, st.just(doc), st.sampled_from([(), *spots]), st.text(max_size=12), wrong),
    ]
    if spots:
        choices.append(st.builds(replaced, st.just(doc), st.sampled_from(spots), wrong))
        choices.append(st.builds(removed, st.just(doc), st.sampled_from(spots)))
    return st.one_of(*choices)


def nested(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


#: JSON texts that attack the parser: deep nesting, huge numbers, constants JSON does not allow.
HOSTILE_TEXTS: tuple[str, ...] = (
    nested(10_000),
    '{"a":' * 10_000 + "1" + "}" * 10_000,
    "[" * 10_000,
    "1" + "0" * 5_000,
    "-" + "9" * 5_000,
    "1e999999",
    "0." + "1" * 5_000,
    "NaN",
    "Infinity",
    "-Infinity",
    '{"x": NaN}',
    '{"x": 1e400}',
    '{"x": ' + "1" * 5_000 + "}",
    '{"game": "x", "game": "y"}',
    "{",
    "}",
    '{"a": 1,}',
    "[1, 2",
    '"unterminated',
    '{"\\ud800": 1}',
    "{}",
    "[]",
    "null",
    "true",
    "0",
    '""',
)
