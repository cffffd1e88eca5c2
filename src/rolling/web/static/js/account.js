// The account page: log in, register, reset a password; once in, the account's games (waiting for
// it first), what it played and won, and where it is told of its turns (email, apprise URLs, Web Push).
import { api, el } from "./api.js";

const $ = (s) => document.getElementById(s);

function say(id, text, error = false) {
  const e = $(id);
  e.textContent = text;
  e.className = error ? "error" : "muted";
  e.hidden = false;
}

async function submit(e, id, call) {
  e.preventDefault();
  $(id).hidden = true;
  try { await call(); } catch (err) { say(id, err.message, true); }
}

function drawGames(me) {
  const rows = me.games.map((g) => {
    const state = g.over ? "over" : g.waiting ? el("span", { class: "mine" }, "your turn") : "waiting for others";
    return el("tr", { class: g.waiting ? "waiting" : "", "data-game": g.id },
      el("td", {}, g.title),
      el("td", {}, g.seats.map((s) => s.name).join(", ")),
      el("td", {}, state),
      el("td", {}, el("a", { href: `/g/${encodeURIComponent(g.id)}` }, "open"), " · ",
        el("a", { href: `/g/${encodeURIComponent(g.id)}/settings` }, "settings")));
  });
  $("games").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 4, class: "muted" }, "none yet: join an open seat in the lobby"))]));
  const stats = me.stats.map((s) => el("tr", {}, el("td", {}, s.game), el("td", {}, s.edition || ""), el("td", {}, String(s.played)), el("td", {}, String(s.won))));
  $("stats").replaceChildren(...(stats.length ? stats : [el("tr", {}, el("td", { colspan: 4, class: "muted" }, "no finished game yet"))]));
}

async function show() {
  const reset = new URL(location.href).searchParams.get("reset");
  $("reset").hidden = !reset;
  let me = null;
  try { me = await api("/api/me"); } catch (e) { if (e.status !== 401) throw e; }
  $("out").hidden = !!me || !!reset;
  $("in").hidden = !me;
  $("notify").hidden = !me;
  if (!me) return;
  $("me-name").textContent = me.account.name;
  drawGames(me);
  $("notify-email").checked = me.account.notifications.email;
  $("notify-urls").value = me.account.notifications.urls.join("\n");
  $("push-msg").hidden = !me.account.notifications.push;
  $("push-msg").textContent = me.account.notifications.push ? `${me.account.notifications.push} browser(s) get them` : "";
}

function b64(s) {
  const raw = atob((s + "=".repeat((4 - (s.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function enablePush() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) { say("push-msg", "this browser has no Web Push", true); return; }
  if ((await Notification.requestPermission()) !== "granted") { say("push-msg", "notifications are not allowed for this site", true); return; }
  const reg = await navigator.serviceWorker.register("/sw.js");
  const { key } = await api("/api/push/key");
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64(key) });
  await api("/api/me/push", { method: "POST", body: sub.toJSON() });
  say("push-msg", "this browser gets them");
}

$("login").addEventListener("submit", (e) => submit(e, "login-error", async () => {
  await api("/api/session", { method: "POST", body: { name: $("login-name").value.trim(), password: $("login-password").value } });
  await show();
}));
$("register").addEventListener("submit", (e) => submit(e, "register-error", async () => {
  const name = $("reg-name").value.trim(), password = $("reg-password").value;
  await api("/api/accounts", { method: "POST", body: { name, email: $("reg-email").value.trim(), password } });
  await api("/api/session", { method: "POST", body: { name, password } });
  await show();
}));
$("forgot").addEventListener("submit", (e) => submit(e, "forgot-msg", async () => {
  await api("/api/password-reset", { method: "POST", body: { email: $("forgot-email").value.trim() } });
  say("forgot-msg", "if an account has this address, a link is on its way");
}));
$("reset-form").addEventListener("submit", (e) => submit(e, "reset-msg", async () => {
  const token = new URL(location.href).searchParams.get("reset");
  await api("/api/password-reset/confirm", { method: "POST", body: { token, password: $("reset-password").value } });
  history.replaceState(null, "", "/account");
  say("reset-msg", "done: log in with it");
  $("out").hidden = false;
}));
$("logout").addEventListener("click", async () => { await api("/api/session", { method: "DELETE" }); await show(); });
$("notify-form").addEventListener("submit", (e) => submit(e, "notify-msg", async () => {
  const urls = $("notify-urls").value.split("\n").map((s) => s.trim()).filter(Boolean);
  await api("/api/me/notifications", { method: "PUT", body: { urls, email: $("notify-email").checked } });
  say("notify-msg", "saved");
}));
$("push").addEventListener("click", () => enablePush().catch((e) => say("push-msg", e.message, true)));
show();
setInterval(() => { if (!$("in").hidden) api("/api/me").then(drawGames).catch(() => {}); }, 30000);
