"""Output paths and counts a command is given are checked before any work starts: an empty
``--svg`` name, a folder, a file in a folder that does not exist (no folder is made for it),
``--svg-dir`` and ``--out`` in a missing parent; ``--workers`` below 1. Every verb of every
game with the flag, each refused in one line with exit status 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.strategies.refusal import assert_cli_refuses
from tests.test_fuzz_cli import GAMES, command, positions, verbs

SVG_VERBS = [(g, v) for g in GAMES for v, (pos, flags) in verbs(g).items()
             if "--svg" in flags and "position" in pos]


def test_every_game_has_verbs_that_draw() -> None:
    drawn = {g for g, _v in SVG_VERBS}
    assert drawn == set(GAMES)


@pytest.mark.parametrize(("name", "verb"), SVG_VERBS)
def test_a_bad_svg_path_is_refused_before_any_work(name: str, verb: str, tmp_path: Path) -> None:
    argv = command(name, verb, positions(name)[0])
    folder = tmp_path / "pictures"
    folder.mkdir()
    for target, words in (
        ("", "file name is empty"),
        ("   ", "file name is empty"),
        (str(folder), "is a folder"),
        (str(tmp_path / "missing" / "x.svg"), "does not exist"),
    ):
        result = assert_cli_refuses(*argv, "--svg", target)
        assert "--svg" in result.err, result.err
        assert words in result.err, result.err
    assert not (tmp_path / "missing").exists()
    assert not any(folder.iterdir())


def test_folders_to_write_are_checked_before_any_work(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    for target, words in (
        ("", "folder name is empty"),
        (str(a_file), "is a file"),
        (str(tmp_path / "missing" / "deeper"), "does not exist"),
    ):
        result = assert_cli_refuses("bandido", "play", "--svg-dir", target)
        assert words in result.err, result.err
        result = assert_cli_refuses("demo", "--out", target)
        assert words in result.err, result.err
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("workers", ["0", "-3"])
def test_workers_must_be_at_least_one(workers: str) -> None:
    state = positions("rolling")[1]
    for backend in ("auto", "exact"):
        result = assert_cli_refuses("rolling", "safe", state, "1", "--workers", workers,
                                    "--backend", backend)
        assert "--workers must be from 1" in result.err, result.err


def test_a_study_folder_is_checked_before_any_work(tmp_path: Path) -> None:
    """A study's ``--out`` and ``--report`` are made with their missing parents, but an empty
    name, a file, or a file among the parents is refused before a task runs."""
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    for flag in ("--out", "--report"):
        for target, words in (
            ("", "folder name is empty"),
            (str(a_file), "is a file"),
            (str(a_file / "below"), "is a file"),
        ):
            result = assert_cli_refuses(
                "study", "rolling", "--games", "2", "--executor", "inline", flag, target
            )
            assert flag in result.err, result.err
            assert words in result.err, result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
