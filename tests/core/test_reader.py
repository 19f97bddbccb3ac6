"""The one state reader (``core.io.read_state``): text, bytes, a file or ``-`` (standard
input), the same limits for every game, and errors that name the file."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import banditsolve
from banditsolve.core.io import read_state
from banditsolve.core.limits import MAX_INPUT_BYTES
from banditsolve.core.protocol import CHANCE
from banditsolve.errors import NotationError
from tests.cli_runner import run


def parse_words(text: str) -> tuple[str, ...]:
    words = tuple(text.split())
    if words[0] != "ok":
        raise NotationError("the first word must be ok")
    return words


def parse_doc(doc: object) -> tuple[str, ...]:
    if not isinstance(doc, dict):
        raise NotationError("not an object")
    return ("json", *sorted(doc))


def read(source: object) -> tuple[str, ...]:
    return read_state(source, notation=parse_words, json_document=parse_doc)


class Stdin:
    """A stand-in for ``sys.stdin`` with a byte buffer."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_text_bytes_files_and_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert read("ok go") == ("ok", "go")
    assert read(b'{"b": 1, "a": 2}') == ("json", "a", "b")
    path = tmp_path / "position.txt"
    path.write_text("ok file\n", encoding="utf-8")
    assert read(path) == ("ok", "file")
    assert read(str(path)) == ("ok", "file")
    monkeypatch.setattr(sys, "stdin", Stdin(b"ok piped\n"))
    assert read("-") == ("ok", "piped")


def test_an_error_names_the_file_or_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("no good", encoding="utf-8")
    with pytest.raises(NotationError, match=r"bad\.txt: the first word must be ok"):
        read(path)
    with pytest.raises(NotationError, match=r"^the first word must be ok$"):
        read("no good")
    monkeypatch.setattr(sys, "stdin", Stdin(b"no good"))
    with pytest.raises(NotationError, match=r"^standard input: the first word must be ok$"):
        read("-")
    monkeypatch.setattr(sys, "stdin", Stdin(b"ok " + b"x" * MAX_INPUT_BYTES))
    with pytest.raises(NotationError, match="standard input holds more than"):
        read("-")
    monkeypatch.setattr(sys, "stdin", Stdin(b"\xff\xfe"))
    with pytest.raises(NotationError, match="standard input is UTF-16"):
        read("-")


@pytest.mark.parametrize("name", banditsolve.games())
def test_every_game_reads_standard_input_and_names_a_bad_file(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = banditsolve.load_game(name)
    state = game.new_game(seed=1)
    text = game.to_notation(state)
    monkeypatch.setattr(sys, "stdin", Stdin(text.encode()))
    assert game.read_state("-") == state
    monkeypatch.setattr(sys, "stdin", Stdin(text.encode()))
    shown = run(name, "show", "-", "--json")
    assert shown.code == 0, shown.err
    bad = tmp_path / "broken.txt"
    bad.write_text(text[: len(text) // 2] + " ??", encoding="utf-8")
    with pytest.raises(NotationError, match=r"^\S*broken\.txt: "):
        game.read_state(bad)


@pytest.mark.parametrize("name", banditsolve.games())
def test_what_new_and_apply_print_feeds_the_next_command_and_nothing_like_it_does(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = banditsolve.load_game(name)
    state = game.new_game(seed=2)
    chance = game.current_player(state) == CHANCE
    actions = [a for a, _ in game.chance_outcomes(state)] if chance else game.legal_actions(state)
    action = game.action_text(state, actions[0]) if actions else None
    printed = run(name, "new", "--seed", "2")
    assert printed.code == 0, printed.err
    monkeypatch.setattr(sys, "stdin", Stdin(printed.out.encode()))
    assert game.read_state("-") == state
    if name in ("bandido", "bandida"):  # close and show read a position or a game state
        assert game.read_position_or_state(printed.out) == state  # type: ignore[attr-defined]
        monkeypatch.setattr(sys, "stdin", Stdin(printed.out.replace("\n", "\r\n").encode()))
        shown = run(name, "show", "-")
        assert shown.code == 0, shown.err
    if action is not None:
        monkeypatch.setattr(sys, "stdin", Stdin(printed.out.encode()))
        applied = run(name, "apply", "-", action)
        assert applied.code == 0, applied.err
        monkeypatch.setattr(sys, "stdin", Stdin(applied.out.encode()))
        assert game.read_state("-") == game.apply(state, game.parse_action(state, action))
    # Only the picture of that very state, whole: one changed, cut or added line is refused.
    first, picture = printed.out.split("\n\n", 1)
    lines = picture.rstrip("\n").split("\n")
    for text in (
        f"{first}\n\n" + "\n".join(lines[:-1]),
        f"{first}\n\n{picture}more\n",
        f"{first}\n{picture}",
        f"{first}\n\n" + picture.replace(lines[0], lines[0][:-1] + "#", 1),
    ):
        with pytest.raises(NotationError, match=r"the text has \d+ lines"):
            game.read_state(text)


@pytest.mark.parametrize("name", banditsolve.games())
def test_every_game_refuses_a_json_field_name_that_is_not_text(name: str) -> None:
    """A document built in Python may have keys of any type: the reader names the odd one
    in one line (not a TypeError from sorting mixed keys)."""
    game = banditsolve.load_game(name)
    doc: dict[object, object] = dict(game.to_json(game.new_game(seed=1)).items())
    for odd in (1, None, (1,)):
        broken: dict[object, object] = {**doc, odd: 2, "zz": 3}
        with pytest.raises(NotationError, match=r"field name must be text, not") as caught:
            game.from_json(broken)
        assert "\n" not in str(caught.value)
