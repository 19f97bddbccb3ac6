"""Positions the real games cannot reach are refused, with the reason, from Python and from the
command line; a puzzle that wants hypothetical cards says so explicitly.

- Bandido: more copies of a card than the deck holds (unless the question is asked with
  ``hypothetical=True`` / ``--hypothetical``), the super card as an ordinary card (in the
  cards left, a hand or the pile), a second super card on the table.
- Los Banditos: more than 6 dice of a colour, a side with 4 dice, too many dice in hand, JSON
  fields that contradict each other, unknown JSON fields.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from banditsolve.errors import BanditsolveError
from tests import contract
from tests.strategies.games import play
from tests.strategies.refusal import assert_clean, assert_cli_clean, assert_cli_refuses

SUPER = "L+TL+TR+R+BR+BL"
START = f"bandido {SUPER}@0,0,0"


def _tunnels() -> Any:
    import banditsolve.tunnels as tunnels

    return tunnels


# -- Bandido: table positions -----------------------------------------------------------------

#: Positions whose cards left hold a super card (with the words the reason must use).
SUPER_LEFT = (f"{START} | super6", f"{START} | L*2 {SUPER}", f"{START} | super5 L")
#: A second super card on the table.
SECOND_SUPER = (f"{START} {SUPER}@2,0,0", f"{START} super6@2,0,0")
#: More copies of a card than the 69-card deck holds (L: 3 copies).
TOO_MANY = (
    f"{START} | L*4",
    f"{START} | L*3 L",
    f"{START} | L+TL*3 L+TL",
    f"{START} L@2,0,0 | L*3",
    f"{START} | L*1000000",
    f"{START} | L*" + "9" * 5000,
)


@pytest.mark.parametrize("text", SUPER_LEFT + SECOND_SUPER)
def test_bandido_super_card_only_at_the_start(text: str) -> None:
    tunnels = _tunnels()
    for label, reader in (
        ("tunnels.parse_position", tunnels.parse_position),
        ("tunnels.read_position", tunnels.read_position),
    ):
        exc = assert_clean(label, reader, text, must_refuse=True)
        assert exc is not None, f"{label}({text!r}): the reason {exc} does not name the super card"
        assert "super" in str(exc).lower(), (
            f"{label}({text!r}): the reason {exc} does not name the super card"
        )
    doc = tunnels.to_json(tunnels.parse_position(START))
    if text in SUPER_LEFT:
        broken = {**doc, "remaining": ["super6"]}
    else:
        broken = copy.deepcopy(doc)
        broken["placements"].append({"card": SUPER, "x": 2, "y": 0, "rotation": 0})
    exc = assert_clean("tunnels.from_json", tunnels.from_json, broken, must_refuse=True)
    assert exc is not None, exc
    assert "super" in str(exc).lower(), exc


@pytest.mark.parametrize("text", TOO_MANY)
def test_bandido_more_copies_than_the_deck_are_refused(text: str) -> None:
    """Without the word ``hypothetical`` the readers refuse, and the reason says how to ask."""
    tunnels = _tunnels()
    for label, reader in (
        ("tunnels.parse_position", tunnels.parse_position),
        ("tunnels.read_position", tunnels.read_position),
    ):
        exc = assert_clean(label, reader, text, must_refuse=True)
        if text in TOO_MANY[:4]:  # a huge count may be refused as a bad count instead
            assert exc is not None, (
                f"{label}: the reason {exc} does not say how to ask a hypothetical question"
            )
            assert "hypothetical" in str(exc), (
                f"{label}: the reason {exc} does not say how to ask a hypothetical question"
            )


#: The same cards, said to be hypothetical (the word after the game name; B's notation).
HYPOTHETICAL = f"bandido hypothetical {SUPER}@0,0,0 | L*4 TL*4"


def test_bandido_hypothetical_positions_are_read_and_answered() -> None:
    tunnels = _tunnels()
    position = tunnels.read_position(HYPOTHETICAL)
    assert tunnels.read_position(tunnels.to_notation(position)) == position
    doc = tunnels.to_json(position)
    assert doc.get("hypothetical") is True
    assert tunnels.from_json(doc) == position
    plain = {k: v for k, v in doc.items() if k != "hypothetical"}
    assert_clean("tunnels.from_json", tunnels.from_json, plain, must_refuse=True)
    result = tunnels.can_close(position, time_limit=5, hypothetical=True)
    assert result.to_answer().status in ("yes", "no", "unknown")


@pytest.mark.parametrize("text", TOO_MANY[:3])
def test_bandido_close_command_refuses_extra_copies(text: str) -> None:
    result = assert_cli_refuses("bandido", "close", text, "--time-limit", "2")
    assert "hypothetical" in result.err, result.err
    answered = assert_cli_clean("bandido", "close", text, "--time-limit", "2", "--hypothetical")
    assert answered.code in (0, 1, 3), answered.err


def test_bandido_close_command_answers_a_hypothetical_position() -> None:
    result = assert_cli_clean(
        "bandido", "close", HYPOTHETICAL, "--time-limit", "2", "--hypothetical"
    )
    assert result.code in (0, 1, 3), result.err


@pytest.mark.parametrize("text", SUPER_LEFT + SECOND_SUPER)
def test_bandido_commands_refuse_a_misplaced_super_card(text: str) -> None:
    # close and placements read a table position (show and moves read a game state, whose
    # impossible cards are tried in test_bandido_game_states_refuse_impossible_cards)
    for verb in ("close", "placements"):
        extra = {"close": ["--time-limit", "2"], "placements": ["L"]}.get(verb, [])
        result = assert_cli_refuses("bandido", verb, text, *extra)
        assert "super" in result.err.lower(), result.err


# -- Bandido: game states -------------------------------------------------------------------


def _card_lists(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of the lists of card names inside a JSON document."""
    tunnels = _tunnels()
    found: list[tuple[Any, ...]] = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _card_lists(value, (*path, key))
    elif isinstance(doc, list):
        if doc and all(isinstance(x, str) for x in doc):
            try:
                for x in doc:
                    tunnels.parse_card(x)
            except BanditsolveError:
                return found
            found.append(path)
        else:
            for i, value in enumerate(doc):
                found += _card_lists(value, (*path, i))
    return found


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _bandido_state_docs() -> list[dict[str, Any]]:
    game = contract.load("bandido")
    trace = play(game, 4, mix=True)
    states = [v.state for v in trace.visits[1 :: max(1, len(trace.visits) // 6)]]
    return [game.to_json(s) for s in states]


def test_bandido_game_states_refuse_impossible_cards() -> None:
    """In the JSON of a game state, every list of card names (hands, pile, cards unseen) is
    refused with a super card added, or with one card given more copies than the deck holds."""
    game = contract.load("bandido")
    lists = 0
    for doc in _bandido_state_docs():
        assert game.from_json(doc) is not None
        for path in _card_lists(doc):
            lists += 1
            for extra in (["super6"], [SUPER], ["L"] * 4):
                broken = copy.deepcopy(doc)
                _at(broken, path).extend(extra)
                assert_clean("bandido:from_json", game.from_json, broken, must_refuse=True)
                assert_clean(
                    "bandido:read_state", game.read_state, json.dumps(broken), must_refuse=True
                )
                assert_cli_refuses("bandido", "show", json.dumps(broken))
    assert lists, "no list of card names in the JSON of a Bandido game state"


# -- Los Banditos ---------------------------------------------------------------------------

IMPOSSIBLE_BANDITOS = (
    # 7 red dice on the tiles and in hand (the game has 6 of each colour)
    "1:r1r2r3:r4r5/1:r6r1:/-/- 11222333 -:- 0a",
    "1:r1r2r3:r4r5/1:r6:/-/- 11222333 -:- 0h:r1",
    # a side with 4 dice (a tile is resolved when a side holds 3)
    "1:r1r2r3r4:/-/-/- 111222333 -:- 0a",
    "1:r1r2r3r4r5r6:/-/-/- 111222333 -:- 0a",
    # 3 dice in hand (a turn draws 2)
    "-/-/-/- 1111222333 -:- 0h:r1r2r3",
    # more tiles than the game has, or fewer
    "-/-/-/- 11112223333 -:- 0a",
    "-/-/-/- 111222333 -:- 0a",
    "1::/1::/1::/1:: 1222333 -:- 0a",
    # both sides full is resolved at once
    "1:r1r2r3:g1g2g3/-/-/- 111222333 -:- 0a",
    # dice in hand before rolling; a pending draw with a hand
    "-/-/-/- 1111222333 -:- 0a:r1",
    "-/-/-/- 1111222333 -:- 0r:r1",
    # dice that do not exist
    "1:r7:/-/-/- 111222333 -:- 0a",
    "1:r0:/-/-/- 111222333 -:- 0a",
    "1:x1:/-/-/- 111222333 -:- 0a",
    # player 2 in a two-player game
    "-/-/-/- 1111222333 -:- 2a",
)


@pytest.mark.parametrize("text", IMPOSSIBLE_BANDITOS)
def test_banditos_impossible_positions(text: str) -> None:
    import banditsolve.banditos as banditos

    game = contract.load("banditos")
    assert_clean("banditos:read_state", game.read_state, text, must_refuse=True)
    assert_clean("banditos:from_notation", game.from_notation, text, must_refuse=True)
    assert_clean("banditos.parse_position", banditos.parse_position, text, must_refuse=True)
    assert_cli_refuses("banditos", "show", text)


def _banditos_doc() -> dict[str, Any]:
    game = contract.load("banditos")
    for seed in range(5, 40):
        for visit in play(game, seed, mix=True).visits:
            doc: dict[str, Any] = game.to_json(visit.state)
            dice = any(s and (s["sides"][0] or s["sides"][1]) for s in doc["row"])
            if (
                visit.actor >= 0
                and doc["hand"]
                and any(doc["won"])
                and dice
                and not doc["opening"]
            ):
                return doc
    raise AssertionError("no mid-game Los Banditos state with a hand and won tiles")


def _contradictions(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``doc`` with one field contradicting the others."""
    out: list[tuple[str, dict[str, Any]]] = []

    def variant(label: str, **changes: Any) -> None:
        out.append((label, {**copy.deepcopy(doc), **changes}))

    variant("notation of another position", notation="-/-/-/- 1111222333 -:- 0A")
    fields = doc["notation"].split()
    fields[3] = str(1 - int(fields[3][0])) + fields[3][1:]
    variant("notation of the other player", notation=" ".join(fields))
    variant("scores", scores=[doc["scores"][0] + 1, doc["scores"][1]])
    variant("winner", winner=0 if doc["winner"] is None else None)
    variant("bag", bag={**doc["bag"], "k": doc["bag"]["k"] - 1})
    variant("game", game="bandido")
    variant("unknown field", surprise=1)
    variant("unknown option", options={**doc["options"], "surprise": True})
    variant("unknown proof", options={"proof": "maybe"})
    variant("opening with won tiles", opening=True)
    variant("hand before rolling", phase="start")
    variant("unknown stack key", stack={**doc["stack"], "4": 1})
    variant("more tiles in the stack", stack={**doc["stack"], "1": doc["stack"]["1"] + 1})
    slot = next(i for i, s in enumerate(doc["row"]) if s is not None)
    row = copy.deepcopy(doc["row"])
    row[slot]["surprise"] = 1
    variant("unknown slot field", row=row)
    row = copy.deepcopy(doc["row"])
    row[slot]["sides"] = [["r1", "r2", "r3", "r4"], []]
    variant("a side with 4 dice", row=row)
    variant(
        "7 dice of a colour",
        hand=["r1", "r2"],
        row=[{"value": 1, "sides": [["r1", "r2", "r3"], ["r4", "r5"]]}, *doc["row"][1:]],
    )
    return out


def test_banditos_contradictory_or_unknown_json_fields() -> None:
    game = contract.load("banditos")
    import banditsolve.banditos as banditos

    doc = _banditos_doc()
    assert game.from_json(doc) == game.from_notation(doc["notation"])
    failures = []
    for label, broken in _contradictions(doc):
        for reader_label, reader in (
            ("banditos:from_json", game.from_json),
            ("banditos.from_json", banditos.from_json),
        ):
            try:
                assert_clean(reader_label, reader, broken, must_refuse=True)
            except AssertionError as exc:
                failures.append(f"{label}: {exc}")
        result = assert_cli_clean("banditos", "show", json.dumps(broken))
        if result.code != 2:
            failures.append(f"{label}: banditos show accepted it")
    assert not failures, "\n".join(failures)
