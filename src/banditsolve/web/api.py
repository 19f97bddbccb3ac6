"""The JSON API's contract, apart from the server: a request as the command line it stands for,
the exit status as an HTTP status, and the OpenAPI schema.

``POST /api/{game}/{verb}`` with ``{"args": [...], "options": {...}}`` runs exactly

    banditsolve GAME VERB [--OPTION=VALUE ...] --json -- ARG ...

and answers with what that command prints. ``options`` maps an option's long name without its
dashes to a value: a string or number (``--time-limit=5``), ``true`` (a flag, ``--quiet``),
``false`` or ``null`` (left out), or a list (the option repeated, ``--option a=1 --option
b=2``); a value goes in the same word as its option (``--time-limit=5``), so it is never read
as an option of its own. The options that write files (``svg``, ``svg-dir``, ``out``,
``report``) and those of the batch runner are refused, and an option is named whole (the
command line takes no prefix of one); the server adds ``--json`` itself; ``--`` keeps every
argument an argument. The verbs are the games' own (``show``, ``moves``, ``apply``, ``claim``,
``close``, ``safe``...); ``banditsolve GAME --help`` lists them.

The command's exit status becomes the HTTP status (:data:`HTTP_STATUS`, documented in the
schema and the README): an answer, whether yes, no or unknown, is a 200 whose
``Banditsolve-Exit-Status`` header carries the status the command line would have exited with.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from banditsolve.core.answer import ExitStatus
from banditsolve.core.io import json_type
from banditsolve.core.limits import MAX_INPUT_BYTES
from banditsolve.errors import ArgumentTypeError, BanditsolveError

#: The most arguments (and option values) one request may give.
MAX_ARGS = 16
#: The largest request body, in bytes: a request holds a position or a game state (at most a
#: few KB of notation, :data:`~banditsolve.core.limits.MAX_INPUT_BYTES` for any one input).
MAX_BODY_BYTES = min(MAX_INPUT_BYTES, 256 * 1024)

#: Options a request may not give: they write files on the server, or run batch work.
DENIED_OPTIONS = frozenset(
    {"svg", "svg-dir", "out", "report", "report-only", "executor", "workers", "chunk-size",
     "retry-failed", "json", "help", "version"}
)
#: Verbs that are not questions about a position (they write files or run for long).
DENIED_VERBS = frozenset({"demo", "play"})

_NAME = re.compile(r"[a-z][a-z0-9-]{0,30}")

#: The command line's exit status -> the HTTP status of the answer.
HTTP_STATUS: Mapping[int, int] = {
    ExitStatus.YES: 200,
    ExitStatus.NO: 200,
    ExitStatus.UNKNOWN: 200,
    ExitStatus.BAD_INPUT: 400,
    ExitStatus.INTERRUPTED: 503,
    ExitStatus.INTERNAL: 500,
}

#: The statuses the server itself answers with, beside :data:`HTTP_STATUS`.
SERVER_STATUS: Mapping[int, str] = {
    400: "bad input or usage: the command line's exit status 2, its one line as `error`",
    404: "no such game",
    413: f"the request body is larger than {MAX_BODY_BYTES} bytes",
    429: "this client already has as many questions running as the server allows",
    500: "an internal error (a bug): the command line's own line as `error`",
    503: "every worker is busy and the queue did not move in time, or a worker crashed",
    504: "the question ran past the server's time limit and was stopped",
}


class RequestError(BanditsolveError):
    """A request the API refuses before running anything (its HTTP status with it)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Command:
    """One request as the command line it stands for."""

    game: str
    verb: str
    argv: tuple[str, ...]

    @property
    def shell(self) -> str:
        """The same question as a shell command (for the page's "copy the command")."""
        import shlex

        return "banditsolve " + " ".join(shlex.quote(word) for word in self.argv)


def _name(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{what} must be text, not {json_type(value)}")
    if not _NAME.fullmatch(value):
        raise RequestError(f"{what} must be a lower-case word such as 'time-limit', "
                           f"not {value[:40]!r}")
    return value


def _word(value: object, where: str) -> str:
    """An argument or option value as one word of the command line."""
    if isinstance(value, bool):
        raise ArgumentTypeError(f"{where} must be text or a number, not a boolean")
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, float) else str(value)
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{where} must be text or a number, not {json_type(value)}")
    if len(value) > MAX_INPUT_BYTES:
        raise RequestError(f"{where} is longer than {MAX_INPUT_BYTES} characters", 413)
    if "\0" in value:
        raise RequestError(f"{where} holds a NUL character")
    return value


def _option_words(options: object) -> list[str]:
    if options is None:
        return []
    if not isinstance(options, dict):
        raise ArgumentTypeError(f"'options' must be an object, not {json_type(options)}")
    words: list[str] = []
    for key, value in options.items():
        name = _name(key, "an option's name")
        if name in DENIED_OPTIONS:
            raise RequestError(f"the option --{name} is not offered by the web API")
        values = value if isinstance(value, list) else [value]
        for item in values:
            if item is None or item is False:
                continue
            # (one word, --name=value: a value that starts with a dash stays the value)
            words.append(f"--{name}" if item is True else
                         f"--{name}={_word(item, f'option {name}')}")
    return words


def command(game: str, verb: str, body: object) -> Command:
    """The command line of ``POST /api/{game}/{verb}`` with the JSON ``body`` (checked: a
    :class:`RequestError` or :class:`~banditsolve.errors.ArgumentTypeError` says what is
    wrong). ``game`` must be a registered name or alias (the caller checks)."""
    verb = _name(verb, "the verb")
    if verb in DENIED_VERBS:
        raise RequestError(f"the verb {verb!r} is not offered by the web API")
    if not isinstance(body, dict):
        raise ArgumentTypeError(f"the request body must be a JSON object, not {json_type(body)}")
    unknown = sorted(set(body) - {"args", "options"})
    if unknown:
        raise RequestError(f"unknown field {unknown[0]!r} in the request (expected 'args' and "
                           "'options')")
    args = body.get("args", [])
    if not isinstance(args, list):
        raise ArgumentTypeError(f"'args' must be a list, not {json_type(args)}")
    if len(args) > MAX_ARGS:
        raise RequestError(f"more than {MAX_ARGS} arguments")
    words = [_word(a, f"argument {i + 1}") for i, a in enumerate(args)]
    options = _option_words(body.get("options"))
    if len(options) > MAX_ARGS:
        raise RequestError(f"more than {MAX_ARGS} options")
    rest = ("--", *words) if words else ()  # argparse refuses a "--" with nothing after it
    return Command(game, verb, (game, verb, *options, "--json", *rest))


def parse_body(raw: bytes) -> Any:
    """The request body as JSON (an empty body is ``{}``)."""
    if len(raw) > MAX_BODY_BYTES:
        raise RequestError(f"the request body is larger than {MAX_BODY_BYTES} bytes", 413)
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise RequestError("the request body is not JSON") from None


def openapi(games: tuple[str, ...], version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 schema of the API (served at ``/openapi.json``)."""
    value = {"type": ["string", "number", "boolean", "null", "array"],
             "items": {"type": ["string", "number"]}}
    request = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "args": {"type": "array", "maxItems": MAX_ARGS,
                     "items": {"type": ["string", "number"]},
                     "description": "the command's arguments, in order (POSITION first)"},
            "options": {"type": "object", "additionalProperties": value,
                        "description": "options by long name without dashes"},
        },
    }
    error = {"type": "object", "required": ["error"],
             "properties": {"error": {"type": "string"}}}
    responses: dict[str, Any] = {
        "200": {"description": "the answer: what `banditsolve GAME VERB ... --json` prints; the "
                "header Banditsolve-Exit-Status holds its exit status (0 yes, 1 proven no, "
                "3 unknown within the limits)",
                "content": {"application/json": {"schema": {}}}},
    }
    for status, text in SERVER_STATUS.items():
        responses[str(status)] = {"description": text,
                                  "content": {"application/json": {"schema": error}}}
    parameters = [
        {"name": "game", "in": "path", "required": True,
         "schema": {"type": "string", "enum": list(games)}},
        {"name": "verb", "in": "path", "required": True,
         "schema": {"type": "string", "pattern": _NAME.pattern}},
    ]
    return {
        "openapi": "3.1.0",
        "info": {"title": "banditsolve", "version": version,
                 "description": "Every question of the command line, as JSON."},
        "paths": {
            "/api/{game}/{verb}": {"post": {
                "summary": "ask a game's question, as `banditsolve GAME VERB ... --json`",
                "parameters": parameters,
                "requestBody": {"required": False,
                                "content": {"application/json": {"schema": request}}},
                "responses": responses,
            }},
            "/api/{game}/{verb}/svg": {"post": {
                "summary": "the same question's picture, as `--svg` draws it",
                "parameters": parameters,
                "requestBody": {"required": False,
                                "content": {"application/json": {"schema": request}}},
                "responses": {**responses, "200": {
                    "description": "the picture of the answer",
                    "content": {"image/svg+xml": {"schema": {"type": "string"}}}}},
            }},
        },
    }
