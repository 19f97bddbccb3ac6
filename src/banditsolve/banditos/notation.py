"""Positions as one line of text and as JSON (rule LB-NOTE-1), both round-tripping.

One-line notation, five space-separated fields (the fifth optional)::

    ROW STACK WON TURN [proof=bag]

- ``ROW``: the four slots joined by ``/``. A slot is ``-`` (empty) or ``V:MINE0:MINE1``: the
  tile value, then player 0's and player 1's dice written without spaces (``3:r5r5k6:g2``).
- ``STACK``: the face-down tiles' values in ascending order (``112233``), ``-`` when none.
- ``WON``: the values won by player 0 and by player 1, largest first, joined by ``:``
  (``32:-``).
- ``TURN``: the player to move (``0`` or ``1``) and the phase: ``a`` before drawing, ``r`` while
  the draw is pending (a chance node), ``h`` after rolling, followed by ``:`` and the dice still
  to place (``0h:r5g3``, ``1h:``). Capital ``A R H`` mark the game's opening turn (one die).
- ``proof=bag`` when the claim-proof option is not the default ``strict``.

The dice in the bag are not written: they are all the dice not on a tile or in hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from banditsolve.banditos.dice import COLOURS, DICE_PER_COLOUR, Die, colour_counts, parse_dice
from banditsolve.banditos.state import (
    MAX_SIDE,
    PROOF_OPTIONS,
    TILE_COUNTS,
    TILE_VALUES,
    Options,
    ProofOption,
    Slot,
    State,
)
from banditsolve.errors import BanditsolveError, NotationError

_PHASES = {"a": (False, False), "r": (False, True), "h": (True, False)}


def _dice_text(dice: Sequence[Die]) -> str:
    return "".join(str(d) for d in dice)


def format_position(state: State) -> str:
    """The one-line notation of ``state``."""
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
    if state.options.proof != "strict":
        fields.append(f"proof={state.options.proof}")
    return " ".join(fields)


def _tile_values(text: str, what: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not text or any(ch not in "123" for ch in text):
        raise NotationError(f"bad {what} {text!r}: expected tile values 1-3, or '-' for none")
    return tuple(int(ch) for ch in text)


def _side(text: str, where: str) -> tuple[Die, ...]:
    try:
        dice = parse_dice(text)
    except NotationError as exc:
        raise NotationError(f"{where}: {exc}") from None
    if len(dice) > MAX_SIDE:
        raise NotationError(f"{where}: {len(dice)} dice, at most 3 may lie on a side")
    return tuple(sorted(dice))


def parse_position(text: str) -> State:
    """Read the one-line notation. Raises :class:`NotationError` saying what is wrong where."""
    if not isinstance(text, str):
        raise NotationError("a position must be given as text")
    fields = text.split()
    if len(fields) not in (4, 5):
        raise NotationError(
            f"a position has 4 or 5 space-separated fields (row, stack, won, turn[, option]), "
            f"got {len(fields)}"
        )
    row_text, stack_text, won_text, turn_text = fields[:4]
    options = Options()
    if len(fields) == 5:
        key, _, value = fields[4].partition("=")
        if key != "proof" or value not in PROOF_OPTIONS:
            raise NotationError(
                f"bad option field {fields[4]!r}: expected proof=strict or proof=bag"
            )
        proof: ProofOption = "bag" if value == "bag" else "strict"
        options = Options(proof=proof)
    slot_texts = row_text.split("/")
    if len(slot_texts) != 4:
        raise NotationError(f"the row has 4 slots separated by '/', got {len(slot_texts)}")
    row: list[Slot | None] = []
    for number, slot_text in enumerate(slot_texts, start=1):
        if slot_text == "-":
            row.append(None)
            continue
        parts = slot_text.split(":")
        if len(parts) != 3 or parts[0] not in ("1", "2", "3"):
            raise NotationError(
                f"slot {number}: bad tile {slot_text!r}: expected V:DICE0:DICE1 with V 1-3, or '-'"
            )
        sides = (
            _side(parts[1], f"slot {number}, player 0's side"),
            _side(parts[2], f"slot {number}, player 1's side"),
        )
        row.append(Slot(int(parts[0]), sides))
    stack_values = _tile_values(stack_text, "stack")
    won_parts = won_text.split(":")
    if len(won_parts) != 2:
        raise NotationError(f"bad won field {won_text!r}: expected WON0:WON1, like '32:-'")
    won = (_tile_values(won_parts[0], "won tiles"), _tile_values(won_parts[1], "won tiles"))
    if len(turn_text) < 2 or turn_text[0] not in "01" or turn_text[1].lower() not in _PHASES:
        raise NotationError(
            f"bad turn field {turn_text!r}: expected the player (0/1) and a phase a, r or h "
            "(capital on the opening turn), like '0a' or '1h:r5g3'"
        )
    rolled, pending = _PHASES[turn_text[1].lower()]
    hand: tuple[Die, ...] = ()
    rest = turn_text[2:]
    if rolled:
        if not rest.startswith(":"):
            raise NotationError(f"bad turn field {turn_text!r}: after 'h' comes ':' and the dice")
        try:
            hand = tuple(sorted(parse_dice(rest[1:])))
        except NotationError as exc:
            raise NotationError(f"turn field, dice in hand: {exc}") from None
    elif rest:
        raise NotationError(f"bad turn field {turn_text!r}: only phase 'h' lists dice")
    stack = tuple(stack_values.count(v) for v in TILE_VALUES)
    return build_state(
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


def build_state(
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
    """Check a position's consistency and build it, deriving the bag."""
    if len(row) != 4:
        raise NotationError("the row has exactly 4 slots")
    for number, tile in enumerate(row, start=1):
        if tile is not None and all(len(s) == MAX_SIDE for s in tile.sides):
            raise NotationError(
                f"slot {number}: both sides hold 3 dice, but such a tile is resolved at once"
            )
    for value, count in zip(TILE_VALUES, TILE_COUNTS, strict=True):
        seen = (
            sum(1 for t in row if t is not None and t.value == value)
            + stack[value - 1]
            + won[0].count(value)
            + won[1].count(value)
        )
        if seen != count:
            raise NotationError(
                f"tiles worth {value}: the row, stack and won tiles hold {seen}, the game has "
                f"{count}"
            )
    used = colour_counts(tuple(d for t in row if t is not None for d in t.dice) + hand)
    for colour, n in zip(COLOURS, used, strict=True):
        if n > DICE_PER_COLOUR:
            raise NotationError(
                f"{n} {colour.name.lower()} dice on the tiles and in hand, but the game has only "
                f"{DICE_PER_COLOUR}"
            )
    limit = 1 if opening else 2
    if len(hand) > limit:
        drawn = "1 die" if limit == 1 else f"{limit} dice"
        raise NotationError(f"{len(hand)} dice in hand, but this turn draws only {drawn}")
    if opening:
        # On the game's first turn nothing can have been claimed or resolved, and only the
        # opening player's one die can lie on a tile.
        placed = [(p, d) for t in row if t is not None for p in (0, 1) for d in t.sides[p]]
        if won[to_move] or len(placed) + len(hand) > 1 or any(p != to_move for p, _ in placed):
            raise NotationError(
                "an opening turn (A, R or H) cannot have tiles won by the player to move or "
                "dice on the tiles other than that player's one die"
            )
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
    if state.roll_pending and state.reveal_pending:
        raise NotationError("a draw cannot be pending while a slot waits for a tile")
    return state


# -- JSON ----------------------------------------------------------------------------------------


def to_json(state: State) -> dict[str, Any]:
    """The JSON form of ``state`` (a plain dict; ``json.dumps`` it to write)."""
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
        "bag": {c: n for c, n in zip("kgrb", state.bag, strict=True)},
        "won": [list(w) for w in state.won],
        "scores": list(state.scores),
        "to_move": state.to_move,
        "phase": "roll_pending" if state.roll_pending else "rolled" if state.rolled else "start",
        "hand": [str(d) for d in state.hand],
        "opening": state.opening,
        "winner": state.winner,
        "options": {"proof": state.options.proof},
    }


def _expect(doc: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in doc:
        raise NotationError(f"JSON position: missing field {key!r}")
    value = doc[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise NotationError(f"JSON position: field {key!r} has the wrong type")
    return value


def from_json(doc: Any) -> State:
    """Read the JSON form (a dict, or a string holding JSON)."""
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise NotationError(f"not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise NotationError("a JSON position is an object")
    if doc.get("game") != "banditos":
        raise NotationError('JSON position: "game" must be "banditos"')
    try:
        return _from_json(doc)
    except BanditsolveError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise NotationError(f"JSON position: malformed ({exc})") from None


def _from_json(doc: dict[str, Any]) -> State:
    row_doc = _expect(doc, "row", list)
    if len(row_doc) != 4:
        raise NotationError("JSON position: 'row' has exactly 4 entries")
    row: list[Slot | None] = []
    for number, entry in enumerate(row_doc, start=1):
        if entry is None:
            row.append(None)
            continue
        if not isinstance(entry, dict):
            raise NotationError(f"JSON position: slot {number} must be an object or null")
        value = _expect(entry, "value", int)
        if value not in TILE_VALUES:
            raise NotationError(f"JSON position: slot {number} has tile value {value}")
        sides_doc = _expect(entry, "sides", list)
        if len(sides_doc) != 2 or not all(isinstance(s, list) for s in sides_doc):
            raise NotationError(f"JSON position: slot {number} needs two lists of dice")
        sides = tuple(
            _side(" ".join(_die_text(d) for d in side), f"slot {number}, player {p}'s side")
            for p, side in enumerate(sides_doc)
        )
        row.append(Slot(value, (sides[0], sides[1])))
    stack_doc = _expect(doc, "stack", dict)
    stack = [0, 0, 0]
    for key, count in stack_doc.items():
        if key not in ("1", "2", "3") or not isinstance(count, int) or count < 0:
            raise NotationError(f"JSON position: bad stack entry {key!r}: {count!r}")
        stack[int(key) - 1] = count
    won_doc = _expect(doc, "won", list)
    if len(won_doc) != 2 or not all(isinstance(w, list) for w in won_doc):
        raise NotationError("JSON position: 'won' is two lists of tile values")
    won = tuple(
        tuple(sorted((_tile_value(v) for v in w), reverse=True)) for w in won_doc
    )
    to_move = _expect(doc, "to_move", int)
    if to_move not in (0, 1):
        raise NotationError("JSON position: 'to_move' is 0 or 1")
    phase = _expect(doc, "phase", str)
    phases = {"start": (False, False), "roll_pending": (False, True), "rolled": (True, False)}
    if phase not in phases:
        raise NotationError(f"JSON position: unknown phase {phase!r}")
    rolled, pending = phases[phase]
    hand = tuple(sorted(parse_dice(" ".join(_die_text(d) for d in _expect(doc, "hand", list)))))
    if hand and not rolled:
        raise NotationError("JSON position: dice in hand before rolling")
    opening = _expect(doc, "opening", bool)
    options_doc = doc.get("options", {})
    if not isinstance(options_doc, dict):
        raise NotationError("JSON position: 'options' is an object")
    proof = options_doc.get("proof", "strict")
    if proof not in PROOF_OPTIONS:
        raise NotationError(f"JSON position: unknown proof option {proof!r}")
    state = build_state(
        row=row,
        stack=(stack[0], stack[1], stack[2]),
        won=(won[0], won[1]),
        to_move=to_move,
        rolled=rolled,
        roll_pending=pending,
        hand=hand,
        opening=opening,
        options=Options(proof=proof),
    )
    if "bag" in doc and doc["bag"] != to_json(state)["bag"]:
        raise NotationError("JSON position: 'bag' does not match the dice on tiles and in hand")
    return state


def _die_text(value: Any) -> str:
    if not isinstance(value, str):
        raise NotationError(f"JSON position: a die is a string like 'r5', got {value!r}")
    return value


def _tile_value(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in TILE_VALUES:
        raise NotationError(f"JSON position: bad tile value {value!r}")
    return value


def read_position(text: str) -> State:
    """Read either form: JSON (text starting with ``{``) or the one-line notation."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return from_json(stripped)
    return parse_position(stripped)
