"""The web app: the JSON API of :mod:`banditsolve.web.api` on Starlette, a page per game, and
the limits that keep it serving.

- ``POST /api/{game}/{verb}``: the command line's answer (see :mod:`banditsolve.web.api`);
  ``POST /api/{game}/{verb}/svg``: its picture. Both are cached: the same question (the same
  command line) asked again is answered from memory, unless its answer was *unknown* (which
  a limit decided, not the position).
- ``GET /openapi.json``: the schema; ``GET /``: the games; ``GET /{game}``: the game's board
  (:mod:`banditsolve.web.page`).
- Limits (:class:`Settings`): ``workers`` questions at a time, each stopped after
  ``deadline`` seconds (504); a question that waits longer than ``queue_wait`` for a worker
  gets 503; one client (its address) may have ``per_client`` questions running (429); a body
  larger than :data:`~banditsolve.web.api.MAX_BODY_BYTES` gets 413; a ``time-limit`` option
  above ``max_time_limit`` is lowered to it (the ``Banditsolve-Time-Limit`` header says so).
  Every refusal is one line of JSON, ``{"error": "..."}``.
"""

from __future__ import annotations

import argparse
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from banditsolve.core.answer import ExitStatus
from banditsolve.core.flags import seconds
from banditsolve.core.registry import entries
from banditsolve.errors import BanditsolveError
from banditsolve.web import page
from banditsolve.web.api import (
    HTTP_STATUS,
    Command,
    RequestError,
    command,
    openapi,
    parse_body,
)
from banditsolve.web.runner import Busy, Ran, Runner

#: The longest error line the API returns (the command line's own limit).
MAX_ERROR = 300


@dataclass(frozen=True, slots=True)
class Settings:
    """The server's limits (see the module notes)."""

    workers: int = 2
    deadline: float = 30.0
    max_time_limit: float = 20.0
    queue_wait: float = 10.0
    per_client: int = 8
    cache_size: int = 512


def _seconds_above(value: object, cap: float) -> bool:
    """Whether ``value`` is a time limit the command line reads (as ``--time-limit`` does)
    and it is above ``cap``."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return False
    try:
        return seconds(str(value)) > cap
    except argparse.ArgumentTypeError:
        return False


def header_text(text: str, limit: int = 2000) -> str:
    """``text`` as an HTTP header value: printable ASCII only (a line break would end the
    header: one in a pasted position left the request with no answer at all), each control
    character written as its escape (``\\n``), anything else as ``?``, cut to ``limit``."""
    escaped = text.encode("unicode_escape").decode("ascii")
    return "".join(c if " " <= c <= "~" else "?" for c in escaped)[:limit]


def _error(message: str, status: int) -> JSONResponse:
    line = " ".join(message.split())[:MAX_ERROR]
    return JSONResponse({"error": line}, status_code=status)


def _last_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    text = lines[-1] if lines else "the command printed no error"
    return text.removeprefix("banditsolve: error: ")


class App:
    """The state the routes share: the settings, the workers, the cache, the clients."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.runner = Runner(
            settings.workers, settings.deadline, settings.queue_wait, settings.max_time_limit
        )
        self.cache: OrderedDict[tuple[tuple[str, ...], bool], Ran] = OrderedDict()
        self.clients: Counter[str] = Counter()
        self.names = {alias: e.name for e in entries() for alias in (e.name, *e.aliases)}
        self.games = tuple(e.name for e in entries())
        self._schema: Response | None = None

    def _capped(self, body: Any) -> tuple[Any, str | None]:
        """``body`` with each ``time-limit`` value above the server's cap lowered to it (and
        the cap, when one was); a value the command line would refuse is left for it to
        refuse. (The worker caps every limit it reads too, its default included.)"""
        if not isinstance(body, dict) or not isinstance(body.get("options"), dict):
            return body, None
        given = body["options"].get("time-limit")
        cap = self.settings.max_time_limit
        items = given if isinstance(given, list) else [given]
        lowered = [cap if _seconds_above(item, cap) else item for item in items]
        if lowered == items:
            return body, None
        value = lowered if isinstance(given, list) else lowered[0]
        return {**body, "options": {**body["options"], "time-limit": value}}, f"{cap:g}"

    async def ask(self, request: Request) -> Response:
        picture = request.url.path.endswith("/svg")
        game = self.names.get(str(request.path_params["game"]).lower())
        if game is None:
            return _error(f"no game named {request.path_params['game']!r}: "
                          f"{', '.join(self.games)}", 404)
        try:
            body, capped = self._capped(parse_body(await request.body()))
            cmd = command(game, str(request.path_params["verb"]), body)
        except RequestError as exc:
            return _error(str(exc), exc.status)
        except BanditsolveError as exc:
            return _error(str(exc), 400)
        client = request.client.host if request.client is not None else "unknown"
        ran = await self._answer(cmd, picture, client)
        if isinstance(ran, Response):
            return ran
        response = self._response(ran, picture)
        response.headers["Banditsolve-Command"] = header_text(cmd.shell)
        if capped is not None:
            response.headers["Banditsolve-Time-Limit"] = capped
        return response

    async def _answer(self, cmd: Command, picture: bool, client: str) -> Ran | Response:
        key = (cmd.argv, picture)
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        if self.clients[client] >= self.settings.per_client:
            return _error(f"this client already has {self.settings.per_client} questions "
                          "running: wait for one to end", 429)
        self.clients[client] += 1
        try:
            ran = await self.runner.run(cmd, picture=picture)
        except Busy:
            return _error("every worker is busy: ask again later", 503)
        finally:
            self.clients[client] -= 1
            if not self.clients[client]:
                del self.clients[client]
        if ran.status in (ExitStatus.YES, ExitStatus.NO, ExitStatus.BAD_INPUT):
            self.cache[key] = ran
            while len(self.cache) > self.settings.cache_size:
                self.cache.popitem(last=False)
        return ran

    def _response(self, ran: Ran, picture: bool) -> Response:
        if ran.status is None:
            return _error(f"the question ran past the server's limit of "
                          f"{self.settings.deadline:g} s and was stopped", 504)
        if ran.crashed:
            return _error(f"the worker stopped unexpectedly (status {ran.status}): "
                          f"{_last_line(ran.err)}", 503)
        status = HTTP_STATUS.get(ran.status, 500)
        if status != 200:
            return _error(_last_line(ran.err), status)
        headers = {"Banditsolve-Exit-Status": str(ran.status)}
        if picture:
            if ran.svg is None:
                return _error("this question draws no picture", 400)
            return Response(ran.svg, media_type="image/svg+xml", headers=headers)
        return Response(ran.out, media_type="application/json", headers=headers)

    async def schema(self, request: Request) -> Response:
        if self._schema is None:
            from banditsolve import __version__

            self._schema = JSONResponse(openapi(self.games, str(__version__)))
        return self._schema

    async def index(self, request: Request) -> Response:
        return HTMLResponse(page.index(self.games))

    async def board(self, request: Request) -> Response:
        game = self.names.get(str(request.path_params["game"]).lower())
        if game is None:
            return _error(f"no game named {request.path_params['game']!r}", 404)
        return HTMLResponse(page.board(game, self.games))


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such page, a method a route does not take) as one line of
    JSON like every other."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
    allowed = {} if status != 405 else {"Allow": "POST"}
    response = _error(f"{detail}: {request.method} {request.url.path}"[:MAX_ERROR], status)
    response.headers.update(allowed)
    return response


def create_app(settings: Settings | None = None) -> Starlette:
    """The ASGI app (``uvicorn`` serves it; ``starlette.testclient.TestClient`` tests it)."""
    app = App(settings or Settings())
    routes = [
        Route("/", app.index),
        Route("/openapi.json", app.schema),
        Route("/api/{game}/{verb}", app.ask, methods=["POST"]),
        Route("/api/{game}/{verb}/svg", app.ask, methods=["POST"]),
        Route("/{game}", app.board),
    ]
    starlette = Starlette(routes=routes, exception_handlers={HTTPException: _http_error})
    starlette.state.banditsolve = app
    return starlette
