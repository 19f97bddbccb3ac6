"""The verbs every game shares, written once over the game contract
(:class:`banditsolve.core.protocol.Game`): ``new``, ``show``, ``moves``, ``apply``, ``play`` and
``demo``;
and over the puzzle hooks (:class:`banditsolve.core.hooks.PuzzleHooks`): ``puzzles`` and
``puzzle ID [--solve]``.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from banditsolve.core.answer import DemoItem
from banditsolve.core.flags import (
    Commands,
    add_command,
    add_options,
    add_players,
    add_position,
    add_python,
    add_quiet,
    add_seed,
    add_svg,
    emit,
    folder_to_write,
    load,
    parse_options,
    read_position,
    to_json_text,
    write_svg,
)
from banditsolve.core.text import excerpt, plural

if TYPE_CHECKING:
    from collections.abc import Sequence

    from banditsolve.core.hooks import PuzzleHooks
    from banditsolve.core.play import Step
    from banditsolve.core.protocol import Game

from banditsolve.errors import (
    BanditsolveError,
    IllegalActionError,
    NotationError,
    RuleOptionError,
)


def register_shared(commands: Commands, game: str | None = None) -> None:
    """Add ``new``, ``show``, ``moves``, ``apply``, ``play`` and ``demo`` to a game's
    sub-commands; ``new --help`` and ``play --help`` list the rule options of ``game`` (its
    registered name)."""
    new = add_command(commands, "new", "a new game's state (its notation), to set a position up "
                      "move by move with `moves` and `apply`")
    if game is not None:
        new.epilog = f"{options_help(game)}\n\n{new.epilog or ''}".rstrip()
    add_players(new)
    add_options(new)
    add_seed(new, "the seed of the hidden set-up, settled at once (a shuffled deck; default 0)")
    new.add_argument("--by-chance", action="store_true",
                     help="leave the set-up to chance nodes instead, each outcome then chosen "
                     "with `apply` (`moves` lists them with their probabilities)")
    add_svg(new, "also write an SVG picture of the new state to OUT")
    add_python(new, new_python)
    new.set_defaults(handler=cmd_new)

    show = add_command(commands, "show", "draw a position")
    add_position(show)
    add_svg(show)
    add_python(show, lambda args: _shared_python(args, ["print(game.ascii(state))"]))
    show.set_defaults(handler=cmd_show)

    moves = add_command(
        commands, "moves", "list the legal actions in order (at a chance node, with probabilities)"
    )
    add_position(moves)
    add_python(moves, lambda args: _shared_python(args, [
        "if game.current_player(state) == -1:  # a chance node: its outcomes and odds",
        "    for action, p in game.chance_outcomes(state):",
        "        print(f\"{game.action_text(state, action)}  p={p}\")",
        "else:",
        "    for action in game.legal_actions(state):",
        "        print(game.action_text(state, action))",
    ]))
    moves.set_defaults(handler=cmd_moves)

    apply = add_command(commands, "apply", "apply actions in turn and print the new position")
    add_position(apply)
    apply.add_argument(
        "actions", nargs="+", metavar="ACTION", help="an action as `moves` prints it"
    )
    add_svg(apply, "also write an SVG picture of the new position to OUT")
    add_python(apply, lambda args: _shared_python(args, [
        f"for text in {list(args.actions)!r}:",
        "    state = game.apply(state, game.parse_action(state, text))",
        "print(game.to_notation(state))",
    ]))
    apply.set_defaults(handler=cmd_apply)

    play = add_command(commands, "play", "play a whole game with the built-in policies")
    if game is not None:
        play.epilog = f"{options_help(game)}\n\n{play.epilog or ''}".rstrip()
    add_seed(play)
    add_players(play)
    add_options(play)
    play.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="NAME",
        help="a built-in policy: once for every player, or once per player (default: random)",
    )
    play.add_argument(
        "--svg-dir",
        metavar="DIR",
        type=folder_to_write,
        help="write a picture of every step to DIR",
    )
    play.set_defaults(handler=cmd_play)

    demo = add_command(commands, "demo", "the game's strongest answers, each with a picture")
    add_out(demo)
    demo.set_defaults(handler=cmd_demo)

    listing = add_command(commands, "puzzles", "list the shipped puzzles: id, title, question")
    listing.set_defaults(handler=cmd_puzzles)
    puzzle = add_command(
        commands, "puzzle", "draw a shipped puzzle's position; --solve: its verified answer",
        description="Draw a shipped puzzle's position (`puzzles` lists them). With --solve, "
        "the solver answers the puzzle's question, the answer is checked against the one "
        "stored with the puzzle, and the answer is drawn.",
    )
    puzzle.add_argument("puzzle_id", metavar="ID", help="the puzzle's id, as `puzzles` lists it")
    puzzle.add_argument("--solve", action="store_true",
                        help="solve it: the answer, checked against the stored one, drawn")
    add_svg(puzzle, "also write an SVG picture to OUT (with --solve: of the answer)")
    add_quiet(puzzle)
    puzzle.set_defaults(handler=cmd_puzzle)


def options_help(game: str) -> str:
    """The rule options of ``game`` for ``play --help``: each name with its values, the default
    first, its reason and rule IDs (the game's ``option_set``, which ``--option`` reads)."""
    from banditsolve.core.registry import load_game

    options = load_game(game).option_set
    count = plural(len(options.specs), "rule option")
    lines = [f"{count} (--option NAME=VALUE; the first value listed is the default):"]
    lines.extend(f"  {spec.help()}" for spec in options.specs)
    return "\n".join(lines)


def add_out(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        metavar="DIR",
        type=folder_to_write,
        help="write the pictures to DIR (default: a new temporary folder)",
    )


# -- show, moves, apply ---------------------------------------------------------------------


def state_payload(game: Game[object, object], state: object) -> dict[str, Any]:
    outcome = game.outcome(state)
    return {
        "game": game.name,
        "notation": game.to_notation(state),
        "state": game.to_json(state),
        "current_player": game.current_player(state),
        "outcome": None if outcome is None else outcome.to_json(),
    }


def _shared_python(args: argparse.Namespace, lines: list[str]) -> str:
    """A shared verb in Python: the game, the state read from ``POSITION`` (checked first, as
    the verb checks it), then ``lines``."""
    read_position(args)
    return "\n".join([
        "import banditsolve", "",
        f"game = banditsolve.load_game({args.game!r})",
        f"state = game.read_state({args.position!r})",
        *lines,
    ])


def new_python(args: argparse.Namespace) -> str:
    game = load(args)
    options = parse_options(args.option, game)
    seed = None if args.by_chance else args.seed
    game.new_game(args.players, options, seed=seed)  # refused as `new` refuses it
    return "\n".join([
        "import banditsolve", "",
        f"game = banditsolve.load_game({args.game!r})",
        f"state = game.new_game({args.players!r}, {options!r}, seed={seed!r})",
        "print(game.to_notation(state))",
    ])


def cmd_new(args: argparse.Namespace) -> int:
    game = load(args)
    options = parse_options(args.option, game)
    if args.players is not None and not game.min_players <= args.players <= game.max_players:
        low, high = game.min_players, game.max_players
        span = f"{low}" if low == high else f"{low} to {high}"
        raise BanditsolveError(f"{game.title} is played by {span} players, not {args.players}")
    state = game.new_game(args.players, options, seed=None if args.by_chance else args.seed)
    if args.svg is not None:
        write_svg(args.svg, game.svg(state))
    emit(args, f"{game.to_notation(state)}\n\n{game.ascii(state)}", state_payload(game, state))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    game = load(args)
    state = read_position(args)
    if args.svg is not None:
        write_svg(args.svg, game.svg(state))
    emit(args, game.ascii(state), state_payload(game, state))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    from banditsolve.core.protocol import CHANCE

    game = load(args)
    state = read_position(args)
    player = game.current_player(state)
    payload: dict[str, Any] = {"game": game.name, "current_player": player}
    if player == CHANCE:
        outcomes = game.chance_outcomes(state)
        texts = [game.action_text(state, a) for a, _ in outcomes]
        payload |= {"actions": texts, "probabilities": [str(p) for _, p in outcomes]}
        text = "\n".join(f"{t}  p={p}" for t, (_, p) in zip(texts, outcomes, strict=True))
    else:
        texts = [game.action_text(state, a) for a in game.legal_actions(state)]
        payload |= {"actions": texts, "probabilities": None}
        text = "\n".join(texts)
    outcome = game.outcome(state)
    payload["outcome"] = None if outcome is None else outcome.to_json()
    if not texts:
        text = "(no legal action: the game is over"
        text += f": {outcome.reason})" if outcome is not None else ")"
    emit(args, text, payload)
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    game = load(args)
    state = read_position(args)
    for number, text in enumerate(args.actions, start=1):
        try:
            state = game.apply(state, game.parse_action(state, text))
        except BanditsolveError as exc:
            kind = IllegalActionError if isinstance(exc, IllegalActionError) else NotationError
            raise kind(f"action {number} ({text[:40]!r}): {exc} (nothing was applied)") from None
    if args.svg is not None:
        write_svg(args.svg, game.svg(state))
    emit(args, f"{game.to_notation(state)}\n\n{game.ascii(state)}", state_payload(game, state))
    return 0


# -- play ------------------------------------------------------------------------------------


def _play_players(
    args: argparse.Namespace, game: Game[object, object], options: dict[str, object]
) -> int:
    """``--players``, or without it the count the game deals to by itself (its new_game's
    default); a count the game is not played by is refused."""
    players: int = (
        args.players
        if args.players is not None
        else game.players(game.new_game(None, options, seed=args.seed))
    )
    if not game.min_players <= players <= game.max_players:
        low, high = game.min_players, game.max_players
        span = f"{low}" if low == high else f"{low} to {high}"
        raise BanditsolveError(f"{game.title} is played by {span} players, not {players}")
    return players


def cmd_play(args: argparse.Namespace) -> int:
    from banditsolve.core.play import resolve_policies, simulate

    game = load(args)
    options = parse_options(args.option, game)
    players = _play_players(args, game, options)
    names = args.policy or ["random"]
    known = game.policies()
    for name in names:
        if name not in known:
            raise RuleOptionError(
                f"unknown policy {excerpt(name)} for {game.title}: choose from {', '.join(known)}"
            )
    policies = resolve_policies(game, names, players)
    start, steps = simulate(game, seed=args.seed, players=players, options=options,
                            policies=policies)
    svg_dir = Path(args.svg_dir) if args.svg_dir else None
    lines = [
        f"{game.title}, {plural(players, 'player')}, seed {args.seed}, "
        f"{'policy' if len(names) == 1 else 'policies'} {', '.join(names)}"
        + (f", options {', '.join(f'{k}={v}' for k, v in options.items())}" if options else "")
    ]
    rows, pictures = _played_steps(game, start, steps, lines, svg_dir)
    before = steps[-1].state if steps else start
    outcome = game.outcome(before)
    lines += ["", game.ascii(before), ""]
    if outcome is not None:
        lines.append(f"result: {outcome.reason} (after {len(steps)} steps)")
    if svg_dir is not None:
        lines.append(f"pictures: {len(pictures)} in {svg_dir}")
    payload = {
        "game": game.name,
        "seed": args.seed,
        "players": players,
        "options": options,
        "policies": names,
        "start": game.to_notation(start),
        "steps": rows,
        "outcome": None if outcome is None else outcome.to_json(),
        "pictures": pictures,
    }
    emit(args, "\n".join(lines), payload)
    return 0


def _played_steps(
    game: Game[object, object],
    start: object,
    steps: Sequence[Step[object, object]],
    lines: list[str],
    svg_dir: Path | None,
) -> tuple[list[dict[str, object]], list[str]]:
    """Each step as a JSON row and a line (added to ``lines``), and its picture in ``svg_dir``
    when given (the start's first)."""
    from banditsolve.core.protocol import CHANCE

    pictures: list[str] = []
    if svg_dir is not None:
        pictures.append(write_svg(svg_dir / "step-000.svg", game.svg(start)))
    rows: list[dict[str, object]] = []
    before = start
    for number, step in enumerate(steps, start=1):
        action = game.action_text(before, step.action)
        who = "chance" if step.actor == CHANCE else f"P{step.actor}"
        rows.append({"actor": step.actor, "action": action,
                     "notation": game.to_notation(step.state)})
        lines.append(f"{number:4d}. {who:>6}: {action}")
        if svg_dir is not None:
            pictures.append(write_svg(svg_dir / f"step-{number:03d}.svg", game.svg(step.state)))
        before = step.state
    return rows, pictures


# -- demo ------------------------------------------------------------------------------------


def demo_items(game_name: str, out_dir: Path) -> list[DemoItem]:
    """A game's demo answers (its command-line hooks' ``demo``, else one played game)."""
    from banditsolve.core.registry import load_cli

    hooks = load_cli(game_name)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BanditsolveError(
            f"cannot write the pictures to {str(out_dir)[:60]}: {exc.strerror or exc}"
        ) from None
    if hooks is None:
        return list(played_demo(game_name, out_dir))
    return list(hooks.demo(out_dir, game_name))


def played_demo(game_name: str, out_dir: Path) -> Iterator[DemoItem]:
    """The demo of a game without its own: one seeded game with its first policy."""
    from banditsolve.core.play import resolve_policies, simulate
    from banditsolve.core.registry import load_game

    game = load_game(game_name)
    name = next(iter(game.policies()))
    players = game.min_players
    start, steps = simulate(
        game, seed=0, players=players, policies=resolve_policies(game, [name], players)
    )
    final = steps[-1].state if steps else start
    outcome = game.outcome(final)
    result = "" if outcome is None else f"result: {outcome.reason} (after {len(steps)} steps)"
    yield DemoItem(
        f"a {players}-player game, seed 0, {name} policy (play --seed 0 --policy {name})",
        f"{game.to_notation(start)}\n...\n{game.ascii(final)}\n{result}",
        None,
        write_svg(out_dir / "played.svg", game.svg(final)),
    )


def demo_text(title: str, items: list[DemoItem]) -> str:
    parts = []
    for item in items:
        block = [f"== {title}: {item.title}", item.text.rstrip()]
        if item.answer is not None:
            block.append(f"exit status {item.answer.exit_code} ({item.answer.status})")
        if item.svg:
            block.append(f"picture: {item.svg}")
        parts.append("\n".join(block))
    return "\n\n".join(parts)


def out_dir(args: argparse.Namespace) -> Path:
    if getattr(args, "out", None):
        return Path(args.out)
    return Path(tempfile.mkdtemp(prefix="banditsolve-demo-"))


def cmd_demo(args: argparse.Namespace) -> int:
    from banditsolve.core.registry import entry

    game = entry(args.game)
    folder = out_dir(args)
    items = demo_items(game.name, folder)
    if args.json:
        print(to_json_text({"game": game.name, "out": str(folder),
                            "items": [i.to_json() for i in items]}))
    else:
        print(demo_text(game.title, items))
    return 0


def cmd_demo_all(args: argparse.Namespace) -> int:
    """``banditsolve demo``: every registered game's demo in turn."""
    from banditsolve.core.registry import entries

    folder = out_dir(args)
    docs = []
    texts = []
    for e in entries():
        items = demo_items(e.name, folder / e.name)
        docs.append({"game": e.name, "out": str(folder / e.name),
                     "items": [i.to_json() for i in items]})
        texts.append(demo_text(e.title, items))
    if args.json:
        print(to_json_text({"out": str(folder), "games": docs}))
    else:
        print("\n\n".join(texts))
    return 0


# -- puzzles ---------------------------------------------------------------------------------


def puzzle_hooks(game: str) -> PuzzleHooks | None:
    """The puzzle hooks of ``game``: its command-line hooks when they have them (its ``cli``
    module's ``puzzle_list``, ``puzzle_view``, ``solve_puzzle``); None for a game without
    puzzles."""
    from banditsolve.core.hooks import PuzzleHooks
    from banditsolve.core.registry import load_cli

    hooks = load_cli(game)
    return hooks if isinstance(hooks, PuzzleHooks) else None


def cmd_puzzles(args: argparse.Namespace) -> int:
    hooks = puzzle_hooks(args.game)
    cards = () if hooks is None else hooks.puzzle_list(args.game)
    if not cards:
        emit(args, f"{args.game} ships no puzzles", [])
        return 0
    width = max(len(c.id) for c in cards)
    lines = [f"{plural(len(cards), 'puzzle')} (banditsolve {args.game} puzzle ID [--solve]):"]
    for c in cards:
        lines.append(f"{c.id:<{width}}  {c.title}")
        lines.append(f"{'':<{width}}  question: {c.question}")
    emit(args, "\n".join(lines), [c.to_json() for c in cards])
    return 0


def cmd_puzzle(args: argparse.Namespace) -> int:
    """``puzzle ID``: the position (0); with ``--solve``, the answer checked against the stored
    one: 0 verified, 3 unknown (a limit ran out); a disagreement is a bug (70)."""
    from banditsolve.errors import DataError, InternalError

    hooks = puzzle_hooks(args.game)
    if hooks is None:
        raise DataError(f"{args.game} ships no puzzles")
    if not args.solve:
        view = hooks.puzzle_view(args.game, args.puzzle_id)
        if args.svg is not None:
            write_svg(args.svg, view.svg)
        text = (f"{view.card.id}: {view.card.title}\nquestion: {view.card.question}\n"
                f"{view.notation}\n{view.ascii}")
        emit(args, text, view.to_json())
        return 0
    solved = hooks.solve_puzzle(args.game, args.puzzle_id)
    if not solved.unknown and not solved.verified:
        raise InternalError(
            f"puzzle {solved.view.card.id}: the solver answered {solved.found!r}, the stored "
            f"answer is {solved.expected!r}"
        )
    if args.svg is not None:
        write_svg(args.svg, solved.svg)
    check = ("unknown: a limit ran out before the answer was found" if solved.unknown
             else "verified: the solver's answer is the stored one")
    view = solved.view
    text = (f"{view.card.id}: {view.card.title}\nquestion: {view.card.question}\n"
            f"{view.notation}\n{solved.ascii}\n{solved.answer}\n{check}")
    emit(args, text, solved.to_json())
    return 3 if solved.unknown else 0
