"""Wrong types, huge numbers and impossible positions given to the Los Banditos Python API get
a library error (one line, naming what and where, quoting a short excerpt), never an
``AttributeError``, ``TypeError`` or bare ``ValueError`` (LB-NOTE-1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from banditsolve import banditos
from banditsolve.banditos import (
    GAME,
    Die,
    best_turn,
    claim_verdict,
    claim_verdict_at,
    completion_odds,
    completion_odds_at,
    parse_dice,
    parse_position,
)
from banditsolve.banditos.rules import apply, apply_all, legal_actions, parse_action
from banditsolve.core.limits import MAX_SEED
from banditsolve.core.text import shown
from banditsolve.errors import (
    ArgumentTypeError,
    BanditsolveError,
    NotationError,
    RuleOptionError,
)
from tests.cli_runner import run
from tests.rules import rules

POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"
ENDGAME = "1:k6k6:r1/1::b5b5b6/-/- - 3321:3221 0h:k2g4"
HUGE = 10**5000
BAD_VALUES: list[object] = [
    None, 7, 2.5, True, [], ["r5"], {"r": 1}, b"r5", HUGE, -HUGE, "x" * 10**5
]


def _refused(call: Callable[[], object], error: type[BanditsolveError] = BanditsolveError) -> str:
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert "\n" not in message, message
    assert len(message) < 400, message
    return message


@rules("LB-NOTE-1")
@pytest.mark.parametrize("value", BAD_VALUES, ids=shown)
def test_readers_refuse_wrong_types_and_huge_values(value: object) -> None:
    readers: list[Callable[[Any], object]] = [
        parse_position, parse_dice, Die.parse, parse_action, banditos.from_json,
        GAME.from_notation, GAME.from_json,
    ]
    for reader in readers:
        if isinstance(value, str | bytes) and reader in (banditos.from_json, GAME.from_json):
            continue  # text is read as JSON: see the next test
        with pytest.raises(BanditsolveError) as info:
            reader(value)
        assert len(str(info.value)) < 400, reader


@rules("LB-NOTE-1")
@pytest.mark.parametrize("value", BAD_VALUES, ids=shown)
def test_solvers_refuse_wrong_types_and_huge_values(value: object) -> None:
    state = parse_position(POSITION)
    mine, theirs = parse_dice("k4 r5 b6"), parse_dice("g5 g6")
    endgame = parse_position(ENDGAME)
    limits_ok = value is None or value in (7, 2.5)
    whole = isinstance(value, int) and not isinstance(value, bool)
    text = isinstance(value, str)
    limit_value = whole and value not in (7,)  # a whole number of seconds, out of range
    # (a seed is a whole number from 0 to MAX_SEED, as --seed takes it)
    seed_ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED
    roll = parse_action("roll")
    # Each call: the call, whether ``value`` is valid there, whether it is of the right type
    # (then a wrong value is refused as a ValueError that is not a TypeError; any other value
    # as an ArgumentTypeError, a TypeError).
    calls: list[tuple[Callable[[], object], bool, bool]] = [
        (lambda: claim_verdict(value, theirs, {"g": 1}), False, text or value == []),
        (lambda: claim_verdict(mine, value, {"g": 1}), value == [], text),
        (lambda: claim_verdict(mine, theirs, value), value == {"r": 1}, value in ([], ["r5"])),
        (lambda: claim_verdict(mine, theirs, (0, 1, 0, 0), backend=value), False, text),  # type: ignore[arg-type]
        (lambda: claim_verdict(mine, theirs, (0, 1, 0, 0), time_limit=value),  # type: ignore[arg-type]
         limits_ok, limit_value),
        (lambda: claim_verdict_at(value, 1), False, False),
        (lambda: claim_verdict_at(state, value), False, whole),
        (lambda: claim_verdict_at(state, 1, player=value), value is None, whole),
        (lambda: claim_verdict_at(state, 1, proof=value), value is None, text),
        (lambda: completion_odds(value, theirs, (1, 1, 1, 1)), False, whole or text or value == []),  # type: ignore[arg-type]
        (lambda: completion_odds(mine, theirs, value), False, value == []),  # type: ignore[arg-type]
        (lambda: completion_odds_at(state, value), False, whole),
        (lambda: completion_odds_at(value, 1), False, False),
        (lambda: best_turn(value), False, False),
        (lambda: best_turn(endgame, time_limit=value), limits_ok, limit_value),  # type: ignore[arg-type]
        (lambda: best_turn(endgame, samples=value), value == 7, whole),  # type: ignore[arg-type]
        (lambda: best_turn(endgame, method=value), False, text),  # type: ignore[arg-type]
        (lambda: best_turn(endgame, seed=value), seed_ok, whole),  # type: ignore[arg-type]
        (lambda: legal_actions(value), False, False),  # type: ignore[arg-type]
        (lambda: apply(value, roll), False, False),  # type: ignore[arg-type]
        (lambda: apply(state, value), False, False),  # type: ignore[arg-type]
        (lambda: apply_all(state, value), value == [], value == ["r5"]),  # type: ignore[arg-type]
        (lambda: GAME.new_game(players=value), value is None, whole),  # type: ignore[arg-type]
        (lambda: GAME.new_game(options=value), value is None, value == {"r": 1}),  # type: ignore[arg-type]
    ]
    for number, (call, valid, right_type) in enumerate(calls):
        if valid:
            call()  # a valid call is accepted: a refusal fails the test
            continue
        with pytest.raises(BanditsolveError) as info:
            call()
        assert "\n" not in str(info.value), (number, str(info.value))
        assert len(str(info.value)) < 400, (number, str(info.value))
        # A wrong type is a TypeError (ArgumentTypeError); a wrong value of the right type is not.
        assert isinstance(info.value, ArgumentTypeError) is not right_type, (
            number, type(info.value).__name__, str(info.value)
        )


@rules("LB-OPT-1")
def test_an_unknown_proof_is_refused_not_answered_strictly() -> None:
    state = parse_position(POSITION)
    message = _refused(lambda: claim_verdict_at(state, 1, proof="x"), RuleOptionError)
    assert "unknown proof option 'x'" in message
    assert "strict, bag" in message


@rules("LB-NOTE-1")
def test_huge_numbers_are_described_not_printed() -> None:
    message = _refused(lambda: claim_verdict(parse_dice("k4 r5 b6"), (), {"r": HUGE}))
    assert "5001-digit number" in message
    assert "5001-digit" in _refused(lambda: best_turn(parse_position(ENDGAME), node_limit=HUGE))
    assert "5001-digit" in _refused(lambda: Die("r", HUGE))  # type: ignore[arg-type]
    assert "5001-digit" in _refused(lambda: claim_verdict_at(parse_position(POSITION), HUGE))


@rules("LB-NOTE-1")
def test_messages_quote_a_short_excerpt_of_long_input() -> None:
    long_text = POSITION + " " + "x" * 10**6
    assert len(_refused(lambda: parse_position(long_text), NotationError)) < 200
    long_die = "r" + "5" * 10**6
    assert len(_refused(lambda: parse_dice(long_die), NotationError)) < 200
    assert len(_refused(lambda: parse_action("place " + long_die + " 1"), NotationError)) < 200


@rules("LB-NOTE-1")
def test_read_state_takes_text_bytes_or_a_path(tmp_path: Path) -> None:
    state = parse_position(POSITION)
    as_json = json.dumps(GAME.to_json(state))
    file = tmp_path / "position.txt"
    file.write_text(POSITION + "\n", encoding="utf-8")
    json_file = tmp_path / "position.json"
    json_file.write_text(as_json, encoding="utf-8")
    sources: list[Any] = [POSITION, POSITION.encode(), as_json, as_json.encode(), file, str(file),
                          json_file]
    for source in sources:
        assert GAME.read_state(source) == state
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + POSITION.encode())
    assert "byte-order mark" in _refused(lambda: GAME.read_state(bom), NotationError)
    latin = tmp_path / "latin.txt"
    latin.write_bytes(POSITION.encode() + b"\xe9")
    assert "not UTF-8" in _refused(lambda: GAME.read_state(latin), NotationError)
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert "empty" in _refused(lambda: GAME.read_state(empty), NotationError)
    assert "no such file" in _refused(lambda: GAME.read_state(tmp_path / "nothing.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_text("1::/2::/3::/1:: 112233 -:- 2a", encoding="utf-8")
    assert str(bad) in _refused(lambda: GAME.read_state(bad), NotationError)
    assert "nested deeper" in _refused(lambda: GAME.read_state("[" * 100 + "]" * 100))


def _doc(**changes: object) -> dict[str, Any]:
    doc = GAME.to_json(parse_position(POSITION))
    doc.update(changes)
    return doc


@rules("LB-NOTE-1")
@pytest.mark.parametrize(
    ("doc", "fragment"),
    [
        (_doc(colour="red"), "unknown field 'colour'"),
        (_doc(bag={"k": 6, "g": 6, "r": 6, "b": 6}), "'bag' contradicts"),
        (_doc(scores=[10, 0]), "'scores' contradicts"),
        (_doc(winner=1), "'winner' contradicts"),
        (_doc(notation="-/-/-/- 1111222333 -:- 0A"), "'notation' contradicts"),
        (_doc(to_move=HUGE), "5001-digit number"),
        (_doc(to_move=True), "whole number"),
        (_doc(stack={"1": 1, "2": 1, "3": 1, "4": 0}), "unknown field '4'"),
        (_doc(stack={"1": 11, "2": 1, "3": 1}), "between 0 and 10"),
        (_doc(stack={"1": 9, "2": 1, "3": 1}), "tiles worth 1: the row, stack and won tiles hold"),
        (_doc(hand=["r5"]), "1 die in hand, but this turn's dice are not drawn yet (LB-TURN-2)"),
        (_doc(hand=["r5r6"], phase="rolled"), "each entry is one die"),
        (_doc(opening="yes"), "'opening' must be true or false"),
        (_doc(options={"proof": "bag", "speed": "fast"}), "unknown Los Banditos rule option"),
        (_doc(options={"unplaceable": "pass"}), "option unplaceable takes one of give_up, return"),
        (_doc(options=["proof=bag"]), "'options' must be a JSON object"),
        (_doc(phase=3), "'phase' must be text, not a number"),
        (_doc(phase="rolling"), "unknown phase 'rolling'"),
        (_doc(game="bandido"), '"game" must be "banditos"'),
        (_doc(row=[None, None, None]), "'row' has 4 entries"),
        (_doc(won=[[3, 3, 3, 1], [3, 2, 2, 2]]), "tiles worth 2: the row, stack and won tiles"),
        ({"game": "banditos"}, "missing field"),
    ],
)
def test_bad_json_positions_say_what_is_wrong(doc: dict[str, Any], fragment: str) -> None:
    message = _refused(lambda: GAME.from_json(doc), NotationError)
    assert fragment in message, message
    if doc.get("to_move") is not HUGE:  # json.dumps cannot write it
        assert fragment in _refused(lambda: GAME.read_state(json.dumps(doc)), NotationError)


@rules("LB-NOTE-1", "LB-COMP-1", "LB-COMP-2", "LB-TURN-4", "LB-RESOLVE-1", "LB-END-1", "LB-WIN-2")
@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1:k1k1k1:/2:k1k1k1:/3::/1:: 112233 -:- 0h:k1", "7 black dice"),
        ("1::/2::/3::/1:: 1122333 -:- 0a", "tiles worth 3"),
        ("1:k1k2k3k4:/2::/3::/1:: 112233 -:- 0a", "at most 3 may lie on a side"),
        ("1:k1k2k3:g1g2g3/2::/3::/1:: 112233 -:- 0a", "both sides hold 3 dice"),
        ("1::/3::/1::/1:: 2 3322:3321 0a", "tiles worth 2: the row, stack and won tiles hold 4"),
        ("-/-/3:k1:/1:: 11122 32:3 0a", "slots 1, 2 wait for a tile"),
        ("-/3::/3::/- 11112223 -:- 0A", "slots 1, 4 wait for a tile"),
        ("1::/3:r1:/1::/1:: 12 3322:- 1r", "no draw can be pending"),
        ("1::/2::/3::/1:: 112233 -:- 0a", "mark the opening turn"),
    ],
)
def test_unreachable_positions_are_refused(text: str, fragment: str) -> None:
    assert fragment in _refused(lambda: parse_position(text), NotationError)


@rules("LB-SETUP-2", "LB-NOTE-1")
def test_the_setup_and_a_shrinking_row_are_reachable() -> None:
    assert parse_position("3::/3::/-/- 11112223 -:- 0A").reveal_pending  # setup, two tiles up
    assert not parse_position("-/-/3:k1:/1:: - 3222:3111 0a").is_chance  # the stack is used up
    assert parse_position("1::/3:r1:/1::/1:: 12 3322:- 1a").is_terminal


@rules("LB-NOTE-1", "LB-NOTE-2")
@pytest.mark.parametrize("value", [None, 7, "1::/2::/3::/1:: 112233 -:- 0a", [], HUGE], ids=shown)
def test_the_game_object_refuses_what_is_not_a_state(value: object) -> None:
    methods: list[Callable[[Any], object]] = [
        GAME.current_player, GAME.legal_actions, GAME.chance_outcomes, GAME.outcome,
        GAME.players, GAME.to_notation, GAME.to_json, GAME.ascii, GAME.svg,
        lambda s: GAME.apply(s, parse_action("roll")),
        lambda s: GAME.action_text(s, parse_action("roll")),
        lambda s: GAME.parse_action(s, "roll"),
    ]
    for method in methods:
        _refused(lambda m=method: m(value), ArgumentTypeError)  # type: ignore[misc]
    state = parse_position(POSITION)
    assert "5001-digit" in _refused(
        lambda: GAME.action_text(state, HUGE), ArgumentTypeError  # type: ignore[arg-type]
    )


@rules("LB-CLAIM-2")
def test_a_solver_backend_cut_short_answers_unknown_not_a_verdict() -> None:
    """CP-SAT given no time to search says unknown (exit 3), naming its limit; it never
    guesses safe or unsafe. From Python and on the command line alike."""
    mine, theirs = parse_dice("k4 r5 b6"), parse_dice("g5 g6")
    verdict = claim_verdict(mine, theirs, (1, 1, 1, 1), backend="cpsat", time_limit=1e-9)
    assert verdict.is_unknown
    assert verdict.safe is None
    assert verdict.witness is None
    answer = verdict.to_answer()
    assert (answer.status, answer.answer, answer.exit_code) == ("unknown", "unknown", 3)
    assert "time limit of 1e-09 s" in answer.reason
    # With time to search, the same backend decides: unsafe, as the closed form says.
    decided = claim_verdict(mine, theirs, (1, 1, 1, 1), backend="cpsat")
    assert decided.safe is False
    assert decided.witness is not None
    shown = run("banditos", "claim", POSITION, "1", "--backend", "cpsat", "--time-limit", "1e-9")
    assert shown.code == 3, shown
    assert shown.out.startswith("slot 1 (strict proof, cpsat): unknown: CP-SAT stopped")
    assert run("banditos", "claim", POSITION, "1", "--backend", "cpsat").code == 1


def test_wrong_types_anywhere_in_the_readers_are_type_errors() -> None:
    """The readers' arguments: a wrong type is an ArgumentTypeError (a TypeError); a value of
    the right type that does not read is a NotationError (not a TypeError)."""
    for call in (
        lambda: parse_dice(5),  # type: ignore[arg-type]
        lambda: parse_position(b"1::/2::/3::/1:: 112233 -:- 0a"),  # type: ignore[arg-type]
        lambda: banditos.from_json(5),
        lambda: banditos.read_position(5),
        lambda: parse_action(["roll"]),  # type: ignore[arg-type]
        lambda: banditos.describe("pair"),  # type: ignore[arg-type]
        lambda: banditos.rank(["k4", "r5", "b6"]),  # type: ignore[list-item]
        lambda: banditos.format_dice(5),
        lambda: banditos.expect_dice({"k": 4}),
    ):
        _refused(call, ArgumentTypeError)
    for call in (
        lambda: parse_dice("k7"),
        lambda: banditos.from_json("[1, 2]"),
        lambda: banditos.read_position(b"nonsense"),
        lambda: banditos.describe(7),  # type: ignore[arg-type]  # no three dice rank 7
        lambda: banditos.rank("k4 r5"),
    ):
        with pytest.raises(NotationError) as info:
            call()
        assert not isinstance(info.value, TypeError), str(info.value)
    assert banditos.describe(banditos.rank("k4 r5 b6")) == "straight 4-5-6"
    assert banditos.rank(list(parse_dice("k4 r5 b6"))) == banditos.rank("b6 r5 k4")
