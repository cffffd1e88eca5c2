"""``rolling report RESULTS... [--out report.html]``: a balance report of batches of bot games
(:mod:`rolling.report`)."""

from __future__ import annotations

from pathlib import Path

import typer

from rolling.cli.shared import fail


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add ``rolling report``."""

    @app.command("report")
    def report(
        results: list[str] = typer.Argument(..., metavar="RESULTS",
                                            help="results files of rolling simulate GAME --out (.csv or .parquet) "
                                                 "and/or analyses of rolling analyze --json (.json)"),
        out: str = typer.Option(None, "--out", metavar="FILE.html|FILE.md",
                                help="the page to write: HTML, or Markdown tables for documents when it ends "
                                     "in .md (default: the first results file with .html)"),
    ) -> None:
        """Write a self-contained HTML report of one or more results files of one game: win rate and
        score by bot and by player-order position with 95% intervals, score and game length
        distributions, and each game's own figures (plots embedded); or the same tables as Markdown.
        An analysis (rolling analyze --json) adds its evaluation graph, one line per player with the
        mistakes and blunders marked; analyses alone make a page of their own."""
        from rolling.report import write_report
        from rolling.report.analysis import build_analysis_page, load_analysis

        target = Path(out) if out else Path(results[0]).with_suffix(".html")
        if target.suffix.lower() not in (".html", ".htm", ".md"):
            fail(f"--out must end in .html or .md, not {target.suffix or 'nothing'!r}")
        for path in results:
            if not Path(path).is_file():
                fail(f"no such results file: {path}")
        try:
            analyses = [load_analysis(p) for p in results if Path(p).suffix.lower() == ".json"]
            tables = [p for p in results if Path(p).suffix.lower() != ".json"]
            if tables:
                write_report(tables, target, analyses)
            else:
                target.write_text(build_analysis_page(analyses, markdown=target.suffix.lower() == ".md"),
                                  encoding="utf-8")
        except ValueError as e:
            fail(str(e))
        except OSError as e:
            fail(f"{e.filename or target}: {e.strerror or e}")
        print(f"wrote {target}")
