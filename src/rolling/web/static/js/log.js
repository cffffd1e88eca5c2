// The game log as list items: the document's lines, each bot's reason for its move dimmed right
// after that move's lines (doc.reasons: [{n, seat, line, text}], `line` lines of the log before it);
// every line with its time (doc.log_times: runs [{line, at, server?}], a run's time holding until
// the next): the whole date and time on hover, and in a narrow column the time of day (the date
// for an earlier day) wherever it changes; the server's own lines (a seat taken, handed to a bot,
// the game stopped) always show theirs.
import { el } from "./api.js";

// "16:05" today, "Nov 24" on another day (the column stays narrow; the hover has the rest)
function stamp(at) {
  const d = new Date(at);
  if (d.toDateString() === new Date().toDateString()) {
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }
  return d.toLocaleDateString([], { month: "short", day: "numeric" });
}

export function logItems(doc) {
  const lines = doc.log || [];
  const reasons = doc.reasons || [];
  const runs = doc.log_times || [];
  const names = Object.fromEntries((doc.seats || []).map((s) => [s.seat, s.name]));
  const out = [];
  let r = 0;
  let k = -1;
  let shown = null;
  for (let i = 0; i <= lines.length; i++) {
    while (r < reasons.length && reasons[r].line <= i) {
      const why = reasons[r++];
      out.push(el("li", { class: "reason", "data-n": why.n, title: "the bot's reason for its move" },
        el("b", {}, names[why.seat] ?? `Seat ${why.seat + 1}`), ` ${why.text}`));
    }
    if (i < lines.length) {
      while (k + 1 < runs.length && runs[k + 1].line <= i) k++;
      const run = k >= 0 ? runs[k] : null;
      const at = run && run.at ? run.at : null;
      const server = Boolean(run && run.server && run.line === i);
      const label = at ? stamp(at) : null;
      // (the column is CSS's ::before of data-at: not part of the line's text)
      const show = label !== null && (label !== shown || server);
      if (show) shown = label;
      out.push(el("li", { class: server ? "event" : null, title: at ? new Date(at).toLocaleString() : null,
        "data-at": show ? label : null, "data-time": at }, lines[i]));
    }
  }
  return out;
}
