"""``banditsolve rolling``: the shared verbs plus ``odds``, ``best`` and ``safe``.

- ``odds POSITION [--symbol R] [--at-least K]``: exact odds of the coming roll (exit 0).
- ``best POSITION``: the best play of this turn, exact (exit 0, or 3 past a limit).
- ``safe POSITION CAR [--player P]``: is car CAR provably P's at the start of their next turn?
  (0 safe, 1 unsafe with a counterexample, 3 unknown within the limits).

Nothing heavy is imported at module level (the handlers import the solvers).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from banditsolve.core.answer import DemoItem
from banditsolve.core.flags import (
    Commands,
    add_limits,
    add_query,
    add_svg,
    count,
    emit_answer,
    write_svg,
)
from banditsolve.core.limits import BEST_TURN_TIME_LIMIT, ODDS_TIME_LIMIT, SAFE_TIME_LIMIT

if TYPE_CHECKING:
    from banditsolve.rolling.state import State


def register(commands: Commands) -> None:
    """Add ``odds``, ``best`` and ``safe`` to ``banditsolve rolling``; positions given on the
    command line may name an edition file (``ed=./mine.json``)."""
    from banditsolve.rolling.edition import allow_edition_files

    allow_edition_files()
    odds = add_query(commands, "odds", "exact odds of the coming roll (lay, trunk, steal)")
    odds.add_argument("--symbol", choices=tuple("RMHBS"), help="only this symbol")
    odds.add_argument(
        "--at-least",
        type=int,
        default=3,
        metavar="K",
        help="dice of a symbol to lay, 0 to 30 (default 3; 0 is certain)",
    )
    add_limits(odds, time_limit=ODDS_TIME_LIMIT, node_limit=None)
    _add_svg(odds)
    odds.set_defaults(handler=cmd_odds)

    best = add_query(commands, "best", "the best play of this turn (exact expected points)")
    add_limits(best, time_limit=BEST_TURN_TIME_LIMIT, node_limit=None)
    best.add_argument("--plain", action="store_true", help="plain enumeration (the baseline)")
    _add_svg(best)
    best.set_defaults(handler=cmd_best)

    safe = add_query(commands, "safe", "is this car provably mine at my next turn? (0 yes, 1 no)")
    safe.add_argument("car", metavar="CAR", type=int, help="the car's number (0: the locomotive)")
    safe.add_argument("--player", type=int, help="whose car (default: who moved last)")
    add_limits(safe, time_limit=SAFE_TIME_LIMIT, node_limit=None)
    safe.add_argument(
        "--plain", action="store_true", help="plain enumeration (the baseline; = --backend plain)"
    )
    safe.add_argument(
        "--backend",
        choices=("auto", "exact", "plain", "cpsat", "z3"),
        help="exact search (default), plain enumeration, the CP-SAT / Z3 model of every "
        "opponent's turn, or auto (exact, then CP-SAT when several opponents play)",
    )
    safe.add_argument(
        "--workers", type=count(1, 64, "--workers"), default=1, help="CP-SAT workers (default 1)"
    )
    _add_svg(safe, "; with an unsafe answer also OUT's stem + '-broken.svg': the end of the line")
    safe.set_defaults(handler=cmd_safe)


def _add_svg(parser: argparse.ArgumentParser, more: str = "") -> None:
    add_svg(parser, f"also write an SVG picture of the position to OUT{more}")


def _picture(args: argparse.Namespace, state: State, broken: State | None = None) -> None:
    if getattr(args, "svg", None) is not None:
        write_svg(args.svg, state.svg())
        if broken is not None:
            out = Path(args.svg)
            write_svg(out.with_name(out.stem + "-broken.svg"), broken.svg())


def cmd_odds(args: argparse.Namespace) -> int:
    from banditsolve.errors import SolverError
    from banditsolve.rolling.solvers.turn import odds

    if not 0 <= args.at_least <= 30:
        raise SolverError(f"--at-least must be between 0 and 30, not {args.at_least}")
    state = _read(args)
    symbol = None if args.symbol is None else "RMHBS".index(args.symbol)
    result = odds(
        state,
        symbol=symbol,
        k=args.at_least,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
    )
    _picture(args, state)
    return emit_answer(args, result.to_answer(), text=result.explain())


def cmd_best(args: argparse.Namespace) -> int:
    from banditsolve.rolling.solvers.turn import best_turn

    state = _read(args)
    result = best_turn(
        state, time_limit=args.time_limit, node_limit=args.node_limit, plain=args.plain
    )
    _picture(args, state)
    return emit_answer(args, result.to_answer(), text=result.explain())


def cmd_safe(args: argparse.Namespace) -> int:
    from banditsolve.errors import SolverError
    from banditsolve.rolling.solvers.safety import is_safe

    if args.plain and args.backend not in (None, "plain"):
        raise SolverError(
            f"--plain clashes with --backend {args.backend}: --plain is --backend plain, "
            "give one of them"
        )
    state = _read(args)
    result = is_safe(
        state,
        args.car,
        args.player,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        share=not args.plain,
        backend=args.backend,
        workers=args.workers,
        seed=getattr(args, "seed", None) or 0,
    )
    broken = None
    if result.safe is False and getattr(args, "svg", None) is not None:
        from banditsolve.rolling.rules import apply_all

        broken = apply_all(state, result.counterexample)
    _picture(args, state, broken)
    return emit_answer(args, result.to_answer(), text=result.explain())


def demo(out_dir: Path, game: str = "rolling") -> Iterator[DemoItem]:
    """A safety question that looks safe but is not, with its picture (``game``: the name the
    demo was asked for; this package has one game)."""
    from banditsolve.rolling.game import GAME
    from banditsolve.rolling.solvers.safety import is_safe

    state = GAME.from_notation(DEMO_UNSAFE)
    answer = is_safe(state, 1, 0, time_limit=20)
    yield DemoItem(
        "a car that looks safe but is not",
        GAME.ascii(state) + "\n" + answer.explain(),
        answer=answer.to_answer(),
        svg=write_svg(out_dir / "rolling-unsafe.svg", GAME.svg(state)),
    )


#: Player 0 leads car 1 by 3 to 2, but player 1 can take everything back and roll seven dice.
DEMO_UNSAFE = (
    "rb ed=default n=2 phase=start turn=1 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M3|H2,2:3/3:H:B1|S2"
    " won=-|- trunks=-|-"
)


def _read(args: argparse.Namespace) -> State:
    """``POSITION`` as a state of this game."""
    from banditsolve.rolling.game import GAME

    return GAME.read_state(args.position)
