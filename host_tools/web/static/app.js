// The live table page: the server pushes the table view (server-sent events);
// every action posts to /api/action and shows the console's words.
// Text from devices (names, problems) is only ever set as textContent.
"use strict";

// What a flip is for: an attribute, or a suit by its shape and name (the edge of a card it sits on).
const HOWS = [["str", "Str"], ["dex", "Dex"], ["int", "Int"], ["anvil", "▼ Anvil"], ["blade", "▶ Blade"],
              ["crown", "◀ Crown"], ["dragon", "▲ Dragon"]];
const cards = new Map();  // player name -> their card element
// For tests and the latency bench: when each view arrived and when a player's
// newest flip was first shown (Date.now(), milliseconds).
// acts: the actions posted and answered so far.
window.deckahedron = { views: 0, lastVersion: 0, flipSeen: {}, acts: { sent: 0, answered: 0 } };

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function suit(name) {
  const s = el("span", name ? name[0].toUpperCase() + name.slice(1) : "?", "suit " + (name || ""));
  return s;
}

function cardList(ids) { return ids && ids.length ? ids.join(", ") : "none"; }

function options(select, values, keep) {  // values: "v" or ["v", "label"]
  const old = select.value;
  const pairs = values.map(v => Array.isArray(v) ? v : [v, v]);
  const now = [...select.options].map(o => o.value + "\n" + o.textContent).join("\n\n");
  if (now === pairs.map(([v, label]) => v + "\n" + label).join("\n\n")) return;  // as it is: a select the GM has open stays open
  select.replaceChildren(...pairs.map(([v, label]) => { const o = el("option", label); o.value = v; return o; }));
  if (keep && pairs.some(([v]) => v === old)) select.value = old;
}

// A response's JSON; a refusal the server says in plain words (no token, too big, too many) as
// {ok: false, lines, error}, like the console's refusals.
async function answerOf(r) {
  const text = await r.text();
  try { return JSON.parse(text); } catch (e) {
    const line = text.trim() || `${r.status} ${r.statusText}`;
    return { ok: false, lines: [line], error: line };
  }
}

async function act(body) {
  const answer = document.getElementById("answer");
  let reply;
  window.deckahedron.acts.sent++;
  try {
    const r = await fetch("/api/action", { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify(body) });
    reply = await answerOf(r);
  } catch (e) {
    reply = { ok: false, lines: ["the table's server did not answer: " + e] };
  }
  window.deckahedron.acts.answered++;
  const out = [];
  if (reply.line) out.push(el("div", "table> " + reply.line));
  for (const line of reply.lines || []) out.push(el("div", line, reply.ok ? "" : "refused"));
  answer.replaceChildren(...out);
  answer.dataset.ok = reply.ok ? "yes" : "no";
  return reply;
}

function number(form, name) { return parseInt(form.elements[name].value || "0", 10) || 0; }

function playerCard(name) {
  const node = document.getElementById("player-card").content.firstElementChild.cloneNode(true);
  node.dataset.player = name;
  node.id = "player-" + name;  // the jump list's target
  options(node.querySelector("form.flip select"), [["", "as on the device"]].concat(HOWS));  // "": the device's selected attribute
  node.querySelector("form.flip").addEventListener("submit", async ev => {
    ev.preventDefault();
    const f = ev.target;
    const reply = await act({ action: "flip", player: node.dataset.player, attr: f.elements.attr.value,
                              net: number(f, "net"), reason: f.elements.reason.value });
    if (reply.ok) f.elements.reason.value = "";  // a reason is one flip's
  });
  askButton(node);
  node.querySelector("form.damage").addEventListener("submit", ev => {
    ev.preventDefault();
    const f = ev.target;
    act({ action: "damage", player: node.dataset.player, power: f.elements.power.value, wounds: number(f, "wounds") });
  });
  node.querySelector("button.blessing").addEventListener("click", () => act({ action: "blessing", player: node.dataset.player }));
  node.querySelector("button.wound").addEventListener("click", () => act({ action: "wound", player: node.dataset.player }));
  // Undo asks first: the console's words for what it would undo, then a confirm of exactly that (its entry).
  const box = node.querySelector(".confirm"), ask = box.querySelector(".ask");
  const yes = box.querySelector("button.yes"), no = box.querySelector("button.no");
  // The question is the page's own, not the console's "type undo Ann yes" above a button that does it.
  const show = (reply, canConfirm) => {
    ask.textContent = canConfirm ? "Undo puts " + reply.undo.text + ". Confirm undo does it; Cancel keeps the game as it is."
      : (reply.lines || []).join(" ");
    ask.className = "ask" + (reply.ok ? "" : " refused");
    yes.hidden = !canConfirm;
    no.textContent = canConfirm ? "Cancel" : "Close";
    box.hidden = false;
  };
  node.querySelector("button.undo").addEventListener("click", async () => {
    const reply = await act({ action: "undo", player: node.dataset.player });
    box.dataset.entry = reply.ok && reply.undo ? reply.undo.entry : "";
    box.dataset.who = reply.ok && reply.undo ? reply.undo.player : "";
    show(reply, Boolean(box.dataset.entry));
  });
  yes.addEventListener("click", async () => {
    yes.hidden = true;  // one confirm per question
    const reply = await act({ action: "undo", player: box.dataset.who, confirm: true, entry: Number(box.dataset.entry) });
    show(reply, false);
  });
  no.addEventListener("click", () => { box.hidden = true; });
  for (const b of node.querySelectorAll("button[data-button]")) {
    b.addEventListener("click", () => act({ action: "press", player: node.dataset.player, button: b.dataset.button }));
  }
  return node;
}

function stateRows(p) {
  if (!p.known) return [["state", "not read yet"]];
  if (p.system !== "deck") {  // another system says its state in its own words
    return [["system", p.system_name]].concat((p.words || []).map((line, i) => [i ? "" : "state", line]));
  }
  const rows = [
    ["deck", `${p.draw} to draw, ${p.discard} discarded, ${p.exhaustion} exhausted`],
    ["XP", p.xp],
    ["tokens", `Harm ${p.harm}, Wound ${p.wound_tokens}, Exhaustion ${p.exhaustion_tokens}`],
    ["blessings", cardList(p.blessings)],
    ["wound cards", cardList(p.wound_cards)],
    ["incapacitated", p.incapacitated ? "yes: " + p.incapacitated : "no"],
    ["edition", p.edition + (p.campaign ? " (" + p.campaign + ")" : "")],
  ];
  const a = p.attrs || {};
  if (a.str) {
    const attrs = [];
    for (const [k, label] of [["str", "Str"], ["dex", "Dex"], ["int", "Int"]]) {
      if (attrs.length) attrs.push(", ");
      attrs.push(label + " ", suit(a[k]));
    }
    rows.splice(1, 0, ["attributes", attrs]);
  }
  return rows;
}

// The device's power, a row of the player's state (older firmware: not reported).
function batteryRows(p) { return p.battery ? [["battery", p.battery]] : []; }

// The GM is told once when a device's battery runs low (again only after it was charged).
const batteryWarned = new Set();

function warnLowBattery(players) {
  const low = players.filter(p => p.battery_low);
  for (const name of [...batteryWarned]) if (!low.some(p => p.name === name)) batteryWarned.delete(name);
  const fresh = low.filter(p => !batteryWarned.has(p.name));
  if (!fresh.length) return;
  for (const p of fresh) batteryWarned.add(p.name);
  document.getElementById("battery-warning").textContent =
    "Battery low: " + fresh.map(p => `${p.name}'s device (${p.battery})`).join(", ") + ". Charge it soon.";
}

// Ask: the player's device shows the GM's request (the flip form's attribute, net and why); the
// player flips it with B or declines with C, and the flip comes back tagged with it.
function askButton(node) {
  node.querySelector("button.ask-flip").addEventListener("click", async () => {
    const f = node.querySelector("form.flip");
    const reply = await act({ action: "ask", player: node.dataset.player, attr: f.elements.attr.value,
                              net: number(f, "net"), reason: f.elements.reason.value });
    if (reply.ok) f.elements.reason.value = "";
  });
}

// Everyone flip Dex: one ask to every player's device.
function askEveryone(ev) {
  ev.preventDefault();
  const f = ev.target;
  act({ action: "ask", player: "all", attr: f.elements.attr.value, net: number(f, "net"), reason: f.elements.reason.value });
}

// Why a flip was made, when the GM or a request said it.
function flipReason(f) { return f.reason ? [" ", el("q", f.reason, "reason")] : []; }

function renderPlayer(node, p, now) {
  node.querySelector(".name").textContent = p.name;
  const conn = node.querySelector(".conn");
  conn.className = "conn " + p.connection;
  conn.textContent = p.connection === "ok" ? "connected" : p.connection;
  conn.title = p.connection_text;
  node.querySelector(".problem").textContent = p.connection === "ok" ? "" : p.connection_text;
  const img = node.querySelector(".screen");
  img.alt = p.name + "'s screen";
  if (p.screen && img.dataset.tag !== p.screen) {
    img.dataset.tag = p.screen;
    img.src = "/screen/" + encodeURIComponent(p.name) + ".png?v=" + p.screen;
  }
  const dl = node.querySelector(".state");
  const parts = [];
  for (const [k, v] of stateRows(p).concat(batteryRows(p))) {
    parts.push(el("dt", k));
    const dd = el("dd");
    if (Array.isArray(v)) dd.append(...v); else dd.textContent = String(v);
    if (k === "incapacitated" && p.incapacitated) dd.className = "incap";
    parts.push(dd);
  }
  dl.replaceChildren(...parts);
  const ol = node.querySelector(".flips");
  const items = [];
  for (const line of p.open_flip || []) items.push(el("li", "open: " + line));
  for (const f of p.flips) {
    const li = el("li");
    li.append(suit(f.suit), ` ${f.net >= 0 ? "+" : ""}${f.net}: cards ${cardList(f.cards)} → `,
              el("span", f.word || "?", "word"), ` from card ${f.resolving}`, el("small", f.source === "buttons" ? " (buttons)" : " (GM)"),
              ...flipReason(f));
    li.title = f.text;
    if (f.undone) { li.classList.add("undone"); li.append(" ", el("small", "(undone)")); }
    items.push(li);
  }
  if (!items.length) items.push(el("li", "no flips yet", "none"));  // a note, not flip number 1
  ol.replaceChildren(...items);
  const key = p.flips.length ? String(p.flips[0].id) : "";  // two alike flips in a row are two flips
  if (node.dataset.newest !== key) {
    if (node.dataset.newest !== undefined && key) announce(p.name, p.flips[0]);  // not the flips the page opened on
    node.dataset.newest = key;
    node.dataset.flipCount = String(p.flips.length);
    (window.deckahedron.flipSeen[p.name] = window.deckahedron.flipSeen[p.name] || []).push({ key, at: now });
  }
}

// Each new result in words, for everyone and for a screen reader (the #results live region), a flip
// made with a device's buttons included; spoken aloud too where the GM turned "speak results" on (the
// browser's speech synthesis; the choice is kept in this browser).
const SPEAK_KEY = "deckahedron.speak";

function announce(name, f) {
  const by = f.source === "buttons" ? " with the device's buttons" : "";
  const text = `${name} flipped ${f.suit} ${f.net >= 0 ? "+" : ""}${f.net}${by}: ${f.word || "no result"}`
    + (f.reason ? `, for "${f.reason}"` : "") + (f.undone ? " (undone)" : "");
  document.getElementById("results").textContent = text;
  if (document.getElementById("speak").checked && window.speechSynthesis) {
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
  }
}

// A link to each player's card at the top: on a phone the cards stack in one long column, each one tap
// away instead of a scroll past the others (the page keeps one order for the keyboard).
function jumpList(players) {
  const nav = document.getElementById("jump");
  const names = players.map(p => p.name);
  if (nav.dataset.names === names.join("\n")) return;
  nav.dataset.names = names.join("\n");
  nav.replaceChildren(el("span", "players:"), ...names.map(n => {
    const a = el("a", n);
    a.href = "#player-" + encodeURIComponent(n);
    return a;
  }));
}

function speakSwitch() {
  const box = document.getElementById("speak");
  box.checked = localStorage.getItem(SPEAK_KEY) === "on";
  box.addEventListener("change", () => localStorage.setItem(SPEAK_KEY, box.checked ? "on" : "off"));
}

function renderTable(v) {
  const s = v.shadow;
  document.getElementById("shadow").textContent = `${s.name}: ${s.earned} earned, ${s.spent} spent, ${s.left} left`;
  const sup = document.getElementById("supply");
  sup.textContent = `Blessings: ${cardList(v.supply.blessings)}. Wound cards: ${cardList(v.supply.wounds)}.`;
  document.getElementById("conflicts").textContent = v.conflicts.length ? "conflict: " + v.conflicts.join("; ") : "";
  const tw = document.getElementById("teamwork");
  const rows = v.teamwork.in_progress.concat(v.teamwork.recent).map(t => el("li", t));
  tw.replaceChildren(...(rows.length ? rows : [el("li", "none yet")]));
  const names = v.players.map(p => p.name);
  const form = document.getElementById("team-form");
  options(form.elements.lead, names, true);
  if (!form.elements.attr.options.length) options(form.elements.attr, HOWS);
  const box = document.getElementById("team-supporters");
  const ticked = new Set([...box.querySelectorAll("input:checked")].map(i => i.value));
  box.replaceChildren(...names.map(n => {
    const label = el("label"), input = el("input");
    input.type = "checkbox"; input.value = n; input.checked = ticked.has(n);
    label.append(input, " " + n);
    return label;
  }));
}

// The history: the session record's newest entries, for everyone or one player, fetched when the
// view says the record grew or the filter changes; the export links follow the filter.
let historyShown = -1, historyAsked = 0;

async function loadHistory() {
  const select = document.getElementById("history-player");
  const player = select.value;
  const asked = ++historyAsked;
  const query = player ? "?player=" + encodeURIComponent(player) : "";
  for (const fmt of ["md", "csv", "json"]) document.getElementById("export-" + fmt).href = "/record." + fmt + query;
  let h;
  try {
    const r = await fetch("/api/history" + query);
    h = await answerOf(r);
    if (!r.ok) throw new Error(h.error);
  } catch (e) {
    if (asked === historyAsked) document.getElementById("history-count").textContent = "the history did not load: " + e.message;
    return;
  }
  if (asked !== historyAsked) return;  // a newer one is on its way
  options(select, [["", "everyone"]].concat(h.players), true);
  document.getElementById("history-count").textContent = h.entries.length < h.total
    ? `the last ${h.entries.length} of ${h.total} entries (the exports hold them all)` : `${h.total} entries`;
  document.getElementById("history-list").replaceChildren(...h.entries.map(e => {
    const li = el("li", null, e.undone ? "undone" : "");
    li.dataset.id = e.id;
    li.append(el("time", new Date(e.t * 1000).toTimeString().slice(0, 8)), " ", el("b", e.player), " " + e.text);
    if (e.undone) li.append(" ", el("small", "(undone)"));
    return li;
  }));
}

function render(v) {
  const now = Date.now();
  renderTable(v);
  const list = document.getElementById("players");
  const seen = new Set();
  for (const p of v.players) {
    seen.add(p.name);
    let node = cards.get(p.name);
    if (!node) { node = playerCard(p.name); cards.set(p.name, node); }
    list.appendChild(node);  // keeps the table's order
    renderPlayer(node, p, now);
  }
  for (const [name, node] of cards) if (!seen.has(name)) { node.remove(); cards.delete(name); }
  jumpList(v.players);
  warnLowBattery(v.players);
  window.deckahedron.views += 1;
  window.deckahedron.lastVersion = v.version;
  if (v.record !== historyShown) { historyShown = v.record; loadHistory(); }
}

function listen() {
  const status = document.getElementById("link");
  const events = new EventSource("/events");
  events.onopen = () => { status.textContent = "live"; };
  events.onerror = () => {  // EventSource retries by itself, unless the server refused it (a new run's token)
    status.textContent = events.readyState === EventSource.CLOSED
      ? "the table refused this page: open the URL the table printed at its start (each run has a new one)"
      : "reconnecting to the table…";
  };
  events.onmessage = m => { render(JSON.parse(m.data)); status.textContent = "live"; };
}

// The page's first URL holds the run's token; the server has set it as a cookie (HttpOnly), so it
// leaves the address bar and the history (docs/web.md, "Who can reach the page").
if (new URLSearchParams(location.search).has("token")) history.replaceState(null, "", location.pathname);

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("shadow-form").addEventListener("submit", ev => {
    ev.preventDefault();
    act({ action: "shadow_spend", points: ev.target.elements.points.value });
  });
  document.getElementById("team-form").addEventListener("submit", ev => {
    ev.preventDefault();
    const f = ev.target;
    const supporters = [...f.querySelectorAll("#team-supporters input:checked")].map(i => i.value)
      .filter(n => n !== f.elements.lead.value);
    act({ action: "team", lead: f.elements.lead.value, supporters, attr: f.elements.attr.value });
  });
  // A line that loses a game or a seat (newgame, leave_out, take_as_new) is asked first: the server
  // answers with the question and the line ("confirm"), run only by the confirm of exactly that line.
  const box = document.getElementById("line-confirm"), ask = box.querySelector(".ask");
  const yes = box.querySelector("button.yes");
  document.getElementById("line-form").addEventListener("submit", async ev => {
    ev.preventDefault();
    const input = ev.target.elements.line;
    const r = await act({ action: "line", line: input.value });
    box.hidden = !r.confirm;
    if (r.confirm) { ask.textContent = r.lines.join(" "); box.dataset.line = r.confirm; }
    else if (r.ok) input.value = "";
  });
  yes.addEventListener("click", async () => {
    box.hidden = true;  // one confirm per question; the answer shows below, as for any line
    const r = await act({ action: "line", line: box.dataset.line, confirm: true });
    if (r.ok) document.getElementById("line").value = "";
  });
  box.querySelector("button.no").addEventListener("click", () => { box.hidden = true; });
  document.getElementById("history-player").addEventListener("change", loadHistory);
  document.getElementById("ask-all-form").addEventListener("submit", askEveryone);
  speakSwitch();
  listen();
});
