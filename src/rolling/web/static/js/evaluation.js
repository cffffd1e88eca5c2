// The evaluation graph of an analysed game (GET /api/games/{id}/analysis, docs/analysis.md):
// one line per player (the win probability after each decision), the mistakes and blunders
// marked, a cursor at the action shown, and the step's words: what was played, what it cost,
// the best move found. Inline SVG, no library (like charts.js).
const NS = "http://www.w3.org/2000/svg";
const PALETTE = ["#1d3557", "#e63946", "#2a9d8f", "#f4a261", "#6a4c93", "#8d6e63", "#43aa8b", "#d62828"];
const MARKS = { mistake: "#f28e2b", blunder: "#d62728" };

function node(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const pct = (p) => `${Math.round(100 * p)}%`;

// The value the graph shows for a decision and a seat: the win probability after it (Market, one
// player: the expected final cash).
function yOf(a, d, seat) { return a.game === "market" ? d.score_after[0] : d.win_after[seat]; }

// a: the analysis; colors: {seat: css colour}; onPick(n): the history's action n (from 1) clicked.
// Returns {el, cursor(n)}: the graph and a function moving its cursor to action n.
export function evaluationGraph(a, { colors = {}, onPick = () => {}, width = 760, height = 200 } = {}) {
  const ds = a.decisions;
  const market = a.game === "market";
  const wrap = document.createElement("div");
  wrap.className = "evaluation";
  if (!ds.length) { wrap.textContent = "no decisions"; return { el: wrap, cursor() {} }; }
  const L = 36, R = 8, T = 8, B = 20;
  const W = width - L - R, H = height - T - B;
  const n = ds.length;
  let lo = 0, hi = 1;
  if (market) {
    const all = ds.flatMap((d) => [d.score_after[0], d.best_score]);
    lo = Math.min(...all); hi = Math.max(...all, lo + 1);
  }
  const px = (k) => L + (n === 1 ? W / 2 : (k * W) / (n - 1));
  const py = (v) => T + H - ((v - lo) * H) / (hi - lo);
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart eval-chart", role: "img",
    "aria-label": market ? "expected final cash after each decision" : "each player's win probability after each decision" });
  const ticks = market ? [lo, (lo + hi) / 2, hi] : [0, 0.25, 0.5, 0.75, 1];
  for (const v of ticks) {
    svg.append(node("line", { x1: L, x2: L + W, y1: py(v), y2: py(v), stroke: "#eee8dc" }));
    svg.append(node("text", { x: L - 4, y: py(v) + 4, "text-anchor": "end" }, market ? `$${Math.round(v)}` : pct(v)));
  }
  const every = Math.max(1, Math.ceil(n / (width < 500 ? 5 : 10)));
  ds.forEach((d, k) => {
    // the last decision's label, and no other label close enough to run into it
    if ((k % every === 0 && n - 1 - k >= every / 2) || k === n - 1) svg.append(node("text", { x: px(k), y: height - 5, "text-anchor": k === 0 ? "start" : k === n - 1 ? "end" : "middle" }, String(d.n + 1)));
  });
  const seats = market ? [0] : a.names.map((_, s) => s);
  const colour = (s) => colors[s] || PALETTE[s % PALETTE.length];
  if (market) {
    const best = ds.map((d, k) => `${k ? "L" : "M"}${px(k).toFixed(1)},${py(d.best_score).toFixed(1)}`).join("");
    svg.append(node("path", { d: best, fill: "none", stroke: "#999", "stroke-width": 1, "stroke-dasharray": "4 3" }));
  }
  for (const s of seats) {
    const d = ds.map((x, k) => `${k ? "L" : "M"}${px(k).toFixed(1)},${py(yOf(a, x, s)).toFixed(1)}`).join("");
    svg.append(node("path", { d, fill: "none", stroke: colour(s), "stroke-width": 1.8, "data-seat": s }));
  }
  const cursor = node("line", { x1: L, x2: L, y1: T, y2: T + H, stroke: "#555", "stroke-dasharray": "3 3", visibility: "hidden" });
  svg.append(cursor);
  ds.forEach((d, k) => {
    if (!MARKS[d.label]) return;
    const x = px(k), y = py(yOf(a, d, market ? 0 : d.seat));
    const mark = d.label === "blunder"
      ? node("path", { d: `M${x - 4},${y - 4}L${x + 4},${y + 4}M${x - 4},${y + 4}L${x + 4},${y - 4}`, stroke: MARKS.blunder, "stroke-width": 2.5, class: "mark blunder" })
      : node("path", { d: `M${x},${y - 5}L${x + 4.5},${y + 3}L${x - 4.5},${y + 3}Z`, fill: MARKS.mistake, stroke: "#fff", "stroke-width": 0.8, class: "mark mistake" });
    mark.append(node("title", {}, stepWords(a, d)));
    svg.append(mark);
  });
  // a click anywhere picks the nearest decision
  svg.addEventListener("click", (ev) => {
    const box = svg.getBoundingClientRect();
    const x = ((ev.clientX - box.left) * width) / box.width;
    const k = Math.max(0, Math.min(n - 1, Math.round(((x - L) * (n - 1)) / (W || 1))));
    onPick(ds[k].n + 1);
  });
  const legend = document.createElement("div");
  legend.className = "legend";
  for (const s of seats) {
    const span = document.createElement("span");
    const i = document.createElement("i");
    i.style.background = colour(s);
    span.append(i, market ? "after the move played" : a.names[s]);
    legend.append(span);
  }
  if (market) { const span = document.createElement("span"); span.textContent = "- - - the best move found"; legend.append(span); }
  for (const [lab, c] of Object.entries(MARKS)) {
    const count = ds.filter((d) => d.label === lab).length;
    const span = document.createElement("span");
    const i = document.createElement("b");
    i.textContent = lab === "blunder" ? "✕ " : "▲ ";
    i.style.color = c;
    span.append(i, `${lab}s (${count})`);
    legend.append(span);
  }
  wrap.append(svg, legend);
  const byAction = new Map(ds.map((d, k) => [d.n + 1, k]));
  return {
    el: wrap,
    cursor(at) {
      const k = byAction.get(at);
      if (k === undefined) { cursor.setAttribute("visibility", "hidden"); return; }
      cursor.setAttribute("x1", px(k)); cursor.setAttribute("x2", px(k));
      cursor.setAttribute("visibility", "visible");
    },
  };
}

// The words of one decision: who played what, what it cost, the best move found.
export function stepWords(a, d) {
  const who = a.names[d.seat] || `seat ${d.seat + 1}`;
  const tag = d.label ? ` (${d.label})` : "";
  if (a.game === "market") {
    return `${d.n + 1}. ${d.played}: expected final cash $${d.score_after[0].toFixed(1)}${d.score_loss > 0 ? `, $${d.score_loss.toFixed(1)} less than the best move found, ${d.best_text} ($${d.best_score.toFixed(1)})` : ", the best move found"}${tag}`;
  }
  const before = pct(d.win_before[d.seat]), after = pct(d.win_after[d.seat]);
  const best = d.loss > 0 ? `; best found: ${d.best_text} (${pct(d.best_win)})` : "; the best move found";
  return `${d.n + 1}. ${who}: ${d.played}, win ${before} → ${after}${best}${tag}`;
}

// The analysis's summary as a small table: accuracy and labels per player.
export function summaryTable(a) {
  const t = document.createElement("table");
  t.className = "eval-summary";
  const head = document.createElement("tr");
  for (const h of ["player", "accuracy", "inaccuracies", "mistakes", "blunders"]) { const th = document.createElement("th"); th.textContent = h; head.append(th); }
  t.append(head);
  for (const r of a.summary.seats) {
    const tr = document.createElement("tr");
    for (const v of [r.name + (a.summary.winners.includes(r.seat) ? " ★" : ""), r.accuracy == null ? "–" : r.accuracy.toFixed(1), r.inaccuracy, r.mistake, r.blunder]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.append(td);
    }
    t.append(tr);
  }
  return t;
}
