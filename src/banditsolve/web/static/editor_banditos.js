// The position editor of Los Banditos: booty tiles from the palette into the row's four slots
// or a player's won pile, dice (a colour and a value) onto a player's side of a tile, the
// player to move and the claim proof's reading (LB-OPT-1). The face-down stack is what the box
// holds beyond them; the dice in the bag are every die not on a tile. The notation:
// ROW STACK WON TURN [proof=bag] (LB-NOTE-1), checked by the game's own reader.
const banditos = {
  row: [], won: [[], []], turn: 0, proof: "strict", pick: null, colour: "k", value: 6, slot: 1,
  reset() {
    this.row = Array.from({length: box.slots}, () => ({v: 0, s: [[], []]}));
    this.won = [[], []]; this.turn = 0; this.proof = "strict"; this.slot = 1;
  },
  tilesLeft(v) {
    const total = box.tiles.find((t) => t.value === v).count;
    return total - this.row.filter((s) => s.v === v).length - count(this.won.flat(), v);
  },
  diceLeft(colour) {
    const on = this.row.flatMap((s) => s.s.flat()).filter((d) => d[0] === colour).length;
    return box.dice.find((d) => d.colour === colour).count - on;
  },
  made() {
    const row = this.row.map((s) => s.v ? `${s.v}:${s.s[0].join("")}:${s.s[1].join("")}` : "-").join("/");
    const stack = box.tiles.map((t) => String(t.value).repeat(this.tilesLeft(t.value))).join("") || "-";
    const won = this.won.map((w) => [...w].sort().reverse().join("") || "-").join(":");
    const notation = [row, stack, won, `${this.turn}a`, ...(this.proof === "bag" ? ["proof=bag"] : [])].join(" ");
    return {notation, verb: "claim", args: String(this.slot), check: {verb: "show"}};
  },
  load(text) {
    const m = text.match(/^(\S+) (\S+) (\S+):(\S+) ([01])a( proof=(strict|bag))?$/);
    if (!m) { return false; }
    const row = [];
    for (const slot of m[1].split("/")) {
      const s = slot.match(/^(?:-|([123]):((?:[kgrb][1-6])*):((?:[kgrb][1-6])*))$/);
      if (!s) { return false; }
      const dice = (t) => t ? t.match(/../g) : [];
      row.push(s[1] ? {v: Number(s[1]), s: [dice(s[2]), dice(s[3])]} : {v: 0, s: [[], []]});
    }
    if (row.length !== box.slots) { return false; }
    const won = [m[3], m[4]].map((w) => w === "-" ? [] : [...w].map(Number));
    Object.assign(this, {row, won, turn: Number(m[5]), proof: m[7] || "strict"});
    return true;
  },
  tile(i) {
    const slot = this.row[i];
    if (this.pick !== null && this.tilesLeft(this.pick) > 0) {
      slot.v = this.pick;
    } else {
      this.row[i] = {v: 0, s: [[], []]};
    }
    changed();
  },
  place(i, side) {
    const dice = this.row[i].s[side];
    if (this.pick !== null || !this.row[i].v || dice.length >= 3 || this.diceLeft(this.colour) <= 0) { return; }
    dice.push(this.colour + this.value);
    changed();
  },
  tools() {
    const tools = $("ed-tools");
    tools.innerHTML = "";
    tools.append(choice("ed-turn", "to move", [[0, "player 0"], [1, "player 1"]], this.turn,
      (v) => { this.turn = Number(v); changed(); }));
    tools.append(choice("ed-proof", "a claim's proof may count", [["strict", "every die not on the tile"],
      ["bag", "the dice in the bag"]], this.proof, (v) => { this.proof = v; changed(); }));
    tools.append(choice("ed-slot", "question: a claim on the tile in slot",
      this.row.map((_, i) => [i + 1, String(i + 1)]), this.slot, (v) => { this.slot = Number(v); changed(); }));
    tools.append(el("button", {id: "ed-clear", text: "clear", on: () => { this.reset(); changed(); }}));
  },
  palette() {
    const pal = $("ed-palette");
    pal.innerHTML = "";
    pal.append(el("h4", {text: "booty tiles that remain (click one, then a slot's tile or a won pile)"}));
    for (const t of box.tiles) {
      const left = this.tilesLeft(t.value);
      pal.append(el("button", {"data-tile": t.value, disabled: left <= 0, "aria-pressed": String(this.pick === t.value),
        text: `tile ${t.value} ×${left}`, on: () => { this.pick = t.value; this.draw(); }}));
    }
    pal.append(el("h4", {text: "dice that remain (a colour and a value, then click a side)"}));
    for (const d of box.dice) {
      const left = this.diceLeft(d.colour);
      pal.append(el("button", {"data-colour": d.colour, disabled: left <= 0,
        "aria-pressed": String(this.pick === null && this.colour === d.colour),
        on: () => { this.pick = null; this.colour = d.colour; this.draw(); }},
        el("span", {class: `die ${d.colour}`, text: d.colour}), ` ${d.name} ×${left}`));
    }
    pal.append(el("br"));
    for (const v of box.values) {
      pal.append(el("button", {"data-value": v, "aria-pressed": String(this.pick === null && this.value === v),
        text: String(v), on: () => { this.pick = null; this.value = v; this.draw(); }}));
    }
    $("ed-question").innerHTML = "";
  },
  chips(dice, remove) {
    return dice.map((d, k) => el("button", {class: `die ${d[0]}`, "data-die": d, text: d[1], title: "take it back",
      on: (ev) => { ev.stopPropagation(); remove(k); changed(); }}));
  },
  sideBox(i, side) {
    const dice = this.row[i].s[side];
    const div = el("div", {class: "side", "data-slot": i + 1, "data-side": side, title: `player ${side}'s side`,
      on: () => this.place(i, side)}, `p${side}: `, ...this.chips(dice, (k) => dice.splice(k, 1)),
      el("button", {"data-put": `${i + 1}:${side}`, text: "+", title: "put the chosen die here",
        on: (ev) => { ev.stopPropagation(); this.place(i, side); }}));
    return div;
  },
  board() {
    const board = $("ed-board");
    board.innerHTML = "";
    board.append(el("div", {text: "the row: click a slot's tile to lay the chosen tile (or, with none " +
      "chosen, to clear it), a side to put the chosen die there, a die to take it back"}));
    this.row.forEach((s, i) => {
      board.append(el("div", {class: "slot" + (this.slot === i + 1 ? " chosen" : "")},
        el("div", {text: `slot ${i + 1}`}), this.sideBox(i, 1),
        el("button", {"data-slot-tile": i + 1, text: s.v ? `tile ${s.v}` : "(no tile)", on: () => this.tile(i)}),
        this.sideBox(i, 0)));
    });
    const piles = el("div", {});
    this.won.forEach((w, p) => piles.append(el("div", {class: "side", "data-won": p, on: () => {
      if (this.pick !== null && this.tilesLeft(this.pick) > 0) { w.push(this.pick); changed(); } }},
      `player ${p} won: `, ...w.map((v, k) => el("button", {text: String(v), on: (ev) => {
        ev.stopPropagation(); w.splice(k, 1); changed(); }})))));
    board.append(piles);
  },
  draw() { this.tools(); this.palette(); this.board(); },
};
startEditor(banditos);
