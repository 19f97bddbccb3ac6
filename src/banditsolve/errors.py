"""The one exception hierarchy of the library.

Every error the library raises on bad input is a :class:`BanditsolveError`, which is a
:class:`ValueError`, so callers can catch either. Messages say what was wrong and where.
"""

from __future__ import annotations


class BanditsolveError(ValueError):
    """Base class of every error raised by banditsolve on bad input or an illegal request."""


class NotationError(BanditsolveError):
    """A position, die, card or action string (or JSON document) could not be read."""


class IllegalActionError(BanditsolveError):
    """An action is not legal in the given state; the state is left unchanged."""


class RuleOptionError(BanditsolveError):
    """An unknown rule option or an option value outside its allowed set."""


class DataError(BanditsolveError):
    """Component data (a deck file, an edition file) is malformed."""


class ArgumentTypeError(BanditsolveError, TypeError):
    """An argument of the wrong type: also a :class:`TypeError` (and, as every error of the
    library, a :class:`ValueError`)."""


class RuleOptionTypeError(RuleOptionError, ArgumentTypeError):
    """A rule option given as a Python value of the wrong type, or a keyword that names no
    option: also a :class:`TypeError`, as Python's own for an unknown keyword."""


class SolverError(BanditsolveError):
    """A solver was asked something it cannot answer (unknown backend, bad limits)."""


class MissingExtraError(BanditsolveError, ImportError):
    """A feature needs a package of one of banditsolve's optional extras that is not installed
    (also an :class:`ImportError`, whose ``name`` is the missing package). The message names
    the extra and the command that installs it; the command line prints it and exits 2."""

    def __init__(self, feature: str, package: str, extra: str) -> None:
        super().__init__(
            f"{feature} needs the package {package}, of banditsolve's optional extra "
            f"'{extra}', which is not installed: pip install 'banditsolve[{extra}]'"
        )
        self.name = package
        self.extra = extra


class InternalError(RuntimeError):
    """A bug in banditsolve itself (an invariant broke), never the caller's fault.

    Deliberately not a :class:`ValueError`: callers that catch bad-input errors must not swallow
    it. The command line reports it as a bug, with a hint to file an issue.
    """
