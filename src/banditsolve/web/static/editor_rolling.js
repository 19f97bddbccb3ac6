// The position editor of Rolling Bandits: the players, the player to move, the train built from
// the palette's wagons (the locomotive at the front, each other wagon at the back), a trunk by
// its symbol on a wagon, and each player's dice (a symbol, from the dice the player has left)
// laid on a wagon as that player's group. The position is at the start of a turn; the
// notation: rb ed=... n=N phase=start turn=T wagons=K train=... won=... trunks=... (RB-NOTE-1),
// checked by the game's own reader.
const rolling = {
  n: 2, turn: 0, train: [], player: 0, symbol: "R", trunk: null, ask: 0,
  reset() { this.n = 2; this.turn = 0; this.train = []; this.player = 0; this.ask = 0; },
  wagonsLeft(w) {
    const on = this.train.filter((c) => c.need === w.need && c.points === w.points && c.loco === !!w.loco);
    return w.count - on.length;
  },
  diceLeft(p) {
    return box.dice_per_colour - this.train.reduce((k, c) => k + (c.groups[p] ? c.groups[p].size : 0), 0);
  },
  trunksLeft(letter) {
    return box.symbols.find((s) => s.letter === letter).trunks - this.train.filter((c) => c.trunk === letter).length;
  },
  made() {
    const group = (g) => g ? `${g.symbol}${g.size}` : "-";
    const train = this.train.map((c, i) => `${i}:${c.need}/${c.points}${c.loco ? "L" : ""}:${c.trunk || "-"}:` +
      c.groups.slice(0, this.n).map(group).join("|"));
    const none = Array(this.n).fill("-").join("|");
    const notation = ["rb", `ed=${box.edition}`, `n=${this.n}`, "phase=start", `turn=${this.turn}`,
      `wagons=${this.train.filter((c) => !c.loco).length}`, `train=${train.join(",") || "-"}`,
      `won=${none}`, `trunks=${none}`].join(" ");
    return {notation, verb: "safe", args: String(this.ask), check: {verb: "show"}};
  },
  load(text) {
    const m = text.match(/^rb ed=(\S+) n=([234]) phase=start turn=(\d) wagons=\d+ train=(\S+) won=[-|]+ trunks=[-|]+$/);
    if (!m || m[1] !== box.edition) { return false; }
    const train = [];
    for (const w of m[4] === "-" ? [] : m[4].split(",")) {
      const c = w.match(/^\d+:(\d)\/(\d)(L?):([RMHBS-]):(.+)$/);
      if (!c) { return false; }
      const groups = c[5].split("|").map((g) => g === "-" ? null : g.match(/^([RMHBS])(\d)$/));
      if (groups.some((g) => g === undefined)) { return false; }
      if (groups.some((g, i) => g === null && c[5].split("|")[i] !== "-")) { return false; }
      train.push({need: Number(c[1]), points: Number(c[2]), loco: c[3] === "L", trunk: c[4] === "-" ? null : c[4],
        groups: [0, 1, 2, 3].map((i) => groups[i] ? {symbol: groups[i][1], size: Number(groups[i][2])} : null)});
    }
    Object.assign(this, {n: Number(m[2]), turn: Number(m[3]), train});
    return true;
  },
  add(w) {
    const wagon = {need: w.need, points: w.points, loco: !!w.loco, trunk: null, groups: [null, null, null, null]};
    if (wagon.loco) { this.train.unshift(wagon); } else { this.train.push(wagon); }
    changed();
  },
  lay(i) {
    const groups = this.train[i].groups, p = this.player;
    if (this.diceLeft(p) <= 0) { return; }
    const g = groups[p];
    groups[p] = g && g.symbol === this.symbol ? {symbol: g.symbol, size: g.size + 1} : {symbol: this.symbol, size: 1};
    changed();
  },
  tools() {
    const tools = $("ed-tools");
    tools.innerHTML = "";
    tools.append(choice("ed-players", "players", [2, 3, 4].map((k) => [k, String(k)]), this.n, (v) => {
      this.n = Number(v); this.turn = Math.min(this.turn, this.n - 1); this.player = Math.min(this.player, this.n - 1);
      for (const c of this.train) { for (let p = this.n; p < 4; p++) { c.groups[p] = null; } }
      changed(); }));
    const players = [...Array(this.n).keys()].map((p) => [p, `player ${p}`]);
    tools.append(choice("ed-turn", "to move", players, this.turn, (v) => { this.turn = Number(v); changed(); }));
    tools.append(choice("ed-ask", "question: is wagon", this.train.map((_, i) => [i, String(i)]), this.ask,
      (v) => { this.ask = Number(v); changed(); }));
    tools.append(" provably its holder's (who moved last) at their next turn? ");
    tools.append(el("button", {id: "ed-clear", text: "clear", on: () => { this.reset(); changed(); }}));
  },
  palette() {
    const pal = $("ed-palette");
    pal.innerHTML = "";
    pal.append(el("h4", {text: "wagons that remain (a click couples one at the back; the locomotive leads)"}));
    for (const w of [{...box.locomotive, loco: true}, ...box.wagons]) {
      const left = this.wagonsLeft(w);
      pal.append(el("button", {"data-wagon": `${w.need}/${w.points}${w.loco ? "L" : ""}`, disabled: left <= 0,
        text: `${w.loco ? "locomotive " : "wagon "}${w.need}/${w.points} ×${left}`, on: () => this.add(w)}));
    }
    pal.append(el("h4", {text: "dice: whose, and the symbol (then click a wagon's row)"}));
    for (let p = 0; p < this.n; p++) {
      pal.append(el("button", {"data-player": p, "aria-pressed": String(this.trunk === null && this.player === p),
        style: `color:${box.players[p].fill}`, text: `player ${p} (${box.players[p].colour}) ×${this.diceLeft(p)}`,
        on: () => { this.player = p; this.trunk = null; this.draw(); }}));
    }
    pal.append(el("br"));
    for (const s of box.symbols) {
      pal.append(el("button", {"data-symbol": s.letter, title: s.name, "aria-pressed": String(this.trunk === null && this.symbol === s.letter),
        text: `${s.letter} ${s.name}`, on: () => { this.symbol = s.letter; this.trunk = null; this.draw(); }}));
    }
    pal.append(el("h4", {text: "trunks that remain, by symbol (then click a wagon's trunk)"}));
    for (const s of box.symbols) {
      const left = this.trunksLeft(s.letter);
      pal.append(el("button", {"data-trunk": s.letter, disabled: left <= 0, "aria-pressed": String(this.trunk === s.letter),
        text: `${s.letter} trunk ×${left}`, on: () => { this.trunk = s.letter; this.draw(); }}));
    }
    $("ed-question").innerHTML = "";
  },
  wagon(c, i) {
    const rows = [...Array(this.n).keys()].map((p) => {
      const g = c.groups[p];
      return el("div", {class: "group", "data-wagon": i, "data-player": p, on: () => { this.player = p; this.lay(i); }},
        el("span", {style: `color:${box.players[p].fill}`, text: `p${p}: `}),
        g ? el("button", {"data-group": `${i}:${p}`, text: `${g.symbol}×${g.size}`, title: "take one die back",
          on: (ev) => { ev.stopPropagation(); c.groups[p] = g.size > 1 ? {...g, size: g.size - 1} : null; changed(); }}) : "",
        el("button", {"data-lay": `${i}:${p}`, text: "+", on: (ev) => { ev.stopPropagation(); this.player = p; this.lay(i); }}));
    });
    const trunk = el("button", {"data-wagon-trunk": i, text: c.trunk ? `trunk ${c.trunk}` : "(no trunk)", on: () => {
      c.trunk = this.trunk !== null && this.trunksLeft(this.trunk) > 0 ? this.trunk : null; changed(); }});
    const off = el("button", {"data-uncouple": i, text: "×", title: "take the wagon off", on: () => {
      this.train.splice(i, 1); this.ask = Math.min(this.ask, Math.max(0, this.train.length - 1)); changed(); }});
    return el("div", {class: "wagon" + (this.ask === i ? " chosen" : "")},
      el("div", {text: `${i}: ${c.loco ? "locomotive" : "wagon"} ${c.need}/${c.points} `}, off), trunk, ...rows);
  },
  board() {
    const board = $("ed-board");
    board.innerHTML = "";
    board.append(el("div", {text: "the train, front to back: + lays the chosen symbol for that player, a group " +
      "takes one die back, the trunk button lays the chosen trunk (or clears it)"}));
    this.train.forEach((c, i) => board.append(this.wagon(c, i)));
  },
  draw() { this.tools(); this.palette(); this.board(); },
};
startEditor(rolling);
