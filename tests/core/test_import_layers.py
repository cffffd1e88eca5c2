"""Issue 28 item 13, "Engines read in one direction": inside each game package the imports form a
tree (no cycle), and every import points to a module of the same or a lower layer of the order
declared below (and in docs/layout.md, "Inside a game package").

Every import statement counts: at module level, inside a function, under ``if TYPE_CHECKING:``,
relative (``from .state import X``, ``from . import engine``) or absolute
(``from rolling.games.stars.state import X``, ``import rolling.games.stars.engine``). The modules
are read with :mod:`ast`, never imported, so a cycle that only bites at run time is seen too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rolling.games

GAMES_DIR = Path(rolling.games.__file__).parent

#: each game package's layers, lowest first: a module may import modules of its own layer or of
#: lower ones, never of a higher one. The state (and the events it logs) is at the bottom, the
#: procedures and the rules' phases above it, the dispatcher that binds the state's rule methods
#: (``apply``, ``legal_actions``, ...) on top, the package's ``__init__`` above everything.
LAYERS: dict[str, list[set[str]]] = {
    "stars": [
        {"actions", "config", "data", "moves"},  # the vocabulary: actions, setup options, tables
        {"state", "events"},  # what the game holds, and its log
        {"procedures", "setup", "view"},  # shared rule procedures, setting up, what a seat sees
        {"investment", "wrap_up", "acquisition", "deals", "closing", "income", "dividends", "end_card",
         "issue_shares", "ipo", "previews"},  # the phases (a variant's phase may build on another)
        {"engine"},  # the dispatcher: the turn sequence, binds the state's rule methods
        {"__init__", "bench"},
    ],
    "freight": [
        # the vocabulary: actions, the box, dice, paying (with the compiled walk, route search,
        # stockpile options, construction listing, roll and end of a turn) (and the chooser of the
        # rule modules compiled by Cython)
        {"actions", "components", "dice", "payment", "payways", "_walk", "_routes", "_stockpile", "_listing", "_turn",
         "compiled"},
        {"state", "events"},
        {"refill", "stockpile", "setup", "phases"},  # the procedures (G, F, setting up, phases A-C)
        {"draft", "contracts", "construction", "routes", "stations", "improvements", "turn",
         "previews"},  # the rule sections a player's action goes to
        {"legal"},  # the dispatcher: the legal moves and apply, binds the state's rule methods
        {"__init__"},
    ],
    "market": [
        {"rules", "actions"},
        {"events"},
        {"state", "previews"},  # the state is this game's engine (apply lives there)
        {"__init__"},
    ],
}


def package_imports(game: str, games_dir: Path = GAMES_DIR) -> dict[str, dict[str, int]]:
    """{module: {imported module of the same package: line of the first such import}} for every
    ``.py`` file of ``rolling.games.<game>`` (the package itself is the module ``__init__``) and
    every compiled module (a ``.c`` source: an extension, which imports nothing of the package)."""
    pkg_dir = games_dir / game
    compiled = {p.stem for p in pkg_dir.glob("*.c")}
    modules = {p.stem for p in pkg_dir.glob("*.py")} | compiled
    full = f"rolling.games.{game}"
    graph: dict[str, dict[str, int]] = {}
    for path in sorted(pkg_dir.glob("*.py")):
        edges: dict[str, int] = {}
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 or (node.level == 0 and node.module and
                                       (node.module == full or node.module.startswith(full + "."))):
                    rest = (node.module or "") if node.level == 1 else node.module[len(full):].lstrip(".")
                    if rest:
                        targets = [rest.split(".")[0]]
                    else:  # from . import engine; from rolling.games.stars import Config
                        targets = [a.name if a.name in modules else "__init__" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name[len(full) + 1:].split(".")[0] or "__init__" for a in node.names
                           if a.name == full or a.name.startswith(full + ".")]
            for t in targets:
                if t != path.stem:
                    edges.setdefault(t if t in modules else "__init__", node.lineno)
        graph[path.stem] = edges
    for name in compiled:
        graph[name] = {}
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted: every
    import cycle lies inside one of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


@pytest.mark.parametrize("game", sorted(LAYERS))
def test_engine_package_imports_form_a_tree(game):
    """Issue 28 item 13: no import cycle inside the package (function-level imports included)."""
    graph = package_imports(game)
    found = cycles(graph)
    detail = [" <-> ".join(comp) + ": " + ", ".join(f"{a}->{b} (line {graph[a][b]})" for a in comp
                                                   for b in sorted(graph[a]) if b in comp)
              for comp in found]
    assert not found, f"import cycles in rolling.games.{game}:\n" + "\n".join(detail)


@pytest.mark.parametrize("game", sorted(LAYERS))
def test_engine_package_imports_point_down_the_layers(game):
    """Issue 28 item 13: every module is in the declared layer order, and imports only its own
    layer or lower ones (the state at the bottom, the dispatcher on top)."""
    graph = package_imports(game)
    layer = {m: i for i, mods in enumerate(LAYERS[game]) for m in mods}
    assert set(graph) == set(layer), (
        f"LAYERS[{game!r}] must name every module of the package: new {sorted(set(graph) - set(layer))}, "
        f"gone {sorted(set(layer) - set(graph))} (put a new module in the lowest layer its imports allow)")
    upward = [f"{a} (layer {layer[a]}) imports {b} (layer {layer[b]}) at line {line}"
              for a, edges in sorted(graph.items()) for b, line in sorted(edges.items()) if layer[b] > layer[a]]
    assert not upward, f"imports pointing up in rolling.games.{game}:\n" + "\n".join(upward)


def test_the_reader_sees_every_import_at_the_top():
    """The graph above is the whole story: a function-level import inside a package is there only
    to dodge a cycle, so none is left (the reader finds every dependency at the top of the file)."""
    hidden = []
    for game in LAYERS:
        full = f"rolling.games.{game}"
        for path in sorted((GAMES_DIR / game).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for fn in ast.walk(tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(fn):
                    if isinstance(node, ast.ImportFrom) and (
                            node.level >= 1 or (node.module or "").startswith(full)):
                        hidden.append(f"{game}/{path.name}:{node.lineno} in {fn.name}()")
    assert not hidden, "function-level imports of the package's own modules:\n" + "\n".join(hidden)


def test_the_graph_reader_sees_every_kind_of_import(tmp_path):
    """The parser above counts relative, absolute, function-level and TYPE_CHECKING imports."""
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .a import X\n")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import Y\nX = 1\n")
    (pkg / "b.py").write_text("def f():\n    import rolling.games.toy.c\n")
    (pkg / "c.py").write_text("from rolling.games.toy import a\nfrom rolling.games.toy import X\n")
    graph = package_imports("toy", tmp_path)
    assert {m: set(e) for m, e in graph.items()} == {
        "__init__": {"a"}, "a": {"b"}, "b": {"c"}, "c": {"a", "__init__"}}
    assert cycles(graph) == [["__init__", "a", "b", "c"]]
