// A table page: the state its seat may see, pushed over a WebSocket; the decision as buttons
// (the labels of `tav play`), the log with `why N` on a click, card text on hover or tap, and a
// cover between the seats of a hot-seat table. A replay (`tav serve --replay`): read-only, with
// step back / forward and a choice of whose view to show.
"use strict";
const $ = (id) => document.getElementById(id);
const token = location.pathname.split("/").pop();
let ws = null, state = null, shownSeat = null, retry = 0;

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else $("error").textContent = "not connected: the page reconnects by itself";
}

// A view line "    Zone: Apple ×2, Pear, 3 face-down cards": each card with its text on hover.
function viewLine(line, cards) {
  const m = /^(\s{4,})([^:]+): (.*)$/.exec(line);
  if (!m) return [document.createTextNode(line + "\n")];
  const out = [document.createTextNode(`${m[1]}${m[2]}: `)];
  m[3].split(", ").forEach((part, i) => {
    if (i) out.push(document.createTextNode(", "));
    const name = part.replace(/ ×\d+$/, "");
    if (cards[name] !== undefined) {
      const s = el("span", { class: "card", "data-text": cards[name], tabindex: "0", text: part });
      out.push(s);
    } else out.push(document.createTextNode(part));
  });
  out.push(document.createTextNode("\n"));
  return out;
}

function renderDecision(s) {
  const box = $("decision");
  box.replaceChildren();
  delete box.dataset.decision;
  if (s.error) return;
  if (!s.decision) {
    const next = s.replay ? `P${s.to_act} decides next` : `waiting for P${s.to_act}…`;
    if (s.to_act && !s.result) box.append(el("p", { class: "waiting", text: next }));
    return;
  }
  const d = s.decision;
  box.dataset.decision = d.id;
  box.append(el("p", { class: "prompt", text: `P${s.seat}, ${d.prompt}:` }));
  d.options.forEach((o, i) => {
    const b = el("button", { class: "opt", "data-option": i + 1 }, el("span", { class: "n", text: `${i + 1}.` }), o.label);
    if (o.text) b.append(el("span", { class: "text", text: o.text }));
    b.addEventListener("click", () => {
      for (const x of box.querySelectorAll("button")) x.disabled = true;
      send({ type: "choose", decision: d.id, option: i + 1 });
    });
    box.append(b);
  });
  const why = el("details", { id: "why-not" }, el("summary", { text: "why is an action not offered? (w)" }), el("pre", { text: "…" }));
  why.addEventListener("toggle", () => { if (why.open) send({ type: "why_not" }); });
  box.append(why);
}

function renderLog(s) {
  const log = $("log");
  if (s.log_start === 0) log.replaceChildren();
  for (const e of s.log) {
    const li = el("li", { value: e.n, "data-n": e.n, text: e.text });
    for (const n of e.notes) li.append(el("span", { class: "note", text: n }));
    li.addEventListener("click", (ev) => {
      if (ev.target.closest("pre.why")) return;
      const open = li.querySelector("pre.why");
      if (open) open.remove(); else send({ type: "why", line: e.n });
    });
    log.append(li);
  }
  if (s.log.length) log.scrollTop = log.scrollHeight;
}

function renderResult(s) {
  const box = $("result");
  if (!s.result) { box.hidden = true; return; }
  box.hidden = false;
  const r = s.result;
  const lines = r.scores.map((x, p) => `P${p + 1}: ${x}` + (r.winners.includes(p + 1) ? "  (winner)" : "") + (p + 1 === s.seat ? "  <- you" : ""));
  box.replaceChildren(el("strong", { text: "Game over" }), el("pre", { text: lines.join("\n") + (r.why.length ? "\n" + r.why.join("\n") : "") }));
}

function renderReplay(s) {
  const r = s.replay;
  $("replay").hidden = !r;
  if (!r) return;
  $("step").textContent = `step ${r.step} of ${r.steps}`;
  $("back").disabled = r.step <= 0;
  $("forward").disabled = r.step >= r.steps;
  const sel = $("viewas");
  if (sel.options.length !== s.players + 1) {
    sel.replaceChildren(el("option", { value: "0", text: "public" }));
    for (let p = 1; p <= s.players; p++) sel.append(el("option", { value: String(p), text: `P${p}` }));
  }
  sel.value = String(s.seat || 0);
}

function render(s) {
  state = s;
  renderReplay(s);
  document.title = `${s.title}${s.seat ? `: P${s.seat}` : ""}`;
  $("title").textContent = s.title;
  $("who").textContent = s.replay ? `replay: ${s.seat ? `P${s.seat}'s view` : "public view"}`
    : s.seat ? `you are P${s.seat}` + (s.hotseat ? ` (hot seat: P${s.humans.join(", P")})` : "") : "watching (public view)";
  const phase = s.phase ? s.phase.replace(/^-+\s*|\s*-+$/g, "").replace(/^round \d+:\s*/, "") : null;
  $("turn").textContent = [`round ${s.round}`, phase, s.to_act ? `P${s.to_act} to decide` : null].filter(Boolean).join(" · ");
  $("save").hidden = !s.seat || !!s.replay || !s.save;
  $("undo").hidden = !s.undo;
  $("error").textContent = s.error ? `this table has stopped:\n${s.error}` : "";
  const view = $("view");
  view.replaceChildren();
  for (const line of s.view) view.append(...viewLine(line, s.cards || {}));
  renderDecision(s);
  renderLog(s);
  renderResult(s);
  if (s.hotseat && s.seat !== shownSeat) {
    $("cover-text").textContent = `Pass the device to P${s.seat}`;
    $("cover").hidden = false;
  }
}

function onMessage(ev) {
  let m;
  try { m = JSON.parse(ev.data); } catch { return; }
  if (m.type === "state") { $("error").textContent = ""; render(m); }
  else if (m.type === "error") $("error").textContent = m.message;
  else if (m.type === "why_not") { const pre = document.querySelector("#why-not pre"); if (pre) pre.textContent = m.text; }
  else if (m.type === "why") {
    const li = document.querySelector(`#log li[data-n="${m.line}"]`);
    if (li) { li.querySelector("pre.why")?.remove(); li.append(el("pre", { class: "why", text: m.lines.slice(1).join("\n") || "(nothing more)" })); }
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${token}`);
  ws.onopen = () => {
    retry = 0; $("conn").textContent = "live";
    if (state?.replay && state.seat) send({ type: "seat", seat: state.seat });  // (a replay page reconnected: its view again)
  };
  ws.onmessage = onMessage;
  ws.onclose = (ev) => {
    $("conn").textContent = "disconnected";
    if (ev.code === 4404) return;
    retry = Math.min(retry + 1, 10);
    setTimeout(connect, 500 * retry);  // the table goes on without the page: it gets it back
  };
}

const tip = $("tip");
function showTip(t) {
  const r = t.getBoundingClientRect();
  tip.textContent = t.dataset.text;
  tip.hidden = false;
  tip.style.left = `${Math.min(r.left, window.innerWidth - 320)}px`;
  tip.style.top = `${r.bottom + 4}px`;
}
document.addEventListener("mouseover", (ev) => { const t = ev.target.closest?.(".card"); if (t) showTip(t); else tip.hidden = true; });
document.addEventListener("click", (ev) => { const t = ev.target.closest?.(".card"); if (t) showTip(t); });
document.addEventListener("focusin", (ev) => { const t = ev.target.closest?.(".card"); if (t) showTip(t); });

$("cover-ok").addEventListener("click", () => { shownSeat = state ? state.seat : null; $("cover").hidden = true; });
$("undo").addEventListener("click", () => send({ type: "undo" }));
$("back").addEventListener("click", () => { if (state?.replay) send({ type: "step", step: state.replay.step - 1 }); });
$("forward").addEventListener("click", () => { if (state?.replay) send({ type: "step", step: state.replay.step + 1 }); });
$("viewas").addEventListener("change", (ev) => send({ type: "seat", seat: Number(ev.target.value) }));
$("save").href = `/api/t/${token}/save`;
$("save").setAttribute("download", "");
connect();
