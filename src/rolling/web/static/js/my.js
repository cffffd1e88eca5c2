// My games: every game this browser holds a seat link of, those waiting for you first.
import { api, el, forgetGame, loadGames, rememberMeta } from "./api.js";

const $ = (s) => document.getElementById(s);

async function main() {
  const mine = loadGames();
  const ids = Object.keys(mine);
  if (!ids.length) { $("games").replaceChildren(el("tr", {}, el("td", { colspan: 4, class: "muted" }, "none yet: open a seat link, or create a game in the lobby"))); return; }
  const rows = await Promise.all(ids.map(async (id) => {
    const g = mine[id];
    try {
      const d = await api(`/api/games/${encodeURIComponent(id)}`, { tokens: g.tokens || [] });
      const names = Object.fromEntries(d.seats.map((s) => [s.seat, s.name]));
      const yours = (d.you || []).some((s) => (d.to_act || []).includes(s));
      rememberMeta(id, { title: d.title, you: d.you, over: d.over });
      return { yours, over: d.over, row: el("tr", { class: yours ? "waiting" : "" , "data-game": id},
        el("td", {}, d.title || d.game),
        el("td", {}, (d.you || []).map((s) => names[s]).join(", ") || el("span", { class: "muted" }, "spectator")),
        el("td", {}, d.over ? "game over" : yours ? el("span", { class: "mine" }, "your turn") : `waiting for ${(d.to_act || []).map((s) => names[s]).join(", ")}`),
        el("td", {}, el("a", { href: `/g/${encodeURIComponent(id)}` }, "open"), " · ", el("a", { href: `/g/${encodeURIComponent(id)}/history` }, "history"))) };
    } catch (e) {
      return { yours: false, over: true, row: el("tr", {}, el("td", {}, g.title || id), el("td", {}, ""), el("td", { class: "muted" }, e.status === 404 ? "no longer on this server" : e.message),
        el("td", {}, el("button", { class: "small", onclick: () => { forgetGame(id); main(); } }, "forget"))) };
    }
  }));
  rows.sort((a, b) => (b.yours - a.yours) || (a.over - b.over));
  $("games").replaceChildren(...rows.map((r) => r.row));
}
main();
setInterval(main, 30000);
