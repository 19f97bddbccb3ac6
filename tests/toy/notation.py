"""The toy's text forms: ``nim pile=7 players=2 to_move=1 rolled=0 taker=0 [last=loses]``
(options only where they differ from the defaults) and JSON, both ways. Readers build the
state and call ``rules.validate``."""

from __future__ import annotations

from typing import Any

from banditsolve.core.io import check_keys, expect_int, expect_object
from banditsolve.errors import NotationError, RuleOptionError
from tests.toy import rules
from tests.toy.state import OPTIONS, Options, State

_FIELDS = ("pile", "players", "to_move", "rolled", "taker")


def to_notation(state: State) -> str:
    fields = [f"{name}={getattr(state, name)}" for name in _FIELDS]
    changed = OPTIONS.changes({"pile": state.options.pile, "last": state.options.last})
    fields += [f"{k}={v}" for k, v in changed.items() if k != "pile"]
    fields.append(f"start={state.options.pile}")
    return "nim " + " ".join(fields)


def _options(values: dict[str, object]) -> Options:
    try:
        read = OPTIONS.read(values)
    except RuleOptionError as exc:
        raise NotationError(str(exc)) from None
    return Options(int(read["pile"]), str(read["last"]))


def from_notation(text: str) -> State:
    words = text.split()
    if not words or words[0] != "nim":
        raise NotationError("a Nim position starts with 'nim'")
    pairs = dict(word.partition("=")[::2] for word in words[1:])
    if set(_FIELDS) - set(pairs):
        raise NotationError(f"a Nim position has the fields {', '.join(_FIELDS)}")
    numbers = {}
    for name in _FIELDS:
        value = pairs.pop(name)
        if not value.lstrip("-").isdigit() or len(value) > 4:
            raise NotationError(f"{name}={value[:10]!r} is not a small whole number")
        numbers[name] = int(value)
    start = pairs.pop("start", "10")
    state = State(**numbers, options=_options({"pile": start, **pairs}))
    rules.validate(state)
    return state


def to_json(state: State) -> dict[str, Any]:
    return {
        "game": "nim",
        **{name: getattr(state, name) for name in _FIELDS},
        "options": {"pile": state.options.pile, "last": state.options.last},
    }


def from_json(document: Any) -> State:
    doc = expect_object(document, "a Nim document")
    check_keys(doc, "a Nim document", required=("game", *_FIELDS), optional=("options",))
    if doc["game"] != "nim":
        raise NotationError("not a Nim document")
    numbers = {name: expect_int(doc[name], name, -1, 99) for name in _FIELDS}
    state = State(**numbers, options=_options(expect_object(doc.get("options", {}), "options")))
    rules.validate(state)
    return state
