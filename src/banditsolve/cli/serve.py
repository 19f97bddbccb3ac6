"""``banditsolve serve``: the analysis board and its JSON API on a local web server (the
``web`` extra). It binds to 127.0.0.1 unless ``--host`` says otherwise."""

from __future__ import annotations

import argparse

from banditsolve.core.flags import add_command, count, seconds
from banditsolve.core.hooks import CommandTable


def register(commands: CommandTable) -> None:
    """Add ``serve`` to the top-level commands."""
    serve = add_command(
        commands, "serve",
        "the analysis board in the browser and its JSON API (the web extra)",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=count(1, 65535, "the port"), default=8000,
                       help="the port (default 8000)")
    serve.add_argument("--workers", type=count(1, 64, "--workers"), default=2,
                       help="questions answered at a time, each in its own process (default 2)")
    serve.add_argument("--max-time-limit", type=seconds, default=20.0,
                       help="the largest --time-limit a request may ask (default 20 s); a "
                       "question is stopped 10 s after it (504)")
    serve.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted; without the web extra, one line naming it (exit 2)."""
    from banditsolve.web import bind, require_extra, serve

    require_extra()
    from banditsolve.web.app import Settings

    limit = float(args.max_time_limit)
    settings = Settings(workers=args.workers, max_time_limit=limit, deadline=limit + 10.0)
    sock = bind(args.host, args.port)  # (an address it cannot have: one line, exit 2)
    print(f"banditsolve: serving the board on http://{args.host}:{args.port}/ (Ctrl-C stops)",
          flush=True)
    serve(args.host, args.port, settings, sock)
    return 0
