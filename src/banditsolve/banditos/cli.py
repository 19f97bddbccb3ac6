"""Los Banditos' own questions on the command line: ``claim``, ``odds`` and ``best``, and the
game's demo, and its shipped puzzles for ``banditos puzzles`` and ``banditos puzzle ID
[--solve]`` (:class:`~banditsolve.core.hooks.PuzzleHooks`; the shared verbs ``show``,
``moves``, ``apply``, ``play`` and the puzzle verbs come from :mod:`banditsolve.cli.verbs`).
Solver modules are imported only when a command runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from banditsolve.core.answer import DemoItem

if TYPE_CHECKING:
    from banditsolve.banditos.puzzles import Puzzle
    from banditsolve.banditos.state import State
    from banditsolve.core.puzzles import PuzzleCard, PuzzleView, SolvedPuzzle
from banditsolve.core.flags import (
    Commands,
    add_limits,
    add_query,
    add_seed,
    add_svg,
    count,
    emit_answer,
    python_args,
    python_text,
    write_svg,
)
from banditsolve.core.limits import (
    BANDITOS_BEST_NODE_LIMIT,
    BANDITOS_BEST_TIME_LIMIT,
    CLAIM_TIME_LIMIT,
    PUZZLE_TIME_LIMIT,
)

#: The README's position: slot 1's straight 4-5-6 looks strong but falls to a green 4 under the
#: strict proof; it is safe under the bag proof (every green die is on a tile).
DEMO_POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"

_TILE_HELP = "the tile's slot, 1 to 4"


def register(commands: Commands) -> None:
    """Add ``claim``, ``odds`` and ``best`` to ``banditsolve banditos``."""
    claim = add_query(commands, "claim", "is a claim on a tile provably safe? (0 safe, 1 unsafe)",
                      snippet=claim_python)
    claim.add_argument("tile", metavar="TILE", type=int, choices=(1, 2, 3, 4), help=_TILE_HELP)
    claim.add_argument(
        "--proof",
        choices=("strict", "bag"),
        help="strict: the opponent may get any die not on this tile; bag: only dice in the bag "
        "(default: the position's proof option)",
    )
    claim.add_argument(
        "--backend",
        choices=("exact", "cpsat", "z3"),
        default="exact",
        help="exact closed form (default), an OR-Tools CP-SAT model or a Z3 model",
    )
    claim.add_argument("--player", type=int, choices=(0, 1), help="claimant (default: to move)")
    add_svg(claim, "also write a picture of the answer to OUT: the claim, and beside it the "
            "opponent's beating dice (unsafe), why it holds (safe) or the reason (unknown)")
    add_limits(
        claim,
        time_limit=CLAIM_TIME_LIMIT,
        node_limit=None,
        time_help=f"wall-clock limit of the cpsat and z3 backends (default {CLAIM_TIME_LIMIT:g} "
        "s); past it the answer is unknown (exit 3)",
        nodes_too=False,
    )
    claim.set_defaults(handler=cmd_claim)

    odds = add_query(
        commands, "odds", "exact odds that the opponent's side, filled from the bag, beats yours",
        snippet=odds_python,
    )
    odds.add_argument("tile", metavar="TILE", type=int, choices=(1, 2, 3, 4), help=_TILE_HELP)
    odds.add_argument(
        "--player", type=int, choices=(0, 1), help="whose full side (default: to move)"
    )
    add_svg(odds, "also write a picture of the answer to OUT: a bar chart of the three outcomes")
    odds.set_defaults(handler=cmd_odds)

    best = add_query(
        commands,
        "best",
        "best play this turn and the chance of winning (0 exact, 3 an estimate or unknown)",
        snippet=best_python,
    )
    add_limits(
        best,
        time_limit=BANDITOS_BEST_TIME_LIMIT,
        node_limit=BANDITOS_BEST_NODE_LIMIT,
        time_help=f"wall-clock limit (default {BANDITOS_BEST_TIME_LIMIT:g} s); with --method auto "
        "the exact search gets half of it and the Monte Carlo estimate the rest",
    )
    best.add_argument(
        "--samples",
        type=count(1, 10_000_000, "--samples"),
        default=100,
        help="Monte Carlo playouts for the best candidates (default 100)",
    )
    best.add_argument(
        "--method",
        choices=("auto", "exact", "monte-carlo"),
        default="auto",
        help="auto (default): the exact search within the node limit and half the time limit, "
        "else a Monte Carlo estimate (exit 3); exact: the exact search only, unknown (exit 3) "
        "with the reason if a limit stops it; monte-carlo: the estimate only (exit 3)",
    )
    add_seed(best, "seed of the Monte Carlo playouts (default 0)")
    add_svg(best, "also write a picture of the answer to OUT: the turn's value and its line as "
            "numbered steps, a board after each")
    best.set_defaults(handler=cmd_best)


def solve_best(state: Any, *, time_limit: float | None, node_limit: int | None,
               samples: int = 100, method: str = "auto", seed: int = 0) -> Any:
    from banditsolve.banditos import best_turn

    return best_turn(state, time_limit=time_limit, node_limit=node_limit, samples=samples,
                     method=method, seed=seed)  # type: ignore[arg-type]


# -- the same questions in Python (--python) --------------------------------------------------


def claim_python(args: argparse.Namespace) -> str:
    call = python_args(args.tile, player=args.player, proof=args.proof, backend=args.backend,
                       time_limit=args.time_limit)
    return python_text(args, ["from banditsolve.banditos import claim_verdict_at"],
                       f"claim_verdict_at(state, {call})")


def odds_python(args: argparse.Namespace) -> str:
    return python_text(args, ["from banditsolve.banditos import completion_odds_at"],
                       f"completion_odds_at(state, {python_args(args.tile, args.player)})")


def best_python(args: argparse.Namespace) -> str:
    call = python_args(time_limit=args.time_limit, node_limit=args.node_limit,
                       samples=args.samples, method=args.method, seed=args.seed)
    return python_text(args, ["from banditsolve.banditos import best_turn"],
                       f"best_turn(state, {call})")


# -- handlers -------------------------------------------------------------------------------


def claim_heading(state: Any, tile: int, proof: str | None, verdict: Any) -> str:
    """Where the claim is and how it was proven: ``slot 1 (strict proof, exact)``."""
    used = proof or state.options.proof
    return f"slot {tile} ({used} proof, {verdict.backend})"


def claim_text(state: Any, tile: int, proof: str | None, verdict: Any) -> str:
    return f"{claim_heading(state, tile, proof, verdict)}: {verdict.explain()}"


def claim_pictures(state: Any, tile: int, proof: str | None, verdict: Any) -> tuple[str, str]:
    """The answer's text (its line, then the claim drawn in ASCII) and its SVG picture."""
    available = state.availability(tile, proof)
    text = f"{claim_text(state, tile, proof, verdict)}\n{verdict.ascii(available=available)}"
    heading = claim_heading(state, tile, proof, verdict)
    return text, verdict.svg(heading=heading, available=available)


def cmd_claim(args: argparse.Namespace) -> int:
    from banditsolve.banditos import claim_verdict_at

    state = _read(args)
    verdict = claim_verdict_at(
        state,
        args.tile,
        player=args.player,
        proof=args.proof,
        backend=args.backend,
        time_limit=args.time_limit,
    )
    text, picture = claim_pictures(state, args.tile, args.proof, verdict)
    if args.svg is not None:
        write_svg(args.svg, picture)
    return emit_answer(args, verdict.to_answer(), text)


def cmd_odds(args: argparse.Namespace) -> int:
    from banditsolve.banditos import completion_odds_at

    state = _read(args)
    odds = completion_odds_at(state, args.tile, args.player)
    if args.svg is not None:
        write_svg(args.svg, odds.svg())
    return emit_answer(args, odds.to_answer(), odds.ascii())


def cmd_best(args: argparse.Namespace) -> int:
    state = _read(args)
    result = solve_best(
        state,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        samples=args.samples,
        method=args.method,
        seed=args.seed,
    )
    if args.svg is not None:
        write_svg(args.svg, result.svg())
    return emit_answer(args, result.to_answer(), best_text(result))


def best_text(result: Any) -> str:
    """The best turn's explanation, then (unless unknown) its line as numbered steps and the
    position at its end."""
    if result.is_unknown:
        return str(result.explain())
    steps = result.ascii().split("\n", 1)[1]  # the value is in the explanation already
    return f"{result.explain()}\n{steps}"


# -- demo -----------------------------------------------------------------------------------


def demo(out_dir: Path, game_name: str = "") -> Iterator[DemoItem]:
    """The strongest answers once each: an unsafe claim that looks safe, with the opponent's
    beating dice; a claim safe only under the bag proof; exact odds; an exact endgame."""
    from banditsolve.banditos import claim_verdict_at, completion_odds_at
    from banditsolve.banditos.puzzles import puzzle_by_id
    from banditsolve.core.registry import load_game

    game = load_game("banditos")

    state = game.from_notation(DEMO_POSITION)
    verdict = claim_verdict_at(state, 1, proof="strict")
    text, picture = claim_pictures(state, 1, "strict", verdict)
    yield DemoItem(
        "a strong-looking claim that is unsafe (banditos claim POSITION 1)",
        f"{DEMO_POSITION}\n{game.ascii(state)}\n{text}",
        verdict.to_answer(),
        write_svg(out_dir / "claim-unsafe.svg", picture),
    )

    puzzle = puzzle_by_id("claim-sixes-need-bag")
    state = puzzle.state()
    strict = claim_verdict_at(state, 1, proof="strict")
    bag = claim_verdict_at(state, 1, proof="bag")
    text, picture = claim_pictures(state, 1, "bag", bag)
    yield DemoItem(
        "a claim safe only when the opponent is limited to the bag (--proof bag)",
        f"{puzzle.position}\n{puzzle.description}\n{game.ascii(state)}\n"
        f"{claim_text(state, 1, 'strict', strict)}\n{text}",
        bag.to_answer(),
        write_svg(out_dir / "claim-bag.svg", picture),
    )

    puzzle = puzzle_by_id("odds-third-one")
    state = puzzle.state()
    odds = completion_odds_at(state, 1)
    yield DemoItem(
        "exact odds from the bag (banditos odds POSITION 1)",
        f"{puzzle.position}\n{puzzle.description}\n{game.ascii(state)}\n{odds.ascii()}",
        odds.to_answer(),
        write_svg(out_dir / "odds.svg", odds.svg()),
    )

    puzzle = puzzle_by_id("best-give-up-to-win")
    state = puzzle.state()
    result = solve_best(
        state, time_limit=BANDITOS_BEST_TIME_LIMIT, node_limit=BANDITOS_BEST_NODE_LIMIT
    )
    yield DemoItem(
        "an endgame solved exactly (banditos best POSITION)",
        f"{puzzle.position}\n{puzzle.description}\n{game.ascii(state)}\n{best_text(result)}",
        result.to_answer(),
        write_svg(out_dir / "best.svg", result.svg()),
    )


def _read(args: argparse.Namespace) -> State:
    """``POSITION`` as a state of this game."""
    from banditsolve.banditos.game import GAME

    return GAME.read_state(args.position)


# -- puzzles --------------------------------------------------------------------------------


def _card(p: Puzzle) -> PuzzleCard:
    from banditsolve.core.puzzles import PuzzleCard

    question = {
        "claim": f"is a claim on tile {p.tile} provably safe ({p.proof} proof)?",
        "odds": f"the exact odds of how the opponent's side of tile {p.tile} completes "
                "against the claim",
        "best": "the best play of this turn, and the chance to win with it",
    }[p.question]
    return PuzzleCard(p.id, p.description, question)


def _puzzle(game: str, puzzle_id: str) -> Puzzle:
    from banditsolve.banditos.puzzles import load_puzzles
    from banditsolve.core.puzzles import pick

    return pick(load_puzzles(), _card, puzzle_id, game)


def puzzle_list(game: str) -> tuple[PuzzleCard, ...]:
    """The shipped puzzles: claims (under both proofs), completion odds, the best turn."""
    from banditsolve.banditos.puzzles import load_puzzles

    return tuple(map(_card, load_puzzles()))


def puzzle_view(game: str, puzzle_id: str) -> PuzzleView:
    """One puzzle's position, drawn."""
    from banditsolve.banditos.game import GAME
    from banditsolve.core.puzzles import state_view

    p = _puzzle(game, puzzle_id)
    return state_view(_card(p), p.position, GAME, p.state())


def solve_puzzle(game: str, puzzle_id: str) -> SolvedPuzzle:
    """The puzzle's question answered by the solvers, checked against the stored answer."""
    from banditsolve.banditos import best_turn, claim_verdict_at, completion_odds_at
    from banditsolve.banditos.game import GAME
    from banditsolve.core.puzzles import solved, step_texts

    p = _puzzle(game, puzzle_id)
    view = puzzle_view(game, puzzle_id)
    state = p.state()
    result: Any
    if p.question == "claim":
        assert p.tile is not None
        strict = claim_verdict_at(state, p.tile, proof="strict")
        bag = claim_verdict_at(state, p.tile, proof="bag")
        result = strict if p.proof == "strict" else bag
        found: Any = {"safe": result.safe, "safe_strict": strict.safe, "safe_bag": bag.safe}
        text = "\n".join((claim_text(state, p.tile, "strict", strict),
                          claim_text(state, p.tile, "bag", bag)))
        return solved(view, text, found, p.answer, result)
    if p.question == "odds":
        assert p.tile is not None
        result = completion_odds_at(state, p.tile)
        found = {"above": str(result.above), "equal": str(result.equal),
                 "below": str(result.below)}
        return solved(view, result.explain(), found, p.answer, result)
    result = best_turn(state, time_limit=PUZZLE_TIME_LIMIT,
                       node_limit=BANDITOS_BEST_NODE_LIMIT, method="exact")
    found = {"actions": step_texts(GAME, state, result.actions),
             "probability": str(result.probability)}
    return solved(view, result.explain(), found, p.answer, result,
                  unknown=bool(result.is_unknown or result.is_estimate))
