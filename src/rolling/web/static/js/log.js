// The game log as list items: the document's lines, each bot's reason for its move dimmed right
// after that move's lines (doc.reasons: [{n, seat, line, text}], `line` lines of the log before it);
// the server's own lines with their time (doc.log_times: [{line, at}]).
import { el } from "./api.js";

export function logItems(doc) {
  const lines = doc.log || [];
  const reasons = doc.reasons || [];
  const names = Object.fromEntries((doc.seats || []).map((s) => [s.seat, s.name]));
  // when the server's lines happened (a seat taken, handed to a bot, the game stopped): their time
  const times = Object.fromEntries((doc.log_times || []).map((t) => [t.line, t.at]));
  const out = [];
  let r = 0;
  for (let i = 0; i <= lines.length; i++) {
    while (r < reasons.length && reasons[r].line <= i) {
      const why = reasons[r++];
      out.push(el("li", { class: "reason", "data-n": why.n, title: "the bot's reason for its move" },
        el("b", {}, names[why.seat] ?? `Seat ${why.seat + 1}`), ` ${why.text}`));
    }
    if (i < lines.length) {
      const at = times[i];
      out.push(el("li", at ? { class: "event" } : {}, at ? el("time", { datetime: at, title: new Date(at).toLocaleString() }, `${new Date(at).toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })} `) : null, lines[i]));
    }
  }
  return out;
}
