"""Bandida's own state fields (phase, actor, queue, left, aside, top, sizes, hold, quiet) and
the cards, changed at random on states of real games: ``rules.validate`` refuses the state with
one line naming a rule, or the state is one the game can play on. Every state the validation
accepts draws, writes, reads back and plays (legal actions, chance, apply, the greedy policy)
without a crash; its notation and JSON read back equal."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import replace

import pytest

from banditsolve.errors import BanditsolveError, NotationError
from banditsolve.tunnels import rules
from banditsolve.tunnels.bandida.rules import expect
from banditsolve.tunnels.bandida.state import PHASES, BandidaState
from banditsolve.tunnels.cards import is_alarm, parse_card
from banditsolve.tunnels.players import greedy_policy
from tests.bandida.helpers import GAME
from tests.cli_runner import run
from tests.rules import rules as spec_rules

#: A rule ID in a refusal's line.
RULE = re.compile(r"\b(BA|BD)-[A-Z]+-\d+\b")
#: Cards an alarm may set aside, and others it may not.
ASIDE = ("L:ladder", "L+TL+TR+R+BR+BL:bandido_super", "TL", "L+TL+BR:alarm_discard_five")


def _played(seed: int) -> BandidaState:
    """A state a few random moves into a seeded game (various player counts and modes)."""
    rng = random.Random(seed)
    options: dict[str, object] = {"mode": 1 + seed % 3}
    if seed % 4 == 0:
        options["alarm_show"] = "top"
    state = GAME.new_game(1 + seed % 4, options, seed=seed if seed % 3 else None)
    for _ in range(rng.randrange(1, 60)):
        if state.outcome is not None:
            break
        moves = (
            [a for a, _ in GAME.chance_outcomes(state)]
            if state.is_chance
            else list(GAME.legal_actions(state))
        )
        state = GAME.apply(state, rng.choice(moves))
    return expect(state)


def _moved(s: BandidaState, rng: random.Random, alarm: bool) -> BandidaState:
    """A card of the known pile (an alarm, if ``alarm`` and one is there) moved into a hand."""
    pile = list(s.pile)
    if not pile:
        return s
    alarms = [c for c in pile if is_alarm(c)]
    card = alarms[0] if alarm and alarms else rng.choice(pile)
    pile.remove(card)
    who = rng.randrange(s.players)
    hands = list(s.hands)
    hands[who] = tuple(sorted((*hands[who], card)))
    return replace(s, hands=tuple(hands), pile=tuple(pile), actor=who if alarm else s.actor)


Change = Callable[[BandidaState, random.Random], BandidaState]


def _players(s: BandidaState, rng: random.Random, k: int) -> tuple[int, ...]:
    return tuple(rng.randrange(s.players) for _ in range(k))


CHANGES: tuple[Change, ...] = (
    lambda s, r: replace(s, phase=tuple(r.sample(PHASES, r.randint(0, 3)))),
    lambda s, r: replace(s, phase=(*s.phase, r.choice(PHASES))),
    lambda s, r: replace(s, actor=r.randrange(s.players)),
    lambda s, r: replace(s, queue=_players(s, r, r.randint(0, s.players))),
    lambda s, r: replace(s, left=r.randint(0, 5)),
    lambda s, r: replace(s, aside=(*s.aside, parse_card(r.choice(ASIDE)))),
    lambda s, r: replace(s, top=r.choice(("", "alarm", "plain"))),
    lambda s, r: replace(s, hold=tuple(sorted(set(_players(s, r, r.randint(0, 2)))))),
    lambda s, r: replace(s, quiet=r.randrange(-1, s.players)),
    lambda s, r: replace(s, sizes=tuple(r.randint(0, 4) for _ in range(s.players))),
    lambda s, r: _moved(s, r, alarm=False),
    lambda s, r: _moved(s, r, alarm=True),
)


def _plays(state: BandidaState, rng: random.Random) -> None:
    """Everything the library does with a state, once (no crash allowed)."""
    GAME.ascii(state)
    GAME.svg(state)
    assert GAME.from_notation(GAME.to_notation(state)) == state
    assert GAME.from_json(GAME.to_json(state)) == state
    if state.outcome is not None:
        return
    if state.is_chance:
        moves = [a for a, _ in GAME.chance_outcomes(state)]
        GAME.sample_chance(state, rng)
    else:
        moves = list(GAME.legal_actions(state))
        if moves:
            greedy_policy(state, rng)
    for action in moves[:4]:
        try:
            GAME.apply(state, action)
        except BanditsolveError as exc:  # pragma: no cover - a legal move must apply
            pytest.fail(f"{action} refused on {GAME.to_notation(state)}: {exc}")


@spec_rules("BA-NOTE-1", "BA-ALARM-2", "BA-ALARM-4", "BA-ALARM-5")
@pytest.mark.parametrize("seed", range(4))
def test_changed_fields_are_refused_with_a_rule_or_played(seed: int) -> None:
    rng = random.Random(seed)
    bases = [_played(100 * seed + i) for i in range(12)]
    accepted = refused = 0
    for _ in range(150):
        state = rng.choice(bases)
        for change in rng.sample(CHANGES, rng.randint(1, 3)):
            state = change(state, rng)
        try:
            rules.validate(state)
        except NotationError as exc:
            line = str(exc)
            assert "\n" not in line, line
            assert RULE.search(line), line
            refused += 1
            continue
        accepted += 1
        _plays(state, rng)
    assert accepted
    assert refused


@spec_rules("BA-ALARM-2")
def test_an_alarm_phase_without_an_alarm_is_refused_on_the_command_line() -> None:
    """The reviewer's case: a start state told it is laying an alarm nobody holds (it crashed
    with StopIteration while validate asked the rules where the game stops)."""
    played = run("bandida", "play", "--seed", "3", "--mode", "2", "--json")
    assert played.code == 0
    start = json.loads(played.out)["start"]
    result = run("bandida", "show", f"{start} phase=alarm")
    assert result.code == 2, result
    line = result.err.strip()
    assert "\n" not in line
    assert "BA-ALARM-2" in line, line
    with pytest.raises(NotationError, match="BA-ALARM-2"):
        GAME.from_notation(f"{start} phase=alarm")
    with pytest.raises(NotationError, match="BA-ALARM-2"):
        GAME.from_notation(f"{start} actor=1")
