// Rolling Freight: the board as an SVG drawn from the map data (/data/freight/{map}.json) and the
// engine's view, the tracks and the players; at the table, the moves as controls tied to the map
// (pick a link to build, click cities for a route, choose the dice to pay with). Every number a
// move shows is the engine's preview from the decision; nothing is computed here.
import { el } from "./api.js";

const NS = "http://www.w3.org/2000/svg";
// el() with its children flattened to any depth (the pieces below nest arrays freely)
const h = (tag, attrs, ...kids) => el(tag, attrs, ...kids.flat(Infinity));
export const COLOUR = { blue: "#2b6cc4", gray: "#8a8a8a", red: "#d62728", yellow: "#e8b500", ocean: "#19a7b8", black: "#222", white: "#fff" };
export const SEAT = ["#8e44ad", "#ff7f0e", "#2ca02c", "#8c564b", "#e377c2"];
const MAPS = {};
const GROUPS = [["draft", "Opening draft"], ["contract", "A · Take a contract"], ["build", "B · Build"], ["route", "C · Major route"],
  ["station", "D · Switching station"], ["improvement", "E · Improvement"], ["end", "End the turn (F stockpile, G refill, H roll)"]];
const PAYS = new Set(["take_contract", "build", "route", "station", "improvement"]);

export async function loadMap(name) {
  if (!MAPS[name]) MAPS[name] = await (await fetch(`/data/freight/${encodeURIComponent(name)}.json`)).json();
  return MAPS[name];
}
// whether the document's map is loaded (renderBoard draws only then)
export function hasMap(doc) { return !!MAPS[doc.view.map]; }

// what the person at the table is pointing at, kept across redraws of the same game
const ui = { link: null, cities: [], hover: null, pay: null, version: null, cam: null, camMap: null };
let cur = null; // {root, doc, send, data, svg}

function s(tag, attrs = {}, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

const cityName = (data, i) => data.cities[i].name;
const linkById = (data, id) => data.links.find((l) => l.id === id);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// -- small pieces --------------------------------------------------------------------------------

// A die face: a colour square, a split square (two triangles) or a symbol on a black die.
export function die(face, { spent = false, n = null, cls = "", onclick = null, title = null } = {}) {
  const cols = face.split("/").filter((c) => COLOUR[c]);
  const sym = { wild: "★", cubes: "▣", bonus: "$2", any: "◇", any2: "◇◇", route: "↝" }[face];
  const bg = cols.length === 2 ? `linear-gradient(135deg, ${COLOUR[cols[0]]} 50%, ${COLOUR[cols[1]]} 50%)` : cols.length ? COLOUR[cols[0]] : "#333";
  return h(onclick ? "button" : "span", { class: `fdie${spent ? " spent" : ""} ${cls}`, style: { background: bg }, title: title || `${n !== null ? `die ${n + 1}: ` : ""}${face}${spent ? " (spent)" : ""}`,
    "data-die": n, onclick, type: onclick ? "button" : null }, sym || "");
}

function marker(colour, n = null, { onclick = null, cls = "" } = {}) {
  return h(onclick ? "button" : "span", { class: `fmark ${cls}`, style: { background: COLOUR[colour] }, title: `${colour} stockpile marker${n !== null ? `s: ${n}` : ""}`,
    "data-marker": colour, onclick, type: onclick ? "button" : null }, n !== null ? String(n) : "");
}

function cargo(colour) { return h("span", { class: "fcargo", style: { background: COLOUR[colour] }, title: `${colour} cargo` }); }

// Every way to pay a contract, route, station or improvement is its own decision (issue 28
// item 5): pay_rank 0 is the engine's best, the others follow in the order of what is kept.
function sameMove(a, b) {
  const strip = (d) => JSON.stringify(Object.entries(d.args).filter(([k]) => k !== "pay").sort());
  return a.type === b.type && strip(a) === strip(b);
}

function keepsText(p) {
  if (!p || !p.keeps) return "";
  const words = p.keeps.map((t) => (t.marker ? `${t.n} ${t.marker} marker${t.n > 1 ? "s" : ""}` : `${t.face}`));
  return `keeps ${words.join(", ") || "nothing"}`;
}

function payChips(pay) {
  if (!pay) return h("span", { class: "warn" }, "cannot pay");
  if (!pay.length) return h("span", { class: "muted" }, "free");
  return h("span", { class: "paychips" }, pay.map((t) => (t.marker ? marker(t.marker) : die(t.face, { n: t.die }))));
}

function linkText(data, l) { return `${l.label} L${l.id} ${cityName(data, l.a)}–${cityName(data, l.b)}`; }

export function headline(doc) {
  const v = doc.view;
  if (doc.over || v.stage === "over") return "Game over";
  const names = Object.fromEntries(doc.seats.map((x) => [x.seat, x.name]));
  const who = (v.to_act || []).map((k) => names[k]).join(", ");
  return `Phase ${v.phase} · ${v.stage === "draft" ? "opening draft" : `turn ${v.turn}`} · to act: ${who}`;
}

// -- the map -------------------------------------------------------------------------------------

function fit(data, W, H) {
  const [x0, y0, x1, y1] = data.bounds;
  // room for the names beside the outermost cities, and for the zoom buttons
  const k = Math.min((W - Math.min(150, W * 0.16)) / (x1 - x0), (H - Math.min(60, H * 0.1)) / (y1 - y0));
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, k, fitK: k };
}

function camera(data, W, H) {
  const f = fit(data, W, H);
  if (!ui.cam || ui.camMap !== data.map) { ui.cam = { cx: f.cx, cy: f.cy, z: 1 }; ui.camMap = data.map; }
  return { ...ui.cam, k: f.fitK * ui.cam.z, fitK: f.fitK };
}

// The decisions of the seat at the table that may act, by type.
function myDecisions(doc) {
  const seat = Object.keys(doc.decisions || {}).map(Number).sort((a, b) => a - b)[0];
  return seat === undefined ? { seat: null, list: [] } : { seat, list: doc.decisions[String(seat)] || [] };
}

function routesMatching(list, cities) {
  return list.filter((d) => d.type === "route" && d.preview && cities.every((c, i) => d.preview.cities[i] === c));
}

function drawMap() {
  if (!cur || !cur.svg) return;
  const { svg, data, doc } = cur;
  const box = svg.getBoundingClientRect();
  const W = Math.max(200, box.width), H = Math.max(200, box.height);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const c = camera(data, W, H);
  const X = (x) => W / 2 + (x - c.cx) * c.k, Y = (y) => H / 2 + (y - c.cy) * c.k;
  const v = doc.view;
  const { seat, list } = myDecisions(doc);
  const mine = seat === null ? null : seat;
  const pos = data.cities.map((ct) => [X(ct.x), Y(ct.y)]);
  const layers = { bands: s("g"), links: s("g"), marks: s("g"), cities: s("g"), labels: s("g"), hits: s("g") };
  // the route in hand: the cities clicked, and the links of the routes that still match
  const matching = ui.cities.length ? routesMatching(list, ui.cities) : [];
  const hot = new Set();
  const hoverRoute = ui.hover && ui.hover.type === "route" ? ui.hover.preview : null;
  for (const d of hoverRoute ? [{ preview: hoverRoute }] : matching) for (const id of d.preview.links) hot.add(id);
  const nextCities = new Set(matching.map((d) => d.preview.cities[ui.cities.length]).filter(Boolean));
  const startCities = new Set(ui.cities.length ? [] : list.filter((d) => d.type === "route").map((d) => d.preview.cities[0]));
  // the squares a build would fill: the one pointed at, else the most a build on the picked link can
  const builds = list.filter((d) => (d.type === "build" || d.type === "steady_build") && d.args.link === ui.link);
  const buildPv = ui.hover && (ui.hover.type === "build" || ui.hover.type === "steady_build") ? ui.hover.preview
    : builds.length ? builds.reduce((a, b) => (b.preview.filled > a.preview.filled ? b : a)).preview : null;
  const contractLinks = new Set((v.contract_track || []).filter(Boolean).map((label) => data.links.find((l) => l.label === label)).filter(Boolean).map((l) => l.id));
  const buildable = new Set(list.filter((d) => d.type === "build" || d.type === "steady_build").map((d) => d.args.link));
  for (const l of data.links) {
    const st = v.links[l.index];
    let [x0, y0] = pos[l.a], [x1, y1] = pos[l.b];
    const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len, ny = dx / len, off = l.lane * 10;
    x0 += nx * off; y0 += ny * off; x1 += nx * off; y1 += ny * off;
    const col = COLOUR[l.colour];
    const isHot = hot.has(l.id), isSel = ui.link === l.id;
    if (st.owner >= 0) layers.bands.append(s("line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke: SEAT[st.owner], "stroke-width": 9, "stroke-opacity": 0.5 }));
    if (isHot || isSel) layers.bands.append(s("line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke: isSel ? "#111" : "#ffb000", "stroke-width": 14, "stroke-opacity": 0.45, "stroke-linecap": "round", class: isHot ? "hot" : "sel" }));
    layers.links.append(s("line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke: col, "stroke-width": 2, "stroke-dasharray": l.colour === "ocean" ? "5 3" : null }));
    const n = l.length, span = Math.max(0, len - 22);
    const sz = Math.max(3, Math.min(9, (span / n) * 0.8));
    const filled = st.cubes, ghost = buildPv && buildPv.link === l.id ? buildPv.filled : 0;
    for (let k = 0; k < n; k++) {
      const t = (11 + span * (k + 0.5) / n) / len;
      const px = x0 + dx * t, py = y0 + dy * t;
      const cube = st.holder >= 0 && k < filled;
      const fill = cube ? SEAT[st.holder] : k < ghost ? "#fff" : st.owner >= 0 ? col : "#fff";
      layers.links.append(s("rect", { x: px - sz / 2, y: py - sz / 2, width: sz, height: sz, fill, stroke: k < ghost && !cube ? SEAT[mine] : col,
        "stroke-width": k < ghost && !cube ? 2.2 : 1.2, "stroke-dasharray": k < ghost && !cube ? "2 1" : null, class: k < ghost && !cube ? "ghost" : null }));
    }
    const mx = (x0 + x1) / 2 + nx * 9, my = (y0 + y1) / 2 + ny * 9;
    if (len > 70 || c.z > 2.5) layers.marks.append(s("text", { x: mx, y: my + 3, class: "lid", "text-anchor": "middle" }, `${l.id}`));
    if (contractLinks.has(l.id)) {
      const qx = (x0 + x1) / 2, qy = (y0 + y1) / 2;
      layers.marks.append(s("g", { class: "xing", transform: `translate(${qx},${qy})` }, s("title", {}, `RR X-ing: ${l.label} is on the contract track`),
        s("circle", { r: 6.5, fill: "#111", stroke: "#fff", "stroke-width": 1.2 }), s("path", { d: "M-3,-3L3,3M3,-3L-3,3", stroke: "#fff", "stroke-width": 1.8 })));
    }
    const who = st.owner >= 0 ? `owned by ${cur.names[st.owner]}` : st.holder >= 0 ? `${cur.names[st.holder]} builds: ${st.cubes}/${l.length}` : "not built";
    layers.hits.append(s("line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke: "transparent", "stroke-width": 12, class: `hit-link${buildable.has(l.id) ? " can" : ""}`, "data-link": l.id,
      onclick: () => { if (!cur.dragged) selectLink(l.id); } }, s("title", {}, `${linkText(data, l)} · ${l.colour}, ${l.length} squares · ${who}`)));
  }
  // cities: the dot, demand rings below-right, cargo diamonds to the left, the name where it fits
  const obstacles = [];
  data.cities.forEach((ct, i) => {
    const [x, y] = pos[i];
    const rings = v.cities[i].demand, goods = v.cities[i].cargo;
    const g = s("g", { class: "city", "data-city": ct.name });
    const inRoute = ui.cities.includes(ct.name), next = nextCities.has(ct.name), start = startCities.has(ct.name);
    if (inRoute || next || start) g.append(s("circle", { cx: x, cy: y, r: 10, class: inRoute ? "halo in" : next ? "halo next" : "halo start" }));
    g.append(s("circle", { cx: x, cy: y, r: 4.5, fill: "#111", stroke: "#fff", "stroke-width": 1.5 }));
    let rx = x + 7;
    rings.forEach((r, k) => {
      const phaseLetter = !r.open ? (k >= ct.demand.length ? (k === ct.demand.length && ct.grow_b ? "B" : "C") : "") : "";
      if (!r.open) g.append(s("text", { x: rx + 3, y: y + 13, class: "ring-later", fill: COLOUR[r.colour], "text-anchor": "middle" }, s("title", {}, `${r.colour} demand opens in phase ${phaseLetter}`), phaseLetter));
      else if (r.saturated) g.append(s("circle", { cx: rx + 3, cy: y + 10, r: 3.6, fill: "#111", stroke: COLOUR[r.colour], "stroke-width": 2 }, s("title", {}, `${r.colour} demand, saturated`)));
      else g.append(s("circle", { cx: rx + 3, cy: y + 10, r: 3.6, fill: "#fff", stroke: COLOUR[r.colour], "stroke-width": 2.6, class: "ring-open" }, s("title", {}, `wants ${r.colour}`)));
      rx += 9;
    });
    let cx = x - 8;
    for (const col of goods) {
      g.append(s("rect", { x: cx - 3.5, y: y - 3.5, width: 7, height: 7, transform: `rotate(45 ${cx} ${y})`, fill: COLOUR[col], stroke: "#111", "stroke-width": 0.8, class: "cargo" }, s("title", {}, `${col} cargo at ${ct.name}`)));
      cx -= 8;
    }
    obstacles.push({ x0: cx + 3, y0: y - 6, x1: Math.max(rx, x + 6), y1: y + 15 });
    layers.cities.append(g);
    layers.hits.append(s("circle", { cx: x, cy: y, r: 9, fill: "transparent", class: "hit-city", "data-city": ct.name,
      onclick: () => { if (!cur.dragged) clickCity(ct.name); } }, s("title", {}, `${ct.name}, ${ct.state}${goods.length ? ` · cargo ${goods.join(", ")}` : ""}${rings.filter((r) => r.open && !r.saturated).length ? ` · wants ${rings.filter((r) => r.open && !r.saturated).map((r) => r.colour).join(", ")}` : ""}`)));
  });
  // names: the most connected cities first; each takes the first free place around its dot
  const degree = data.cities.map((_, i) => data.links.filter((l) => l.a === i || l.b === i).length);
  const order = data.cities.map((_, i) => i).sort((a, b) => degree[b] - degree[a] || a - b);
  const placed = [];
  for (const i of order) {
    const [x, y] = pos[i];
    const name = data.cities[i].name, w = name.length * 6.3 + 4, h = 13;
    const own = obstacles[i];
    const tries = [[own.x1 + 2, y - 13, "start"], [own.x0 - 2 - w, y - 13, "start"], [x - w / 2, y - 20, "start"], [x - w / 2, y + 15, "start"],
      [x + 6, y - 22, "start"], [x - w - 6, y + 6, "start"], [x + 6, y + 16, "start"], [x - w - 6, y - 22, "start"]];
    // a name may cover a neighbour's rings (it has a halo) but never its dot or another name
    const others = pos.filter((_, j) => j !== i).map(([ox, oy]) => ({ x0: ox - 6, y0: oy - 6, x1: ox + 6, y1: oy + 6 }));
    const hit = (r, boxes) => boxes.some((o) => r.x0 < o.x1 && r.x1 > o.x0 && r.y0 < o.y1 && r.y1 > o.y0);
    let spot = null;
    for (const [lx, ly] of tries) {
      const r = { x0: lx, y0: ly, x1: lx + w, y1: ly + h };
      if (r.x0 < 0 || r.y0 < 0 || r.x1 > W || r.y1 > H) continue;
      if (!hit(r, placed) && !hit(r, others)) { spot = r; break; }
    }
    if (!spot) continue; // crowded at this zoom: the name shows when zoomed in (and in the tooltip)
    placed.push(spot);
    layers.labels.append(s("text", { x: spot.x0 + 2, y: spot.y0 + 10, class: `cname${ui.cities.includes(name) ? " in" : ""}` }, name));
  }
  svg.replaceChildren(s("rect", { x: 0, y: 0, width: W, height: H, fill: "transparent", class: "bg" }), layers.bands, layers.links, layers.marks, layers.cities, layers.labels, layers.hits);
}

function selectLink(id) {
  ui.link = ui.link === id ? null : id;
  ui.cities = [];
  refreshAll();
}

function clickCity(name) {
  const { list } = myDecisions(cur.doc);
  const i = ui.cities.indexOf(name);
  if (i >= 0) ui.cities = ui.cities.slice(0, i);
  else {
    const next = [...ui.cities, name];
    ui.cities = routesMatching(list, next).length ? next : routesMatching(list, [name]).length ? [name] : [];
  }
  ui.link = null;
  refreshAll();
}

function zoomBy(f, px = null, py = null) {
  if (!cur || !cur.svg) return;
  const box = cur.svg.getBoundingClientRect();
  const c = camera(cur.data, box.width, box.height);
  const z = Math.max(0.8, Math.min(14, ui.cam.z * f));
  if (px !== null) {
    // keep the map point under the cursor where it is
    const mx = c.cx + (px - box.width / 2) / c.k, my = c.cy + (py - box.height / 2) / c.k;
    const k2 = c.fitK * z;
    ui.cam.cx = mx - (px - box.width / 2) / k2;
    ui.cam.cy = my - (py - box.height / 2) / k2;
  }
  ui.cam.z = z;
  drawMap();
}

function panZoom(svg) {
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const b = svg.getBoundingClientRect();
    zoomBy(Math.pow(1.2, -e.deltaY / 100), e.clientX - b.left, e.clientY - b.top);
  }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, cx: ui.cam.cx, cy: ui.cam.cy, moved: false }; cur.dragged = false; });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 5) return;
    if (!drag.moved) { drag.moved = true; try { svg.setPointerCapture(e.pointerId); } catch { /* gone */ } }
    const b = svg.getBoundingClientRect();
    const k = camera(cur.data, b.width, b.height).k;
    ui.cam.cx = drag.cx - dx / k;
    ui.cam.cy = drag.cy - dy / k;
    cur.dragged = true;
    drawMap();
  });
  const end = () => { drag = null; setTimeout(() => { if (cur) cur.dragged = false; }, 0); };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
}

// -- the tracks, the phase, the players ----------------------------------------------------------

function phasePanel(doc, data) {
  const v = doc.view;
  const names = cur.names;
  const cards = ["A", "B", "C"].map((ph, k) => {
    const state = k < v.phases_ended ? "ended" : k === v.phases_ended && v.end_of_phase_holder >= 0 ? `drawn by ${names[v.end_of_phase_holder]}` : "in the deck";
    return h("span", { class: `eop ${k < v.phases_ended ? "done" : k === v.phases_ended && v.end_of_phase_holder >= 0 ? "held" : ""}`, title: `End of Phase ${ph} card: ${state}` }, `End of ${ph}: ${state}`);
  });
  const left = v.stage === "over" ? "the game is over"
    : v.end_of_phase_holder >= 0 ? `final round: ${plural(v.final_turns_left, "turn", "turns")} left in phase ${v.phase}`
      : `${plural(v.phase_contracts_left, "contract", "contracts")} left before the End of Phase ${v.phase} card`;
  return h("section", { class: "panel fr-phase" },
    h("div", {}, h("b", {}, `${data.title} · phase ${v.phase}`), " · ", left),
    h("div", { class: "eops" }, cards),
    h("div", { class: "muted small" }, `contract deck ${v.contract_deck} · improvement deck ${v.improvement_deck} · cargo bag ${v.bag} · supply `,
      data.components.colours.map((col) => marker(col, v.supply[col]))));
}

function tracks(doc, data) {
  const v = doc.view;
  const { seat, list } = myDecisions(doc);
  const contracts = v.contract_track.map((label, slot) => {
    if (!label) return h("div", { class: "fcard empty" }, "—");
    const l = data.links.find((x) => x.label === label);
    const ds = list.filter((d) => (d.type === "take_contract" || d.type === "draft_contract") && d.args.slot === slot);
    return h("div", { class: `fcard contract${ui.link === l.id ? " sel" : ""}`, "data-link": l.id, "data-colour": l.colour, style: `--c: ${COLOUR[l.colour]}`,
      onclick: (e) => { if (e.target.tagName !== "BUTTON") selectLink(l.id); } },
    h("div", { class: "band" }, h("b", {}, label), h("span", {}, `L${l.id}`)),
    h("div", {}, `${cityName(data, l.a)}–${cityName(data, l.b)}`),
    h("div", { class: "muted" }, `${l.length} squares · 1 ${l.colour === "ocean" ? "split" : l.colour} + ${l.cost}◇`),
    ds.map((d) => h("button", { class: `act small${d.pay_rank ? " alt" : ""}`, "data-type": d.type, "data-args": JSON.stringify(d.args),
      title: `${d.label} ${keepsText(d.preview)}`, onclick: () => go(seat, d) },
      d.type === "draft_contract" ? "draft" : [d.pay_rank ? "or " : "take ", payChips(d.preview && d.preview.pay)])));
  });
  const imps = v.improvement_track.map((name, slot) => {
    if (!name) return h("div", { class: "fcard empty" }, "—");
    const info = data.components.improvements[name] || {};
    const ds = list.filter((d) => (d.type === "improvement" || d.type === "draft_improvement") && d.args.slot === slot);
    return h("div", { class: "fcard imp" }, h("div", { class: "band" }, h("b", {}, name), h("span", {}, `${info.cost}◇`)),
      info.faces ? h("div", { class: "faces", title: info.text }, info.faces.map((f) => die(f))) : h("div", { class: "muted" }, info.text),
      ds.map((d) => h("button", { class: `act small${d.pay_rank ? " alt" : ""}`, "data-type": d.type, "data-args": JSON.stringify(d.args),
        title: `${d.label} ${keepsText(d.preview)}`, onclick: () => go(seat, d) },
        d.type === "draft_improvement" ? "draft" : [d.pay_rank ? "or " : (d.preview && d.preview.returned ? `buy, return ${d.preview.returned} ` : "buy "),
          payChips(d.preview && d.preview.pay)])));
  });
  return h("section", { class: "panel fr-tracks" }, h("h3", {}, "Contract track"), h("div", { class: "fcards" }, contracts),
    h("h3", {}, "Improvement track"), h("div", { class: "fcards" }, imps));
}


function players(doc, data) {
  const v = doc.view;
  const you = new Set(doc.you || []);
  const act = new Set(v.to_act || []);
  const rows = v.players.map((p, k) => h("div", { class: `fplayer${you.has(k) ? " me" : ""}${act.has(k) ? " acting" : ""}`, "data-seat": k, style: `--p: ${SEAT[k]}` },
    h("div", { class: "head" }, h("span", { class: "pdot" }), h("b", {}, cur.names[k]), act.has(k) ? h("span", { class: "turn" }, " ◀") : null,
      h("span", { class: "spacer" }), h("b", { class: "stock", title: "stock (the score)" }, `$${p.stock}`)),
    h("div", { class: "line" },
      h("span", { title: "switching stations" }, plural(p.stations, "station", "stations")), " · ",
      h("span", { title: "links owned" }, plural(p.links_owned, "link", "links")), " ",
      h("span", { class: "marks", title: "stockpile markers" }, data.components.colours.map((col, i) => (p.markers[col] ? marker(col, p.markers[col]) : null))),
      p.cargo.length ? h("span", { class: "cargos", title: "cargo markers kept this phase" }, " cargo ", p.cargo.map(cargo)) : null),
    p.contracts.length ? h("div", { class: "line" }, p.contracts.map((i) => {
      const l = data.links[i];
      return h("span", { class: "fcontract", style: `--c: ${COLOUR[l.colour]}`, title: linkText(data, l), "data-link": l.id, onclick: () => selectLink(l.id) },
        `${l.label} `, h("small", {}, `${v.links[i].cubes}/${l.length}`));
    })) : null,
    p.improvements.length || p.pending.length ? h("div", { class: "line imps" }, [...p.improvements, ...p.pending.map((x) => `${x} (next turn)`)].join(" · ")) : null,
    h("div", { class: "line dice" }, p.dice.map((f, i) => die(f, { spent: p.spent[i], n: i })))));
  return h("section", { class: "panel fr-players" }, rows);
}

function standings(doc) {
  if (!doc.standings) return null;
  return h("section", { class: "panel standings" }, h("h3", {}, "Final scores"),
    h("table", {}, h("tbody", {}, doc.standings.map((r) => h("tr", {}, h("td", { class: "num" }, r.rank), h("td", {}, cur.names[r.seat]),
      h("td", { class: "num" }, `$${r.score}`), h("td", { class: "muted" }, plural(r.stations, "station", "stations")))))));
}

// -- the moves -----------------------------------------------------------------------------------

function payText() {
  if (!ui.pay || !ui.pay.length) return "";
  return ui.pay.map((t) => (t.die !== undefined ? String(t.die) : t.marker)).join(" ");
}

function go(seat, d) {
  const a = { ...d.action };
  if (PAYS.has(a.type) && ui.pay && ui.pay.length) a.pay = payText();
  const send = cur.send;
  ui.link = null; ui.cities = []; ui.hover = null; ui.pay = null;
  if (send) send(seat, a);
}

function hover(d) { ui.hover = d; drawMap(); }

function button(seat, d, body, cls = "") {
  return h("button", { class: `act t-${d.type} ${cls}`, "data-type": d.type, "data-args": JSON.stringify(d.args), title: d.label,
    onclick: () => go(seat, d), onmouseenter: () => hover(d), onmouseleave: () => hover(null), onfocus: () => hover(d) }, body);
}

function payBar(doc, seat) {
  const p = doc.view.players[seat];
  const chosen = ui.pay || [];
  const has = (t) => chosen.some((x) => (t.die !== undefined ? x.die === t.die : false));
  const toggleDie = (i) => {
    ui.pay = ui.pay || [];
    ui.pay = has({ die: i }) ? ui.pay.filter((x) => x.die !== i) : [...ui.pay, { die: i, face: p.dice[i] }];
    renderDecisions(cur.decRoot, cur.doc, cur.send);
  };
  const addMarker = (col) => {
    ui.pay = [...(ui.pay || []), { marker: col }];
    renderDecisions(cur.decRoot, cur.doc, cur.send);
  };
  const markers = Object.entries(p.markers).filter(([, n]) => n > 0);
  return h("div", { class: "fr-pay" },
    h("div", { class: "lbl" }, "Your dice", markers.length ? " and markers" : "", h("small", { class: "muted" }, " — click to choose what pays; else the engine pays as shown")),
    h("div", { class: "dice" }, p.dice.map((f, i) => die(f, { spent: p.spent[i], n: i, cls: has({ die: i }) ? "chosen" : "", onclick: p.spent[i] ? null : () => toggleDie(i) })),
      markers.map(([col, n]) => marker(col, n, { onclick: () => addMarker(col), cls: "pick" }))),
    chosen.length ? h("div", { class: "chosen-pay" }, "paying with ", payChips(chosen), " ",
      h("button", { class: "small", type: "button", onclick: () => { ui.pay = null; renderDecisions(cur.decRoot, cur.doc, cur.send); } }, "engine's choice")) : null);
}

function altPays(seat, d, items) {
  const alts = items.filter((x) => x.pay_rank > 0 && sameMove(x, d));
  if (!alts.length) return null;
  return h("div", { class: "alts" }, h("small", { class: "muted" }, "or pay "),
    alts.map((x) => h("button", { class: "act small alt", "data-type": x.type, "data-args": JSON.stringify(x.args), title: `${x.label} · ${keepsText(x.preview)}`,
      onclick: () => go(seat, x) }, payChips(x.preview && x.preview.pay))));
}

function routeBlock(doc, seat, items, data) {
  const all = items;
  items = items.filter((d) => !d.pay_rank);
  const shown = ui.cities.length ? routesMatching(items, ui.cities) : items;
  const rows = shown.slice(0, 14).map((d) => {
    const p = d.preview;
    const others = p.payouts.filter(([k]) => k !== seat && k >= 0).map(([k, n, amt]) => `${cur.names[k]} $${amt}`).join(", ");
    return h("div", { class: "dec route" }, button(seat, d, [
      cargo(p.colour), " ", h("b", {}, p.cities.join(" › ")),
      h("span", { class: "muted" }, ` · ${plural(p.links.length, "link", "links")} · ${plural(p.dice, "die", "dice")}`)]),
    h("div", { class: "pv" }, `you +$${p.earns}`, p.distance_bonus ? ` (distance bonus $${p.distance_bonus})` : "", p.dice_bonus ? ` (bonus dice $${p.dice_bonus})` : "",
      others ? ` · ${others}` : "", p.stations ? ` · stations −${p.stations}` : "", " · ", payChips(p.pay)),
    altPays(seat, d, all));
  });
  const hint = ui.cities.length
    ? h("div", { class: "hint" }, `Route so far: ${ui.cities.join(" › ")} — click the next city (highlighted) or a listed route. `,
      h("button", { class: "small", type: "button", onclick: () => { ui.cities = []; refreshAll(); } }, "clear"))
    : h("div", { class: "hint" }, `Click a city with cargo (ringed on the map), then the cities along the way; ${plural(items.length, "route", "routes")} open.`);
  return [hint, rows, shown.length > 14 ? h("div", { class: "muted" }, `${shown.length - 14} more: click cities on the map to narrow them`) : null];
}

function buildBlock(doc, seat, items, data) {
  const byLink = new Map();
  for (const d of items) { if (!byLink.has(d.args.link)) byLink.set(d.args.link, []); byLink.get(d.args.link).push(d); }
  const out = [];
  for (const [id, ds] of byLink) {
    if (ui.link !== null && ui.link !== id && byLink.has(ui.link)) continue;
    const l = linkById(data, id);
    const st = doc.view.links[l.index];
    out.push(h("div", { class: `dec build${ui.link === id ? " sel" : ""}`, "data-link": id },
      h("div", { class: "lbl", onclick: () => selectLink(id) }, h("span", { class: "fcontract", style: `--c: ${COLOUR[l.colour]}` }, l.label), ` L${id} ${cityName(data, l.a)}–${cityName(data, l.b)} `,
        h("small", { class: "muted" }, `${st.cubes}/${l.length}`)),
      h("div", { class: "opts" }, ds.map((d) => {
        const p = d.preview;
        return button(seat, d, [`+${p.cubes} → ${p.filled}/${p.length} `, d.type === "steady_build" ? h("small", {}, "Steady Builder") : payChips(p.pay),
          p.score ? h("b", { class: "gain" }, ` completes: +$${p.score}`) : null], "opt");
      }))));
  }
  return out;
}

export function renderDecisions(root, doc, send) {
  if (cur) { cur.decRoot = root; cur.send = send; }
  const { seat, list } = myDecisions(doc);
  if (seat === null || !list.length || !cur) { root.replaceChildren(); return false; }
  const data = cur.data;
  const groups = {};
  for (const d of list) (groups[d.group] ||= []).push(d);
  const blocks = [];
  if (doc.view.stage !== "draft") blocks.push(payBar(doc, seat));
  for (const [g, title] of GROUPS) {
    const items = groups[g];
    if (!items) continue;
    let body;
    if (g === "route") body = routeBlock(doc, seat, items, data);
    else if (g === "build") body = buildBlock(doc, seat, items, data);
    else if (g === "end") {
      body = items.map((d) => {
        const m = Object.entries(d.preview.markers).filter(([, n]) => n > 0);
        return h("div", { class: "dec" }, button(seat, d, ["end turn", m.length ? [" · stockpile ", m.map(([col, n]) => marker(col, n))] : " · no markers",
          d.args.store ? h("small", { class: "muted" }, ` (split dice as ${d.args.store.replaceAll(",", ", ")})`) : null]));
      });
    } else {
      body = items.filter((d) => !d.pay_rank).map((d) => {
        const p = d.preview || {};
        let text = d.label.replace(/\s*\[pay[^\]]*\]$/, "").replace(/\s*\[cannot pay\]$/, "");
        return h("div", { class: "dec" }, button(seat, d, [text, p.pay !== undefined ? [" ", payChips(p.pay)] : null]), altPays(seat, d, items));
      });
    }
    blocks.push(h("div", { class: `group g-${g}` }, h("h4", {}, title), body));
  }
  root.replaceChildren(h("div", { class: "seat-dec fr-dec", "data-seat": seat }, blocks));
  return true;
}

// -- the whole table -----------------------------------------------------------------------------

function refreshAll() {
  if (!cur) return;
  drawMap();
  const info = cur.root.querySelector(".fr-info");
  if (info) info.replaceChildren(...infoPanels(cur.doc, cur.data));
  if (cur.decRoot) renderDecisions(cur.decRoot, cur.doc, cur.send);
}

function infoPanels(doc, data) {
  return [standings(doc), phasePanel(doc, data), players(doc, data), tracks(doc, data)].filter(Boolean);
}

// Draw the table into `root` (the board area), once the map is loaded (loadMap). `send(seat,
// action)` acts (null: the history page).
export function renderBoard(root, doc, send = null) {
  const data = MAPS[doc.view.map];
  if (ui.version !== doc.version) { ui.link = null; ui.cities = []; ui.hover = null; ui.pay = null; ui.version = doc.version; }
  const names = Object.fromEntries(doc.seats.map((x) => [x.seat, x.name]));
  let wrap = root.querySelector(".fr-board");
  if (!wrap || !cur || cur.data !== data) {
    const svg = s("svg", { class: "fr-map", role: "img", "aria-label": `${data.title} map` });
    const [x0, y0, x1, y1] = data.bounds;
    wrap = h("div", { class: "fr-board" },
      // a phone sizes the map by its shape (--ar: width over height)
      h("div", { class: "panel fr-mapwrap" }, svg,
        h("div", { class: "fr-zoom" },
          h("button", { type: "button", title: "zoom in", onclick: () => zoomBy(1.5) }, "+"),
          h("button", { type: "button", title: "zoom out", onclick: () => zoomBy(1 / 1.5) }, "−"),
          h("button", { type: "button", title: "the whole map", class: "fit", onclick: () => { ui.cam = null; drawMap(); } }, "⤢")),
        legend()),
      h("div", { class: "fr-info" }));
    wrap.querySelector(".fr-mapwrap").style.setProperty("--ar", ((x1 - x0) / (y1 - y0)).toFixed(3));
    root.replaceChildren(wrap);
    cur = { root, doc, send, data, svg, names, decRoot: cur && cur.decRoot };
    panZoom(svg);
    new ResizeObserver(() => drawMap()).observe(svg);
  }
  Object.assign(cur, { root, doc, send, data, names });
  refreshAll();
  return true;
}

function legend() {
  return h("details", { class: "fr-legend" }, h("summary", {}, "legend"),
    h("div", {}, h("span", { class: "sq" }), " a square of a link (its colour; filled: built) · ", h("span", { class: "sq cube" }), " a cube of the builder · ",
      h("span", { class: "band" }), " a link owned (owner's colour) · ✕ RR X-ing: on the contract track"),
    h("div", {}, cargo("blue"), " cargo · ", h("span", { class: "ring" }), " open demand (ring colour) · ", h("span", { class: "ring sat" }), " saturated · B/C: a demand opening in that phase"),
    h("div", { class: "muted" }, "Wheel or +/− to zoom, drag to pan; hover a link or city for its name."));
}
