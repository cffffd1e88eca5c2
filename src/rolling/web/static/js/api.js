// The JSON API, the seat tokens this browser holds, and the live WebSocket.
// Tokens live in localStorage under "rolling.games": {gameId: {tokens: [...], title, you: [...], names: {...}}}.

const KEY = "rolling.games";

export function loadGames() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { return {}; }
}

function saveGames(all) { localStorage.setItem(KEY, JSON.stringify(all)); }

export function tokensFor(id) { return (loadGames()[id] || {}).tokens || []; }

export function addTokens(id, tokens, meta = {}) {
  const all = loadGames();
  const g = all[id] || { tokens: [] };
  for (const t of tokens) if (t && !g.tokens.includes(t)) g.tokens.push(t);
  Object.assign(g, meta);
  g.saved = g.saved || Date.now();
  all[id] = g;
  saveGames(all);
}

export function rememberMeta(id, meta) {
  const all = loadGames();
  if (!all[id]) return;
  Object.assign(all[id], meta);
  saveGames(all);
}

export function forgetGame(id) { const all = loadGames(); delete all[id]; saveGames(all); }

// The creator's token of a game made in this browser (it stops or deletes the game).
export function creatorFor(id) { return (loadGames()[id] || {}).creator || null; }
export function addCreator(id, token) { if (token) addTokens(id, [], { creator: token }); }

// Take ?t=tok1,tok2 off the address bar and keep the tokens for this game.
export function takeUrlTokens(id) {
  const url = new URL(location.href);
  const t = url.searchParams.get("t");
  if (t) {
    addTokens(id, t.split(",").map((s) => s.trim()).filter(Boolean));
    url.searchParams.delete("t");
    history.replaceState(null, "", url.pathname + (url.search || "") + url.hash);
  }
}

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.message || body.error)) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export async function api(path, { method = "GET", body, tokens = [], form, creator } = {}) {
  const headers = {};
  if (tokens.length) headers["X-Seat-Tokens"] = tokens.join(",");
  if (creator) headers["X-Creator-Token"] = creator;
  let payload;
  if (form) payload = form;
  else if (body !== undefined) { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body); }
  let res;
  try {
    res = await fetch(path, { method, headers, body: payload });
  } catch (e) {
    throw new ApiError(0, { error: "Network", message: "the server cannot be reached" });
  }
  let data = null;
  const text = await res.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text.slice(0, 200) }; }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

// A WebSocket to the game that reconnects when dropped; onDoc gets each game document.
export function liveGame(id, tokens, onDoc, onState = () => {}) {
  let ws = null, wait = 500, closed = false, timer = null;
  const open = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = tokens.length ? `?t=${encodeURIComponent(tokens.join(","))}` : "";
    ws = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(id)}${q}`);
    ws.onopen = () => { wait = 500; onState("live"); };
    ws.onmessage = (ev) => {
      try { const d = JSON.parse(ev.data); if (d && d.view) onDoc(d); } catch { /* not a document */ }
    };
    ws.onclose = () => {
      onState("offline");
      if (closed) return;
      timer = setTimeout(open, wait);
      wait = Math.min(wait * 2, 8000);
    };
    ws.onerror = () => { try { ws.close(); } catch { /* closed */ } };
  };
  open();
  return { close() { closed = true; clearTimeout(timer); if (ws) ws.close(); } };
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "style" && typeof v === "object") Object.assign(e.style, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function money(v) { return v === null || v === undefined ? "?" : `$${v}`; }

export function gameIdFromPath() {
  const m = location.pathname.match(/^\/g\/([^/]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}
