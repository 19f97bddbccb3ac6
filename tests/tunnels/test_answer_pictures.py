"""Every tunnel answer drawn (issue 28): a closure's certificate numbered on the table with its
legend, an impossible closure's open exits, an endgame's line as numbered tables, one card's
placements; and the pictures the tunnel objects show in Jupyter, ``str`` and ``repr``.

The pictures are parsed with ElementTree; what they must show is counted from the tables and
the certificates replayed through the rules (``Table.place``), never from the picture code."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from banditsolve.tunnels import (
    Closure,
    Placement,
    Table,
    ascii_art,
    can_close,
    legal_placements,
    load_puzzles,
    min_cards_to_close,
    parse_position,
    solve_game,
)
from banditsolve.tunnels.notation import Position
from banditsolve.tunnels.rules import apply
from banditsolve.tunnels.solvers.endgame import GameSolution, WinShare
from banditsolve.tunnels.solvers.pictures import closure_ascii
from banditsolve.tunnels.state import WON, GameState
from tests.cli_runner import run
from tests.rules import rules

NS = "{http://www.w3.org/2000/svg}"
#: The README's closing example: six exits, seven cards, six close it.
CLOSING = "bandido L+TL+TR+R+BR+BL@0,0,0 | L*2 TL*2 L+TL TL+BL R+BR"
#: The README's hole: the exit west of the start card runs into a one-cell hole.
HOLE = "bandido L+TL+TR+R+BR+BL@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"
#: A Bandida closure that needs the map's removal of three cards.
THROUGH_MAP = (
    "bandida L+TL+TR+R+BR+BL@0,0,0 L+R@-2,0,0 L@0,-1,270 TR@2,1,270"
    " | L+TL+TR:map L+BL L+BL L TL+TR"
)
#: The README's Bandida map example: objects among the closing cards.
OBJECTS = "bandida L+TL+TR+R+BR+BL@0,0,0 L+BL@1,-1,270 | TL TL+TR TL+TR:broken_tool L+TL+TR:map"
#: A Bandida mode-2 closure that lays the ladder (a card with a letter on its first square).
LADDER = "bandida mode=2 L+TL+TR+R+BR+BL@0,0,0 | L:ladder L*2 TL*2 L+TL TL+BL R+BR"
EXIT = re.compile(r"\((-?\d+), (-?\d+)\) ([NESW])")
SIDES = "NESW"


def parsed(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """The ``<g>`` elements whose class list holds ``cls``."""
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{NS}text")]


def words(root: ET.Element) -> str:
    return " ".join(texts(root))


def exits_named(text: str) -> set[tuple[int, int, int]]:
    return {(int(x), int(y), SIDES.index(s)) for x, y, s in EXIT.findall(text)}


def as_tuples(table: Table) -> set[tuple[int, int, int]]:
    return {(e.x, e.y, e.side) for e in table.exits}


def laid(table: Table, placements: tuple[Placement, ...]) -> list[Placement]:
    """The certificate's placements as the rules lay them (normalised, each checked legal)."""
    out = []
    for p in placements:
        table = table.place(p)
        out.append(table.history[-1])
    return out


# -- closable -----------------------------------------------------------------------------------


@rules("BD-NOTE-3")
def test_a_certificate_is_numbered_once_each_on_the_table() -> None:
    position = parse_position(CLOSING)
    result = min_cards_to_close(position)
    assert result.status == "closable"
    n = len(result.placements)
    root = parsed(result._repr_svg_())
    numbered = [g for g in groups(root, "card") if g.get("data-step") is not None]
    # Every card of the certificate drawn exactly once, with the step it was laid at.
    assert sorted(int(g.get("data-step", "0")) for g in numbered) == list(range(1, n + 1))
    certificate = laid(position.table, result.placements)
    for g in numbered:
        step = int(g.get("data-step", "0"))
        title = g.find(f"{NS}title")
        assert title is not None
        assert title.text is not None
        assert str(certificate[step - 1]) in title.text
        # The number is written on the card itself.
        assert [t.get("class") for t in g.iter(f"{NS}text") if t.text == str(step)] == [
            "step-label"
        ]
    # The starting table's cards are drawn plainly: a card, no step.
    plain = [g for g in groups(root, "card") if g.get("data-step") is None]
    assert len(plain) == len(position.table)
    # The closed table has no exit left: no red dot.
    assert not [c for c in root.iter(f"{NS}circle") if c.get("fill") == "#d62828"]


@rules("BD-NOTE-3")
def test_the_legend_lists_each_step_and_the_exits_it_closes() -> None:
    position = parse_position(CLOSING)
    result = min_cards_to_close(position)
    root = parsed(result._repr_svg_())
    legend = [g for g in groups(root, "legend") if g.get("data-step") is not None]
    assert [int(g.get("data-step", "0")) for g in legend] == list(range(1, result.cards + 1))
    table = position.table
    for g, p in zip(legend, result.placements, strict=True):
        line = " ".join(texts(g))
        after = table.place(p)
        assert line.startswith(f"{g.get('data-step')}. {after.history[-1]}")
        # The exits it names are exactly those of the table before it that it closes.
        closed = as_tuples(table) - as_tuples(after)
        assert exits_named(line.partition("closes")[2].partition(";")[0]) == closed
        table = after
    assert not table.exits
    assert f"closable: {result.reason}" in words(root)


@rules("BD-NOTE-3")
def test_the_ascii_answer_numbers_the_steps_and_the_cards() -> None:
    result = run("bandido", "close", CLOSING, "--minimum")
    assert result.code == 0
    certificate = laid(parse_position(CLOSING).table, min_cards_to_close(
        parse_position(CLOSING)).placements)
    steps = [line for line in result.lines if re.match(r"  \d+\. ", line)]
    assert [line.split()[1].rstrip(":") for line in steps] == [str(p) for p in certificate]
    grid = "\n".join(line for line in result.lines if line[:4].strip().lstrip("-").isdigit())
    for n in range(1, len(certificate) + 1):
        assert re.search(rf"[-| ]{n}[-| ]", grid), n


def ascii_step_cells(lines: list[str]) -> dict[int, tuple[int, int]]:
    """The cell each step number sits on in an ASCII picture: its last digit under its
    column's coordinate (the header of numbers), on its row's line (the row's label)."""
    head = next(i for i, line in enumerate(lines) if re.fullmatch(r" +(-?\d+ +)+-?\d+ *", line))
    columns = {m.end() - 1: int(m.group()) for m in re.finditer(r"-?\d+", lines[head])}
    out = {}
    for line in lines[head + 1:]:
        row = re.match(r" *(-?\d+) ", line)
        if row is None or len(row.group()) != 4:
            continue
        for m in re.finditer(r"\d+", line[4:]):
            out[int(m.group())] = (columns[4 + m.end() - 1], int(row.group(1)))
    return out


def svg_step_cells(root: ET.Element, certificate: list[Placement]) -> dict[int, tuple[int, int]]:
    """The cell each step's badge sits on in an SVG picture: the half of its card's outline
    that holds the badge's number."""
    out = {}
    for g in groups(root, "card"):
        if g.get("data-step") is None:
            continue
        step = int(g.get("data-step", "0"))
        label = next(t for t in g.iter(f"{NS}text") if t.get("class") == "step-label")
        rect = g.find(f"{NS}rect")
        assert rect is not None
        x, y = float(label.get("x", "0")), float(label.get("y", "0"))
        left, top = float(rect.get("x", "0")), float(rect.get("y", "0"))
        wide, high = float(rect.get("width", "0")), float(rect.get("height", "0"))
        cells = sorted(certificate[step - 1].cells)  # west or north first
        first_half = x < left + wide / 2 if wide > high else y < top + high / 2
        out[step] = cells[0] if first_half else cells[1]
    return out


@rules("BD-NOTE-3", "BA-NOTE-3")
@pytest.mark.parametrize("text", [CLOSING, LADDER])
def test_both_pictures_number_a_card_on_the_same_square(text: str) -> None:
    """A step's number sits on the same square of its card in the SVG picture and in the
    ASCII one (a square of plain tunnel where the card has one)."""
    position = parse_position(text)
    result = min_cards_to_close(position, time_limit=30)
    assert result.status == "closable"
    certificate = laid(position.table, result.placements)
    ascii_cells = ascii_step_cells(closure_ascii(result, position.table).splitlines())
    svg_cells = svg_step_cells(parsed(result._repr_svg_()), certificate)
    assert set(svg_cells) == set(range(1, len(certificate) + 1))
    assert svg_cells == {n: ascii_cells[n] for n in svg_cells}
    # A special card keeps its letter beside its number (the ladder's H: BA-NOTE-3).
    if ":ladder" in text:
        assert re.search(r"[|\- ]H[|\- ]", closure_ascii(result, position.table))


@rules("BA-NOTE-3", "BA-CLOSE-2")
def test_a_map_s_removals_are_in_the_picture_and_the_legend() -> None:
    position = parse_position(THROUGH_MAP)
    result = can_close(position)
    assert result.status == "closable"
    assert result.removals
    root = parsed(result._repr_svg_())
    numbered = [g for g in groups(root, "card") if g.get("data-step") is not None]
    assert sorted(int(g.get("data-step", "0")) for g in numbered) == list(
        range(1, result.cards + 1)
    )
    removed = [p for r in result.removals for p in r.cards]
    ghosts = groups(root, "removed")
    assert len(ghosts) == len(removed)
    notes = [" ".join(texts(g)) for g in groups(root, "legend") if g.get("data-step") is None]
    taken = [note for note in notes if "remove" in note]
    assert len(taken) == len(result.removals)
    for p in removed:
        assert str(p) in " ".join(taken)
    # The map's own step names its object.
    maps = [g for g in groups(root, "legend") if "[map]" in " ".join(texts(g))]
    assert len(maps) == sum(1 for p in result.placements if ":map" in str(p))


@rules("BA-NOTE-3")
def test_objects_are_named_in_the_legend() -> None:
    result = can_close(parse_position(OBJECTS))
    assert result.status == "closable"
    legend = [" ".join(texts(g)) for g in groups(parsed(result._repr_svg_()), "legend")]
    for p in result.placements:
        line = next(line for line in legend if str(p) in line)
        for kind, word in (("broken_tool", "[tool]"), ("map", "[map]")):
            assert (word in line) == str(p).split("@")[0].endswith(":" + kind)


# -- impossible and unknown ---------------------------------------------------------------------


@rules("BD-NOTE-3")
@pytest.mark.parametrize(("text", "cards"), [(HOLE, None), (CLOSING, 2)])
def test_an_impossible_closure_rings_the_open_exits_and_names_the_reason(
    text: str, cards: int | None
) -> None:
    position = parse_position(text)
    result = can_close(position, max_cards=cards)
    assert result.status == "impossible"
    root = parsed(result._repr_svg_())
    rings = [c for c in root.iter(f"{NS}circle") if c.get("class") == "open-exit"]
    assert len(rings) == len(position.table.exits) == position.table.exit_count
    named = set()
    for ring in rings:
        title = ring.find(f"{NS}title")
        assert title is not None
        assert title.text is not None
        named |= exits_named(title.text)
    assert named == as_tuples(position.table)
    assert not groups(root, "card") or all(g.get("data-step") is None for g in groups(root, "card"))
    assert result.reason.split(":")[0] in words(root)
    out = run("bandido", "close", text, *(["--max-cards", str(cards)] if cards else []))
    assert out.code == 1
    assert exits_named(out.lines[-1]) == as_tuples(position.table)


def test_an_unknown_closure_draws_the_table_and_the_reason() -> None:
    position = parse_position(CLOSING)
    result = can_close(position, node_limit=1, backend="python")
    assert result.status == "unknown"
    root = parsed(result._repr_svg_())
    assert "unknown" in words(root)
    assert "node limit" in words(root)
    assert not [c for c in root.iter(f"{NS}circle") if c.get("class") == "open-exit"]


def test_an_answer_made_by_hand_is_drawn_as_text() -> None:
    root = parsed(Closure("impossible", reason="made by hand")._repr_svg_())
    assert "made by hand" in words(root)


# -- an endgame's line ----------------------------------------------------------------------------

PUZZLES = {p.id: p for p in load_puzzles()}


@rules("BD-SOLVE-1")
def test_a_winning_line_is_a_strip_of_numbered_tables() -> None:
    state = PUZZLES["game-win-2"].state()
    result = solve_game(state)
    assert result.status == "win"
    root = parsed(result._repr_svg_())
    frames = groups(root, "frame")
    assert len(frames) == len(result.line) + 1
    # Each frame's caption names its step; the last is the win, replayed through the rules.
    s = state
    placed = 0
    for k, (frame, move) in enumerate(zip(frames[1:], result.line, strict=True), 1):
        s = apply(s, move.action)
        placed += isinstance(move.action, Placement)
        caption = texts(frame)[-1]
        assert caption.startswith(f"{k}. turn {move.turn}, player {move.player}: {move.action}")
        cards = [g for g in groups(frame, "card") if g.get("data-step") is not None]
        assert len(cards) == placed
        assert len(groups(frame, "card")) == len(s.table)
    assert s.outcome == WON
    assert texts(frames[-1])[-1].endswith("(won)")
    assert texts(frames[0])[-1].startswith("0. start")


@rules("BD-SOLVE-1")
def test_a_lost_game_draws_its_start_with_the_reason() -> None:
    state = PUZZLES["game-lose-1"].state()
    result = solve_game(state)
    assert result.status == "lose"
    root = parsed(result._repr_svg_())
    assert not groups(root, "frame")
    caption = " ".join(t.text or "" for t in root.iter(f"{NS}text") if t.get("font-size") == "12")
    assert caption == f"lose: {result.reason}"
    # The start's table: one outline per card.
    assert len([r for r in root.iter(f"{NS}rect") if r.get("rx")]) == len(state.table)


def test_a_win_share_is_drawn_as_bars() -> None:
    share = WinShare(won=3, lost=1, unknown=1, samples=5, share=0.8, low=0.4, high=0.96)
    root = parsed(share._repr_svg_())
    bars = groups(root, "bar")
    assert [texts(b)[0] for b in bars] == ["won", "lost", "undecided"]
    assert "80.0%" in words(root)


# -- placements ------------------------------------------------------------------------------------


def test_placements_are_numbered_outlines_on_the_table(tmp_path: Path) -> None:
    out = tmp_path / "spots.svg"
    result = run("bandido", "placements", CLOSING, "L+TL", "--svg", str(out))
    assert result.code == 0
    root = parsed(out.read_text(encoding="utf-8"))
    legal = legal_placements(parse_position(CLOSING).table, "L+TL")
    spots = groups(root, "placement")
    assert sorted(int(g.get("data-index", "0")) for g in spots) == list(range(1, len(legal) + 1))
    shown = []
    for g in spots:
        title = g.find(f"{NS}title")
        assert title is not None
        assert title.text is not None
        assert title.text.startswith(f"placement {g.get('data-index')}: ")
        shown.append(title.text.partition(": ")[2])
    assert sorted(shown) == sorted(str(p) for p in legal)
    numbered = [line for line in result.lines if re.match(r"  \d+\. ", line)]
    assert len(numbered) == len(legal)


# -- the command line's --svg ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("bandido", "close", CLOSING, "--minimum"),
        ("bandido", "close", HOLE),
        ("bandido", "close", CLOSING, "--node-limit", "1", "--backend", "python"),
        ("bandida", "close", THROUGH_MAP),
        ("bandido", "placements", CLOSING, "TL"),
    ],
)
def test_svg_flag_writes_a_parsable_answer(argv: tuple[str, ...], tmp_path: Path) -> None:
    out = tmp_path / "answer.svg"
    result = run(*argv, "--svg", str(out))
    assert result.code in (0, 1, 3), result.err
    parsed(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("puzzle", ["game-win-2", "game-lose-1"])
def test_solve_svg_flag(puzzle: str, tmp_path: Path) -> None:
    import json

    doc = tmp_path / "game.json"
    doc.write_text(json.dumps(dict(PUZZLES[puzzle].document or {})), encoding="utf-8")
    out = tmp_path / "line.svg"
    result = run("bandido", "solve", str(doc), "--svg", str(out))
    assert result.code in (0, 1)
    root = parsed(out.read_text(encoding="utf-8"))
    expected = PUZZLES[puzzle].expected
    if expected["status"] == "win":
        assert len(groups(root, "frame")) == expected["turns"] + 1
        steps = [line for line in result.lines if re.match(r"  \d+\. turn ", line)]
        assert len(steps) == expected["turns"]
    else:
        assert not groups(root, "frame")
    assert result.lines[0].startswith(expected["status"] + ": ")


# -- Jupyter, str and repr ----------------------------------------------------------------------


def _states() -> list[GameState]:
    from banditsolve.tunnels import BANDIDA, BANDIDO

    return [
        BANDIDO.new_game(2, seed=1),
        PUZZLES["game-win-1"].state(),
        BANDIDA.new_game(2, {"mode": 2}, seed=3),
    ]


def test_every_object_and_answer_displays_as_svg() -> None:
    position = parse_position(CLOSING)
    objects: list[object] = [
        position.table,
        position,
        parse_position(OBJECTS),
        *_states(),
        min_cards_to_close(position),
        can_close(position, max_cards=2),
        solve_game(PUZZLES["game-win-2"].state()),
        solve_game(PUZZLES["game-lose-1"].state()),
        GameSolution("unknown", (), "made by hand", 0, 0.0),
        WinShare(1, 1, 0, 2, 0.5, 0.1, 0.9),
    ]
    for thing in objects:
        root = parsed(thing._repr_svg_())  # type: ignore[attr-defined]
        assert float(root.get("width", "0")) > 0, thing
        assert float(root.get("height", "0")) > 0, thing
        # something is drawn beyond the background: a card, a label or a bar
        drawn = [e for e in root.iter() if e.tag in (f"{NS}g", f"{NS}text", f"{NS}path")]
        assert drawn, thing
    # an answer's picture says what the answer is
    closable = min_cards_to_close(position)
    texts = " ".join(e.text or "" for e in parsed(closable._repr_svg_()).iter(f"{NS}text"))
    assert "closable" in texts


def test_str_of_a_state_is_its_ascii_picture() -> None:
    from banditsolve.tunnels import BANDIDA, BANDIDO

    bandido, _, bandida = _states()
    assert str(bandido) == BANDIDO.ascii(bandido)
    assert str(bandida) == BANDIDA.ascii(bandida)
    assert "GameState(" not in str(bandido)
    assert "hands: player 0" in str(bandido)
    position = parse_position(CLOSING)
    assert str(position).startswith(ascii_art(position.table, position.remaining))
    assert str(position).splitlines()[-1] == "cards to come (7): L*2 TL*2 L+TL*2 TL+BL"
    assert str(position.table) == ascii_art(position.table)


def _namespace() -> dict[str, object]:
    import banditsolve.tunnels as tunnels

    return {name: getattr(tunnels, name) for name in tunnels.__all__}


@pytest.mark.parametrize(
    "text",
    [CLOSING, HOLE, OBJECTS, "bandida mode=2 L+TL+TR+R+BR+BL@0,0,0 | L:ladder TL",
     "bandido hypothetical L+TL+TR+R+BR+BL@0,0,0 | L*5"],
)
def test_repr_of_a_position_reads_it_back(text: str) -> None:
    position = parse_position(text)
    line = repr(position)
    assert "\n" not in line
    assert line.startswith("parse_position(")
    back = eval(line, _namespace())
    assert isinstance(back, Position)
    assert back == position


def test_repr_of_a_state_is_one_short_line() -> None:
    """A game state's notation holds the whole deck (60 cards and more), so its repr sums it
    up in one line and names the call that writes the notation, which reads it back."""
    from banditsolve.tunnels import BANDIDA, BANDIDO

    for game, state in ((BANDIDO, _states()[0]), (BANDIDO, _states()[1]), (BANDIDA, _states()[2])):
        line = repr(state)
        assert "\n" not in line
        assert len(line) < 200
        assert f"turn {state.turn}," in line
        assert f"pile {state.pile_size}," in line
        assert f"player {state.to_act} to act" in line
        hint = f"{game.name.upper()}.to_notation(state)"
        assert hint in line
        namespace = {**_namespace(), "state": state}
        assert eval(f"{game.name.upper()}.from_notation({hint})", namespace) == state


def test_repr_of_a_table_is_one_short_line() -> None:
    table = parse_position(HOLE).table
    line = repr(table)
    assert line == (
        "<Table of 4 cards, 4 exits: L+TL+TR+R+BR+BL@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 ...>"
    )


def test_solve_with_unseen_cards_draws_the_shuffles_won(tmp_path: Path) -> None:
    from banditsolve.tunnels import BANDIDO

    state = BANDIDO.to_notation(BANDIDO.new_game(2))  # (no seed: the pile unseen)
    assert "unseen=" in state
    out = tmp_path / "share.svg"
    result = run(
        "bandido", "solve", state, "--samples", "2", "--time-limit", "0.2", "--svg", str(out)
    )
    assert result.code == 3  # an estimate, not a proof
    bars = groups(parsed(out.read_text(encoding="utf-8")), "bar")
    assert [texts(b)[0] for b in bars] == ["won", "lost", "undecided"]
