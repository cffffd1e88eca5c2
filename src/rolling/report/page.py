"""The report's HTML: one self-contained page (styles inline, pictures as ``data:`` URIs).

A :class:`Page` is a title, a few facts and a list of sections; a section holds paragraphs,
tables (pandas DataFrames, escaped by pandas) and figures, in order. Nothing is fetched from
elsewhere when the page is opened.

The same page renders as Markdown (:meth:`Page.markdown`): the same paragraphs and tables, each
figure replaced by its caption, for documents such as docs/balance.md.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import pandas as pd

STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #1d2430; background: #f6f7f9; margin: 0; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 28px 60px; background: #fff;
       box-shadow: 0 0 0 1px #e3e6ea; min-height: 100vh; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 34px 0 8px; padding-bottom: 4px; border-bottom: 2px solid #e3e6ea; }
h3 { font-size: 16px; margin: 22px 0 6px; }
p { margin: 6px 0 10px; max-width: 78ch; }
p.note { color: #5a6472; font-size: 13px; }
nav { font-size: 13px; margin: 10px 0 0; display: flex; flex-wrap: wrap; gap: 2px 14px; }
nav a { color: #1f5fa8; text-decoration: none; white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 14px 0; font-size: 14px; }
dl.facts dt { color: #5a6472; } dl.facts dd { margin: 0; }
table.data { border-collapse: collapse; margin: 8px 0 14px; font-size: 13.5px; font-variant-numeric: tabular-nums; }
table.data th, table.data td { padding: 4px 10px; border-bottom: 1px solid #e3e6ea; text-align: right; }
table.data td { white-space: nowrap; }
table.data td:first-child { white-space: normal; min-width: 9em; }
table.data small { display: block; color: #5a6472; font-size: 12px; max-width: 26em; }
table.data th { background: #f0f2f5; font-weight: 600; }
table.data td:first-child, table.data th:first-child { text-align: left; }
table.data tbody tr:hover { background: #f7f9fc; }
figure { margin: 10px 0 18px; }
figure img { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 13px; color: #5a6472; margin-top: 2px; }
.bad { color: #b3261e; }
"""


def fmt_interval(value: float | None, low: float, high: float, digits: int = 1, unit: str = "",
                 pm: bool = False) -> str:
    """``"152.3 (150.1–154.5)"``, ``"-4.6 (-5.2 to -4.0)"`` (or with ``pm`` ``"152.3 ± 2.2"``): a value and its interval; the
    value alone when there is no interval, a dash when there is no value."""
    if value is None or math.isnan(value):
        return "–"
    main = f"{value:.{digits}f}{unit}"
    if math.isnan(low):
        return main
    if pm:
        return f"{main} ± {(high - low) / 2:.{digits}f}"
    to = " to " if low < 0 else "–"  # "-5.2–-4.0" would read as a typo
    return f"{main} ({low:.{digits}f}{to}{high:.{digits}f})"


def fmt_rate(rate: float, low: float, high: float) -> str:
    """``"25.3% (24.1–26.5)"``: a rate and its interval, in %."""
    return fmt_interval(rate * 100, low * 100, high * 100, 1, "%")


def fmt_mean(mean: float, low: float, high: float, digits: int = 1) -> str:
    """``"152.3 (150.1–154.5)"``: a mean and its interval."""
    return fmt_interval(mean, low, high, digits)


def fmt_pm(mean: float, low: float, high: float, digits: int = 2) -> str:
    """``"13.43 ± 0.37"``: a mean and the half width of its (symmetric) interval."""
    return fmt_interval(mean, low, high, digits, pm=True)


@dataclass
class Section:
    """A titled part of the page; add paragraphs, tables and figures in reading order."""

    title: str
    anchor: str
    parts: list[str] = field(default_factory=list)
    md: list[str] = field(default_factory=list)

    def text(self, words: str, note: bool = False) -> Section:
        """A paragraph (plain text, escaped)."""
        cls = ' class="note"' if note else ""
        self.parts.append(f"<p{cls}>{html.escape(words)}</p>")
        self.md.append(f"*{words}*" if note else words)
        return self

    def heading(self, words: str) -> Section:
        """A sub-heading."""
        self.parts.append(f"<h3>{html.escape(words)}</h3>")
        self.md.append(f"### {words}")
        return self

    def table(self, df: pd.DataFrame, notes: list[str] | None = None) -> Section:
        """A table of ``df`` as shown (format numbers before), without its index; ``notes``, one per
        row, are set in small type under the row's first cell. Missing values show as a dash."""
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
        body = []
        for k, row in enumerate(df.itertuples(index=False)):
            cells = ["–" if pd.isna(v) else html.escape(str(v)) for v in row]
            if notes:
                cells[0] += f"<small>{html.escape(notes[k])}</small>"
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        self.parts.append(f'<table class="data"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')
        rows = ["| " + " | ".join(str(c) for c in df.columns) + " |", "|" + "---|" * len(df.columns)]
        for k, row in enumerate(df.itertuples(index=False)):
            cells = ["–" if pd.isna(v) else str(v).replace("|", "\\|") for v in row]
            if notes:
                cells[0] += f" ({notes[k]})"
            rows.append("| " + " | ".join(cells) + " |")
        self.md.append("\n".join(rows))
        return self

    def figure(self, uri: str, alt: str, caption: str = "") -> Section:
        """A picture (a ``data:`` URI), its alternative text and an optional caption."""
        cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
        self.parts.append(f'<figure><img src="{uri}" alt="{html.escape(alt, quote=True)}">{cap}</figure>')
        self.md.append(f"*(Plot in the HTML report: {(caption or alt).rstrip('.')}.)*")
        return self


@dataclass
class Page:
    """The whole report: a title, facts (label -> value) and sections."""

    title: str
    facts: dict[str, str] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)

    def section(self, title: str, anchor: str) -> Section:
        """Add and return a new section."""
        s = Section(title, anchor)
        self.sections.append(s)
        return s

    def render(self) -> str:
        """The page as HTML text."""
        facts = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in self.facts.items())
        nav = "".join(f'<a href="#{s.anchor}">{html.escape(s.title)}</a>' for s in self.sections)
        body = "".join(
            f'<section id="{s.anchor}"><h2>{html.escape(s.title)}</h2>{"".join(s.parts)}</section>' for s in self.sections
        )
        return (
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(self.title)}</title><style>{STYLE}</style></head>"
            f"<body><main><h1>{html.escape(self.title)}</h1><dl class=\"facts\">{facts}</dl><nav>{nav}</nav>"
            f"{body}</main></body></html>\n"
        )

    def markdown(self) -> str:
        """The page as Markdown: title, facts, then each section's paragraphs and tables."""
        out = [f"# {self.title}", "\n".join(f"- {k}: {v}" for k, v in self.facts.items())]
        for s in self.sections:
            out.append(f"## {s.title}")
            out.extend(s.md)
        return "\n\n".join(part for part in out if part) + "\n"
