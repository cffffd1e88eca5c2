"""Results files of a batch: the table of :mod:`rolling.sim.table` as CSV or Parquet, by extension.

- ``.csv``: a header line, then one line per row, flushed after every chunk of games, so a file
  cut short by a crash still holds every game written before it (empty cells for missing values;
  ``win`` as ``True``/``False``).
- ``.parquet`` (or ``.pq``): pyarrow, typed columns (int64, uint64 for the seed, string, bool), rows
  written in row groups of :data:`ROW_GROUP` rows; the file is whole once closed (Ctrl-C closes it).

:func:`read_results` reads either back as a pandas DataFrame with the same column types.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: extensions understood, by format
EXTENSIONS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}
#: rows per Parquet row group
ROW_GROUP = 50_000


def results_format(path: str | Path) -> str:
    """``"csv"`` or ``"parquet"`` from the file's extension.

    Raises:
        ValueError: any other extension.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in EXTENSIONS:
        raise ValueError(f"{path}: the results file must end in .csv or .parquet, not {suffix or 'nothing'!r}")
    return EXTENSIONS[suffix]


class ResultsWriter:
    """Writes rows to a results file; use :func:`open_results`. ``write(rows)`` appends rows (dicts
    with any of the columns; missing ones are empty), ``close()`` finishes the file."""

    def write(self, rows: Sequence[dict]) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Csv(ResultsWriter):
    def __init__(self, path: Path, columns: Sequence[tuple[str, str]]):
        self.names = [name for name, _ in columns]
        self.file = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115 - closed by close()
        self.out = csv.DictWriter(self.file, self.names, extrasaction="ignore")
        self.out.writeheader()
        self.file.flush()

    def write(self, rows: Sequence[dict]) -> None:
        self.out.writerows(rows)
        self.file.flush()

    def close(self) -> None:
        if not self.file.closed:
            self.file.close()


_ARROW_TYPES = {"int": "int64", "uint": "uint64", "str": "string", "bool": "bool_"}


def arrow_schema(columns: Sequence[tuple[str, str]]):
    """The pyarrow schema of a results table's columns."""
    import pyarrow as pa

    return pa.schema([(name, getattr(pa, _ARROW_TYPES[kind])()) for name, kind in columns])


class _Parquet(ResultsWriter):
    def __init__(self, path: Path, columns: Sequence[tuple[str, str]]):
        import pyarrow.parquet as pq

        self.names = [name for name, _ in columns]
        self.schema = arrow_schema(columns)
        self.writer = pq.ParquetWriter(str(path), self.schema, compression="zstd")
        self.buffer: list[dict] = []

    def write(self, rows: Sequence[dict]) -> None:
        self.buffer.extend(rows)
        if len(self.buffer) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self.buffer:
            data = {name: [row.get(name) for row in self.buffer] for name in self.names}
            self.writer.write_table(pa.Table.from_pydict(data, schema=self.schema))
            self.buffer = []

    def close(self) -> None:
        if self.writer is not None:
            try:
                self._flush()
            finally:
                self.writer.close()
                self.writer = None


def open_results(path: str | Path, columns: Sequence[tuple[str, str]]) -> ResultsWriter:
    """Create (or replace) the results file ``path`` with ``columns`` ((name, type) pairs).

    Raises:
        ValueError: an extension other than .csv, .parquet, .pq.
        OSError: the file cannot be created.
    """
    path = Path(path)
    kind = results_format(path)
    return _Csv(path, columns) if kind == "csv" else _Parquet(path, columns)


_PANDAS_TYPES = {"int": "Int64", "uint": "UInt64", "str": "string", "bool": "boolean"}


def read_results(path: str | Path):
    """Read a results file (CSV or Parquet) as a pandas DataFrame: nullable typed columns
    (``Int64``, ``UInt64``, ``string``, ``boolean``), empty strings where the file has none.

    Raises:
        ValueError: an unknown extension, or a file that is not a results table (no ``game``
            column, or an unknown game).
        OSError: the file cannot be read.
    """
    import pandas as pd

    from rolling.sim import RUNNERS
    from rolling.sim.table import columns

    path = Path(path)
    kind = results_format(path)
    known: dict[str, str] = {}
    for game in RUNNERS:
        known.update(dict(columns(game)))
    try:
        if kind == "csv":
            strings = {name: str for name, t in known.items() if t == "str"}
            df = pd.read_csv(path, dtype=strings, keep_default_na=False, na_values={
                name: [""] for name, t in known.items() if t != "str"})
        else:
            df = pd.read_parquet(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not a results table ({str(e).splitlines()[0]})") from None
    except OSError:
        raise
    except Exception as e:  # pyarrow's ArrowInvalid and friends: a file that is not Parquet
        raise ValueError(f"{path}: not a results table ({str(e).splitlines()[0]})") from None
    if "game" not in df.columns or len(df) and not set(df["game"]) <= set(RUNNERS):
        raise ValueError(f"{path}: not a results table of rolling simulate (no game column or an unknown game)")
    out: dict[str, Any] = {}
    for name in df.columns:
        t = known.get(name)
        col = df[name]
        if t == "str":
            out[name] = col.fillna("").astype("string")
        elif t is not None:
            out[name] = col.astype(_PANDAS_TYPES[t])
        else:
            out[name] = col
    return pd.DataFrame(out)
