// Upload an 18xx.games export: the server turns it into a watch-only game, then its history opens.
import { api, el } from "./api.js";

const $ = (s) => document.getElementById(s);
$("import").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("error").hidden = true;
  const f = $("file").files[0];
  if (!f) { $("error").textContent = "choose the export file first"; $("error").hidden = false; return; }
  const form = new FormData();
  form.append("file", f);
  try {
    const r = await api("/api/import", { method: "POST", form });
    const hist = `/g/${encodeURIComponent(r.id)}/history`;
    $("done").replaceChildren("Imported: ", el("a", { href: hist, id: "imported-history" }, "step through it"), " · ", el("a", { href: r.spectator_url }, "the table as it stands"));
    $("done").hidden = false;
    if (r.error) $("done").append(el("div", { class: "error" }, `The export was followed as far as it goes: ${r.error}`));
    else location.href = hist;
  } catch (err) {
    $("error").textContent = err.message;
    $("error").hidden = false;
  }
});
