// The lobby: a game with every engine option, its seat links, and the games on this server.
import { addCreator, addTokens, api, el, loadGames } from "./api.js";

const $ = (s) => document.getElementById(s);
let options = {};
let created = null;

function spec() { return options[$("game").value] || { players: [2, 6], editions: [], variants: [], bots: [] }; }

// Rolling Freight: the map chosen, and the player counts the rules allow on it
function mapPlayers(g) {
  const m = g.maps && g.maps[$("map").value];
  return m ? m.players : g.players;
}

function drawOptions() {
  const g = spec();
  if (g.maps && $("map").options.length !== Object.keys(g.maps).length) {
    $("map").replaceChildren(...Object.entries(g.maps).map(([k, m]) => el("option", { value: k }, `${m.title} (${m.players[0]}–${m.players[1]} players)`)));
  }
  const [lo, hi] = mapPlayers(g);
  $("players").min = lo; $("players").max = hi;
  const n = Math.min(hi, Math.max(lo, Number($("players").value) || 4));
  $("players").value = n;
  $("edition").replaceChildren(...(g.editions || []).map((e) => el("option", { value: e }, e)));
  $("variants").replaceChildren(...(g.variants || []).map((v) => el("label", { style: { marginRight: "12px", whiteSpace: "nowrap" } },
    el("input", { type: "checkbox", name: "variant", value: v }), ` ${v}`)));
  // only the options this game has: a solitaire shows no player count, a game without editions,
  // variants or time limits none of those
  const show = { map: !!g.maps, players: lo !== hi, edition: (g.editions || []).length > 0, variants: (g.variants || []).length > 0,
    limits: !!g.time_limits };
  for (const [row, on] of Object.entries(show)) for (const e of document.querySelectorAll(`[data-row=${row}]`)) e.hidden = !on;
  $("seats-label").textContent = lo === hi && lo === 1 ? "player" : "seats";
  drawSeats(true);
}

function drawSeats(force = false) {
  const g = spec();
  const n = Number($("players").value) || 4;
  if (!force && document.querySelectorAll(".seat-kind").length === n) return; // nothing to redraw
  const old = [...document.querySelectorAll(".seat-kind")].map((s) => s.value);
  const oldNames = [...document.querySelectorAll(".seat-name")].map((s) => s.value);
  const kinds = [["human", "human"], ["open", "open (joined from the lobby)"], ["bot", `bot (${g.strongest || "strongest"})`], ...(g.bots || []).map((b) => [`bot:${b}`, `bot: ${b}`])];
  const cells = [];
  for (let i = 0; i < n; i++) {
    const sel = el("select", { class: "seat-kind", "aria-label": `seat ${i + 1}` }, kinds.map(([v, t]) => el("option", { value: v }, t)));
    sel.value = old[i] || (i === 0 ? "human" : "bot");
    cells.push(el("span", {}, `seat ${i + 1}`), sel, el("input", { class: "seat-name", placeholder: "name (optional)", maxlength: 40, value: oldNames[i] || "" }));
  }
  $("seats").replaceChildren(...cells);
}

function absolute(u) { return new URL(u, location.origin).href; }

function copyButton(text) {
  return el("button", { type: "button", class: "small", onclick: async (e) => {
    try { await navigator.clipboard.writeText(text); e.target.textContent = "copied"; }
    catch { window.prompt("Copy this link", text); }
  } }, "copy");
}

async function create(e) {
  e.preventDefault();
  $("create-error").hidden = true;
  const n = Number($("players").value);
  const seats = [...document.querySelectorAll(".seat-kind")].map((s) => s.value);
  const names = [...document.querySelectorAll(".seat-name")].map((s) => s.value.trim());
  const g = spec();
  const config = {};
  if (g.players[0] !== g.players[1]) config.players = n;
  if (g.maps) config.map = $("map").value;
  if ((g.editions || []).length) config.edition = $("edition").value;
  if ((g.variants || []).length) config.variants = [...document.querySelectorAll("input[name=variant]:checked")].map((x) => x.value);
  const body = { game: $("game").value, config, seats };
  if ($("private").checked) body.private = true;
  if (names.some(Boolean)) body.names = names.map((x, i) => x || (seats[i] === "human" ? `Player ${i + 1}` : `${seats[i].replace("bot:", "").replace(/^bot$/, spec().strongest || "bot").split(":")[0]} ${i + 1}`.replace(/^./, (c) => c.toUpperCase())));
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const limits = {};
  if (g.time_limits && $("limit3").value) limits["3"] = Number($("limit3").value);
  if (g.time_limits && $("limit4").value) limits["4"] = Number($("limit4").value);
  if (Object.keys(limits).length) body.time_limits = limits;
  try {
    created = await api("/api/games", { method: "POST", body });
    addCreator(created.id, created.creator_token); // this browser may stop or delete it
  } catch (err) {
    $("create-error").textContent = err.message;
    $("create-error").hidden = false;
    return;
  }
  const items = created.seats.map((s) => s.url
    ? el("li", { "data-seat": s.seat }, el("b", {}, `${s.name}: `), el("a", { href: s.url, target: "_blank", class: "seat-link" }, "open"), " ", el("code", {}, absolute(s.url)), " ", copyButton(absolute(s.url)))
    : el("li", { class: "muted" }, `${s.name}: ${s.kind}`));
  items.push(el("li", {}, el("b", {}, "Spectators: "), el("a", { href: created.spectator_url, class: "spectator-link" }, "watch"), " ", el("code", {}, absolute(created.spectator_url)), " ", copyButton(absolute(created.spectator_url))));
  $("links").replaceChildren(...items);
  const join = created.invite_url || (created.seats.some((s) => s.kind === "open") ? `/g/${encodeURIComponent(created.id)}/join` : null);
  $("open-note").hidden = !join;
  if (join) $("open-note").replaceChildren(el("b", {}, created.invite_url ? "Invite link (private game): " : "Open seats: "),
    el("a", { href: join, class: "invite-link" }, "join"), " ", el("code", {}, absolute(join)), " ", copyButton(absolute(join)),
    " ", el("a", { href: `/g/${encodeURIComponent(created.id)}/settings` }, "settings"));
  $("created").hidden = false;
  $("hotseat").hidden = !created.seats.some((s) => s.token);
  $("hotseat").textContent = created.seats.filter((s) => s.token).length > 1 ? "Play every human seat in this browser" : "Play it in this browser";
  $("created").scrollIntoView({ behavior: "smooth" });
  listGames();
  listOpen();
}

function hotseat() {
  if (!created) return;
  addTokens(created.id, created.seats.filter((s) => s.token).map((s) => s.token));
  location.href = `/g/${encodeURIComponent(created.id)}`;
}

async function listGames() {
  let data;
  try { data = await api("/api/games"); } catch (e) { $("games").replaceChildren(el("tr", {}, el("td", { colspan: 5, class: "error" }, e.message))); return; }
  const mine = loadGames();
  const rows = (data.games || []).map((g) => {
    const names = Object.fromEntries(g.seats.map((s) => [s.seat, s.name]));
    const state = g.over ? "over" : `action ${g.played}; to act: ${(g.to_act || []).map((s) => names[s]).join(", ")}`;
    const when = g.created ? new Date(typeof g.created === "number" ? g.created * (g.created < 1e12 ? 1000 : 1) : g.created).toLocaleString() : "";
    return el("tr", {},
      el("td", {}, g.title || g.game, mine[g.id] ? el("span", { class: "mine" }, " ★ yours") : null),
      el("td", {}, g.seats.map((s) => `${s.name}${s.kind === "human" ? "" : ` (${s.kind})`}`).join(", ")),
      el("td", {}, state),
      el("td", {}, when),
      el("td", {}, el("a", { href: `/g/${encodeURIComponent(g.id)}` }, mine[g.id] ? "play" : "watch"), " · ", el("a", { href: `/g/${encodeURIComponent(g.id)}/history` }, "history")));
  });
  $("games").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 5, class: "muted" }, "no games yet"))]));
}

async function joinSeat(id, seat) {
  $("join-error").hidden = true;
  try {
    await api(`/api/games/${encodeURIComponent(id)}/join`, { method: "POST", body: { seat } });
    location.href = `/g/${encodeURIComponent(id)}`;
  } catch (e) {
    $("join-error").replaceChildren(e.status === 401 ? el("span", {}, el("a", { href: "/account" }, "Log in or register"), " to take a seat") : e.message);
    $("join-error").hidden = false;
  }
}

async function listOpen() {
  let data;
  try { data = await api("/api/games?open=true"); } catch (e) { $("open-games").replaceChildren(el("tr", {}, el("td", { colspan: 4, class: "error" }, e.message))); return; }
  const rows = (data.games || []).map((g) => el("tr", { "data-game": g.id },
    el("td", {}, g.title || g.game),
    el("td", {}, g.seats.map((s) => (s.kind === "open" ? "open" : `${s.name}${s.kind === "human" ? "" : ` (${s.kind})`}`)).join(", ")),
    el("td", {}, g.created ? new Date(g.created).toLocaleString() : ""),
    el("td", {}, ...(g.open || []).map((seat) => el("button", { class: "small join-seat", "data-seat": seat, onclick: () => joinSeat(g.id, seat) }, `take seat ${seat + 1}`)))));
  $("open-games").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 4, class: "muted" }, "no game waits for players"))]));
}

async function whoAmI() {
  try { const me = await api("/api/me"); $("account-link").textContent = `${me.account.name}${me.waiting.length ? ` (${me.waiting.length} waiting)` : ""}`; } catch { /* not logged in */ }
}

async function main() {
  try { options = (await api("/api/games/options")).games || {}; } catch (e) { $("create-error").textContent = e.message; $("create-error").hidden = false; }
  $("game").replaceChildren(...Object.keys(options).map((g) => el("option", { value: g }, options[g].title || g)));
  if (options.stars) $("game").value = "stars";
  drawOptions();
  $("game").addEventListener("change", drawOptions);
  $("map").addEventListener("change", drawOptions);
  $("edition").addEventListener("change", () => {
    const range = (spec().players_by_edition || {})[$("edition").value];
    if (!range) return;
    $("players").min = range[0];
    $("players").max = range[1];
    $("players").value = Math.min(range[1], Math.max(range[0], Number($("players").value)));
    drawSeats();
  });
  $("players").addEventListener("change", () => drawSeats());
  $("players").addEventListener("input", () => drawSeats());
  $("create").addEventListener("submit", create);
  $("hotseat").addEventListener("click", hotseat);
  listGames();
  listOpen();
  whoAmI();
  setInterval(() => { listGames(); listOpen(); }, 15000);
}
main();
