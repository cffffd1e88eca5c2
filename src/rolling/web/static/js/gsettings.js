// A game's settings page: time limits, bot pace and idle time (the creator changes them), and the
// creator's seat changes: start now with bots in the open seats, replace or reopen an idle seat.
import { api, creatorFor, el, gameIdFromPath } from "./api.js";

const $ = (s) => document.getElementById(s);
const id = gameIdFromPath();
const path = `/api/games/${encodeURIComponent(id)}`;
const creator = creatorFor(id);
let s = null;

function showError(e) { $("error").textContent = e.message; $("error").hidden = false; }

function ago(seconds) {
  if (!seconds) return "";
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (seconds >= size) { const k = Math.floor(seconds / size); return `${k} ${unit}${k === 1 ? "" : "s"}`; }
  }
  return `${seconds} s`;
}

async function change(call) {
  $("error").hidden = true;
  try { await call(); await load(); } catch (e) { showError(e); }
}

function draw() {
  $("title").textContent = `${s.title}: settings`;
  $("back").href = `/g/${encodeURIComponent(id)}`;
  $("role").textContent = s.creator ? "You made this game: you may change its settings." : "Only the game's creator may change these.";
  for (const e of document.querySelectorAll("[data-row=limits]")) e.hidden = !s.timed_phases.length;
  $("limit3").value = s.time_limits["3"] || 0;
  $("limit4").value = s.time_limits["4"] || 0;
  $("pace").value = s.bot_pace;
  $("idle").value = Math.round((s.idle_seconds / 3600) * 100) / 100;
  for (const e of document.querySelectorAll("#settings input, #save")) e.disabled = !s.creator || s.over;
  $("seats").replaceChildren(...s.seats.map((x) => el("tr", { "data-seat": x.seat },
    el("td", {}, String(x.seat + 1)),
    el("td", {}, x.kind === "open" ? el("a", { href: `/g/${encodeURIComponent(id)}/join` }, "open: join") : `${x.name}${x.kind === "human" ? "" : ` (${x.kind})`}`),
    el("td", {}, ago(x.idle)),
    el("td", {}, s.creator && x.kind === "human" && !s.over && s.idle_seconds && x.idle >= s.idle_seconds ? [
      el("button", { class: "small replace-bot", onclick: () => change(() => api(`${path}/seats/${x.seat}/replace`, { method: "POST", creator, body: { with: "bot" } })) }, "hand to a bot"), " ",
      el("button", { class: "small reopen", onclick: () => change(() => api(`${path}/seats/${x.seat}/replace`, { method: "POST", creator, body: { with: "open" } })) }, "reopen")] : ""))));
  $("start-row").hidden = !(s.creator && s.open.length && !s.over);
}

async function load() {
  s = await api(`${path}/settings`, { creator });
  draw();
}

$("settings").addEventListener("submit", (e) => {
  e.preventDefault();
  change(async () => {
    const body = { bot_pace: Number($("pace").value), idle_seconds: Math.round(Number($("idle").value) * 3600) };
    if (s.timed_phases.length) body.time_limits = { 3: Number($("limit3").value) || 0, 4: Number($("limit4").value) || 0 };
    await api(`${path}/settings`, { method: "PUT", creator, body });
    $("msg").textContent = "saved"; $("msg").hidden = false;
  });
});
$("start").addEventListener("click", () => change(() => api(`${path}/start`, { method: "POST", creator, body: { bot: "bot" } })));
load().catch(showError);
