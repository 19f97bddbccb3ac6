// The position editor's shared part: the palette of the box (embedded by the server), the
// notation the game's editor writes, checked by the game's own reader through the API, and
// handed to the board's question (the position field and the page's address).
const box = JSON.parse($("box").textContent);
const editor = {game: null, checks: latest(), setVerb: "", setArgs: "", setOptions: ""};
function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "on") { node.addEventListener("click", v); }
    else if (k === "text") { node.textContent = v; }
    else if (v !== null && v !== undefined && v !== false) { node.setAttribute(k, v); }
  }
  node.append(...kids);
  return node;
}
const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) { node.setAttribute(k, v); }
  return node;
}
function choice(id, label, values, value, onChange) {
  const select = el("select", {id});
  for (const [v, text] of values) { select.append(el("option", {value: v, text})); }
  select.value = String(value);
  select.addEventListener("change", () => onChange(select.value));
  return el("label", {}, label + " ", select);
}
// "A A B" -> "A*2 B", in the order given.
function runs(names) {
  const counts = new Map();
  for (const n of names) { counts.set(n, (counts.get(n) || 0) + 1); }
  return [...counts].map(([n, k]) => k > 1 ? `${n}*${k}` : n).join(" ");
}
function count(list, item) { return list.filter((x) => x === item).length; }
// The question the board asks once the position holds: the editor sets the verb, arguments and
// options it suggests, unless the user has typed others since.
function suggest(id, value, key) {
  const field = $(id);
  if (field.value === editor[key] || field.value === "" || (id === "verb" && field.value === "show")) {
    field.value = value;
  }
  editor[key] = value;
}
async function check() {
  const made = editor.game.made();
  const current = editor.checks.take();
  $("ed-notation").textContent = made.notation;
  $("ed-status").dataset.state = "checking";
  $("ed-status").textContent = "checking the position...";
  const body = {args: [made.notation, ...(made.check.args || [])], options: made.check.options || {}};
  const reply = await call(made.check.verb, body);
  if (!current()) { return; }
  if (!reply.ok) {
    $("ed-status").textContent = "refused: " + JSON.parse(reply.text).error;
    $("ed-status").dataset.state = "invalid";
    return;
  }
  $("position").value = made.notation;
  suggest("verb", made.verb, "setVerb");
  suggest("args", made.args, "setArgs");
  suggest("options", made.options || "", "setOptions");
  const params = new URLSearchParams({verb: $("verb").value, position: made.notation,
    args: $("args").value, options: $("options").value});
  history.replaceState(null, "", "?" + params.toString());
  $("ed-status").textContent = "a position the game can hold: it is in the position field; " +
    "Ask asks the question below";
  $("ed-status").dataset.state = "valid";
  const drawing = picture.take();
  if (made.check.picture === false) { drawPicture(drawing, "", ""); return; }
  const drawn = await call(made.check.verb + "/svg", body);
  if (current() && drawn.ok) { drawPicture(drawing, "position", drawn.text); }
}
// Redraw the palette and the board, then check the position the editor holds.
function changed() {
  editor.game.draw();
  check();
}
function startEditor(game) {
  editor.game = game;
  const given = new URLSearchParams(location.search).get("position");
  if (!(given && game.load(given.trim()))) { game.reset(); }
  game.draw();
  $("ed-notation").textContent = game.made().notation;
}
// A position set up another way (a puzzle, a new game and its moves, pasted) comes into the
// editor when the editor can hold it (a position, not a game state midway through a turn).
function editorFollow(text) {
  if (editor.game && editor.game.load(text.trim())) {
    editor.checks.drop();
    editor.game.draw();
    $("ed-notation").textContent = editor.game.made().notation;
    $("ed-status").dataset.state = "idle";
    $("ed-status").textContent = "the position above, in the editor";
  }
}
