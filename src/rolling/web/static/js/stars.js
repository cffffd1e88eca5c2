// Rolling Stock Stars: the table drawn from the engine's view (StarsState.view) and the printed
// data (/data/stars.json). Read-only: decisions are drawn by decisions.js.
import { el, money } from "./api.js";

let DATA = null;
export async function loadData() {
  if (!DATA) DATA = await (await fetch("/data/stars.json")).json();
  return DATA;
}
export function data() { return DATA; }

function printed(code) { return DATA ? DATA.companies.find((c) => c.code === code) : null; }

const sign = (n) => (n > 0 ? `+${n}` : `${n}`);
const stars = (n) => "★".repeat(Math.max(0, Math.min(n, 5))) + (n > 5 ? `${n}` : "");

// Who owns each company now: code -> owner label ("PR", "Player 2", "FI", "offer").
export function owners(view) {
  const o = {};
  for (const p of view.players) for (const c of p.companies) o[c.code] = p.name;
  for (const c of view.corporations) for (const x of c.companies) o[x.code] = c.code;
  for (const x of view.foreign_investor.companies) o[x.code] = "FI";
  for (const x of view.offering) o[x.code] = "offering";
  Object.defineProperty(o, "corps", { value: new Set(view.corporations.map((c) => c.code)), enumerable: false });
  return o;
}

// Compact company: colour, code, face value, net income; the full card in its tooltip.
export function chip(c, { own = null } = {}) {
  const p = printed(c.code) || {};
  const syn = (p.synergies || []).map(([code, v]) => `${code}${own && own[code] ? ` (${own[code]})` : ""} +$${v}`).join(", ");
  const tip = `${c.code} ${c.name}\n${c.color}, face $${c.face_value}, income $${c.income} (net ${sign(c.net_income)}), ` +
    `span $${c.price_span[0]}-${c.price_span[1]}, ${c.stars}★\nsynergies: ${syn || "none"}`;
  return el("span", { class: `chip c-${c.color}${c.in_flight ? " flight" : ""}`, title: tip, "data-company": c.code },
    el("b", {}, c.code), ` $${c.face_value}`, el("small", {}, ` ${sign(c.net_income)}`));
}

// Full company card: colour band, code and face value, income, span, stars, and its synergy
// partners: those held by a corporation grouped by it (bold), the others listed after.
export function card(c, { own = {}, extra = null } = {}) {
  const p = printed(c.code) || { synergies: [] };
  const corpCodes = own.corps || new Set();
  const byCorp = {};
  const rest = [];
  for (const [code, v] of p.synergies) {
    const who = own[code];
    if (who && corpCodes.has(who)) (byCorp[who] ||= []).push(`${code}+${v}`);
    else rest.push(`${code}+${v}`);
  }
  const tip = `${c.code} ${c.name}\nsynergies: ${p.synergies.map(([k, v]) => `${k}${own[k] ? ` (${own[k]})` : ""} +$${v}`).join(", ") || "none"}`;
  return el("div", { class: `card c-${c.color}${c.available === false ? " unavailable" : ""}`, "data-company": c.code, title: tip },
    el("div", { class: "band" }, el("b", {}, c.code), el("span", { class: "face" }, `$${c.face_value}`)),
    el("div", { class: "nums" },
      el("span", { title: "income (net of cost of ownership)" }, `inc $${c.income}${c.net_income !== c.income ? ` (${sign(c.net_income)})` : ""}`),
      el("span", { title: "price span" }, `$${c.price_span[0]}–${c.price_span[1]}`),
      el("span", { class: "stars", title: `${c.stars} stars` }, `${c.stars}★`)),
    el("div", { class: "partners", title: "synergy partners" },
      Object.entries(byCorp).map(([corp, xs]) => el("span", { class: "syn held" }, `${corp}: ${xs.join(" ")}`)),
      rest.length ? el("span", { class: "syn" }, rest.join(" ")) : null,
      p.synergies.length ? null : "no synergies"),
    c.available === false ? el("div", { class: "tag" }, "unavailable") : null,
    extra);
}

function netWorth(p, view) {
  const price = Object.fromEntries(view.corporations.map((c) => [c.code, c.share_price]));
  const faces = p.companies.reduce((a, c) => a + c.face_value, 0);
  const shares = Object.entries(p.shares).reduce((a, [code, n]) => a + n * (price[code] || 0), 0);
  return { value: (p.cash ?? 0) + faces + shares, hidden: p.cash === null || p.cash === undefined };
}

export function playersPanel(doc, own) {
  const v = doc.view;
  const you = new Set(doc.you || []);
  const act = new Set(v.to_act || []);
  const rows = v.players.map((p) => {
    const nw = netWorth(p, v);
    return el("tr", { class: `${you.has(p.seat) ? "me" : ""}${act.has(p.seat) ? " acting" : ""}`, "data-seat": p.seat },
      el("td", { class: "num" }, p.order),
      el("td", { class: "name" }, p.name, act.has(p.seat) ? el("span", { class: "turn", title: "to act" }, " ◀") : null,
        p.passed ? el("small", { class: "muted" }, v.phase === 1 ? " passed" : " done") : null),
      el("td", { class: "num cash" }, p.cash === null || p.cash === undefined ? el("span", { class: "secret", title: "secret money" }, "secret") : `$${p.cash}`),
      el("td", { class: "chips" }, p.companies.map((c) => chip(c, { own }))),
      el("td", { class: "num" }, sign(p.income)),
      el("td", {}, Object.entries(p.shares).map(([code, n]) => el("span", { class: "share" }, `${code}×${n}`))),
      el("td", { class: "num", title: nw.hidden ? "cash is secret: companies and shares only" : "cash + face values + shares" },
        nw.hidden ? (nw.value ? `$${nw.value} + ?` : "?") : `$${nw.value}`));
  });
  return el("section", { class: "panel players" },
    el("table", {},
      el("thead", {}, el("tr", {}, ["#", "player", "cash", "companies", "inc", "shares", "worth"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)));
}

export function corporationsPanel(doc, own) {
  const v = doc.view;
  const names = Object.fromEntries(doc.seats.map((s) => [s.seat, s.name]));
  const corps = [...v.corporations].sort((a, b) => b.share_price - a.share_price);
  if (!corps.length) return el("section", { class: "panel corps empty" }, el("span", { class: "muted" }, "No corporations yet. Free charters: " + (v.charters_free || []).join(", ")));
  const rows = corps.map((c) => {
    const inc = c.income || {};
    const parts = [`printed $${inc.printed}`, inc.synergy ? `synergies +$${inc.synergy}` : null, inc.cost ? `cost −$${inc.cost}` : null, inc.bonus ? `ability +$${inc.bonus}` : null].filter(Boolean).join(", ");
    return el("tr", { "data-corp": c.code },
      el("td", { class: "corp", title: `${c.name}: ${c.ability}` }, el("b", {}, c.code), el("small", {}, ` ${c.name}`)),
      el("td", { class: "num price", "data-l": "price" }, `$${c.share_price}`),
      el("td", { class: "num", "data-l": "cash" }, `$${c.cash}`),
      el("td", { class: c.receivership ? "recv" : "", "data-l": "president" }, c.receivership ? "receivership" : names[c.president] ?? "?"),
      el("td", { class: "num", title: "issued / unissued / in the bank", "data-l": "shares i/u/b" }, `${c.issued}/${c.unissued}/${c.bank_shares}`),
      el("td", { class: "num", title: "stars owned", "data-l": "stars" }, `${c.stars}★`),
      el("td", { class: "chips" }, c.companies.map((x) => chip(x, { own })),
        c.synergies.length ? el("small", { class: "syns", title: c.synergies.map(([a, b, x]) => `${a}–${b} +$${x}`).join("\n") },
          ` synergies +$${c.synergies.reduce((t, x) => t + x[2], 0)} (${c.synergies.length})`) : null),
      el("td", { class: "num", title: parts, "data-l": "income" }, sign(inc.total ?? 0)),
      el("td", { class: "num", title: "maximum dividend per share now", "data-l": "div" }, `≤$${c.max_dividend}`));
  });
  return el("section", { class: "panel corps" },
    el("table", {},
      el("thead", {}, el("tr", {}, ["corporation", "price", "cash", "president", "shares i/u/b", "stars", "companies · synergies", "income", "div"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)));
}

export function marketPanel(doc, own) {
  const v = doc.view;
  const fi = v.foreign_investor;
  const coo = v.cost_of_ownership;
  const offering = v.offering.length ? v.offering.map((c) => card(c, { own })) : [el("span", { class: "muted" }, "the offering is empty")];
  return el("section", { class: "panel market" },
    el("div", { class: "offering" }, el("h3", {}, "Offering"), el("div", { class: "cards" }, offering)),
    el("div", { class: "facts" },
      el("div", { class: "fi" }, el("b", {}, "Foreign investor "), `${money(fi.cash)}, income ${sign(fi.income)} `,
        fi.companies.length ? fi.companies.map((c) => chip(c, { own })) : el("span", { class: "muted" }, "no companies")),
      el("div", { class: "deck" }, el("b", {}, "Deck "), `${v.deck_size} cards`,
        v.deck_top_color ? el("span", { class: `dot c-${v.deck_top_color}`, title: `top card: ${v.deck_top_color}` }) : null,
        v.deck_top_color ? ` top ${v.deck_top_color}` : "",
        v.end_card_flipped ? el("b", { class: "warn" }, " · END CARD FLIPPED") : null),
      el("div", { class: "coo" }, el("b", {}, "Cost of ownership "), `$${coo.cost}`, coo.colors.length ? " on " : " on nothing",
        coo.colors.map((c) => el("span", { class: `dot c-${c}`, title: c }))),
      v.deck ? el("div", { class: "open-deck" }, el("b", {}, "Deck (top first) "), v.deck.join(" ")) : null));
}

export function rowPanel(doc) {
  const v = doc.view;
  const printedRow = DATA ? DATA.share_price_row : [];
  const cells = v.share_price_row.map((k, i) => {
    const p = printedRow[i] || {};
    const req = p.required_stars ? Object.entries(p.required_stars).map(([n, s]) => `${n} shares: ${s}★`).join(", ") : "";
    return el("div", { class: `space${k.corporation ? " taken" : ""}`, title: `$${k.price}: max dividend $${p.max_dividend ?? "?"}; IPO ${(p.ipo || []).join(", ") || "none"}\nstars required: ${req}` },
      el("div", { class: "p" }, k.price),
      el("div", { class: "md" }, `÷${p.max_dividend ?? ""}`),
      el("div", { class: "ipo" }, (p.ipo || []).map((c) => el("i", { class: `c-${c}` }))),
      el("div", { class: "who" }, k.corporation || ""));
  });
  return el("section", { class: "panel row" }, el("div", { class: "spaces" }, cells));
}

export function situation(doc) {
  const v = doc.view;
  const names = Object.fromEntries(doc.seats.map((s) => [s.seat, s.name]));
  const out = [];
  if (v.auction) {
    const a = v.auction;
    out.push(el("div", { class: "banner" }, `Auction of ${a.company}: high bid $${a.bid} by ${names[a.bidder]}; in: ${a.in.map((s) => names[s]).join(", ")}`));
  }
  // one line per corporation and seller to answer, however many of its offers wait: late in a big
  // game a line per offer pushed the table past the first screen (issue 29)
  const offers = new Map();
  for (const p of v.proposals || []) {
    const key = `${p.corporation}\u0000${p.seller_seat}`;
    if (!offers.has(key)) offers.set(key, { corporation: p.corporation, seller: p.seller_seat, items: [] });
    offers.get(key).items.push(`$${p.price} for ${p.company}`);
  }
  for (const o of offers.values()) out.push(el("div", { class: "banner" }, `${o.corporation} offers ${o.items.join(", ")} (answer: ${names[o.seller] ?? "?"})`));
  for (const d of v.deals || []) out.push(el("div", { class: "banner" }, `Deal of ${names[d.proposer]}: ${d.transactions.map((x) => `${x.corporation} buys ${x.company} for $${x.price}`).join(", then ")} (to accept: ${d.waiting.map((s) => names[s]).join(", ")})`));
  if (v.announcement) out.push(el("div", { class: "banner" }, `${v.announcement.corporation} announced buying ${v.announcement.company} from the foreign investor; asked to pre-empt: ${v.announcement.asked}`));
  for (const a of v.standing_announcements || []) out.push(el("div", { class: "banner" }, `${a.corporation} announced buying ${a.company} from the foreign investor (asked: ${a.asked})`));
  return out;
}

export function headline(doc) {
  const v = doc.view;
  const names = Object.fromEntries(doc.seats.map((s) => [s.seat, s.name]));
  if (doc.over || v.is_over) return `Game over${v.end_reason ? ` (${v.end_reason})` : ""}`;
  const who = (doc.to_act || v.to_act || []).map((s) => names[s]).join(", ");
  return `Turn ${v.turn} · phase ${v.phase} ${v.phase_name}${who ? ` · to act: ${who}` : ""}`;
}

// Who wins, as the engine's standings say (`win`: rank 1, or in the two-handed variant both hands
// of the person whose lower-ranked hand ranks better: the rule book's two-player variant).
export function winnerLine(doc, st) {
  const names = Object.fromEntries(doc.seats.map((s) => [s.seat, s.name]));
  const won = st.filter((r) => r.win);
  if (!won.length) return null;
  const who = won.map((r) => r.name || names[r.seat]).join(" and ");
  if (won[0].hand === undefined) return `${who} wins.`;
  return `Two-handed: person ${won[0].hand} (${who}) wins: the lower-ranked hand decides.`;
}

export function standingsPanel(doc) {
  const st = doc.standings || doc.view.standings;
  if (!st) return null;
  const names = Object.fromEntries(doc.seats.map((s) => [s.seat, s.name]));
  const hands = st.some((r) => r.hand !== undefined);
  const line = winnerLine(doc, st);
  return el("section", { class: "panel standings" }, el("h3", {}, "Final standings"),
    line ? el("p", { class: "winner" }, line) : "",
    el("table", {}, el("thead", {}, el("tr", {}, ["rank", "player", ...(hands ? ["hand"] : []), "score", "cash", "companies", "shares", ""].map((h) => el("th", {}, h)))),
      el("tbody", {}, st.map((r) => el("tr", r.win ? { class: "win" } : {}, el("td", { class: "num" }, r.rank), el("td", {}, r.name || names[r.seat]), ...(hands ? [el("td", {}, r.hand)] : []), el("td", { class: "num" }, `$${r.score}`),
        el("td", { class: "num" }, r.cash === undefined || r.cash === null ? "" : `$${r.cash}`), el("td", { class: "num" }, r.companies === undefined ? "" : `$${r.companies}`), el("td", { class: "num" }, r.shares === undefined ? "" : `$${r.shares}`),
        el("td", {}, r.win ? "wins" : ""))))));
}

// The whole table (without decisions) into `root`.
export function renderBoard(root, doc) {
  const own = owners(doc.view);
  root.replaceChildren(
    ...situation(doc),
    standingsPanel(doc) || "",
    playersPanel(doc, own),
    corporationsPanel(doc, own),
    marketPanel(doc, own),
    rowPanel(doc));
}
