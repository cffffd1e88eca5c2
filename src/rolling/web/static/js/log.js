// The game log as list items: the document's lines, each bot's reason for its move dimmed right
// after that move's lines (doc.reasons: [{n, seat, line, text}], `line` lines of the log before it).
import { el } from "./api.js";

export function logItems(doc) {
  const lines = doc.log || [];
  const reasons = doc.reasons || [];
  const names = Object.fromEntries((doc.seats || []).map((s) => [s.seat, s.name]));
  const out = [];
  let r = 0;
  for (let i = 0; i <= lines.length; i++) {
    while (r < reasons.length && reasons[r].line <= i) {
      const why = reasons[r++];
      out.push(el("li", { class: "reason", "data-n": why.n, title: "the bot's reason for its move" },
        el("b", {}, names[why.seat] ?? `Seat ${why.seat + 1}`), ` ${why.text}`));
    }
    if (i < lines.length) out.push(el("li", {}, lines[i]));
  }
  return out;
}
