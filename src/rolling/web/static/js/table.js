// The table page: the game document from the API and the WebSocket, drawn by the game's module,
// with the decision controls, undo, programmed actions, log and chat.
import { api, el, gameIdFromPath, liveGame, rememberMeta, takeUrlTokens, tokensFor } from "./api.js";
import { expectOwnMove, renderDecisions } from "./decisions.js";
import { renderLifecycle } from "./lifecycle.js";
import { logItems } from "./log.js";
import * as freight from "./freight.js";
import * as market from "./market.js";
import * as stars from "./stars.js";

const id = gameIdFromPath();
takeUrlTokens(id);
const tokens = tokensFor(id);
const $ = (s) => document.getElementById(s);
let doc = null;
let wasMyTurn = false;
const openPrograms = new Set();
// the log follows new lines unless its reader scrolled up
let logStick = true;
$("log").addEventListener("scroll", () => { const o = $("log"); logStick = o.scrollTop + o.clientHeight >= o.scrollHeight - 30; });
new ResizeObserver(() => { if (logStick) $("log").scrollTop = $("log").scrollHeight; }).observe($("log"));

const PROGRAMS = [
  { kind: "pass_investment", label: "pass in phase 1 until something changes" },
  { kind: "auction_limit", label: "bid in the auction up to", limit: true },
  { kind: "pass_closing_unless_loss", label: "done in phase 4 unless a company of mine would lose money" },
];

function showError(msg) {
  const e = $("error");
  e.textContent = msg || "";
  e.hidden = !msg;
}

function names() { return Object.fromEntries(doc.seats.map((s) => [s.seat, s.name])); }

function myTurn(d) { return (d.you || []).some((s) => (d.to_act || []).includes(s)); }

async function refresh() {
  try { render(await api(`/api/games/${encodeURIComponent(id)}`, { tokens })); }
  catch (e) { showError(e.message); }
}

async function send(seat, action) {
  showError("");
  try {
    // the seat's decision basis as this page shows it: should the game move on before the action
    // arrives, the server still takes it if nothing this decision depends on changed (issue 29)
    const basis = (doc.basis || {})[String(seat)];
    const body = basis ? { version: doc.version, seat, action, basis } : { version: doc.version, seat, action };
    // the page may hear of its own move on the WebSocket first
    expectOwnMove(true);
    render(await api(`/api/games/${encodeURIComponent(id)}/actions`, { method: "POST", tokens, body }));
  } catch (e) {
    expectOwnMove(false);
    if (e.status === 409) { showError(e.message || "the game changed, look again"); await refresh(); showError(e.message || "the game changed, look again"); }
    else showError(e.body && e.body.rule ? `${e.message} (${e.body.rule})` : e.message);
  }
}

async function undo(seat) {
  showError("");
  try { expectOwnMove(true); render(await api(`/api/games/${encodeURIComponent(id)}/undo`, { method: "POST", tokens, body: { version: doc.version, seat } })); }
  catch (e) {
    expectOwnMove(false); showError(e.message); if (e.status === 409) refresh(); }
}

async function setProgram(seat, kind, limit) {
  showError("");
  try {
    await api(`/api/games/${encodeURIComponent(id)}/programs`, { method: "POST", tokens, body: limit === undefined ? { seat, kind } : { seat, kind, limit } });
    await refresh();
  } catch (e) { showError(e.message); }
}

async function dropProgram(seat, kind) {
  showError("");
  try { await api(`/api/games/${encodeURIComponent(id)}/programs/${seat}/${kind}`, { method: "DELETE", tokens }); await refresh(); }
  catch (e) { showError(e.message); }
}

function renderTools(d) {
  const n = names();
  const tools = [];
  for (const [seat, ok] of Object.entries(d.undo || {})) {
    if (ok) tools.push(el("button", { class: "undo", "data-seat": seat, onclick: () => undo(Number(seat)) }, (d.you || []).length > 1 ? `undo (${n[seat]})` : "undo my last decision"));
  }
  // why there is no undo (a card was drawn, the dice were rolled, the game is over...)
  if (d.undo_refused && !d.over) tools.push(el("small", { class: "muted undo-refused" }, `No undo: ${d.undo_refused}`));
  $("tools").replaceChildren(...tools);
  const progs = [];
  if (!d.over && (d.you || []).length && d.game === "stars") {
    const active = d.programs || [];
    for (const seat of d.you) {
      const items = PROGRAMS.filter((p) => p.kind !== "auction_limit" || (d.view.auction && d.view.auction.in.includes(seat))
        || active.some((x) => x.seat === seat && x.kind === p.kind)).map((p) => {
        const on = active.find((x) => x.seat === seat && x.kind === p.kind);
        const lim = el("input", { type: "number", min: 0, value: on && on.limit !== undefined ? on.limit : "", class: "amount-in", "aria-label": "limit" });
        const box = el("input", { type: "checkbox", checked: !!on, "data-kind": p.kind,
          onchange: (e) => (e.target.checked ? setProgram(seat, p.kind, p.limit ? Number(lim.value || 0) : undefined) : dropProgram(seat, p.kind)) });
        return el("label", { class: "prog" }, box, ` ${p.label}`, p.limit ? [" $", lim] : null,
          on && on.company ? el("small", { class: "muted" }, ` (auction of ${on.company})`) : null, on ? el("small", { class: "on" }, " · on") : null);
      });
      progs.push(el("details", { class: "progs", open: openPrograms.has(seat), ontoggle: (e) => (e.target.open ? openPrograms.add(seat) : openPrograms.delete(seat)) }, el("summary", {}, `Programmed actions${d.you.length > 1 ? ` (${n[seat]})` : ""}${active.some((x) => x.seat === seat) ? " · on" : ""}`), items));
    }
  }
  $("programs").replaceChildren(...progs);
}

function renderLog(d) {
  const ol = $("log");
  ol.replaceChildren(...logItems(d));
  if (logStick) ol.scrollTop = ol.scrollHeight;
  const chat = $("chat");
  chat.replaceChildren(...(d.chat || []).map((m) => el("li", {}, el("b", {}, `${m.name}: `), m.text)));
  chat.scrollTop = chat.scrollHeight;
  $("chat-form").hidden = !(d.you || []).length;
}

let receivedAt = Date.now();
function renderClock(d) {
  const c = $("clock");
  const t = d.time_limit;
  if (!t || (t.seconds_left === undefined && !t.deadline)) { c.textContent = ""; return; }
  // seconds_left as the server counted it when it sent the document: no trust in this clock's time
  const left = Math.max(0, Math.round(t.seconds_left !== undefined && t.seconds_left !== null
    ? t.seconds_left - (Date.now() - receivedAt) / 1000 : (new Date(t.deadline) - Date.now()) / 1000));
  c.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}
setInterval(() => doc && renderClock(doc), 1000);

function notify(d) {
  const mine = myTurn(d);
  document.title = `${mine ? "● Your turn · " : d.over ? "Game over · " : ""}${d.title || "Rolling Stock"}`;
  if (mine && !wasMyTurn && localStorage.getItem("rolling.notify") === "on" && "Notification" in window
      && Notification.permission === "granted" && document.hidden) {
    try { new Notification(d.title || "Rolling Stock", { body: "It is your turn.", tag: `rolling-${id}` }); } catch { /* not allowed here */ }
  }
  wasMyTurn = mine;
}

function render(d) {
  if (!d || !d.view) return;
  // a document older than the one shown (a slower answer, a process behind) is ignored (issue 30)
  if (doc && d.id === doc.id && typeof d.version === "number" && d.version < doc.version) return;
  if (d.game === "freight" && !freight.hasMap(d)) {
    // the board's map first (once per page); the latest document is drawn when it is here
    doc = d;
    freight.loadMap(d.view.map).then(() => render(doc), (e) => showError(`the map did not load: ${e.message}`));
    return;
  }
  doc = d;
  receivedAt = Date.now();
  window.rollingDoc = d; // for tests and the curious
  $("title").textContent = d.title || d.game;
  $("headline").textContent = d.game === "stars" ? stars.headline(d) : d.game === "freight" ? freight.headline(d) : d.game === "market" ? market.headline(d) : `${d.over ? "Game over" : `action ${d.played}`}`;
  $("history-link").href = `/g/${encodeURIComponent(id)}/history`;
  const n = names();
  const you = d.you || [];
  $("you").replaceChildren(you.length
    ? el("span", {}, "You: ", you.map((s) => n[s]).join(", "), myTurn(d) ? el("b", { class: "yourturn" }, " — your turn") : (d.over ? "" : el("span", { class: "muted" }, " — waiting")),
      you.length > 1 && d.view_seat !== undefined && d.view_seat !== null ? el("small", { class: "muted" }, ` (the table as ${n[d.view_seat]} sees it)`) : null)
    : el("span", { class: "muted" }, d.watch_only ? "Watching (an imported game: watch only)" : "Watching (spectator)"),
    d.stopped ? el("div", { class: "error" }, d.stopped) : "");
  if (d.game === "stars") stars.renderBoard($("board"), d);
  else if (d.game === "freight") freight.renderBoard($("board"), d, send);
  else if (d.game === "market") drawMarket(d);
  else $("board").replaceChildren(el("section", { class: "panel" }, el("h3", {}, "The table (this game's own page is still to come)"),
    el("pre", { class: "raw" }, JSON.stringify(d.view, null, 1))));
  const any = d.game === "market" ? market.renderDecisions($("decisions"), d, send, marketCtx)
    : (d.game === "freight" ? freight.renderDecisions : renderDecisions)($("decisions"), d, send);
  $("decisions").classList.toggle("none", !any);
  renderTools(d);
  renderLifecycle($("lifecycle"), d, { id, tokens, render, showError });
  renderLog(d);
  renderClock(d);
  notify(d);
  document.body.dataset.version = d.version;
  document.body.dataset.played = d.played;
  document.body.dataset.over = d.over ? "yes" : "no";
  rememberMeta(id, { title: d.title, you, names: n, over: d.over });
}

// Rolling Market: the board at once, again when this version's charts (the dice of every roll) come
const marketCtx = { id, tokens, send, redraw: () => doc && market.renderDecisions($("decisions"), doc, send, marketCtx) };
function drawMarket(d) {
  market.renderBoard($("board"), d, market.cachedCharts());
  market.loadCharts(id, d.version).then((c) => { if (doc === d) market.renderBoard($("board"), d, c); }).catch((e) => showError(e.message));
}

$("chat-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text || !doc || !(doc.you || []).length) return;
  try {
    await api(`/api/games/${encodeURIComponent(id)}/chat`, { method: "POST", tokens, body: { seat: doc.you[0], text } });
    $("chat-text").value = "";
  } catch (err) { showError(err.message); }
});

function notifyButton() {
  const b = $("notify");
  const on = localStorage.getItem("rolling.notify") === "on";
  b.textContent = on ? "notify: on" : "notify: off";
  b.onclick = async () => {
    if (!on && "Notification" in window && Notification.permission !== "granted") {
      try { await Notification.requestPermission(); } catch { /* refused */ }
    }
    localStorage.setItem("rolling.notify", on ? "off" : "on");
    notifyButton();
  };
}

async function main() {
  notifyButton();
  await stars.loadData();
  await refresh();
  liveGame(id, tokens, render, (s) => { $("conn").className = `conn ${s}`; $("conn").title = s === "live" ? "live" : "reconnecting…"; });
}
main();
