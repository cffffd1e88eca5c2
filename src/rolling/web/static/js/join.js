// Join a game: its open seats, each taken by the logged-in account (a private game's invite code
// rides in the address: /g/ID/join?invite=CODE).
import { api, el, gameIdFromPath } from "./api.js";

const $ = (s) => document.getElementById(s);
const id = gameIdFromPath();
const invite = new URL(location.href).searchParams.get("invite");

async function join(seat) {
  $("join-error").hidden = true;
  try {
    await api(`/api/games/${encodeURIComponent(id)}/join`, { method: "POST", body: { seat, ...(invite ? { invite } : {}) } });
    location.href = `/g/${encodeURIComponent(id)}`;
  } catch (e) {
    $("join-error").textContent = e.status === 401 ? "log in (or register) first, then come back to this link" : e.message;
    $("join-error").hidden = false;
  }
}

async function main() {
  let me = null;
  try { me = await api("/api/me"); } catch { /* not logged in */ }
  $("who").replaceChildren(me ? `You join as ${me.account.name}.` : el("span", {}, el("a", { href: "/account" }, "Log in or register"), " to take a seat."));
  const s = await api(`/api/games/${encodeURIComponent(id)}/settings`);
  $("title").textContent = s.title;
  $("seats").replaceChildren(...s.seats.map((x) => el("li", { "data-seat": x.seat }, el("b", {}, `seat ${x.seat + 1}: `),
    x.kind === "open" ? el("button", { class: "primary small join", disabled: !me, onclick: () => join(x.seat) }, "take this seat") : `${x.name}${x.kind === "human" ? "" : ` (${x.kind})`}`)));
  if (!s.open.length) { $("join-error").textContent = "no open seat left"; $("join-error").hidden = false; }
}
main().catch((e) => { $("join-error").textContent = e.message; $("join-error").hidden = false; });
