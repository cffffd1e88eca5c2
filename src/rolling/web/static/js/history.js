// The history page: step through the actions with the table as it was, the charts, the record.
import { api, el, gameIdFromPath, takeUrlTokens, tokensFor } from "./api.js";
import { lineChart } from "./charts.js";
import { evaluationGraph, stepWords, summaryTable } from "./evaluation.js";
import * as freight from "./freight.js";
import { logItems } from "./log.js";
import * as market from "./market.js";
import * as stars from "./stars.js";

const id = gameIdFromPath();
takeUrlTokens(id);
const tokens = tokensFor(id);
const $ = (s) => document.getElementById(s);
let hist = { actions: [], version: 0, played: 0 };
let at = 0;
let pending = null;
let chartData = null;
let evaluation = null; // {analysis, graph, byAction}: the analysed game's evaluation graph

// Scroll the list of actions, and only it, to show `item`: scrollIntoView would scroll the page
// as well and open it past its header (on a phone the list is below the board).
function scrollListTo(list, item) {
  const r = item.getBoundingClientRect();
  const l = list.getBoundingClientRect();
  if (r.top < l.top) list.scrollTop += r.top - l.top;
  else if (r.bottom > l.bottom) list.scrollTop += r.bottom - l.bottom;
}

async function show(n) {
  at = Math.max(0, Math.min(n, hist.played));
  $("slider").value = at;
  $("pos").textContent = `action ${at} of ${hist.played}`;
  for (const li of document.querySelectorAll("#actions li")) li.classList.toggle("cur", Number(li.dataset.n) === at);
  const cur = document.querySelector("#actions li.cur");
  if (cur) scrollListTo($("actions"), cur);
  const want = at;
  pending = want;
  showStep(at);
  try {
    const d = await api(`/api/games/${encodeURIComponent(id)}/history/${want}`, { tokens });
    if (pending !== want) return;
    if (d.game === "market") {
      market.renderBoard($("board"), d, chartData, { withCharts: false });
      $("headline").textContent = market.headline(d);
    } else if (d.game === "stars") {
      stars.renderBoard($("board"), { ...d, decisions: {} });
      $("headline").textContent = stars.headline(d);
    } else if (d.game === "freight") {
      await freight.loadMap(d.view.map);
      if (pending !== want) return;
      freight.renderBoard($("board"), { ...d, decisions: {} });
      $("headline").textContent = freight.headline(d);
    } else {
      $("board").replaceChildren(el("pre", { class: "raw panel" }, JSON.stringify(d.view, null, 1)));
      $("headline").textContent = `action ${want}`;
    }
    $("log").replaceChildren(...logItems(d));
    $("log").scrollTop = $("log").scrollHeight;
    document.body.dataset.at = want;
  } catch (e) {
    $("board").replaceChildren(el("div", { class: "error" }, e.message));
  }
}

async function charts() {
  try {
    const c = await api(`/api/games/${encodeURIComponent(id)}/charts`, { tokens });
    chartData = c;
    // Rolling Freight: each player in the colour of their cubes on the map
    const seatColours = c.phase ? Object.fromEntries(Object.keys(c.net_worth || {}).map((n, k) => [n, freight.SEAT[k]])) : {};
    $("chart-worth").replaceChildren(lineChart(c.x, c.net_worth || {}, { colors: seatColours }));
    // secret money: the others' net worth would tell their cash; it shows once the game is over
    if (c.hidden && c.hidden.length) {
      $("chart-worth").append(el("small", { class: "muted" }, `Secret money: the net worth of ${c.hidden.join(", ")} shows once the game is over.`));
    }
    if (c.value) {
      // Rolling Market: the companies' share values, and the final score against the bots'
      $("chart-price-title").textContent = "Share values";
      $("chart-price").replaceChildren(lineChart(c.x, c.value, { colors: market.COLORS }));
      if (c.final) $("chart-price").append(el("h3", { style: { marginTop: "8px" } }, "Final score against the bots"), market.scoreChart(c.final));
    } else if (c.share_price) $("chart-price").replaceChildren(lineChart(c.x, c.share_price));
    else { $("chart-price").remove(); $("chart-price-title").remove(); }
    if (c.phase) $("worth-title").textContent = "Stock (the score) at the start of each turn";
  } catch (e) {
    $("chart-worth").replaceChildren(el("span", { class: "muted" }, `no charts: ${e.message}`));
  }
}

// The evaluation at action n: the graph's cursor and the step's words (the best alternative).
function showStep(n) {
  if (!evaluation) return;
  evaluation.graph.cursor(n);
  const d = evaluation.byAction.get(n);
  $("eval-step").textContent = d ? stepWords(evaluation.analysis, d) : "";
  $("eval-step").className = `eval-step${d && d.label ? ` ${d.label}` : ""}`;
}

// A finished game's analysis, computed once on the server: asked for, waited for, drawn.
async function analysis(tries = 0) {
  $("eval-panel").hidden = false;
  let r;
  try { r = await api(`/api/games/${encodeURIComponent(id)}/analysis`, { tokens }); }
  catch (e) { $("chart-eval").replaceChildren(el("span", { class: "muted" }, `no analysis: ${e.message}`)); return; }
  if (r.status === "failed") { $("chart-eval").replaceChildren(el("span", { class: "muted" }, `the analysis failed: ${r.error}`)); return; }
  if (r.status !== "done") {
    $("chart-eval").replaceChildren(el("span", { class: "muted" }, `analysing every decision (${r.status})…`));
    setTimeout(() => analysis(tries + 1), Math.min(8000, 1500 + 500 * tries));
    return;
  }
  const a = r.analysis;
  const colors = a.game === "freight" ? Object.fromEntries(a.names.map((_, k) => [k, freight.SEAT[k]])) : {};
  // drawn at the panel's own width, so that its words keep their size on a phone
  const width = Math.max(300, Math.min(1000, $("chart-eval").clientWidth || 760));
  const graph = evaluationGraph(a, { colors, onPick: (n) => show(n), width, height: width < 500 ? 190 : 210 });
  evaluation = { analysis: a, graph, byAction: new Map(a.decisions.map((d) => [d.n + 1, d])) };
  $("chart-eval").replaceChildren(graph.el);
  $("eval-summary").replaceChildren(summaryTable(a));
  showStep(at);
}

async function main() {
  $("table-link").href = `/g/${encodeURIComponent(id)}`;
  $("record").href = `/api/games/${encodeURIComponent(id)}/record`;
  await stars.loadData();
  try { hist = await api(`/api/games/${encodeURIComponent(id)}/history`, { tokens }); }
  catch (e) { $("board").replaceChildren(el("div", { class: "error" }, e.message)); return; }
  $("slider").max = hist.played;
  if (!hist.over) {
    // the record carries the seed (the deck's order, the dice to come): downloadable once the game is over
    $("record").replaceWith(el("span", { class: "muted", id: "record" }, "the record: once the game is over"));
  }
  $("actions").replaceChildren(el("li", { "data-n": 0, onclick: () => show(0) }, "0 · the start"),
    ...hist.actions.map((a) => el("li", { "data-n": a.n, title: a.reason || null, onclick: () => show(a.n) }, `${a.n} · ${a.text}`,
      a.by && a.by !== "human" && a.by !== "bot" && a.by !== "import" ? el("small", { class: "muted" }, ` (${a.by})`) : null)));
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(hist.played);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowLeft") { e.preventDefault(); show(at - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); show(at + 1); }
    if (e.key === "Home") { e.preventDefault(); show(0); }
    if (e.key === "End") { e.preventDefault(); show(hist.played); }
  });
  await charts();
  if (hist.over) analysis();
  const start = Number(new URL(location.href).searchParams.get("at"));
  await show(Number.isInteger(start) && start > 0 ? start : hist.played);
}
main();
