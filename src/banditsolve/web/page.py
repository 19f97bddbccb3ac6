"""The pages: the list of games, and a board per game that asks the API and draws the answer.

A board holds a position (clicked together in the position editor from a palette of the
components that remain, :mod:`banditsolve.web.palette`; set up move by move from a new game,
by clicking the legal moves the API lists, chance outcomes included; or a shipped puzzle; or
pasted notation), a question
(the verb, its further arguments, its options), and the answer: the JSON the command line prints
and the picture ``--svg`` draws, with the same question as a command and as Python
(``--python``). The page's address holds the question
(``/bandido?verb=close&args=...``), so a link shares it, and the page shows the same question
as a ``banditsolve`` command to copy. Everything is in this one HTML file: no external
script, style or font; the page's style and scripts are the package's ``web/static/`` files,
inlined (``board.js`` the board, ``editor.js`` the editor's shared part, ``editor_*.js`` each
kind of game's editor).
"""

from __future__ import annotations

import html
import json
from functools import cache
from importlib import resources

from banditsolve.web import palette

#: The verbs offered in the board's list: the shared ones and every game's questions (a verb a
#: game does not have is answered with the command line's own list of the game's verbs).
VERBS = ("show", "moves", "apply", "claim", "odds", "best", "close", "solve", "placements",
         "safe", "puzzles", "puzzle")

#: The page's own files (``static/``), inlined into the HTML in this order.
_STYLES = ("board.css", "editor.css")
_SCRIPTS = ("board.js", "editor.js")
#: The position editor of each kind of game (the ``kind`` of its palette).
_EDITORS = {"tunnels": "editor_tunnels.js", "banditos": "editor_banditos.js",
            "rolling": "editor_rolling.js"}


@cache
def _static(name: str) -> str:
    """A file of the page (``static/NAME``), shipped as package data."""
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


@cache
def _box_json(game: str) -> str:
    """The palette of ``game`` as JSON safe inside a ``<script>`` element."""
    data = palette.box(game)
    return json.dumps(data).replace("<", "\\u003c") if data is not None else "null"


def _styles() -> str:
    return "".join(_static(name) for name in _STYLES)


def _scripts(game: str) -> str:
    """The board's scripts, and the position editor of ``game``'s kind when it has one."""
    data = palette.box(game)
    names = [*_SCRIPTS, *([_EDITORS[data["kind"]]] if data is not None else [])]
    return "".join(f"<script>{_static(name)}</script>" for name in names)


_EDITOR = """
<fieldset id='editor'><legend>set a position up from the box: click it together from a palette
of what remains</legend>
<div id='ed-tools'></div>
<div id='ed-palette'></div>
<div id='ed-board'></div>
<div id='ed-question'></div>
<label>the position's notation (checked by the game's own reader)</label>
<pre id='ed-notation'></pre>
<div id='ed-status' data-state='idle'></div>
</fieldset>
"""


def _page(title: str, body: str, game: str = "") -> str:
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_styles()}</style></head>"
        f"<body data-game='{html.escape(game)}'>{body}</body></html>"
    )


def index(games: tuple[str, ...]) -> str:
    """The list of games, each a link to its board."""
    items = "".join(f"<li><a href='/{g}'>{html.escape(g)}</a></li>" for g in games)
    return _page("banditsolve", f"<h1>banditsolve</h1><p>Pick a game:</p><ul>{items}</ul>"
                 "<p>The JSON API: <a href='/openapi.json'>/openapi.json</a>.</p>")


def board(game: str, games: tuple[str, ...]) -> str:
    """The board of ``game``."""
    verbs = "".join(f"<option value='{v}'>" for v in VERBS)
    others = " · ".join(f"<a href='/{g}'>{html.escape(g)}</a>" for g in games if g != game)
    body = f"""
<h1>banditsolve: {html.escape(game)}</h1><p>{others}</p>
{_EDITOR if palette.box(game) is not None else ""}<div class='row'><div>
<label for='puzzle'>a shipped puzzle</label>
<select id='puzzle'><option value=''>(paste a position below instead)</option></select>
<fieldset><legend>set a game up move by move</legend>
<label for='players'>players, seed (a shuffled deal), rule options (<code>NAME=VALUE</code>)</label>
<input id='players' size='3' placeholder='2'> <input id='seed' size='6' value='0'>
<label style='display:inline;font-weight:normal'><input type='checkbox' id='chance'> deal by
chance</label>
<input id='rules' size='24' placeholder='e.g. mode=2'>
<button id='new'>New game</button> <button id='undo'>Undo</button>
<label for='filter'>the legal moves (click one to play it; type to filter)</label>
<input id='filter' size='24'><div id='moves'></div></fieldset>
<label for='position'>position or game state (notation or JSON)</label>
<textarea id='position' spellcheck='false'></textarea>
<label for='verb'>question (verb)</label>
<input id='verb' list='verbs' value='show'><datalist id='verbs'>{verbs}</datalist>
<label for='args'>further arguments (a tile, a wagon, actions...)</label>
<input id='args' size='40'>
<label for='options'>options, e.g. <code>time-limit=5 player=1</code></label>
<input id='options' size='40'>
<br><button id='ask'>Ask</button>
<div id='status' data-state='idle'></div>
<label>the same question on the command line</label><pre id='command'></pre>
<label>and in Python (the library's call)</label><pre id='python'></pre>
</div><div><div id='picture'></div></div></div>
<label>the answer (what <code>--json</code> prints)</label><pre id='answer'></pre>
<script type='application/json' id='box'>{_box_json(game)}</script>
{_scripts(game)}
"""
    return _page(f"banditsolve: {game}", body, game)
