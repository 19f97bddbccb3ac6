"""The command line's shared toolkit: what every command of ``banditsolve`` uses, the shared
verbs and every game's own questions alike (so it sits in the core, under the games).

The shared pieces
=================
- :class:`Parser`: argparse with usage errors as one line ``banditsolve: error: ...`` (exit 2).
- One flag set, added by the ``add_*`` functions so that every game spells them the same way:
  ``POSITION`` (:func:`add_position`), ``--json`` (:func:`add_json`), ``--svg OUT``
  (:func:`add_svg`), ``--seed N`` (:func:`add_seed`, default 0), ``--time-limit SECONDS``,
  ``--node-limit N`` and ``--quiet`` (:func:`add_limits`), ``--option NAME=VALUE``
  (:func:`add_options`), ``--players K`` (:func:`add_players`, a count).
- :func:`read_position` reads ``POSITION`` (the notation, JSON text, or a file holding either)
  with the game's ``read_state``; :func:`emit` prints text or JSON; :func:`emit_answer` prints a
  :class:`~banditsolve.core.answer.Answer` and returns its exit status.
- Exit status (:data:`EXIT_STATUS_HELP`, in every ``--help``): 0 yes, 1 proven no, 3 unknown
  within the limits, 2 bad input or usage, 70 a bug, 130 Ctrl-C, 143 SIGTERM.

The interface of a game's command line
======================================
A game plugs its own questions and its demo in through
:class:`~banditsolve.core.hooks.CliHooks`, which its registry entry names (usually the game's
``cli`` module itself, whose ``register`` and ``demo`` functions are the hooks). The module is
imported only when a command names the game (or for ``banditsolve demo``), so it imports
nothing heavy at module level: the handlers import the game's rules and solvers. A handler
takes the parsed ``argparse.Namespace`` and returns the exit status::

    def cmd_claim(args: argparse.Namespace) -> int:
        state = GAME.read_state(args.position)      # POSITION: notation, JSON, file or -
        verdict = ...                               # the game's solver
        return emit_answer(args, verdict.to_answer(), text=verdict.explain())

``add_query`` gives the parser ``POSITION``, ``--json`` and the exit-status epilog. Errors are
raised, never printed: any :class:`~banditsolve.errors.BanditsolveError` becomes one line on
stderr with exit status 2 (so is an ``OSError`` from writing a picture). ``args.game`` is the
registered name of the game (whatever alias the user typed).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from banditsolve.core.answer import ExitStatus
from banditsolve.core.hooks import CommandTable
from banditsolve.core.limits import MAX_DIGITS, MAX_SEED
from banditsolve.errors import BanditsolveError, NotationError

if TYPE_CHECKING:
    from banditsolve.core.answer import Answer
    from banditsolve.core.protocol import Game

#: A command's handler: the parsed arguments in, the exit status out.
Handler = Callable[[argparse.Namespace], int]
#: What ``register`` receives: the game's sub-command table (``add_subparsers()``'s result).
Commands = CommandTable

EXIT_STATUS_HELP = f"""\
exit status (the same for every query command):
  {ExitStatus.YES}  yes: safe, closable, a winning line, an exact answer
  {ExitStatus.NO}  proven no: unsafe, impossible, lost
  {ExitStatus.UNKNOWN}  unknown: a limit (--time-limit, --node-limit) ran out before an answer was \
proven
  {ExitStatus.BAD_INPUT}  bad input or usage (one line on stderr: "banditsolve: error: ...")
  {ExitStatus.INTERNAL}  a bug in banditsolve (one line: "banditsolve: internal error: ...")
  {ExitStatus.INTERRUPTED}  stopped by Ctrl-C, {ExitStatus.TERMINATED} by SIGTERM
(a reader of the output that goes away early, as "| head" does, leaves the status as it is)"""

#: The longest error message printed after ``banditsolve: error: `` (an error quotes at most a
#: short excerpt of the input).
MAX_ERROR_LINE = 260


def one_line(message: object) -> str:
    """``message`` as one line of at most :data:`MAX_ERROR_LINE` characters."""
    text = " ".join(str(message).split())
    if len(text) > MAX_ERROR_LINE:
        text = text[: MAX_ERROR_LINE - 3] + "..."
    return text


def fail(message: object) -> NoReturn:
    """Print ``banditsolve: error: MESSAGE`` and exit with status 2."""
    print(f"banditsolve: error: {one_line(message)}", file=sys.stderr)
    raise SystemExit(ExitStatus.BAD_INPUT)


class Parser(argparse.ArgumentParser):
    """Usage errors in one line on stderr, exit status 2, like every other error of the tool.
    A long option is named whole: no prefix stands for it (``--sv`` is not ``--svg``), so that
    what an option is never depends on which other options exist (the web API refuses some by
    name)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        fail(f"{message} (see '{self.prog} --help')")


# -- argument types ----------------------------------------------------------------------------


def _number_text(text: str, what: str) -> str:
    stripped = text.strip()
    if not stripped.isascii():  # (int() and float() read other scripts' digits too)
        raise argparse.ArgumentTypeError(f"expected {what} in the digits 0-9, not {text[:30]!r}")
    if len(stripped.lstrip("+-")) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{what} {stripped[:12]!r}... has too many digits")
    return stripped


def integer(text: str, what: str = "a whole number") -> int:
    stripped = _number_text(text, what)
    try:
        return int(stripped)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, not {text[:30]!r}") from None


def count(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high`` (``None``: no upper bound)."""

    def parse(text: str) -> int:
        value = integer(text)
        if value < low or (high is not None and value > high):
            span = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{what} must be {span}, not {value}")
        return value

    parse.__name__ = what
    return parse


def file_to_write(text: str) -> str:
    """An argument type: a file this command may write (``--svg OUT``), checked before any
    work starts: a name, not a folder, in a folder that exists and may be written to (no
    folder is made for it)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the file name is empty")
    target = Path(text)
    if target.is_dir():
        raise argparse.ArgumentTypeError(f"{_tail(text)} is a folder: give a file name")
    _writable_folder(target.parent, text)
    return text


def folder_to_write(text: str) -> str:
    """An argument type: a folder this command writes files into (``--svg-dir``, ``--out``),
    checked before any work starts: a name, not a file; the folder itself is made if missing,
    but its parent must exist and may be written to."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the folder name is empty")
    target = Path(text)
    if target.exists() and not target.is_dir():
        raise argparse.ArgumentTypeError(f"{_tail(text)} is a file, not a folder")
    _writable_folder(target if target.is_dir() else target.parent, text)
    return text


def folder_to_make(text: str) -> str:
    """An argument type: a folder this command makes, with its missing parents, and writes
    into (a study's ``--out`` and ``--report``), checked before any work starts: a name, not a
    file, whose nearest existing folder may be written to."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the folder name is empty")
    target = Path(text)
    if target.exists() and not target.is_dir():
        raise argparse.ArgumentTypeError(f"{_tail(text)} is a file, not a folder")
    nearest = target
    while not nearest.exists() and nearest != nearest.parent:
        nearest = nearest.parent
    if not nearest.is_dir():
        raise argparse.ArgumentTypeError(f"{_tail(str(nearest))} is a file, not a folder")
    _writable_folder(nearest, text)
    return text


def _writable_folder(folder: Path, text: str) -> None:
    where = folder if str(folder) else Path(".")
    if not where.is_dir():
        raise argparse.ArgumentTypeError(f"the folder {_tail(str(where))} does not exist")
    if not os.access(where, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"the folder {_tail(str(where))} may not be written to")


def _tail(path: str, most: int = 60) -> str:
    """A path for a message: its end when it is long (the end names it)."""
    return path if len(path) <= most else "..." + path[-(most - 3) :]


def seconds(text: str) -> float:
    """An argument type: a positive, finite number of seconds (at most a week)."""
    from banditsolve.core.limits import check_time_limit
    from banditsolve.errors import SolverError

    stripped = _number_text(text, "the time limit")
    try:
        value = float(stripped)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"the time limit must be a number of seconds, not {text[:30]!r}"
        ) from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(
            f"the time limit must be a finite number of seconds, not {stripped!r}"
        )
    try:
        checked = check_time_limit(value)
    except SolverError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    assert checked is not None
    cap = time_limit_cap()
    return checked if cap is None else min(checked, cap)


#: The environment variable that caps every ``--time-limit``, its default included (the web
#: board's workers set it to the server's ``--max-time-limit``).
TIME_LIMIT_CAP = "BANDITSOLVE_MAX_TIME_LIMIT"


def time_limit_cap() -> float | None:
    """The cap :data:`TIME_LIMIT_CAP` sets (a positive number of seconds), or None."""
    text = os.environ.get(TIME_LIMIT_CAP)
    if not text:
        return None
    try:
        cap = float(text)
    except ValueError:
        return None
    return cap if math.isfinite(cap) and cap > 0 else None


def nodes(text: str) -> int:
    """An argument type: a node limit (a whole number from 1 to 10^12)."""
    from banditsolve.core.limits import check_node_limit
    from banditsolve.errors import SolverError

    value = integer(text, "a whole number of nodes")
    try:
        checked = check_node_limit(value)
    except SolverError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    assert checked is not None
    return checked


#: An argument type for ``--seed``: a whole number from 0 to 2**64 - 1.
seed_number = count(0, MAX_SEED, "the seed")


# -- the shared flags -------------------------------------------------------------------------


def add_position(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        metavar="POSITION",
        help="the one-line notation, JSON text, or a file holding either",
    )


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def add_svg(
    parser: argparse.ArgumentParser, help: str = "also write an SVG picture to OUT"
) -> None:
    """``--svg OUT``: a file to write, checked before any work starts (:func:`file_to_write`)."""
    parser.add_argument("--svg", metavar="OUT", type=file_to_write, help=help)


def add_seed(parser: argparse.ArgumentParser, help: str = "random seed (default 0)") -> None:
    parser.add_argument("--seed", type=seed_number, default=0, metavar="N", help=help)


def add_limits(
    parser: argparse.ArgumentParser,
    *,
    time_limit: float | None,
    node_limit: int | None,
    time_help: str = "",
    nodes_too: bool = True,
) -> None:
    """``--time-limit SECONDS`` and (unless ``nodes_too`` is false: a solver that counts no
    nodes) ``--node-limit N``, with the solver's defaults; and ``--quiet`` (:func:`add_quiet`):
    a command that takes a limit is one that searches."""
    cap = time_limit_cap()
    if cap is not None:  # (a search run for the web board: every limit within the server's)
        time_limit = cap if time_limit is None else min(time_limit, cap)
    default = "none" if time_limit is None else f"{time_limit:g} s"
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=time_limit,
        metavar="SECONDS",
        help=time_help or f"wall-clock limit (default {default}); past it the answer is unknown",
    )
    add_quiet(parser)
    if not nodes_too:
        return
    shown = "none" if node_limit is None else f"{node_limit}"
    parser.add_argument(
        "--node-limit",
        type=nodes,
        default=node_limit,
        metavar="N",
        help=f"search nodes the solver may visit (default {shown})",
    )


def add_quiet(
    parser: argparse.ArgumentParser,
    help: str = "draw no progress line (one is drawn on standard error, when it is a terminal "
    "and --json is not given, while a search runs past a second)",
) -> None:
    """``--quiet``: no progress line. Without it (and without ``--json``), a search that runs
    past a second draws one line on standard error while it runs, when standard error is a
    terminal."""
    parser.add_argument("--quiet", action="store_true", help=help)


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (repeatable); the options and their values are listed below",
    )


def add_players(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=count(1, 99, "the number of players"),
        default=None,
        metavar="K",
        help="how many players (default: as many as the game deals to by itself)",
    )


def add_command(
    commands: Commands, name: str, help: str, *, description: str | None = None
) -> argparse.ArgumentParser:
    """A sub-command with ``--json`` and the exit-status epilog."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=help, description=description or help, epilog=EXIT_STATUS_HELP
    )
    add_json(parser)
    return parser


def add_query(
    commands: Commands,
    name: str,
    help: str,
    *,
    description: str | None = None,
    snippet: Snippet | None = None,
) -> argparse.ArgumentParser:
    """A question about a position: ``NAME POSITION ... [--json]``, answered with exit status
    0/1/3 (marked ``query`` in its defaults: every query draws its answer, ``--svg OUT``).
    With ``snippet`` it also takes ``--python`` (see :func:`add_python`)."""
    parser = add_command(commands, name, help, description=description)
    add_position(parser)
    parser.set_defaults(query=True)
    if snippet is not None:
        add_python(parser, snippet)
    return parser


#: What writes a command's ``--python`` text: the same question asked through the library.
Snippet = Callable[[argparse.Namespace], str]


def add_python(parser: argparse.ArgumentParser, snippet: Snippet) -> None:
    """``--python``: print the Python that asks the same question through the library (the
    same function, the same arguments) instead of answering it; ``snippet`` writes it."""
    parser.add_argument(
        "--python", action="store_true",
        help="print the same question as Python code (the library's call, with these "
        "arguments) instead of answering it",
    )
    parser.set_defaults(snippet=snippet)


def python_args(*positional: object, **keywords: object) -> str:
    """``positional..., name=value...`` as a call's arguments, every value a literal."""
    return ", ".join([repr(p) for p in positional] + [f"{k}={v!r}" for k, v in keywords.items()])


def python_text(
    args: argparse.Namespace, imports: Sequence[str], call: str, *, read: str | None = None
) -> str:
    """A whole snippet: the imports, the game, the state read from ``POSITION`` (``read``: a
    reading of its own, the default ``game.read_state(...)``), ``answer = CALL`` and its
    printing."""
    if read is None:
        read_position(args)  # bad input: one line and exit 2, as the question itself gives
    reading = read or f"state = game.read_state({args.position!r})"
    return "\n".join([
        "import banditsolve", *imports, "",
        f"game = banditsolve.load_game({args.game!r})",
        reading,
        f"answer = {call}",
        "print(answer)",
    ])


# -- reading and printing --------------------------------------------------------------------


def load(args: argparse.Namespace) -> Game[object, object]:
    """The game object the command names."""
    from banditsolve.core.registry import load_game

    return load_game(args.game)


def read_position(args: argparse.Namespace, attribute: str = "position") -> object:
    """``POSITION`` as the game's state, through ``game.read_state``."""
    return load(args).read_state(getattr(args, attribute))


def parse_options(items: Sequence[str], game: Game[object, object]) -> dict[str, object]:
    """``--option NAME=VALUE`` items as a mapping, read by the game's options
    (:meth:`~banditsolve.core.options.OptionSet.read_items`)."""
    return dict(game.option_set.read_items(items))


def to_json_text(payload: Any) -> str:
    return json.dumps(payload, indent=2, ensure_ascii=False)


def emit(args: argparse.Namespace, text: str, payload: Any) -> None:
    """Print ``payload`` as JSON when ``--json`` was given, else ``text``. A reader that went
    away (``| head``, ``| grep -q``) stops the output quietly, not the command: its exit status
    is still the answer's."""
    try:
        print(to_json_text(payload) if getattr(args, "json", False) else text)
        sys.stdout.flush()
    except BrokenPipeError:
        drop_stdout()


def drop_stdout() -> None:
    """Send what is still to be printed to the null device (the reader of stdout went away),
    so that nothing fails at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def emit_answer(args: argparse.Namespace, answer: Answer, text: str | None = None) -> int:
    """Print ``answer`` (``text``, or ``answer.to_json()`` with ``--json``) and return its exit
    status: 0 yes, 1 no, 3 unknown."""
    emit(args, text if text is not None else f"{answer.answer}: {answer.reason}", answer.to_json())
    return answer.exit_code


def write_svg(path: str | os.PathLike[str], picture: str) -> str:
    """Write ``picture`` to ``path`` (making its folder); returns the path as text."""
    if not str(path).strip():
        raise NotationError("the SVG file name is empty")
    target = Path(path)
    try:
        if target.is_dir():
            raise NotationError(f"{str(target)[:60]} is a directory: give a file name for the SVG")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(picture, encoding="utf-8")
    except OSError as exc:
        raise BanditsolveError(
            f"cannot write {str(target)[:60]}: {exc.strerror or exc.__class__.__name__}"
        ) from None
    return str(target)
