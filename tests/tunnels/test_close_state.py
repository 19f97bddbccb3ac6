"""The closure question asked of a game in progress (BD-CLOSE-6, BA-CLOSE-4): from Python
(``can_close(state)``, ``min_cards_to_close(state)``) and on the command line (``bandido close
STATE``, ``bandida close STATE``: notation, JSON, a puzzle's game document, a file or ``-``).

On random legal games of every game and mode, the answer from the state is the answer for the
position that the test builds itself from the state's fields (its table; its hands, pile,
unseen cards and cards set aside), and a closable certificate lays only such cards, each legal
when laid on the oracle's own table."""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from banditsolve.errors import SolverError
from banditsolve.tunnels import Closure, GameState, can_close, card_name, min_cards_to_close
from banditsolve.tunnels.game import BANDIDA, BANDIDO, TunnelGame
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.notation import Position
from banditsolve.tunnels.simulate import play_game
from tests.bandida.test_close_goals import replay_goal
from tests.cli_runner import CliResult, run
from tests.rules import rules

GAMES = {"bandido": BANDIDO, "bandida": BANDIDA}
#: Every game and mode: (game, mode).
CASES = [("bandido", None), ("bandida", 1), ("bandida", 2), ("bandida", 3)]
#: The goal each mode asks (BA-CLOSE-1); Bandido closes every exit.
GOALS = {None: "close", 1: "close", 2: "ladder", 3: "join"}
#: Limits that make an answer the same on every machine (no clock, no forks).
LIMITS: dict[str, Any] = {"node_limit": 1500, "time_limit": None, "workers": 1}
#: Mode 3's node limit there: its two searches share it (each had the 1,500 before).
MODE_3_NODES = 20_000


def options(mode: int | None) -> dict[str, object]:
    return {} if mode is None else {"mode": mode}


def played(game: TunnelGame, mode: int | None, seed: int) -> list[GameState]:
    """Every state before the end of two random legal games: one dealt from a seeded shuffle
    (the pile known), one dealt by chance (the pile unseen), played by the random or the
    greedy policy, the draws sampled by ``random.Random(seed)``."""
    rng = random.Random(seed)
    policy = game.policies()["random" if seed % 2 else "greedy"]
    states: list[GameState] = []
    for state in (game.new_game(2, options(mode), seed=seed), game.new_game(2, options(mode))):
        while state.outcome is None:
            states.append(state)
            action = game.sample_chance(state, rng) if state.is_chance else policy(state, rng)
            state = game.apply(state, action)
    return states


def sampled(name: str, mode: int | None, seeds: range, per_seed: int) -> list[GameState]:
    """``per_seed`` states of each seed's games, the last one among them (few cards left)."""
    out: list[GameState] = []
    for seed in seeds:
        states = played(GAMES[name], mode, seed)
        picks = random.Random(seed).sample(states[:-1], per_seed - 1)
        out += [*picks, states[-1]]
    return out


def unplayed_cards(state: GameState) -> list[int]:
    """The cards not yet played, from the state's fields: hands, pile (known and unseen) and
    the cards an alarm set aside (a Bandida state's field)."""
    aside: tuple[int, ...] = getattr(state, "aside", ())
    return [
        *(c for hand in state.hands for c in hand),
        *state.pile,
        *state.unseen,
        *aside,
    ]


def position_from_fields(state: GameState, name: str, mode: int | None) -> Position:
    """The position of the state's table and its cards not yet played, built here."""
    return Position(state.table, tuple(sorted(unplayed_cards(state))), name, mode=mode)


def same_answer(from_state: Closure, from_position: Closure) -> None:
    """The same answer, the state's with one note more (first) naming its cards."""
    assert from_state.status == from_position.status
    assert from_state.reason == from_position.reason
    assert from_state.placements == from_position.placements
    assert from_state.minimum == from_position.minimum
    assert from_state.goal == from_position.goal
    assert from_state.notes[1:] == from_position.notes


def check_certificate(state: GameState, result: Closure, goal: str) -> None:
    """A closable certificate lays only cards the game has not played (no more copies than
    its hands and pile hold), each legal when laid on the oracle's table, reaching the goal."""
    if result.status != "closable":
        return
    laid = Counter(card_taken(p.card) for p in result.placements)
    held = Counter(card_taken(c) for c in unplayed_cards(state))
    assert laid <= held, laid - held
    replay_goal(state.table, result, goal)


def card_taken(code: int) -> str:
    """The card a placement takes, by name: either side of Bandido's super card (mode 3) is
    the one card."""
    name = card_name(code)
    return "bandido_super" if name.endswith(":bandido_super") else name


# -- Python ------------------------------------------------------------------------------------


@rules("BD-CLOSE-6", "BA-CLOSE-4", "BA-CLOSE-1")
@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_state_asks_its_cards_not_yet_played(name: str, mode: int | None) -> None:
    """can_close and min_cards_to_close of a state answer what they answer for the position
    of its table and its unplayed cards, asked its mode's goal, and say where the cards came
    from and how many; certificates use only those cards."""
    answers: Counter[str] = Counter()
    # (Mode 3's two searches, one per side of Bandido's super card, share the node limit.)
    limits = LIMITS if mode != 3 else {**LIMITS, "node_limit": MODE_3_NODES}
    for i, state in enumerate(sampled(name, mode, range(6), 5)):
        cards = unplayed_cards(state)
        position = position_from_fields(state, name, mode)
        solver = min_cards_to_close if i % 2 else can_close
        result = solver(state, **limits)
        if getattr(state, "pending", "") != "map":
            # (A state that owes its map's removal asks after it: no position says that.)
            same_answer(result, solver(position, **limits))
        assert result.goal == GOALS[mode]
        note = result.notes[0]
        many = f"{len(cards)} card" + ("" if len(cards) == 1 else "s")
        assert note.startswith(f"the game's {many} not yet played")
        hands = sum(len(h) for h in state.hands)
        assert (f"{hands} in the hands" in note) == (hands > 0)
        assert (f"{len(state.unseen)} unseen in the pile" in note) == bool(state.unseen)
        check_certificate(state, result, GOALS[mode])
        answers[result.status] += 1
    # Both answers were compared, certificates and proofs.
    assert answers["closable"], answers
    assert answers["impossible"], answers


@rules("BD-CLOSE-6")
def test_unseen_cards_are_among_the_cards_and_named() -> None:
    """A puzzle's game document with cards of unknown order on the pile: they are among the
    cards to close with (a closure lays cards in any order), and the note counts each part."""
    state = BANDIDO.new_game(2, seed=11)
    doc = BANDIDO.to_json(state)
    puzzle = {
        "game": "bandido",
        "placements": doc["placements"],
        "hands": doc["hands"],
        "pile": doc["pile"][:5],
        "unseen": doc["pile"][5:],
    }
    asked = BANDIDO.from_json(puzzle)
    assert len(asked.unseen) == len(doc["pile"]) - 5
    result = can_close(asked, **LIMITS)
    cards = 6 + len(doc["pile"])
    assert result.notes[0] == (
        f"the game's {cards} cards not yet played: 6 in the hands, 5 in the pile,"
        f" {cards - 11} unseen in the pile"
    )
    same_answer(result, can_close(position_from_fields(asked, "bandido", None), **LIMITS))
    assert result.to_answer().details["notes"][0] == result.notes[0]


@rules("BA-CLOSE-4")
def test_cards_set_aside_by_an_alarm_are_among_the_cards() -> None:
    """While an alarm discards five, the ladder it set aside goes back to the pile: it is
    among the cards (mode 2 asks for it), and the note counts it."""
    state = next(
        s
        for seed in range(100)
        for s in played(BANDIDA, 2, seed)
        if any(card_name(c) == "L:ladder" for c in getattr(s, "aside", ()))
    )
    assert not any(card_name(c) == "L:ladder" for h in state.hands for c in h)
    result = can_close(state, **LIMITS)
    assert result.goal == "ladder"
    assert "1 set aside by an alarm" in result.notes[0]
    assert "no ladder" not in result.reason
    same_answer(result, can_close(position_from_fields(state, "bandida", 2), **LIMITS))


def test_cards_given_are_the_question() -> None:
    """Cards given with a state are the cards asked of its table: no note about the game."""
    state = BANDIDO.new_game(2, seed=2)
    result = can_close(state, ["L", "L", "TL+TR", "TL+TR"], **LIMITS)
    assert result.status == "closable"
    assert not result.notes


@rules("BD-CLOSE-6", "BA-CLOSE-4")
@pytest.mark.parametrize(("name", "mode"), CASES)
def test_a_finished_game_is_refused_in_one_line(name: str, mode: int | None) -> None:
    game = GAMES[name]
    end = play_game(2, seed=5, options=game.options(options(mode)))
    assert end.outcome is not None
    for solver in (can_close, min_cards_to_close):
        with pytest.raises(SolverError, match=r"^the game is over \((won|lost): [^\n]+\)"):
            solver(end)
    line = refused(run(name, "close", game.to_notation(end)))
    assert "the game is over" in line
    assert end.outcome in line


@rules("BA-CLOSE-4")
def test_a_bandida_state_may_name_another_goal_not_another_mode() -> None:
    """A state asks its own mode's goal; a goal named explicitly is asked instead (the
    components stay its mode's); --mode must be the state's own."""
    state = BANDIDA.new_game(2, {"mode": 2}, seed=1)
    assert can_close(state, **LIMITS).goal == "ladder"
    assert can_close(state, goal="close", **LIMITS).goal == "close"
    text = BANDIDA.to_notation(state)
    line = refused(run("bandida", "close", text, "--mode", "3"))
    assert "--mode 3" in line
    assert "mode 2" in line
    assert run("bandida", "close", text, "--mode", "2", "--node-limit", "1").code in (0, 3)


# -- the command line --------------------------------------------------------------------------


class Stdin:
    """A stand-in for ``sys.stdin`` with a byte buffer."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def refused(result: CliResult) -> str:
    """The one line of a refusal (exit status 2, nothing on stdout)."""
    assert result.code == 2, (result.code, result.out[:200], result.err)
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("banditsolve: error: "), result.err
    return lines[0]


def answered(result: CliResult) -> dict[str, Any]:
    assert result.code in (0, 1, 3), result.err
    assert result.err == ""
    data: dict[str, Any] = json.loads(result.out)
    return data


def without_time(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer's JSON without the seconds it took."""
    return {**answer, "stats": {k: v for k, v in answer["stats"].items() if k != "seconds"}}


def late_state(name: str, mode: int | None) -> GameState:
    """The last state of a seeded game that can still close (a certificate to compare)."""
    states = played(GAMES[name], mode, 3)
    return next(s for s in reversed(states) if can_close(s, **LIMITS).status == "closable")


@rules("BD-CLOSE-6", "BA-CLOSE-4")
@pytest.mark.parametrize(("name", "mode"), CASES)
def test_close_reads_a_state_in_every_form(
    name: str, mode: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notation, the JSON, a file and standard input: the same answer as from Python and
    as for the position of the table and the unplayed cards, with cards_from in the JSON and
    the note in the text."""
    game = GAMES[name]
    state = late_state(name, mode)
    flags = ["--node-limit", "1500", "--time-limit", "60", "--workers", "1", "--json"]
    clocked = {**LIMITS, "time_limit": 60.0}  # the node limit decides, as on the command line
    expected = without_time(can_close(state, **clocked).to_answer(name).to_json())
    cards = unplayed_cards(state)
    source = {
        "what": "unplayed",
        "count": len(cards),
        "hands": sum(len(h) for h in state.hands),
        "pile": len(state.pile),
        "unseen": len(state.unseen),
        **({} if name == "bandido" else {"aside": len(getattr(state, "aside", ()))}),
    }
    notation = game.to_notation(state)
    document = json.dumps(game.to_json(state))
    path = tmp_path / "state.txt"
    path.write_text(notation, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", Stdin(document.encode()))
    for given in (notation, document, str(path), "-"):
        answer = answered(run(name, "close", given, *flags))
        assert answer["details"].pop("cards_from") == source
        assert without_time(answer) == expected
    from_position = can_close(position_from_fields(state, name, mode), **clocked)
    assert answer["status"] == from_position.to_answer().status
    assert answer["certificate"] == from_position.to_answer().certificate
    text = run(name, "close", notation, "--node-limit", "1500", "--workers", "1")
    assert f"  with the game's {len(cards)} cards not yet played" in text.lines[1]


@rules("BD-CLOSE-6")
def test_close_reads_a_puzzles_game_document() -> None:
    puzzle = json.dumps(
        {
            "game": "bandido",
            "placements": [{"card": "L+TL+TR+R+BR+BL", "x": 0, "y": 0, "rotation": 0}],
            "hands": [["L", "TL"], ["L+TL"]],
            "pile": [],
            "unseen": [],
        }
    )
    # Every card of the deck must be somewhere: the document is refused in one line.
    assert "deck" in refused(run("bandido", "close", puzzle))
    state = BANDIDO.new_game(2, seed=4)
    doc = BANDIDO.to_json(state)
    whole = {key: doc[key] for key in ("game", "placements", "hands", "pile")}
    answer = answered(run("bandido", "close", json.dumps(whole), "--node-limit", "500", "--json"))
    assert answer["details"]["cards_from"]["count"] == 6 + len(doc["pile"])


@rules("BD-NOTE-4", "BA-NOTE-1")
@pytest.mark.parametrize("command", ["bandido", "bandida"])
@pytest.mark.parametrize("form", ["notation", "json"])
def test_close_refuses_the_other_games_state(command: str, form: str) -> None:
    other = "bandida" if command == "bandido" else "bandido"
    state = GAMES[other].new_game(2, seed=3)
    given = (
        GAMES[other].to_notation(state) if form == "notation"
        else json.dumps(GAMES[other].to_json(state))
    )
    line = refused(run(command, "close", given))
    assert other in line
    assert command in line


@rules("BD-CLOSE-6")
@pytest.mark.parametrize(
    "given",
    [
        "bandido L+TL+TR+R+BR+BL@0,0,0 | hands=L player=zz",
        "bandido L+TL+TR+R+BR+BL@0,0,0 | L pile=L",
        "bandido L+TL+TR+R+BR+BL@0,0,0 | player=0",
        '{"game": "bandido", "placements": [], "hands": 3}',
        '{"game": "bandido", "hands": [["L"]], "player": 0}',
    ],
)
def test_a_malformed_state_is_one_line(given: str) -> None:
    assert "Traceback" not in refused(run("bandido", "close", given))


def test_a_position_is_read_as_before() -> None:
    """A position (cards after the bar, or JSON without "hands") is no game state: its
    answer names no unplayed cards."""
    position = "bandido L+TL+TR+R+BR+BL@0,0,0 | L*2 TL*2 L+TL TL+BL R+BR"
    answer = answered(run("bandido", "close", position, "--json"))
    assert answer["status"] == "yes"
    assert "cards_from" not in answer["details"]
    assert "notes" not in answer["details"]
    doc = {"game": "bandido", "placements": [{"card": "super6", "x": 0, "y": 0, "rotation": 0}]}
    whole = answered(run("bandido", "close", json.dumps(doc), "--node-limit", "200", "--json"))
    assert "cards_from" not in whole["details"]


def test_a_state_is_not_hypothetical() -> None:
    text = BANDIDO.to_notation(BANDIDO.new_game(2, seed=1))
    assert "--hypothetical" in refused(run("bandido", "close", text, "--hypothetical"))


def cells_of(p: Placement) -> tuple[tuple[int, int], tuple[int, int]]:
    """A placement's two cells: square A, and square B on side E + rotation of it (the
    geometry of BD-PLACE-1, worked out here from the placement's fields)."""
    step = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[p.rotation]
    return (p.x, p.y), (p.x + step[0], p.y + step[1])


@rules("BD-OPT-6", "BD-CLOSE-6")
@pytest.mark.parametrize(("name", "mode"), [("bandido", None), ("bandida", 1)])
def test_a_state_on_a_bounded_table_closes_within_its_play_area(
    name: str, mode: int | None
) -> None:
    """A game with table_size=4x3 keeps every card within x -1..2, y -1..1: so does every
    closure asked of its states (at the start, the unbounded game's closures leave it)."""
    game = GAMES[name]

    def inside(p: Placement) -> bool:
        return all(-1 <= x <= 2 and -1 <= y <= 1 for x, y in cells_of(p))

    closed = left = 0
    for seed in range(8):
        state = game.new_game(2, {**options(mode), "table_size": "4x3"}, seed=seed)
        answer = can_close(state, **LIMITS)
        assert all(inside(p) for p in answer.placements), (seed, answer.placements)
        closed += answer.status == "closable"
        free = can_close(game.new_game(2, options(mode), seed=seed), **LIMITS)
        left += not all(inside(p) for p in free.placements)
    assert closed >= 4
    assert left >= 1


@rules("BA-CLOSE-1", "BA-CLOSE-2")
def test_a_closable_answer_claims_no_more_than_was_searched() -> None:
    """In mode 3 the second super card's side is the solver's, one search per side, and the
    map cards are left out of the first searches. On this seeded game the first side searched
    closes with 7 cards and the other with 6, and a closure without the map exists: an answer
    that stopped at the first side does not say fewer cannot, and one whose search without the
    map cards was cut short does not say that none exists."""
    state = BANDIDA.new_game(2, {"mode": 3}, seed=3)
    fewest = min_cards_to_close(state, backend="exact", time_limit=20, workers=1)
    first = can_close(state, backend="exact", time_limit=20, workers=1)
    assert fewest.status == first.status == "closable"
    assert first.cards > fewest.cards  # the case this test is about
    assert "proved that fewer cannot" not in first.reason, first.reason
    assert not any(card_name(p.card).endswith(":map") for p in first.placements)
    hurried = can_close(state, backend="python", time_limit=2, workers=1)
    assert "no closure without the map cards" not in hurried.reason, hurried.reason
    # A limit named in an answer is the one asked, not the share the search without the map
    # cards had of it.
    shared = min_cards_to_close(state, backend="sat", time_limit=2, workers=1)
    assert "time limit" not in shared.reason or "(2 s)" in shared.reason, shared.reason
