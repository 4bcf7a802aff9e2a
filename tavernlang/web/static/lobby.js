// The lobby: the game's player counts and options (as `tav info --json` gives them), a seat
// kind per player, a seed; opening a table shows one link per person's seat.
"use strict";
const $ = (id) => document.getElementById(id);
let info = null;

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function seatRows() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let p = 0; p < n; p++) {
    const sel = el("select", { id: `seat${p + 1}`, "data-seat": p + 1 });
    for (const k of ["human", "random", "greedy", "mcts"]) sel.append(el("option", { value: k, text: k === "human" ? "a person" : k === "mcts" ? "mcts bot" : `${k} bot` }));
    sel.value = old[p] || (p === 0 ? "human" : "random");
    const iters = el("input", { type: "number", min: "1", max: "1000000", value: "100", id: `iters${p + 1}`, title: "mcts iterations", size: "6" });
    const sync = () => { iters.hidden = sel.value !== "mcts"; };
    sel.addEventListener("change", sync); sync();
    box.append(el("label", {}, `P${p + 1}: `, sel, " ", iters));
  }
}

function optionRows() {
  const box = $("options");
  box.replaceChildren();
  const names = Object.keys(info.options);
  if (!names.length) box.append(el("p", { class: "dim", text: "This game has no options." }));
  for (const name of names) {
    const o = info.options[name];
    let input;
    if (o.type === "bool") {
      input = el("input", { type: "checkbox", "data-opt": name, "data-kind": "bool" });
      input.checked = !!o.default;
    } else if (o.values) {
      input = el("select", { "data-opt": name, "data-kind": "enum" });
      for (const v of o.values) input.append(el("option", { value: String(v), text: String(v) }));
      input.value = String(o.default);
    } else {
      input = el("input", { type: "number", "data-opt": name, "data-kind": "int", value: String(o.default) });
      if ("min" in o) { input.min = o.min; input.max = o.max; }
    }
    const range = "min" in o ? ` (${o.min}..${o.max})` : "";
    box.append(el("div", { class: "opt" }, el("label", {}, `${name}${range} `, input), el("span", { class: "doc", text: o.doc || "" })));
  }
}

function showLinks(made) {
  const box = $("made");
  if (box.querySelector("p.dim")) box.replaceChildren();
  const list = el("ul", { class: "links" });
  for (const l of made.links) {
    const url = location.origin + l.url;
    const who = l.seats.length > 1 ? `hot seat (P${l.seats.join(", P")})` : `P${l.seats[0]}`;
    list.append(el("li", {}, `${who}: `, el("a", { href: l.url, target: "_blank", text: url })));
  }
  list.append(el("li", {}, "watch (public view): ", el("a", { href: made.watch, target: "_blank", text: location.origin + made.watch })));
  box.append(el("h3", { text: `Table ${made.table}: ${made.players} players, seed ${made.seed}` }), list);
}

async function post(url, body) {
  $("error").textContent = "";
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  const data = await r.json().catch(() => ({ error: `the server answered ${r.status}` }));
  if (!r.ok || data.error) { $("error").textContent = data.error || `the server answered ${r.status}`; return null; }
  return data;
}

async function create(ev) {
  ev.preventDefault();
  const n = Number($("players").value);
  const seats = [];
  for (let p = 1; p <= n; p++) {
    const k = $(`seat${p}`).value;
    seats.push(k === "mcts" ? `mcts:${$(`iters${p}`).value || 100}` : k);
  }
  const options = {};
  for (const i of document.querySelectorAll("[data-opt]")) {
    const kind = i.dataset.kind;
    options[i.dataset.opt] = kind === "bool" ? i.checked : kind === "int" ? Number(i.value) : i.value;
  }
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  const made = await post("/api/tables", JSON.stringify({ players: n, seats, options, seed, hotseat: $("hotseat").checked }));
  if (made) showLinks(made);
}

async function load() {
  const f = $("savefile").files[0];
  if (!f) { $("error").textContent = "choose a save file first"; return; }
  if (f.size > 2000000) { $("error").textContent = "the save is larger than 2000000 bytes"; return; }
  const made = await post("/api/load", await f.text());
  if (made) showLinks(made);
}

async function start() {
  info = await (await fetch("/api/game")).json();
  document.title = `${info.name}: tav serve`;
  $("title").textContent = info.name;
  $("range").textContent = `${info.players.min} to ${info.players.max} players`;
  for (let n = info.players.min; n <= info.players.max; n++) $("players").append(el("option", { value: n, text: n }));
  $("players").value = Math.max(info.players.min, Math.min(2, info.players.max));
  $("players").addEventListener("change", seatRows);
  seatRows();
  optionRows();
  $("new").addEventListener("submit", create);
  $("load").addEventListener("click", load);
}
start();
