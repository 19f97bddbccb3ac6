"""Reading user input safely: text, bytes, a file or standard input; JSON with guards.

The one state reader of every game is :func:`read_state`: it takes the source (the text itself,
UTF-8 bytes, a path, or ``"-"`` for standard input), applies the same size limits to every game,
tells JSON from notation, and calls the game's own parser; an error from the parser names the
file it came from. Games supply only the parsers (and their parsers call the game's
``rules.validate``). Underneath, :func:`read_text` and :func:`load_json` make sure that the same
bad input gets the same clear one-line error everywhere: a :class:`NotationError` that names
what was wrong and where, quoting at most a short excerpt of the input.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from banditsolve.core.limits import MAX_INPUT_BYTES, MAX_JSON_DEPTH, MAX_NUMBER_DIGITS
from banditsolve.core.text import excerpt, shown
from banditsolve.errors import ArgumentTypeError, BanditsolveError, NotationError

#: The source that means standard input.
STDIN = "-"

#: The environment variable that, set to ``1``, makes every reader take a ``str`` as the text
#: itself, never as a file name nor ``-`` for standard input: what the web API's workers run
#: under (:mod:`banditsolve.web`), so that a request cannot make the server read its files.
TEXT_ONLY = "BANDITSOLVE_TEXT_ONLY"

S = TypeVar("S")


def decode(data: bytes, where: str = "input") -> str:
    """UTF-8 bytes as text; a byte-order mark or invalid UTF-8 is refused with its offset."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise NotationError(f"{where} starts with a UTF-8 byte-order mark; save it without one")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise NotationError(f"{where} is UTF-16 text; banditsolve reads UTF-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotationError(f"{where} is not UTF-8 text (bad byte at offset {exc.start})") from None


def _meant_as_path(text: str) -> bool:
    """A string that is not a file but can only be meant as a file name: one word (every game's
    notation has spaces), or ending in ``.json`` / ``.txt``."""
    stripped = text.strip()
    if not stripped or stripped.startswith(("{", "[")):
        return False
    return len(stripped.split()) == 1 or stripped.endswith((".json", ".txt"))


def read_text(source: object, what: str = "position") -> tuple[str, str]:
    """``(text, where)`` from ``source``: text, UTF-8 bytes, a path (``str`` or ``PathLike``),
    or ``"-"`` for standard input.

    A ``str`` that names an existing file is read from the file; a ``str`` that can only be
    meant as a file name (one word, or ending in ``.json``) but names none is refused as a
    missing file. ``where`` names the source for error messages. Empty input is refused.
    """
    where = what
    if os.environ.get(TEXT_ONLY) == "1" and isinstance(source, str | os.PathLike):
        return _text_only(source, what), what
    if isinstance(source, str) and source.strip() == STDIN:
        where = "standard input"
        text = _read_stdin(where)
    elif isinstance(source, bytes | bytearray):
        if len(source) > MAX_INPUT_BYTES:
            raise NotationError(f"{what} is {len(source)} bytes, more than {MAX_INPUT_BYTES}")
        text = decode(bytes(source), what)
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and _is_file(source)):
        path = Path(os.fspath(source))
        where = str(path) if len(str(path)) <= 80 else excerpt(str(path), 80)
        text = _read_file(path, where)
    elif isinstance(source, str):
        text = _notation_text(source, what)
    else:
        raise ArgumentTypeError(
            f"a {what} must be text, bytes or a path, not {type(source).__name__}"
        )
    if not text.strip():
        raise NotationError(f"{where} is empty" if where != what else f"empty {what}")
    return text, where


def _notation_text(source: str, what: str) -> str:
    """``source``, a string that names no file, as the notation's text: one that can only be
    meant as a file name is refused as a missing file (or a directory), as is one too long."""
    if _meant_as_path(source):
        stripped = source.strip()
        if _is_dir(stripped):
            raise NotationError(f"{excerpt(stripped, 60)} is a directory, not a {what} file")
        if _exists(stripped):  # (/dev/null, a pipe: not read, lest it block or never end)
            raise NotationError(
                f"{excerpt(stripped, 60)} is not a regular file (a device or a pipe), not a"
                f" {what} file"
            )
        raise NotationError(
            f"no such file: {excerpt(stripped, 60)} (and it is not a {what} in the notation)"
        )
    if len(source) > MAX_INPUT_BYTES:
        raise NotationError(f"{what} is {len(source)} characters, more than {MAX_INPUT_BYTES}")
    return source


def _text_only(source: str | os.PathLike[str], what: str) -> str:
    """``source`` itself, never a file nor standard input (with :data:`TEXT_ONLY` set)."""
    if not isinstance(source, str):
        raise NotationError(f"no {what} file is read here: give the text itself")
    if len(source) > MAX_INPUT_BYTES:
        raise NotationError(f"{what} is {len(source)} characters, more than {MAX_INPUT_BYTES}")
    if not source.strip():
        raise NotationError(f"empty {what}")
    if _meant_as_path(source) or source.strip() == STDIN:
        raise NotationError(
            f"{excerpt(source.strip(), 60)} is not a {what} in the notation (files and standard"
            " input are not read here: give the text itself)"
        )
    return source


def _read_stdin(where: str) -> str:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise NotationError(f"{where} cannot be read (there is none)")
    try:
        data = stream.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise NotationError(f"{where} cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_INPUT_BYTES:
        raise NotationError(f"{where} holds more than {MAX_INPUT_BYTES} bytes")
    return decode(data, where)


def read_state(
    source: object,
    *,
    notation: Callable[[str], S],
    json_document: Callable[[Any], S],
    what: str = "position",
    picture: Callable[[S], str] | None = None,
) -> S:
    """A game's state from ``source`` (see :func:`read_text`): JSON text (it starts with
    ``{``) through :func:`load_json` and ``json_document``, anything else through
    ``notation``. With ``picture`` (the game's text drawing), the text that ``new`` and
    ``apply`` print is read too: the notation's line, an empty line, and that state's picture
    exactly (nothing else beside a notation is). An error of the parsers is raised with the
    file (or standard input) named first, so the message says where the bad input came from."""
    text, where = read_text(source, what)
    try:
        if text.lstrip()[:1] in ("{", "["):
            doc = expect_object(load_json(text, f"JSON {what}"), f"JSON {what}")
            if isinstance(doc.get("notation"), str) and "state" in doc:
                # The --json of new, show and apply: its notation is the state.
                return notation(doc["notation"])
            return json_document(doc)
        drawn = None if picture is None else _drawn_state(text, notation, picture)
        return notation(text) if drawn is None else drawn
    except BanditsolveError as exc:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > 1 and text.lstrip()[:1] not in ("{", "["):
            exc = type(exc)(
                f"{exc} (the text has {len(lines)} lines: a notation is one line, or that line,"
                " an empty line and the state's picture exactly as new and apply print them)"
            )
        if where == what:
            raise exc from None
        raise type(exc)(f"{where}: {exc}") from None


def _drawn_state(text: str, notation: Callable[[str], S], picture: Callable[[S], str]) -> S | None:
    """The state of a text that is a notation's line, an empty line and that state's picture
    (what ``new`` and ``apply`` print), or None when the text is not that."""
    def lines(drawn: str) -> list[str]:  # (line ends and trailing spaces as a copy may leave them)
        return [line.rstrip() for line in drawn.strip("\r\n").splitlines()]

    first, blank, rest = text.replace("\r\n", "\n").strip("\n").partition("\n\n")
    if not blank or "\n" in first.strip():
        return None
    try:
        state = notation(first)
    except BanditsolveError:
        return None
    drawn = picture(state)
    return state if drawn and lines(rest) == lines(drawn) else None


def _is_file(text: str) -> bool:
    if not text or len(text) > 4096 or "\n" in text or "\0" in text:
        return False
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def _exists(text: str) -> bool:
    try:
        return Path(text).exists()
    except (OSError, ValueError):
        return False


def _is_dir(text: str) -> bool:
    try:
        return Path(text).is_dir()
    except (OSError, ValueError):
        return False


def _read_file(path: Path, where: str) -> str:
    try:
        if path.is_dir():
            raise NotationError(f"{where} is a directory, not a file")
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise NotationError(f"{where} is {size} bytes, more than {MAX_INPUT_BYTES}")
        data = path.read_bytes()
    except FileNotFoundError:
        raise NotationError(f"{where}: no such file") from None
    except PermissionError:
        raise NotationError(f"{where}: permission denied") from None
    except OSError as exc:
        raise NotationError(f"{where}: cannot be read ({exc.strerror or exc})") from None
    return decode(data, where)


def _reject_constant(name: str) -> Any:
    raise NotationError(f"JSON number {name} is not allowed")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise NotationError(
            f"JSON number {excerpt(text, 20)} has more than {MAX_NUMBER_DIGITS} digits"
        )
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS + 10:
        raise NotationError(f"JSON number {excerpt(text, 20)} is too long")
    value = float(text)
    if not math.isfinite(value):
        raise NotationError(f"JSON number {excerpt(text, 20)} is out of range")
    return value


def _depth(text: str) -> int:
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_JSON_DEPTH:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


class _TwiceError(Exception):
    """A key given twice in one JSON object (the message: the key, shown)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _TwiceError(shown(key))
        out[key] = value
    return out


def load_json(text: object, where: str = "JSON") -> Any:
    """Parse JSON text with guards: nesting deeper than :data:`MAX_JSON_DEPTH`, numbers longer
    than :data:`MAX_NUMBER_DIGITS` digits, NaN and Infinity and a key given twice in one object
    are refused; a syntax error names its line and column. UTF-8 bytes are decoded first;
    anything else is refused."""
    if isinstance(text, bytes | bytearray):
        text = decode(bytes(text), where)
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{where}: JSON must be given as text, not {json_type(text)}")
    if _depth(text) > MAX_JSON_DEPTH:
        raise NotationError(f"{where}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_reject_constant,
            object_pairs_hook=_unique_keys,
        )
    except _TwiceError as exc:
        raise NotationError(f"{where}: a JSON object names {exc.args[0]} twice") from None
    except json.JSONDecodeError as exc:
        raise NotationError(
            f"{where}: bad JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:  # pragma: no cover - guarded by _depth
        raise NotationError(f"{where}: JSON nested too deeply") from None


def read_document(document: object, what: str) -> dict[str, Any]:
    """A JSON document given as text, UTF-8 bytes or already parsed, as a JSON object: text
    that holds something else is a :class:`NotationError`, a Python value that is not a dict
    an :class:`ArgumentTypeError`. ``what`` names the document (``"position"``)."""
    if isinstance(document, bytes | bytearray):
        document = decode(bytes(document), f"JSON {what}")
    if isinstance(document, str):
        if not document.strip():
            raise NotationError(f"empty JSON {what}")
        return expect_object(load_json(document, f"JSON {what}"), f"JSON {what}")
    if not isinstance(document, dict):
        raise ArgumentTypeError(
            f"a JSON {what} must be text, bytes or a dict, not {json_type(document)}"
        )
    return document


def expect_object(doc: object, where: str) -> dict[str, Any]:
    """``doc`` as a JSON object, or a :class:`NotationError` saying what it was instead."""
    if not isinstance(doc, dict):
        raise NotationError(f"{where} must be a JSON object, not {json_type(doc)}")
    return doc


def check_keys(
    doc: dict[str, Any], where: str, *, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> None:
    """Refuse keys that are not text (a JSON object's keys are strings; a Python dict may hold
    others), missing required keys and unknown keys, naming them."""
    odd = [k for k in doc if not isinstance(k, str)]
    if odd:
        raise NotationError(f"{where}: a field name must be text, not {shown(odd[0])}")
    missing = [k for k in required if k not in doc]
    if missing:
        raise NotationError(f"{where}: missing field {', '.join(repr(k) for k in missing)}")
    allowed = set(required) | set(optional)
    unknown = sorted(k for k in doc if k not in allowed)
    if unknown:
        names = ", ".join(excerpt(str(k), 20) for k in unknown[:3])
        raise NotationError(
            f"{where}: unknown field {names} (fields are {', '.join(sorted(allowed))})"
        )


def json_type(value: object) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float):
        return f"the number {excerpt(repr(value), 24)[1:-1]}"  # (shown: 1.0 is no int either)
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def expect_int(value: object, where: str, low: int, high: int) -> int:
    """``value`` as an int in ``low..high`` (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"{where} must be a whole number, not {json_type(value)}")
    if not low <= value <= high:
        raise NotationError(f"{where} must be between {low} and {high}, not {shown(value)}")
    return value
