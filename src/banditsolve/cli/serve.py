"""``banditsolve serve``: the analysis board and its JSON API on a local web server (the
``web`` extra). It binds to 127.0.0.1 unless ``--host`` says otherwise."""

from __future__ import annotations

import argparse

from banditsolve.core.flags import add_command
from banditsolve.core.hooks import CommandTable


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number 1-65535, not {text[:20]!r}")
    return int(text)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, not {text[:20]!r}"
        ) from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected 0 < seconds <= 3600, not {text[:20]!r}")
    return value


def _workers(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"workers is a whole number 1-64, not {text[:20]!r}")
    return int(text)


def register(commands: CommandTable) -> None:
    """Add ``serve`` to the top-level commands."""
    serve = add_command(
        commands, "serve",
        "the analysis board in the browser and its JSON API (the web extra)",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_port, default=8000, help="the port (default 8000)")
    serve.add_argument("--workers", type=_workers, default=2,
                       help="questions answered at a time, each in its own process (default 2)")
    serve.add_argument("--max-time-limit", type=_positive, default=20.0,
                       help="the largest --time-limit a request may ask (default 20 s); a "
                       "question is stopped 10 s after it (504)")
    serve.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted; without the web extra, one line naming it (exit 2)."""
    from banditsolve.web import require_extra, serve

    require_extra()
    from banditsolve.web.app import Settings

    limit = float(args.max_time_limit)
    settings = Settings(workers=args.workers, max_time_limit=limit, deadline=limit + 10.0)
    print(f"banditsolve: serving the board on http://{args.host}:{args.port}/ (Ctrl-C stops)")
    serve(args.host, args.port, settings)
    return 0
