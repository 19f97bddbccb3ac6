"""The components of Rolling Bandits as data: dice faces, wagons, trunks (RB-COMP-*).

The default edition ships in ``data/edition.json``. Its wagon numbers, wagon points and trunk mix
are *reconstructed* (the publisher's lists are not public; see ``specs/rolling-bandits.md``). A
user's edition file of the same shape replaces it: :func:`load_edition` validates every field and
refuses a bad file with one :class:`~banditsolve.errors.DataError` naming what and where.

>>> edition = default_edition()
>>> edition.name, len(edition.wagons), len(edition.trunks)
('default', 16, 21)
>>> edition.locomotive
WagonCard(need=5, points=5)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from banditsolve.core.io import load_json, read_text
from banditsolve.core.limits import MAX_EDITION_PATH
from banditsolve.core.text import excerpt
from banditsolve.errors import BanditsolveError, DataError

#: The six faces of a bandit die, in the fixed order every list uses; the last is the joker.
SYMBOLS = ("revolver", "mask", "hat", "boot", "horseshoe")
FACES = (*SYMBOLS, "joker")
#: One letter per face (the notation): revolver R, mask M, hat H, boot B, horseshoe S, joker J.
LETTERS = "RMHBSJ"
JOKER = 5
#: Trunk contents (RB-TRUNK-*), in the fixed order of every list.
CONTENTS = ("nothing", "bomb", "ambush", "roll-again")
#: The contents by index (RB-COMP-5, RB-TRUNK-3, RB-AMBUSH-1, RB-AGAIN-1).
NOTHING = CONTENTS.index("nothing")
BOMB = CONTENTS.index("bomb")
AMBUSH = CONTENTS.index("ambush")
ROLL_AGAIN = CONTENTS.index("roll-again")
#: One letter per content in the notation: n(othing), b(omb), a(mbush), r(oll again).
CONTENT_LETTERS = "nbar"
#: Player colours: the first four are the hoards of players 0-3; in the two-player mercenary
#: variant players 0 and 1 call up the mercenaries of colours 2 and 3 (RB-MERC-1).
COLOURS = ("red", "blue", "yellow", "green")
COLOUR_FILLS = ("#c62828", "#1565c0", "#f9a825", "#2e7d32")


@dataclass(frozen=True, slots=True)
class WagonCard:
    """A wagon card (or the locomotive): the bandits it needs and the points it scores."""

    need: int
    points: int


@dataclass(frozen=True, slots=True)
class TrunkTile:
    """A trunk tile: the symbol on its back (an index into :data:`SYMBOLS`), its value and its
    content (an index into :data:`CONTENTS`)."""

    symbol: int
    value: int
    content: int

    def __str__(self) -> str:
        return f"{LETTERS[self.symbol]}{self.value}{CONTENT_LETTERS[self.content]}"

    @property
    def content_name(self) -> str:
        return CONTENTS[self.content]


@dataclass(frozen=True, slots=True)
class Edition:
    """A set of components: ``wagons`` and ``trunks`` list every card and tile (repeats
    included) in the file's order."""

    name: str
    dice_per_colour: int
    locomotive: WagonCard
    wagons: tuple[WagonCard, ...]
    trunks: tuple[TrunkTile, ...]

    @property
    def wagon_kinds(self) -> tuple[WagonCard, ...]:
        """The distinct wagons, in the order they first appear."""
        return tuple(dict.fromkeys(self.wagons))

    @property
    def trunk_kinds(self) -> tuple[TrunkTile, ...]:
        return tuple(dict.fromkeys(self.trunks))

    def two_player_wagons(self) -> int:
        """Wagons in a two-player train: six are removed (RB-SETUP-5)."""
        return max(1, len(self.wagons) - 6)


def _int(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(f"{where} must be a whole number, not {excerpt(repr(value), 20)}")
    if not low <= value <= high:
        raise DataError(f"{where} must be between {low} and {high}, not {value}")
    return value


def _obj(
    value: object, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DataError(f"{where} must be a JSON object")
    missing = [k for k in required if k not in value]
    if missing:
        raise DataError(f"{where}: missing field {missing[0]!r}")
    unknown = sorted(str(k) for k in value if k not in required + optional)
    if unknown:
        raise DataError(f"{where}: unknown field {excerpt(unknown[0], 20)}")
    return value


def _name(value: object, names: tuple[str, ...], where: str) -> int:
    if not isinstance(value, str) or value not in names:
        raise DataError(
            f"{where} must be one of {', '.join(names)}, not {excerpt(repr(value), 20)}"
        )
    return names.index(value)


def parse_edition(doc: object, source: str = "edition") -> Edition:
    """An :class:`Edition` from its JSON document, validated."""
    top = _obj(doc, source, ("name", "locomotive", "wagons", "trunks"), ("note", "dice_per_colour"))
    name = top["name"]
    if (
        not isinstance(name, str)
        or not name
        or len(name) > 40
        or not name.replace("-", "").isalnum()
    ):
        raise DataError(f"{source}: name must be 1-40 letters, digits or '-'")
    dice = _int(top.get("dice_per_colour", 7), f"{source}: dice_per_colour", 1, 12)
    loco_doc = _obj(top["locomotive"], f"{source}: locomotive", ("need", "points"))
    locomotive = WagonCard(
        _int(loco_doc["need"], f"{source}: locomotive need", 1, 99),
        _int(loco_doc["points"], f"{source}: locomotive points", 0, 99),
    )
    if not isinstance(top["wagons"], list) or not top["wagons"]:
        raise DataError(f"{source}: wagons must be a non-empty list")
    wagons: list[WagonCard] = []
    for i, raw in enumerate(top["wagons"]):
        where = f"{source}: wagon entry {i + 1}"
        entry = _obj(raw, where, ("need", "points"), ("count",))
        wagon = WagonCard(
            _int(entry["need"], f"{where} need", 1, 99),
            _int(entry["points"], f"{where} points", 0, 99),
        )
        wagons.extend([wagon] * _int(entry.get("count", 1), f"{where} count", 1, 30))
    if len(wagons) > 30:
        raise DataError(f"{source}: at most 30 wagons, not {len(wagons)}")
    if not isinstance(top["trunks"], list):
        raise DataError(f"{source}: trunks must be a list")
    trunks: list[TrunkTile] = []
    for i, raw in enumerate(top["trunks"]):
        where = f"{source}: trunk entry {i + 1}"
        entry = _obj(raw, where, ("symbol", "value", "content"), ("count",))
        tile = TrunkTile(
            _name(entry["symbol"], SYMBOLS, f"{where} symbol"),
            _int(entry["value"], f"{where} value", 0, 9),
            _name(entry["content"], CONTENTS, f"{where} content"),
        )
        trunks.extend([tile] * _int(entry.get("count", 1), f"{where} count", 1, 60))
    if len(trunks) < len(wagons):
        raise DataError(
            f"{source}: {len(trunks)} trunks cannot give one to each of {len(wagons)} wagons"
        )
    return Edition(name, dice, locomotive, tuple(wagons), tuple(trunks))


def edition_to_json(edition: Edition) -> dict[str, Any]:
    """The edition as a document :func:`parse_edition` reads back (one entry per card)."""
    return {
        "name": edition.name,
        "dice_per_colour": edition.dice_per_colour,
        "locomotive": {"need": edition.locomotive.need, "points": edition.locomotive.points},
        "wagons": [{"need": w.need, "points": w.points} for w in edition.wagons],
        "trunks": [
            {"symbol": SYMBOLS[t.symbol], "value": t.value, "content": CONTENTS[t.content]}
            for t in edition.trunks
        ],
    }


def load_edition(source: object) -> Edition:
    """An edition from JSON text, bytes or a path to a file."""
    try:
        text, where = read_text(source, "edition")
        doc = load_json(text, where)
    except DataError:
        raise
    except BanditsolveError as exc:
        raise DataError(str(exc)) from None
    return parse_edition(doc, where)


@lru_cache(maxsize=1)
def default_edition() -> Edition:
    """The bundled (reconstructed) edition."""
    text = (
        resources.files("banditsolve.rolling").joinpath("data", "edition.json").read_text("utf-8")
    )
    return parse_edition(load_json(text, "rolling/data/edition.json"), "rolling/data/edition.json")


_KNOWN: dict[str, Edition] = {}


def register(edition: Edition) -> Edition:
    """Make ``edition`` known by its name (states name their edition). A different edition
    under a name already known is refused."""
    known = lookup(edition.name) if edition.name in _KNOWN or edition.name == "default" else None
    if known is not None and known != edition:
        raise DataError(f"another edition is already named {edition.name!r}; rename this one")
    _KNOWN[edition.name] = edition
    return edition


#: Whether a position may name an edition by its file's path (:func:`allow_edition_files`).
_FILES = {"allowed": False}


def allow_edition_files(allowed: bool = True) -> None:
    """Let positions name an edition by the path of its JSON file (``ed=./mine.json``), read
    when a position names it. Off in the library, so that reading a position from elsewhere
    never opens a file it names; the command line turns it on. A program can instead load the
    file itself (:func:`load_edition`, :func:`register`) and name the edition."""
    _FILES["allowed"] = bool(allowed)


def is_edition_file(reference: str) -> bool:
    """Whether a position's edition reference (``ed=``) names a JSON file rather than an
    edition: an edition's name never holds ``/``, ``\\`` or ``.``, a path to its file does
    (``ed=./mine.json``, ``ed=/tmp/mine.json``, ``ed=mine.json``)."""
    return any(c in reference for c in "/\\.")


def _load_file(reference: str) -> Edition:
    """The edition in the file ``reference`` names, read once per process and then known by
    that reference (two files may hold editions of the same name)."""
    # the end of a long path (the file's name) says more than its start
    shown = repr(reference if len(reference) <= 60 else "..." + reference[-57:])
    if len(reference) > MAX_EDITION_PATH:
        raise DataError(f"edition file name {shown} is longer than {MAX_EDITION_PATH} characters")
    path = Path(reference)
    try:
        found = path.is_file()
    except (OSError, ValueError):
        found = False
    if not found:
        what = "a folder, not a file" if _is_dir(path) else "no such file"
        raise DataError(f"edition file {shown}: {what}")
    edition = load_edition(path)
    _KNOWN[reference] = edition
    return edition


def lookup(name: str) -> Edition:
    """The edition a position names: ``default``, one registered by :func:`register`, or (once
    :func:`allow_edition_files` allows it) the edition in the JSON file at the path ``name``
    (:func:`is_edition_file`; a relative path is read from the current directory, once per
    process: later lookups of the same text get the same edition)."""
    if name == "default":
        return default_edition()
    try:
        return _KNOWN[name]
    except KeyError:
        pass
    if is_edition_file(name):
        if not _FILES["allowed"]:
            raise DataError(
                f"edition {excerpt(name, 40)} names a file; positions may name edition files"
                " only when allowed (allow_edition_files(), as the command line does), or load"
                " it first (load_edition, register)"
            )
        return _load_file(name)
    raise DataError(
        f"unknown edition {excerpt(name, 40)}: give the path of its JSON file "
        "(ed=./FILE.json) or load it first (load_edition, with_edition)"
    )


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False
