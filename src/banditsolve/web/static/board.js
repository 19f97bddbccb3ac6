const game = document.body.dataset.game;
const $ = (id) => document.getElementById(id);
// The latest request wins: replies come back in any order, and a reply to a request that a
// later one has replaced must change nothing. Each thing such replies write (the picture, the
// answer, the moves' list, the editor's status) has one of these: take() starts a request and
// gives back a check that stays true until another request is taken (or drop() is called).
function latest() {
  let turn = 0;
  return {
    take() { const mine = ++turn; return () => mine === turn; },
    drop() { turn++; },
  };
}
// The picture shows what was asked last (a slow drawing of the position must not replace the
// answer's picture). ``data-shows`` says what the picture is of.
const picture = latest();
function drawPicture(current, shows, html) {
  if (!current()) { return; }
  $("picture").innerHTML = html;
  $("picture").dataset.shows = html ? shows : "";
}
function words(text) { return text.trim() ? text.trim().split(/\s+/) : []; }
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
// The question asked last owns the status, the answer, the command and the Python lines: a
// reply to an earlier question that comes back later is dropped.
const asking = latest();
async function ask() {
  const current = asking.take();
  const verb = $("verb").value.trim();
  const asked = request();
  const body = JSON.stringify(asked);
  const params = new URLSearchParams({verb, position: $("position").value,
    args: $("args").value, options: $("options").value});
  history.replaceState(null, "", "?" + params.toString());
  $("status").textContent = "asking...";
  $("status").dataset.state = "asking";
  const drawing = picture.take();
  drawPicture(drawing, "", "");
  for (const id of ["answer", "command", "python"]) { $(id).textContent = ""; }
  const headers = {"Content-Type": "application/json"};
  const reply = await fetch(`/api/${game}/${verb}`, {method: "POST", headers, body});
  const text = await reply.text();
  if (!current()) { return; }
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
  if (drawn.ok) { drawPicture(drawing, "answer", await drawn.text()); }
  asked.options.python = true;
  const python = await call(verb, asked);
  if (current()) { $("python").textContent = python.ok ? JSON.parse(python.text).python : ""; }
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
// The position drawn last owns the moves' list: a list that comes back after a later position
// began to be drawn (two undos, a new game while a move is drawn) is dropped.
const listing = latest();
async function drawPosition() {
  const current = listing.take();
  const position = $("position").value.trim();
  $("moves").innerHTML = "";
  if (!position) { return; }
  if (typeof editorFollow === "function") { editorFollow(position); }
  const drawing = picture.take();
  const [moves, drawn] = await Promise.all([
    call("moves", {args: [position]}), call("show/svg", {args: [position]})]);
  if (drawn.ok) { drawPicture(drawing, "position", drawn.text); }
  if (!current()) { return; }
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
  // One move at a time: the buttons belong to the position shown, and a second click before
  // the first move's reply would play onto that position again.
  const ready = $("moves").dataset.ready;
  if (ready === "") { return; }
  const position = $("position").value.trim();
  $("moves").dataset.ready = "";
  const reply = await call("apply", {args: [position, action]});
  if (!reply.ok) {
    $("status").textContent = JSON.parse(reply.text).error;
    $("moves").dataset.ready = ready;
    return;
  }
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
