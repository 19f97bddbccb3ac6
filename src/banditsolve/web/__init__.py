"""The analysis board in the browser and its JSON API (the ``web`` extra: Starlette, uvicorn).

``banditsolve serve`` starts it on 127.0.0.1:8000; :func:`serve` does the same from Python.
The API mirrors the command line exactly (:mod:`banditsolve.web.api`), its questions run in
bounded worker processes (:mod:`banditsolve.web.runner`), and the app
(:mod:`banditsolve.web.app`) adds the cache, the limits and the pages
(:mod:`banditsolve.web.page`).
"""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING

from banditsolve.errors import BanditsolveError, MissingExtraError

if TYPE_CHECKING:
    from banditsolve.web.app import Settings


def require_extra() -> None:
    """:class:`MissingExtraError` (one line naming the ``web`` extra) unless it is installed."""
    import importlib.util

    for package in ("starlette", "uvicorn"):
        if importlib.util.find_spec(package) is None:
            raise MissingExtraError("banditsolve serve", package, "web")


def bind(host: str = "127.0.0.1", port: int = 8000) -> socket.socket:
    """A listening socket on ``host``:``port``; an address that cannot be had (in use, not
    this machine's, not an address) is one line of :class:`~banditsolve.errors.
    BanditsolveError`."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        # (IPv4 first, as uvicorn binds a name: "localhost" on 127.0.0.1 even where ::1 is
        # listed before it)
        found.sort(key=lambda info: info[0] != socket.AF_INET)
        family, kind, _proto, _name, address = found[0]
        sock = socket.socket(family, kind)
    except (OSError, UnicodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise BanditsolveError(f"cannot serve on {host}:{port}: {why}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise BanditsolveError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    settings: Settings | None = None,
    sock: socket.socket | None = None,
) -> None:
    """Serve the board and the API until interrupted (on loopback unless ``host`` says
    otherwise), on ``sock`` when given (see :func:`bind`)."""
    require_extra()
    import uvicorn

    from banditsolve.web.app import create_app

    listening = bind(host, port) if sock is None else sock
    config = uvicorn.Config(create_app(settings), log_level="warning")
    uvicorn.Server(config).run(sockets=[listening])
