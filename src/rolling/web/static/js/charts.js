// Line charts as inline SVG: one line per series over the turns (no library).
const NS = "http://www.w3.org/2000/svg";
const PALETTE = ["#1d3557", "#e63946", "#2a9d8f", "#f4a261", "#6a4c93", "#8d6e63", "#43aa8b", "#d62828"];

function node(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// series: {name: [values or null]}, x: labels. Returns a <div> with the SVG and a legend.
// colors: {name: css colour} for series with a colour of their own (the palette otherwise).
export function lineChart(x, series, { width = 760, height = 220, money = true, colors = {} } = {}) {
  const names = Object.keys(series);
  const all = names.flatMap((n) => series[n]).filter((v) => v !== null && v !== undefined);
  const wrap = document.createElement("div");
  if (!all.length || x.length < 1) { wrap.textContent = "no data yet"; wrap.className = "muted"; return wrap; }
  const max = Math.max(1, ...all), min = Math.min(0, ...all);
  const L = 40, R = 10, T = 8, B = 22;
  const W = width - L - R, H = height - T - B;
  const px = (i) => L + (x.length === 1 ? W / 2 : (i * W) / (x.length - 1));
  const py = (v) => T + H - ((v - min) * H) / (max - min || 1);
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img" });
  const step = niceStep((max - min) / 4);
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) {
    svg.append(node("line", { x1: L, x2: L + W, y1: py(v), y2: py(v), stroke: "#eee8dc" }));
    svg.append(node("text", { x: L - 4, y: py(v) + 4, "text-anchor": "end" }, money ? `$${v}` : v));
  }
  const every = Math.max(1, Math.ceil(x.length / 12));
  // the first and last labels are anchored inside the chart, not cut at its edges
  const anchor = (i) => (x.length === 1 ? "middle" : i === 0 ? "start" : i === x.length - 1 ? "end" : "middle");
  x.forEach((lab, i) => { if (i % every === 0 || i === x.length - 1) svg.append(node("text", { x: px(i), y: height - 6, "text-anchor": anchor(i) }, lab)); });
  names.forEach((n, k) => {
    const color = colors[n] || PALETTE[k % PALETTE.length];
    let d = "";
    series[n].forEach((v, i) => { if (v === null || v === undefined) return; d += `${d && series[n][i - 1] != null ? "L" : "M"}${px(i).toFixed(1)},${py(v).toFixed(1)}`; });
    svg.append(node("path", { d, fill: "none", stroke: color, "stroke-width": 2, "data-series": n }));
    const lastI = series[n].map((v, i) => (v == null ? -1 : i)).reduce((a, b) => Math.max(a, b), -1);
    if (lastI >= 0) svg.append(node("circle", { cx: px(lastI), cy: py(series[n][lastI]), r: 3, fill: color }));
  });
  const legend = document.createElement("div");
  legend.className = "legend";
  names.forEach((n, k) => {
    const s = document.createElement("span");
    const i = document.createElement("i");
    i.style.background = colors[n] || PALETTE[k % PALETTE.length];
    const last = [...series[n]].reverse().find((v) => v !== null && v !== undefined);
    s.append(i, `${n}${last !== undefined ? ` ${money ? "$" : ""}${last}` : ""}`);
    legend.append(s);
  });
  wrap.append(svg, legend);
  return wrap;
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}
