"""Checks of a public function's arguments: a wrong type is an
:class:`~banditsolve.errors.ArgumentTypeError` (also a :class:`TypeError`), a wrong value of
the right type the caller's error class (a :class:`~banditsolve.errors.SolverError` unless
told), each in one line naming the argument.

>>> expect_choice("fast", ("exact", "fast"), "method")
'fast'
>>> try:
...     expect_whole(2.5, "the seed")
... except TypeError as exc:
...     print(exc)
the seed must be a whole number, not 2.5
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import math
import os
import types
from collections.abc import Callable, Iterable
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from banditsolve.core.text import shown
from banditsolve.errors import ArgumentTypeError, BanditsolveError, RuleOptionError, SolverError

T = TypeVar("T", bound=str)


def expect_whole(
    value: object,
    what: str,
    low: int | None = None,
    high: int | None = None,
    error: type[BanditsolveError] = SolverError,
) -> int:
    """``value`` if it is an int (not a bool) within ``low..high`` (either end may be open)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{what} must be a whole number, not {shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            bounds = f"at least {low}"
        elif low is None:
            bounds = f"at most {high}"
        else:
            bounds = f"from {low} to {high}"
        raise error(f"{what} must be a whole number {bounds}, not {shown(value)}")
    return value


def expect_choice(
    value: object,
    choices: Iterable[T],
    what: str,
    error: type[BanditsolveError] = SolverError,
) -> T:
    """``value`` if it is one of the words ``choices``; ``what`` names the argument."""
    names = tuple(choices)
    if not isinstance(value, str):
        raise ArgumentTypeError(
            f"the {what} must be one of {', '.join(names)} (text), not {shown(value)}"
        )
    for name in names:
        if value == name:
            return name
    raise error(f"unknown {what} {shown(value)}: expected one of {', '.join(names)}")


def expect_flag(value: object, what: str) -> bool:
    """``value`` if it is ``True`` or ``False``."""
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{what} must be True or False, not {shown(value)}")
    return value


def expect_players(value: object, title: str, low: int, high: int) -> int:
    """``value`` as a player count of the game ``title`` (played by ``low`` to ``high``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"a player count is a whole number, not {shown(value)}")
    if not low <= value <= high:
        span = f"{low}" if low == high else f"{low} to {high}"
        raise RuleOptionError(f"{title} is played by {span} players, not {shown(value)}")
    return value


def expect_path(
    value: object, what: str, error: type[BanditsolveError] = SolverError
) -> str | os.PathLike[str]:
    """``value`` if it is a path: text or an :class:`os.PathLike`, not empty."""
    if isinstance(value, os.PathLike):
        if not isinstance(os.fspath(value), str):
            raise ArgumentTypeError(f"{what} must be a text path, not {shown(value)}")
        return value
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{what} must be a path (text), not {shown(value)}")
    if not value.strip():
        raise error(f"{what} must be a path, not empty text")
    return value


def expect_seconds(value: object, what: str, error: type[BanditsolveError] = SolverError) -> float:
    """``value`` as a positive, finite number of seconds."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentTypeError(f"{what} must be a number of seconds, not {shown(value)}")
    seconds = float(value)
    if not math.isfinite(seconds) or seconds <= 0:
        raise error(f"{what} must be a positive number of seconds, not {shown(value)}")
    return seconds


# -- A typed boundary: a public function's arguments checked against its type hints. ----------

F = TypeVar("F", bound=Callable[..., Any])
#: The most items of a list or tuple argument whose types are checked one by one (a longer one
#: is checked on its first items; the function's own checks see the rest).
CHECKED_ITEMS = 1000


def accepts(value: object, hint: object) -> bool:
    """Whether ``value`` is of the type ``hint`` as far as a boundary can tell without
    consuming it: classes, ``None``, unions, literals (their values' types), ``Callable``, and
    containers (a list or tuple's items checked, an iterator's not). ``int`` and ``float`` refuse
    ``bool``; ``float`` takes an ``int``. What cannot be checked is accepted."""
    if hint is Any or hint is object:
        return True
    if hint is None or hint is type(None):
        return value is None
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        return any(accepts(value, arm) for arm in get_args(hint))
    if origin is Literal:
        return any(type(value) is type(choice) for choice in get_args(hint))
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is not None:
        return _accepts_generic(value, origin, get_args(hint))
    return _accepts_plain(value, hint)


def _accepts_plain(value: object, hint: object) -> bool:
    """:func:`accepts` for a hint that is no generic alias: a type variable (its bound), a
    ``NewType`` (its supertype) or a class; anything else is accepted."""
    if isinstance(hint, TypeVar):
        return hint.__bound__ is None or accepts(value, hint.__bound__)
    supertype = getattr(hint, "__supertype__", None)  # a NewType
    if supertype is not None:
        return accepts(value, supertype)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _accepts_generic(value: object, origin: Any, params: tuple[Any, ...]) -> bool:
    if origin is collections.abc.Callable:
        return callable(value)
    if not isinstance(origin, type):
        return True
    try:
        if not isinstance(value, origin):
            return False
    except TypeError:  # a generic alias isinstance cannot test
        return True
    if isinstance(value, str | bytes | bytearray) and not (params and params[0] is str):
        return not params  # text is no list of cards or numbers
    if isinstance(value, collections.abc.Mapping) and not issubclass(
        origin, collections.abc.Mapping
    ):
        return False  # a mapping iterates over its keys: never what a list is meant to hold
    if not params or not isinstance(value, list | tuple):
        return True
    return _accepts_items(value, origin, params)


def _accepts_items(
    value: list[Any] | tuple[Any, ...], origin: type, params: tuple[Any, ...]
) -> bool:
    """Whether a list or tuple's first :data:`CHECKED_ITEMS` items are of the types ``params``
    name: a fixed tuple's one by one (and its length), any other container's all of the first."""
    items = value[:CHECKED_ITEMS]
    if origin is tuple and not (len(params) == 2 and params[1] is Ellipsis):
        return len(value) == len(params) and all(
            accepts(item, hint) for item, hint in zip(items, params, strict=False)
        )
    return all(accepts(item, params[0]) for item in items)


def _hints(function: Callable[..., Any]) -> dict[str, object]:
    """Each parameter's type hint that resolves (a name imported only for type checkers does
    not, and is not checked)."""
    inner = inspect.unwrap(function)  # a decorated function's hints name its own module's types
    namespace = dict(getattr(inner, "__globals__", {}))
    out: dict[str, object] = {}
    for name, text in inspect.get_annotations(inner).items():
        if name == "return":
            continue
        try:
            out[name] = eval(text, namespace) if isinstance(text, str) else text
        except Exception:
            continue
    return out


Test = Callable[[object], bool]


def _test(hint: object) -> Test:
    """``hint`` as a predicate, made once: a class, or a union of classes (``None`` among
    them), is one ``isinstance`` call (a ``bool`` refused where only ``int`` or ``float``
    is meant); anything else goes through :func:`accepts`."""
    arms = get_args(hint) if get_origin(hint) in (Union, types.UnionType) else (hint,)
    classes = tuple(type(None) if arm is None else arm for arm in arms)
    if not all(isinstance(c, type) and not get_args(c) for c in classes) or object in classes:
        return lambda value: accepts(value, hint)
    if float in classes:
        classes = (*classes, int)
    if bool in classes or not any(c in (int, float) for c in classes):
        return lambda value: isinstance(value, classes)
    return lambda value: isinstance(value, classes) and not isinstance(value, bool)


def checked(function: F) -> F:
    """``function`` with its arguments checked against its type hints first: an argument of
    the wrong type is refused with an :class:`ArgumentTypeError` naming it and the function.
    Wraps a public function once, at the package boundary; the library's own calls go to the
    function itself. Each hint becomes a predicate once (:func:`_test`); a call binds its
    arguments by position and name (the signature's full binding only to word an error)."""
    signature = inspect.signature(function)
    hints = _hints(function)
    tests = {parameter: _test(hint) for parameter, hint in hints.items()}
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = signature.parameters.values()
    positional = tuple(p.name for p in params if p.kind in kinds)
    in_order = tuple((p, tests.get(p)) for p in positional)
    required = tuple(
        (i, p.name) for i, p in enumerate(params)
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    )
    name = function.__name__

    def refuse(parameter: str, value: object) -> ArgumentTypeError:
        shown_hint = _shown_hint(hints[parameter])
        return ArgumentTypeError(f"{name}(): {parameter} must be {shown_hint}, not {shown(value)}")

    @functools.wraps(function)
    def boundary(*args: Any, **kwargs: Any) -> Any:
        if len(args) > len(positional) or any(
            i >= len(args) and p not in kwargs for i, p in required
        ) or not all(key in tests or key in signature.parameters for key in kwargs):
            try:
                signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise ArgumentTypeError(f"{name}(): {exc}") from None
        for value, (parameter, test) in zip(args, in_order, strict=False):
            if test is not None and not test(value):
                raise refuse(parameter, value)
        for parameter, value in kwargs.items():
            test = tests.get(parameter)
            if test is not None and not test(value):
                raise refuse(parameter, value)
        return function(*args, **kwargs)

    return boundary  # type: ignore[return-value]


def _shown_hint(hint: object) -> str:
    """A type hint in words: ``Iterable[int | str] | None`` is "a list of int or str, or
    None"."""
    origin, params = get_origin(hint), get_args(hint)
    if hint is None or hint is type(None):
        return "None"
    if origin is Union or origin is types.UnionType:
        arms = [_shown_hint(arm) for arm in params]
        return ", ".join(arms[:-1]) + " or " + arms[-1]
    if origin is Literal:
        return "one of " + ", ".join(repr(choice) for choice in params)
    if origin is collections.abc.Callable:
        return "a function"
    return _shown_container(hint, origin, params)


def _shown_container(hint: object, origin: object, params: tuple[Any, ...]) -> str:
    """:func:`_shown_hint` for a hint that is no ``None``, union, literal or ``Callable``: a
    mapping, a tuple, a list of something, a class, or the hint's own words."""
    if isinstance(origin, type) and issubclass(origin, collections.abc.Mapping):
        return "a mapping"
    if origin is tuple and params and params[-1] is not Ellipsis:
        return f"a tuple of {len(params)} values"
    if isinstance(origin, type) and issubclass(origin, collections.abc.Iterable) and params:
        return f"a list of {_shown_hint(params[0]).replace(' or ', '/')}"
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "").replace("collections.abc.", "")
