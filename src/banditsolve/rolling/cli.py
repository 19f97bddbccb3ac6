"""``banditsolve rolling``: the shared verbs plus ``odds``, ``best`` and ``safe``.

- ``odds POSITION [--symbol R] [--at-least K]``: exact odds of the coming roll (exit 0).
- ``best POSITION``: the best play of this turn, exact (exit 0, or 3 past a limit).
- ``safe POSITION WAGON [--player P]``: is wagon WAGON provably P's at the start of their next
  turn? (0 safe, 1 unsafe with a counterexample, 3 unknown within the limits; a wagon P does not
  hold is refused, exit 2).

Each draws its answer: ``--svg OUT`` writes the picture (the odds as bars, the best turn as
numbered steps, the safety verdict on the train with a counterexample's steps numbered), and the
text printed after the answer's line is the same picture in ASCII (as every game's query verbs
print theirs).

The shipped puzzles (``rolling puzzles``, ``rolling puzzle ID [--solve]``) are listed, shown and
solved by :func:`puzzle_list`, :func:`puzzle_view` and :func:`solve_puzzle`
(:class:`~banditsolve.core.hooks.PuzzleHooks`).

Nothing heavy is imported at module level (the handlers import the solvers).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from banditsolve.core.answer import DemoItem
from banditsolve.core.flags import (
    Commands,
    add_limits,
    add_query,
    add_svg,
    count,
    emit_answer,
    python_args,
    python_text,
    write_svg,
)
from banditsolve.core.limits import (
    BEST_TURN_TIME_LIMIT,
    ODDS_TIME_LIMIT,
    PUZZLE_TIME_LIMIT,
    SAFE_TIME_LIMIT,
)

if TYPE_CHECKING:
    from banditsolve.core.answer import Answer
    from banditsolve.core.puzzles import PuzzleCard, PuzzleView, SolvedPuzzle
    from banditsolve.rolling.puzzles import Puzzle
    from banditsolve.rolling.state import State


def register(commands: Commands) -> None:
    """Add ``odds``, ``best`` and ``safe`` to ``banditsolve rolling``; positions given on the
    command line may name an edition file (``ed=./mine.json``)."""
    from banditsolve.rolling.edition import allow_edition_files

    allow_edition_files()
    odds = add_query(commands, "odds", "exact odds of the coming roll (lay, trunk, steal)",
                     snippet=odds_python)
    odds.add_argument("--symbol", choices=tuple("RMHBS"), help="only this symbol")
    odds.add_argument(
        "--at-least",
        type=int,
        default=3,
        metavar="K",
        help="dice of a symbol to lay, 0 to 30 (default 3; 0 is certain)",
    )
    add_limits(odds, time_limit=ODDS_TIME_LIMIT, node_limit=None)
    _add_drawing(odds, "the odds as a bar chart")
    odds.set_defaults(handler=cmd_odds)

    best = add_query(commands, "best", "the best play of this turn (exact expected points)",
                     snippet=best_python)
    add_limits(best, time_limit=BEST_TURN_TIME_LIMIT, node_limit=None)
    best.add_argument("--plain", action="store_true", help="plain enumeration (the baseline)")
    _add_drawing(best, "the best turn as numbered steps, a train after each")
    best.set_defaults(handler=cmd_best)

    safe = add_query(commands, "safe", "is this wagon provably mine at my next turn? (0 yes, 1 no)",
                     snippet=safe_python)
    safe.add_argument(
        "wagon", metavar="WAGON", type=int, help="the wagon's number (0: the locomotive)"
    )
    safe.add_argument(
        "--player",
        type=int,
        help="who holds the wagon (default: who moved last); a wagon they do not hold (would "
        "not steal now) is refused",
    )
    add_limits(safe, time_limit=SAFE_TIME_LIMIT, node_limit=None)
    safe.add_argument(
        "--plain", action="store_true", help="plain enumeration (the baseline; = --backend plain)"
    )
    safe.add_argument(
        "--backend",
        choices=("auto", "exact", "plain", "cpsat", "z3"),
        help="auto (default: the exact search, then the CP-SAT model when several opponents "
        "play and the search has not answered within 2,000 positions and half the time limit), "
        "the exact search, plain enumeration, or the CP-SAT / Z3 model of every opponent's turn",
    )
    safe.add_argument(
        "--workers", type=count(1, 64, "--workers"), default=1, help="CP-SAT workers (default 1)"
    )
    _add_drawing(
        safe,
        "the verdict on the train; when the wagon can be lost, the steps of the line that "
        "breaks it numbered on the wagons they touch, and the train after it",
    )
    safe.set_defaults(handler=cmd_safe)


def _add_drawing(parser: argparse.ArgumentParser, what: str) -> None:
    add_svg(parser, f"also write the answer drawn as SVG to OUT: {what}")


class _Drawn(Protocol):
    def explain(self) -> str: ...

    def svg(self) -> str: ...

    def ascii(self) -> str: ...

    def to_answer(self) -> Answer: ...


def _answer(args: argparse.Namespace, result: _Drawn) -> int:
    """Write the answer's picture (``--svg``), then print the answer and its picture in text, and
    return its exit status."""
    if getattr(args, "svg", None) is not None:
        write_svg(args.svg, result.svg())
    text = result.explain() + "\n\n" + result.ascii()
    return emit_answer(args, result.to_answer(), text=text)


def odds_python(args: argparse.Namespace) -> str:
    symbol = None if args.symbol is None else "RMHBS".index(args.symbol)
    call = python_args(symbol=symbol, k=args.at_least, time_limit=args.time_limit,
                       node_limit=args.node_limit)
    return python_text(args, ["from banditsolve.rolling.solvers.turn import odds"],
                       f"odds(state, {call})")


def best_python(args: argparse.Namespace) -> str:
    call = python_args(time_limit=args.time_limit, node_limit=args.node_limit, plain=args.plain)
    return python_text(args, ["from banditsolve.rolling.solvers.turn import best_turn"],
                       f"best_turn(state, {call})")


def safe_python(args: argparse.Namespace) -> str:
    call = python_args(args.wagon, args.player, time_limit=args.time_limit,
                       node_limit=args.node_limit, share=not args.plain, backend=args.backend,
                       workers=args.workers, seed=getattr(args, "seed", None) or 0)
    return python_text(args, ["from banditsolve.rolling.solvers.safety import is_safe"],
                       f"is_safe(state, {call})")


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
    return _answer(args, result)


def cmd_best(args: argparse.Namespace) -> int:
    from banditsolve.rolling.solvers.turn import best_turn

    state = _read(args)
    result = best_turn(
        state, time_limit=args.time_limit, node_limit=args.node_limit, plain=args.plain
    )
    return _answer(args, result)


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
        args.wagon,
        args.player,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        share=not args.plain,
        backend=args.backend,
        workers=args.workers,
        seed=getattr(args, "seed", None) or 0,
    )
    return _answer(args, result)


def demo(out_dir: Path, game: str = "rolling") -> Iterator[DemoItem]:
    """A safety question that looks safe but is not, with its picture (``game``: the name the
    demo was asked for; this package has one game)."""
    from banditsolve.rolling.game import GAME
    from banditsolve.rolling.solvers.safety import is_safe

    state = GAME.from_notation(DEMO_UNSAFE)
    answer = is_safe(state, 1, 0, time_limit=20)
    yield DemoItem(
        "a wagon that looks safe but is not",
        answer.ascii(),
        answer=answer.to_answer(),
        svg=write_svg(out_dir / "rolling-unsafe.svg", answer.svg()),
    )


#: Player 0 leads wagon 1 by 3 to 2, but player 1 can take everything back and roll seven dice.
DEMO_UNSAFE = (
    "rb ed=default n=2 phase=start turn=1 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M3|H2,2:3/3:H:B1|S2"
    " won=-|- trunks=-|-"
)


def _read(args: argparse.Namespace) -> State:
    """``POSITION`` as a state of this game."""
    from banditsolve.rolling.game import GAME

    return GAME.read_state(args.position)


# -- puzzles --------------------------------------------------------------------------------


def _card(p: Puzzle) -> PuzzleCard:
    from banditsolve.core.puzzles import PuzzleCard

    question = {
        "lay": f"the chance that the coming roll lays {p.k} or more dice of {p.symbol}",
        "safe": f"is wagon {p.wagon} provably player {p.player}'s at their next turn?",
        "trunk": "the one wagon whose trunk some laying of this roll carries off",
        "ambush": "the ambush swap that carries off the most trunks",
        "steal": f"the chance, with the best play of the rest of the turn, that wagon "
                 f"{p.wagon} is the mover's to steal at their next turn",
    }[p.question]
    return PuzzleCard(p.id, p.description, question)


def _puzzle(game: str, puzzle_id: str) -> Puzzle:
    from banditsolve.core.puzzles import pick
    from banditsolve.rolling.puzzles import load_puzzles

    return pick(load_puzzles(), _card, puzzle_id, game)


def puzzle_list(game: str) -> tuple[PuzzleCard, ...]:
    """The shipped puzzles: laying odds, safe wagons, trunks, the ambush, the chance to steal."""
    from banditsolve.rolling.puzzles import load_puzzles

    return tuple(map(_card, load_puzzles()))


def puzzle_view(game: str, puzzle_id: str) -> PuzzleView:
    """One puzzle's position, drawn."""
    from banditsolve.core.puzzles import state_view
    from banditsolve.rolling.game import GAME

    p = _puzzle(game, puzzle_id)
    return state_view(_card(p), p.position, GAME, p.state())


def solve_puzzle(game: str, puzzle_id: str) -> SolvedPuzzle:
    """The puzzle's question answered by the solvers, checked against the stored answer."""
    from banditsolve.core.puzzles import solved
    from banditsolve.core.text import plural
    from banditsolve.rolling.edition import LETTERS
    from banditsolve.rolling.solvers.safety import is_safe
    from banditsolve.rolling.solvers.turn import (
        best_ambush,
        chance_to_lay,
        steal_chance,
        trunk_wagons,
    )

    p = _puzzle(game, puzzle_id)
    view = puzzle_view(game, puzzle_id)
    state = p.state()
    if p.question == "safe":
        verdict = is_safe(state, p.wagon, p.player, time_limit=PUZZLE_TIME_LIMIT)
        found = None if verdict.safe is None else ("safe" if verdict.safe else "unsafe")
        return solved(view, verdict.explain(), found, p.answer, verdict,
                      unknown=verdict.safe is None)
    if p.question == "lay":
        chance = chance_to_lay(state, LETTERS.index(p.symbol), p.k)
        text = f"{chance} ({float(chance):.2%}) to lay {p.k} or more dice of {p.symbol}"
        return solved(view, text, str(chance), p.answer, chance)
    if p.question == "steal":
        chance = steal_chance(state, p.wagon)
        text = f"{chance} ({float(chance):.2%}) that wagon {p.wagon} is the mover's to steal"
        return solved(view, text, str(chance), p.answer, chance)
    if p.question == "trunk":
        wagons = trunk_wagons(state)
        listed = ",".join(map(str, wagons))
        text = (f"wagon {listed}'s trunk" if len(wagons) == 1
                else f"the trunks of wagons {listed}") + " can be carried off this turn"
        return solved(view, text, listed, p.answer, wagons)
    swap, trunks = best_ambush(state)
    text = f"{swap}: it carries off {plural(trunks, 'trunk')}"
    ambush = swap if trunks == p.k else f"{swap} ({trunks} trunks)"
    return solved(view, text, ambush, p.answer, swap)
