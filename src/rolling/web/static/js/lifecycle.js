// A game's lifecycle on the table page: its holder hands a seat to a bot; the creator (the creator's
// token, kept in this browser when it made the game) stops or deletes the game; an ended game says why.
import { api, creatorFor, el, forgetGame } from "./api.js";

export function renderLifecycle(box, d, { id, tokens, render, showError }) {
  const path = `/api/games/${encodeURIComponent(id)}`;
  const items = [];
  const live = !d.over && !d.watch_only && !d.closed;
  const names = Object.fromEntries(d.seats.map((s) => [s.seat, s.name]));
  const run = async (question, call) => {
    if (!window.confirm(question)) return;
    try { await call(); } catch (e) { showError(e.message); }
  };
  if (d.closed) items.push(el("div", { class: "closed" }, `Game ended: ${d.closed.text}`));
  if ((d.open || []).length && live) {
    items.push(el("div", { class: "waiting-seats" }, `Waiting for players: seat${d.open.length > 1 ? "s" : ""} ${d.open.map((s) => s + 1).join(", ")} open — `,
      el("a", { href: `/g/${encodeURIComponent(id)}/join` }, "join")));
  }
  if (!d.watch_only) items.push(el("a", { class: "small game-settings", href: `/g/${encodeURIComponent(id)}/settings` }, "settings"));
  if (live) {
    for (const seat of d.you || []) {
      items.push(el("button", { class: "small hand-to-bot", "data-seat": seat, onclick: () => run(
        `Hand ${names[seat]}'s seat to a bot for the rest of the game? This link will no longer play it.`,
        async () => render(await api(`${path}/seats/${seat}/bot`, { method: "POST", tokens, body: { bot: "bot" } }))) },
      (d.you || []).length > 1 ? `hand ${names[seat]} to a bot` : "hand my seat to a bot"));
    }
  }
  const creator = creatorFor(id);
  if (creator && !d.watch_only) {
    if (live) {
      items.push(el("button", { class: "small stop-game", onclick: () => run("Stop this game for everyone, where it is?",
        async () => render(await api(`${path}/stop`, { method: "POST", tokens, creator }))) }, "stop the game"));
    }
    items.push(el("button", { class: "small delete-game", onclick: () => run("Delete this game and its record for everyone?",
      async () => { await api(path, { method: "DELETE", creator }); forgetGame(id); location.href = "/"; }) }, "delete the game"));
  }
  box.replaceChildren(...items);
}
