"""The tunnel games' own questions on the command line (``banditsolve bandido ...``): ``close``,
``solve`` and ``placements``, the game's demo, and its shipped puzzles (``puzzles``, ``puzzle ID
[--solve]``: :class:`~banditsolve.core.hooks.PuzzleHooks`). The shared verbs ``show``, ``moves``,
``apply``, ``play`` and the puzzle verbs come from :mod:`banditsolve.cli.verbs`.

This module is the adapter of every tunnel game (Bandido and Bandida): the handlers find the
game object by ``args.game`` and branch on what the game is (whether it has modes), never on
its name, and every command refuses a position or game state of the other tunnel game (its
JSON ``"game"`` or its notation's first word). A game with modes (Bandida) adds ``--mode M``
to ``play`` (the same as ``--option mode=M``) and to ``close`` (the mode's question: 1 close
every exit, 2 the ladder, 3 the ladder and Bandido's super card joined; ``--goal`` names the
goal directly, and the two are refused together when they disagree), and has its own demo.

``close`` takes a position or a game state (BD-CLOSE-6), told apart by their form alone: a
notation with ``FIELD=VALUE`` words after its bar (``| hands=... player=...``) or a JSON
document with ``"hands"`` (a saved state or a puzzle's game document) is a game state, and the
question is then asked of its cards not yet played; anything else is read as a position,
exactly as before. ``show`` reads its argument the same way, and draws a position too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from banditsolve.core.answer import DemoItem
from banditsolve.core.flags import (
    Commands,
    Handler,
    add_command,
    add_limits,
    add_position,
    add_python,
    add_query,
    add_seed,
    add_svg,
    count,
    emit,
    emit_answer,
    python_args,
    python_text,
    write_svg,
)
from banditsolve.core.limits import (
    CLOSURE_TIME_LIMIT,
    MAX_SEARCH_WORKERS,
    MAX_SHUFFLES,
    PUZZLE_TIME_LIMIT,
    TUNNEL_SOLVE_TIME_LIMIT,
)
from banditsolve.core.options import option_pairs

if TYPE_CHECKING:
    from banditsolve.core.puzzles import PuzzleCard, PuzzleView, SolvedPuzzle
    from banditsolve.tunnels.bandida.components import Mode
    from banditsolve.tunnels.game import TunnelGame
    from banditsolve.tunnels.geometry import Placement
    from banditsolve.tunnels.notation import Position
    from banditsolve.tunnels.puzzles import Puzzle
    from banditsolve.tunnels.solvers.bandida_puzzles import BandidaPuzzle
    from banditsolve.tunnels.solvers.result import Closure
    from banditsolve.tunnels.state import GameState
    from banditsolve.tunnels.table import Table


def tunnel(name: str) -> TunnelGame:
    """The tunnel game registered as ``name``, as the adapter it is (its spec: modes...)."""
    from banditsolve.core.registry import load_game
    from banditsolve.errors import InternalError
    from banditsolve.tunnels.game import TunnelGame

    game = load_game(name)
    if not isinstance(game, TunnelGame):
        raise InternalError(f"{name} is registered with the tunnel games' hooks but is not one")
    return game


def registered_game(commands: Commands) -> TunnelGame:
    """The tunnel game whose commands ``commands`` holds. The hooks protocol hands
    :func:`register` only the command table (this one module serves both tunnel games), so the
    game is learnt here, once, from the table's command line (``banditsolve GAME VERB``): what
    is registered then follows from the game loaded (its modes), not from its name."""
    words = commands.choices["show"].prog.split()
    return tunnel(words[-2])


def tunnel_of(args: argparse.Namespace) -> TunnelGame:
    """The tunnel game a command names (``args.game``)."""
    return tunnel(args.game)


def adapt_play(play: argparse.ArgumentParser, modes: Mapping[int, Mode] | None) -> None:
    """``play`` for a tunnel game: any ``table_size=WxH`` of the spec, and for a game with
    ``modes`` the argument ``--mode M`` (the same as ``--option mode=M``, which the handler
    merges into the options)."""
    if modes:
        play.add_argument(
            "--mode",
            action="append",
            default=[],
            metavar="M",
            help=f"the mode, {', '.join(map(str, modes))} (default {min(modes)}): the same as"
            " --option mode=M",
        )
    play.epilog = with_table_sizes(play.epilog or "")
    shared: Handler = play.get_default("handler")
    play.set_defaults(handler=lambda args: cmd_play(args, shared))


#: What ``play --help`` says of ``table_size`` beyond the values it lists.
TABLE_SIZE_NOTE = "table_size also takes any WIDTHxHEIGHT of 2 to 60 cells each (BD-OPT-6)."


def with_table_sizes(epilog: str) -> str:
    """``epilog`` with :data:`TABLE_SIZE_NOTE` after the list of options that holds
    ``table_size`` (at the start when the epilog lists no options)."""
    lines = epilog.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("  table_size:")), None)
    if at is None:
        return f"{TABLE_SIZE_NOTE}\n\n{epilog}".strip()
    end = next(
        (i for i in range(at + 1, len(lines)) if not lines[i].startswith("  ")), len(lines)
    )
    return "\n".join([*lines[:end], "", TABLE_SIZE_NOTE, *lines[end:]])


def adapt_show(show: argparse.ArgumentParser) -> None:
    """``show`` draws a position too (the table and the cards still to come, as ``close`` and
    ``placements`` take it), not only a game state, told apart by their form
    (:func:`read_close_input`). Its flags stay the shared verb's: a hypothetical position says
    so in its notation (the word after the game name) or its JSON."""
    shared: Handler = show.get_default("handler")
    shared_python = show.get_default("snippet")
    show.set_defaults(
        handler=lambda args: cmd_show(args, shared),
        snippet=lambda args: show_python(args, shared_python),
    )


def cmd_show(args: argparse.Namespace, shared: Handler) -> int:
    """A game state drawn by the shared ``show``; a position drawn here: the table in text
    (``--svg``: as a picture) and the cards still to come; ``--json`` its document
    (``position``) with its notation and its count of open exits."""
    from banditsolve.tunnels import notation, render
    from banditsolve.tunnels.state import GameState

    game = tunnel_of(args)
    asked = read_close_input(args, game, None)
    if isinstance(asked, GameState):
        args.position = game.to_notation(asked)  # read once: the shared verb reads it again
        return shared(args)
    table = asked.table
    if args.svg is not None:
        write_svg(args.svg, render.svg(table, asked.remaining))
    written = notation.to_notation(asked)
    payload = {"game": game.name, "notation": written, "position": notation.to_json(asked),
               "exits": table.exit_count}
    emit(args, render.ascii_art(table, asked.remaining), payload)
    return 0


def show_python(args: argparse.Namespace, shared: Callable[[argparse.Namespace], str]) -> str:
    """``show --python``: a game state's as the shared verb writes it; a position's reads it
    with ``read_position`` and prints its picture."""
    from banditsolve.tunnels.state import GameState

    game = tunnel_of(args)
    if isinstance(read_close_input(args, game, None), GameState):
        return shared(args)
    reading = f"state = game.read_position({python_args(args.position)})"
    return python_text(args, ["from banditsolve.tunnels import render"],
                       "render.ascii_art(state.table, state.remaining)", read=reading)


def is_mode(item: str) -> bool:
    """Is ``item`` (of ``--option K=V``) the option ``mode``?"""
    return item.partition("=")[0].strip() == "mode"


def cmd_play(args: argparse.Namespace, shared: Handler) -> int:
    """The shared ``play``, after the options of the other tunnel game are refused (one
    message, the same as from Python) and ``--mode M`` is merged into the options (refused
    when it disagrees with ``--option mode=``)."""
    from banditsolve.errors import RuleOptionError

    tunnel_of(args).refuse_foreign(option_pairs(args.option))
    flags: list[str] = getattr(args, "mode", None) or []
    if not flags:
        return shared(args)
    if len(set(flags)) > 1:
        raise RuleOptionError(f"--mode is given twice ({flags[0][:10]}, {flags[1][:10]})")
    options = [item for item in args.option if not is_mode(item)]
    modes = [item.partition("=")[2].strip() for item in args.option if is_mode(item)]
    other = next((m for m in modes if m != flags[0].strip()), None)
    if other is not None:
        raise RuleOptionError(
            f"--mode {flags[0][:10]} and --option mode={other[:10]} disagree: give one"
        )
    # --mode M with --option mode=M: the same option, kept once, where --option gave it.
    at = next((i for i, item in enumerate(args.option) if is_mode(item)), len(options))
    args.option = [*options[:at], f"mode={flags[0]}", *options[at:]]
    return shared(args)


def register(commands: Commands) -> None:
    """Add ``close``, ``solve`` and ``placements``; adapt ``play`` (:func:`adapt_play`)."""
    from banditsolve.tunnels.bandida.components import GOALS

    modes = registered_game(commands).spec.modes
    play = commands.choices.get("play")
    if play is not None:
        adapt_play(play, modes)
    show = commands.choices.get("show")
    if show is not None:
        adapt_show(show)
    close = add_query(
        commands,
        "close",
        "can the tunnel still close with these cards? (0 closable, 1 impossible, 3 unknown)",
        snippet=close_python,
        description="Can the tunnel still close? POSITION is a position (the table and the"
        " cards to close with: notation, JSON, or a file holding either) or a game state (its"
        " notation with '| hands=... player=...' after the table, its JSON, or a puzzle's game"
        " document with \"hands\"): a game state's question is asked of its cards not yet"
        " played (every hand and the pile, unseen cards included), and the answer says so. A"
        " finished game is refused.",
    )
    close.add_argument(
        "--max-cards", type=count(0, 10_000, "--max-cards"), default=None, metavar="N",
        help="use at most N cards",
    )
    close.add_argument("--minimum", action="store_true", help="find the fewest cards")
    close.add_argument(
        "--backend",
        choices=("auto", "exact", "python", "sat", "cpsat", "z3", "plain"),
        default="auto",
        help="auto (default: exact raced with sat), exact (the compiled search), python (its"
        " Python reference), sat (CaDiCaL), cpsat (OR-Tools), z3 or plain (the unpruned"
        " baseline)",
    )
    add_limits(close, time_limit=CLOSURE_TIME_LIMIT, node_limit=None)
    close.add_argument(
        "--bounds",
        metavar="X0,Y0,X1,Y1",
        default=None,
        help="play area: cards only on cells with X0 <= x <= X1 and Y0 <= y <= Y1 "
        "(write --bounds=-2,-3,3,1 when X0 is negative)",
    )
    close.add_argument(
        "--workers", metavar="N", type=count(1, MAX_SEARCH_WORKERS, "--workers"),
        help="processes a long exact search may use (default: cores, at most 4; 1: no fork)",
    )
    add_hypothetical(close)
    close.add_argument(
        "--goal",
        choices=GOALS,
        default=None,
        help="what the cards must reach: close every exit (default), ladder (Bandida mode 2: "
        "the ladder down, every other exit closed) or join (mode 3: also Bandido's super card "
        "joined through the tunnels)"
        + ("" if modes else "; ladder and join are Bandida's"),
    )
    if modes:
        goals = ", ".join(f"{n} {mode.goal}" for n, mode in modes.items())
        close.add_argument(
            "--mode",
            choices=tuple(map(str, modes)),
            default=None,
            help=f"the mode the position is a question of, for its goal ({goals}); the"
            " position's own mode=M by default, else mode 1; with --goal too, the two must"
            " name the same goal",
        )
        close.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a reading of the map for a position (map_removes, map_split, map_reopen,"
            " map_short, hole: see the game's options); a game state uses its own",
        )
    add_svg(
        close,
        "write the answer's picture to OUT: the closing cards numbered in play order on the"
        " table with a legend (each card, its object, the exits it closes, a map's removals),"
        " or the exits left open and the reason",
    )
    close.set_defaults(handler=cmd_close)

    solve = add_query(
        commands,
        "solve",
        "solve the rest of the game with everything known (0 a winning line, 1 lost, 3 unknown)",
        snippet=solve_python,
        description="Solve the rest of the game with every card known. POSITION is a game "
        "state: notation, JSON text (a game document with hands and pile, optionally "
        "'unseen' cards on top of the pile in unknown order), or a file holding either. With "
        "unseen cards it samples shuffles and answers the share it can still win.",
    )
    add_limits(
        solve,
        time_limit=TUNNEL_SOLVE_TIME_LIMIT,
        node_limit=None,
        time_help="seconds in all, shared among the samples when cards are unseen (default "
        f"{TUNNEL_SOLVE_TIME_LIMIT:g} s)",
    )
    solve.add_argument(
        "--samples", type=count(1, MAX_SHUFFLES, "--samples"), default=50,
        help="shuffles when cards are unseen (default 50)",
    )
    add_seed(solve, "seed of the sampled shuffles (default 0)")
    add_hypothetical(solve)
    add_svg(
        solve,
        "write a picture to OUT: the winning line as numbered tables, one per move (or the"
        " start and the reason; with unseen cards, the shuffles won as bars)",
    )
    solve.set_defaults(handler=cmd_solve)

    placements = add_command(
        commands, "placements", "every legal placement of one card in a position"
    )
    add_position(placements)
    add_python(placements, placements_python)
    placements.add_argument("card", metavar="CARD", help="card name, e.g. L+TL+BR")
    add_svg(placements, "write a picture to OUT: the placements numbered on the table")
    placements.set_defaults(handler=cmd_placements)


def add_hypothetical(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hypothetical",
        action="store_true",
        help="allow cards the real deck does not hold (more copies of a card than it has); "
        "without it such a position is refused",
    )


# -- reading --------------------------------------------------------------------------------


def read_game_state(args: argparse.Namespace) -> GameState:
    """A whole game state for ``solve``: the game's ``read_state`` (its notation, its JSON, or
    a puzzle's game document, as for ``show``, ``moves`` and ``apply``)."""
    return tunnel_of(args).read_state(args.position)


def read_close_input(
    args: argparse.Namespace, game: TunnelGame, mode: int | None
) -> Position | GameState:
    """What ``close`` and ``show`` ask of: a game state or a position, told apart by their form
    (:meth:`~banditsolve.tunnels.game.TunnelGame.read_position_or_state`, ``--hypothetical``,
    ``mode``)."""
    return game.read_position_or_state(
        args.position, hypothetical=getattr(args, "hypothetical", False), mode=mode
    )


def check_state_question(args: argparse.Namespace, state: GameState) -> None:
    """Refuse the flags of ``close`` that a game state contradicts: ``--hypothetical`` (a game
    state holds the real deck) and a ``--mode`` other than the state's own (BA-CLOSE-4)."""
    from banditsolve.errors import SolverError

    if args.hypothetical:
        raise SolverError("--hypothetical is for positions: a game state holds the real deck")
    own = getattr(state.options, "mode", None)
    if getattr(args, "mode", None) is not None and int(args.mode) != own:
        raise SolverError(
            f"--mode {args.mode}, but the game state is a game of mode {own} (option mode): it"
            " asks its own mode's question (BA-CLOSE-4)"
        )


# -- text ----------------------------------------------------------------------------------


def placement_text(p: Placement) -> str:
    """A placement in the notation ``NAME@x,y,r`` (what ``parse_action`` reads back)."""
    from banditsolve.tunnels import card_name

    return f"{card_name(p.card)}@{p.x},{p.y},{p.rotation}"


# -- handlers -------------------------------------------------------------------------------


def parse_bounds(text: str | None) -> tuple[int, int, int, int] | None:
    from banditsolve.errors import SolverError

    if text is None:
        return None
    parts = text.split(",")
    try:
        if len(parts) != 4 or any(len(p.strip()) > 12 for p in parts) or not text.isascii():
            raise ValueError
        x0, y0, x1, y1 = (int(v) for v in parts)
    except ValueError:
        raise SolverError(f"--bounds takes four integers X0,Y0,X1,Y1, not {text[:40]!r}") from None
    return (x0, y0, x1, y1)


def closure_text(
    table: Table, result: Closure, *, legend: bool = True, source: str | None = None
) -> str:
    """The answer in words: the status and reason, then ``source`` (where the cards came from,
    for a game state's question), the certificate's numbered steps (each card's object and the
    exits it closes, each map's removal) and the closed table with each card's number; an
    impossible or unknown answer: the table asked of (and the exits left open)."""
    from banditsolve.tunnels.solvers.pictures import closure_ascii

    return closure_ascii(result, table, source=source, legend=legend)


def answer_svg(table: Table, result: Closure) -> str:
    """The closure drawn: its certificate numbered on the table with its legend, or the open
    exits and the reason (:func:`~banditsolve.tunnels.solvers.pictures.closure_svg`)."""
    from banditsolve.tunnels.solvers.pictures import closure_svg

    return closure_svg(result, table)


def close_mode(args: argparse.Namespace, game: TunnelGame) -> int | None:
    """The mode ``close`` asks (a game with modes): ``--mode``, or the mode of ``--goal``;
    both given must agree. None: the position's own mode (or the game's first). A game without
    modes only closes exits."""
    from banditsolve.errors import RuleOptionError

    modes = game.spec.modes
    if not modes:
        if args.goal not in (None, "close"):
            raise RuleOptionError(f"--goal {args.goal} is Bandida's; {game.name} closes every exit")
        return None
    mode = None if args.mode is None else int(args.mode)
    by_goal = next((n for n, m in modes.items() if m.goal == args.goal), None)
    if mode is not None and by_goal is not None and mode != by_goal:
        raise RuleOptionError(
            f"--mode {mode} (goal {modes[mode].goal}) and --goal {args.goal} disagree: give one"
            " of them"
        )
    return mode if mode is not None else by_goal


def cmd_close(args: argparse.Namespace) -> int:
    from banditsolve.tunnels import can_close, min_cards_to_close
    from banditsolve.tunnels.solvers.inputs import unplayed
    from banditsolve.tunnels.state import GameState

    game = tunnel_of(args)
    # A Bandida position is a question of one mode (BA-CLOSE-1): the one asked, else its own
    # (mode 1 when it says none); the solver asks that mode's goal of it. A game state asks
    # its own mode's goal, of its cards not yet played (BD-CLOSE-6, BA-CLOSE-4).
    mode = close_mode(args, game)
    asked = read_close_input(args, game, mode)
    source = None
    if isinstance(asked, GameState):
        check_state_question(args, asked)
        source = unplayed(asked).source  # (a finished game: refused in one line)
    solver = min_cards_to_close if args.minimum else can_close
    extra: dict[str, Any] = {} if args.goal is None else {"goal": args.goal}
    if getattr(args, "option", None):
        extra["options"] = option_pairs(args.option)
    result = solver(
        asked,
        **extra,
        max_cards=args.max_cards,
        backend=args.backend,
        bounds=parse_bounds(args.bounds),
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        workers=args.workers,
        hypothetical=args.hypothetical,
    )
    table = asked.table
    if args.svg is not None:
        write_svg(args.svg, answer_svg(table, result))
    answer = result.to_answer(args.game)
    if source is None:
        return emit_answer(args, answer, closure_text(table, result))
    answer = replace(answer, details={**answer.details, "cards_from": source.to_json()})
    return emit_answer(args, answer, closure_text(table, result, source=source.note))


def close_python(args: argparse.Namespace) -> str:
    """``close`` in Python: the position (or game state) read as ``close`` reads it, then
    ``can_close`` (or ``min_cards_to_close``) with the same arguments."""
    from banditsolve.tunnels.solvers.inputs import check_backend, unplayed
    from banditsolve.tunnels.solvers.mapclose import map_readings
    from banditsolve.tunnels.state import GameState

    game = tunnel_of(args)
    mode = close_mode(args, game)
    asked = read_close_input(args, game, mode)
    if getattr(args, "option", None):  # (close's own checks: no snippet that only raises)
        map_readings(asked, option_pairs(args.option))
    if isinstance(asked, GameState):
        check_state_question(args, asked)
        unplayed(asked)
        read = f"state = game.read_state({args.position!r})"
    else:
        words = python_args(args.position, hypothetical=args.hypothetical, mode=mode)
        read = f"state = game.read_position({words})"
    extra: dict[str, object] = {} if args.goal is None else {"goal": args.goal}
    if getattr(args, "option", None):
        extra["options"] = option_pairs(args.option)
    check_backend(args.backend, args.minimum, args.bounds is not None, args.node_limit)
    solver = "min_cards_to_close" if args.minimum else "can_close"
    call = python_args(**extra, max_cards=args.max_cards, backend=args.backend,
                       bounds=parse_bounds(args.bounds), time_limit=args.time_limit,
                       node_limit=args.node_limit, workers=args.workers,
                       hypothetical=args.hypothetical)
    return python_text(args, [f"from banditsolve.tunnels import {solver}"],
                       f"{solver}(state, {call})", read=read)


def solve_python(args: argparse.Namespace) -> str:
    """``solve`` in Python: ``win_share`` when cards are unseen, else ``solve_game``."""
    if read_game_state(args).unseen:
        call = python_args(samples=args.samples, time_limit=args.time_limit, seed=args.seed,
                           hypothetical=args.hypothetical)
        return python_text(args, ["from banditsolve.tunnels import win_share"],
                           f"win_share(state, {call})")
    call = python_args(time_limit=args.time_limit, node_limit=args.node_limit,
                       hypothetical=args.hypothetical)
    return python_text(args, ["from banditsolve.tunnels import solve_game"],
                       f"solve_game(state, {call})")


def cmd_solve(args: argparse.Namespace) -> int:
    from banditsolve.tunnels import solve_game, win_share
    from banditsolve.tunnels.solvers.pictures import share_svg, solution_ascii, solution_svg

    state = read_game_state(args)
    if state.unseen:
        if args.node_limit is not None:
            from banditsolve.errors import SolverError

            raise SolverError("--node-limit is for a solve without unseen cards; give --time-limit")
        share = win_share(state, samples=args.samples, time_limit=args.time_limit, seed=args.seed,
                          hypothetical=args.hypothetical)
        if args.svg is not None:
            write_svg(args.svg, share_svg(share))
        return emit_answer(args, share.to_answer(args.game), share.counts)
    result = solve_game(state, time_limit=args.time_limit, node_limit=args.node_limit,
                        hypothetical=args.hypothetical)
    if args.svg is not None:
        write_svg(args.svg, solution_svg(result, state))
    return emit_answer(args, result.to_answer(args.game), solution_ascii(result, state))


def placement_question(args: argparse.Namespace) -> tuple[Position, int]:
    """``placements``' position and card, checked (the card one of the position's game)."""
    from banditsolve.tunnels import parse_card
    from banditsolve.tunnels.cards import load_deck

    position = tunnel_of(args).read_position(args.position)
    code = parse_card(args.card)
    load_deck(position.game).check_card(code, position.mode, "the card")
    return position, code


def placements_python(args: argparse.Namespace) -> str:
    """``placements`` in Python: ``legal_placements`` of the card on the position's table."""
    placement_question(args)  # (its own checks: no snippet that only raises)
    return python_text(args, ["from banditsolve.tunnels import legal_placements"],
                       f"legal_placements(state.table, {args.card!r})",
                       read=f"state = game.read_position({args.position!r})")


def cmd_placements(args: argparse.Namespace) -> int:
    from banditsolve.tunnels import card_name, creates_hole, placements_with_delta
    from banditsolve.tunnels.solvers.pictures import Spot, placements_ascii, placements_svg

    position, code = placement_question(args)
    table = position.table
    spots = [
        Spot(p, table.exit_count + delta, creates_hole(table, p))
        for p, delta in placements_with_delta(table, code)
    ]
    rows = [
        {"placement": placement_text(s.placement), "exits_after": s.exits_after, "hole": s.hole}
        for s in spots
    ]
    if args.svg is not None:
        write_svg(args.svg, placements_svg(table, code, spots, position.remaining))
    emit(args, placements_ascii(code, spots), {"card": card_name(code), "placements": rows})
    return 0


# -- demo -----------------------------------------------------------------------------------

#: The README's start: six exits and seven cards; the fewest that close it are six.
DEMO_CLOSABLE = "bandido L+TL+TR+R+BR+BL@0,0,0 | L*2 TL*2 L+TL TL+BL R+BR"
#: The leaflet's warning: an exit walled into a one-cell hole can never be closed.
DEMO_HOLE = "bandido L+TL+TR+R+BR+BL@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"


def demo(out_dir: Path, game_name: str = "bandido") -> Iterator[DemoItem]:
    """Bandido: a closable tunnel with its certificate and picture, an impossible one with its
    reason, and a perfect-information solve of a bundled endgame. A game with modes (Bandida):
    its own items (:func:`modes_demo`)."""
    game = tunnel(game_name)
    if game.spec.modes:
        yield from modes_demo(out_dir, game)
        return
    from banditsolve.tunnels import (
        can_close,
        game_state,
        load_puzzles,
        min_cards_to_close,
        solve_game,
    )
    from banditsolve.tunnels.solvers.pictures import solution_ascii, solution_svg

    position = game.read_position(DEMO_CLOSABLE)
    result = min_cards_to_close(position, time_limit=CLOSURE_TIME_LIMIT)
    yield DemoItem(
        "a tunnel closed with the fewest cards (bandido close POSITION --minimum)",
        f"{DEMO_CLOSABLE}\n{closure_text(position.table, result)}",
        result.to_answer(),
        write_svg(out_dir / "closable.svg", answer_svg(position.table, result)),
    )

    position = game.read_position(DEMO_HOLE)
    result = can_close(position, time_limit=CLOSURE_TIME_LIMIT)
    yield DemoItem(
        "a tunnel that can never close (bandido close POSITION)",
        f"{DEMO_HOLE}\n{closure_text(position.table, result, legend=False)}",
        result.to_answer(),
        write_svg(out_dir / "impossible.svg", answer_svg(position.table, result)),
    )

    puzzle = next(
        (p for p in load_puzzles() if getattr(p, "question", "") == "solve"
         and p.document is not None and p.expected.get("status") == "win"),
        None,
    )
    if puzzle is not None:
        assert puzzle.document is not None
        state = game_state(dict(puzzle.document))
        solution = solve_game(state, time_limit=TUNNEL_SOLVE_TIME_LIMIT)
        yield DemoItem(
            f"an endgame solved with every card known: {puzzle.id} (bandido solve POSITION)",
            f"{puzzle.description}\n{solution_ascii(solution, state)}",
            solution.to_answer(),
            write_svg(out_dir / "solve.svg", solution_svg(solution, state)),
        )


# -- Bandida's demo -------------------------------------------------------------------------

#: Mode 2's goal on a small start: the ladder must be among the closing cards.
DEMO_LADDER = "bandida L+TL+TR+R+BR+BL@0,0,0 | L:ladder L*2 TL*2 L+TL TL+BL R+BR"
#: No card closes the exit the start card's west side faces without the map's removals.
DEMO_MAP = (
    "bandida L+TL+TR+R+BR+BL@0,0,0 L+R@-2,0,0 L@0,-1,270 TR@2,1,270"
    " | L+TL+TR:map L+BL L+BL L TL+TR"
)


def modes_demo(out_dir: Path, game: TunnelGame) -> Iterator[DemoItem]:
    """A greedy game in each mode (objects and alarms at work), a map's removal choices,
    mode 2's closure goal (the ladder among the closing cards), and a closure through a map's
    removal."""
    import random

    from banditsolve.tunnels import can_close, min_cards_to_close, sample_chance
    from banditsolve.tunnels.bandida.rules import expect

    greedy = game.policies()["greedy"]
    for mode in game.spec.modes or {}:
        rng = random.Random(7)
        state = game.new_game(2, {"mode": mode}, seed=7)
        start = game.to_notation(state)
        effects: list[str] = []
        while state.outcome is None:
            action = sample_chance(state, rng) if state.is_chance else greedy(state, rng)
            after = game.apply(state, action)
            pending = expect(after).phase[-1:]
            if pending and pending != expect(state).phase[-1:] and len(effects) < 6:
                effects.append(f"turn {after.turn}: {pending[0]} after {action}")
            state = after
        lines = [start[:100] + " ...", *effects, game.ascii(state)]
        yield DemoItem(
            f"a two-player game in mode {mode}, seed 7, greedy policy"
            f" ({game.name} play --mode {mode} --seed 7 --policy greedy)",
            "\n".join(lines),
            None,
            write_svg(out_dir / f"mode{mode}.svg", game.svg(state)),
        )
    position = game.read_position(DEMO_LADDER, mode=2)
    result = min_cards_to_close(position, goal="ladder", time_limit=CLOSURE_TIME_LIMIT)
    yield DemoItem(
        f"mode 2: the ladder laid and every other exit closed ({game.name} close POSITION"
        " --mode 2 --minimum)",
        f"{DEMO_LADDER}\n{closure_text(position.table, result)}",
        result.to_answer(game.name),
        write_svg(out_dir / "ladder.svg", answer_svg(position.table, result)),
    )
    position = game.read_position(DEMO_MAP)
    result = can_close(position, time_limit=CLOSURE_TIME_LIMIT)
    yield DemoItem(
        f"mode 1: a closure only the map's removal allows ({game.name} close POSITION)",
        f"{DEMO_MAP}\n{closure_text(position.table, result)}",
        result.to_answer(game.name),
        write_svg(out_dir / "map.svg", answer_svg(position.table, result)),
    )


# -- puzzles (Bandido's and Bandida's collections, by the game asked) -------------------------


def _card(p: Puzzle | BandidaPuzzle) -> PuzzleCard:
    from banditsolve.core.puzzles import PuzzleCard

    return PuzzleCard(p.id, p.description, p.asks)


def _collection(game: str) -> tuple[Puzzle | BandidaPuzzle, ...]:
    if tunnel(game).spec.modes:
        from banditsolve.tunnels.solvers.bandida_puzzles import load_bandida_puzzles

        return tuple(load_bandida_puzzles())
    from banditsolve.tunnels.puzzles import load_puzzles

    return tuple(load_puzzles())


def puzzle_list(game: str) -> tuple[PuzzleCard, ...]:
    """The shipped puzzles of ``game``: can the tunnel close, the fewest cards that close it (or
    reach a Bandida mode's goal), a game solved."""
    return tuple(_card(p) for p in _collection(game))


def puzzle_view(game: str, puzzle_id: str) -> PuzzleView:
    """One puzzle's position (or game state), drawn."""
    from banditsolve.core.puzzles import PuzzleView, pick
    from banditsolve.tunnels import ascii_art, svg
    from banditsolve.tunnels.notation import to_notation
    from banditsolve.tunnels.puzzles import Puzzle as BandidoPuzzle

    p = pick(_collection(game), _card, puzzle_id, game)
    rules = tunnel(game)
    if isinstance(p, BandidoPuzzle) and p.question != "solve":
        table, remaining = p.position.table, p.position.remaining
        return PuzzleView(_card(p), to_notation(p.position),
                          ascii_art(table, remaining, legend=False), svg(table, remaining))
    state = p.state()
    text = p.position if isinstance(p.position, str) else rules.to_notation(state)
    return PuzzleView(_card(p), text, rules.ascii(state), rules.svg(state))


def solve_puzzle(game: str, puzzle_id: str) -> SolvedPuzzle:
    """The puzzle's question answered by the solvers, checked against the stored answer."""
    from fractions import Fraction

    from banditsolve.core.puzzles import pick, solved
    from banditsolve.tunnels import card_name, min_cards_to_close, parse_card, solve_game
    from banditsolve.tunnels.puzzles import Puzzle as BandidoPuzzle

    p = pick(_collection(game), _card, puzzle_id, game)
    view = puzzle_view(game, puzzle_id)
    expected = dict(p.expected)
    found: dict[str, Any]
    if p.question == "solve":
        game_result = solve_game(p.state(), time_limit=PUZZLE_TIME_LIMIT)
        found = {"status": game_result.status}
        if "turns" in expected:
            found["turns"] = len(game_result.line)
        if "win_chance" in expected and game_result.win_chance is not None:
            found["win_chance"] = str(Fraction(game_result.win_chance).limit_denominator(10**6))
        text = "\n".join([f"{game_result.status}: {game_result.reason}",
                          *(f"  {m}" for m in game_result.line)])
        return solved(view, text, found, expected, game_result,
                      unknown=game_result.status == "unknown")
    if isinstance(p, BandidoPuzzle):
        table = p.position.table
        result = min_cards_to_close(p.position, bounds=p.bounds, time_limit=PUZZLE_TIME_LIMIT)
        found = {"status": result.status}
        if p.question == "min_cards" and result.status == "closable":
            found["cards"] = result.cards
    else:
        state = p.state()
        table = state.table
        cards = [card_name(parse_card(c)) for c in p.cards or ()]
        result = min_cards_to_close(state, cards, goal=p.goal, hypothetical=p.hypothetical,
                                    time_limit=PUZZLE_TIME_LIMIT)
        found = {"status": result.status}
        if result.status == "closable":
            found |= {"cards": result.cards, "minimum": result.minimum}
    return solved(view, closure_text(table, result, legend=False), found, expected, result,
                  unknown=result.status == "unknown")
