"""Rule options, the same way in every game: one spec per option, one parser, one spelling.

Where the rulebooks are silent or disagree, a game names the readings and makes each a rule
option. Every option is one :class:`OptionSpec`: its name, its values, the default and the
reason for it (the seed's sentence, or ours), and the rule IDs it belongs to. A game's options
are an :class:`OptionSet`, and everything that reads or lists options goes through it: the
Python keywords (``new_game(options={...})``), ``--option NAME=VALUE`` on the command line, the
JSON and notation forms, ``play --help`` and the documentation.

One spelling: names and text values are lower-case words joined by underscores
(``trunk_count=at_least``), so a name is also a Python identifier. Spellings used before
(``trunk-count=at-least``) are still read, each with a one-line deprecation note
(:class:`DeprecatedSpelling`, a :class:`FutureWarning`), and never written.

>>> proof = OptionSpec("proof", ("strict", "bag"), "strict", "the cautious reading", ("LB-OPT-1",))
>>> rules = OptionSet("Los Banditos", (proof,))
>>> rules.read({"proof": "bag"})
{'proof': 'bag'}
>>> rules.read(None)
{'proof': 'strict'}
>>> rules.names()
{'proof': ('strict', 'bag')}
>>> rules.changes({"proof": "bag"})
{'proof': 'bag'}
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Literal, Self

from banditsolve.core.limits import MAX_VALUE_LENGTH
from banditsolve.core.text import excerpt, shown
from banditsolve.errors import ArgumentTypeError, RuleOptionError, RuleOptionTypeError

#: The most characters of option names a refusal of an unknown option lists.
LISTED = 150

#: What an option's value is in Python: text, or a whole number written in digits.
Kind = Literal["text", "int"]



class DeprecatedSpelling(FutureWarning):
    """An option name or value was given in a spelling that is still read but no longer
    written. The message is one line naming the old and the new spelling."""


#: The warnings registry of the deprecation notes: under Python's default filter each note is
#: shown once per process (a filter such as ``always`` shows it every time).
_REGISTRY: dict[str | tuple[str, type[Warning], int], int] = {}


def deprecated(old: str, new: str) -> None:
    """Report that ``old`` is read as ``new``: a :class:`DeprecatedSpelling` warning, one line
    (the command line prints it as ``banditsolve: warning: ...``)."""
    message = f"{old} is an old spelling, read as {new}; write {new}"
    # No source line to show: Python prints the warning as one line.
    warnings.warn_explicit(
        message, DeprecatedSpelling, "banditsolve", 0, module="banditsolve", registry=_REGISTRY
    )


def _is_word(text: str) -> bool:
    return bool(text) and text.replace("_", "a").isalnum() and text.isascii()


def listed_names(names: Sequence[str]) -> str:
    """Names for a refusal, the first of them up to :data:`LISTED` characters and how many
    more (a refusal is one line of a bounded length, whatever it quotes)."""
    listed = ", ".join(names) or "none"
    if len(listed) <= LISTED:
        return listed
    shown_names = listed[:LISTED].rsplit(", ", 1)[0].split(", ")
    return f"{', '.join(shown_names)} and {len(names) - len(shown_names)} more"


class KnownKeywords:
    """A base of a game's options dataclass: a keyword that names none of its fields, more
    values by position than it has fields, or a field given both ways, is refused with the
    library's error (:class:`~banditsolve.errors.RuleOptionTypeError`, a :class:`TypeError`
    too, as Python's own), naming the options there are."""

    __slots__ = ()

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        names: list[str] = [f.name for f in fields(cls)] if is_dataclass(cls) else []
        if len(args) > len(names):
            raise RuleOptionTypeError(
                f"{cls.__name__} takes at most {len(names)} rule options by position, not"
                f" {len(args)} (options: {listed_names(names)})"
            )
        for key in kwargs:
            if key not in names:
                raise RuleOptionTypeError(
                    f"unknown rule option {excerpt(key)} of {cls.__name__} (options:"
                    f" {listed_names(names)})"
                )
            if key in names[: len(args)]:
                raise RuleOptionTypeError(
                    f"rule option {key} of {cls.__name__} given twice (by position and by name)"
                )
        return super().__new__(cls)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option: everything anyone needs to know about it, said once.

    - ``name``: its one spelling (an identifier).
    - ``values``: the values listed, as text; ``default`` is one of them.
    - ``reason``: why the default (a seed's sentence in our words, or our argument).
    - ``rules``: the rule IDs of the ``specs/`` file that the option belongs to.
    - ``kind``: ``"text"``, or ``"int"`` for a whole number (given as an int or in digits).
    - ``check``: for an option whose values are not all listed (a table size ``WxH``): called
      with a value not in ``values``; it raises :class:`RuleOptionError` with the reason, or
      returns to accept the value.
    - ``old_names``, ``old_values``: spellings read with a deprecation note (old -> new).
    """

    name: str
    values: tuple[str, ...]
    default: str
    reason: str
    rules: tuple[str, ...] = ()
    kind: Kind = "text"
    check: Callable[[str], None] | None = field(default=None, compare=False)
    old_names: tuple[str, ...] = ()
    old_values: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not _is_word(self.name) or self.name != self.name.lower():
            raise ValueError(f"option name {self.name!r} is not a lower-case identifier")
        if self.default not in self.values:
            raise ValueError(f"option {self.name}: the default {self.default!r} is not listed")
        if len(set(self.values)) != len(self.values):
            raise ValueError(f"option {self.name}: a value is listed twice")
        if self.kind == "int" and not all(v.isdigit() for v in self.values):
            raise ValueError(f"option {self.name}: a whole-number option lists digits")

    def listed(self) -> tuple[str, ...]:
        """The values listed, the default first."""
        return (self.default, *(v for v in self.values if v != self.default))

    def parse(self, value: object) -> str | int:
        """``value`` as this option's Python value (text, or an int for ``kind="int"``).

        Text is read with surrounding blanks stripped; an old spelling of a value is read with a
        deprecation note. Anything else is refused with :class:`RuleOptionError`, one line
        naming the option and its values."""
        text = self._text_of(value)
        if text not in self.values and text in dict(self.old_values):
            new = dict(self.old_values)[text]
            deprecated(f"{self.name}={text}", f"{self.name}={new}")
            text = new
        if text not in self.values:
            if self.check is None:
                raise RuleOptionError(
                    f"option {self.name} takes one of {', '.join(self.listed())}, not "
                    f"{excerpt(text)}"
                )
            self.check(text)
        return int(text) if self.kind == "int" else text

    def _text_of(self, value: object) -> str:
        if self.kind == "int" and isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value < 10**6:
                raise RuleOptionError(
                    f"option {self.name} takes one of {', '.join(self.listed())}, not "
                    f"{shown(value)}"
                )
            return str(value)
        if not isinstance(value, str):
            kind = "a whole number" if self.kind == "int" else "text"
            raise RuleOptionTypeError(
                f"option {self.name} takes {kind} ({', '.join(self.listed())}), not "
                f"{shown(value)}"
            )
        if len(value) > MAX_VALUE_LENGTH:
            raise RuleOptionError(f"option {self.name}: the value {excerpt(value)} is too long")
        return value.strip()

    def text(self, value: object) -> str:
        """A value of this option as the text that :meth:`parse` reads back."""
        return str(value)

    def help(self) -> str:
        """One line for ``--help`` and the docs: the values (default first), the reason and
        the rule IDs."""
        rules = f" [{', '.join(self.rules)}]" if self.rules else ""
        more = ", or any other value the option takes" if self.check is not None else ""
        return f"{self.name}: {', '.join(self.listed())}{more} (default {self.default}: " \
            f"{self.reason}){rules}"


@dataclass(frozen=True, slots=True)
class OptionSet:
    """A game's rule options, in a fixed order, and the one parser of them.

    ``game`` is the game's title (for messages)."""

    game: str
    specs: tuple[OptionSpec, ...]

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for spec in self.specs:
            for name in (spec.name, *spec.old_names):
                if name in seen:
                    raise ValueError(f"{self.game}: option name {name!r} is used twice")
                seen.add(name)

    # -- looking up ------------------------------------------------------------------------------

    def __iter__(self) -> Iterator[OptionSpec]:
        return iter(self.specs)

    def __contains__(self, name: object) -> bool:
        return any(name == s.name for s in self.specs)

    def spec(self, name: object) -> OptionSpec:
        """The option called ``name`` (an old spelling of the name too, with a deprecation
        note); an unknown name is refused, naming the options there are."""
        if isinstance(name, str):
            key = name.strip()
            for spec in self.specs:
                if key == spec.name:
                    return spec
            for spec in self.specs:
                if key in spec.old_names:
                    deprecated(f"option {key}", f"option {spec.name}")
                    return spec
        what = excerpt(name) if isinstance(name, str) else shown(name)
        raise RuleOptionError(f"unknown {self.game} rule option {what} (options: {self._listed()})")

    def _listed(self) -> str:
        """The options' names for a refusal (:func:`listed_names`)."""
        return listed_names([s.name for s in self.specs])

    def names(self) -> dict[str, tuple[str, ...]]:
        """Each option's name and its listed values, the default first."""
        return {s.name: s.listed() for s in self.specs}

    def defaults(self) -> dict[str, str | int]:
        """Each option's default, as its Python value."""
        return {s.name: s.parse(s.default) for s in self.specs}

    # -- reading ---------------------------------------------------------------------------------

    def read(
        self, values: Mapping[str, object] | None, base: Mapping[str, object] | None = None
    ) -> dict[str, str | int]:
        """Every option's Python value: ``base`` (default: the defaults) with ``values`` over
        it. Unknown names, values an option does not take and a name given twice (under two
        spellings) are refused with one line."""
        out: dict[str, str | int] = dict(self.defaults() if base is None else self._all(base))
        if values is None:
            return out
        if not isinstance(values, Mapping):
            raise ArgumentTypeError(
                f"{self.game} rule options are a mapping of name to value, not {shown(values)}"
            )
        given: set[str] = set()
        for name, value in values.items():
            spec = self.spec(name)
            if spec.name in given:
                raise RuleOptionError(f"option {excerpt(spec.name)} is given twice")
            given.add(spec.name)
            out[spec.name] = spec.parse(value)
        return out

    def _all(self, base: Mapping[str, object]) -> dict[str, str | int]:
        out = self.defaults()
        for name, value in base.items():
            out[self.spec(name).name] = self.spec(name).parse(value)
        return out

    def read_items(self, items: Sequence[str]) -> dict[str, str | int]:
        """``NAME=VALUE`` texts (``--option`` on the command line) as a mapping of the options
        given, each checked; an item that is not ``NAME=VALUE`` or names an option twice is
        refused."""
        pairs: dict[str, object] = {}
        for name, value in option_pairs(items).items():
            spec = self.spec(name)
            if spec.name in pairs:
                raise RuleOptionError(f"option {excerpt(spec.name)} is given twice")
            pairs[spec.name] = value
        return {name: self.spec(name).parse(value) for name, value in pairs.items()}

    def check(self, values: Mapping[str, object]) -> None:
        """Refuse a mapping of Python values (a game's options object as a dict) holding a
        value an option does not take (:class:`RuleOptionError`)."""
        for name, value in values.items():
            spec = self.spec(name)
            whole = isinstance(value, int) and not isinstance(value, bool)
            if (spec.kind == "text" and not isinstance(value, str)) or (
                spec.kind == "int" and not whole
            ):
                kind = "a whole number" if spec.kind == "int" else "text"
                raise RuleOptionTypeError(
                    f"option {name} takes {kind} ({', '.join(spec.listed())}), not {shown(value)}"
                )
            if spec.parse(value) != value:
                raise RuleOptionError(f"option {name} cannot be {shown(value)}")

    # -- writing ---------------------------------------------------------------------------------

    def changes(
        self, values: Mapping[str, object], base: Mapping[str, object] | None = None
    ) -> dict[str, str]:
        """The options of ``values`` that differ from ``base`` (default: the defaults), as text,
        in the set's order."""
        ref = self.defaults() if base is None else self._all(base)
        return {
            s.name: s.text(values[s.name])
            for s in self.specs
            if s.name in values and values[s.name] != ref[s.name]
        }

    # -- variants --------------------------------------------------------------------------------

    def with_defaults(self, game: str, defaults: Mapping[str, str]) -> OptionSet:
        """The same options for another game (``game``, its title) whose defaults differ."""
        specs = tuple(
            replace(s, default=defaults[s.name]) if s.name in defaults else s for s in self.specs
        )
        return OptionSet(game, specs)

    def extended(self, game: str, specs: Sequence[OptionSpec]) -> OptionSet:
        """These options and ``specs`` for another game: a spec of the same name replaces the
        one here (in its place), the others come last."""
        new = {s.name: s for s in specs}
        mine = tuple(new.pop(s.name, s) for s in self.specs)
        return OptionSet(game, (*mine, *new.values()))

    def help(self) -> str:
        """The options for ``--help``: one line each (:meth:`OptionSpec.help`)."""
        return "\n".join(s.help() for s in self.specs)


def option_pairs(items: Sequence[str]) -> dict[str, str]:
    """``NAME=VALUE`` texts (``--option`` on the command line) as a mapping of names to values,
    unchecked but for their form: an item that is not ``NAME=VALUE``, or a name given twice, is
    refused (:class:`RuleOptionError`)."""
    pairs: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise RuleOptionError(f"option {excerpt(item)} is not of the form NAME=VALUE")
        if name in pairs:
            raise RuleOptionError(f"option {excerpt(name)} is given twice")
        pairs[name] = value
    return pairs
