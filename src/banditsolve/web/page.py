"""The pages: the list of games, and a board per game that asks the API and draws the answer.

A board holds a position (set up move by move from a new game, by clicking the legal moves
the API lists, chance outcomes included; or a shipped puzzle; or pasted notation), a question
(the verb, its further arguments, its options), and the answer: the JSON the command line prints
and the picture ``--svg`` draws, with the same question as a command and as Python
(``--python``). The page's address holds the question
(``/bandido?verb=close&args=...``), so a link shares it, and the page shows the same question
as a ``banditsolve`` command to copy. Everything is in this one HTML file: no external
script, style or font.
"""

from __future__ import annotations

import html

#: The verbs offered in the board's list: the shared ones and every game's questions (a verb a
#: game does not have is answered with the command line's own list of the game's verbs).
VERBS = ("show", "moves", "apply", "claim", "odds", "best", "close", "solve", "placements",
         "safe", "puzzles", "puzzle")

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:70rem;color:#222}
textarea,input,select{font-family:ui-monospace,monospace;font-size:.9rem}
textarea{width:100%;height:4.5rem}
#puzzle{max-width:100%}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}
button{margin-top:.6rem;padding:.35rem 1rem;font-size:1rem}
#status{font-weight:600;margin:.8rem 0}
#picture svg{max-width:100%;height:auto;border:1px solid #ddd}
pre{background:#f6f6f6;padding:.6rem;overflow:auto;max-height:24rem}
code{background:#f0f0f0;padding:.1rem .3rem}
.row{display:flex;gap:1rem;flex-wrap:wrap}.row>div{flex:1;min-width:14rem}
#moves{max-height:12rem;overflow:auto;margin-top:.3rem}
button.move{margin:.1rem;padding:.1rem .4rem;font-size:.8rem;font-family:ui-monospace,monospace}
fieldset{border:1px solid #ccc;margin:.5rem 0}
"""

_SCRIPT = """
const game = document.body.dataset.game;
const $ = (id) => document.getElementById(id);
function words(text) { return text.trim() ? text.trim().split(/\\s+/) : []; }
function options(text) {
  const out = {};
  for (const w of words(text)) {
    const i = w.indexOf("=");
    const [k, v] = i < 0 ? [w, true] : [w.slice(0, i), w.slice(i + 1)];
    if (k in out) { out[k] = [].concat(out[k], v); } else { out[k] = v; }
  }
  return out;
}
function request() {
  const args = $("position").value.trim() ? [$("position").value.trim()] : [];
  return {args: args.concat(words($("args").value)), options: options($("options").value)};
}
async function ask() {
  const verb = $("verb").value.trim();
  const body = JSON.stringify(request());
  const params = new URLSearchParams({verb, position: $("position").value,
    args: $("args").value, options: $("options").value});
  history.replaceState(null, "", "?" + params.toString());
  $("status").textContent = "asking...";
  $("picture").innerHTML = ""; $("answer").textContent = "";
  const headers = {"Content-Type": "application/json"};
  const reply = await fetch(`/api/${game}/${verb}`, {method: "POST", headers, body});
  const text = await reply.text();
  $("command").textContent = reply.headers.get("Banditsolve-Command") || "";
  if (!reply.ok) {
    $("status").textContent = `refused (${reply.status}): ` + JSON.parse(text).error;
    $("status").dataset.state = "error";
    return;
  }
  const exit = reply.headers.get("Banditsolve-Exit-Status");
  const shown = {"0": "yes", "1": "no", "3": "unknown"}[exit] || exit;
  $("answer").textContent = text;
  let answer = shown;
  try { const doc = JSON.parse(text); if (doc.answer) { answer = doc.answer; } } catch (e) {}
  $("status").textContent = `answer: ${answer} (exit status ${exit})`;
  $("status").dataset.state = "answered";
  const drawn = await fetch(`/api/${game}/${verb}/svg`, {method: "POST", headers, body});
  if (drawn.ok) { $("picture").innerHTML = await drawn.text(); }
  const asked = request();
  asked.options.python = true;
  const python = await call(verb, asked);
  $("python").textContent = python.ok ? JSON.parse(python.text).python : "";
}
async function puzzle() {
  const id = $("puzzle").value;
  if (!id) { return; }
  const reply = await fetch(`/api/${game}/puzzle`, {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify({args: [id]})});
  if (reply.ok) {
    past.length = 0;
    $("position").value = JSON.parse(await reply.text()).position;
    await drawPosition();
  }
}
async function puzzles() {
  const reply = await fetch(`/api/${game}/puzzles`, {method: "POST",
    headers: {"Content-Type": "application/json"}, body: "{}"});
  if (!reply.ok) { return; }
  for (const p of JSON.parse(await reply.text())) {
    const o = document.createElement("option");
    o.value = p.id; o.textContent = `${p.id}: ${p.question}`; $("puzzle").append(o);
  }
}
const past = [];
async function call(verb, body) {
  const reply = await fetch(`/api/${game}/${verb}`, {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const text = await reply.text();
  return {ok: reply.ok, status: reply.status, text};
}
async function drawPosition() {
  const position = $("position").value.trim();
  $("moves").innerHTML = "";
  if (!position) { return; }
  const [moves, drawn] = await Promise.all([
    call("moves", {args: [position]}), call("show/svg", {args: [position]})]);
  if (drawn.ok) { $("picture").innerHTML = drawn.text; }
  if (!moves.ok) {
    $("moves").textContent = "(" + JSON.parse(moves.text).error + ")"; return;
  }
  const doc = JSON.parse(moves.text);
  doc.actions.forEach((action, i) => {
    const b = document.createElement("button");
    b.className = "move"; b.dataset.action = action;
    const p = doc.probabilities ? ` (p=${doc.probabilities[i]})` : "";
    b.textContent = action + p;
    b.addEventListener("click", () => play(action));
    $("moves").append(b);
  });
  if (!doc.actions.length) { $("moves").textContent = "(no legal action: the game is over)"; }
  filterMoves();
  $("moves").dataset.ready = String(doc.actions.length);
}
function filterMoves() {
  const f = $("filter").value.trim();
  for (const b of $("moves").children) { b.hidden = f !== "" && !b.dataset.action.includes(f); }
}
async function play(action) {
  const position = $("position").value.trim();
  $("moves").dataset.ready = "";
  const reply = await call("apply", {args: [position, action]});
  if (!reply.ok) { $("status").textContent = JSON.parse(reply.text).error; return; }
  past.push(position);
  $("position").value = JSON.parse(reply.text).notation;
  await drawPosition();
}
async function newGame() {
  const options = {option: words($("rules").value)};
  if ($("players").value) { options.players = $("players").value; }
  if ($("seed").value) { options.seed = $("seed").value; }
  if ($("chance").checked) { options["by-chance"] = true; }
  const reply = await call("new", {options});
  if (!reply.ok) { $("status").textContent = JSON.parse(reply.text).error; return; }
  past.length = 0;
  $("position").value = JSON.parse(reply.text).notation;
  await drawPosition();
}
async function undo() {
  if (!past.length) { return; }
  $("position").value = past.pop();
  await drawPosition();
}
$("new").addEventListener("click", newGame);
$("undo").addEventListener("click", undo);
$("filter").addEventListener("input", filterMoves);
$("position").addEventListener("change", drawPosition);
$("ask").addEventListener("click", ask);
$("puzzle").addEventListener("change", puzzle);
const given = new URLSearchParams(location.search);
for (const k of ["verb", "position", "args", "options"]) {
  if (given.has(k)) { $(k).value = given.get(k); }
}
puzzles();
if (given.has("verb")) { ask(); }
"""


def _page(title: str, body: str, game: str = "") -> str:
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
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
<div class='row'><div>
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
<script>{_SCRIPT}</script>
"""
    return _page(f"banditsolve: {game}", body, game)
