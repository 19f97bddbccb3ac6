"""The analysis board in the browser and its JSON API (the ``web`` extra: Starlette, uvicorn).

``banditsolve serve`` starts it on 127.0.0.1:8000; :func:`serve` does the same from Python.
The API mirrors the command line exactly (:mod:`banditsolve.web.api`), its questions run in
bounded worker processes (:mod:`banditsolve.web.runner`), and the app
(:mod:`banditsolve.web.app`) adds the cache, the limits and the pages
(:mod:`banditsolve.web.page`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from banditsolve.errors import MissingExtraError

if TYPE_CHECKING:
    from banditsolve.web.app import Settings


def require_extra() -> None:
    """:class:`MissingExtraError` (one line naming the ``web`` extra) unless it is installed."""
    import importlib.util

    for package in ("starlette", "uvicorn"):
        if importlib.util.find_spec(package) is None:
            raise MissingExtraError("banditsolve serve", package, "web")


def serve(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None) -> None:
    """Serve the board and the API until interrupted (on loopback unless ``host`` says
    otherwise)."""
    require_extra()
    import uvicorn

    from banditsolve.web.app import create_app

    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
