// The position editor of the tunnel games (Bandido, Bandida): the super card at (0, 0), cards
// laid from the palette on the grid's cells (a click on a free cell lays the chosen card there,
// its square A on the cell, turned as chosen; a click on a laid card takes it back), and the
// cards for the question picked from what remains. The notation: GAME CARD@X,Y,ROT ... | CARDS
// (BD-NOTE-2); the game's own reader says whether the table can be (BD-NOTE-1).
const CELL = 34;
// Each port: its square (0 = A, 1 = B) and the side it opens on, in the card's own frame.
const PORT_AT = {L: [0, -1, 0], TL: [0, 0, -1], TR: [1, 0, -1], R: [1, 1, 0], BR: [1, 0, 1], BL: [0, 0, 1]};
const KIND_MARK = {ladder: "Ld", backpack: "Bp", water_bottle: "Wb", broken_tool: "Bt",
  dynamite: "Dy", map: "Mp", alarm_discard_five: "A5", alarm_discard_one: "A1", bandido_super: "S"};
function quarter([dx, dy], turns) {
  for (let i = 0; i < turns; i++) { [dx, dy] = [-dy, dx]; }
  return [dx, dy];
}
function cardName(entry) { return entry.kind === "tunnel" ? entry.card : `${entry.card}:${entry.kind}`; }
function cellsOf(p) {
  const [bx, by] = quarter([1, 0], p.rot / 90);
  return [[p.x, p.y], [p.x + bx, p.y + by]];
}
function drawCard(parent, p, ox, oy, number) {
  const sq = cellsOf(p).map(([x, y]) => [(x - ox) * CELL + CELL / 2, (y - oy) * CELL + CELL / 2]);
  const [name, kind] = p.card.split(":");
  const g = svg("g", {class: number === undefined ? "card" : "laid", "data-card": p.card});
  const x0 = Math.min(sq[0][0], sq[1][0]) - CELL / 2, y0 = Math.min(sq[0][1], sq[1][1]) - CELL / 2;
  const w = Math.abs(sq[0][0] - sq[1][0]) + CELL, h = Math.abs(sq[0][1] - sq[1][1]) + CELL;
  const fill = p.super ? "#f4c27a" : kind ? "#cfe3f3" : "#ecdcb8";
  g.append(svg("rect", {x: x0 + 1.5, y: y0 + 1.5, width: w - 3, height: h - 3, rx: 4, fill,
    stroke: "#7a5a2a"}));
  const used = new Set();
  for (const port of name.split("+")) {
    const [s, dx, dy] = PORT_AT[port];
    const [ex, ey] = quarter([dx, dy], p.rot / 90);
    used.add(s);
    g.append(svg("line", {x1: sq[s][0], y1: sq[s][1], x2: sq[s][0] + ex * CELL / 2,
      y2: sq[s][1] + ey * CELL / 2, stroke: "#4a2f12", "stroke-width": 7}));
  }
  if (used.size === 2) {
    g.append(svg("line", {x1: sq[0][0], y1: sq[0][1], x2: sq[1][0], y2: sq[1][1],
      stroke: "#4a2f12", "stroke-width": 7}));
  }
  const mark = (kind && KIND_MARK[kind]) || (number !== undefined ? String(number) : "");
  if (mark) {
    const t = svg("text", {x: sq[0][0] - CELL / 2 + 3, y: sq[0][1] - CELL / 2 + 11,
      "font-size": 10, fill: "#123"});
    t.textContent = mark;
    g.append(t);
  }
  parent.append(g);
  return g;
}
const tunnels = {
  side: "super6", mode: 1, rot: 0, pick: null, placed: [], hand: [],
  reset() { this.side = "super6"; this.mode = box.modes.length ? 1 : 0; this.placed = []; this.hand = []; },
  entries() {
    return box.cards.filter((e) => !box.modes.length || (e.modes ? e.modes.includes(this.mode) : !e.extra));
  },
  left(name) {
    const entry = box.cards.find((e) => cardName(e) === name);
    const laid = this.placed.filter((p) => p.card === name).length;
    return (entry ? entry.count : 0) - laid - count(this.hand, name);
  },
  table() { return [{card: box.super[this.side], x: 0, y: 0, rot: 0, super: true}, ...this.placed]; },
  made() {
    const laid = this.placed.map((p) => `${p.card}@${p.x},${p.y},${p.rot}`);
    const notation = [box.edition, `${this.side}@0,0,0`, ...laid, "|", runs(this.hand)].join(" ").trim();
    const options = {"max-cards": 0, "time-limit": 2};
    let words = "";
    if (box.modes.length) { options.mode = this.mode; words = `mode=${this.mode}`; }
    if (this.side !== "super6") { options.option = `super_side=${this.side}`; words += ` option=super_side=${this.side}`; }
    // The check asks for a closure with no card: the reader's verdict, in a moment.
    return {notation, verb: "close", args: "", options: words.trim(),
      check: {verb: "close", options, picture: false}};
  },
  load(text) {
    const m = text.match(/^(\w+) ([^|]*)\|([^=]*)$/);
    if (!m || m[1] !== box.edition) { return false; }
    const [first, ...rest] = m[2].trim().split(/\s+/);
    const side = Object.keys(box.super).find((s) => first === `${s}@0,0,0` || first === `${box.super[s]}@0,0,0`);
    if (!side) { return false; }
    const placed = [];
    for (const word of rest) {
      const p = word.match(/^(.+)@(-?\d+),(-?\d+),(0|90|180|270)$/);
      if (!p) { return false; }
      placed.push({card: p[1], x: Number(p[2]), y: Number(p[3]), rot: Number(p[4])});
    }
    const hand = [];
    for (const word of m[3].trim().split(/\s+/).filter(Boolean)) {
      const [name, n] = word.split("*");
      for (let i = 0; i < Number(n || 1); i++) { hand.push(name); }
    }
    Object.assign(this, {side, placed, hand});
    return true;
  },
  lay(x, y) {
    if (!this.pick || this.left(this.pick) <= 0) { return; }
    this.placed.push({card: this.pick, x, y, rot: this.rot});
    changed();
  },
  tools() {
    const tools = $("ed-tools");
    tools.innerHTML = "";
    tools.append(choice("ed-side", "super card", [["super6", "6 exits"], ["super5", "5 exits"]],
      this.side, (v) => { this.side = v; changed(); }));
    if (box.modes.length) {
      tools.append(choice("ed-mode", "mode", box.modes.map((m) => [m, String(m)]), this.mode,
        (v) => { this.mode = Number(v); changed(); }));
    }
    tools.append(choice("ed-rot", "turn the card", [0, 90, 180, 270].map((r) => [r, `${r}°`]),
      this.rot, (v) => { this.rot = Number(v); this.draw(); }));
    tools.append(el("button", {id: "ed-clear", text: "clear the table", on: () => {
      this.placed = []; this.hand = []; changed(); }}));
  },
  palette() {
    const pal = $("ed-palette");
    pal.innerHTML = "";
    pal.append(el("h4", {text: "the cards that remain (click one, then a free cell; + gives it to the question)"}));
    for (const entry of this.entries()) {
      const name = cardName(entry), left = this.left(name);
      const pic = svg("svg", {width: CELL * 1.2, height: CELL * 0.6, viewBox: `0 0 ${2 * CELL} ${CELL}`});
      drawCard(pic, {card: name, x: 0, y: 0, rot: 0}, 0, 0);
      const pick = el("button", {"data-card": name, title: name, disabled: left <= 0,
        "aria-pressed": String(this.pick === name), on: () => { this.pick = name; this.draw(); }}, pic, `×${left}`);
      const give = el("button", {"data-give": name, title: `${name} for the question`,
        disabled: left <= 0, text: "+", on: () => { this.hand.push(name); changed(); }});
      pal.append(el("span", {class: "item"}, pick, give));
    }
    const hand = $("ed-question");
    hand.innerHTML = "";
    hand.append(el("h4", {text: "the cards for the question (click one to put it back)"}));
    this.hand.forEach((name, i) => hand.append(el("button", {"data-hand": name, text: name,
      on: () => { this.hand.splice(i, 1); changed(); }})));
    hand.append(el("button", {id: "ed-all", text: "all that remain", on: () => {
      for (const e of this.entries()) { for (let k = this.left(cardName(e)); k > 0; k--) { this.hand.push(cardName(e)); } }
      changed(); }}));
  },
  grid() {
    const table = this.table();
    const cells = table.flatMap(cellsOf);
    const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
    const ox = Math.min(...xs) - 3, oy = Math.min(...ys) - 3;
    const w = Math.max(...xs) + 4 - ox, h = Math.max(...ys) + 4 - oy;
    const pic = svg("svg", {id: "ed-grid", width: w * CELL, height: h * CELL, viewBox: `0 0 ${w * CELL} ${h * CELL}`});
    const taken = new Set(cells.map((c) => c.join(",")));
    for (let y = oy; y < oy + h; y++) {
      for (let x = ox; x < ox + w; x++) {
        if (taken.has(`${x},${y}`)) { continue; }
        const r = svg("rect", {class: "cell", x: (x - ox) * CELL, y: (y - oy) * CELL,
          width: CELL, height: CELL, "data-x": x, "data-y": y});
        r.append(svg("title"));
        r.firstChild.textContent = `(${x}, ${y})`;
        r.addEventListener("click", () => this.lay(x, y));
        pic.append(r);
      }
    }
    table.forEach((p, i) => {
      const g = drawCard(pic, p, ox, oy, i + 1);
      g.dataset.index = String(i);
      if (i > 0) { g.addEventListener("click", () => { this.placed.splice(i - 1, 1); changed(); }); }
    });
    $("ed-board").innerHTML = "";
    $("ed-board").append(el("div", {text: "the table: click a free cell to lay the chosen card " +
      "(its square A there), a laid card to take it back"}), pic);
  },
  draw() { this.tools(); this.palette(); this.grid(); },
};
startEditor(tunnels);
