"""Coverage-guided fuzz targets for every reader of the library, run by atheris (libFuzzer).

Each target takes the fuzzer's bytes as a user would hand them to a reader and holds it to the
error contract: the reader returns a value, or raises the library's error
(:class:`~banditsolve.errors.BanditsolveError`) in one line. Any other exception (a
``KeyError``, a ``RecursionError``, a ``TypeError`` from inside) is a finding, and so is a
state that does not read back from its own notation and JSON (the round trip). The targets:

- ``banditos``, ``bandido``, ``bandida``, ``rolling``: the game's state reader
  (``GAME.read_state``: its notation or JSON, as text or bytes);
- ``position``: the tunnel games' position reader (``banditsolve.tunnels.read_position``);
- ``action``: each game's action reader on states of a seeded game (the first byte picks one);
- ``deck``: a Bandido or Bandida deck file (``load_deck`` of a ``.json`` file, read from JSON);
- ``edition``: a Rolling Bandits edition file (``load_edition``);
- ``puzzles``: a puzzle file of each game (the first byte picks the game).

Run one with ``python fuzz/targets.py TARGET CORPUS_DIR [libFuzzer flags]``; ``make fuzz``
(``fuzz/run.py``) runs them all for a set time. Not run by CI.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import atheris

with atheris.instrument_imports():
    from banditsolve.banditos import puzzles as banditos_puzzles
    from banditsolve.core.io import load_json
    from banditsolve.core.puzzles import parse_puzzle_list
    from banditsolve.core.registry import load_game
    from banditsolve.errors import BanditsolveError
    from banditsolve.rolling import puzzles as rolling_puzzles
    from banditsolve.rolling.edition import load_edition
    from banditsolve.tunnels import from_json, read_position, to_json, to_notation
    from banditsolve.tunnels import puzzles as tunnel_puzzles
    from banditsolve.tunnels.cards import deck_from_json
    from banditsolve.tunnels.solvers import bandida_puzzles

from fuzz_states import sample

GAMES = ("banditos", "bandido", "bandida", "rolling")
Target = Callable[[bytes], None]


def _contract(call: Callable[[], object]) -> object | None:
    """``call()``, or None when it raised the library's error in one line."""
    try:
        return call()
    except BanditsolveError as exc:
        text = str(exc)
        if "\n" in text or not text.strip():
            raise AssertionError(f"an error message is not one line: {text!r}") from exc
        return None


def _state_reader(name: str) -> Target:
    game: Any = load_game(name)

    def target(data: bytes) -> None:
        state = _contract(lambda: game.read_state(data))
        if state is None:
            return
        again = game.from_notation(game.to_notation(state))
        assert again == state, f"{name}: the notation does not read back"
        assert game.from_json(game.to_json(state)) == state, f"{name}: the JSON does not read back"

    return target


def _position(data: bytes) -> None:
    position: Any = _contract(lambda: read_position(data))
    if position is None:
        return
    assert read_position(to_notation(position)) == position, "a position does not read back"
    assert from_json(to_json(position)) == position, "a position's JSON does not read back"


def _action(data: bytes) -> None:
    if len(data) < 2:
        return
    name = GAMES[data[0] % len(GAMES)]
    states = sample(name)
    state = states[data[1] % len(states)]
    game: Any = load_game(name)
    text = data[2:].decode("utf-8", "replace")
    action = _contract(lambda: game.parse_action(state, text))
    if action is None:
        return
    shown = game.action_text(state, action)
    assert game.parse_action(state, shown) == action, f"{name}: {shown!r} does not read back"
    _contract(lambda: game.apply(state, action))


def _deck(data: bytes) -> None:
    _contract(lambda: deck_from_json(load_json(data, "deck file"), "deck file"))


def _edition(data: bytes) -> None:
    _contract(lambda: load_edition(data))


_PUZZLES: tuple[Callable[[Any], object], ...] = (
    lambda doc: banditos_puzzles.parse_puzzles(doc),
    lambda doc: parse_puzzle_list(doc, rolling_puzzles._make, "puzzles"),
    lambda doc: parse_puzzle_list(doc, tunnel_puzzles._puzzle, "puzzles"),
    lambda doc: parse_puzzle_list(doc, bandida_puzzles._make, "puzzles"),
)


def _puzzles(data: bytes) -> None:
    if not data:
        return
    make = _PUZZLES[data[0] % len(_PUZZLES)]
    _contract(lambda: make(load_json(data[1:], "puzzle file")))


TARGETS: dict[str, Target] = {
    **{name: _state_reader(name) for name in GAMES},
    "position": _position,
    "action": _action,
    "deck": _deck,
    "edition": _edition,
    "puzzles": _puzzles,
}


def main(argv: list[str]) -> None:
    name = argv[1]
    target = TARGETS[name]
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
