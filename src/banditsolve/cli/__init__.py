"""The ``banditsolve`` command line: ``banditsolve games``, ``banditsolve demo`` and
``banditsolve GAME VERB ...`` for every registered game.

Every game has the shared verbs (``show``, ``moves``, ``apply``, ``play``, ``demo``, from
:mod:`banditsolve.cli.verbs`) and adds its own questions through its command-line hooks
(:class:`~banditsolve.core.hooks.CliHooks`, named by its registry entry). Only the game a
command names is imported, and solver libraries load only when a solver runs, so
``banditsolve --help`` stays fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from banditsolve import __version__
from banditsolve.core.answer import ExitStatus
from banditsolve.core.flags import (
    EXIT_STATUS_HELP,
    Handler,
    Parser,
    add_command,
    drop_stdout,
    emit,
    fail,
    one_line,
)
from banditsolve.core.io import read_text
from banditsolve.core.options import DeprecatedSpelling
from banditsolve.errors import BanditsolveError, InternalError

__all__ = ["build_parser", "main"]

#: Commands that are not games.
TOP_COMMANDS = ("games", "demo", "study", "serve")


def _selected(argv: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is not an option (the game or top-level command)."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


def build_parser(game: str | None = None, *, all_games: bool = True) -> argparse.ArgumentParser:
    """The parser. Each game's verbs are built when ``all_games`` is true or the game is
    ``game`` (a name or alias); the others appear only in the top-level help (nothing of them is
    imported)."""
    from banditsolve.cli.verbs import add_out, cmd_demo_all, register_shared
    from banditsolve.core.registry import entries, load_cli

    parser = Parser(
        prog="banditsolve",
        description="Rules engines and solvers for bandit-themed tabletop games. "
        "`banditsolve games` lists the games; `banditsolve GAME --help` lists a game's commands.",
        epilog=EXIT_STATUS_HELP,
    )
    parser.add_argument("--version", action="version", version=f"banditsolve {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="GAME|COMMAND", parser_class=Parser)
    commands.required = True

    listing = add_command(commands, "games", "list the registered games")
    listing.set_defaults(handler=cmd_games)
    demo = add_command(commands, "demo", "every game's demo in turn")
    add_out(demo)
    demo.set_defaults(handler=cmd_demo_all)
    from banditsolve.cli.study import register as register_study

    register_study(commands)
    from banditsolve.cli.serve import register as register_serve

    register_serve(commands)

    key = None if game is None else game.strip().lower()
    for e in entries():
        selected = all_games or key in (e.name, *e.aliases)
        sub = commands.add_parser(
            e.name,
            aliases=list(e.aliases),
            help=f"{e.title}: {e.summary}",
            description=f"{e.title}: {e.summary}. POSITION is the one-line notation, JSON text, "
            "or a file holding either.",
            epilog=EXIT_STATUS_HELP,
        )
        sub.set_defaults(game=e.name)
        if not selected:
            continue
        verbs = sub.add_subparsers(dest="verb", metavar="COMMAND", parser_class=Parser)
        verbs.required = True
        register_shared(verbs, e.name)
        hooks = load_cli(e.name)
        if hooks is not None:
            hooks.register(verbs)
    return parser


def cmd_games(args: argparse.Namespace) -> int:
    from banditsolve.core.registry import entries

    rows = [
        {"name": e.name, "title": e.title, "aliases": list(e.aliases), "summary": e.summary}
        for e in entries()
    ]
    width = max(len(r["name"]) for r in rows)
    text = "\n".join(
        f"{e.name:<{width}}  {e.title}: {e.summary} (aliases: {', '.join(e.aliases) or 'none'})"
        for e in entries()
    )
    emit(args, text, rows)
    return 0


def _game_name(word: str | None) -> str | None:
    """The registered name of the game ``word`` names (any alias, any case); an unknown game is
    refused with the registry's message (not argparse's list of aliases)."""
    from banditsolve.core.registry import entry

    if word is None or word in TOP_COMMANDS:
        return None
    try:
        return entry(word).name
    except BanditsolveError as exc:
        fail(f"{exc} (or the commands {', '.join(TOP_COMMANDS)})")


@contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """A deprecation note of the library as one line ``banditsolve: warning: ...`` on stderr."""

    def show(message: Warning | str, category: type[Warning], *_: object, **__: object) -> None:
        label = "warning" if issubclass(category, DeprecatedSpelling) else category.__name__
        print(f"banditsolve: {label}: {one_line(message)}", file=sys.stderr)

    with warnings.catch_warnings():
        # A note, never an error (whatever PYTHONWARNINGS says): the input was read.
        warnings.simplefilter("default", DeprecatedSpelling)
        warnings.showwarning = show
        yield


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``banditsolve ARGV...`` and return the exit status (never raises for bad input)."""
    with _warnings_as_lines():
        return int(_main(list(sys.argv[1:] if argv is None else argv)))


def _main(args_list: list[str]) -> int:
    try:
        word = _selected(args_list)
        name = _game_name(word)
        if name is not None:
            args_list[args_list.index(str(word))] = name
        parser = build_parser(name, all_games=False)
        args = parser.parse_args(args_list)
        handler: Handler = args.handler
        if getattr(args, "python", False):
            if str(getattr(args, "position", "")).strip() == "-":
                # The snippet holds what standard input gave, not "-" (its own stdin is empty).
                args.position = read_text("-")[0].strip()
            text = args.snippet(args)
            emit(args, text, {"python": text})
            return ExitStatus.YES
        if not _shows_progress(args):
            return handler(args)
        from banditsolve.core.progress import TerminalProgress, progress

        line = TerminalProgress()
        try:
            with progress(line):
                return handler(args)
        finally:
            line.close()
    except SystemExit as exc:  # argparse: --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other command-line tools do.
        # (An answer's own output keeps its status: emit catches it there.)
        drop_stdout()
        return ExitStatus.YES
    except (ValueError, OSError, RecursionError, MemoryError) as exc:
        return _error(_bad_input(exc))
    except Exception as exc:
        # A bug (InternalError, or anything else that escaped): one line and its own status,
        # never 1 (a proven no); BANDITSOLVE_TRACEBACK=1 shows the traceback instead.
        if os.environ.get("BANDITSOLVE_TRACEBACK"):
            raise
        what = "" if isinstance(exc, InternalError) else f"{type(exc).__name__}: "
        print(
            f"banditsolve: internal error: {what}{one_line(exc)} (a bug in banditsolve: please "
            "report it with the command that caused it)",
            file=sys.stderr,
        )
        return ExitStatus.INTERNAL


def _shows_progress(args: argparse.Namespace) -> bool:
    """A searching command (one with ``--quiet``) draws a progress line on standard error
    unless ``--quiet`` or ``--json`` was given or standard error is not a terminal (``study``
    draws its own bar instead: ``search_line`` false)."""
    if getattr(args, "quiet", True) or getattr(args, "json", False):
        return False
    if not getattr(args, "search_line", True):
        return False
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty is not None and isatty())


def _bad_input(exc: BaseException) -> str:
    """The one line for an error that bad input caused. A reader that let a bare ValueError
    through is still bad input (a :class:`BanditsolveError` is one too)."""
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply to read"
    if isinstance(exc, MemoryError):
        return "the input is too large to hold in memory"
    if isinstance(exc, UnicodeError):
        return f"the input is not valid text ({exc.__class__.__name__})"
    return str(exc)


def _error(message: object) -> int:
    print(f"banditsolve: error: {one_line(message)}", file=sys.stderr)
    return ExitStatus.BAD_INPUT
