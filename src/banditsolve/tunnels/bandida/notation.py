"""Bandida's game states as text and JSON (BA-NOTE-1): Bandido's notation and JSON with the game
name ``bandida`` and Bandida's own fields: ``sizes`` (each hand size), ``phase`` (the pending
effects, innermost last), ``actor`` (the alarm's drawer), ``out`` (cards out of the game),
``aside`` (cards an alarm set aside), ``left`` (cards it still discards), ``queue`` (players
still to discard), ``hold`` (players drawing nothing, BA-OPT-5), ``quiet`` (who laid a water
bottle) and ``top`` (the back seen on the unseen pile's top, BA-ALARM-1). Writers leave out the
fields at their neutral values (but ``sizes``).

The readers build the state; :meth:`~banditsolve.tunnels.bandida.rules.BandidaRules.validate`
checks it. A table after map removals may hold a card that joined only through a removed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from banditsolve.core.io import json_type
from banditsolve.core.limits import MAX_HAND
from banditsolve.errors import NotationError
from banditsolve.tunnels.bandida.rules import expect, rules_for
from banditsolve.tunnels.bandida.state import BandidaOptions, BandidaState
from banditsolve.tunnels.cards import Deck, card_name, names_map
from banditsolve.tunnels.notation import StateForm, StateParts, parse_cards
from banditsolve.tunnels.notation.positions import expect_int, number, run_list, runs
from banditsolve.tunnels.notation.states import numbers
from banditsolve.tunnels.state import MAX_PLAYERS, GameState

#: Bandida's own fields of a game state (notation words and JSON keys alike).
BANDIDA_FIELDS = (
    "sizes", "phase", "actor", "out", "aside", "left", "queue", "hold", "quiet", "top",
)
#: The most cards an alarm discards from the pile (BA-ALARM-5).
MAX_LEFT = 5
_LAST = MAX_PLAYERS - 1


def words(state: GameState) -> list[str]:
    """Bandida's fields as notation words (neutral values left out, but ``sizes``)."""
    s = expect(state)
    out = ["sizes=" + ",".join(map(str, s.sizes))]
    optional = (
        ("phase", ",".join(s.phase)),
        ("actor", str(s.actor) if s.actor else ""),
        ("out", runs(s.discard)),
        ("aside", runs(s.aside)),
        ("left", str(s.left) if s.left else ""),
        ("queue", ",".join(map(str, s.queue))),
        ("hold", ",".join(map(str, s.hold))),
        ("quiet", str(s.quiet) if s.quiet >= 0 else ""),
        ("top", s.top),
    )
    out.extend(f"{key}={value}" for key, value in optional if value)
    return out


def to_json(state: GameState) -> dict[str, Any]:
    """Bandida's fields as JSON (every one)."""
    s = expect(state)
    return {
        "sizes": list(s.sizes),
        "phase": list(s.phase),
        "actor": s.actor,
        "out": [card_name(c) for c in s.discard],
        "aside": [card_name(c) for c in s.aside],
        "left": s.left,
        "queue": list(s.queue),
        "hold": list(s.hold),
        "quiet": s.quiet,
        "top": s.top,
    }


def from_words(found: Mapping[str, str]) -> dict[str, Any]:
    """Bandida's fields from the notation words (types and ranges only; the rules check)."""
    return {
        "sizes": numbers(found.get("sizes", ""), "sizes", MAX_HAND),
        "phase": [p for p in found.get("phase", "").split(",") if p],
        "actor": number(found.get("actor", "0"), "actor", "game state", 0, _LAST),
        "out": run_list(found.get("out", ""), "cards out of the game"),
        "aside": run_list(found.get("aside", ""), "cards set aside"),
        "left": number(found.get("left", "0"), "left", "game state", 0, MAX_LEFT),
        "queue": numbers(found.get("queue", ""), "queue", _LAST),
        "hold": numbers(found.get("hold", ""), "hold", _LAST),
        "quiet": number(found.get("quiet", "-1"), "quiet", "game state", -1, _LAST),
        "top": found.get("top", ""),
    }


def from_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """Bandida's fields from a JSON document (types and ranges only; the rules check)."""
    out: dict[str, Any] = {}
    for key in ("sizes", "phase", "out", "aside", "queue", "hold"):
        value = data.get(key, [])
        if not isinstance(value, list):
            raise NotationError(f"'{key}' must be a list, not {json_type(value)}")
        for item in value:
            if key in ("phase", "out", "aside"):
                if not isinstance(item, str):
                    raise NotationError(f"'{key}' must list names, not {json_type(item)}")
            else:
                expect_int(item, f"'{key}'", 0, MAX_HAND if key == "sizes" else _LAST)
        out[key] = value
    out["actor"] = expect_int(data.get("actor", 0), "'actor'", 0, _LAST)
    out["left"] = expect_int(data.get("left", 0), "'left'", 0, MAX_LEFT)
    out["quiet"] = expect_int(data.get("quiet", -1), "'quiet'", -1, _LAST)
    top = data.get("top", "")
    if not isinstance(top, str):
        raise NotationError(f"'top' must be \"alarm\", \"plain\" or \"\", not {json_type(top)}")
    out["top"] = top
    return out


def make(state: GameState, extra: Mapping[str, Any], deck: Deck) -> BandidaState:
    """The Bandida state of Bandido's fields ``state`` and Bandida's ``extra`` (the rules of
    ``deck`` as its variant)."""
    options = state.options
    if not isinstance(options, BandidaOptions):
        raise NotationError("a Bandida state has Bandida's options")
    return BandidaState(
        state.table,
        state.hands,
        state.unseen,
        state.pile,
        state.player,
        state.to_draw,
        options,
        state.changed,
        state.outcome,
        state.reason,
        state.turn,
        variant=rules_for(deck),
        sizes=tuple(extra.get("sizes", ())),
        phase=tuple(extra.get("phase", ())),
        actor=extra.get("actor", 0),
        discard=tuple(sorted(parse_cards(extra.get("out", []), "cards out of the game"))),
        aside=tuple(sorted(parse_cards(extra.get("aside", []), "cards set aside"))),
        left=extra.get("left", 0),
        queue=tuple(extra.get("queue", ())),
        hold=tuple(sorted(set(extra.get("hold", ())))),
        quiet=extra.get("quiet", -1),
        top=extra.get("top", ""),
    )


def removed(parts: StateParts) -> bool:
    """Whether a map may have taken cards off the table (one is laid or out of the game): a
    card may then have joined the tunnels only through a card no longer there."""
    out = (parts.extra or {}).get("out", [])
    return any(names_map(n) for n in out) or any(names_map(i[0]) for i in parts.items[1:])


#: Bandida's game states.
FORM = StateForm(
    "bandida",
    BandidaOptions,
    BANDIDA_FIELDS,
    words=words,
    json=to_json,
    from_words=from_words,
    from_json=from_json,
    make=make,
    removed=removed,
)
