// Rolling Market: the solitaire table drawn from the engine's view (MarketState.view), the charts of
// /api/games/{id}/charts (values, net worth, every roll's dice, the final score against the bots),
// and the trades as controls with the engine's previews and the strongest bot's hint.
import { api, el } from "./api.js";
import { lineChart } from "./charts.js";

const LETTERS = ["A", "B", "C", "D"];
// the colours of rolling.css's .co-A .. .co-D, for the chart lines
export const COLORS = { A: "#c8372d", B: "#e07b1f", C: "#2f9a55", D: "#2f6fc6" };
const TURNS = 12;
const NS = "http://www.w3.org/2000/svg";
const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// A die face with its pips; `cls` colours it (a company's, or the volatility die's).
export function die(n, { size = 30, cls = "", title = "" } = {}) {
  const s = svg("svg", { viewBox: "0 0 30 30", width: size, height: size, class: `die ${cls}`, role: "img", "aria-label": `die ${n}`, "data-face": n });
  if (title) s.append(svg("title", {}, title));
  s.append(svg("rect", { x: 1, y: 1, width: 28, height: 28, rx: 6, class: "face" }));
  for (const [i, j] of PIPS[n] || []) s.append(svg("circle", { cx: 8 + i * 7, cy: 8 + j * 7, r: 2.6, class: "pip" }));
  return s;
}

const money = (v) => `$${v}`;
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

function netWorth(v) {
  return v.over ? v.cash : v.cash + v.values.reduce((a, x, c) => a + x * v.shares[c], 0);
}

// -- the charts, fetched once per version and kept for redraws -------------------------------------------
let chartCache = { key: null, data: null, pending: null };

export async function loadCharts(id, version) {
  const key = `${id}/${version}`;
  if (chartCache.key === key && chartCache.data) return chartCache.data;
  if (chartCache.pending && chartCache.pending.key === key) return chartCache.pending.promise;
  const promise = api(`/api/games/${encodeURIComponent(id)}/charts`).then((c) => { chartCache = { key, data: c, pending: null }; return c; });
  chartCache.pending = { key, promise };
  return promise;
}
export function cachedCharts() { return chartCache.data; }

export function headline(doc) {
  const v = doc.view;
  if (doc.over || v.over) return `Game over · final cash ${money(v.cash)}`;
  const last = v.turns_left === 0 ? " · LAST TURN" : v.final_turn ? " · last two turns" : "";
  return `Buy/sell turn ${v.turn} of ${TURNS} · volatility ${v.volatility}${v.final_turn ? " (fixed)" : ""}${last}`;
}

// The rolls that led to this buy/sell turn: the closed-market ones before it, then its own.
function rollsLeadingHere(v, rolls) {
  if (!rolls || !rolls.length) return [];
  const upto = rolls.filter((r) => r.roll <= v.rolls);
  const out = [];
  for (let i = upto.length - 1; i >= 0; i--) {
    if (out.length && !upto[i].closed) break;
    out.unshift(upto[i]);
  }
  return out;
}

function moveText(before, after, split) {
  if (split) return el("span", { class: "mv split", title: "a split: value halved, shares doubled" }, `${before} → ${after} split`);
  if (after > before) return el("span", { class: "mv up" }, `${before} → ${after} ▲`);
  if (after < before) return el("span", { class: "mv down" }, `${before} → ${after} ▼`);
  return el("span", { class: "mv same" }, `${after} =`);
}

function rollRow(r, { current }) {
  const vd = r.volatility_die
    ? [die(r.volatility_die, { size: current ? 30 : 22, cls: `vol${r.closed ? " closed" : ""}`, title: `volatility die ${r.volatility_die}` })]
    : [el("span", { class: "muted fixed", title: "in the last two turns the volatility die is set to 3, not rolled" }, "vol 3 fixed")];
  return el("div", { class: `roll${current ? " current" : " past"}${r.closed ? " closed" : ""}`, "data-roll": r.roll },
    el("span", { class: "rn" }, `roll ${r.roll}`),
    LETTERS.map((L, c) => el("span", { class: `rd co-${L}`, "data-company": L },
      el("b", {}, L), die(r.dice[c], { size: current ? 30 : 22, cls: `co-${L}`, title: `${L}: die ${r.dice[c]}` }),
      moveText(r.before[c], r.after[c], r.splits.includes(L)))),
    el("span", { class: "rd vd" }, el("b", {}, "vol"), vd),
    r.closed ? el("b", { class: "closed-tag", title: "volatility die 1 or 6: no trading this turn; the tracker does not move" }, "market closed")
      : el("span", { class: "open-tag" }, r.turn ? `open · turn ${r.turn}` : "open"),
    r.overflow ? el("small", { class: "muted" }, ` overflow sale +${money(r.overflow)}`) : null);
}

function dicePanel(doc, charts) {
  const v = doc.view;
  const known = charts && charts.rolls && charts.rolls.some((r) => r.roll === v.rolls);
  let rolls = known ? rollsLeadingHere(v, charts.rolls) : [];
  if (!rolls.length && v.dice && v.dice.length) {
    // the charts have not come yet: the view's own roll
    rolls = [{ roll: v.rolls, dice: v.dice.slice(0, 4), volatility_die: v.dice[4], before: v.before, after: v.rolled,
      splits: v.splits.map((c) => LETTERS[c]), overflow: 0, closed: false, turn: v.turn }];
  }
  const closed = rolls.filter((r) => r.closed).length;
  return el("section", { class: "panel dice-panel" },
    el("h3", {}, "The dice", closed ? el("span", { class: "warn" }, ` · market closed on ${plural(closed, "turn")} before this one (volatility die 1 or 6)`) : null),
    rolls.map((r) => rollRow(r, { current: r.roll === v.rolls })));
}

function companiesPanel(doc) {
  const v = doc.view;
  const cards = LETTERS.map((L, c) => {
    const val = v.values[c];
    const held = v.shares[c];
    const tag = v.bought === c ? "bought this turn" : v.sold.includes(c) ? "sold this turn" : "";
    const track = el("div", { class: "track", title: "share value, $1 to $6" },
      [1, 2, 3, 4, 5, 6].map((k) => el("span", { class: `step${k === val ? " on" : ""}` }, k)));
    return el("div", { class: `company co-${L}`, "data-company": L },
      el("div", { class: "band" }, el("b", {}, L), el("span", { class: "value", title: "share value" }, money(val))),
      track,
      el("div", { class: "held" }, held ? `you hold ${held}` : el("span", { class: "muted" }, "no shares"),
        held ? el("span", { class: "muted" }, ` · at ${money(val)}: ${money(held * val)}`) : null),
      tag ? el("div", { class: "tag" }, tag) : null);
  });
  return el("section", { class: "panel companies" }, cards);
}

function positionPanel(doc) {
  const v = doc.view;
  const facts = [
    ["cash", money(v.cash), v.over ? "final score" : "your score at the end", "the score: the cash after the 12th buy/sell turn"],
    ["net worth", money(netWorth(v)), v.over ? "" : "cash + shares at their values", "shares are worth nothing at the end: sell them by then"],
    ["turn", v.over ? "over" : `${v.turn} of ${TURNS}`, v.over ? "" : plural(v.turns_left, "turn") + " after this", "the turn tracker"],
    ["volatility", v.over ? "–" : String(v.volatility), v.over ? "" : v.final_turn ? "fixed at 3" : "the volatility die", "after every <volatility> shares traded in one action the value moves by 1"],
    ["market", v.over ? "over" : "open", `${plural(v.closed, "closed turn")} so far`, "a volatility die of 1 or 6 closes the market: no trading, the tracker stays"],
  ];
  return el("section", { class: "panel position" },
    facts.map(([k, val, sub, tip]) => el("div", { class: `fact f-${k.replace(" ", "-")}`, title: tip }, el("small", {}, k), el("b", {}, val),
      sub ? el("small", { class: "sub" }, sub) : null)));
}

function banners(doc) {
  const v = doc.view;
  const out = [];
  if (v.over) return out;
  if (v.turns_left === 0) out.push(el("div", { class: "banner last", role: "status" }, "Last turn: the game ends after it and only your cash counts — shares still held are worth nothing."));
  else if (v.final_turn) out.push(el("div", { class: "banner" }, "Last two turns: the volatility is fixed at 3, and you may sell two different companies instead of a buy and a sell."));
  return out;
}

// Histogram of each bot's final scores ($10 bins, % of games) with the player's score drawn on it.
export function scoreChart(final, { width = 600, height = 170 } = {}) {
  const bots = Object.entries(final.bots);
  const top = Math.max(final.score, ...bots.map(([, d]) => d.max));
  const bin = 10;
  const nb = Math.floor(top / bin) + 1;
  const pct = bots.map(([, d]) => {
    const h = new Array(nb).fill(0);
    for (const [s, n] of d.histogram) h[Math.min(nb - 1, Math.floor(s / bin))] += n;
    return h.map((n) => (100 * n) / d.games);
  });
  const ymax = Math.max(1, ...pct.flat());
  const L = 36, R = 10, T = 22, B = 22, W = width - L - R, H = height - T - B;
  const px = (s) => L + (s / (nb * bin)) * W;
  const py = (p) => T + H - (p / ymax) * H;
  const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart score-chart", role: "img" });
  const ystep = [5, 10, 20, 25, 50].find((k) => ymax / k <= 4) || 50;
  for (let p = 0; p <= ymax; p += ystep) {
    s.append(svg("line", { x1: L, x2: L + W, y1: py(p), y2: py(p), stroke: "#eee8dc" }));
    s.append(svg("text", { x: L - 4, y: py(p) + 4, "text-anchor": "end" }, `${p}%`));
  }
  const step = nb > 24 ? 50 : 20;
  for (let x = 0; x <= nb * bin; x += step) {
    const edge = px(x) > L + W - 20;
    s.append(svg("text", { x: edge ? L + W : px(x), y: height - 6, "text-anchor": edge ? "end" : "middle" }, `$${x}`));
  }
  const colors = ["#2f6fc6", "#c8372d", "#2f9a55"];
  pct.forEach((h, k) => {
    h.forEach((p, i) => {
      if (!p) return;
      s.append(svg("rect", { x: px(i * bin) + 1, y: py(p), width: Math.max(1, px(bin) - px(0) - 2), height: py(0) - py(p),
        fill: colors[k % colors.length], "fill-opacity": 0.45, "data-bot": bots[k][0] }));
    });
  });
  const x = px(final.score);
  s.append(svg("line", { x1: x, x2: x, y1: T - 4, y2: T + H, stroke: "#1f2328", "stroke-width": 2.5, class: "you-line" }));
  s.append(svg("text", { x: Math.min(Math.max(x, L + 40), L + W - 40), y: T - 8, "text-anchor": "middle", class: "you-label" }, `you ${money(final.score)}`));
  const legend = el("div", { class: "legend" }, bots.map(([name, d], k) => el("span", {},
    el("i", { style: { background: colors[k % colors.length], height: "8px" } }), `${name} bot: median ${money(d.median)}, 5–95% ${money(d.p5)}–${money(d.p95)}`)));
  return el("div", {}, s, legend);
}

function finalPanel(doc, charts, withChart) {
  const v = doc.view;
  if (!doc.over && !v.over) return null;
  const f = charts && charts.final;
  const lines = f ? Object.entries(f.standing).map(([bot, st]) => el("li", { "data-bot": bot },
    el("b", {}, `${st.percentile}%`), ` of the ${bot} bot's ${f.games.toLocaleString("en")} games score less than yours`,
    st.equal ? el("small", { class: "muted" }, ` (counting half of the ${st.equal} that tie)`) : null)) : [];
  return el("section", { class: "panel final-score" },
    el("h3", {}, "Final score"),
    el("div", { class: "big" }, money(v.cash)),
    f ? [el("ul", { class: "standing" }, lines), withChart ? scoreChart(f) : null,
      el("small", { class: "muted" }, `The bots' scores: ${f.games.toLocaleString("en")} games each, seeds as in rolling simulate market --seed ${f.seed} (${f.command}).`)]
      : el("span", { class: "muted" }, "the bots' scores are loading…"));
}

function chartsPanel(charts) {
  if (!charts) return el("section", { class: "panel charts-panel" }, el("span", { class: "muted" }, "charts loading…"));
  return el("section", { class: "panel charts-panel" },
    el("div", { class: "two" },
      el("div", {}, el("h3", {}, "Share values"), lineChart(charts.x, charts.value || {}, { width: 420, height: 150, colors: COLORS })),
      el("div", {}, el("h3", {}, "Net worth"), lineChart(charts.x, charts.net_worth || {}, { width: 420, height: 150 }))));
}

// The whole table (without decisions) into `root`; `charts` may be null (still loading).
// `withCharts`: the values and net worth charts too (the history page draws its own).
export function renderBoard(root, doc, charts, { withCharts = true } = {}) {
  root.replaceChildren(...banners(doc), finalPanel(doc, charts, withCharts) || "", positionPanel(doc), companiesPanel(doc), dicePanel(doc, charts),
    withCharts ? chartsPanel(charts) : "");
}

// -- decisions: buy / sell rows with a count, the preview of that count, done, and the hint ----------------
let chosen = { version: null, counts: {}, hint: null, armed: false };

function previewLine(p) {
  if (!p) return "";
  const verb = p.buy ? `pay ${money(p.amount)}` : `receive ${money(p.amount)}`;
  const val = p.value_after === p.value_before ? `value stays ${money(p.value_before)}` : `value ${money(p.value_before)} → ${money(p.value_after)}`;
  return `${verb} · ${val} · cash ${money(p.cash_before)} → ${money(p.cash_after)} · ${p.company} shares ${p.held_before} → ${p.held_after}`;
}

function tradeRow(kind, c, ds, send, seat, doc) {
  const L = LETTERS[c];
  const byN = new Map(ds.map((d) => [d.args.shares, d]));
  const max = Math.max(...byN.keys());
  const key = `${kind}-${c}`;
  let n = chosen.counts[key] ?? (kind === "sell" ? max : max);
  n = Math.min(max, Math.max(1, n));
  const btn = el("button", { class: `act t-${kind}`, "data-type": kind, "data-company": c });
  const pv = el("div", { class: "pv", "data-type": kind, "data-company": c });
  const input = el("input", { type: "number", min: 1, max, step: 1, value: n, class: "count", "data-type": kind, "data-company": c, "aria-label": `${kind} how many ${L}` });
  const draw = () => {
    const d = byN.get(n);
    btn.textContent = d.label;
    btn.dataset.shares = n;
    pv.textContent = previewLine(d.preview);
  };
  input.addEventListener("input", () => {
    const k = Number(input.value);
    if (!Number.isInteger(k) || !byN.has(k)) { input.setCustomValidity(`1 to ${max}`); input.reportValidity(); return; }
    input.setCustomValidity("");
    n = k;
    chosen.counts[key] = k;
    draw();
  });
  btn.addEventListener("click", () => send(seat, byN.get(n).action));
  draw();
  const hinted = chosen.hint && chosen.hint.action.type === kind && chosen.hint.action.company === c;
  return el("div", { class: `dec trade co-${L}${hinted ? " hinted" : ""}`, "data-type": kind, "data-company": c },
    el("span", { class: "who" }, el("b", {}, L), ` ${money(doc.view.values[c])}`),
    el("span", { class: "ctl" }, input, el("small", { class: "muted" }, ` of ${max}`)), btn, pv);
}

async function askHint(id, tokens, seat, version, box) {
  box.replaceChildren(el("span", { class: "muted" }, "asking the bot…"));
  try {
    const h = await api(`/api/games/${encodeURIComponent(id)}/hint?seat=${seat}`, { tokens });
    if (chosen.version !== version) return;
    chosen.hint = h;
    // the hinted trade is set up in its row, its preview shown there
    if (h.action.type !== "done") chosen.counts[`${h.action.type}-${h.action.company}`] = h.action.shares;
    box.dispatchEvent(new CustomEvent("hint", { bubbles: true }));
  } catch (e) {
    box.replaceChildren(el("span", { class: "error" }, e.message));
  }
}

function hintBox(doc, seat, ctx) {
  const box = el("div", { id: "hint-box", class: "hint-box" });
  const h = chosen.hint;
  if (h) {
    const a = h.action;
    const use = el("button", { id: "hint-use", class: "small", title: "make this move", onclick: () => ctx.send(seat, a) }, "do it");
    box.append(el("div", { class: "hint", "data-action": JSON.stringify(a) }, el("b", {}, `The ${h.bot} bot would ${h.label}`), use ? [" ", use] : null),
      h.reason ? el("div", { class: "reason muted" }, h.reason) : null);
  }
  const btn = el("button", { id: "hint", class: "small", title: "what the strongest bot would do here, and why",
    onclick: () => askHint(ctx.id, ctx.tokens, seat, doc.version, box) }, h ? "hint again" : "hint: what would the bot do?");
  return el("div", { class: "hint-wrap" }, btn, box);
}

// Returns whether any control was drawn. `ctx`: {id, tokens, redraw, send} of the table page.
export function renderDecisions(root, doc, send, ctx) {
  if (chosen.version !== doc.version) chosen = { version: doc.version, counts: {}, hint: null, armed: false };
  const seats = Object.keys(doc.decisions || {}).map(Number);
  const blocks = [];
  for (const seat of seats) {
    const list = doc.decisions[String(seat)] || [];
    if (!list.length) continue;
    const buys = {}, sells = {};
    let done = null;
    for (const d of list) {
      if (d.type === "buy") (buys[d.args.company] ||= []).push(d);
      else if (d.type === "sell") (sells[d.args.company] ||= []).push(d);
      else if (d.type === "done") done = d;
    }
    const v = doc.view;
    const canSell = Object.keys(sells).length > 0;
    const canBuy = Object.keys(buys).length > 0;
    const groups = [];
    const fresh = v.bought < 0 && v.sold.length === 0;
    const left = [canBuy ? "buy one company" : null, canSell ? "sell one company" : null].filter(Boolean);
    const note = fresh && v.final_turn ? "Buy one company and sell another, or sell two different companies; then done."
      : fresh ? "Buy one company and sell another (either order, both optional); then done."
        : left.length ? `You may still ${left.join(" or ")}; then done.` : "No trade is left this turn: done.";
    groups.push(el("div", { class: "muted note" }, note));
    if (canSell) groups.push(el("div", { class: "group g-sell" }, el("h4", {}, v.final_turn && v.bought < 0 && v.sold.length === 0 ? "Sell (up to two companies)" : "Sell"),
      Object.entries(sells).map(([c, ds]) => tradeRow("sell", Number(c), ds, send, seat, doc))));
    if (canBuy) groups.push(el("div", { class: "group g-buy" }, el("h4", {}, "Buy"),
      Object.entries(buys).map(([c, ds]) => tradeRow("buy", Number(c), ds, send, seat, doc))));
    if (done) {
      const lost = Object.entries(done.preview.lost || {}).map(([L, n]) => `${n} ${L}`).join(", ");
      const btn = el("button", { class: `act t-done${done.preview.ends_game ? " ends" : ""}`, "data-type": "done" },
        chosen.armed ? `end the game and lose ${lost}?` : done.label);
      btn.addEventListener("click", () => {
        if (lost && !chosen.armed) { chosen.armed = true; ctx.redraw(); return; }
        send(seat, done.action);
      });
      groups.push(el("div", { class: "group g-done" }, el("h4", {}, "Done"), el("div", { class: "dec" }, btn),
        lost ? el("div", { class: "pv warn" }, `You still hold ${lost}: at the end shares are worth nothing, only your cash counts.`) : null));
    }
    groups.push(hintWrap(doc, seat, ctx));
    blocks.push(el("div", { class: "seat-dec market-dec", "data-seat": seat }, groups));
  }
  root.replaceChildren(...blocks);
  return blocks.length > 0;
}

function hintWrap(doc, seat, ctx) {
  const w = hintBox(doc, seat, ctx);
  w.addEventListener("hint", () => ctx.redraw());
  return w;
}
