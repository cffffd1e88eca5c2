// The current decision as controls: one block per held seat that may act, its legal moves grouped
// (answers, auction, shares, acquisition, closing, dividend, issue, IPO, pass) with the engine's
// previews. `send(seat, action)` posts the chosen action.
import { el } from "./api.js";
import { data } from "./stars.js";

const ORDER = ["answers", "auction", "shares", "acquisition", "closing", "dividend", "issue", "IPO", "pass", "other"];
const TITLES = { answers: "Answer", auction: "Auction", shares: "Shares", acquisition: "Acquisition (offer a price)", closing: "Close a company",
  dividend: "Dividend", issue: "Issue a share", IPO: "Form a corporation", pass: "Pass / done", other: "Other" };
// which collapsed lists the player opened, kept across redraws
const opened = new Set();
// the decision the panel shows (issue 29: what you type is what is sent): while a new document
// brings the same decision (a chat line, another seat's move), the panel is left as it is, with
// the typed amounts, the focus and the caret; when the decision changes, the panel says so
let shownKey = null;
let ownMove = false;
// until when a changed panel sends nothing (the player has not seen it yet), ms since the epoch
let frozenUntil = 0;
const FREEZE_MS = 700;
// the identity of one control: what it sends, but for the amount still to type
const rowKey = (d) => JSON.stringify([d.type, d.args || {}, d.field || null, d.lo ?? null, d.hi ?? null]);
// the decision as the player reads it: every control with its label and preview
export function decisionKey(doc) {
  const seats = Object.keys(doc.decisions || {}).sort();
  return JSON.stringify(seats.map((s) => [s, (doc.decisions[s] || []).map((d) => [rowKey(d), d.label, d.preview ?? null])]));
}
// the next change of the decision comes from this page's own move (or undo): nothing to warn of
export function expectOwnMove(on) { ownMove = on; }
const sign = (n) => (n > 0 ? `+${n}` : `${n}`);

export function actionOf(d, value) {
  if (d.action) return d.action;
  const a = { type: d.type, ...d.args };
  if (d.field) a[d.field] = value;
  return a;
}

function previewText(d) {
  const p = d.preview;
  if (!p) return null;
  const t = d.type;
  if (t === "buy_share") return `pay $${p.amount}, price → $${p.price}${p.ends_game ? " · ENDS THE GAME" : ""}`;
  if (t === "sell_share") return `receive $${p.amount}, price → $${p.price}${p.bankrupt ? " · BANKRUPT" : ""}${p.receivership ? " · RECEIVERSHIP" : ""}`;
  if (t === "respond" && p.face !== undefined) {
    if (p.seller_gain === undefined) return `face value $${p.face}, price $${p.price} · ${p.buyer} income ${sign(p.buyer_gain)}/turn`;
    return `face value $${p.face}, price $${p.price} · income: ${p.seller} ${sign(p.seller_gain)}/turn, ${p.buyer} ${sign(p.buyer_gain)}/turn`;
  }
  if (t === "respond_deal" && p.steps) {
    return p.steps.map((x) => `${x.company} face $${x.face}, price $${x.price}: ${x.seller} ${sign(x.seller_gain)}/turn, ${x.buyer} ${sign(x.buyer_gain)}/turn`).join(" · ");
  }
  if (t === "offer" || t === "deal") {
    const syn = (p.synergies || []).map(([a, b, v]) => `${a}–${b} +$${v}`).join(", ");
    const before = p.before ?? p.income_before, after = p.after ?? p.income_after;
    return `income ${sign(p.gain)}/turn${after !== undefined ? ` ($${before} → $${after})` : ""}${syn ? ` · synergies ${syn}` : ""}`;
  }
  if (t === "close") return `income ${sign(p.gain)}/turn${p.scrap_bonus ? ` · scrap bonus $${p.scrap_bonus}` : ""}${p.stars ? ` · −${p.stars}★` : ""}`;
  if (t === "issue") return p.amount !== undefined ? `receives $${p.amount}, price → $${p.price}` : null;
  if (t === "form_corporation") {
    const corp = data() && data().corporations.find((c) => c.symbol === d.args.corporation);
    const ability = p.ability || (corp && corp.ability);
    return `you pay $${p.pay}, ${p.shares} share(s) each, treasury $${p.treasury}${ability ? ` · ability: ${ability}` : ""}`;
  }
  if (t === "start_auction" && data()) {
    const c = data().companies.find((x) => x.code === d.args.company);
    return c ? `${c.stars}★ · span $${c.price_span[0]}–${c.price_span[1]} · synergies ${c.synergies.map(([k, v]) => `${k}+${v}`).join(" ") || "none"}` : null;
  }
  return null;
}

// what a careful player at the table would say before the move (a confirm in the page)
function warning(d) {
  const p = d.preview;
  if (d.type !== "sell_share" || !p) return null;
  if (p.bankrupt) return `Selling this share takes ${d.args.corporation} to $0: it goes bankrupt. Sell it?`;
  if (p.receivership) return `You sell the last share of ${d.args.corporation} that a player holds: the corporation goes into receivership (no president). Sell it?`;
  return null;
}

function row(d, send, seat) {
  const pv = previewText(d);
  const key = JSON.stringify(d.args || {});
  if (!d.field || d.lo === d.hi) {
    const value = d.field ? d.lo : undefined;
    const label = pv ? d.label.replace(/ \(income [+-]?\d+\/turn\)/, "") : d.label;
    const warn = warning(d);
    return el("div", { class: "dec" },
      el("button", { class: `act t-${d.type}${warn ? " warn" : ""}`, "data-type": d.type, "data-args": key,
        onclick: () => { if (!warn || window.confirm(warn)) send(seat, actionOf(d, value)); } }, label),
      pv ? el("div", { class: "pv" }, pv) : null);
  }
  if (d.type === "dividend" && d.preview && d.preview.by_amount && d.hi - d.lo <= 40) {
    const by = d.preview.by_amount;
    const buttons = [];
    for (let a = d.lo; a <= d.hi; a++) {
      const r = by[String(a)] || {};
      buttons.push(el("button", { class: "act amount", "data-type": d.type, "data-amount": a, "data-args": key,
        title: r.total !== undefined ? `pays $${r.total} in all, treasury keeps $${r.treasury}, ${r.stars}★ of ${r.required}★ required` : "",
        onclick: () => send(seat, actionOf(d, a)) }, el("b", {}, `$${a}`), r.price !== undefined ? el("small", {}, ` → $${r.price}`) : null));
    }
    return el("div", { class: "dec dividend" }, el("div", { class: "lbl" }, `${d.args.corporation}: dividend per share → share price`), el("div", { class: "amounts" }, buttons));
  }
  const input = el("input", { type: "number", min: d.lo, max: d.hi, value: d.lo, step: 1, class: "amount-in", "aria-label": d.field, "data-key": rowKey(d) });
  const go = () => {
    if (Date.now() < frozenUntil) return;
    const v = Number(input.value);
    if (!Number.isInteger(v) || v < d.lo || v > d.hi) { input.setCustomValidity(`$${d.lo} to $${d.hi}`); input.reportValidity(); return; }
    send(seat, actionOf(d, v));
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  input.addEventListener("input", () => input.setCustomValidity(""));
  // the range and the income are shown beside the input and in the preview line
  const label = d.label.replace(/ \(\$\d+-\$\d+\)/, "").replace(/ \(income [+-]?\d+\/turn\)/, pv ? "" : "$&");
  return el("div", { class: "dec ranged" },
    el("div", { class: "lbl" }, label),
    el("div", { class: "ctl" }, el("span", { class: "muted" }, `$${d.lo}–$${d.hi} `), input,
      el("button", { class: `act t-${d.type}`, "data-type": d.type, "data-args": key, onclick: go }, d.type === "offer" ? "offer" : d.type === "bid" || d.type === "start_auction" ? "bid" : "go")),
    pv ? el("div", { class: "pv" }, pv) : null);
}

// Answers: one line per question, its accept and reject side by side.
function answers(items, send, seat, doc) {
  const byQ = new Map();
  for (const d of items) {
    const q = d.type === "respond" ? `${d.args.corporation}/${d.args.company}/${d.args.announcer || ""}` : JSON.stringify(d.args.transactions);
    if (!byQ.has(q)) byQ.set(q, []);
    byQ.get(q).push(d);
  }
  const proposals = (doc.view && doc.view.proposals) || [];
  return [...byQ.values()].map((ds) => {
    const d0 = ds[0];
    let text = d0.label.replace(/^(accept|reject|pre-empt: buy it|do not pre-empt)(: | the deal: )?/, "");
    if (d0.type === "respond") {
      // two corporations may offer for one company: the proposal of this answer's corporation
      const corp = ((doc.view && doc.view.corporations) || []).find((c) => c.symbol === d0.args.corporation);
      const p = proposals.find((x) => x.company === d0.args.company && (!corp || x.corporation === corp.code));
      const code = p ? p.corporation : d0.args.corporation;
      text = p ? `${code} offers $${p.price} for ${d0.args.company}` : d0.label.replace(/^[^:]*: /, "").replace("/", "for");
    }
    ds.sort((a, b) => Number(b.args.accept) - Number(a.args.accept));
    const pv = ds.map(previewText).find((x) => x);
    return el("div", { class: "dec answer" }, el("span", { class: "lbl" }, text),
      ds.map((d) => el("button", { class: `act t-${d.type}${d.args.accept ? " yes" : " no"}`, "data-type": d.type, "data-args": JSON.stringify(d.args),
        title: d.label, onclick: () => send(seat, actionOf(d)) }, d.label.split(":")[0])),
      pv ? el("div", { class: "pv" }, pv) : null);
  });
}

// Form a corporation: one block per corporation (its ability), a button per share price.
function ipos(items, send, seat) {
  const out = [];
  const byCorp = new Map();
  for (const d of items) {
    if (d.type !== "form_corporation") { out.push(row(d, send, seat)); continue; }
    if (!byCorp.has(d.args.corporation)) byCorp.set(d.args.corporation, []);
    byCorp.get(d.args.corporation).push(d);
  }
  // the terms depend on the share price only: said once
  const terms = new Map();
  for (const ds of byCorp.values()) for (const d of ds) if (d.preview && !terms.has(d.args.price)) terms.set(d.args.price, d.preview);
  if (terms.size) {
    const cols = [...terms.entries()].sort((a, b) => a[0] - b[0]);
    const line = (head, f) => el("tr", {}, el("th", {}, head), cols.map(([price, p]) => el("td", { class: "num" }, f(price, p))));
    out.push(el("table", { class: "terms" }, el("tbody", {},
      line("share price", (price) => `$${price}`), line("you pay", (_, p) => `$${p.pay}`),
      line("shares each", (_, p) => p.shares), line("treasury", (_, p) => `$${p.treasury}`))));
  }
  for (const [corp, ds] of byCorp) {
    const info = data() && data().corporations.find((c) => c.symbol === corp);
    const name = ds[0].label.match(/^form (.*?) with /);
    out.push(el("div", { class: "dec ipo" },
      el("span", { class: "lbl", title: info ? info.ability : "" }, el("b", {}, name ? name[1] : corp), info ? el("small", { class: "muted" }, ` ${info.ability}`) : null),
      el("div", { class: "amounts" }, ds.map((d) => el("button", { class: "act amount", "data-type": d.type, "data-args": JSON.stringify(d.args), title: d.label,
        onclick: () => send(seat, actionOf(d)) }, `$${d.args.price}`)))));
  }
  return out;
}

export function renderDecisions(root, doc, send) {
  const key = decisionKey(doc);
  if (key === shownKey && root.isConnected) return root.querySelector(".seat-dec") !== null;
  // the amounts typed (and where the focus was) in controls the new decision still has
  const typed = new Map([...root.querySelectorAll("input.amount-in[data-key]")].map((i) => [i.dataset.key, i.value]));
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  const had = root.querySelector(".seat-dec") !== null;
  const changed = had && shownKey !== null && !ownMove;
  shownKey = key;
  ownMove = false;
  const any = buildDecisions(root, doc, send);
  const dropped = [];
  for (const [k, v] of typed) {
    const input = [...root.querySelectorAll("input.amount-in[data-key]")].find((i) => i.dataset.key === k);
    if (input) { input.value = v; if (k === focused) input.focus(); }
    else if (v !== "" && String(v) !== String(JSON.parse(k)[3])) dropped.push(v);
  }
  if (changed && any) {
    root.prepend(el("div", { class: "dec-changed", role: "status" },
      "The decision changed (the game moved on): look again before you send.",
      dropped.length ? ` The amount you typed ($${dropped.join(", $")}) is no longer a choice here.` : ""));
    // a click meant for the panel that was there a moment ago is not sent
    const buttons = [...root.querySelectorAll("button.act")];
    for (const b of buttons) b.disabled = true;
    frozenUntil = Date.now() + FREEZE_MS;
    setTimeout(() => { for (const b of buttons) b.disabled = false; }, FREEZE_MS);
  }
  return any;
}

function buildDecisions(root, doc, send) {
  const names = Object.fromEntries(doc.seats.map((s) => [s.seat, s.name]));
  const blocks = [];
  const seats = Object.keys(doc.decisions || {}).map(Number).sort((a, b) => a - b);
  for (const seat of seats) {
    const list = doc.decisions[String(seat)] || [];
    if (!list.length) continue;
    const groups = {};
    for (const d of list) (groups[d.group || "other"] ||= []).push(d);
    const keys = Object.keys(groups).sort((a, b) => (ORDER.indexOf(a) + 99) % 99 - (ORDER.indexOf(b) + 99) % 99);
    blocks.push(el("div", { class: "seat-dec", "data-seat": seat },
      seats.length > 1 || (doc.you || []).length > 1 ? el("h3", {}, `${names[seat]} decides`) : null,
      keys.map((g) => {
        const items = groups[g];
        let body;
        if (g === "answers") body = answers(items, send, seat, doc);
        else if (g === "IPO") body = ipos(items, send, seat);
        else if (g === "acquisition" && items.length > 10) {
          const byCorp = {};
          for (const d of items) (byCorp[d.args.corporation || "deal"] ||= []).push(d);
          body = Object.entries(byCorp).map(([c, ds]) => {
            const k = `${seat}/${c}`;
            return el("details", { class: "corpgroup", open: opened.has(k), ontoggle: (e) => (e.target.open ? opened.add(k) : opened.delete(k)) },
              el("summary", {}, `${c} (${ds.length})`), ds.map((d) => row(d, send, seat)));
          });
        } else body = items.map((d) => row(d, send, seat));
        return el("div", { class: `group g-${g}` }, el("h4", {}, TITLES[g] || g), body);
      })));
  }
  root.replaceChildren(...blocks);
  return blocks.length > 0;
}
