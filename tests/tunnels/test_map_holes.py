"""Holes on the way to a closure with maps (BA-OPT-14, BA-CLOSE-2): under ``hole=illegal`` or
``hole=loses_at_once`` no winning line walls an exit into a one-cell hole, not even one a later
map would mend; under ``loses`` (the default) a line may. Checked on questions built so that a
card among them can make a hole: the compiled core, the Python reference and the oracle's own
search of every line (``tests/bandida/map_oracle.py``, which finds holes by its own count)
agree under each reading, and every closable line replays on the rules and on the oracle."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from banditsolve.tunnels import Table, can_close
from banditsolve.tunnels.bandida.state import BandidaOptions
from banditsolve.tunnels.cards import parse_card
from banditsolve.tunnels.solvers.mapclose import Readings, readings_of, replay
from banditsolve.tunnels.table import creates_hole, legal_placements
from tests.bandida.map_oracle import MapTable, brute_close, makes_hole, replay_with_maps
from tests.bandida.test_map_closure import MAPS, SMALL
from tests.rules import rules
from tests.tunnels.test_compiled_maps import core_answer, oracle_readings

READINGS = {hole: Readings(hole=hole) for hole in ("loses", "illegal", "loses_at_once")}


def hole_question(seed: int) -> tuple[Table, list[int]] | None:
    """A table of three to seven small cards grown at random from an ``L+R`` start, with a
    card that can wall one of its exits into a one-cell hole, a map and two small cards (None
    when 50 tables in a row have no such card)."""
    rng = random.Random(seed)
    for _ in range(50):
        table = Table.start("L+R")
        for _ in range(rng.randint(3, 7)):
            options = legal_placements(table, parse_card(rng.choice(SMALL)))
            if options:
                table = table.place(rng.choice(options))
        walls = [
            c for c in SMALL
            if any(creates_hole(table, p) for p in legal_placements(table, parse_card(c)))
        ]
        if walls and table.exit_count:
            hole, map_card = parse_card(rng.choice(walls)), parse_card(rng.choice(MAPS))
            return table, [hole, map_card, *(parse_card(rng.choice(SMALL)) for _ in range(2))]
    return None


def walls_a_hole(table: Table, placements: object) -> bool:
    """True when a line (``Closure.placements``, removals aside) walls an exit into a hole by
    the oracle's count, up to its first map that takes cards off."""
    t = MapTable(table.history)
    for p in placements:  # type: ignore[attr-defined]
        if makes_hole(t.plain(), p):
            return True
        t = MapTable([*t.cards, p])
    return False


@rules("BA-OPT-14", "BA-CLOSE-2")
def test_no_line_walls_a_hole_unless_the_hole_reading_allows_it() -> None:
    """On 60 questions where a card can make a hole (seeds 240-299, which hold two whose
    verdicts differ by the reading): the core's verdict under ``illegal`` and
    ``loses_at_once`` is the same, and its closable lines make no hole (the rules' replay says
    so). Where it differs from the verdict under ``loses``, the oracle's search of every line
    and the Python reference give the same verdicts under all three readings, and the line
    under ``loses`` walls an exit into a hole."""
    seen: Counter[str] = Counter()
    for seed in range(240, 300):
        q = hole_question(seed)
        if q is None:
            continue
        table, cards = q
        answers = {h: core_answer(table, cards, "close", r) for h, r in READINGS.items()}
        assert answers["illegal"].status == answers["loses_at_once"].status, seed
        for hole in ("illegal", "loses_at_once"):
            found = answers[hole]
            if found.status == "closable":
                replay_with_maps(table, found, oracle_readings(READINGS[hole]))
        if answers["loses"].status == answers["illegal"].status:
            seen["same"] += 1
            continue
        seen["hole"] += 1
        assert answers["loses"].status == "closable", seed
        assert walls_a_hole(table, answers["loses"].placements), seed
        for hole, r in READINGS.items():
            truth = brute_close(table, cards, oracle_readings(r))
            assert truth == (answers[hole].status == "closable"), (seed, hole)
            python = can_close(
                table, cards, backend="python", options={"hole": hole}, hypothetical=True,
                time_limit=60,
            )
            assert python.status == answers[hole].status, (seed, hole, python.reason)
        assert "wall no exit into a one-cell hole" in can_close(
            table, cards, options={"hole": "illegal"}, hypothetical=True
        ).reason
    assert seen["hole"] >= 2, seen
    assert seen["same"] >= 40, seen


@rules("BA-OPT-14", "BA-CLOSE-3")
def test_the_replay_refuses_a_line_that_walls_a_hole_under_illegal() -> None:
    """A line that makes a hole and mends it with the map replays under ``loses`` and is
    refused (a solver's bug) under ``illegal``."""
    from banditsolve.errors import IllegalActionError

    for seed in range(240, 300):
        q = hole_question(seed)
        if q is None:
            continue
        table, cards = q
        found = core_answer(table, cards, "close", READINGS["loses"])
        if found.status != "closable" or not walls_a_hole(table, found.placements):
            continue
        replay(table, found.placements, found.removals, READINGS["loses"], "close")
        with pytest.raises(IllegalActionError, match="walls an exit into a hole"):
            replay(table, found.placements, found.removals, READINGS["illegal"], "close")
        return
    raise AssertionError("no line with a hole among the questions")


@rules("BA-OPT-14")
def test_a_game_state_reads_its_hole_option() -> None:
    """A Bandida game state's ``hole`` option is among the readings its closure question
    uses."""
    for hole, r in READINGS.items():
        options = BandidaOptions(hole=hole)
        assert readings_of(type("S", (), {"options": options})()).hole == r.hole


def random_state(seed: int) -> object:
    """A Bandida state after random legal moves (8 to 29) from a seeded two-player game of
    mode ``1 + seed % 3``."""
    import banditsolve

    game = banditsolve.load_game("bandida")
    state = game.new_game(2, {"mode": 1 + seed % 3}, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(8, 30)):
        if game.current_player(state) < 0:
            break
        actions = game.legal_actions(state)
        state = game.apply(state, actions[rng.randrange(len(actions))])
    return state


@pytest.mark.slow
@rules("BA-CLOSE-2")
def test_a_hole_only_a_map_mends_is_closed_by_the_default_backend() -> None:
    """States of random games (a user's report) with a one-cell hole that only a map's
    removal mends: the default backend closes them within its default limit (the finder's
    first level after a share of the line search, BA-CLOSE-2), its lines replay on the
    oracle, and the Python reference closes them too."""
    from banditsolve.tunnels.state import GameState

    for seed in (3, 51, 75, 81):
        state = random_state(seed)
        assert isinstance(state, GameState)
        assert state.table.holes(), seed
        found = can_close(state)
        assert found.status == "closable", (seed, found.reason)
        assert found.removals
        replay_with_maps(state.table, found)
        assert can_close(state, backend="python").status == "closable"
