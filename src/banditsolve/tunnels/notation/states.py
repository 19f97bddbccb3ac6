"""Game states as text and JSON, both ways, and the text of an action.

A *game state* is everything a game in progress holds. Its one-line notation extends the
position's: the same game name and placements, then ``|`` and ``FIELD=VALUE`` words::

    bandido L+TL+TR+R+BR+BL@0,0,0 L+R@-2,0,0 | hands=L,TL*2/L+R,TR,TR+BL player=1 turn=1
      pile=TL+BL,L,... draw=0 changed=yes end=lost:hole options=hole:illegal,super_side:super5

(on one line). ``hands`` lists each player's hand (cards joined by ``,``, hands by ``/``, a
hand may be empty); ``player`` is the player to act, ``turn`` the turns played (player 0 plays
turn 0, so ``player`` is ``turn`` modulo the players; without ``turn``, the player's first);
``unseen`` the multiset on top of the pile whose order nobody knows, ``pile`` the known cards
below it, top first; ``draw`` the players still owed a card, in order; ``changed=yes`` after
a hand change that lets the player place (option ``hand_change=may_place``); ``end=won:no-exit`` or
``end=lost:REASON`` once the game is over (reasons: :data:`~banditsolve.tunnels.state.REASONS`);
``options`` the rule options that differ from the game's defaults, ``NAME:VALUE`` joined by
``,``. A run of one card is written ``CARD*N``. Writers emit the words in this order and leave
out empty ones (``unseen``, ``pile``, ``draw``) and defaults (``changed``, ``options``).
The JSON form has the same fields: ``game``, ``placements``, ``hands`` (lists of names),
``unseen``, ``pile``, ``to_draw``, ``player``, ``turn``, ``changed``, ``outcome`` (null,
``"won"`` or ``"lost"``), ``reason`` (the reason in words, null before the end) and
``options`` (an object).

The readers parse and build; :func:`banditsolve.tunnels.rules.validate` then refuses a state
the game cannot reach. A variant's states (Bandida's) add fields of their own: a
:class:`StateForm` says which, and how they are written, read and checked
(:mod:`banditsolve.tunnels.bandida.notation`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from banditsolve.core.io import check_keys, expect_object, json_type, read_document
from banditsolve.core.limits import MAX_TURN
from banditsolve.core.options import OptionSet
from banditsolve.core.text import excerpt, shown
from banditsolve.errors import ArgumentTypeError, NotationError, RuleOptionError
from banditsolve.tunnels import rules
from banditsolve.tunnels.cards import Deck, card_name, parse_card
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.notation.positions import (
    Item,
    Position,
    build_table,
    check_json_game,
    check_notation_game,
    deck_for,
    expect_int,
    from_json,
    from_notation,
    json_items,
    number,
    parse_cards,
    parse_placement_token,
    placement_json,
    placement_of,
    run_list,
    runs,
    split_notation,
)
from banditsolve.tunnels.state import (
    CHANGE,
    LOST,
    MAX_PLAYERS,
    PASS,
    REASON_CODES,
    REASONS,
    WON,
    Action,
    Discard,
    Draw,
    GameState,
    Options,
    Remove,
    refuse_foreign,
)

_STATE_REQUIRED = ("game", "placements", "hands", "player")
_STATE_OPTIONAL = ("unseen", "pile", "to_draw", "turn", "changed", "outcome", "reason", "options")
_STATE_WORDS = ("hands", "player", "turn", "unseen", "pile", "draw", "changed", "end", "options")

@dataclass(frozen=True, slots=True)
class StateParts:
    """A game state's fields as read, before the state is built and checked."""

    game: str
    items: list[Item]
    hands: list[list[str]]
    unseen: list[str]
    pile: list[str]
    to_draw: list[int]
    player: int
    turn: int
    changed: bool
    end: tuple[str, str] | None  # (outcome, reason code)
    options: Options
    extra: Mapping[str, Any] | None = None  # a variant's fields, already typed


@dataclass(frozen=True, slots=True)
class StateForm:
    """How one tunnel game writes and reads its game states: its name, its options class, and
    for a variant (Bandida, :mod:`banditsolve.tunnels.bandida.notation`) its own fields (notation
    words and JSON keys ``fields``), how they are written (``words``, ``json``) and read
    (``from_words``, ``from_json``: typed values), how the variant's state is made from
    Bandido's and them (``make``), and whether a table read may hold a card that joined the
    tunnels only through a card taken off since (``removed``). ``foreign``: the other tunnel
    game's options, so that a state of this game that names one is told whose it is."""

    game: str = "bandido"
    options: type[Options] = Options
    fields: tuple[str, ...] = ()
    words: Callable[[GameState], list[str]] | None = None
    json: Callable[[GameState], dict[str, Any]] | None = None
    from_words: Callable[[Mapping[str, str]], dict[str, Any]] | None = None
    from_json: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    make: Callable[[GameState, Mapping[str, Any], Deck], GameState] | None = None
    removed: Callable[[StateParts], bool] | None = None
    foreign: OptionSet | None = field(default=None)


#: Bandido's game states.
BANDIDO_FORM = StateForm()


def is_state_text(text: str) -> bool:
    """Whether a notation is a game state's: ``FIELD=VALUE`` words after its bar (``| hands=...
    player=...``), where a position lists cards (BD-CLOSE-6)."""
    words = text.split()
    return "|" in words and any("=" in w for w in words[words.index("|") + 1 :])


def is_state_document(data: object) -> bool:
    """Whether a JSON document is a game state's (a saved state, or a puzzle's game document):
    it has ``"hands"``, which a position's never has (BD-CLOSE-6)."""
    return isinstance(data, dict) and "hands" in data


def state_to_notation(state: GameState, form: StateForm = BANDIDO_FORM) -> str:
    """The one-line notation of a game state (see the module notes)."""
    parts = [form.game, *(str(p) for p in state.table.history), "|"]
    parts.append("hands=" + "/".join(runs(h) for h in state.hands))
    parts.append(f"player={state.player}")
    parts.append(f"turn={state.turn}")
    if state.unseen:
        parts.append("unseen=" + runs(state.unseen))
    if state.pile:
        parts.append("pile=" + runs(state.pile))
    if state.to_draw:
        parts.append("draw=" + ",".join(map(str, state.to_draw)))
    if state.changed:
        parts.append("changed=yes")
    if state.outcome is not None:
        parts.append(f"end={state.outcome}:{REASON_CODES[state.reason]}")
    changes = state.options.changes()
    if changes:
        parts.append("options=" + ",".join(f"{k}:{v}" for k, v in changes.items()))
    if form.words is not None:
        parts.extend(form.words(state))
    return " ".join(parts)


def numbers(text: str, what: str, high: int) -> list[int]:
    """The whole numbers of ``A,B,C`` (each ``0..high``; none for an empty text)."""
    return [number(t, what, "game state", 0, high) for t in text.split(",")] if text else []


def _words(rest: list[str], form: StateForm) -> dict[str, str]:
    """The ``FIELD=VALUE`` words after the bar, by field (each known, once)."""
    words: dict[str, str] = {}
    allowed = _STATE_WORDS + form.fields
    for token in rest:
        key, eq, value = token.partition("=")
        if not eq:
            if "@" in token:
                raise NotationError(f"placement {excerpt(token)} after the '|'")
            raise NotationError(
                f"{excerpt(token)} is not FIELD=VALUE; a game state gives hands=..., player=..."
                " (a list of cards alone is a position)"
            )
        if key not in allowed:
            raise NotationError(
                f"unknown game state field {excerpt(key, 20)} (fields are {', '.join(allowed)})"
            )
        if key in words:
            raise NotationError(f"game state field {key} given twice")
        words[key] = value
    for key in ("hands", "player"):
        if key not in words:
            raise NotationError(f"the game state has no {key}=...")
    return words


def _end_word(text: str | None) -> tuple[str, str] | None:
    """``(outcome, reason code)`` of ``end=won:REASON`` or ``end=lost:REASON``."""
    if text is None:
        return None
    outcome, colon, code = text.partition(":")
    if outcome not in (WON, LOST) or not colon or code not in REASONS:
        raise NotationError(
            f"end={excerpt(text)} is not won:REASON or lost:REASON"
            f" (reasons: {', '.join(REASONS)})"
        )
    return outcome, code


def _option_words(text: str) -> dict[str, str]:
    """The options of ``NAME:VALUE,...`` (each name once)."""
    changes: dict[str, str] = {}
    for pair in text.split(",") if text else ():
        name, colon, value = pair.partition(":")
        if not colon:
            raise NotationError(f"option {excerpt(pair)} is not NAME:VALUE")
        if name in changes:
            raise NotationError(f"option {excerpt(name, 20)} given twice")
        changes[name] = value
    return changes


def read_options(values: Mapping[str, object], form: StateForm) -> Options:
    """A game state's options, over the game's defaults (a game state names an option of the
    other tunnel game: refused, saying whose it is)."""
    try:
        refuse_foreign(values, form.options.OPTION_SET, form.foreign)
        return form.options.from_mapping(values)
    except RuleOptionError as exc:
        raise NotationError(f"game state options: {exc}") from None


def state_from_notation(
    text: object, form: StateForm = BANDIDO_FORM, deck: Deck | None = None
) -> GameState:
    """Read the one-line notation of a game state (see the module notes)."""
    parts = split_notation(text, "game state")
    game, items, rest = parts.game, parts.items, parts.rest
    check_notation_game(game, form.game)
    if parts.hypothetical:
        raise NotationError("a game state cannot be hypothetical: it holds the whole deck")
    if parts.mode is not None and rest is not None and any("=" in token for token in rest):
        raise NotationError(
            "a game state names its mode among its options (options=mode:M), not by mode=M"
        )
    if rest is None or not any("=" in token for token in rest):
        # A position (table and remaining cards): its own errors first, then say what it is.
        from_notation(text, deck)
        raise NotationError(
            "this is a position (table and remaining cards), not a game state: a game state"
            " gives hands=..., player=... after the '|'"
        )
    words = _words(rest, form)
    draw = words.get("draw", "")
    changed = words.get("changed", "no")
    if changed not in ("yes", "no"):
        raise NotationError(f"changed={excerpt(changed)} must be yes or no")
    hands = [run_list(h, f"hand {i}") for i, h in enumerate(words["hands"].split("/"))]
    seat = _last_seat(len(hands))
    state_parts = StateParts(
        game,
        items,
        hands,
        run_list(words.get("unseen", ""), "unseen cards"),
        run_list(words.get("pile", ""), "pile"),
        [number(d, "player", "draw", 0, seat) for d in draw.split(",")] if draw else [],
        number(words["player"], "player", "game state", 0, seat),
        # (without a turn count, the player's first turn: player P first plays turn P)
        number(words.get("turn", words["player"]), "turn", "game state", 0, MAX_TURN),
        changed == "yes",
        _end_word(words.get("end")),
        read_options(_option_words(words.get("options", "")), form),
        None if form.from_words is None else form.from_words(words),
    )
    return build_state(state_parts, form, deck)


def state_to_json(state: GameState, form: StateForm = BANDIDO_FORM) -> dict[str, Any]:
    """The game state as a JSON-ready mapping (every field, every option)."""
    return {
        "game": form.game,
        "placements": [placement_json(p) for p in state.table.history],
        "hands": [[card_name(c) for c in hand] for hand in state.hands],
        "unseen": [card_name(c) for c in state.unseen],
        "pile": [card_name(c) for c in state.pile],
        "to_draw": list(state.to_draw),
        "player": state.player,
        "turn": state.turn,
        "changed": state.changed,
        "outcome": state.outcome,
        "reason": state.reason if state.outcome is not None else None,
        "options": state.options.to_dict(),
        **({} if form.json is None else form.json(state)),
    }


def names_list(data: Mapping[str, Any], key: str) -> list[Any]:
    """``data[key]`` (an empty list when absent) as a list of card names."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise NotationError(f"'{key}' must be a list, not {json_type(value)}")
    bad = [c for c in value if not isinstance(c, str)]
    if bad:
        raise NotationError(f"'{key}' must list card names, not {json_type(bad[0])}")
    return value


def _json_hands(raw: object) -> list[list[str]]:
    if not isinstance(raw, list) or not all(isinstance(h, list) for h in raw):
        raise NotationError(f"'hands' must be a list of lists of card names, not {json_type(raw)}")
    for i, hand in enumerate(raw):
        bad = [c for c in hand if not isinstance(c, str)]
        if bad:
            raise NotationError(f"hand {i} must list card names, not {json_type(bad[0])}")
    return raw


def _json_end(outcome: object, reason: object) -> tuple[str, str] | None:
    if outcome is None:
        if reason is not None:
            raise NotationError("'reason' is given but 'outcome' is null (the game is not over)")
        return None
    if outcome not in (WON, LOST):
        raise NotationError(f'\'outcome\' must be null, "won" or "lost", not {shown(outcome)}')
    if not isinstance(reason, str) or reason not in REASON_CODES:
        raise NotationError(
            "'reason' must be one of the game's reasons in words"
            f" (codes: {', '.join(REASONS)}),"
            f" not {excerpt(reason) if isinstance(reason, str) else json_type(reason)}"
        )
    return str(outcome), REASON_CODES[reason]


def state_from_json(
    source: object,
    form: StateForm = BANDIDO_FORM,
    deck: Deck | None = None,
    *,
    settled: bool = False,
) -> GameState:
    """Read a game state document (JSON text or an already parsed object).

    With ``settled`` the state is carried on as after any move (known draws, forced ends: see
    :func:`~banditsolve.tunnels.rules.carry_on`) instead of refused when the game would go on
    by itself: for hand-written puzzles."""
    data = read_document(source, "game state")
    check_json_game(data, form.game)
    if "remaining" in data and "hands" not in data:
        from_json(data, deck)
        raise NotationError(
            "this is a position (table and remaining cards), not a game state: a game state"
            " gives 'hands', 'player' and the pile"
        )
    optional = _STATE_OPTIONAL + form.fields
    check_keys(data, "game state document", required=_STATE_REQUIRED, optional=optional)
    to_draw = data.get("to_draw", [])
    if not isinstance(to_draw, list):
        raise NotationError(f"'to_draw' must be a list, not {json_type(to_draw)}")
    changed = data.get("changed", False)
    if not isinstance(changed, bool):
        raise NotationError(f"'changed' must be true or false, not {json_type(changed)}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise NotationError(f"'options' must be an object, not {json_type(options)}")
    hands = _json_hands(data["hands"])
    seat = _last_seat(len(hands))
    parts = StateParts(
        data["game"],
        json_items(data["placements"]),
        hands,
        names_list(data, "unseen"),
        names_list(data, "pile"),
        [expect_int(p, "to_draw", 0, seat) for p in to_draw],
        expect_int(data["player"], "'player'", 0, seat),
        expect_int(data.get("turn", data["player"]), "'turn'", 0, MAX_TURN),
        changed,
        _json_end(data.get("outcome"), data.get("reason")),
        read_options(options, form),
        None if form.from_json is None else form.from_json(data),
    )
    return build_state(parts, form, deck, settled=settled)


def _last_seat(hands: int) -> int:
    """The highest player number of a game with ``hands`` hands (one per player; more hands
    than :data:`MAX_PLAYERS` are refused with the hands)."""
    return max(0, min(hands, MAX_PLAYERS) - 1)


def build_state(
    parts: StateParts, form: StateForm = BANDIDO_FORM, deck: Deck | None = None, *,
    settled: bool = False,
) -> GameState:
    """Build the state of ``parts`` and check it (:func:`banditsolve.tunnels.rules.validate`:
    the one place that says which states the game can reach). With ``settled`` the state is
    carried on first (:func:`~banditsolve.tunnels.rules.carry_on`)."""
    deck = deck_for(parts.game, deck)
    removed = form.removed is not None and form.removed(parts)
    table = build_table(parts.items, deck, removed=removed)
    state = GameState(
        table,
        tuple(tuple(sorted(parse_cards(h, f"hand {i}"))) for i, h in enumerate(parts.hands)),
        tuple(sorted(parse_cards(parts.unseen, "unseen cards"))),
        tuple(parse_cards(parts.pile, "pile")),
        parts.player,
        tuple(parts.to_draw),
        parts.options,
        parts.changed,
        None if parts.end is None else parts.end[0],
        "" if parts.end is None else REASONS[parts.end[1]],
        parts.turn,
    )
    if form.make is not None:
        state = form.make(state, parts.extra or {}, deck)
    if settled and parts.end is None:
        rules.validate(state, deck, course=False)
        state = rules.carry_on(state)
    rules.validate(state, deck)
    return state


# -- a puzzle's game document --------------------------------------------------------------------

#: The keys of a puzzle's game document besides a position document's.
GAME_FIELDS = ("hands", "pile", "player", "options", "unseen")
#: Every key a game document may hold: a position document's and :data:`GAME_FIELDS`.
GAME_DOCUMENT_KEYS = frozenset(("game", "placements", "remaining", "hypothetical", *GAME_FIELDS))


def is_game_document(doc: Mapping[str, Any]) -> bool:
    """Whether ``doc`` is a puzzle's game document (:func:`game_state`) rather than a saved game
    state: it has ``hands`` and nothing but the keys such a document may hold (a state's own
    fields, ``turn``, ``draw``, ``end``..., make it a game state, read as one)."""
    return "hands" in doc and set(doc) <= GAME_DOCUMENT_KEYS


def game_state(
    data: object, form: StateForm = BANDIDO_FORM, deck: Deck | None = None
) -> GameState:
    """A game state from a game document: a position document (``game``, ``placements``, an
    empty ``remaining``) with ``hands`` (card names per player), ``pile`` (top first; the
    order is known), optionally ``unseen`` (cards on top of the pile in unknown order),
    ``player`` (0 when left out) and ``options`` (over the game's defaults). The state is
    settled as after any move (a player whose hand does not fit still has to change; the game
    may already be over). Every card of the deck must be somewhere, once."""
    doc = expect_object(data, "a game document")
    rest = doc.get("remaining", [])
    if rest != []:
        raise NotationError(
            "a game document's cards are in 'hands' and 'pile'; 'remaining' must be empty"
        )
    fields = {k: v for k, v in doc.items() if k != "remaining"}
    fields.setdefault("player", 0)
    return state_from_json(fields, form, deck, settled=True)


def read_json_state(
    data: object, form: StateForm = BANDIDO_FORM, deck: Deck | None = None
) -> GameState:
    """A game state from a parsed JSON document: a saved state, or a puzzle's game document
    (:func:`game_state`)."""
    doc = expect_object(data, "a game state document")
    check_json_game(doc, form.game)
    if is_game_document(doc):
        return game_state(doc, form, deck)
    return state_from_json(doc, form, deck)


def position_of(state: object) -> Position:
    """The position of a game state: its table and every card not on it."""
    if not isinstance(state, GameState):
        raise ArgumentTypeError(f"position_of needs a GameState, not {json_type(state)}")
    game = "bandido" if state.variant is None else state.variant.name
    mode = getattr(state.options, "mode", None)  # a variant's with modes (Bandida's)
    return Position(state.table, state.remaining(), game, mode=mode)


# -- actions (BD-NOTE-5, BA-NOTE-2) --------------------------------------------------------------


def parse_action(text: object) -> Action:
    """Read an action's text: ``NAME@x,y,r`` (either name of the card), ``change``, ``pass``,
    ``draw NAME`` (Bandida: ``draw NAME top=alarm|plain``), ``discard NAME`` and
    ``remove NAME@x,y,r ...``."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"an action must be given as text, not {shown(text)}")
    words = text.split()
    if words in (["change"], ["pass"]):
        return CHANGE if words == ["change"] else PASS
    head = words[0] if words else ""
    worded = _worded_action(head, words)
    if worded is not None:
        return worded
    if len(words) == 1 and "@" in head:
        return _placement_word(head, "placement")
    raise NotationError(
        f"{shown(text)} is not an action (NAME@x,y,r, change, pass, draw NAME,"
        " discard NAME or remove NAME@x,y,r ...)"
    )


def _worded_action(head: str, words: list[str]) -> Action | None:
    """The action of ``words`` led by the verb ``head`` (``draw``, ``discard``, ``remove``),
    or None when they are none of those forms."""
    if head == "draw" and len(words) == 2:
        return Draw(parse_card(words[1]))
    if head == "draw" and len(words) == 3 and words[2] in ("top=alarm", "top=plain"):
        return Draw(parse_card(words[1]), words[2][4:])
    if head == "discard" and len(words) == 2:
        return Discard(parse_card(words[1]))
    if head == "remove" and 2 <= len(words) <= 4:
        return Remove(tuple(_placement_word(w, f"removal {i}") for i, w in enumerate(words[1:], 1)))
    return None


def _placement_word(word: str, where: str) -> Placement:
    item = parse_placement_token(word, where)
    label = "placement" if where == "placement" else where
    return placement_of(item, f"{label} {shown(word)}")


def action_text(action: object) -> str:
    """The text of an action (what :func:`parse_action` reads back)."""
    if not isinstance(action, Placement | Draw | Discard | Remove) and action not in (CHANGE, PASS):
        raise NotationError(f"not a tunnel game action: {shown(action)}")
    return str(action)
