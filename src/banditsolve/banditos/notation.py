"""Positions as one line of text and as JSON (rule LB-NOTE-1), both round-tripping.

One-line notation, four space-separated fields and then the rule options that differ from
the default::

    ROW STACK WON TURN [proof=bag] [unplaceable=return]

- ``ROW``: the four slots joined by ``/``. A slot is ``-`` (empty) or ``V:MINE0:MINE1``: the
  tile value, then player 0's and player 1's dice written without spaces (``3:r5r5k6:g2``).
- ``STACK``: the face-down tiles' values in ascending order (``112233``), ``-`` when none.
- ``WON``: the values won by player 0 and by player 1, largest first, joined by ``:``
  (``32:-``).
- ``TURN``: the player to move (``0`` or ``1``) and the phase: ``a`` before drawing, ``r`` while
  the draw is pending (a chance node), ``h`` after rolling, followed by ``:`` and the dice still
  to place (``0h:r5g3``, ``1h:``). Capital ``A R H`` mark the game's opening turn (one die).
- ``proof=bag`` (LB-OPT-1) and ``unplaceable=return`` (LB-OPT-4) when those rule options are
  not the default.

The dice in the bag are not written: they are all the dice not on a tile or in hand.

The rule options are read and written by the game's one option set
(:data:`~banditsolve.banditos.state.OPTION_SET`): ``unplaceable=give-up``, the old spelling of the
default, is still read, with a deprecation note.

The readers parse, build the state and hand it to :func:`banditsolve.banditos.rules.validate`,
which refuses a position the real game cannot reach (more dice of a colour than the game has,
more tiles of a value than the box, a side of more than three dice, both sides of a tile in play
full, ...) with one line naming the rule; a reader's own errors say what is wrong and where,
quoting at most a short excerpt of the input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from banditsolve.banditos.dice import DICE_PER_COLOUR, Die, colour_counts, parse_dice
from banditsolve.banditos.rules import validate
from banditsolve.banditos.state import (
    OPTION_SET,
    SLOTS,
    TILE_VALUES,
    Options,
    Slot,
    State,
    expect_state,
    register_notation,
)
from banditsolve.core.io import (
    check_keys,
    expect_object,
    json_type,
    read_document,
    read_state,
)
from banditsolve.core.limits import MAX_JSON_DICE, MAX_JSON_STACK, MAX_NOTATION
from banditsolve.core.text import excerpt, shown
from banditsolve.errors import ArgumentTypeError, NotationError, RuleOptionError

_PHASES = {"a": (False, False), "r": (False, True), "h": (True, False)}
_JSON_PHASES = {"start": (False, False), "roll_pending": (False, True), "rolled": (True, False)}


def _dice_text(dice: Sequence[Die]) -> str:
    return "".join(str(d) for d in dice)


def format_position(state: State) -> str:
    """The one-line notation of ``state``."""
    state = expect_state(state)
    slots = []
    for tile in state.row:
        if tile is None:
            slots.append("-")
        else:
            slots.append(f"{tile.value}:{_dice_text(tile.sides[0])}:{_dice_text(tile.sides[1])}")
    stack = "".join(str(v) * n for v, n in zip(TILE_VALUES, state.stack, strict=True)) or "-"
    won = ":".join("".join(str(v) for v in w) or "-" for w in state.won)
    phase = "r" if state.roll_pending else "h" if state.rolled else "a"
    if state.opening:
        phase = phase.upper()
    turn = f"{state.to_move}{phase}"
    if state.rolled:
        turn += ":" + _dice_text(state.hand)
    fields = ["/".join(slots), stack, won, turn]
    fields.extend(f"{name}={value}" for name, value in state.options.changed().items())
    return " ".join(fields)


def _tile_values(text: str, what: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not text or any(ch not in "123" for ch in text):
        raise NotationError(
            f"bad {what} {excerpt(text)}: expected tile values 1-3, or '-' for none"
        )
    return tuple(int(ch) for ch in text)


def _side(text: str, where: str) -> tuple[Die, ...]:
    try:
        dice = parse_dice(text)
    except NotationError as exc:
        raise NotationError(f"{where}: {exc}") from None
    return tuple(sorted(dice))


def _field_options(fields: Sequence[str]) -> Options:
    """The rule options of the notation's ``NAME=VALUE`` fields, read by :data:`OPTION_SET`; a
    bad one is a :class:`NotationError` here."""
    try:
        return Options.from_mapping(OPTION_SET.read_items(fields))
    except RuleOptionError as exc:
        raise NotationError(f"option field: {exc}") from None


def _json_options(doc: object, where: str) -> Options:
    """The rule options of a JSON object, read by :data:`OPTION_SET`; a bad one is a
    :class:`NotationError` here (``where`` names it)."""
    try:
        return Options.from_mapping(expect_object(doc, where))
    except RuleOptionError as exc:
        raise NotationError(f"{where}: {exc}") from None


def _row(row_text: str) -> list[Slot | None]:
    """The ROW field: four slots, ``-`` or ``V:DICE0:DICE1``."""
    slot_texts = row_text.split("/")
    if len(slot_texts) != SLOTS:
        raise NotationError(
            f"the row has 4 slots separated by '/', got {len(slot_texts)}: {excerpt(row_text)}"
        )
    row: list[Slot | None] = []
    for number, slot_text in enumerate(slot_texts, start=1):
        if slot_text == "-":
            row.append(None)
            continue
        parts = slot_text.split(":")
        if len(parts) != 3 or parts[0] not in ("1", "2", "3"):
            raise NotationError(
                f"slot {number}: bad tile {excerpt(slot_text)}: expected V:DICE0:DICE1 with V "
                "1-3, or '-'"
            )
        sides = (
            _side(parts[1], f"slot {number}, player 0's side"),
            _side(parts[2], f"slot {number}, player 1's side"),
        )
        row.append(Slot(int(parts[0]), sides))
    return row


def _turn(turn_text: str) -> tuple[bool, bool, tuple[Die, ...]]:
    """The TURN field's phase (rolled, draw pending) and the dice in hand (the player to move
    and the opening turn are its first two characters, checked here)."""
    if len(turn_text) < 2 or turn_text[0] not in "01" or turn_text[1].lower() not in _PHASES:
        raise NotationError(
            f"bad turn field {excerpt(turn_text)}: expected the player (0/1) and a phase a, r or "
            "h (capital on the opening turn), like '0a' or '1h:r5g3'"
        )
    rolled, pending = _PHASES[turn_text[1].lower()]
    rest = turn_text[2:]
    if not rolled:
        if rest:
            raise NotationError(
                f"bad turn field {excerpt(turn_text)}: only phase 'h' lists dice"
            )
        return rolled, pending, ()
    if not rest.startswith(":"):
        raise NotationError(
            f"bad turn field {excerpt(turn_text)}: after 'h' comes ':' and the dice"
        )
    try:
        return rolled, pending, tuple(sorted(parse_dice(rest[1:])))
    except NotationError as exc:
        raise NotationError(f"turn field, dice in hand: {exc}") from None


def parse_position(text: str) -> State:
    """Read the one-line notation. Raises :class:`NotationError` saying what is wrong where."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"a position must be given as text, not {json_type(text)}")
    if len(text) > MAX_NOTATION:
        raise NotationError(
            f"a position in the notation has at most {MAX_NOTATION} characters, not {len(text)}: "
            f"{excerpt(text)}"
        )
    fields = text.split()
    if not fields:
        raise NotationError(
            "empty position: expected ROW STACK WON TURN, like '-/-/-/- 1111222333 -:- 0A'"
        )
    extra = len(OPTION_SET.specs)
    if not 4 <= len(fields) <= 4 + extra:
        raise NotationError(
            f"a position has 4 to {4 + extra} fields (ROW STACK WON TURN [OPTIONS]), got "
            f"{len(fields)}: {excerpt(text, 30)}"
        )
    row_text, stack_text, won_text, turn_text = fields[:4]
    options = _field_options(fields[4:])
    row = _row(row_text)
    stack_values = _tile_values(stack_text, "stack")
    won_parts = won_text.split(":")
    if len(won_parts) != 2:
        raise NotationError(
            f"bad won field {excerpt(won_text)}: expected WON0:WON1, like '32:-'"
        )
    won = (_tile_values(won_parts[0], "won tiles"), _tile_values(won_parts[1], "won tiles"))
    rolled, pending, hand = _turn(turn_text)
    stack = tuple(stack_values.count(v) for v in TILE_VALUES)
    return _state(
        row=row,
        stack=(stack[0], stack[1], stack[2]),
        won=(tuple(sorted(won[0], reverse=True)), tuple(sorted(won[1], reverse=True))),
        to_move=int(turn_text[0]),
        rolled=rolled,
        roll_pending=pending,
        hand=hand,
        opening=turn_text[1].isupper(),
        options=options,
    )


def _state(
    *,
    row: Sequence[Slot | None],
    stack: tuple[int, int, int],
    won: tuple[tuple[int, ...], tuple[int, ...]],
    to_move: int,
    rolled: bool,
    roll_pending: bool,
    hand: tuple[Die, ...],
    opening: bool,
    options: Options,
) -> State:
    """The state a reader has parsed, with the bag derived (every die not on a tile or in
    hand), once :func:`validate` has found the game can reach it."""
    used = colour_counts(tuple(d for t in row if t is not None for d in t.dice) + hand)
    state = State(
        row=(row[0], row[1], row[2], row[3]),
        stack=stack,
        bag=(
            DICE_PER_COLOUR - used[0],
            DICE_PER_COLOUR - used[1],
            DICE_PER_COLOUR - used[2],
            DICE_PER_COLOUR - used[3],
        ),
        won=won,
        to_move=to_move,
        rolled=rolled,
        roll_pending=roll_pending,
        hand=hand,
        opening=opening,
        options=options,
    )
    validate(state)
    return state


# -- JSON ----------------------------------------------------------------------------------------

_TOP_REQUIRED = ("game", "row", "stack", "won", "to_move", "phase", "hand", "opening")
#: Fields ``to_json`` writes that follow from the others: checked when present.
_TOP_DERIVED = ("notation", "bag", "scores", "winner", "options")


def to_json(state: State) -> dict[str, Any]:
    """The JSON form of ``state`` (a plain dict; ``json.dumps`` it to write)."""
    state = expect_state(state)
    return {
        "game": "banditos",
        "notation": format_position(state),
        "row": [
            None
            if tile is None
            else {"value": tile.value, "sides": [[str(d) for d in side] for side in tile.sides]}
            for tile in state.row
        ],
        "stack": {str(v): n for v, n in zip(TILE_VALUES, state.stack, strict=True)},
        "bag": dict(zip("kgrb", state.bag, strict=True)),
        "won": [list(w) for w in state.won],
        "scores": list(state.scores),
        "to_move": state.to_move,
        "phase": "roll_pending" if state.roll_pending else "rolled" if state.rolled else "start",
        "hand": [str(d) for d in state.hand],
        "opening": state.opening,
        "winner": state.winner,
        "options": state.options.values(),
    }


def _list(value: Any, where: str, size: int | None = None, most: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise NotationError(f"{where} must be a list, not {json_type(value)}")
    if size is not None and len(value) != size:
        raise NotationError(f"{where} has {size} entries, not {len(value)}")
    if most is not None and len(value) > most:
        raise NotationError(f"{where} has at most {most} entries, not {len(value)}")
    return value


def _json_dice(value: Any, where: str, most: int) -> tuple[Die, ...]:
    entries = _list(value, where, most=most)
    for die in entries:
        if not isinstance(die, str):
            raise NotationError(f"{where}: a die is a string like 'r5', not {json_type(die)}")
    try:
        dice = parse_dice(" ".join(entries))
    except NotationError as exc:
        raise NotationError(f"{where}: {exc}") from None
    if len(dice) != len(entries):
        raise NotationError(f"{where}: each entry is one die, like 'r5'")
    return tuple(sorted(dice))


def _int(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"{where} must be a whole number, not {json_type(value)}")
    if not low <= value <= high:
        raise NotationError(f"{where} must be between {low} and {high}, not {shown(value)}")
    return value


def from_json(doc: Any) -> State:
    """Read the JSON form: a dict, or text (or bytes) holding JSON.

    Unknown fields are refused; the fields that follow from the others (``notation``, ``bag``,
    ``scores``, ``winner``) may be left out, but must agree with them when given."""
    where = "JSON position"
    doc = read_document(doc, "position")
    if doc.get("game", "banditos") != "banditos":
        raise NotationError(
            f'{where}: "game" must be "banditos", not {shown(doc["game"])}'
        )
    check_keys(doc, where, required=_TOP_REQUIRED, optional=_TOP_DERIVED)
    row_doc = _list(doc["row"], f"{where}: 'row'", size=SLOTS)
    row: list[Slot | None] = []
    for number, entry in enumerate(row_doc, start=1):
        if entry is None:
            row.append(None)
            continue
        at = f"{where}: slot {number}"
        entry = expect_object(entry, at)
        check_keys(entry, at, required=("value", "sides"))
        value = _int(entry["value"], f"{at}: the tile value", 1, 3)
        sides_doc = _list(entry["sides"], f"{at}: 'sides'", size=2)
        sides = tuple(
            _json_dice(side, f"{at}, player {p}'s side", MAX_JSON_DICE)
            for p, side in enumerate(sides_doc)
        )
        row.append(Slot(value, (sides[0], sides[1])))
    stack_doc = expect_object(doc["stack"], f"{where}: 'stack'")
    check_keys(stack_doc, f"{where}: 'stack'", required=("1", "2", "3"))
    stack = tuple(
        _int(stack_doc[str(v)], f"{where}: stack of {v}s", 0, MAX_JSON_STACK) for v in TILE_VALUES
    )
    won_doc = _list(doc["won"], f"{where}: 'won'", size=2)
    won = tuple(
        tuple(
            sorted(
                (_int(v, f"{where}: a tile won by player {p}", 1, 3)
                 for v in _list(w, f"{where}: tiles won by player {p}", most=10)),
                reverse=True,
            )
        )
        for p, w in enumerate(won_doc)
    )
    to_move = _int(doc["to_move"], f"{where}: 'to_move'", 0, 1)
    phase = doc["phase"]
    if not isinstance(phase, str):
        raise NotationError(f"{where}: 'phase' must be text, not {json_type(phase)}")
    if phase not in _JSON_PHASES:
        raise NotationError(
            f"{where}: unknown phase {excerpt(phase)} (phases are {', '.join(_JSON_PHASES)})"
        )
    rolled, pending = _JSON_PHASES[phase]
    hand = _json_dice(doc["hand"], f"{where}: 'hand'", MAX_JSON_DICE)
    opening = doc["opening"]
    if not isinstance(opening, bool):
        raise NotationError(f"{where}: 'opening' must be true or false, not {json_type(opening)}")
    options = _json_options(doc.get("options", {}), f"{where}: 'options'")
    state = _state(
        row=row,
        stack=(stack[0], stack[1], stack[2]),
        won=(won[0], won[1]),
        to_move=to_move,
        rolled=rolled,
        roll_pending=pending,
        hand=hand,
        opening=opening,
        options=options,
    )
    written = to_json(state)
    for key in ("bag", "scores", "winner", "notation"):
        if key in doc and doc[key] != written[key]:
            raise NotationError(
                f"{where}: {key!r} contradicts the rest of the position "
                f"(it gives {shown(doc[key])}, the position means {written[key]})"
            )
    return state


def read_position(source: object) -> State:
    """Read either form from text, bytes, a file or ``"-"`` (standard input): JSON (text
    starting with ``{``) or the one-line notation; the game's one state reader
    (:func:`banditsolve.core.io.read_state`, as ``GAME.read_state``)."""
    return read_state(source, notation=parse_position, json_document=from_json, what="position")


register_notation(format_position)
