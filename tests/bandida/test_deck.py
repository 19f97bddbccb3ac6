"""Bandida's deck as data: counts, special cards, modes, the user's own file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from banditsolve.errors import DataError
from banditsolve.tunnels.cards import (
    BANDIDO_SUPER5,
    BANDIDO_SUPER6,
    card_kind,
    card_name,
    deck_from_json,
    hand_code,
    is_dead_end,
    load_deck,
    parse_card,
)
from tests.rules import rules

DECK = load_deck("bandida")
SPECIAL = {
    "backpack": {"L+TL+R+BL", "L+TL+TR+R"},
    "water_bottle": {"TR+BL", "L+TL+R"},
    "broken_tool": {"TL+TR", "L+R"},
    "dynamite": {"L+TL+R+BR", "L+TL+TR+BR"},
    "map": {"L+TL+TR", "L+TR+BR"},
    "alarm_discard_five": {"L+TL+BR"},
    "alarm_discard_one": {"L+TL+R"},
}


@rules("BA-DECK-1")
def test_seventy_cards_with_the_super_card() -> None:
    assert DECK.size + 1 == 70
    kinds = Counter(card_kind(c) for c in DECK.cards())
    objects = sum(kinds[k] for k in ("backpack", "water_bottle", "broken_tool", "dynamite", "map"))
    assert (objects, kinds["alarm_discard_five"] + kinds["alarm_discard_one"]) == (10, 2)
    assert kinds["ladder"] == 1
    assert kinds["tunnel"] == 56


@rules("BA-DECK-2")
def test_special_cards_have_their_openings() -> None:
    for kind, names in SPECIAL.items():
        found = {card_name(c & 63) for c in DECK.cards() if card_kind(c) == kind}
        assert found == {card_name(parse_card(n)) for n in names}
        assert not any(is_dead_end(c) for c in DECK.cards() if card_kind(c) == kind)
    assert card_name(parse_card("L+R:broken_tool")) == "L+R:broken_tool"


@rules("BA-DECK-3", "BA-DECK-4")
def test_plain_cards_are_bandidos_minus_the_specials() -> None:
    bandido = Counter(load_deck("bandido").cards())
    ours = Counter(c & 63 for c in DECK.cards(2) if card_kind(c) != "bandido_super")
    assert ours == bandido
    assert [card_name(c) for c in DECK.cards() if card_kind(c) == "ladder"] == ["L:ladder"]
    assert dict(DECK.super_sides) == dict(load_deck("bandido").super_sides)


@rules("BA-DECK-5", "BA-DECK-1")
def test_modes_and_the_extra_card(tmp_path: Path) -> None:
    assert len(DECK.cards(1)) == 68
    assert len(DECK.cards(2)) == 69
    assert len(DECK.cards(3)) == 70
    assert BANDIDO_SUPER6 in DECK.cards(3)
    assert BANDIDO_SUPER6 not in DECK.cards(2)
    assert hand_code(BANDIDO_SUPER5) == BANDIDO_SUPER6
    assert parse_card("bandido5") == BANDIDO_SUPER5
    assert deck_from_json(DECK.to_json()) == DECK
    doc: dict[str, Any] = DECK.to_json()
    doc["edition"] = "mine"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_deck(path).counts == DECK.counts
    doc["cards"][0]["modes"] = [4]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match="modes"):
        load_deck(path)
    doc["cards"][0]["modes"] = [1]
    doc["cards"][0]["colour"] = "red"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match="unknown field"):
        load_deck(path)
